"""The lessons' data (typed, validated as it loads) and how a step is played through the engine.

A data file ``data/<game>.toml`` holds ``names`` (what the other seats are called: the
learner is "You") and a list of ``[[lesson]]`` tables, each with ``id``, ``title``, ``intro``
and ``[[lesson.step]]`` tables. Position fields (``players``, ``dealer``, ``seat``, ``rules``,
``seed``, ``hands``, ``next``) may stand on the lesson, as every step's default, or on a step.
A step's fields:

- ``hands``: the tiles each seat is dealt, one string per seat (``"6-4 5-5 3-1"``); a hand
  given short is filled from the tiles left, in the set's order. ``next``: the tiles the game
  takes next from the deck after the deal, in order (Rounce: the turn-up, then the boneyard;
  Montana: the dead hands of empty seats, then the woodpile; Eighty: the tiles lying out;
  two-box, Rummikub: the boneyard).
- ``before``: moves played from the deal up to the learner's turn (anyone's), told in words
  on the page; ``continue = true`` starts from the previous step's end instead of a new deal.
- ``text`` (what to do and why), ``accept`` (the moves it teaches, in the action notation),
  ``wrong`` (the friendly word for any other legal move) and ``why_not`` (words for
  particular moves), ``done`` (why the move worked), ``after`` (moves played after it, to
  show what it led to), ``expect`` (events the move and ``after`` must produce: each a table
  of fields an event must have, so that the lesson's claims are checked by the engine), and
  ``quiz`` (the lesson's last step: no hint).

Which deck position reaches which seat is not written here: :func:`destinations` deals
probe decks through the engine and reads each seat's ``dealt`` event.
"""

from __future__ import annotations

import functools
import json
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

import boneyard
from boneyard.errors import IllegalAction
from boneyard.games import game_class

# The learner's name as the page shows it; the words say "you".
LEARNER = "You"
_POSITION = ("players", "dealer", "seat", "rules", "seed", "hands", "next")
_STEP = {*_POSITION, "text", "accept", "wrong", "why_not", "done", "before", "after", "expect", "quiz", "continue"}
_LESSON = {*_POSITION, "id", "title", "intro", "step"}


class LessonError(ValueError):
    """A lesson's data is malformed, or the engine no longer plays it as written."""


class WrongMove(ValueError):
    """A legal move that is not the one the step teaches; the message explains, kindly, why."""

    def __init__(self, action: str, message: str) -> None:
        super().__init__(message)
        self.action = action


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a position, the learner's move it teaches, and its words."""

    game: str
    players: int
    seat: int
    dealer: int | None
    rules: Mapping[str, Any]
    seed: int
    hands: tuple[tuple[str, ...], ...]
    next: tuple[str, ...]
    before: tuple[str, ...]
    fresh: int  # how many of the last ``before`` moves are this step's own (the rest continue the previous step)
    text: str
    accept: tuple[str, ...]
    wrong: str
    why_not: Mapping[str, str]
    done: str
    after: tuple[str, ...]
    expect: tuple[Mapping[str, Any], ...]
    quiz: bool

    def public(self) -> dict[str, Any]:
        """The step as the page needs it: its words, whether it is a quiz, and (a lesson's step
        only) the moves it teaches, which the page may point at when asked to show the move."""
        return {"text": self.text, "done": self.done, "quiz": self.quiz,
                "show": [] if self.quiz else list(self.accept)}


@dataclass(frozen=True)
class Lesson:
    """A lesson: a title, a few words before it starts, and its steps (the last a quiz)."""

    game: str
    id: str
    title: str
    intro: str
    names: tuple[str, ...]
    steps: tuple[Step, ...] = field(default_factory=tuple)

    def summary(self) -> dict[str, Any]:
        """The lesson as a list shows it: id, title, introduction and how many steps."""
        return {"id": self.id, "title": self.title, "intro": self.intro, "steps": len(self.steps)}


@dataclass(frozen=True)
class Outcome:
    """A step played: the game after the learner's move (and the moves after it), and the
    events that move and those after it produced, as the learner sees them."""

    game: Any
    events: list[Mapping[str, Any]]


# ----- reading the data ----------------------------------------------------------------------


def _text(where: str, raw: Mapping[str, Any], key: str, required: bool = True) -> str:
    value = raw.get(key, "" if not required else None)
    if not isinstance(value, str) or (required and not value.strip()):
        raise LessonError(f"{where}: '{key}' must be {'a non-empty' if required else 'a'} string")
    return " ".join(value.split())


def _moves(where: str, raw: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = raw.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(x, str) and x.strip() for x in value):
        raise LessonError(f"{where}: '{key}' must be a list of moves in the action notation")
    return tuple(" ".join(x.split()) for x in value)


def _position(where: str, game: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    cls = game_class(game)
    players = raw.get("players", cls.default_players)
    if isinstance(players, bool) or not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
        raise LessonError(f"{where}: players must be from {cls.min_players} to {cls.max_players}, got {players!r}")
    seat = raw.get("seat", 0)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise LessonError(f"{where}: seat must be a seat number below {players}, got {seat!r}")
    dealer = raw.get("dealer")
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players):
        raise LessonError(f"{where}: dealer must be a seat number below {players}, got {dealer!r}")
    rules = raw.get("rules", {})
    if not isinstance(rules, dict):
        raise LessonError(f"{where}: rules must be a table of rules options")
    try:
        cls.Rules.from_dict(rules)
    except ValueError as err:
        raise LessonError(f"{where}: {err}") from None
    seed = raw.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise LessonError(f"{where}: seed must be an integer")
    hands = raw.get("hands")
    if not isinstance(hands, list) or len(hands) != players or not all(isinstance(h, str) for h in hands):
        raise LessonError(f"{where}: hands must list one string of tiles per seat ({players})")
    nxt = raw.get("next", "")
    if not isinstance(nxt, str):
        raise LessonError(f"{where}: next must be a string of tiles")
    return {"players": players, "seat": seat, "dealer": dealer, "rules": dict(rules), "seed": seed,
            "hands": tuple(tuple(h.split()) for h in hands), "next": tuple(nxt.split())}


def _expect(where: str, raw: Any) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(raw, list) or not all(isinstance(x, dict) and isinstance(x.get("kind"), str) for x in raw):
        raise LessonError(f"{where}: expect must be a list of tables, each with a 'kind'")
    return tuple(dict(x) for x in raw)


def _step(where: str, game: str, raw: Mapping[str, Any], defaults: Mapping[str, Any],
          previous: Step | None) -> Step:
    unknown = set(raw) - _STEP
    if unknown:
        raise LessonError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(_STEP))}")
    before = _moves(where, raw, "before")
    fresh = len(before)
    if raw.get("continue", False):
        if previous is None:
            raise LessonError(f"{where}: the first step cannot continue a previous one")
        if set(raw) & set(_POSITION):
            raise LessonError(f"{where}: a step that continues the previous one keeps its position")
        pos = {k: getattr(previous, k) for k in _POSITION}
        before = (*previous.before, previous.accept[0], *previous.after, *before)
    else:
        pos = _position(where, game, {**defaults, **{k: raw[k] for k in _POSITION if k in raw}})
    why_not = raw.get("why_not", {})
    if not isinstance(why_not, dict) or not all(isinstance(v, str) for v in why_not.values()):
        raise LessonError(f"{where}: why_not must map moves to explanations")
    accept = _moves(where, raw, "accept")
    if not accept:
        raise LessonError(f"{where}: accept must name at least one move")
    quiz = raw.get("quiz", False)
    if not isinstance(quiz, bool):
        raise LessonError(f"{where}: quiz must be true or false")
    explained = {" ".join(k.split()): " ".join(v.split()) for k, v in why_not.items()}
    return Step(game=game, before=before, fresh=fresh, text=_text(where, raw, "text"), accept=accept,
                wrong=_text(where, raw, "wrong"), why_not=explained,
                done=_text(where, raw, "done"), after=_moves(where, raw, "after"),
                expect=_expect(where, raw.get("expect", [])), quiz=quiz, **pos)


def parse(game: str, data: Mapping[str, Any]) -> tuple[Lesson, ...]:
    """The lessons of a game from its data file's contents; ``LessonError`` names what is wrong.

    Only the data's shape is checked here; :func:`check` plays every step through the engine.
    """
    where = f"lessons of {game}"
    names = data.get("names")
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        raise LessonError(f"{where}: 'names' must list the other seats' names")
    raw_lessons = data.get("lesson")
    if not isinstance(raw_lessons, list) or not raw_lessons:
        raise LessonError(f"{where}: no [[lesson]]")
    out = []
    for n, raw in enumerate(raw_lessons, 1):
        if not isinstance(raw, dict):
            raise LessonError(f"{where}: lesson {n} is not a table")
        at = f"{game} lesson {raw.get('id', n)!s}"
        unknown = set(raw) - _LESSON
        if unknown:
            raise LessonError(f"{at}: unknown field(s) {', '.join(sorted(unknown))}")
        lesson_id = raw.get("id")
        if not isinstance(lesson_id, str) or not lesson_id.replace("-", "").isalnum() or lesson_id != lesson_id.lower():
            raise LessonError(f"{at}: id must be lower-case letters, digits and '-'")
        defaults = {k: raw[k] for k in _POSITION if k in raw}
        steps: list[Step] = []
        raw_steps = raw.get("step")
        if not isinstance(raw_steps, list) or not raw_steps:
            raise LessonError(f"{at}: no [[lesson.step]]")
        for i, s in enumerate(raw_steps, 1):
            if not isinstance(s, dict):
                raise LessonError(f"{at} step {i}: not a table")
            steps.append(_step(f"{at} step {i}", game, s, defaults, steps[-1] if steps else None))
        if not steps[-1].quiz or any(s.quiz for s in steps[:-1]):
            raise LessonError(f"{at}: the last step, and only it, must be a quiz (quiz = true)")
        out.append(Lesson(game=game, id=lesson_id, title=_text(at, raw, "title"), intro=_text(at, raw, "intro"),
                          names=tuple(names), steps=tuple(steps)))
    ids = [x.id for x in out]
    if len(set(ids)) != len(ids):
        raise LessonError(f"{where}: two lessons share an id")
    return tuple(out)


@functools.cache
def load(game: str) -> tuple[Lesson, ...]:
    """The lessons of ``game`` as shipped (``data/<game>.toml``); none when the game has no file."""
    if game not in boneyard.games():
        raise KeyError(game)
    path = resources.files("boneyard.lessons").joinpath("data", f"{game}.toml")
    if not path.is_file():
        return ()
    return parse(game, tomllib.loads(path.read_text(encoding="utf-8")))


def lessons() -> dict[str, tuple[Lesson, ...]]:
    """Every game's lessons, by game id (games without lessons left out)."""
    return {g: found for g in boneyard.games() if (found := load(g))}


# ----- positions through the engine ---------------------------------------------------------------


def _dealt(game: Any) -> list[Counter[str]]:
    """Each seat's tiles as dealt, from its own ``dealt`` event."""
    out: list[Counter[str]] = []
    for s in range(game.players):
        tiles = [t for e in game.view(s)["events"] if e["kind"] == "dealt" and e["seat"] == s for t in e["tiles"]]
        out.append(Counter(tiles))
    return out


@functools.cache
def destinations(game_id: str, players: int, rules_json: str, dealer: int | None) -> tuple[int, ...]:
    """Where each position of a given deck goes when the engine deals it: a seat, or -1 for
    the tiles the game keeps (the turn-up, the boneyard, the woodpile, tiles lying out).

    Found by the engine alone: a probe deck (the full set in order) is dealt, and then, for
    each position, the same deck with that position swapped with a reference position
    holding another tile; the seat that gains the reference's tile holds the position.
    Tiles that appear more than once (Montana's four sets) need no special case: only
    positions are swapped. The dealing order is thus never written down twice.
    """
    rules = json.loads(rules_json)
    cls = game_class(game_id)
    full = [str(t) for t in cls.full_set(cls.Rules.from_dict(rules))]

    def deal(deck: list[str]) -> list[Counter[str]]:
        return _dealt(boneyard.new_game(game_id, players=players, seed=1, rules=rules, deck=deck, dealer=dealer))

    base = deal(full)

    def probe(p: int, q: int) -> tuple[int, int] | None:
        """Where p and q go, found by swapping them (different tiles): None if they go together."""
        deck = list(full)
        deck[p], deck[q] = deck[q], deck[p]
        hands = deal(deck)
        if hands == base:
            return None

        def gainer(tile: str) -> int:
            gained = [s for s in range(players) if hands[s][tile] > base[s][tile]]
            return gained[0] if gained else -1

        return gainer(full[q]), gainer(full[p])

    where: dict[int, int] = {}
    for q in range(1, len(full)):  # two references: the first position, and one that is dealt elsewhere
        if full[q] != full[0] and (found := probe(0, q)) is not None:
            where[0], where[q] = found
            break
    else:
        raise LessonError(f"{game_id}: the engine's deal does not depend on the deck's order")
    refs = sorted(where)
    for p in range(1, len(full)):
        if p in where:
            continue
        ref = refs[0] if full[refs[0]] != full[p] else refs[1]
        found = probe(p, ref)
        where[p] = where[ref] if found is None else found[0]
    return tuple(where[p] for p in range(len(full)))


def deck(step: Step) -> list[str]:
    """The first hand's deck that deals ``step``'s hands and puts its ``next`` tiles first among
    the rest; the tiles nobody named fill the other places in the set's order."""
    cls = game_class(step.game)
    full = [str(t) for t in cls.full_set(cls.Rules.from_dict(step.rules))]
    dest = destinations(step.game, step.players, json.dumps(step.rules, sort_keys=True), step.dealer)
    left = Counter(full)
    out: list[str | None] = [None] * len(full)

    def place(tiles: Sequence[str], positions: list[int], whose: str) -> None:
        if len(tiles) > len(positions):
            raise LessonError(f"{whose}: {len(tiles)} tiles given, only {len(positions)} are dealt there")
        for t, p in zip(tiles, positions, strict=False):
            if left[t] <= 0:
                raise LessonError(f"{whose}: {t} is not in the set, or named more often than the set holds it")
            left[t] -= 1
            out[p] = t

    for s, hand in enumerate(step.hands):
        place(hand, [p for p, d in enumerate(dest) if d == s], f"seat {s}'s hand")
    place(step.next, [p for p, d in enumerate(dest) if d == -1], "next")
    rest = list((left - Counter()).elements())
    rest.sort(key=full.index)
    fill = iter(rest)
    return [t if t is not None else next(fill) for t in out]


def _position_game(step: Step) -> Any:
    """A new game dealing ``step``'s position; ``LessonError`` when the engine deals otherwise."""
    try:
        game = boneyard.new_game(step.game, players=step.players, seed=step.seed, rules=dict(step.rules),
                                 deck=deck(step), dealer=step.dealer)
    except ValueError as err:
        raise LessonError(f"the engine refuses the position: {err}") from None
    for s, (want, got) in enumerate(zip(step.hands, _dealt(game), strict=True)):
        if Counter(want) - got:
            raise LessonError(f"seat {s} was dealt {sorted(got.elements())}, not {list(want)}")
    return game


def _apply(game: Any, moves: Sequence[str], what: str) -> None:
    for move in moves:
        try:
            game.apply(move)
        except IllegalAction as err:
            raise LessonError(f"{what}: {move!r} cannot be played: {err}") from None


def step_of(game_id: str, lesson_id: str, number: int) -> tuple[Lesson, Step]:
    """The lesson and its step ``number`` (1 for the first); ``KeyError`` names what is unknown."""
    found = {x.id: x for x in load(game_id)}
    if lesson_id not in found:
        raise KeyError(f"{game_id} has no lesson {lesson_id!r}; its lessons: {', '.join(found) or 'none'}")
    lesson = found[lesson_id]
    if not 1 <= number <= len(lesson.steps):
        raise KeyError(f"lesson {lesson_id!r} has steps 1 to {len(lesson.steps)}, not {number}")
    return lesson, lesson.steps[number - 1]


def begin(step: Step) -> tuple[Any, int]:
    """The game at the step's start (dealt, the moves before played, the learner to move), and
    how many of the learner's events the step's own moves before produced (the page tells them
    as "so far"; what a continued step inherits was told at the end of the previous one)."""
    game = _position_game(step)
    inherited = len(step.before) - step.fresh
    _apply(game, step.before[:inherited], "a move before the learner's turn")
    dealt = game.events_from(step.seat) + len(game.events(step.seat))
    _apply(game, step.before[inherited:], "a move before the learner's turn")
    if game.current_player != step.seat:
        raise LessonError(f"after the moves before it, seat {game.current_player} is to move, not the learner "
                          f"(seat {step.seat})")
    return game, len(_events_since(game, step.seat, dealt))


def start(step: Step) -> Any:
    """The game at the step's start: dealt, the moves before played, the learner to move."""
    return begin(step)[0]


def _shape(value: Any) -> Any:
    """A view with the order of groups of tiles left out (a Rummikub table laid in another order
    is the same table), for telling whether two moves come to the same thing."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items() if k not in ("events", "events_from")}
    if isinstance(value, list):
        items = [_shape(v) for v in value]
        if items and all(isinstance(v, list) and all(isinstance(t, str) for t in v) for v in items):
            return sorted(sorted(v) for v in items)
        return items
    return value


def taught(game: Any, step: Step, action: str) -> str | None:
    """The accepted move ``action`` comes to, or None: the same notation, or the same position
    after it (a table laid out in another order)."""
    text = " ".join(str(action).split())
    if text in step.accept:
        return text
    try:
        mine = game.clone()
        mine.apply(text)
    except IllegalAction:
        return None
    for accepted in step.accept:
        other = game.clone()
        other.apply(accepted)
        if _shape(other.view(step.seat)) == _shape(mine.view(step.seat)):
            return accepted
    return None


def explanation(game: Any, step: Step, action: str) -> str:
    """The step's words for a legal move it does not teach: its own (``why_not``, matched in the
    engine's notation, so ``claim run 3-1 3-2`` finds ``claim run 3-2 3-1``), else the general one."""
    wanted = str(game.parse_action(action))
    for move, words in step.why_not.items():
        if str(game.parse_action(move)) == wanted:
            return words
    return step.wrong


def _events_since(game: Any, seat: int, seen: int) -> list[Mapping[str, Any]]:
    events = list(game.events(seat))
    total = game.events_from(seat) + len(events)
    return events[len(events) - (total - seen):] if total > seen else []


def play_step(step: Step, action: Any) -> Outcome:
    """The learner plays ``action`` at the step's start.

    The move taught: it is played, then the step's ``after`` moves, and the outcome comes
    back. Another legal move: ``WrongMove`` with the step's friendly words for it. A move
    the rules forbid: the engine's ``IllegalAction``, which names the rule. The game is
    rebuilt from the step's data each time, so nothing is kept between requests.
    """
    game = start(step)
    if not isinstance(action, str) or not action.strip():
        raise IllegalAction("a move must be written in the action notation, e.g. 'play 6-4'")
    if not game.is_legal(action):
        game.apply(action)  # raises IllegalAction naming the rule
    accepted = taught(game, step, action)
    if accepted is None:
        text = " ".join(action.split())
        raise WrongMove(text, explanation(game, step, text))
    seen = game.events_from(step.seat) + len(game.events(step.seat))
    game.apply(accepted)
    _apply(game, step.after, "a move after the learner's")
    return Outcome(game, _events_since(game, step.seat, seen))


def matches(event: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    """Whether ``event`` has every field of ``want`` with that value."""
    return all(k in event and event[k] == v for k, v in want.items())


def check(lesson: Lesson) -> None:
    """Play every step of a lesson through the engine; ``LessonError`` says which claim fails.

    For each step: the position deals as written, the moves before it are legal and leave
    the learner to move, every accepted move is legal and listed among the legal moves (so
    the page has a tile or a button for it), a quiz offers another legal move to choose,
    the ``why_not`` moves are legal and not accepted, and the accepted move (with the moves
    after it) produces every expected event.
    """
    for n, step in enumerate(lesson.steps, 1):
        at = f"{lesson.game} lesson {lesson.id!r} step {n}"
        try:
            game = start(step)
            listed = {str(a) for a in game.legal_actions()}
            for move in step.accept:
                if move not in listed:
                    raise LessonError(f"accepted move {move!r} is not among the legal moves {sorted(listed)[:12]}")
            if step.quiz and not listed - set(step.accept):
                raise LessonError("a quiz needs another legal move to choose from")
            for move in step.why_not:
                if not game.is_legal(move) or taught(game, step, move) is not None:
                    raise LessonError(f"why_not names {move!r}, which is not another legal move")
            for move in step.accept:
                outcome = play_step(step, move)
                for want in step.expect:
                    if not any(matches(e, want) for e in outcome.events):
                        kinds = [e["kind"] for e in outcome.events]
                        raise LessonError(f"{move!r} did not produce {want} (events: {kinds})")
        except LessonError as err:
            raise LessonError(f"{at}: {err}") from None


def with_steps(lesson: Lesson, steps: Sequence[Step]) -> Lesson:
    """A copy of ``lesson`` with other steps (the tests break lessons on purpose this way)."""
    return replace(lesson, steps=tuple(steps))
