"""Rounce's reading of the table: what the other seats' plays and calls tell of their hands.

Two models shape the worlds the search samples, each treating another seat as greedy's
heuristic (``greedy/rounce.py``) would: :func:`past_decisions` rebuilds a seat's plays of
this hand, whose likelihood weighs a sampled world (inference,
:mod:`boneyard.bots.inference`); :func:`explain` redeals a sampled world before the first
play so that every seat's call and exchange agrees with the hand it was made from.

Joined in the game's search profile, :mod:`boneyard.bots.profiles.rounce`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...games.rounce.engine import legal_plays
from ...tiles import Tile, double_six, tile_of
from ..greedy.rounce import KEEP_AT, strength
from ..tricks.rounce import keep_value

_FULL = double_six()
tile = tile_of  # a tile from its notation (a table lookup)


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
    """Whether greedy's heuristic would keep ``hand`` at its call (estimated tricks at least ``KEEP_AT``).

    Judged as the seat judged it then: every tile but its hand and the turn-up unseen.
    """
    rest = [t for t in _FULL if t not in hand and t != turn_up]
    return strength(hand, trump, rest) >= KEEP_AT


def explain(view: dict[str, Any], world: Any, rng: random.Random) -> Any:
    """The other seats' calls and exchanges replayed in a sampled ``world`` (in the search profile).

    ``sample_game`` deals every hidden tile at random, but a call tells about the hand
    that made it. Each other seat is modelled as greedy's heuristic, before the first play:

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
