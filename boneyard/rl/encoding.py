"""The machinery every game's RL encoding shares: action indices, masks, observation blocks.

An :class:`Encoding` is made for one game, player count and rules. It declares

- a fixed-size discrete action space (``num_actions``): every action the game can ever
  list maps to one index (:meth:`Encoding.index`) and back (:meth:`Encoding.legal_map`
  gives, for a position, the index of each legal action and the action of each index);
- a fixed-shape float32 observation (:meth:`Encoding.observe`) built only from a seat's
  ``view``: named blocks documented in :attr:`Encoding.blocks`.

The per-game modules (``boneyard/rl/encodings/<id>.py``) subclass it and register the
class under the game id; the adapters (PettingZoo, Gymnasium, OpenSpiel) only talk to
this interface. Seats in observations are *relative*: block entry 0 is the observing
seat, 1 the next seat in turn order, and so on, so one policy can play every seat.

Each game defines its observation once, in Python, as data: its own blocks
(:meth:`Encoding.game_blocks`), each with the generic operations that write it
(:mod:`boneyard.rl.layout`), and in ``told`` how each kind of event it logs becomes a row
of the common history window (:class:`Told`, :class:`Choice` or :func:`silent`). Rows are
read from the events' fields, never from words. One game-independent interpreter runs
the declared blocks: ``_observe.c``'s where it was built, else :func:`layout.write`'s in
Python (the same values).

What a block needs that the engine's view does not list as such (who played each tile
this hand, the suits a seat has shown out of) a game derives from the view's typed
events in :meth:`Encoding.derive`, with the engine's own rule functions: the derived
facts are added to the view under their names, and the blocks read them like any other
key. They come from the seat's view only, so they show nothing the seat cannot see.
"""

from __future__ import annotations

import importlib
import importlib.util
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, NamedTuple

import numpy as np
from mypy_extensions import mypyc_attr

from ..tiles import Tile, double_six
from . import layout
from .facts import Facts, facts
from .layout import Block, Length, Lookup, Scale, Seat, Seats, Window

_c_observe: ModuleType | None
try:  # built from _observe.c at install time (game-independent: the blocks' interpreter, masks, legal maps)
    from . import _observe as _c_observe
except ImportError:  # pragma: no cover - a machine without a C compiler
    _c_observe = None
if _c_observe is not None and not hasattr(_c_observe, "program"):  # pragma: no cover - built before its source
    _c_observe = None

_F32 = np.dtype(np.float32)
_I8 = np.dtype(np.int8)

C_OBSERVE = _c_observe is not None
"""Whether ``_observe.c``'s interpreter writes the observations (else :func:`layout.write`: the same values, slower)."""

__all__ = ["Block", "Length", "Lookup", "Scale", "Seat", "Seats", "Window"]  # re-exported for the game modules

# The 28 tile kinds of a double-six set, in a fixed order (0-0, 1-0, 1-1, 2-0, ...).
KINDS: tuple[Tile, ...] = tuple(double_six())
KIND_INDEX: dict[Tile, int] = {t: i for i, t in enumerate(KINDS)}
# The 21 kinds without a blank (eighty's set).
KINDS_NO_BLANK: tuple[Tile, ...] = tuple(double_six(blanks=False))
KIND_INDEX_NO_BLANK: dict[Tile, int] = {t: i for i, t in enumerate(KINDS_NO_BLANK)}
_TILE_TEXT: dict[str, Tile] = {str(t): t for t in KINDS}
# Tile string (as views and events write it) -> kind index, for the observation writers' hot paths.
TEXT_INDEX: dict[str, int] = {str(t): i for i, t in enumerate(KINDS)}
TEXT_INDEX_NO_BLANK: dict[str, int] = {str(t): i for i, t in enumerate(KINDS_NO_BLANK)}

#: The history window: the last HISTORY_WINDOW events of the view.
HISTORY_WINDOW = 8
#: The verb slot after the encoding's verbs: an event that acts without one of them.
OTHER = "other"


def tile(text: str) -> Tile:
    """A tile from its string, with a fast path for the canonical spelling of views."""
    found = _TILE_TEXT.get(text)
    return found if found is not None else Tile.parse(text)


class Row(NamedTuple):
    """What one event puts in its row of the history window (seats absolute; relative when written).

    ``actors``: the seats marked in the actor part (one in most rows, none in a row with
    no actor, several where an event is about several seats); ``verb``: the verb slot
    (one of the encoding's verbs, or :data:`OTHER`), ``None`` for an all-zero row;
    ``tile``: the tile marked ("6-4"), or ``None``. Seats and tile are as the event's
    fields hold them (typed loosely: a broken event may hold anything there, which is
    refused, with a ``ValueError``, when the row is written).
    """

    actors: tuple[Any, ...]
    verb: str | None
    tile: Any


#: The row of an event that says nothing an agent acts on (a deal, a hand's end): all zeros.
NOTHING = Row((), None, None)


@dataclass(frozen=True)
class Told:
    """How one kind of event is written as a history row, from its fields.

    ``verb``: the verb slot (an encoding's verb or :data:`OTHER`). ``actor``: the field
    holding the seat that acts (``None``: no actor). ``tile``: the field holding the
    row's tile, a tile or a list of tiles whose first is taken (absent, null or empty:
    no tile, as where only the seat itself may see the tile). ``among``: seats that act
    together, from a list of records, ``(field, seat, skip, value)``: the ``seat`` of each
    record of ``event[field]`` whose ``skip`` field is not ``value`` (Montana's claim
    window: the seat of each answer that is not a pass).
    """

    verb: str
    actor: str | None = "seat"
    tile: str | None = None
    among: tuple[str, str, str, Any] | None = None

    def __call__(self, event: Mapping[str, Any]) -> Row:
        """The row of ``event``."""
        seat = event.get(self.actor) if self.actor is not None else None
        found = event.get(self.tile) if self.tile is not None else None
        if isinstance(found, list):
            found = found[0] if found else None
        seats: tuple[Any, ...] = () if seat is None else (seat,)
        if self.among is not None:
            field, key, skip, value = self.among
            seats += tuple(r[key] for r in event[field] if r.get(skip) != value)
        return Row(seats, self.verb, found)

    def said(self) -> str:
        """The row in words (``docs/rl.md``'s tables)."""
        parts = [f"actor `{self.actor}`" if self.actor is not None else "no actor"]
        if self.among is not None:
            field, key, skip, value = self.among
            shown = f'"{value}"' if isinstance(value, str) else repr(value)
            parts = [f"actors: the `{key}` of each of `{field}` whose `{skip}` is not {shown}"]
        parts.append(f"verb {self.verb}")
        if self.tile == "tiles":
            parts.append("tile: the first of `tiles` (when present)")
        elif self.tile is not None:
            parts.append(f"tile `{self.tile}` (when present)")
        return ", ".join(parts)


def silent(event: Mapping[str, Any]) -> Row:
    """The all-zero row (:data:`NOTHING`), for the kinds that put nothing in the window."""
    return NOTHING


@dataclass(frozen=True)
class Choice:
    """How a kind is written whose row a :class:`Told` cannot say: a function of the event, and its rule in words.

    ``said`` is what ``docs/rl.md`` shows for the kind (kept as data: compiled
    functions carry no docstring).
    """

    said: str
    make: Callable[[Mapping[str, Any]], Row]

    def __call__(self, event: Mapping[str, Any]) -> Row:
        """The row of ``event``."""
        return self.make(event)


#: What a game's ``told`` maps each event kind to: a :class:`Told`, a :class:`Choice`, :func:`silent`
#: (any function of the event giving its :class:`Row` will do).
Teller = Callable[[Mapping[str, Any]], Row]


@mypyc_attr(allow_interpreted_subclasses=True)  # plug-ins may write encodings of their own games
class Encoding(ABC):
    """One game's action space and observation, for a player count and rules."""

    game_id: ClassVar[str]
    #: The phases of the game's views, in a fixed order (the ``phase`` one-hot).
    phases: ClassVar[tuple[str, ...]]
    #: The verb slots of the history rows, in a fixed order (:data:`OTHER` follows them).
    verbs: ClassVar[tuple[str, ...]]
    #: How each kind of event the game logs is written as a history row (a kind not
    #: listed gets the all-zero row; the tests check that every declared kind is listed).
    told: ClassVar[Mapping[str, Teller]]
    #: Whether an action's index never depends on the position (then it is cached).
    position_independent: ClassVar[bool] = True
    #: Whether the game draws its first dealer at random (False: a ``dealer`` is only recorded).
    random_first_dealer: ClassVar[bool] = True
    #: How many events' window rows C caches (a power of two; each cached event is held, so memory stays bounded).
    window_cache: ClassVar[int] = 4096
    #: The keys :meth:`derive` adds to a view (none: the blocks read the engine's view alone).
    derived: ClassVar[tuple[str, ...]] = ()
    #: The action sets a game offers (``encoding(..., actions=...)``): ``"standard"`` always;
    #: Rummikub adds ``"rearrange"`` (the solver's keep-back plays, at a cost in speed).
    action_sets: ClassVar[tuple[str, ...]] = ("standard",)
    #: The view's keys :meth:`derive` reads (a view without one is refused, naming it).
    derived_from: ClassVar[tuple[str, ...]] = ("events",)

    def __init__(self, players: Any, rules: Mapping[str, Any] | None = None, actions: str = "standard") -> None:
        from .. import api

        if actions not in self.action_sets:
            raise ValueError(f"{self.game_id}: actions must be one of {', '.join(self.action_sets)}, got {actions!r}")
        #: Which of the game's action sets the mask fills (see :attr:`action_sets`).
        self.actions: str = actions

        info = api.game_info(self.game_id)
        p = info["players"]
        if isinstance(players, bool) or not isinstance(players, int) or not p["min"] <= players <= p["max"]:
            raise ValueError(f"{self.game_id} is played by {p['min']} to {p['max']} players, got {players!r}")
        self.players: int = players
        # Validated and completed with the defaults (RulesError on a bad option).
        probe = api.new_game(self.game_id, players=players, seed=0, rules=rules)
        self.rules: dict[str, Any] = probe.rules.to_dict()
        #: The game's whole tile set under these rules, sorted (what every hand is dealt from).
        self.full_set: tuple[Tile, ...] = tuple(probe.full_set(probe.rules))
        self.facts: Facts = facts(self.game_id, players, self.rules)
        self.num_actions = self.action_count()
        self._verb_index = {v: i for i, v in enumerate(self.verbs)}
        self._verb_index[OTHER] = len(self.verbs)
        for kind, teller in self.told.items():
            if isinstance(teller, Told) and teller.verb not in self._verb_index:
                raise ValueError(f"{self.game_id}: {kind} is told with {teller.verb!r}, not one of {self.verbs}")
        self._history_width = players + len(self.verbs) + 1 + len(KINDS)
        self.blocks: tuple[Block, ...] = (*self.common_blocks(), *self.game_blocks())
        layout.check(self.blocks, players)
        self.obs_size = sum(b.size for b in self.blocks)
        #: Each block's offset in the vector.
        self.off: dict[str, int] = {}
        start = 0
        for b in self.blocks:
            self.off[b.name] = start
            start += b.size
        #: The offsets of the game's own blocks, in :meth:`game_blocks` order.
        self.game_off: tuple[int, ...] = tuple(self.off[b.name] for b in self.blocks[len(self.common_blocks()) :])
        self._offsets: tuple[int, ...] = tuple(self.off[b.name] for b in self.blocks)
        #: rel_of[me][seat]: ``seat`` relative to ``me``.
        self.rel_of = [[(s - me) % players for s in range(players)] for me in range(players)]
        #: How many events' rows are memoised before the memo is emptied (bounded memory).
        self.memo_events = 20_000
        # id(event) -> the event, and id(event) -> the entries of its row as each seat sees it:
        # see _remember.
        self._memo_events: dict[int, Mapping[str, Any]] = {}
        self._memo: dict[int, layout.RowEntries] = {}
        # A Row -> its entries (few distinct rows, shared by many events).
        self._made: dict[Row, layout.RowEntries] = {}
        self._zeros = [0.0] * self.obs_size
        self._index_cache: dict[Any, int] = {}
        #: Whether the seat to act's mask and legal map come from one C call (see :meth:`observation_and_legal`).
        self._c_legal = _c_observe is not None and self.position_independent
        #: An event's window row (what C asks for an event its table of told kinds does not read).
        self._rows_of: Callable[[Any], layout.RowEntries] = self._remember
        #: The declared blocks compiled for _observe.c's interpreter (None: the Python interpreter writes).
        self._program: Any = None
        if _c_observe is not None:
            self._program = _c_observe.program(
                layout.flatten(self.blocks, self._offsets), self.obs_size, players, "seat", self.window_cache,
                layout.ViewError, layout.exact_in_float32(self.blocks),
            )

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoding:
        return self  # fixed once made: copies of environments and states share it

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what makes it (game, players, rules): its compiled program cannot be pickled."""
        return (encoding, (self.game_id, self.players, self.rules))

    # ----- actions -------------------------------------------------------------------

    @abstractmethod
    def action_count(self) -> int:
        """The size of the discrete action space."""

    @abstractmethod
    def index(self, action: Any, view: Mapping[str, Any]) -> int:
        """The index of an action (object or notation) in the position ``view`` shows.

        ``ValueError`` when the action lies outside the space (an unlisted Rummikub
        rearrangement, or a form no position can make legal).
        """

    @abstractmethod
    def action_name(self, index: Any) -> str:
        """What an index means, in words (position-independent; for logs and OpenSpiel)."""

    def legal_map(self, view: Mapping[str, Any], legal_actions: Sequence[Any]) -> dict[int, Any]:
        """Index -> legal action for the position (every listed action has its own index)."""
        if self.position_independent:
            known = self._index_cache
            try:
                found = {known[a]: a for a in legal_actions}
            except KeyError:  # an action not seen yet: index it, then look again
                for a in legal_actions:
                    if a not in known:
                        known[a] = self.index(a, view)
                found = {known[a]: a for a in legal_actions}
            if len(found) == len(legal_actions):
                return found
        out: dict[int, Any] = {}
        cache = self._index_cache if self.position_independent else None
        for action in legal_actions:
            i = None if cache is None else cache.get(action)
            if i is None:
                i = self.index(action, view)
                if cache is not None:
                    cache[action] = i
            if i in out:
                raise AssertionError(f"{self.game_id}: actions {out[i]} and {action} share index {i}")
            out[i] = action
        return out

    def mask(self, legal: Mapping[int, Any]) -> np.ndarray:
        """The legal-action mask (int8, 1 where legal) of a :meth:`legal_map`."""
        if _c_observe is not None and type(legal) is dict:
            return np.frombuffer(_c_observe.mask(self.num_actions, legal), _I8)
        m = bytearray(self.num_actions)
        for i in legal:
            m[i] = 1
        return np.frombuffer(m, _I8)

    def check_index(self, index: Any) -> int:
        """``index`` as an int, or ``ValueError`` naming the valid range."""
        if type(index) is int and 0 <= index < self.num_actions:
            return index
        if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= int(index) < self.num_actions:
            raise ValueError(f"action index must be 0 to {self.num_actions - 1}, got {index!r}")
        return int(index)

    # ----- observations --------------------------------------------------------------

    def common_blocks(self) -> list[Block]:
        """The blocks every game has, with their operations: phase, who acts, scores, the history window."""
        n = self.players
        lo, hi = self.facts.score_bounds
        width = self._history_width
        return [
            Block("phase", len(self.phases), f"one-hot of the phase: {', '.join(self.phases)}",
                  (Lookup(0, "phase", {p: i for i, p in enumerate(self.phases)}, missing_ok=True),)),
            Block("to_act", n + 1, "one-hot of the seat to act (relative: 0 is me), last entry: nobody (game over)",
                  (Seat(0, "current_player", none=n),)),
            Block("scores", n, "each seat's score (relative seats), scaled to [0, 1] by the game's score bounds",
                  (Seats(0, "scores", 1, (Scale(0, (), hi - lo, shift=lo, lo=0.0, hi=1.0),)),)),
            Block(
                "history",
                HISTORY_WINDOW * width,
                f"the last {HISTORY_WINDOW} events of the view (this hand's and the last hand's end), oldest "
                f"first; each: actor (relative seat one-hot), verb one-hot ({', '.join(self.verbs)}, {OTHER}), "
                f"its tile (one-hot of 28)",
                (Window(0, "events", HISTORY_WINDOW, width, self._said(), n + len(self.verbs) + 1),),
            ),
        ]

    @abstractmethod
    def game_blocks(self) -> list[Block]:
        """The game's own blocks (hand, table...), each with the operations that write it from the view.

        They are the game's one definition of its observation: both interpreters (C, and
        :func:`layout.write` in Python) run them, and nothing else writes the vector.
        """

    def _said(self) -> dict[str, layout.Said | None]:
        """The window's rows as data where a :class:`Told` or :func:`silent` says them (``None``: the kind's Python)."""
        n = self.players
        out: dict[str, layout.Said | None] = {}
        for kind, teller in self.told.items():
            if type(teller) is Told:
                out[kind] = (n + self._verb_index[teller.verb], teller.actor, teller.tile, teller.among)
            elif teller is silent:
                out[kind] = (-1, None, None, None)
            else:
                out[kind] = None
        return out

    def row(self, event: Mapping[str, Any]) -> Row:
        """What ``event`` puts in its history row, as the game's :attr:`told` says (all zeros for a kind it omits)."""
        teller = self.told.get(event["kind"])
        return NOTHING if teller is None else teller(event)

    def derive(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """The facts of :attr:`derived`, made from the view's typed events (a game with any overrides this).

        The engine's view lists what is on the table now; some of what a player knows is
        only in the hand's events (who played which tile, who could not follow a suit).
        Each game that needs such a fact derives it here, once, for every interpreter.
        """
        return {}

    def full_view(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        """``view`` with the :meth:`derive` facts added (``view`` itself in a game with none).

        A view whose events cannot be read is refused with a :class:`layout.ViewError`,
        as the interpreters refuse a broken view.
        """
        if not self.derived:
            return view
        for key in self.derived_from:
            if key not in view:
                raise layout.ViewError(f"view[{key!r}] is missing")
        events = view["events"]
        if not isinstance(events, list | tuple):
            raise layout.ViewError(f"view['events'] must be a list, got {type(events).__name__}")
        try:
            extra = self.derive(view)
        except layout.ViewError:
            raise
        except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
            raise layout.ViewError(f"view['events'] holds an event that cannot be read ({exc!r})") from None
        return {**view, **extra}

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        """The observation of a seat's view: a new float32 vector of :attr:`obs_size`.

        The values of :meth:`observe_list`, each rounded once to float32. ``ValueError``
        (:class:`layout.ViewError`) for a view it cannot be read from, naming what is wrong.
        """
        if self._program is not None:
            full = self.full_view(view)
            return np.frombuffer(_c_observe.run(self._program, full, False, self._rows_of), _F32)  # type: ignore[union-attr]
        return np.asarray(self.observe_python(view), _F32)

    def observation(self, view: Mapping[str, Any], legal: Mapping[int, Any] | None) -> dict[str, np.ndarray]:
        """PettingZoo's observation dict: the observation of ``view`` and the mask of ``legal``.

        ``legal`` is the :meth:`legal_map` of the seat to act, ``None`` for a seat not to
        act (its mask is all zero). One call makes both, because every step of an AEC loop
        asks for both; the arrays are new each call.
        """
        mask = np.zeros(self.num_actions, dtype=np.int8) if legal is None else self.mask(legal)
        return {"observation": self.observe(view), "action_mask": mask}

    def observation_and_legal(
        self, view: Mapping[str, Any], legal_actions: Sequence[Any]
    ) -> tuple[dict[str, np.ndarray], dict[int, Any]]:
        """:meth:`observation` of the seat to act, with the :meth:`legal_map` it is made from.

        For the games whose indices never depend on the position, the map and the mask are
        made together in one C call once every listed action has its index; else as
        :meth:`legal_map` and :meth:`mask` make them.
        """
        if self._c_legal and type(legal_actions) is tuple:
            found = _c_observe.run_legal(  # type: ignore[union-attr]
                self._program, self.full_view(view), self._rows_of, self._index_cache, legal_actions, self.num_actions
            )
            if found is not None:
                obs, mask, legal = found
                return {"observation": np.frombuffer(obs, _F32), "action_mask": np.frombuffer(mask, _I8)}, legal
        legal = self.legal_map(view, legal_actions)
        return self.observation(view, legal), legal

    def observe_list(self, view: Mapping[str, Any]) -> list[float]:
        """The observation as a new list of floats (OpenSpiel's ``observation_tensor`` returns one).

        Values are kept as the doubles they are (``k / 7``); :meth:`observe` rounds them to
        float32. Written by the C interpreter of the declared blocks where it was built,
        else by :meth:`observe_python`: the same list.
        """
        if self._program is not None:
            return _c_observe.run(self._program, self.full_view(view), True, self._rows_of)  # type: ignore[union-attr]
        return self.observe_python(view)

    def observe_python(self, view: Mapping[str, Any]) -> list[float]:
        """The observation written by the Python interpreter of the declared blocks (:func:`layout.write`).

        The reference the C interpreter is tested against, and the writer where it was not
        built: a copy of a list of zeros, each block's operations run on it in turn.
        """
        seat = layout.seat_of(view, "seat", self.players)
        buf = self._zeros.copy()
        layout.write(self.blocks, self._offsets, buf, self.full_view(view), seat, self.players, self._rows)
        return buf

    def _rows(self, events: Sequence[Mapping[str, Any]]) -> list[layout.RowEntries]:
        """Each event's row, as its seats and the other entries it sets (memoised).

        Looked up by each event's identity, all at once; the events kept beside the rows
        must be the events asked about (an id is reused once its event is freed: then the
        event is new, and its row is made).
        """
        ids = list(map(id, events))
        found = list(map(self._memo.get, ids))
        if None in found or list(map(self._memo_events.get, ids)) != events:
            found = [self._remember(event) for event in events]
        return found  # type: ignore[return-value]

    def _remember(self, event: Mapping[str, Any]) -> layout.RowEntries:
        """An event's row, memoised (a full memo is emptied first: bounded memory): its seats and its other entries.

        The memo is keyed by the event's identity (events are shared, unchanging dicts, each
        seen in up to eight windows) and holds the event, so that its id is not reused while
        the entry lives. Events with the same :class:`Row` share the entries made for it.
        """
        key = id(event)
        known = self._memo.get(key)
        if known is not None and self._memo_events.get(key) is event:
            return known
        if len(self._memo) >= self.memo_events:
            self._memo.clear()
            self._memo_events.clear()
            self._made.clear()
        try:
            row = self.row(event)
            entries = self._made.get(row)
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise layout.ViewError(f"view['events'] holds an event that cannot be read ({exc!r}): {event!r}") from None
        if entries is None:
            entries = self._made[row] = self._entries(row, event)
        self._memo[key] = entries
        self._memo_events[key] = event
        return entries

    def _entries(self, row: Row, event: Mapping[str, Any]) -> layout.RowEntries:
        """The seats a row marks (absolute, sorted) and the other entries it sets, within its width.

        ``ViewError`` for an event whose actor is not a seat or whose tile is not a tile.
        """
        actors, verb, tile_text = row
        n = self.players
        common: list[int] = []
        if verb is not None:
            slot = self._verb_index.get(verb)
            if slot is None:
                kind = event["kind"]
                raise ValueError(f"{self.game_id}: a {kind} row names the verb {verb!r}, not one of {self.verbs}")
            common.append(n + slot)
        if tile_text is not None:
            k = TEXT_INDEX.get(tile_text) if isinstance(tile_text, str) else None
            if k is None:
                try:
                    k = KIND_INDEX[tile(tile_text)]
                except (ValueError, TypeError, KeyError, AttributeError):
                    raise layout.ViewError(
                        f"view['events'] holds a {event['kind']} event whose tile is not a tile: {tile_text!r}"
                    ) from None
            common.append(n + len(self.verbs) + 1 + k)
        for a in actors:
            if type(a) is not int or not 0 <= a < n:
                raise layout.ViewError(
                    f"view['events'] holds a {event['kind']} event whose seat is not one of 0 to {n - 1}: {a!r}"
                )
        return tuple(sorted(set(actors))), tuple(common)

    # ----- helpers for the game modules ----------------------------------------------

    def hand_events(self, view: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
        """The view's events of the hand now being played: those after its last ``deal`` event.

        (A view also lists the previous hand's end, which the derived facts leave out.)
        """
        events: Sequence[Mapping[str, Any]] = view["events"]
        for i in range(len(events) - 1, -1, -1):
            if events[i]["kind"] == "deal":
                return events[i + 1 :]
        return events

    def seat_in(self, event: Mapping[str, Any]) -> int:
        """The acting seat of ``event``, checked to be a seat (else :class:`layout.ViewError`)."""
        seat = event["seat"]
        if type(seat) is not int or not 0 <= seat < self.players:
            raise layout.ViewError(
                f"view['events'] holds a {event['kind']} event whose seat is not one of 0 to {self.players - 1}: "
                f"{seat!r}"
            )
        return seat

    def plays_by_seat(self, view: Mapping[str, Any], fields: Mapping[str, str]) -> list[list[Any]]:
        """Per seat, the tiles it played this hand, from the view's events: ``fields`` maps a kind to its tile field.

        The field holds a tile or a list of tiles; an event whose field is absent or
        ``None`` (a tile this seat may not see) adds nothing.
        """
        out: list[list[Any]] = [[] for _ in range(self.players)]
        for event in self.hand_events(view):
            field = fields.get(event["kind"])
            if field is None:
                continue
            found = event.get(field)
            if found is None:
                continue
            played = out[self.seat_in(event)]
            if isinstance(found, list):
                played.extend(found)
            else:
                played.append(found)
        return out

    def tricks_played(self, view: Mapping[str, Any]) -> list[list[Mapping[str, Any]]]:
        """This hand's tricks as their ``play`` events in order, the lead first (the last may be under way).

        A ``trick`` event closes a trick; trick games only.
        """
        tricks: list[list[Mapping[str, Any]]] = [[]]
        for event in self.hand_events(view):
            kind = event["kind"]
            if kind == "play":
                self.seat_in(event)
                tricks[-1].append(event)
            elif kind == "trick":
                tricks.append([])
        return [t for t in tricks if t]

    def rel(self, seat: int, me: int) -> int:
        """A seat relative to ``me`` (0: me, 1: the next seat in turn order...)."""
        return (seat - me) % self.players

    def absolute(self, rel_seat: int, me: int) -> int:
        """The seat ``rel_seat`` places after ``me``."""
        return (me + rel_seat) % self.players


def told_markdown(enc: Encoding) -> str:
    """The table of how each kind of event is written in the history window (``docs/rl.md`` shows it)."""
    lines = ["| event kind | its row |", "| --- | --- |"]
    for kind, teller in enc.told.items():
        if isinstance(teller, Told):
            said = teller.said()
        elif teller is silent:
            said = "all zero"
        elif isinstance(teller, Choice):
            said = teller.said
        else:
            said = " ".join((getattr(teller, "__doc__", None) or "a function of the event").split())
        lines.append(f"| `{kind}` | {said} |")
    return "\n".join(lines)


_REGISTRY: dict[str, type[Encoding]] = {}
# This package (``boneyard.rl``), from the module's name: mypyc's compiled modules set no ``__package__``.
_PACKAGE = __name__.rpartition(".")[0]


def register(cls: type[Encoding]) -> type[Encoding]:
    """Make ``cls`` the encoding of ``cls.game_id`` (called after the class, which mypyc compiles undecorated)."""
    _REGISTRY[cls.game_id] = cls
    return cls


def has_encoding(game_id: str) -> bool:
    """Whether a game has an RL encoding (a module ``boneyard.rl.encodings.<id>``).

    Games registered from elsewhere (plug-ins, tests) have none until one is written.
    """
    if game_id in _REGISTRY:
        return True
    if not isinstance(game_id, str) or not game_id.isidentifier():
        return False
    return importlib.util.find_spec(f"{_PACKAGE}.encodings.{game_id}") is not None


def encoded_games() -> list[str]:
    """The registered games that have an RL encoding, in the registry's order."""
    from .. import api

    return [g for g in api.games() if has_encoding(g)]


def encoding_class(game_id: str) -> type[Encoding]:
    """The encoding class of a game (imports ``boneyard.rl.encodings.<id>``)."""
    if game_id not in _REGISTRY:
        from .. import api

        if game_id not in api.games():
            raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(api.games())}")
        if not has_encoding(game_id):
            raise ValueError(f"game {game_id!r} has no RL encoding; games with one: {', '.join(encoded_games())}")
        importlib.import_module(f"{_PACKAGE}.encodings.{game_id}")
    return _REGISTRY[game_id]


def encoding(game_id: str, players: int | None = None, rules: Mapping[str, Any] | None = None,
             actions: str = "standard") -> Encoding:
    """The encoding of a game for a player count (default: the game's standard), rules and action set.

    ``actions``: one of the class's :attr:`~Encoding.action_sets` (``"standard"``, or in
    Rummikub ``"rearrange"``); the number of actions is the same in each, only the mask differs.
    """
    cls = encoding_class(game_id)
    if players is None:
        from .. import api

        players = api.game_info(game_id)["players"]["default"]
    return cls(players, rules, actions)
