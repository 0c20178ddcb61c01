"""Greedy Eighty: bid from an estimate of tricks and count, call the strongest suit, win count.

The heuristic, as a decent partnership player would put it:

- **Bidding.** For each possible trump suit, estimate the side's points: two per trick the
  hand should take (each trump by how many unseen trumps outrank it, plus length beyond
  three; each non-trump double as a likely winner), the count tiles it holds that should
  be won, and a partner's average share. Bid the least legal number up to that estimate;
  never bid over a partner who holds the bid; never Nel-O.
- **Trumps.** Name the suit with the best estimate (the longest strong suit).
- **Leads.** Cash a sure winner (nothing unseen beats it); with trump length, draw trumps
  from the top; otherwise lead low, keeping count tiles back.
- **Follows.** A partner winning safely gets our count tiles; otherwise win a trick that
  holds count (or when last) as cheaply as possible; when it cannot be won, follow cheaply,
  never throwing count to the opponents if a plain tile will do.
- **Nel-O bidder** (if that option is on): play the highest tile that still loses.

The play rule is written once, compiled with the engines (:mod:`boneyard.bots.tricks.eighty`):
this module asks it for one decision, the search's playouts for every play to the end of
the hand. The search's own parts live beside it: the reading of the other seats' past
bids and plays (:mod:`boneyard.bots.eighty.reading`), joined in the search profile
(:mod:`boneyard.bots.profiles.eighty`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...games.eighty.engine import COUNT, power, tables
from ...games.eighty.engine import TRUMP_SUIT as TRUMP
from ...tiles import Tile, double_six, tile_of
from ..tricks.eighty import choose_play

_FULL = double_six(2, blanks=False)
tile = tile_of  # a tile from its notation (a table lookup)
_TRUMP_ODDS = (1.0, 0.85, 0.65, 0.45, 0.3, 0.2, 0.1, 0.05)
PARTNER_SHARE = 22  # points a partner's hand brings on average
_FULL_COUNTS = Counter(_FULL)  # the set, counted once


def unseen(view: dict[str, Any]) -> Counter[Tile]:
    """Tiles not in this hand and not yet played (the others' hands and the two lying out).

    In the set's order, like ``Counter(_FULL)`` with the seen tiles subtracted; counted
    in a plain dict, since every playout of the search asks this at every play.
    """
    pool = dict(_FULL_COUNTS)
    for t in view["hand"]:
        pool[tile(t)] -= 1
    for tr in view["tricks"]:
        for p in tr["plays"]:
            pool[tile(p["tile"])] -= 1
    for p in view["trick"]:
        pool[tile(p["tile"])] -= 1
    return Counter({t: n for t, n in pool.items() if n > 0})


_TRUMP_POWERS: dict[tuple[int, bool], list[tuple[int, int, int]]] = {}


def _trump_powers(trump: int, doubles: bool) -> list[tuple[int, int, int]]:
    """(key, power as a trump, copies in the set) of every distinct trump tile, built once per setting."""
    found = _TRUMP_POWERS.get((trump, doubles))
    if found is None:
        found = _TRUMP_POWERS[(trump, doubles)] = [
            (u.key, power(u, TRUMP, trump, doubles), n) for u, n in _FULL_COUNTS.items() if u.has(trump)
        ]
    return found


def estimate(hand: Sequence[Tile], trump: int, doubles: bool) -> float:
    """Points this hand and an average partner should win with ``trump`` as trumps.

    The unseen trumps that outrank each of the hand's trumps are counted over the trump
    tiles alone (:func:`_trump_powers`): every bid and trump call of a search's playouts
    asks this six times.
    """
    trumps = [t for t in hand if t.has(trump)]
    tricks = 0.0
    if trumps:
        held: dict[int, int] = {}
        for t in trumps:
            held[t.key] = held.get(t.key, 0) + 1
        ranked = _trump_powers(trump, doubles)
        powers = tables(trump, doubles).power[TRUMP]
        for t in trumps:
            mine = powers[t.key]
            higher = sum(n - held.get(k, 0) for k, p, n in ranked if p > mine)
            tricks += _TRUMP_ODDS[min(higher, len(_TRUMP_ODDS) - 1)]
    tricks += max(0, len(trumps) - 3) * 0.4
    tricks += sum(0.6 for t in hand if t.is_double and not t.has(trump))
    count = sum(COUNT.get(t, 0) * (0.9 if t.has(trump) or t.is_double else 0.5) for t in hand)
    return 2 * tricks + count + PARTNER_SHARE


def choose(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """The greedy action for an Eighty view."""
    texts = {str(a): a for a in legal_actions}
    hand = [tile(t) for t in view["hand"]]
    doubles = bool(view["rules"].get("doubles_suit", False))
    if view["phase"] == "bid":
        return _bid(view, texts, hand, doubles)
    if view["phase"] == "trump":
        best = max(range(1, 7), key=lambda s: (estimate(hand, s, doubles), s))
        return texts[f"trump {best}"]
    return _play(view, legal_actions, doubles)


def _bid(view: dict[str, Any], texts: dict[str, Any], hand: list[Tile], doubles: bool) -> Any:
    seat = view["seat"]
    high = view["high_bid"]
    bids = view["bids"]
    partner = (seat + 2) % 4
    if isinstance(high, int) and bids[partner] == high:
        return texts["pass"]
    value = max(estimate(hand, s, doubles) for s in range(1, 7))
    need = 50 if not isinstance(high, int) else high + 1
    if need <= min(80, value) and f"bid {need}" in texts:
        return texts[f"bid {need}"]
    return texts["pass"]


def _play(view: dict[str, Any], legal_actions: Sequence[Any], doubles: bool) -> Any:
    """Greedy's play from a view: the compiled rule (:func:`boneyard.bots.tricks.eighty.choose_play`)."""
    tiles = [tile(str(a).split()[1]) for a in legal_actions]
    trick = [(p["seat"], tile(p["tile"])) for p in view["trick"]]
    rest = [0] * 64
    for t, n in unseen(view).items():
        rest[t.key] = n
    trump = view["trump"] or 0
    nello = bool(view["nello"])
    return legal_actions[choose_play(tiles, trick, view["seat"], view["bidder"], nello, rest, trump, doubles)]
