"""Greedy Rounce: fold or dummy by trump strength, win tricks cheaply.

The heuristic, as a decent player would put it:

- **Calls.** Estimate the tricks the hand takes (each trump by how many unseen trumps
  outrank it, high doubles and sixes a little). Keep the hand at about one trick or more;
  otherwise fold (3-4 players) or call dummy (2 players, where folding is not allowed).
  The dealer who keeps always takes the turn-up (it is a trump) and defends, when allowed,
  unless the hand is strong. Everyone else folded: the dealer keeps and takes all five.
- **Discards.** Throw the least useful tile: never a trump while a plain tile remains.
- **Leads.** Cash a sure winner (nothing unseen beats it) as cheaply as possible;
  otherwise lead the tile that the fewest unseen tiles beat.
- **Follows.** Win with the cheapest tile that wins (the cheapest sure winner when others
  play after); when the trick cannot be won, throw the least useful tile.

The play rule and the tiles' worth are written once, compiled with the engines
(:mod:`boneyard.bots.tricks.rounce`): this module asks them for one decision, the search's
playouts for every play to the end of the hand. The search's own parts live beside it:
the reading of the other seats' calls and plays (:mod:`boneyard.bots.rounce.reading`),
joined in the search profile (:mod:`boneyard.bots.profiles.rounce`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...games.rounce.engine import Placed, placement
from ...tiles import Tile, double_six, tile_of
from ..tricks.rounce import choose_play, keep_value, trump_rank

_FULL = double_six()
_TILES = {str(t): t for t in _FULL}
tile = tile_of  # a tile from its notation (a table lookup)
# Chance that a trump takes a trick, by the number of unseen trumps that outrank it.
_TRUMP_ODDS = (1.0, 0.8, 0.6, 0.45, 0.3, 0.2, 0.1, 0.05)
KEEP_AT = 1.0  # estimated tricks at or above which a hand is played
PLAY_ON_AT = 1.6  # estimated tricks at or above which a dealer plays on rather than defends


def unseen(view: dict[str, Any]) -> list[Tile]:
    """Tiles this seat has not seen: not in hand, not its discards, not played, not the turn-up."""
    seen = set(view["hand"])
    seen.update(view["discarded"] or ())
    seen.update(p["tile"] for tr in view["tricks"] for p in tr["plays"])
    seen.update(p["tile"] for p in view["trick"])
    if not view["turn_up_taken"]:
        seen.add(view["turn_up"])
    return [t for text, t in _TILES.items() if text not in seen]


def strength(hand: Sequence[Tile], trump: int, others: Sequence[Tile]) -> float:
    """Estimated tricks a hand takes."""
    total = 0.0
    for t in hand:
        if t.has(trump):
            rank = trump_rank(t, trump)
            higher = sum(1 for u in others if u.has(trump) and trump_rank(u, trump) > rank)
            total += _TRUMP_ODDS[min(higher, len(_TRUMP_ODDS) - 1)]
        elif t.is_double:
            total += 0.35 if t.high >= 4 else 0.15
        elif t.high == 6:
            total += 0.1
    return total


def choose(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """The greedy action for a Rounce view."""
    texts = {str(a): a for a in legal_actions}
    phase = view["phase"]
    if phase == "play":
        return _play(view, legal_actions)
    hand = [tile(t) for t in view["hand"]]
    trump = view["trump"]
    if phase == "discard":
        worst = min(hand, key=lambda t: keep_value(t, trump))
        return texts[f"discard {worst}"]
    rest = unseen(view)
    est = strength(hand, trump, rest)
    if phase == "defend":
        return texts["pass"] if est >= PLAY_ON_AT or "defend" not in texts else texts["defend"]
    return _call(view, texts, hand, trump, rest, est)


def _call(
    view: dict[str, Any], texts: dict[str, Any], hand: list[Tile], trump: int, rest: list[Tile], est: float
) -> Any:
    seat = view["seat"]
    calls = view["calls"]
    dealer = seat == view["dealer"]
    if dealer:
        others = [c for s, c in enumerate(calls) if s != seat]
        if all(c == "fold" for c in others):
            return texts["pass"]  # the only one left in takes all five without play
        turn_up = tile(view["turn_up"])
        with_turn_up = [*hand, turn_up]
        worst = min(with_turn_up, key=lambda t: keep_value(t, trump))
        with_turn_up.remove(worst)
        taken_est = strength(with_turn_up, trump, [t for t in rest if t != turn_up])
        if "defend" in texts and taken_est < PLAY_ON_AT:
            return texts["defend"]
        if taken_est >= KEEP_AT or ("fold" not in texts and "dummy" not in texts):
            return texts["take"] if "take" in texts else texts["pass"]
    elif est >= KEEP_AT:
        return texts["pass"]
    if "fold" in texts:
        return texts["fold"]
    if "dummy" in texts and est < 0.9 * KEEP_AT:
        return texts["dummy"]
    return texts["take"] if "take" in texts else texts["pass"]


def _play(view: dict[str, Any], legal_actions: Sequence[Any]) -> Any:
    """Greedy's play from a view: the compiled rule (:func:`boneyard.bots.tricks.rounce.choose_play`)."""
    trump = view["trump"]
    trick = view["trick"]
    led = trick[0]["suit"] if trick else None
    tiles: list[Tile] = []
    placed: list[Placed] = []
    for action in legal_actions:
        words = str(action).split()
        t = tile(words[1])
        tiles.append(t)
        placed.append(placement(t, trump, led, int(words[3]) if len(words) == 4 else None))
    so_far: list[Placed] = [(p["suit"], p["rank"]) for p in trick]
    still_in = sum(1 for c in view["calls"] if c != "fold")
    return legal_actions[choose_play(tiles, placed, so_far, trump, unseen(view), still_in)]
