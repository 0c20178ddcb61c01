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
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...games.rounce.engine import Placed, legal_plays, placement
from ...tiles import Tile, double_six, tile_of
from ..profile import SearchProfile
from ..tricks.rounce import choose_play, finish, keep_value, trump_rank

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


def past_decisions(view: dict[str, Any], world: Any, seat: int) -> list[tuple[dict[str, Any], list[Any], Any]]:
    """``seat``'s plays of this hand as decisions to re-ask (in the search profile, for inference).

    Its hand before each play is its hand in the sampled ``world`` plus the tiles it has
    played since (a seat draws and discards only before the play starts); the trick then
    and the legal plays come from the view's public tricks and the engine's
    :func:`~boneyard.games.rounce.engine.legal_plays`. Its face-down discards are hidden,
    so the past view lists none. Calls are not judged: a folded hand leaves the table
    unseen and a kept hand may have exchanged tiles since.
    """
    tricks = view["tricks"]
    rounds = [t["plays"] for t in tricks] + ([view["trick"]] if view["trick"] else [])
    mine = [(i, j) for i, plays in enumerate(rounds) for j, p in enumerate(plays) if p["seat"] == seat]
    if not mine:
        return []
    held = list(world.hands[seat]) + [tile(rounds[i][j]["tile"]) for i, j in mine]
    trump = view["trump"]
    out: list[tuple[dict[str, Any], list[Any], Any]] = []
    for i, j in mine:
        play = rounds[i][j]
        before = rounds[i][:j]
        hand = sorted(held, reverse=True)
        legal = legal_plays(hand, trump, before[0]["suit"] if before else None, i == 0)
        past = {
            **view,
            "seat": seat,
            "current_player": seat,
            "phase": "play",
            "hand": [str(t) for t in hand],
            "discarded": [],
            "tricks": tricks[:i],
            "trick": before,
        }
        out.append((past, legal, _taken(tile(play["tile"]), play["suit"])))
        held.remove(tile(play["tile"]))
    return out


def _kept(hand: Sequence[Tile], trump: int, turn_up: Tile) -> bool:
    """Whether this heuristic would keep ``hand`` at its call (estimated tricks at least ``KEEP_AT``).

    Judged as the seat judged it then: every tile but its hand and the turn-up unseen.
    """
    rest = [t for t in _FULL if t not in hand and t != turn_up]
    return strength(hand, trump, rest) >= KEEP_AT


def explain(view: dict[str, Any], world: Any, rng: random.Random) -> Any:
    """The other seats' calls and exchanges replayed in a sampled ``world`` (in the search profile).

    ``sample_game`` deals every hidden tile at random, but a call tells about the hand
    that made it. Each other seat is modelled as this heuristic, before the first play:

    - a seat that passed (not the dealer) kept a hand of at least ``KEEP_AT`` estimated
      tricks, and one that folded or called dummy threw away a hand of fewer: their old
      hands are dealt from the face-down tiles (any of them: those are dealt at random);
    - a seat that called dummy kept the best five (by :func:`keep_value`) of the dealt
      five and as many face-down tiles as it discarded; a dealer who took the turn-up,
      the best five of his old hand and the turn-up. The rest go back face down.

    Returns the world (changed in place), or ``None`` when its hands contradict a call (the
    caller draws another). The dealer's own call is not judged (it rests on more than
    strength), and once a tile has been played the hands also answer to the tricks, so
    from then on the world is returned unchanged. The engine's ``conform`` moves the
    tiles by its own rules (how many the dummy holds, where discards lie); this module
    gives it only the model of a seat's judgement.
    """
    if view["tricks"] or view["trick"] or view["seat"] is None:
        return world
    trump = view["trump"]
    turn_up = tile(view["turn_up"])
    return world.conform(view, lambda hand: _kept(hand, trump, turn_up), lambda t: keep_value(t, trump), rng)


def _taken(t: Tile, suit: int | None) -> Any:
    """A test: is an action the play of ``t`` (named as ``suit`` where the action names one)?"""
    return lambda a: a.tile == t and (a.suit is None or a.suit == suit)


#: How ``ismcts`` and the coach play Rounce (:mod:`boneyard.bots.profile`).
PROFILE = SearchProfile(
    margin_scale=2.0,  # a hand's typical score swing, squashing margins into [0, 1]
    # the calls, the discards after them and the dealer's defend are searched flat, so that
    # the other seats' calls in its playouts follow their own hands (in a tree they would be
    # chosen blind to them); the tricks are searched in the tree
    search_by_phase={"call": "flat", "discard": "flat", "defend": "flat"},
    # searching those phases in the tree (shape=tree): the other seats' calls, discards and
    # defend there follow the playout policy on their own hands, not the tree's statistics
    others_by_policy=frozenset({"call", "discard", "defend"}),
    finish=finish,
    # the exact solver takes the last three tricks over in the coach's playouts; not in the
    # search's by default, nor inference from the plays: with the calls searched flat, both
    # lost points in the arena (docs/bots-measurements.md); ismcts:endgame=4:infer=4 switches
    # both on
    endgame_tricks=3,
    search_solves=False,
    past_decisions=past_decisions,
    infer_candidates=0,
    explain=explain,
    choose=choose,
)
