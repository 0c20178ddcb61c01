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
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from abc import ABC, abstractmethod
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, Protocol, cast

import numpy as np

from ..tiles import Tile, double_six
from .facts import Facts, facts

_c_observe: ModuleType | None
try:  # built from _observe.c at install time; the Python writers below are the definition and the fallback
    from . import _observe as _c_observe
except ImportError:  # pragma: no cover - a machine without a C compiler
    _c_observe = None

_F32 = np.dtype(np.float32)
_I8 = np.dtype(np.int8)

C_WRITER = _c_observe is not None
"""Whether observations are written by the C writers (otherwise by the Python ones: same vectors, slower)."""

# The 28 tile kinds of a double-six set, in a fixed order (0-0, 1-0, 1-1, 2-0, ...).
KINDS: tuple[Tile, ...] = tuple(double_six())
KIND_INDEX: dict[Tile, int] = {t: i for i, t in enumerate(KINDS)}
# The 21 kinds without a blank (eighty's set).
KINDS_NO_BLANK: tuple[Tile, ...] = tuple(double_six(blanks=False))
KIND_INDEX_NO_BLANK: dict[Tile, int] = {t: i for i, t in enumerate(KINDS_NO_BLANK)}
_TILE_TEXT: dict[str, Tile] = {str(t): t for t in KINDS}
# Tile string (as views write it) -> kind index, for the observation writers' hot paths.
TEXT_INDEX: dict[str, int] = {str(t): i for i, t in enumerate(KINDS)}
TEXT_INDEX_NO_BLANK: dict[str, int] = {str(t): i for i, t in enumerate(KINDS_NO_BLANK)}

# Public history window: the last HISTORY_WINDOW lines of the view's history.
HISTORY_WINDOW = 8
_LINE = re.compile(r"^seat (\d+) (\w+)")
_TILE_IN_LINE = re.compile(r"\b(\d)-(\d)\b")
_ONE = array("f", [1.0]).tobytes()
# "a-b" as history lines may write a tile (either end first) -> its kind index.
_PAIR_KIND: dict[str, int] = {f"{a}-{b}": KIND_INDEX[Tile(a, b)] for a in range(7) for b in range(7)}


def tile(text: str) -> Tile:
    """A tile from its string, with a fast path for the canonical spelling of views."""
    found = _TILE_TEXT.get(text)
    return found if found is not None else Tile.parse(text)


@dataclass(frozen=True)
class Block:
    """One named part of the observation vector: its size and what it means."""

    name: str
    size: int
    doc: str


class Buffer(Protocol):
    """What an observation is written into: float entries read and set by index.

    A float32 ``memoryview`` of the vector's bytes when a numpy vector is wanted (item
    writes far cheaper than numpy's, and the vector then shares the memory), or a
    ``list`` of floats for OpenSpiel's ``observation_tensor`` (no conversion follows).
    Both take the same ``buf[i] = x`` and ``buf[i] += x`` writes.
    """

    def __getitem__(self, index: int, /) -> float: ...

    def __setitem__(self, index: int, value: float, /) -> None: ...


def counts(buf: Buffer, base: int, tiles: Sequence[str], copies: int, index: Mapping[str, int] = TEXT_INDEX) -> None:
    """Entry ``base + kind``: the tiles' copies of each kind / ``copies`` (tiles as views write them).

    The one writer of the "copies of each kind" blocks, so that every game scales them alike.
    """
    if copies == 1:
        for t in tiles:
            buf[base + index[t]] = 1.0
        return
    step = 1.0 / copies
    for t in tiles:
        buf[base + index[t]] += step


class Encoding(ABC):
    """One game's action space and observation, for a player count and rules."""

    game_id: ClassVar[str]
    #: The phases of the game's views, in a fixed order (the ``phase`` one-hot).
    phases: ClassVar[tuple[str, ...]]
    #: The verbs of the game's history lines ("seat 2 plays 6-4": "plays").
    verbs: ClassVar[tuple[str, ...]]
    #: Whether an action's index never depends on the position (then it is cached).
    position_independent: ClassVar[bool] = True
    #: Whether the game draws its first dealer at random (False: a ``dealer`` is only recorded).
    random_first_dealer: ClassVar[bool] = True

    def __init__(self, players: int, rules: Mapping[str, Any] | None = None) -> None:
        from .. import api

        info = api.game_info(self.game_id)
        p = info["players"]
        if isinstance(players, bool) or not isinstance(players, int) or not p["min"] <= players <= p["max"]:
            raise ValueError(f"{self.game_id} is played by {p['min']} to {p['max']} players, got {players!r}")
        self.players = players
        # Validated and completed with the defaults (RulesError on a bad option).
        probe = api.new_game(self.game_id, players=players, seed=0, rules=rules)
        self.rules: dict[str, Any] = probe.rules.to_dict()
        #: The game's whole tile set under these rules, sorted (what every hand is dealt from).
        self.full_set: tuple[Tile, ...] = tuple(probe.full_set(probe.rules))
        self.facts: Facts = facts(self.game_id, players, self.rules)
        self.num_actions = self.action_count()
        self.blocks: tuple[Block, ...] = (*self.common_blocks(), *self.game_blocks())
        self.obs_size = sum(b.size for b in self.blocks)
        #: Each block's offset in the vector.
        self.off: dict[str, int] = {}
        start = 0
        for b in self.blocks:
            self.off[b.name] = start
            start += b.size
        #: The offsets of the game's own blocks, in :meth:`game_blocks` order (what ``fill`` unpacks).
        self.game_off: tuple[int, ...] = tuple(self.off[b.name] for b in self.blocks[len(self.common_blocks()) :])
        #: rel_of[me][seat]: ``seat`` relative to ``me``.
        self.rel_of = [[(s - me) % players for s in range(players)] for me in range(players)]
        self._phase_index = {p: i for i, p in enumerate(self.phases)}
        self._history_width = players + len(self.verbs) + 1 + len(KINDS)
        # History line -> its row (float32 bytes) as each seat sees it; a window is a join of rows.
        self._rows: list[dict[str, bytes]] = [{} for _ in range(players)]
        # History line -> the entries set in its row as each seat sees it (the list writer's memo).
        self._entries: list[dict[str, tuple[int, ...]]] = [{} for _ in range(players)]
        #: How many history lines' rows are memoised before the memo is emptied (bounded memory).
        self.memo_lines = 20_000
        # A row's entries (actor, verb, tile) -> the row as bytes (few distinct ones, shared by lines).
        self._made_rows: dict[tuple[int, ...], bytes] = {}
        self._verb_index = {v: i for i, v in enumerate(self.verbs)}
        self._at_phase = self.off["phase"]
        self._at_to_act = self.off["to_act"]
        self._at_scores = self.off["scores"]
        at_history = 4 * self.off["history"]
        history_end = at_history + 4 * HISTORY_WINDOW * self._history_width
        # Zero bytes before the first of k window rows (k = 0..window), and after the window.
        self._before_rows = [
            bytes(at_history + 4 * (HISTORY_WINDOW - k) * self._history_width) for k in range(HISTORY_WINDOW + 1)
        ]
        self._after_history = bytes(4 * self.obs_size - history_end)
        self._zeros = [0.0] * self.obs_size
        self._at_history = self.off["history"]
        self._index_cache: dict[Any, int] = {}
        self._score_lo = self.facts.score_bounds[0]
        self._score_span = self.facts.score_bounds[1] - self.facts.score_bounds[0]
        #: The C writer's packed blocks and constants (``None``: the Python writers run).
        self._cspec: Any = None
        extra = self.c_constants()
        if _c_observe is not None and extra is not None:
            self._cspec = _c_observe.spec(
                self.game_id, players, self.obs_size, dict(self._phase_index), tuple(self.verbs),
                self._at_phase, self._at_to_act, self._at_scores, self._at_history, self._history_width,
                HISTORY_WINDOW, float(self._score_lo), float(self._score_span), self.game_off, extra,
            )
        #: Whether the seat to act's observation, mask and legal map come from one C call.
        self._c_legal = self._cspec is not None and self.position_independent

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoding:
        return self  # fixed once made: copies of environments and states share it

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
    def action_name(self, index: int) -> str:
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

    def check_index(self, index: int) -> int:
        """``index`` as an int, or ``ValueError`` naming the valid range."""
        if type(index) is int and 0 <= index < self.num_actions:
            return index
        if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= int(index) < self.num_actions:
            raise ValueError(f"action index must be 0 to {self.num_actions - 1}, got {index!r}")
        return int(index)

    # ----- observations --------------------------------------------------------------

    def common_blocks(self) -> list[Block]:
        """The blocks every game has: phase, who acts, scores, the history window."""
        n = self.players
        return [
            Block("phase", len(self.phases), f"one-hot of the phase: {', '.join(self.phases)}"),
            Block("to_act", n + 1, "one-hot of the seat to act (relative: 0 is me), last entry: nobody (game over)"),
            Block("scores", n, "each seat's score (relative seats), scaled to [0, 1] by the game's score bounds"),
            Block(
                "history",
                HISTORY_WINDOW * (n + len(self.verbs) + 1 + len(KINDS)),
                f"the last {HISTORY_WINDOW} lines of the view's history, oldest first; each: actor (relative "
                f"seat one-hot), verb one-hot ({', '.join(self.verbs)}, other), the first tile named (one-hot of 28)",
            ),
        ]

    @abstractmethod
    def game_blocks(self) -> list[Block]:
        """The game's own blocks (hand, table...)."""

    @abstractmethod
    def fill(self, buf: Buffer, view: Mapping[str, Any]) -> None:
        """Write the game's own blocks from ``view`` into ``buf`` (zero there: only the entries set are written)."""

    def c_constants(self) -> tuple[Any, ...] | None:
        """The game's own constants for the C writer of ``_observe.c``, or ``None`` for no C writer.

        The five built-in games have a C writer that writes the same vectors as their
        :meth:`fill` (the tests compare both over thousands of positions); it takes the
        constants their ``fill`` uses from here, so both read one definition. A new game,
        or a subclass that changes ``fill``, returns ``None`` and runs its Python writer.
        """
        return None

    def _c_observe(self, view: Mapping[str, Any], as_list: bool) -> Any:
        """The C writer's observation (bytes or list), or ``None`` where the Python writers must run.

        The C writer takes a plain dict view of a seat; it reads the history lines itself,
        and leaves to Python a view with a line it does not read (not ASCII, say).
        """
        spec = self._cspec
        if spec is None or _c_observe is None or type(view) is not dict:
            return None
        seat = view.get("seat")
        if type(seat) is not int or not 0 <= seat < self.players:
            return None
        return _c_observe.observe(spec, view, as_list)

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        """The observation of a seat's view: a new float32 vector of :attr:`obs_size`.

        Written by the C writer where there is one (see :meth:`c_constants`), else by
        :meth:`observe_python`.
        """
        data = self._c_observe(view, False)
        if data is not None:
            return np.frombuffer(data, _F32)
        return self.observe_python(view)

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
        made together in C once every listed action has its index; else as :meth:`legal_map`
        and :meth:`mask` make them.
        """
        if self._c_legal and type(legal_actions) is tuple and type(view) is dict:
            found = _c_observe.observe_legal(  # type: ignore[union-attr]
                self._cspec, view, self._index_cache, legal_actions, self.num_actions
            )
            if found is not None:
                obs, mask, legal = found
                return {"observation": np.frombuffer(obs, _F32), "action_mask": np.frombuffer(mask, _I8)}, legal
        legal = self.legal_map(view, legal_actions)
        return self.observation(view, legal), legal

    def observe_python(self, view: Mapping[str, Any]) -> np.ndarray:
        """The observation as the Python writers make it (the definition the C writer is tested against).

        Its bytes are joined from zeros and the history window's memoised rows in one go,
        the other blocks written over them through a float view of the same memory, and
        the vector shares that memory (no copy at either end).
        """
        seat = view["seat"]
        if seat is None:
            raise ValueError("observations are made for a seat, not for a spectator's view")
        data = self._history_bytes(view["history"], seat)
        self._write(cast(Buffer, memoryview(data).cast("f")), view)
        return np.frombuffer(data, _F32)

    def observe_list(self, view: Mapping[str, Any]) -> list[float]:
        """The same observation as a new Python list (OpenSpiel's ``observation_tensor`` returns one).

        Written by the C writer where there is one, else by :meth:`observe_list_python`.
        """
        out = self._c_observe(view, True)
        if out is not None:
            return cast(list[float], out)
        return self.observe_list_python(view)

    def observe_list_python(self, view: Mapping[str, Any]) -> list[float]:
        """The list observation as the Python writers make it (what the C writer is tested against).

        Written straight into a copy of a list of zeros, so no per-entry conversion from a
        vector follows; the values are those of :meth:`observe` once rounded to float32
        (``k / 7`` is kept as the double it is here).
        """
        seat = view["seat"]
        if seat is None:
            raise ValueError("observations are made for a seat, not for a spectator's view")
        buf = self._zeros.copy()
        lines = view["history"][-HISTORY_WINDOW:]
        entries = self._entries[seat]
        found = list(map(entries.get, lines))
        if None in found:
            self._add_lines(lines)
            found = list(map(entries.get, lines))
        base = self._at_history + (HISTORY_WINDOW - len(lines)) * self._history_width
        for row in found:
            for r in row:
                buf[base + r] = 1.0
            base += self._history_width
        self._write(buf, view)
        return buf

    def _write(self, buf: Buffer, view: Mapping[str, Any]) -> None:
        """Write every block but the history window (phase, who acts, scores, the game's own)."""
        seat = view["seat"]
        if seat is None:
            raise ValueError("observations are made for a seat, not for a spectator's view")
        rel = self.rel_of[seat]
        phase = self._phase_index.get(view["phase"])
        if phase is not None:
            buf[self._at_phase + phase] = 1.0
        cur = view["current_player"]
        buf[self._at_to_act + (self.players if cur is None else rel[cur])] = 1.0
        base = self._at_scores
        lo, span = self._score_lo, self._score_span
        for s, v in enumerate(view["scores"]):
            x = (v - lo) / span
            buf[base + rel[s]] = 0.0 if x < 0.0 else 1.0 if x > 1.0 else x
        self.fill(buf, view)

    def _history_bytes(self, history: Sequence[str], seat: int) -> bytearray:
        """The whole vector's bytes with only the history window written: zeros, one memoised row per line."""
        lines = history[-HISTORY_WINDOW:]
        rows = self._rows[seat]
        parts = list(map(rows.get, lines))
        if None in parts:
            self._add_lines(lines)
            parts = list(map(rows.get, lines))
        return bytearray().join((self._before_rows[len(parts)], *parts, self._after_history))  # type: ignore[arg-type]

    def _add_lines(self, lines: Sequence[str]) -> None:
        """Memoise the rows of a window's lines that are new, after emptying a full memo.

        Emptied first, never midway: every line of the window has its row afterwards.
        """
        if len(self._rows[0]) + len(lines) > self.memo_lines:
            for rows in self._rows:
                rows.clear()
            for entries in self._entries:
                entries.clear()
        rows = self._rows[0]
        for line in lines:
            if line not in rows:
                self._add_line(line)

    def _add_line(self, line: str) -> None:
        """Memoise a history line's row for every seat at once: as bytes, and as the entries set in it.

        A line's actor is written relative to the observing seat, so each seat has its
        own row; making them together parses the line once and leaves no seat to miss later.
        Rows are shared by every line with the same entries (lines differ in their other
        words far more often than in actor, verb and tile), so a new line costs its parse.
        """
        actor, entries = self._parse_line(line)
        made = self._made_rows
        rel_of = self.rel_of
        for seat in range(self.players):
            mine = entries if actor is None else (rel_of[seat][actor], *entries)
            row = made.get(mine)
            if row is None:
                data = bytearray(4 * self._history_width)
                for r in mine:
                    data[4 * r : 4 * r + 4] = _ONE
                row = made[mine] = bytes(data)
            self._rows[seat][line] = row
            self._entries[seat][line] = mine

    def _parse_line(self, line: str) -> tuple[int | None, tuple[int, ...]]:
        """A history line as its actor (a seat, or None) and the entries of its verb and tile in a row.

        Lines are "seat <n> <verb> ..."; the first tile named ("a-b") after the verb is the
        row's tile. The common spelling (words split by single spaces, a verb of letters)
        is read by splitting, any other by the regular expression that defines the format.
        """
        words = line.split(" ", 3)
        if len(words) >= 3 and words[0] == "seat" and words[1].isdigit() and words[2].isalpha():
            actor, verb, rest = int(words[1]), words[2], words[3] if len(words) == 4 else ""
        else:
            m = _LINE.match(line)
            if m is None:
                return None, ()
            actor, verb, rest = int(m.group(1)), m.group(2), line[m.end() :]
        n = self.players
        verbs = self.verbs
        row = [n + self._verb_index.get(verb, len(verbs))]
        t = _TILE_IN_LINE.search(rest)
        if t is not None:
            row.append(n + len(verbs) + 1 + _PAIR_KIND[t.group(0)])
        return (actor if actor < n else None), tuple(row)

    # ----- helpers for the game modules ----------------------------------------------

    def rel(self, seat: int, me: int) -> int:
        """A seat relative to ``me`` (0: me, 1: the next seat in turn order...)."""
        return (seat - me) % self.players

    def absolute(self, rel_seat: int, me: int) -> int:
        """The seat ``rel_seat`` places after ``me``."""
        return (me + rel_seat) % self.players


_REGISTRY: dict[str, type[Encoding]] = {}


def register(cls: type[Encoding]) -> type[Encoding]:
    """Class decorator: the encoding of ``cls.game_id``."""
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
    return importlib.util.find_spec(f"{__package__}.encodings.{game_id}") is not None


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
        importlib.import_module(f"{__package__}.encodings.{game_id}")
    return _REGISTRY[game_id]


def encoding(game_id: str, players: int | None = None, rules: Mapping[str, Any] | None = None) -> Encoding:
    """The encoding of a game for a player count (default: the game's standard) and rules."""
    cls = encoding_class(game_id)
    if players is None:
        from .. import api

        players = api.game_info(game_id)["players"]["default"]
    return cls(players, rules)
