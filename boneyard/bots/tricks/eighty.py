"""Greedy Eighty's trick play: the one definition of which tile greedy plays, and its playout.

:func:`choose_play` is the rule ``greedy/eighty.py`` states for the play phase (a partner
winning safely gets our count; otherwise win a trick with count, or when last, as cheaply
as possible; lead a sure winner, draw trumps with length, else lead low; a Nel-O bidder
plays the highest tile that still loses). ``greedy/eighty.py`` asks it for one decision
from a view; :func:`finish` asks it for every play of the hand's remaining tricks on a
sampled world, each seat judging from what it has seen (its hand and the tiles played),
and plays each choice through the engine's ``apply``. The trick rules (the suit a tile
leads, its power, the trick's winner) are the engine's functions. Compiled by mypyc with
the engines.
"""

from __future__ import annotations

from typing import Final

from ...games.eighty.engine import (
    COUNT_BY_KEY,
    SEATS,
    TRICKS,
    TRUMP_SUIT,
    Eighty,
    EightyAction,
    Phase,
    Tables,
    tables,
    trick_winner,
)
from ...tiles import Tile, double_six

FULL: Final = double_six(2, blanks=False)
#: the distinct tiles of the set, by key: what an unseen count (a list of 64 by key) ranges over
KEYS: Final = sorted({t.key for t in FULL})
#: copies of each tile in the set, by key
COPIES: Final = [sum(1 for t in FULL if t.key == k) for k in range(64)]


def keep_value(t: Tile, trump: int) -> float:
    """How much a tile is worth keeping back: trumps, count, doubles, then pips.

    The plays throw the tile worth least (or win with it).
    """
    return (50 if trump and (t.high == trump or t.low == trump) else 0) + 3 * COUNT_BY_KEY[t.key] + (
        8 if t.high == t.low else 0) + (t.high + t.low) / 2


def beaten_by(mine: int, led: int, rest: list[int], tabs: Tables) -> int:
    """How many unseen tiles would beat a play of power ``mine`` in suit ``led`` (``rest``: counts by key)."""
    power = tabs.power[led]
    total = 0
    for k in KEYS:
        if power[k] > mine:
            total += rest[k]
    return total


def _least_keep(tiles: list[Tile], among: list[int], trump: int) -> int:
    """The option of ``among`` worth least to keep (the first of equals)."""
    best = among[0]
    value = keep_value(tiles[best], trump)
    for i in among[1:]:
        v = keep_value(tiles[i], trump)
        if v < value:
            best, value = i, v
    return best


def _most_count(tiles: list[Tile], among: list[int], trump: int) -> int:
    """The option of ``among`` with the most count, then worth least to keep (the first of equals)."""
    best = among[0]
    key = (COUNT_BY_KEY[tiles[best].key], -keep_value(tiles[best], trump))
    for i in among[1:]:
        k = (COUNT_BY_KEY[tiles[i].key], -keep_value(tiles[i], trump))
        if k > key:
            best, key = i, k
    return best


def choose_play(tiles: list[Tile], trick: list[tuple[int, Tile]], seat: int, bidder: int, nello: bool,
                rest: list[int], trump: int, doubles: bool) -> int:
    """Greedy's play: the index of the option chosen among the legal plays ``tiles``.

    ``trick``: the plays so far, (seat, tile), the lead first (empty: this play leads);
    ``rest``: the tiles this seat has not seen (the other hands and the two lying out),
    counted by ``Tile.key`` in a list of 64; ``trump``: the trump number, 0 for none
    (Nel-O). Ties go to the first option, in the engine's order.
    """
    every = list(range(len(tiles)))
    if nello and bidder == seat:
        return _nello(tiles, trick, doubles)
    tabs = tables(trump, doubles)
    if not trick:
        return _lead(tiles, rest, trump, tabs, bidder in (seat, (seat + 2) % SEATS))
    led = tabs.lead_suit[trick[0][1].key]
    power = tabs.power[led]
    best_seat, best_power = trick_winner(trick, tabs)
    players_left = 3 - len(trick)
    count_in = sum(COUNT_BY_KEY[t.key] for _, t in trick)
    partner_winning = best_seat == (seat + 2) % SEATS
    if partner_winning and (players_left == 0 or beaten_by(best_power, led, rest, tabs) == 0):
        return _most_count(tiles, every, trump)
    winners = [i for i in every if power[tiles[i].key] > best_power]
    if winners and not partner_winning:
        if players_left:
            safe = [i for i in winners if beaten_by(power[tiles[i].key], led, rest, tabs) == 0]
            if safe:
                return _least_keep(tiles, safe, trump)
        if players_left == 0 or count_in or len(trick) >= 2:
            return _least_keep(tiles, winners, trump)
    return _least_keep(tiles, every, trump)


def _lead(tiles: list[Tile], rest: list[int], trump: int, tabs: Tables, bidding_side: bool) -> int:
    """The lead: a sure winner with the most count; trumps from the top with length; else low."""
    every = list(range(len(tiles)))
    suits = [tabs.lead_suit[t.key] for t in tiles]
    beaten = [beaten_by(tabs.power[suits[i]][tiles[i].key], suits[i], rest, tabs) for i in every]
    sure = [i for i in every if beaten[i] == 0]
    if sure:
        return _most_count(tiles, sure, trump)
    trumps = [i for i in every if suits[i] == TRUMP_SUIT]
    unseen_trumps = 0
    if trump:
        member = tabs.member[TRUMP_SUIT]
        for k in KEYS:
            if member[k]:
                unseen_trumps += rest[k]
    if trumps and bidding_side and len(trumps) * 2 >= unseen_trumps:
        best = trumps[0]
        key = (beaten[best], -keep_value(tiles[best], trump))
        for i in trumps[1:]:
            tk = (beaten[i], -keep_value(tiles[i], trump))
            if tk < key:
                best, key = i, tk
        return best
    plain = [i for i in every if suits[i] != TRUMP_SUIT] or every
    best = plain[0]
    lkey = (COUNT_BY_KEY[tiles[best].key] > 0, keep_value(tiles[best], trump))
    for i in plain[1:]:
        lk = (COUNT_BY_KEY[tiles[i].key] > 0, keep_value(tiles[i], trump))
        if lk < lkey:
            best, lkey = i, lk
    return best


def _nello(tiles: list[Tile], trick: list[tuple[int, Tile]], doubles: bool) -> int:
    """The Nel-O bidder: the lowest lead; following, the highest tile that still loses."""
    every = list(range(len(tiles)))
    if not trick:
        best = 0
        for i in every[1:]:
            if (tiles[i].high, tiles[i].low) < (tiles[best].high, tiles[best].low):
                best = i
        return best
    tabs = tables(0, doubles)
    led = tabs.lead_suit[trick[0][1].key]
    power = tabs.power[led]
    top = trick_winner(trick, tabs)[1]
    losers = [i for i in every if power[tiles[i].key] < top]
    if losers:
        best = losers[0]
        key = (power[tiles[best].key], tiles[best].high + tiles[best].low)
        for i in losers[1:]:
            k = (power[tiles[i].key], tiles[i].high + tiles[i].low)
            if k > key:
                best, key = i, k
        return best
    best = 0
    for i in every[1:]:
        if power[tiles[i].key] < power[tiles[best].key]:
            best = i
    return best


def finish(game: Eighty, stop: int = 0) -> bool:
    """Plays greedy's tiles on ``game`` until its hand ends or only ``stop`` tricks are unfinished (0: none).

    ``game`` is a sampled world in its play phase; each play is greedy's for the seat to
    play, judged from what that seat has seen, and applied (checked, scored) by the engine.
    ``False`` when nothing was played: not the play phase, the game over, or ``stop`` reached.
    """
    if game.is_over or game.phase != Phase.PLAY:
        return False
    bidder = game.bidder
    assert bidder is not None
    trump = game.trump or 0
    doubles = game.rules.doubles_suit
    nello = game.nello
    hand_number = game.hand_number
    remaining = list(COPIES)  # the tiles nobody has seen played this hand, by key
    for done_trick in game.tricks:
        for _, t in done_trick.plays:
            remaining[t.key] -= 1
    for _, t in game.trick:
        remaining[t.key] -= 1
    played = False
    while not game.is_over and game.phase == Phase.PLAY and game.hand_number == hand_number:
        if stop and TRICKS - len(game.tricks) <= stop:  # the solver takes over, mid-trick if need be
            break
        seat = game.current_player
        assert seat is not None
        legal = game.legal_actions()
        choice = 0
        if len(legal) > 1:
            rest = list(remaining)
            for t in game.hands[seat]:
                rest[t.key] -= 1
            tiles: list[Tile] = []
            for a in legal:
                assert isinstance(a, EightyAction) and a.tile is not None
                tiles.append(a.tile)
            choice = choose_play(tiles, list(game.trick), seat, bidder, nello, rest, trump, doubles)
        action: EightyAction = legal[choice]
        assert action.tile is not None
        remaining[action.tile.key] -= 1
        game.apply(action)
        played = True
    return played
