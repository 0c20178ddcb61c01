"""Two-box's fast path (``FastHand``) conforms to the engine: the same legal moves, the same scores, the same ends.

The fast path plays one hand on tile keys and integer actions for the search's playouts;
here both are played side by side, move for move, on seeded random games of every player
count and option, so that a rule changed in one and not the other fails.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard.games.twobox.engine import (
    DRAW_INDEX,
    PASS_INDEX,
    STACK,
    FastHand,
    action_index,
    blocked_winner,
    fast_action,
    fast_view,
    going_out_award,
    steal_amount,
)

CASES = [
    (2, {}),
    (3, {"cutthroat": True}),
    (4, {}),
    (4, {"cutthroat": True, "round_to_five": True}),
    (5, {"target": 60}),
    (6, {"cutthroat": True, "target": 100}),
]


def _legal(game: Any) -> list[int]:
    return sorted(action_index(a) for a in game.legal_actions())


def _held(hand: FastHand) -> list[int]:
    """Each seat's held tiles as bits, counted afresh from its counts."""
    return [sum(1 << k for k in range(64) if counts[k]) for counts in hand.hands]


def _fields(hand: FastHand) -> tuple[Any, ...]:
    """Everything a fast hand holds, for comparing two of them."""
    return (hand.n, hand.cur, hand.cutthroat, hand.round_to_five, hand.target, hand.spinner, hand.spinner_key,
            hand.spinner_stacked, hand.passes, hand.steal_seat, hand.steal_points, hand.has, hand.tile,
            hand.outer, hand.stacked, hand.hands, hand.held, hand.size, hand.pips, hand.hidden, hand.boneyard,
            hand.points, hand.over, hand.winner, hand.hand_over)


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_the_fast_path_plays_every_hand_as_the_engine(players: int, rules: dict[str, Any]) -> None:
    """Legal moves, scores, the seat to move and the hand's or game's end agree after every action."""
    steps = ends = 0
    for seed in range(12):
        rng = random.Random(seed)
        game = boneyard.new_game("twobox", players=players, seed=seed, rules=rules)
        hand = game.fast_hand()
        number = game.hand_number
        while not game.is_over:
            assert sorted(hand.legal()) == _legal(game)
            assert hand.count() == game.count
            legal = game.legal_actions()
            action = legal[rng.randrange(len(legal))]
            move = action_index(action)
            assert fast_action(move) is action  # the engine's own interned action
            game.apply(action)
            hand.apply(move)
            assert hand.held == _held(hand)  # the bits the moves are listed from follow the counts
            steps += 1
            if game.is_over and not hand.over:  # the next deal's spinner reached the target
                assert hand.hand_over and game.hand_number != number
                ends += 1
            elif game.is_over:
                assert [hand.winner] == game.winners
                assert hand.points == game.scores
                ends += 1
            elif game.hand_number != number:
                assert hand.hand_over and not hand.over
                assert hand.points == game.view(None)["last_result"]["scores"]
                ends += 1
                hand, number = game.fast_hand(), game.hand_number
            else:
                assert not hand.hand_over and not hand.over
                assert hand.points == game.scores
                assert hand.cur == game.current_player
    assert steps > 500 and ends >= 12  # every game ends; most hands are played out


@pytest.mark.parametrize("players", [2, 4, 5])
def test_a_hand_copied_in_place_is_the_hand_and_plays_on_alike(players: int) -> None:
    """``copy_from`` (a playout's next start, written over an old one) leaves nothing of the old hand behind."""
    rng = random.Random(players)
    checked = 0
    old = boneyard.new_game("twobox", players=players, seed=99, rules={"cutthroat": True}).fast_hand()
    for seed in range(3):
        game = boneyard.new_game("twobox", players=players, seed=seed)
        while not game.is_over and checked < 40 * (seed + 1):
            source = game.fast_hand()
            copied = old
            copied.copy_from(source)
            assert _fields(copied) == _fields(source.copy()) == _fields(source)
            fresh = source.copy()
            while not (copied.over or copied.hand_over):  # both play on alike, and the source is untouched
                moves = copied.legal()
                move = moves[rng.randrange(len(moves))]
                copied.apply(move)
                fresh.apply(move)
                assert _fields(copied) == _fields(fresh)
            assert _fields(source) == _fields(game.fast_hand())
            old = copied  # the next copy is written over a hand played to its end
            checked += 1
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert checked == 120


def test_a_seats_view_gives_its_hand_and_what_it_has_not_seen() -> None:
    """``fast_view``: the seat's own tiles, the layout and the unseen tiles equal the whole deal's, less the others."""
    rng = random.Random(4)
    checked = 0
    for seed in range(4):
        game = boneyard.new_game("twobox", seed=seed, rules={"cutthroat": True})
        while not game.is_over and checked < 300:
            seat = game.current_player
            whole, seen = game.fast_hand(), fast_view(game.view(seat))
            assert seen.cur == whole.cur == seat
            assert seen.hands[seat] == whole.hands[seat] and seen.pips[seat] == whole.pips[seat]
            assert seen.held == _held(seen) and whole.held == _held(whole)
            assert seen.hidden == whole.hidden  # what no layout shows: the hands and the boneyard
            layout = (seen.has, seen.tile, seen.outer, seen.stacked)
            assert layout == (whole.has, whole.tile, whole.outer, whole.stacked)
            assert (seen.steal_seat, seen.steal_points, seen.spinner_stacked) == (
                whole.steal_seat, whole.steal_points, whole.spinner_stacked)
            assert sorted(seen.plays()) == sorted(whole.plays()) == sorted(
                m for m in _legal(game) if m < DRAW_INDEX)
            checked += 1
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert checked == 300


def test_the_shared_rule_functions() -> None:
    """The hand's end and the steal, as the rules page gives them (the engine and its fast path both call these)."""
    assert going_out_award([10, 0, 7, 9], 1, False) == 26
    assert going_out_award([10, 0, 7, 9], 1, True) == 25  # 26 rounds to 25
    assert going_out_award([10, 0, 8, 9], 1, True) == 25  # 27 rounds to 25; 28 would be 30
    assert going_out_award([10, 0, 9, 9], 1, True) == 30
    # fewest pips wins; a tie in pips goes to the lowest tile (pips * 8 + high); a full tie to nobody
    assert blocked_winner([12, 5, 9], [1 * 8 + 1, 1 * 8 + 1, 0]) == 1
    assert blocked_winner([5, 5, 9], [2 * 8 + 2, 1 * 8 + 1, 0]) == 1
    assert blocked_winner([5, 5, 9], [1 * 8 + 1, 1 * 8 + 1, 0]) == -1
    assert steal_amount(15, False) == 15 and steal_amount(15, True) == 30
    assert STACK == 320 and PASS_INDEX == DRAW_INDEX + 1
