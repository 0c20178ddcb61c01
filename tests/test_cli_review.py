"""``boneyard review``: the shared review (``bots/review.py``) laid out in the terminal, and its refusals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import boneyard
from boneyard.bots import review as shared
from boneyard.bots.review import CoachWords
from boneyard.cli import review as terminal
from boneyard.cli.main import app
from boneyard.tiles import double_six

GREEDY = boneyard.bot("greedy")
WIDE = {"COLUMNS": "250"}  # one line a row: the words are checked whole

# A three-player Rounce deal: seat 0 (first to call; seat 2 deals) holds the five highest
# trumps (6s are trumps: the turn-up is 6-0), sure to take all five tricks. Folding that
# hand is the deliberately bad decision.
STRONG = ["6-6", "6-5", "6-4", "6-3", "6-2"]
DECK = [*STRONG, "5-5", "5-4", "5-3", "5-2", "5-1", "4-4", "4-3", "4-2", "4-1", "4-0", "6-0"]


def _fold_record() -> dict[str, Any]:
    """Seat 0 folds the strong hand; the others then play greedy to the hand's end."""
    deck = DECK + [str(t) for t in double_six() if str(t) not in DECK]
    game = boneyard.new_game("rounce", players=3, seed=4, deck=deck, dealer=2)
    game.apply("fold")
    rng = random.Random(1)
    while not game.is_over and game.hand_number == 1:
        game.apply(GREEDY.choose(game.view(game.current_player), game.legal_actions(), rng))
    record: dict[str, Any] = game.record()
    return record


def _scripted() -> dict[str, Any]:
    """A one-hand Rounce game: seat 0 always takes its last legal action (two blunders), the others their first."""
    game = boneyard.new_game("rounce", players=3, seed=7, dealer=2, rules={"max_hands": 1})
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[-1] if game.current_player == 0 else legal[0])
    record: dict[str, Any] = game.record()
    return record


def _saved(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    return path


def test_review_command_prints_the_verdict_in_words(tmp_path: Path) -> None:
    path = _saved(tmp_path, _fold_record())
    result = CliRunner().invoke(app, ["review", str(path), "--seat", "0", "--ms", "1000"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "Domino Rounce: review of seat 0, 1 decision with a choice" in result.output
    assert "in your favour" in result.output and "blunder from 1" in result.output
    assert "a blunder: " in result.output and " worse than pass" in result.output
    assert "fold" in result.output
    assert "1 blunder, 0 mistakes, 0 inaccuracies" in result.output


def test_the_terminal_lays_out_the_shared_review_in_its_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every decision's row holds the shared review's own figures and verdict, made by ``CoachWords``."""
    assert terminal.review is shared.review  # the command runs the one review, nothing of its own
    record = _scripted()
    answers: list[shared.Reviewed] = []

    def watched(*args: Any, **kwargs: Any) -> shared.Reviewed:
        answers.append(shared.review(*args, **kwargs))
        return answers[-1]

    monkeypatch.setattr(terminal, "review", watched)
    path = _saved(tmp_path, record)
    result = CliRunner().invoke(app, ["review", str(path), "--rounds", "6", "--all"], env=WIDE)
    assert result.exit_code == 0, result.output
    (reviewed,) = answers
    assert reviewed == shared.review(record, 0, None, rounds=6)  # --rounds alone: no clock, the same review
    assert [d.mark for d in reviewed.decisions] == ["blunder", None, "blunder", None]
    words = CoachWords("rounce", ["seat 0", "seat 1", "seat 2"], 0)
    rows = [line for line in result.output.splitlines() if line.startswith("│")]
    assert len(rows) == len(reviewed.decisions) == 4
    for row, d in zip(rows, reviewed.decisions, strict=True):
        cells = [c.strip() for c in row.strip("│").split("│")]
        assert cells[:5] == [str(d.number), str(d.hand), d.played, words.figure(d.value, d.mine.judgement.error),
                             words.compared(d.mine)]
        best = d.ranking[0].judgement
        assert cells[5].startswith(f"{best.action} {words.figure(best.value, best.error)}")
    assert "2 blunders, 0 mistakes, 0 inaccuracies" in result.output
    # without --all only the marked decisions are shown
    marked = CliRunner().invoke(app, ["review", str(path), "--rounds", "6"], env=WIDE)
    assert [line.split("│")[1].strip() for line in marked.output.splitlines() if line.startswith("│")] == ["1", "3"]


def test_the_progress_and_the_seed_reach_the_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, ...]] = []

    def watched(record: dict[str, Any], seat: int, ms: float | None, seed: int | None, rounds: int | None,
                progress: Any) -> shared.Reviewed:
        calls.append((seat, ms, seed, rounds, progress is not None))
        return shared.review(record, seat, ms, seed, rounds, progress)

    monkeypatch.setattr(terminal, "review", watched)
    path = _saved(tmp_path, _scripted())
    assert CliRunner().invoke(app, ["review", str(path), "--rounds", "2", "--seed", "9"]).exit_code == 0
    assert CliRunner().invoke(app, ["review", str(path), "--seat", "1"]).exit_code == 0
    assert calls == [(0, None, 9, 2, True), (1, 1000.0, None, None, True)]


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


def test_review_refuses_a_missing_file_a_bad_seat_and_bad_budgets(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["review", str(tmp_path / "nothing.json")])
    assert result.exit_code == 1 and "cannot read" in result.output
    path = _saved(tmp_path, boneyard.new_game("rounce", players=3, seed=1).record())
    result = CliRunner().invoke(app, ["review", str(path), "--seat", "5"])
    assert result.exit_code == 1 and "0 to 2" in result.output
    for bad in (["--ms", "0"], ["--rounds", "0"], ["--top", "0"]):
        result = CliRunner().invoke(app, ["review", str(path), *bad])
        assert result.exit_code == 2 and bad[0] in result.output, (bad, result.output)
