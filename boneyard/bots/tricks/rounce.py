"""Greedy Rounce's trick play: the one definition of which tile greedy plays, and its playout.

:func:`choose_play` is the rule ``greedy/rounce.py`` states for the play phase (cash a
sure winner cheaply, else lead the tile fewest unseen tiles beat; follow with the cheapest
winner, the cheapest sure one when others play after, else throw the least useful tile).
``greedy/rounce.py`` asks it for one decision from a view; :func:`finish` asks it for every
play of the hand's remaining tricks on a sampled world, each seat judging from what it has
seen (its hand, its discards, the tiles played, the turn-up while it lies face up), and
plays each choice through the engine's ``apply``. Compiled by mypyc with the engines.
"""

from __future__ import annotations

from typing import Final

from ...games.rounce.engine import (
    TRICKS,
    Phase,
    Placed,
    Rounce,
    RounceAction,
    beats,
    legal_plays,
    placement,
    trick_winner,
)
from ...tiles import Tile, double_six

FULL: Final = double_six()


def trump_rank(tile: Tile, trump: int) -> int:
    """The rank of a trump tile (the engine's placement: the trump double ranks as the trump number)."""
    return placement(tile, trump, trump)[1]


def keep_value(tile: Tile, trump: int) -> float:
    """How much a tile is worth keeping (trumps most, then doubles, then high tiles)."""
    if tile.high == trump or tile.low == trump:
        return 20 + trump_rank(tile, trump)
    if tile.high == tile.low:
        return 10 + tile.high
    return tile.high + tile.low / 10


def threats(play: Placed, led: int | None, rest: list[Tile], trump: int) -> float:
    """How many unseen tiles could beat ``play`` (a possible ruff counts half)."""
    suit, rank = play
    trumps = 0
    higher = 0
    for u in rest:
        if u.high == trump or u.low == trump:
            trumps += 1
            if trump_rank(u, trump) > rank:
                higher += 1
    if suit == trump:
        return higher if led == trump else higher / 2
    if suit is None or suit != led:
        if led is None:
            return trumps / 2
        return sum(1 for u in rest if u.has(led) and not u.has(trump)) + trumps / 2
    return sum(1 for u in rest if u.has(led) and not u.has(trump) and u.other(led) > rank) + trumps / 2


def _least_keep(tiles: list[Tile], among: list[int], trump: int) -> int:
    """The option of ``among`` worth least to keep (the first of equals)."""
    best = among[0]
    value = keep_value(tiles[best], trump)
    for i in among[1:]:
        v = keep_value(tiles[i], trump)
        if v < value:
            best, value = i, v
    return best


def _least_threat(tiles: list[Tile], among: list[int], threat: list[float], trump: int) -> int:
    """The option of ``among`` with fewest threats, then worth least to keep (the first of equals)."""
    best = among[0]
    key = (threat[best], keep_value(tiles[best], trump))
    for i in among[1:]:
        k = (threat[i], keep_value(tiles[i], trump))
        if k < key:
            best, key = i, k
    return best


def choose_play(tiles: list[Tile], placed: list[Placed], trick: list[Placed], trump: int, rest: list[Tile],
                still_in: int) -> int:
    """Greedy's play: the index of the option chosen among the legal plays.

    ``tiles[i]`` is played counting as ``placed[i]`` (its suit and rank); ``trick`` the plays
    so far (empty: this play leads); ``rest`` the tiles the seat has not seen; ``still_in``
    the seats that did not fold. Ties go to the first option, in the engine's order.
    """
    n = len(tiles)
    every = list(range(n))
    if not trick:
        threat = [threats(placed[i], placed[i][0], rest, trump) for i in every]
        safe = [i for i in every if threat[i] == 0]
        return _least_keep(tiles, safe, trump) if safe else _least_threat(tiles, every, threat, trump)
    led = trick[0][0]
    best = trick[trick_winner(trick, trump)]
    winners = [i for i in every if beats(placed[i], best, trump, led)]
    if not winners:
        return _least_keep(tiles, every, trump)
    if len(trick) == still_in - 1:
        return _least_keep(tiles, winners, trump)
    threat = [0.0] * n
    for i in winners:
        threat[i] = threats(placed[i], led, rest, trump)
    safe = [i for i in winners if threat[i] == 0]
    return _least_keep(tiles, safe, trump) if safe else _least_threat(tiles, winners, threat, trump)


def finish(game: Rounce, stop: int = 0) -> bool:
    """Plays greedy's tiles on ``game`` until its hand ends or only ``stop`` tricks are unfinished (0: none).

    ``game`` is a sampled world in its play phase; each play is greedy's for the seat to
    play, judged from what that seat has seen, and applied (checked, scored) by the engine.
    ``False`` when nothing was played: not the play phase, the game over, or ``stop`` reached.
    """
    if game.is_over or game.phase != Phase.PLAY:
        return False
    trump = game.trump
    hand_number = game.hand_number
    seen_by_all: set[Tile] = {p.tile for _, plays, _ in game.tricks for p in plays}
    seen_by_all.update(p.tile for p in game.trick)
    if not game.turn_up_taken:
        seen_by_all.add(game.turn_up)
    still_in = sum(1 for c in game.calls if c != "fold")
    played = False
    while not game.is_over and game.phase == Phase.PLAY and game.hand_number == hand_number:
        done = len(game.tricks)
        if stop and TRICKS - done <= stop:  # the solver takes over, mid-trick if need be
            break
        seat = game.current_player
        assert seat is not None
        hand = game.hands[seat]
        trick = game.trick
        led = trick[0].suit if trick else None
        legal: list[RounceAction] = legal_plays(hand, trump, led, done == 0)
        choice = 0
        if len(legal) > 1:
            seen = set(hand)
            seen.update(game.discarded[seat])
            rest = [t for t in FULL if t not in seen and t not in seen_by_all]
            tiles: list[Tile] = []
            placed: list[Placed] = []
            for a in legal:
                t = a.tile
                assert t is not None
                tiles.append(t)
                placed.append(placement(t, trump, led, a.suit))
            choice = choose_play(tiles, placed, [(p.suit, p.rank) for p in trick], trump, rest, still_in)
        action = legal[choice]
        assert action.tile is not None
        seen_by_all.add(action.tile)
        game.apply(action)
        played = True
    return played
