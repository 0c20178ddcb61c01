"""Greedy two-box: score now, block the count, keep doubles playable.

The heuristic, as a decent player would put it. Each play (or stack) is valued as:

- **Score now**: the points it scores (the open-end count after it, when a multiple of 5;
  with ``cutthroat`` a stack right after a scoring play steals that score).
- **Block the count**: minus half the points the next player could score on the layout it
  leaves, averaged over the tiles unseen by this seat, weighted by the chance he holds them.
- **Keep doubles playable**: a bonus for playing a double while its number is open, and a
  penalty for each double left in hand whose number shows on no open end.
- **Keep a follow**: a bonus for each open end the hand left can still play on, so the
  seat is not soon forced to draw (every drawn tile is pips for whoever goes out).
- **Lighten the hand**: a little for heavy tiles, and a large bonus for going out.

Draw only when nothing can be played; pass only when nothing else is legal.

For the ``ismcts`` bot: :data:`PROFILE` makes it search *flat* (candidates compared on
common sampled worlds), and :func:`outcomes` gives that search its playouts. Where the C
module ``_twobox_playout`` is built (``make`` builds it), every play and stack is a
candidate (:data:`COMPILED_CANDIDATES`) and each is played out by this heuristic with
:data:`PLAYOUT_WEIGHTS` (the follow term off: with it the search played no better),
compiled, for every seat to the end of the hand: about 19,000 playouts in a 200 ms
decision, each sampled world giving :data:`ROUNDS_PER_WORLD` rounds with fresh boneyard
orders. The rules let a seat draw even when it could play, and with the compiled
playouts the search weighs that too (:data:`SEARCH_DRAW`): one more tile from the
boneyard, then greedy's play, against every play now. It draws in about half the
decisions where it could play, and wins far more than the search that never draws
(``docs/bots-measurements.md``). The compiled playout takes exactly the actions
:func:`choose` would with the same weights (tested action by action against the
engine), which is :func:`playout`,
the policy of the engine's playouts. Without the module the search plays
greedy's :data:`MAX_CANDIDATES` best plays out through the engine for
the profile's ``playout_depth`` actions, then :func:`evaluate` estimates the rest of the hand from
the sampled game's views: each seat expects the going-out award (the pips in the other
hands) in proportion to its chance of going out, taken as ``1 / tiles in hand**2``
normalised over the seats. See ``docs/bots-measurements.md`` for what each setting measured.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from types import ModuleType
from typing import Any, NamedTuple

from ...games.twobox.engine import ArmEnd, end_value, open_ends_and_count, scored
from ...tiles import Tile, double_six, tile_of
from ..profile import SearchProfile

_compiled: ModuleType | None
try:  # built from _twobox_playout.c at install time; without it ismcts plays out through the engine
    from .. import _twobox_playout as _compiled
except ImportError:  # pragma: no cover - exercised only where no C compiler was found
    _compiled = None
COMPILED = _compiled is not None
"""Whether the compiled playouts are built (``ismcts`` then plays every candidate out to the hand's end)."""

_FULL = double_six(2)
tile = tile_of  # a tile from its notation (a table lookup)
_NOTHING: ArmEnd = (Tile(0, 0), 0)  # an arm end that adds nothing to the count
# _PAIRS[a][b]: the tile with ends a and b.
_FULL_COUNTS = [sum(1 for t in _FULL if t.key == k) for k in range(64)]
_BY_KEY: list[Any] = [None] * 64
for _t in _FULL:
    _BY_KEY[_t.key] = _t
_PAIRS = tuple(tuple(Tile(a, b) for b in range(7)) for a in range(7))
MAX_CANDIDATES = 3  # greedy's best plays compared by the flat search (engine playouts)
SEARCH_DRAW = True  # with the compiled playouts: compare a voluntary draw too (ismcts draw=0: never)
COMPILED_CANDIDATES: int | None = None  # with the compiled playouts: every play (None) or greedy's best few
ROUNDS_PER_WORLD = 16  # compiled playouts: boneyard orders tried per sampled world


def layout(view: dict[str, Any]) -> tuple[int, list[ArmEnd]]:
    """The spinner's number and each arm's (last tile, outer end) as the view shows them."""
    arms: list[ArmEnd] = []
    for arm in view["arms"]:
        tiles = arm["tiles"]
        arms.append((tile(tiles[-1]["tile"]), tiles[-1]["outer"]) if tiles else None)
    return tile(view["spinner"]).high, arms


def played(spinner: int, arms: Sequence[ArmEnd], t: Tile, arm: int) -> list[ArmEnd]:
    """The arms after ``t`` is played to arm ``arm`` (1-4), by the engine's open ends."""
    end = open_ends_and_count(spinner, arms)[0][arm - 1]
    after = list(arms)
    after[arm - 1] = (t, t.other(end))
    return after


def threat(spinner: int, arms: Sequence[ArmEnd], rest: Counter[Tile]) -> int:
    """The sum over ``rest`` (with multiplicity) of the most each tile could score if played next.

    The engine's count is a sum over the arms plus a spinner term that depends only on
    whether both sides hold a tile, so the count after a play on an arm is the count with
    that arm holding an end worth nothing (:data:`_NOTHING`) plus what the new end adds:
    one count per arm gives every tile's score there.
    """
    best: dict[Tile, int] = {}
    ends = open_ends_and_count(spinner, arms)[0]
    for a, end in enumerate(ends):
        if end < 0:
            continue
        emptied = list(arms)
        emptied[a] = _NOTHING
        base = open_ends_and_count(spinner, emptied)[1]
        row = _PAIRS[end]
        for outer in range(7):
            t = row[outer]
            score = scored(base + end_value(t, outer))
            if score and score > best.get(t, 0):
                best[t] = score
    return sum(score * rest[t] for t, score in best.items())


def unseen(view: dict[str, Any]) -> Counter[Tile]:
    """Tiles this seat has not seen: the others' hands and the boneyard."""
    # counted by tile key in a plain list (hashing a Tile runs Python code), then one Counter
    counts = list(_FULL_COUNTS)
    for t in view["hand"]:
        counts[tile(t).key] -= 1
    spinner = tile(view["spinner"]).key
    counts[spinner] -= 1
    for arm in view["arms"]:
        for t in arm["tiles"]:
            counts[tile(t["tile"]).key] -= 2 if t.get("stacked_by") is not None else 1
    if view.get("spinner_stacked_by") is not None:
        counts[spinner] -= 1
    return Counter({_BY_KEY[k]: n for k, n in enumerate(counts) if n > 0})


class Weights(NamedTuple):
    """The heuristic's weights (one source: the compiled playouts are given these too)."""

    block: float = 0.5  # times the next player's expected best score on the layout left
    double: float = 3.0  # bonus for playing a double
    stranded: float = 2.0  # penalty per double left in hand whose number shows on no open end
    pip: float = 0.2  # per pip of the tile played
    out: float = 25.0  # bonus for going out
    follow: float = 1.0  # per open end left that a tile of the remaining hand matches


WEIGHTS = Weights()
# The search's playouts keep greedy as it was before the follow term: the term makes greedy
# itself stronger, but a search whose playouts had it did not play better (docs/bots-measurements.md).
PLAYOUT_WEIGHTS = WEIGHTS._replace(follow=0.0)


def choose(
    view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random, weights: Weights | None = None
) -> Any:
    """The greedy action for a two-box view (``weights``: the heuristic's, :data:`WEIGHTS` when ``None``).

    :data:`WEIGHTS` is read at each call, so an experiment that swaps it changes greedy's
    choices (the search's playouts read :data:`PLAYOUT_WEIGHTS`).
    """
    texts = {str(a): a for a in legal_actions}
    plays = [k for k in texts if k.startswith(("play", "stack"))]
    if not plays:
        return texts["draw"] if "draw" in texts else legal_actions[0]
    values = _values(view, plays, weights)
    return texts[max(plays, key=lambda k: (values[k], k))]


def _values(view: dict[str, Any], plays: list[str], weights: Weights | None = None) -> dict[str, float]:
    """The heuristic's value of each play or stack (by its notation; :data:`WEIGHTS` when ``None``)."""
    if weights is None:
        weights = WEIGHTS
    spinner, arms = layout(view)
    hand = [tile(t) for t in view["hand"]]
    rest = unseen(view)
    seat = view["seat"]
    nxt = (seat + 1) % view["players"]
    chance = view["hand_sizes"][nxt] / max(1, sum(rest.values()))
    return {k: _value(k, view, spinner, arms, hand, rest, chance, weights) for k in plays}


def _value(
    text: str,
    view: dict[str, Any],
    spinner: int,
    arms: list[ArmEnd],
    hand: list[Tile],
    rest: Counter[Tile],
    p: float,
    w: Weights,
) -> float:
    words = text.split()
    t = tile(words[1])
    where = int(words[3])
    left = list(hand)
    left.remove(t)
    if words[0] == "stack":
        steal = view.get("steal")
        if view["rules"].get("cutthroat") and steal and steal.get("points"):
            score = steal["points"] * (2 if t.is_double else 1) * 2  # gain plus the victim's loss
        else:
            score = scored(open_ends_and_count(spinner, arms)[1])
        after = arms
    else:
        after = played(spinner, arms, t, where)
        score = scored(open_ends_and_count(spinner, after)[1])
    value = score - w.block * (p * threat(spinner, after, rest)) + w.pip * t.pips
    if t.is_double:
        value += w.double
    ends = [e for e in open_ends_and_count(spinner, after)[0] if e >= 0]
    value -= w.stranded * sum(1 for u in left if u.is_double and u.high not in ends)
    if w.follow:  # off in the search's playouts: not counted there
        value += w.follow * sum(1 for e in ends if any(e == u.high or e == u.low for u in left))
    if not left:
        value += w.out
    return value


def playout(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """In the search profile: the playout policy, greedy with :data:`PLAYOUT_WEIGHTS` (as the compiled playouts).

    Used where the compiled playouts are not built, so that both paths play the same policy.
    """
    return choose(view, legal_actions, rng, PLAYOUT_WEIGHTS)


def candidates(view: dict[str, Any], legal_actions: Sequence[Any], greedy_action: Any) -> list[Any]:
    """The actions ``ismcts``'s flat search compares: plays and stacks, and a voluntary draw.

    With the compiled playouts: every play and stack (:data:`COMPILED_CANDIDATES`), and
    the draw while the boneyard has tiles (:data:`SEARCH_DRAW`), played out as one tile
    drawn and then greedy's play. About 19,000 playouts a decision judge the draw well
    enough to trust. Through the engine (no compiled module), only the
    :data:`MAX_CANDIDATES` plays or stacks the heuristic values most, and never a
    voluntary draw: with about 150 playouts a decision, a search that weighed the draw
    drew on noise in a third of its decisions and lost (0.450 against greedy, 40 games).
    """
    texts = {str(a): a for a in legal_actions}
    plays = [k for k in texts if k.startswith(("play", "stack"))]
    if not plays:
        return [greedy_action]
    values = _values(view, plays)
    ranked = sorted(plays, key=lambda k: (values[k], k), reverse=True)
    limit = COMPILED_CANDIDATES if COMPILED else MAX_CANDIDATES
    found = [texts[k] for k in (ranked if limit is None else ranked[:limit])]
    if SEARCH_DRAW and COMPILED and "draw" in texts:
        found.append(texts["draw"])
    return found


def evaluate(game: Any) -> list[float]:
    """Each seat's expected further gain in the hand (see the module docstring), from its view."""
    hands = [game.view(s)["hand"] for s in range(game.players)]
    pips = [sum(tile(t).pips for t in h) for h in hands]
    weights = [1.0 / len(h) ** 2 if h else 0.0 for h in hands]
    total = sum(weights) or 1.0
    all_pips = sum(pips)
    return [w / total * (all_pips - p) for w, p in zip(weights, pips, strict=True)]


# ----- compiled playouts (the search profile's ``outcomes``) ------------------------------


def _tid(t: Tile) -> int:
    """A tile's number in the compiled module: high*(high+1)/2 + low (0..27)."""
    return t.high * (t.high + 1) // 2 + t.low


def encode(
    views: Sequence[dict[str, Any]], seat: int, boneyard: Sequence[Tile] | None = None
) -> tuple[bytes, tuple[int, ...], int, int]:
    """A hand as the compiled module takes it: state bytes, scores, target, stealable points.

    ``views``: every seat's view of one (sampled) game, in seat order; ``seat``: the
    observer whose reward is measured. The boneyard is what no hand and no layout holds,
    in ``boneyard``'s order when given (the next draw last), else in a fixed order (the
    module reshuffles it for every round). See ``_twobox_playout.c`` for the byte layout.
    """
    view = views[seat]
    steal = view["steal"]
    rules = view["rules"]
    spinner = tile(view["spinner"])
    out = [
        view["players"],
        seat,
        view["current_player"],
        1 if rules.get("cutthroat") else 0,
        1 if rules.get("round_to_five") else 0,
        spinner.high,
        0 if view["spinner_stacked_by"] is None else 1,
        view["passes"],
        255 if steal is None else steal["seat"],
    ]
    for arm in view["arms"]:
        if arm["tiles"]:
            last = arm["tiles"][-1]
            out += [1, _tid(tile(last["tile"])), last["outer"], 0 if last["stacked_by"] is None else 1]
        else:
            out += [0, 0, 0, 0]
    hands = [[tile(t) for t in v["hand"]] for v in views]
    if boneyard is None:
        rest = unseen(view)
        for s, hand in enumerate(hands):
            if s != seat:
                rest.subtract(hand)
        boneyard = sorted(rest.elements(), key=_tid)
    out.append(len(boneyard))
    out += [_tid(t) for t in boneyard]
    for hand in hands:
        out.append(len(hand))
        out += [_tid(t) for t in hand]
    return bytes(out), tuple(view["scores"]), view["target"], 0 if steal is None else steal["points"]


def _candidate_bytes(actions: Sequence[Any]) -> bytes | None:
    """Plays, stacks and draws as (kind, tile, arm) triples (a draw is 2, 0, 0); ``None`` for a pass."""
    out: list[int] = []
    for a in actions:
        if a.kind == "draw":
            out += [2, 0, 0]
            continue
        if a.kind not in ("play", "stack"):
            return None
        out += [0 if a.kind == "play" else 1, _tid(a.tile), a.arm]
    return bytes(out)


# A playout's outcome: every seat's score at the hand's end, and the winners if the game ended.
Outcome = tuple[list[int], list[int] | None]


def outcomes(game: Any, actions: Sequence[Any], seat: int, seed: int) -> list[list[Outcome]] | None:
    """In the search profile: each candidate played out by the playout policy to the hand's end, compiled.

    One row per round, one outcome per action: the seats' scores at the hand's end and the
    winners if the game ended there, else ``None`` (the search turns outcomes into rewards
    itself, with the same formula as for every other playout). Every action of a round
    meets the same hands and boneyard order: common random numbers. The game is read
    through its seats' views; each of the :data:`ROUNDS_PER_WORLD` rounds draws a fresh
    order of its boneyard (given the hands, every order is equally likely, so a round is as
    good a sample as a fresh world, and cheaper). ``None`` where the module is not built or
    an action is not a play or a stack.
    """
    if _compiled is None:
        return None
    cands = _candidate_bytes(actions)
    if cands is None:
        return None
    state, points, target, steal = encode([game.view(s) for s in range(game.players)], seat)
    flat = _compiled.outcomes(state, points, target, steal, cands, ROUNDS_PER_WORLD, seed, PLAYOUT_WEIGHTS)
    n, width = len(actions), game.players + 1
    found: list[Outcome] = []
    for i in range(0, len(flat), width):
        winner = flat[i + width - 1]
        found.append((flat[i : i + width - 1], None if winner < 0 else [winner]))
    return [found[i : i + n] for i in range(0, len(found), n)]


#: How ``ismcts`` and the coach play two-box (:mod:`boneyard.bots.profile`).
PROFILE = SearchProfile(
    margin_scale=25.0,  # a hand's typical score swing, squashing margins into [0, 1]
    search="flat",  # every candidate played out on common sampled worlds ...
    evidence_z=0.0,  # ... and the best mean over those worlds is played
    candidates=candidates,
    outcomes=outcomes,  # the compiled rounds, where built
    playout=playout,
    playout_depth=6,  # engine playouts: actions after each candidate before evaluate() guesses the rest
    evaluate=evaluate,
    choose=choose,
)
