"""The machinery every game shares: the contract's members, records, views and sampling.

A game is a subclass of :class:`Game` that declares its facts as class attributes and
implements a few hooks:

- ``_setup(dealer)``: start the game (deal the first hand, set ``current_player``).
  Use :meth:`Game._deck` for every hand's tiles: it returns the caller's fixed deck for the
  first hand and a seeded shuffle afterwards (or the order :attr:`Game.deck_source` gives).
- ``_legal()``: the legal actions of ``current_player`` as a list (cached by the core).
- ``_play(action)``: apply an action already known to be legal. It must not fail.
- ``parse_action(text)``: the notation to an action object (``IllegalAction`` if malformed).
- ``_fill_view(view, seat)``: add the game's public state, and ``seat``'s own tiles under
  ``"hand"`` (``None`` for a spectator).
- ``scores``: the running score per seat.
- ``tile_locations()``: every place tiles lie; together they are always the full set.
- ``sample(view, rng)``: build a game consistent with a view (see :func:`deal_hidden`).

Optional hooks: ``_explain(action)`` (why an unlisted action is illegal: name the rule),
``_accept_unlisted(action)`` (for games whose legal actions are not all listed),
``_copy()`` (a faster clone).

The core keeps the list of applied actions (the record) and what happened as typed events
(:meth:`Game._emit`: plain dicts with a ``kind``, declared per game in ``events.py`` beside
the engine, with per-seat secrets), and refuses anything not legal before the game
changes, so an illegal action leaves the game exactly as it was.

Events are kept for the hand being played and the end of the one before (the events a
view carries): :meth:`Game._new_hand` drops what came before the last hand-ending event
(:meth:`Game._emit_end`). The whole game's events are had by replaying its record.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from ..draws import shuffle
from ..errors import IllegalAction
from ..rules import Rules as RulesBase
from ..tiles import Tile, check_deck

# One logged event: (the seat that sees ``event`` whole, or None: everyone; the event; what
# the other seats see instead, or None: nothing). Events are plain JSON-ready dicts, shared
# by every view that shows them: nobody changes one once it is logged.
Event = tuple[int | None, Mapping[str, Any], Mapping[str, Any] | None]
#: The kinds of event that end a hand: a view keeps the last one of them after the next deal.
END_KINDS: Final = frozenset({"hand_end", "thrown_in"})

# The last view's events turned into a sampled game's log: (the events, the log, where the
# last hand-ending event lies), reused while worlds are sampled from the same view.
_RESTORED: list[tuple[list[dict[str, Any]], list[Event], int] | None] = [None]


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """One whole game (every hand to the end), driven through the public contract.

    The engines are compiled with mypyc at install (see ``boneyard.compiled``); games
    written in plain Python (plug-ins, tests) may still subclass this class.
    """

    id: ClassVar[str]
    order: ClassVar[int] = 100  # where the game stands in listings (lower first)
    name: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    teams: ClassVar[bool] = False
    lower_is_better: ClassVar[bool] = False  # the best score is the lowest (rounce: points left)
    hand_size: ClassVar[int]
    Rules: ClassVar[type[RulesBase]]

    players: int
    seed: int
    rules: Any
    rng: random.Random
    current_player: int | None
    is_over: bool
    winners: list[int]
    phase: str
    hand_number: int  # the hand being played, 1 for the first
    #: Optional: asked for the order of each later hand's tiles (see :meth:`_deck`).
    deck_source: Callable[[list[Tile]], Sequence[Tile] | None] | None

    def __init__(
        self,
        players: int,
        seed: int,
        rules: RulesBase,
        deck: Sequence[str | Tile] | None = None,
        dealer: int | None = None,
        *,
        _blank: bool = False,
    ) -> None:
        if _blank:  # an empty shell for ``_blank`` and ``_shallow_copy``: the caller sets the fields
            return
        self._init_common(players, seed, rules)
        self._given_deck: list[Tile] | None = None
        self._given_dealer: int | None = None
        if deck is not None:
            self._given_deck = check_deck(deck, self.full_set(rules))
        if dealer is not None:
            if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
                raise ValueError(f"dealer must be a seat from 0 to {players - 1}, got {dealer!r}")
            self._given_dealer = dealer
        self._setup(dealer)

    def _init_common(self, players: int, seed: int, rules: RulesBase) -> None:
        """Set the fields every game has, without dealing (used by ``sample`` too)."""
        self.players = players
        self.seed = seed
        self.rules = rules
        self.rng = random.Random(seed)
        # The views' ``partners`` (``sides``), made at the first view and shared by the
        # game's views like the events: a sampled world that is never viewed skips it.
        self._partners: list[list[int]] | None = None
        self.current_player = None
        self.is_over = False
        self.winners = []
        self.phase = "setup"
        self._given_deck = None
        self._given_dealer = None
        self._deck_used = False
        self.deck_source = None
        self._actions: list[Any] = []
        self._events: list[Event] = []
        # Where the last hand-ending event lies in ``_events`` (-1: none since the last cut), and
        # where the events of the action being played begin: a deal keeps both.
        self._end_at = -1
        self._action_at = 0
        # Per seat (the spectator last), how many of the events it saw were cut from ``_events``.
        self._cut: list[int] = [0] * (players + 1)
        # Per seat: (events of ``_events`` read, the seat's events); emptied when events are cut.
        self._seen: dict[int | None, tuple[int, list[Mapping[str, Any]]]] = {}
        self._legal_cache: tuple[Any, ...] | None = None

    @classmethod
    def _blank(cls, players: int, rules: RulesBase, seed: int) -> Any:
        """A game object with the common fields set and nothing dealt, for ``sample``."""
        # Through the constructor: a compiled class's ``__new__`` would run ``__init__``.
        game = cls(players, seed, rules, _blank=True)
        game._init_common(players, seed, rules)
        return game

    def _shallow_copy(self) -> Any:
        """A new game of the same class whose fields are this game's values (not copies of them).

        The start of :meth:`_copy_core`, with every field shared.
        Works on compiled classes (fields listed in ``__mypyc_attrs__``), interpreted ones
        (``__dict__``) and interpreted subclasses of compiled ones (both).
        """
        new = type(self)(self.players, self.seed, self.rules, _blank=True)
        for name, value in self._fields().items():
            setattr(new, name, value)
        return new

    def _copy_core(self) -> Any:
        """:meth:`_shallow_copy` with the core's own changing state copied: rng, winners, record, events.

        The start of every engine's fast ``_copy``, which then copies its own containers:
        the generator continues from the same state, and the winners, the applied actions
        and the event log are new lists (the events in them, never changed, are shared),
        so play on either game leaves the other alone.
        """
        new = self._shallow_copy()
        # A generator made without seeding: ``random.Random()`` would first read the OS's
        # entropy, which costs more than the rest of a copy; its state is set just after.
        rng: random.Random = random.Random.__new__(random.Random)
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new.winners = list(self.winners)
        new._actions = list(self._actions)
        new._events = list(self._events)
        new._cut = list(self._cut)
        new._seen = {}
        return new

    def _fields(self) -> dict[str, Any]:
        """Every field this game has set, by name (compiled or not)."""
        out: dict[str, Any] = {}
        for name in getattr(type(self), "__mypyc_attrs__", ()):
            if not name.startswith("__"):
                try:
                    out[name] = getattr(self, name)
                except AttributeError:  # a field this game never set
                    continue
        out.update(getattr(self, "__dict__", {}))
        return out

    # ----- facts -------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def full_set(cls, rules: Any) -> list[Tile]:
        """The game's whole tile multiset, sorted."""

    @classmethod
    @abstractmethod
    def score_bounds(cls, players: int, rules: Any) -> tuple[int, int]:
        """The lowest and highest score a seat can have at any point of a game.

        Bounds that hold for every game under these rules (the hand limit included), so
        that generic code can scale scores (rewards, ratings, plots) without knowing the
        game; they need not be tight.
        """

    @classmethod
    def start_scores(cls, players: int, rules: Any) -> list[int]:
        """Every seat's score before the first deal (0 each by default).

        Points a deal scores (two-box's spinner count) come after it, so that a game's
        score changes, hand by hand from these, add up to its final scores: the RL
        rewards start from here. A game whose seats start with points overrides it.
        """
        return [0] * players

    @classmethod
    @abstractmethod
    def max_hand_length(cls, players: int, rules: Any) -> int:
        """The most actions one hand can take: the bound behind :meth:`max_game_length`."""

    @classmethod
    def sides(cls, players: int, rules: Any = None) -> list[list[int]]:
        """Who wins and loses together: a list of sides, each the seats on it (every seat alone by default).

        The one statement of a game's partnerships: the views (``view["partners"]``), the
        ratings, the coach's margins, the arena's seating and the pages read it, so no
        layer works partners out from seat numbers. A partnership game overrides it.
        """
        return [[s] for s in range(players)]

    @classmethod
    def max_game_length(cls, players: int, rules: Any) -> int:
        """The most actions a whole game can take: every hand up to the hand limit at its longest."""
        return int(rules.max_hands) * cls.max_hand_length(players, rules)

    @classmethod
    def info(cls, players: int | None = None, rules: Any = None) -> dict[str, Any]:
        """The game's facts as a JSON-ready dict (what ``boneyard.game_info`` returns).

        ``score_bounds``, ``start_scores`` and ``max_game_length`` depend on the player count and the rules:
        they are given for ``players`` and ``rules`` (a ``Rules`` object or a dict), by
        default the standard count and the default rules.
        """
        n = cls.default_players if players is None else players
        parsed = cls.Rules.from_dict(rules)
        low, high = cls.score_bounds(n, parsed)
        return {
            "id": cls.id,
            "name": cls.name,
            "players": {"min": cls.min_players, "max": cls.max_players, "default": cls.default_players},
            "teams": cls.teams,
            "sides": cls.sides(n, parsed),
            "options": cls.Rules.describe(),
            "summary": cls.summary,
            "lower_is_better": cls.lower_is_better,
            "score_bounds": [low, high],
            "start_scores": cls.start_scores(n, parsed),
            "max_game_length": cls.max_game_length(n, parsed),
            "hand_size": cls.hand_size,
        }

    # ----- the contract ------------------------------------------------------------

    def legal_actions(self) -> tuple[Any, ...]:
        """The legal actions of the seat to act (empty once the game is over)."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = () if self.is_over else tuple(self._legal())
        return legal

    def is_legal(self, action: Any) -> bool:
        """Whether an action (object or notation string) is legal now."""
        try:
            self._checked(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Any) -> None:
        """Play an action (object or notation string); ``IllegalAction`` leaves the game unchanged."""
        action = self._checked(action)
        self._legal_cache = None
        self._actions.append(action)
        self._action_at = len(self._events)
        self._play(action)

    def _checked(self, action: Any) -> Any:
        if self.is_over:
            raise IllegalAction("the game is over: no action can be played")
        if isinstance(action, str):
            action = self.parse_action(action)
        legal = self._legal_cache
        if legal is None:
            legal = self.legal_actions()
        try:
            # The listed object itself: a look-alike (a plain tuple equal to an action) is
            # never played as it is.
            return legal[legal.index(action)]
        except ValueError:
            return self._accept_unlisted(action)

    def _accept_unlisted(self, action: Any) -> Any:
        """Called for an action not among the listed legal ones: raise, or return it to play it."""
        raise IllegalAction(self._explain(action))

    def _explain(self, action: Any) -> str:
        """Why ``action`` is illegal now. Games override this to name the rule broken."""
        listed = ", ".join(str(a) for a in self.legal_actions())
        return f"'{action}' is not legal now; legal actions: {listed}"

    def view(self, seat: Any) -> dict[str, Any]:
        """Everything ``seat`` may know now (``None``: a spectator), JSON-ready."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players):
            raise ValueError(f"seat must be None or 0 to {self.players - 1}, got {seat!r}")
        partners = self._partners
        if partners is None:
            partners = self._partners = [list(side) for side in type(self).sides(self.players, self.rules)]
        view: dict[str, Any] = {
            "game": self.id,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "seat": seat,
            "phase": str(self.phase),
            "current_player": self.current_player,
            "scores": list(self.scores),
            "is_over": self.is_over,
            "winners": list(self.winners),
            "partners": partners,
            "events": self.events(seat),
            "events_from": self._cut[self.players if seat is None else seat],
        }
        self._fill_view(view, seat)
        return view

    def events_from(self, seat: Any) -> int:
        """How many of ``seat``'s events came before the first that :meth:`events` lists (cut at deals).

        The index of ``events(seat)[0]`` in everything the seat has seen this game, so that
        ``events_from(seat) + len(events(seat))`` counts the seat's events so far.
        """
        return self._cut[self.players if seat is None else seat]

    def events(self, seat: Any) -> list[Mapping[str, Any]]:
        """The events ``seat`` may see (``None``: a spectator), this hand's and the previous hand's end.

        Each is a JSON-ready dict with a ``kind``; a secret part (a drawn tile) is present
        only for the seats allowed to see it. The dicts are shared with the game's log and
        with other views: read them, never change them. ``view(seat)["events_from"]`` says
        how many of the seat's earlier events are no longer listed, so that a client can
        tell which events are new since a view it kept.
        """
        # Each seat's list is kept and extended with the events logged since the last
        # call, so a view costs a list copy, not a walk over the whole hand.
        seen = self._seen.get(seat)
        log = self._events
        if seen is not None and seen[0] == len(log):
            return list(seen[1])
        if seen is None:
            seen = (0, [])
        done, out = seen
        if done < len(log):
            for to, event, public in log[done:] if done else log:
                if to is None or to == seat:
                    out.append(event)
                elif public is not None:
                    out.append(public)
            seen = (len(log), out)
        self._seen[seat] = seen
        return list(out)

    def record(self) -> dict[str, Any]:
        """The JSON-ready record: game, players, seed, rules, deck and dealer if given, actions."""
        rec: dict[str, Any] = {
            "game": self.id,
            "players": self.players,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
        }
        if self._given_deck is not None:
            rec["deck"] = [str(t) for t in self._given_deck]
        if self._given_dealer is not None:
            rec["dealer"] = self._given_dealer
        rec["actions"] = [str(a) for a in self._actions]
        return rec

    def clone(self) -> Any:
        """An independent copy of the game."""
        copy_ = self._copy()
        copy_._seen = {}  # never share the events cache, whatever ``_copy`` copied
        copy_.deck_source = None  # a copy deals from its own seeded shuffle
        return copy_

    def _copy(self) -> Any:
        """A deep copy, field by field (the rules options, immutable, are shared)."""
        new = type(self)(self.players, self.seed, self.rules, _blank=True)
        memo: dict[int, Any] = {id(self.rules): self.rules}
        for name, value in self._fields().items():
            setattr(new, name, copy.deepcopy(value, memo))
        return new

    def determinize(self, seat: int, rng: random.Random | int) -> Any:
        """A game consistent with ``view(seat)`` whose hidden tiles are dealt at random."""
        return type(self).sample(self.view(seat), rng if isinstance(rng, random.Random) else random.Random(rng))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} players={self.players} seed={self.seed} actions={len(self._actions)}>"

    # ----- hooks -------------------------------------------------------------------

    @abstractmethod
    def _setup(self, dealer: int | None) -> None:
        """Start the game: deal the first hand and set ``current_player``."""

    @abstractmethod
    def _legal(self) -> list[Any]:
        """The legal actions of ``current_player``."""

    @abstractmethod
    def _play(self, action: Any) -> None:
        """Apply a legal action."""

    @classmethod
    @abstractmethod
    def parse_action(cls, text: Any) -> Any:
        """Parse the action notation; ``IllegalAction`` naming the expected form if malformed."""

    @abstractmethod
    def _fill_view(self, view: dict[str, Any], seat: int | None) -> None:
        """Add the game's public state and ``seat``'s own tiles to ``view``."""

    @abstractmethod
    def tile_locations(self) -> dict[str, list[Tile]]:
        """Every place tiles lie (hands, stock, table, discards...): together the full set."""

    @property
    @abstractmethod
    def scores(self) -> list[Any]:
        """The running score of each seat."""

    @classmethod
    @abstractmethod
    def sample(cls, view: dict[str, Any], rng: random.Random) -> Any:
        """A full game consistent with ``view`` (see ``boneyard.sample_game``)."""

    # ----- helpers for games -------------------------------------------------------

    def _deck(self) -> list[Tile]:
        """The tiles for a new hand: the given deck the first time, else a seeded shuffle.

        When :attr:`deck_source` is set it is asked first, with the full set (sorted): it
        returns the tiles in deal order (checked to be that set; ``ValueError`` if not), or
        ``None`` to let the seeded shuffle deal. This is how a caller that draws the tiles
        itself (the OpenSpiel game's chance nodes) deals every later hand; a game dealt so
        is not rebuilt by :meth:`record` and ``replay``, which know only the seed.
        """
        if self._given_deck is not None and not self._deck_used:
            self._deck_used = True
            return list(self._given_deck)
        self._deck_used = True
        deck = self.full_set(self.rules)
        source = self.deck_source
        if source is not None:
            chosen = source(list(deck))
            if chosen is not None:
                return check_deck(chosen, deck)
        shuffle(self.rng, deck)  # rng.shuffle's order, without the interpreter's loop
        return deck

    def _emit(self, event: Mapping[str, Any], to: int | None = None, public: Mapping[str, Any] | None = None) -> None:
        """Log an event. With ``to``, only that seat sees ``event``; the others see ``public`` (None: nothing).

        The log is append-only within a hand: an event, once logged, is never changed or
        removed (views share it). Its kind and fields are declared in the game's
        ``events.py``; what a seat may not see goes in ``event`` only. A hot path may
        append a prebuilt ``(to, event, public)`` entry to ``self._events`` itself (the
        entries of plays, say, made once per seat and tile and shared by every game).
        """
        self._events.append((to, event, public))

    def _emit_end(self, event: Mapping[str, Any]) -> None:
        """Log, for everyone, an event that ends a hand (``hand_end``, ``thrown_in``).

        It stays in the views through the next hand, until another hand ends: the previous
        hand's end is what a player looks back at while the next one is dealt.
        """
        self._end_at = len(self._events)
        self._events.append((None, event, None))

    def _new_hand(self) -> None:
        """Drop the events from before the last hand-ending event: a new hand is being dealt.

        Called by every game as it deals a hand, before that hand's events. What the
        action being played logged is kept whole (the play that ended the last hand, say),
        so nobody misses an event. Each seat's count of events no longer listed
        (``events_from``) grows by those it saw.
        """
        at = min(self._end_at, self._action_at)
        if at <= 0:
            return
        # Every seat saw the events for everyone and those with a public side; each seat, also
        # its own secrets that others did not see at all.
        seen_by_all = 0
        cut = self._cut
        for to, _, public in self._events[:at]:
            if to is None or public is not None:
                seen_by_all += 1
            else:
                cut[to] += 1
        for i in range(len(cut)):
            cut[i] += seen_by_all
        del self._events[:at]
        self._end_at -= at
        self._action_at -= at
        self._seen = {}

    def _end_game(self, winners: list[int], hand_limit: int | None = None) -> None:
        """End the game: the winners, nobody to act, phase ``over``, and a ``game_over`` event.

        ``hand_limit`` is the rules' hand limit when reaching it ended the game.
        """
        self.winners = list(winners)
        self.is_over = True
        self.phase = "over"
        self.current_player = None
        event: dict[str, Any] = {"kind": "game_over", "winners": list(self.winners)}
        if hand_limit is not None:
            event["hand_limit"] = hand_limit
        self._emit(event)

    def _hand_limit_reached(self) -> bool:
        """End the game instead of dealing again once the rules' ``max_hands`` hands are played.

        Every game calls this before dealing a new hand; the best score then wins (all
        tied seats), as the rules option says.
        """
        if self.hand_number < self.rules.max_hands:
            return False
        scores = self.scores
        best = min(scores) if self.lower_is_better else max(scores)
        self._end_game([s for s in range(self.players) if scores[s] == best], int(self.rules.max_hands))
        return True

    def _next(self, seat: int) -> int:
        """The seat after ``seat`` in turn order."""
        return (seat + 1) % self.players

    def _restore_common(self, view: dict[str, Any]) -> None:
        """Copy the events and outcome fields of a view into a sampled game.

        The sampled game's log is the events the view shows, as everyone's: its views show
        that seat the same events, and the previous hand's end is still the one cut at
        the next deal.
        """
        events: list[dict[str, Any]] = view["events"]
        # A search samples many worlds from one view: the log made from its events is
        # kept (one view at a time) and copied, not built again for each world.
        made = _RESTORED[0]
        if made is not None and made[0] is events and len(made[1]) == len(events):
            entries: list[Event] = made[1]
            end_at: int = made[2]
        else:
            entries = []
            end_at = -1
            for i, event in enumerate(events):
                entries.append((None, event, None))
                kind: str = event["kind"]
                if kind in END_KINDS:
                    end_at = i
            _RESTORED[0] = (events, entries, end_at)
        self._events = list(entries)
        self._end_at = end_at
        self._action_at = len(events)
        self._cut = [view["events_from"]] * (self.players + 1)
        self._seen = {}
        self.current_player = view["current_player"]
        self.is_over = view["is_over"]
        self.winners = list(view["winners"])
        self.phase = view["phase"]


def deal_hidden(
    pool: Sequence[Tile],
    sizes: Sequence[int],
    rng: random.Random,
    allowed: Sequence[Callable[[Tile], bool] | None] | None = None,
    accept: Callable[[list[list[Tile]]], bool] | None = None,
    tries: int = 2000,
) -> list[list[Tile]]:
    """Deal ``pool`` at random into places of the given sizes, respecting constraints.

    ``allowed[i]`` (optional) says which tiles place ``i`` may hold (a seat known to be
    void in a suit, say); ``accept`` (optional) checks a whole deal (counts of trumps,
    say). Places are filled most-constrained first; a dead end or a refused deal is
    retried, up to ``tries`` times, then ``ValueError``. The sizes must add up to the pool.
    """
    if sum(sizes) != len(pool):
        raise ValueError(f"places hold {sum(sizes)} tiles but the pool has {len(pool)}")
    checks = list(allowed) if allowed is not None else [None] * len(sizes)

    def room(i: int) -> tuple[bool, int]:
        check = checks[i]
        return (check is None, len(pool) if check is None else sum(1 for t in pool if check(t)))

    order = sorted(range(len(sizes)), key=room)
    for _ in range(tries):
        rest = list(pool)
        shuffle(rng, rest)
        out: list[list[Tile]] = [[] for _ in sizes]
        ok = True
        for i in order:
            check = checks[i]
            if check is None:
                take, rest = rest[: sizes[i]], rest[sizes[i] :]
            else:
                fits = [t for t in rest if check(t)]
                if len(fits) < sizes[i]:
                    ok = False
                    break
                take = fits[: sizes[i]]
                for t in take:
                    rest.remove(t)
            out[i] = take
        if ok and (accept is None or accept(out)):
            return out
    raise ValueError("no deal of the hidden tiles fits what the view shows")
