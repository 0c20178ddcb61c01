"""The endgame solvers agree with plain minimax over the engine's own legal_actions/apply/clone.

Positions: seeded random games (random calls and bids, so Nel-O, doubles-as-a-suit,
folds, dummies and defences all occur) stopped at a random play with a few tricks left,
often in the middle of a trick. The brute force knows nothing of the solver: it walks the
engine's game tree and reads the hand's result from the engine's ``last_result``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import boneyard
from boneyard.bots.endgame import finish_hand, solver, supports, tricks_left


def _position(game_id: str, rng: random.Random, left: int) -> Any:
    """A random game stopped at a random play among the last ``left`` tricks of a hand."""
    rules: dict[str, Any] = {}
    players = None
    if game_id == "eighty":
        rules = {"nello": rng.random() < 0.5, "doubles_suit": rng.random() < 0.5, "marks": rng.random() < 0.2}
    else:
        players = rng.choice((2, 3, 4))
    while True:
        game = boneyard.new_game(game_id, players=players, seed=rng.randrange(1 << 30), rules=rules)
        stop = rng.randrange(left * 4)
        while not game.is_over and game.hand_number == 1:
            if supports(game) and tricks_left(game) <= left:
                if stop == 0:
                    return game
                stop -= 1
            legal = game.legal_actions()
            nello = [a for a in legal if str(a) == "bid nel-o"]
            if nello and rng.random() < 0.3:
                game.apply(nello[0])  # a random bidder rarely picks Nel-O among 32 bids: help it
            else:
                game.apply(legal[rng.randrange(len(legal))])


def _hand_result(game: Any, hand: int) -> dict[str, Any] | None:
    if game.is_over or game.hand_number != hand:
        result: dict[str, Any] = game.last_result
        return result
    return None


def _minimax(
    game: Any, maximising: Callable[[Any], bool], leaf: Callable[[dict[str, Any]], int], hand: int | None = None
) -> int:
    """Plain minimax over the engine: every legal action, on clones, to the end of hand ``hand`` (default: now)."""
    if hand is None:
        hand = game.hand_number

    def walk(g: Any) -> int:
        result = _hand_result(g, hand)
        if result is not None:
            return leaf(result)
        values = []
        for action in g.legal_actions():
            child = g.clone()
            child.apply(action)
            values.append(walk(child))
        return max(values) if maximising(g) else min(values)

    return walk(game)


def _eighty_points(game: Any, seat: int) -> tuple[Callable[[Any], bool], Callable[[dict[str, Any]], int]]:
    side = seat & 1
    before = game.taken[side]
    bidder_side = game.bidder & 1

    def leaf(result: dict[str, Any]) -> int:
        if game.nello:
            return 0 if result["made"] else (-1 if side == bidder_side else 1)
        return int(result["taken"][side]) - before

    return (lambda g: (g.current_player & 1) == side), leaf


def _rounce_tricks(game: Any, seat: int) -> tuple[Callable[[Any], bool], Callable[[dict[str, Any]], int]]:
    before = game.won[seat]
    return (lambda g: g.current_player == seat), (lambda result: int(result["tricks"][seat]) - before)


OBJECTIVES = {"eighty": _eighty_points, "rounce": _rounce_tricks}


@pytest.mark.parametrize(
    ("game_id", "count", "left"), [("eighty", 1500, 2), ("eighty", 150, 3), ("rounce", 1000, 2), ("rounce", 60, 3)]
)
def test_solver_value_equals_brute_force(game_id: str, count: int, left: int) -> None:
    rng = random.Random(f"{game_id}-{left}")
    nonzero = 0
    for index in range(count):
        game = _position(game_id, rng, left)
        seat = rng.choice([s for s in range(game.players) if game.hands[s]])
        before = game.record()
        maximising, leaf = OBJECTIVES[game_id](game, seat)
        expected = _minimax(game, maximising, leaf)
        s = solver(game, seat)
        assert s.value() == expected, before
        moves: dict[Any, int] = dict(s.move_values())
        assert {str(a) for a in moves} == {str(a) for a in game.legal_actions()}
        for action, v in moves.items() if index % 4 == 0 else ():
            child = game.clone()
            child.apply(action)
            assert v == _minimax(child, maximising, leaf, game.hand_number), (before, str(action))
        best = s.best()
        wanted = max(moves.values()) if maximising(game) else min(moves.values())
        assert moves[best] == wanted
        assert game.record() == before  # the solver read the game, never changed it
        nonzero += expected != 0
    assert nonzero > count // 10  # the positions are not all trivial


def _margin(game: Any, seat: int) -> tuple[Callable[[Any], bool], Callable[[dict[str, Any]], int]]:
    """The hand's score for ``seat`` as the engine scores it (the sides' margin; Rounce: points off)."""
    if game.id == "eighty":
        side = seat & 1
        return (lambda g: (g.current_player & 1) == side), (lambda r: int(r["gains"][side]) - int(r["gains"][1 - side]))
    return (lambda g: g.current_player == seat), (lambda r: -int(r["changes"][seat]))


@pytest.mark.parametrize("game_id", ["eighty", "rounce"])
def test_solver_play_reaches_the_best_engine_score(game_id: str) -> None:
    """Maximising points (Eighty) or tricks (Rounce) is maximising the engine's own score."""
    rng = random.Random(f"score-{game_id}")
    for _ in range(300):
        game = _position(game_id, rng, 2)
        seat = rng.choice([s for s in range(game.players) if game.hands[s]])
        maximising, leaf = _margin(game, seat)
        expected = _minimax(game, maximising, leaf)
        played = game.clone()
        hand = played.hand_number
        finish_hand(played, seat)
        result = _hand_result(played, hand)
        assert result is not None
        assert leaf(result) == expected, game.record()


def test_solver_refuses_a_game_not_in_play() -> None:
    game = boneyard.new_game("rounce", players=3, seed=1)
    with pytest.raises(ValueError, match="play phase"):
        solver(game, 0)
    with pytest.raises(ValueError, match="Eighty and Rounce"):
        solver(boneyard.new_game("twobox", seed=1), 0)
