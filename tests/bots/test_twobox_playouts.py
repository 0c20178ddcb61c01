"""Two-box's playouts on the engine's fast path (``bots/playouts/twobox.py``) against greedy on the engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard.bots.greedy import twobox as greedy_twobox
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.playouts import twobox as fast
from boneyard.bots.profiles import twobox as profile_twobox
from boneyard.games.twobox.engine import DRAW_INDEX, fast_action


def _trace(game: Any, weights: greedy_twobox.Weights) -> tuple[list[str], list[int], bool, int]:
    """Greedy from ``game`` to the hand's end on the fast path: actions, scores, over, winner."""
    hand = game.fast_hand()
    moves: list[int] = []
    fast.play_out(hand, greedy_twobox.fast_weights(weights), moves)
    return [str(fast_action(m)) for m in moves], hand.points, hand.over, hand.winner


def _engine_greedy_to_hand_end(
    game: Any, weights: greedy_twobox.Weights = greedy_twobox.WEIGHTS
) -> tuple[list[str], list[int] | None, bool, int]:
    """Greedy on the engine to the end of the current hand: actions, scores then, over, winner.

    The scores are ``None`` when the next hand's spinner (a double-five, 10 points) ended the
    game: the engine deals on at once, and the compiled playout stops at the hand's end.
    """
    hand = game.view(None)["hand_number"]
    rng = random.Random(0)
    actions: list[str] = []
    while True:
        seat = game.current_player
        action = greedy_twobox.choose(game.view(seat), game.legal_actions(), rng, weights)
        actions.append(str(action))
        game.apply(action)
        seen = game.view(None)
        if seen["hand_number"] != hand:
            result = seen["last_result"]
            if result["hand"] != hand:
                return actions, None, False, -1
            return actions, list(result["scores"]), False, -1
        if game.is_over:
            return actions, list(game.scores), True, game.winners[0]


def _positions(players: int, rules: dict[str, Any], games: int, seed: int) -> list[Any]:
    """Games stopped at random moments of greedy play (copies), with every seat's hand known."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        game = boneyard.new_game("twobox", players=players, seed=seed * 1000 + g, rules=rules)
        while not game.is_over:
            if rng.random() < 0.08:
                out.append(game.clone())
            game.apply(greedy_twobox.choose(game.view(game.current_player), game.legal_actions(), rng))
    return out


@pytest.mark.parametrize(
    ("players", "rules"),
    [
        (4, {}),
        (4, {"cutthroat": True}),
        (2, {"round_to_five": True, "target": 100}),
        (3, {"cutthroat": True, "target": 60}),
        (6, {}),
    ],
)
def test_the_fast_playout_is_greedy_on_the_engine(players: int, rules: dict[str, Any]) -> None:
    """Action for action and score for score, the fast-path playout is greedy playing the engine."""
    positions = _positions(players, rules, games=20, seed=players)
    assert len(positions) > 40
    for game in positions:
        actions, scores, over, winner = _trace(game, greedy_twobox.WEIGHTS)
        expected = _engine_greedy_to_hand_end(game.clone())
        assert actions == expected[0]
        if expected[1] is not None:
            assert (scores, bool(over), winner) == expected[1:]


def test_perturbed_weights_still_agree_action_for_action() -> None:
    """With random other weights, the fast path and greedy on the engine still agree.

    Each position gets its own weights, every one scaled by a random factor (signs kept,
    one in five set to zero), so an agreement that held only for the shipped weights (a
    term one side skipped) would fail here.
    """
    rng = random.Random(2024)
    positions = _positions(4, {"cutthroat": True}, games=10, seed=11) + _positions(3, {}, games=10, seed=12)
    assert len(positions) > 40
    differ = 0
    for game in positions:
        weights = greedy_twobox.Weights(
            *(0.0 if rng.random() < 0.2 else w * rng.uniform(0.2, 3.0) for w in greedy_twobox.WEIGHTS)
        )
        actions, scores, over, winner = _trace(game, weights)
        expected = _engine_greedy_to_hand_end(game.clone(), weights)
        assert actions == expected[0]
        if expected[1] is not None:
            assert (scores, bool(over), winner) == expected[1:]
        differ += expected[0] != _engine_greedy_to_hand_end(game.clone())[0]
    assert differ >= 5  # the perturbed weights really changed the play


def test_outcomes_pair_candidates_on_common_worlds() -> None:
    """One outcome per candidate per round (scores per seat, a winner only with the game over), reproducible."""
    varied = 0
    for game in _positions(4, {}, games=6, seed=5):
        plays = [a for a in game.legal_actions() if a.kind in ("play", "stack")]
        if len(plays) < 2 or not game.boneyard:
            continue
        seat = game.current_player
        rows = profile_twobox.outcomes(game, plays, seat, 42)
        assert rows is not None and len(rows) == profile_twobox.ROUNDS_PER_WORLD
        for row in rows:
            assert len(row) == len(plays)
            for scores, winners in row:
                assert len(scores) == 4
                assert winners is None or (len(winners) == 1 and scores[winners[0]] >= game.rules.target)
        assert rows == profile_twobox.outcomes(game, plays, seat, 42)
        varied += len({repr(r) for r in rows}) > 1  # the boneyard is reshuffled round by round
    assert varied >= 5


def test_outcomes_with_an_empty_boneyard_are_the_traced_playouts() -> None:
    """Nothing left to shuffle: every round is the one playout (greedy with the playout weights)."""
    checked = 0
    for game in _positions(6, {}, games=120, seed=9):
        plays = [a for a in game.legal_actions() if a.kind in ("play", "stack")]
        if game.boneyard or len(plays) < 2:
            continue
        seat = game.current_player
        rows = profile_twobox.outcomes(game, plays, seat, 7)
        assert rows is not None and all(r == rows[0] for r in rows)
        for i, action in enumerate(plays):
            world = game.clone()
            world.apply(action)
            if world.is_over or world.view(None)["hand_number"] != game.view(None)["hand_number"]:
                continue  # the play itself ended the game, or went out and the engine dealt on
            _, scores, over, winner = _trace(world, greedy_twobox.PLAYOUT_WEIGHTS)
            assert rows[0][i] == (scores, [winner] if over else None)
            checked += 1
    assert checked >= 10


def test_an_illegal_candidate_is_refused() -> None:
    """A candidate that is not a legal play, stack or draw raises ValueError naming it."""
    game = boneyard.new_game("twobox", seed=1)
    with pytest.raises(ValueError, match="not a legal play, stack or draw"):
        fast.outcomes(game.fast_hand(), [27 * 5 + 4], 1, 1, greedy_twobox.fast_weights(greedy_twobox.WEIGHTS))


def test_a_draw_candidate_draws_then_greedy_plays_on() -> None:
    """A draw candidate is one tile drawn, then greedy (the playout weights) for the same seat and on.

    With one tile left in the boneyard every round draws the same tile, so each outcome
    must be the engine's: the draw applied, then the traced greedy playout. The seat to
    move first draws all but one tile (a draw is legal at any time in a turn). A draw
    left out (greedy playing on from the hand as it was) must show in some outcome.
    """
    checked = differ = 0
    for game in _positions(4, {}, games=10, seed=21):
        if not game.boneyard:
            continue
        while len(game.boneyard) > 1:
            game.apply(next(a for a in game.legal_actions() if a.kind == "draw"))
        plays = [a for a in game.legal_actions() if a.kind in ("play", "stack")]
        if not plays:
            continue
        draw = next(a for a in game.legal_actions() if a.kind == "draw")
        seat = game.current_player
        rows = profile_twobox.outcomes(game, [plays[0], draw], seat, 5)
        assert rows is not None and all(r == rows[0] for r in rows)
        world = game.clone()
        world.apply(draw)
        _, scores, over, winner = _trace(world, greedy_twobox.PLAYOUT_WEIGHTS)
        assert rows[0][1] == (scores, [winner] if over else None)
        _, undrawn, _, _ = _trace(game, greedy_twobox.PLAYOUT_WEIGHTS)
        differ += undrawn != scores
        checked += 1
    assert checked >= 5 and differ >= 1


def test_a_draw_from_an_empty_boneyard_is_refused() -> None:
    """Only a boneyard with tiles can be drawn from: the playouts say so instead of drawing nothing."""
    for game in _positions(6, {}, games=60, seed=9):
        if game.boneyard:
            continue
        with pytest.raises(ValueError, match="not a legal play, stack or draw"):
            fast.outcomes(game.fast_hand(), [DRAW_INDEX], 1, 1, greedy_twobox.fast_weights(greedy_twobox.WEIGHTS))
        return
    pytest.fail("no position with an empty boneyard")


def test_the_search_weighs_a_voluntary_draw_unless_told_not_to() -> None:
    """The draw is a candidate while the boneyard has tiles; ``draw=0`` keeps it out of the search."""
    drawing, plain = IsmctsBot(iterations=3000), IsmctsBot(iterations=3000, draw=0)
    draws = [0, 0]
    asked = 0
    for game in _positions(4, {}, games=8, seed=31):
        legal = game.legal_actions()
        if not game.boneyard or not any(a.kind in ("play", "stack") for a in legal):
            continue
        view = game.view(game.current_player)
        greedy = greedy_twobox.choose(view, legal, random.Random(0))
        assert "draw" in [str(a) for a in profile_twobox.candidates(view, legal, greedy)]
        for i, bot in enumerate((drawing, plain)):
            draws[i] += str(bot.choose(view, legal, random.Random(asked))) == "draw"
        asked += 1
    assert asked >= 10
    assert draws[0] >= 1 and draws[1] == 0, draws


def test_draw_takes_on_or_off_only() -> None:
    """``draw`` is 1 or 0; anything else is refused by name."""
    for bad in (2, -1, True, "yes"):
        with pytest.raises(ValueError, match="draw must be 1"):
            boneyard.bot("ismcts", draw=bad)
