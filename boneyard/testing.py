"""Helpers for testing that a game, a bot or an adapter never sees hidden tiles.

The one check every part of boneyard shares is the *swap method*: deal two games whose
decks differ only by two tiles that sit in other players' hands, then play both the same
way and require that whatever a seat is shown (its view, a bot's decision, an observation
tensor, a hint) is identical in both for as long as those tiles stay hidden. The engines'
conformance suite, the bots' tests, the RL encodings and the server's messages all use it,
and so can a new game or bot written elsewhere: this module gives them the decks.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .games import game_class


class HiddenSwap(NamedTuple):
    """Two decks that differ by one swap of tiles dealt to seats other than ``seat``."""

    deck: list[str]
    swapped: list[str]
    seat: int


def shuffled_deck(game_id: str, seed: int) -> list[str]:
    """The full set of ``game_id`` (default rules) shuffled from ``seed``, as :func:`hidden_swap` deals it.

    Useful to learn something of the deal (who acts first, say) before choosing the seat
    whose hidden tiles :func:`hidden_swap` swaps.
    """
    cls = game_class(game_id)
    deck = [str(t) for t in cls.full_set(cls.Rules())]
    random.Random(seed).shuffle(deck)
    return deck


def hidden_swap(game_id: str, players: int, seed: int, seat: int | None = None) -> HiddenSwap | None:
    """Two shuffled decks of ``game_id`` differing only in two tiles ``seat`` is not dealt.

    The decks are dealt in blocks (a seat's first hand is ``hand_size`` tiles from
    ``seat * hand_size``, as the engines deal a given deck); one tile is taken from another
    seat's block and swapped with one from a third seat's block, or with the last tile of
    the deck (the stock) when there are only two players. ``seat`` is drawn from the seed
    when not given. Returns None when the two tiles happen to be the same kind (the swap
    would change nothing, so it proves nothing).

    A swap may still show to the seat (a turned-up tile, say): callers compare what the
    seat sees only while the two games' public views agree, as the conformance suite does.
    """
    deck = shuffled_deck(game_id, seed)
    rng = random.Random(seed + 1)
    h = game_class(game_id).hand_size
    if seat is None:
        seat = rng.randrange(players)
    others = [s for s in range(players) if s != seat]
    a = others[0] * h + rng.randrange(h)
    b = others[1] * h + rng.randrange(h) if len(others) > 1 else len(deck) - 1
    if deck[a] == deck[b]:
        return None
    swapped = list(deck)
    swapped[a], swapped[b] = deck[b], deck[a]
    return HiddenSwap(deck, swapped, seat)
