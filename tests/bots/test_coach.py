"""The coach: its answers' shape, its consistency with real play, and ``boneyard review``."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import boneyard
from boneyard.bots.coach import Judgement, analyse, loss, mark, thresholds
from boneyard.cli.main import app
from boneyard.cli.review import review
from boneyard.tiles import double_six

GREEDY = boneyard.bot("greedy")


def _decision(game_id: str, seed: int, skip: int, phase: str | None = None) -> Any:
    """A seeded greedy game stopped at its ``skip``-th real decision (in ``phase``, if given)."""
    game = boneyard.new_game(game_id, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        if len(legal) > 1 and (phase is None or str(game.phase) == phase):
            if skip == 0:
                return game
            skip -= 1
        game.apply(GREEDY.choose(game.view(game.current_player), legal, rng))
    return None


def test_analyse_values_every_legal_action_best_first() -> None:
    game = _decision("rounce", 5, 2, "play")
    seat = game.current_player
    legal = game.legal_actions()
    before = game.record()
    ranking = analyse(game.view(seat), legal, ms=None, rounds=6, rng=3)
    assert sorted(str(j.action) for j in ranking) == sorted(str(a) for a in legal)
    assert [j.value for j in ranking] == sorted((j.value for j in ranking), reverse=True)
    assert all(j.rounds == 6 and math.isfinite(j.error) and j.error >= 0 for j in ranking)
    assert ranking == analyse(game.view(seat), legal, ms=None, rounds=6, rng=3)  # seeded: reproducible
    assert game.record() == before
    assert boneyard.analyse is analyse
    d = ranking[0].to_dict()
    assert set(d) == {"action", "value", "error", "rounds"} and d["rounds"] == 6


@pytest.mark.parametrize("game_id", ["eighty", "twobox", "rummikub", "montana"])
def test_analyse_answers_in_every_game(game_id: str) -> None:
    game = _decision(game_id, 2, 1)
    ranking = analyse(game.view(game.current_player), game.legal_actions(), ms=1, rng=1)
    assert len(ranking) == len(game.legal_actions())
    assert all(j.rounds >= 1 for j in ranking)  # at least one round, whatever the budget


def test_analyse_refuses_bad_requests() -> None:
    game = boneyard.new_game("rounce", seed=1)
    view, legal = game.view(game.current_player), game.legal_actions()
    with pytest.raises(ValueError, match="spectator"):
        analyse(game.view(None), legal)
    with pytest.raises(ValueError, match="no legal actions"):
        analyse(view, [])
    with pytest.raises(ValueError, match="budget"):
        analyse(view, legal, ms=None)
    with pytest.raises(ValueError, match="ms must be"):
        analyse(view, legal, ms=0)
    with pytest.raises(ValueError, match=r"game\.view"):
        analyse({"seat": 0}, legal)


def _finish_hand(game: Any, seat: int) -> float:
    """The seat's real margin for the rest of the hand, everyone playing greedy (hidden tiles as dealt)."""
    start = list(game.scores)
    hand = game.hand_number
    rng = random.Random(0)
    while not game.is_over and game.hand_number == hand:
        game.apply(GREEDY.choose(game.view(game.current_player), game.legal_actions(), rng))
    gains = [a - b for a, b in zip(game.scores, start, strict=True)]
    others = [gains[s] for s in range(game.players) if s != seat]
    return -(gains[seat] - sum(others) / len(others))  # rounce: lower is better


def test_top_action_scores_better_than_bottom_action_in_real_play() -> None:
    """Over seeded Rounce positions, the coach's top action beats its bottom one, by > 2 standard errors.

    Each position is played on in the real game (its true hidden tiles, which the coach
    never saw) once with the coach's top action and once with its bottom action, everyone
    then playing greedy; the paired differences of the seat's margin are compared.
    """
    diffs: list[float] = []
    seed = 0
    while len(diffs) < 40:
        seed += 1
        game = _decision("rounce", seed, seed % 3)
        if game is None:
            continue
        seat = game.current_player
        ranking = analyse(game.view(seat), game.legal_actions(), ms=None, rounds=8, rng=seed)
        if ranking[0].value - ranking[-1].value < 0.5:
            continue  # the coach sees no real difference here: nothing to test
        outcomes = []
        for j in (ranking[0], ranking[-1]):
            world = game.clone()
            world.apply(j.action)
            outcomes.append(_finish_hand(world, seat))
        diffs.append(outcomes[0] - outcomes[1])
    mean = sum(diffs) / len(diffs)
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))
    assert mean > 2 * se, (mean, se)


def test_marks_need_both_size_and_evidence() -> None:
    assert [name for name, _ in thresholds("rounce")] == ["blunder", "mistake", "inaccuracy"]
    blunder, mistake, inaccuracy = (v for _, v in thresholds("rounce"))
    assert blunder > mistake > inaccuracy > 0
    assert mark("rounce", blunder, 0.0) == "blunder"
    assert mark("rounce", (mistake + blunder) / 2, 0.01) == "mistake"
    assert mark("rounce", inaccuracy, 0.0) == "inaccuracy"
    assert mark("rounce", inaccuracy * 0.9, 0.0) is None
    assert mark("rounce", blunder, blunder) is None  # within noise: not marked
    assert thresholds("eighty")[0][1] > thresholds("rounce")[0][1]  # scaled by each game's hand swing
    a = Judgement("a", 2.0, 0.5, (1.0, 3.0, 2.0))
    b = Judgement("b", 1.0, 0.5, (0.0, 2.0, 1.0))
    assert loss(a, b) == (1.0, 0.0)  # paired rounds: the shared noise cancels


# A three-player Rounce deal: seat 0 (first to call; seat 2 deals) holds the five highest
# trumps (6s are trumps: the turn-up is 6-0), sure to take all five tricks. Folding that
# hand is the deliberately bad decision.
STRONG = ["6-6", "6-5", "6-4", "6-3", "6-2"]
DECK = [*STRONG, "5-5", "5-4", "5-3", "5-2", "5-1", "4-4", "4-3", "4-2", "4-1", "4-0", "6-0"]


def _record(first: str) -> dict[str, Any]:
    deck = DECK + [str(t) for t in double_six() if str(t) not in DECK]
    game = boneyard.new_game("rounce", players=3, seed=4, deck=deck, dealer=2)
    game.apply(first)
    rng = random.Random(1)
    hand = game.hand_number
    while not game.is_over and game.hand_number == hand:
        game.apply(GREEDY.choose(game.view(game.current_player), game.legal_actions(), rng))
    record: dict[str, Any] = game.record()
    return record


def test_review_marks_the_deliberate_blunder() -> None:
    bad = _record("fold")
    decisions = review(bad, 0, ms=1000, seed=1)
    assert decisions[0].played == "fold"
    assert decisions[0].mark == "blunder"
    assert str(decisions[0].ranking[0].action) != "fold"
    good = _record("pass")
    marked = [d for d in review(good, 0, ms=300, seed=1) if d.mark in ("mistake", "blunder")]
    assert not marked, [(d.number, d.played, d.mark) for d in marked]


def test_review_command_prints_the_verdict(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record("fold")))
    result = CliRunner().invoke(app, ["review", str(path), "--seat", "0", "--ms", "1000"])
    assert result.exit_code == 0, result.output
    assert "blunder" in result.output
    assert "fold" in result.output
    assert "1 blunder" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "not a game record"),
        ('{"game": "rounce"}', "missing"),
        ('{"game": "chess", "players": 2, "seed": 1, "actions": []}', "chess"),
        ('{"game": "rounce", "players": 3, "seed": 1, "actions": ["play 6-6"]}', "cannot be replayed"),
        ('{"game": "rounce", "players": 3, "seed": 1, "actions": [1]}', "list of action strings"),
        ('{"game": "rounce", "players": 9, "seed": 1, "actions": []}', "2 to 4 players"),
        ('{"game": "rounce", "players": 3, "seed": 1, "actions": [], "rules": {"x": 1}}', "x"),
    ],
)
def test_review_refuses_malformed_records_clearly(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(content)
    result = CliRunner().invoke(app, ["review", str(path), "--ms", "50"])
    assert result.exit_code == 1
    assert "Cannot review" in result.output and message in result.output
    assert "Traceback" not in result.output


def test_review_refuses_a_missing_file_and_a_bad_seat(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["review", str(tmp_path / "nothing.json")])
    assert result.exit_code == 1 and "cannot read" in result.output
    path = tmp_path / "game.json"
    path.write_text(json.dumps(boneyard.new_game("rounce", players=3, seed=1).record()))
    result = CliRunner().invoke(app, ["review", str(path), "--seat", "5"])
    assert result.exit_code == 1 and "0 to 2" in result.output
