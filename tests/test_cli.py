"""The terminal front end, driven as a user would: the game told in words, in the players' names."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import boneyard
from boneyard import Tile, api
from boneyard.bots import Bot, bot
from boneyard.cli.main import app
from boneyard.cli.play import final_scores, roster, run_game, table_names
from boneyard.cli.views import default_names, render
from boneyard.tiles import double_six
from boneyard.words import words

runner = CliRunner(env={"COLUMNS": "2000"})
GAMES = ["montana", "twobox", "rummikub", "eighty", "rounce"]
# What must never reach the player: a seat number in a sentence, a Python list, dict or None.
RAW = re.compile(r"\bseat \d|\[\d+,|\[-\d|\['|\[\]|\{'|\bNone\b|\bTrue\b|\bFalse\b")


class Scripted:
    """A bot that plays the given actions in order (a scripted opponent)."""

    name = "scripted"

    def __init__(self, actions: Sequence[str]) -> None:
        self.actions = iter(actions)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        return next(self.actions)


def console() -> Console:
    """A console wide enough that no sentence wraps, recording what it prints."""
    return Console(file=io.StringIO(), width=2000, color_system=None, record=True)


def told(lines: list[str]) -> list[str]:
    """The printed lines less the rules that open each hand (the sentences and views)."""
    return [line for line in lines if line.strip() and not line.startswith("─")]


def is_in_order(expected: Sequence[str], lines: Sequence[str]) -> bool:
    """Whether ``expected`` appears among ``lines`` in order (other lines may come between)."""
    rest = iter(lines)
    return all(any(line == want for line in rest) for want in expected)


# The Rounce hand of the rules tests: three players, dealer Ann (seat 0), turn-up 5-0: fives trumps.
HANDS = ["4-2 5-5 6-5 5-3 1-1", "6-4 4-4 3-1 2-0 6-6", "4-3 6-2 5-1 1-0 3-3"]


# The whole of that hand: everyone plays; Ann takes four tricks, Bob one, and you are rounced.
TRICKS = ["pass", "pass", "pass", "play 6-4 as 4", "play 4-3", "play 4-2", "play 4-4", "play 5-1", "play 5-3",
          "play 5-5", "play 3-1", "play 1-0", "play 6-5", "play 6-6", "play 3-3", "play 1-1", "play 2-0", "play 6-2"]


def rounce_deal() -> Any:
    used = [t for h in HANDS for t in h.split()] + ["5-0"]
    rest = [str(t) for t in double_six()]
    for t in used:
        rest.remove(str(Tile.parse(t)))
    return boneyard.new_game("rounce", players=3, seed=1, deck=used + rest, dealer=0)


# ----- the commands ------------------------------------------------------------------------------


def test_games_lists_every_game() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "rounce" in result.output and "Domino Rounce" in result.output


def test_rules_prints_the_page() -> None:
    result = runner.invoke(app, ["rules", "rounce"])
    assert result.exit_code == 0
    assert "Rounce" in result.output and "rounced" in result.output


def test_unknown_game_is_a_clean_error() -> None:
    result = runner.invoke(app, ["play", "chess"])
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output
    assert "Traceback" not in result.output


def test_bad_rules_option_is_a_clean_error() -> None:
    result = runner.invoke(app, ["play", "rounce", "--rules", "speed=9"])
    assert result.exit_code == 2 and "unknown rules option" in result.output


@pytest.mark.parametrize("game_id", GAMES)
def test_watch_tells_the_game_in_names_and_replay_tells_it_again(game_id: str, tmp_path: Path) -> None:
    """A watched game is told in names, never seat numbers or lists; its replay tells every event."""
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", game_id, "--watch", "--seed", "4", "--save", str(path)])
    assert result.exit_code == 0, result.output
    assert "Players: Ann (greedy), Bob (greedy)" in result.output
    assert "Final scores" in result.output and "winner" in result.output
    assert not RAW.search(result.output), RAW.search(result.output)
    record = json.loads(path.read_text())
    assert record["game"] == game_id and record["seed"] == 4 and record["actions"]
    game = boneyard.replay(record)
    story = [event for _step, event in api.story(record, None)]
    assert story[-1]["kind"] == "game_over"
    told_here = runner.invoke(app, ["replay", str(path)])
    assert told_here.exit_code == 0, told_here.output
    lines = told_here.output.splitlines()
    sentences = words(game_id, default_names(game.players)).story(story)
    assert is_in_order(sentences, lines)
    # one rule opens each hand, numbered as the hands end
    hands = [e["hand"] for e in story if e["kind"] in ("hand_end", "thrown_in")]
    assert [h for h in range(1, max(hands) + 1) if any(f" Hand {h} " in line for line in lines)] == hands
    assert not RAW.search(told_here.output)


def test_replay_as_a_seat_calls_it_you_and_takes_names(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert runner.invoke(app, ["play", "rounce", "--watch", "--seed", "3", "--save", str(path)]).exit_code == 0
    record = json.loads(path.read_text())
    result = runner.invoke(app, ["replay", str(path), "--seat", "1", "--names", "Ann,Bea,Cy,Dan"])
    assert result.exit_code == 0, result.output
    assert "Players: Ann, you, Cy and Dan." in result.output
    dealt = next(e for _s, e in api.story(record, 1) if e["kind"] == "dealt")
    assert f"You are dealt {', '.join(dealt['tiles'][:-1])} and {dealt['tiles'][-1]}." in result.output
    assert "Bea" not in result.output  # seat 1 is "you" throughout
    assert "Dan" in result.output
    bad = runner.invoke(app, ["replay", str(path), "--names", "Ann,Bea"])
    assert bad.exit_code == 2 and "--names needs 4 different names" in bad.output
    assert runner.invoke(app, ["replay", str(path), "--seat", "4"]).exit_code == 2


def test_replay_of_an_unfinished_game_says_so(tmp_path: Path) -> None:
    game = rounce_deal()
    for action in ("pass", "pass", "pass", "play 6-4 as 4"):
        game.apply(action)
    path = tmp_path / "part.json"
    path.write_text(json.dumps(game.record()))
    result = runner.invoke(app, ["replay", str(path), "--seat", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert is_in_order(
        [
            "Ann deals first.",
            "Hand 1: Ann deals; the turn-up 5-0 makes fives trumps.",
            "You are dealt 6-2, 5-1, 4-3, 3-3 and 1-0.",
            "Bob passes and plays the hand.",
            "You pass and play the hand.",
            "Ann passes and plays the hand.",
            "Bob leads 6-4 as a four.",
            "The record stops before the end of the game. Scores so far: Ann 15, Bob 15, you 15.",
        ],
        lines,
    )
    assert "Final scores" not in result.output


def test_replay_rejects_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "rounce", "players": 3, "seed": 1, "actions": ["play 6-6 as 9"]}))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "not a valid record" in result.output
    path.write_text("{not json")
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 2


def test_human_play_reasks_bad_input_and_quits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    answers = "99\nplay 9-9\nfrobnicate\n1\n1\nq\n"
    result = runner.invoke(app, ["play", "rounce", "--players", "2", "--seed", "2", "--save", str(path)], input=answers)
    assert result.exit_code == 0, result.output
    assert "Players: you, Bob (greedy)." in result.output
    assert "Choose a number from 1 to" in result.output
    assert "Not a Rounce action: 'play 9-9' (tile ends must be 0 to 6, got 9-9)." in result.output
    assert "Stopped." in result.output and "Traceback" not in result.output
    assert json.loads(path.read_text())["actions"]


def test_human_plays_a_whole_game_by_menu() -> None:
    result = runner.invoke(app, ["play", "rounce", "--players", "3", "--seat", "1", "--seed", "5"], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Players: Ann (greedy), you, Cy (greedy)." in result.output
    assert "Game over" in result.output and "Final scores" in result.output
    assert "You are dealt" in result.output and not RAW.search(result.output)


# ----- the play loop -----------------------------------------------------------------------------


def test_a_scripted_hand_is_told_to_you_and_a_refusal_speaks_to_you() -> None:
    """Scripted opponents and scripted answers: the exact sentences, in order, each once."""
    game = rounce_deal()
    answers = iter(["play 6-2", "pass", "q"])
    out = console()
    seats: list[Bot | None] = [Scripted(["pass", "play 4-2"]), Scripted(["pass", "play 6-4 as 4", "play 4-4"]), None]
    assert run_game(game, seats, out, read=lambda _prompt: next(answers)) is False  # the human quit
    lines = told(out.export_text().splitlines())
    expected = [
        "Ann deals first.",
        "Hand 1: Ann deals; the turn-up 5-0 makes fives trumps.",
        "You are dealt 6-2, 5-1, 4-3, 3-3 and 1-0.",
        "Bob passes and plays the hand.",
        "You must call first (pass, fold, dummy).",  # the engine's refusal of play 6-2
        "You pass and play the hand.",
        "Ann passes and plays the hand.",
        "Bob leads 6-4 as a four.",
        "Your only move: play 4-3.",  # your only four, played for you
        "You play 4-3.",
        "Ann plays 4-2.",
        "Bob wins trick 1 with 6-4.",
    ]
    assert is_in_order(expected, lines)
    assert all(lines.count(line) == 1 for line in expected)
    assert " player  points  call  tiles  tricks " in lines
    assert any(line.startswith(" you <") for line in lines)
    assert "Trick: Bob 6-4 (suit 4)" in "\n".join(lines)
    assert not RAW.search("\n".join(lines))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_of_the_watched_seat_is_told_once_in_order(game_id: str) -> None:
    """Watching as a seat: the sentences printed are exactly the seat's story, hand rules aside."""
    game = boneyard.new_game(game_id, seed=11)
    seats: list[Bot | None] = [bot("random") for _ in range(game.players)]
    out = console()
    names = table_names(seats)
    assert run_game(game, seats, out, watch_seat=1, names=names)
    text = out.export_text()
    before_end = text.split("Game over ─")[0]
    lines = told(before_end.splitlines())
    story = [event for _step, event in api.story(game.record(), 1)]
    assert lines == words(game_id, names, 1).story(story)
    assert any(line.startswith("You ") for line in lines)  # seat 1 is "you"
    assert not RAW.search(text)


def test_names_roster_and_final_scores() -> None:
    seats: list[Bot | None] = [bot("random"), None, bot("greedy")]
    names = table_names(seats)
    assert names == ["Ann", "you", "Cy"]
    assert roster(seats, names) == "Players: Ann (random), you, Cy (greedy)."
    assert table_names([bot("random") for _ in range(9)])[-1] == "Player 9"
    out = console()
    out.print(final_scores({"seat": 1, "scores": [11, 14, 20], "winners": [0]}, names))
    rows = [line.split() for line in out.export_text().splitlines()]
    assert rows == [["Final", "scores"], ["player", "score"], ["Ann", "11", "winner"], ["you", "14"], ["Cy", "20"]]


# ----- the views ---------------------------------------------------------------------------------


def rendered(view: dict[str, Any], names: Sequence[str] | None = None) -> str:
    out = console()
    out.print(render(view, names))
    return out.export_text()


def test_the_last_hand_is_told_in_words_not_lists() -> None:
    """Rounce between hands: the hand's end in the words of its hand_end event, in the reader's names."""
    game = rounce_deal()
    for action in TRICKS:
        game.apply(action)
    view = game.view(2)
    assert view["phase"] == "call" and view["hand_number"] == 2
    text = rendered(view, ["Ann", "Bob", "you"])
    end = next(e for e in view["events"] if e["kind"] == "hand_end")
    said = words("rounce", ["Ann", "Bob", "you"], 2).tell(end)
    assert said in text and said.startswith("Hand 1 is over: Ann took four tricks")
    assert "you" in said and "seat" not in said and "[" not in said
    assert not RAW.search(text)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_names_the_players(game_id: str) -> None:
    """Random games drawn for every seat and a spectator, at many moments: names only, no raw data."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
    for seed in range(2):
        game = boneyard.new_game(game_id, seed=seed)
        rng = random.Random(seed)
        step = 0
        while True:
            if step % 11 == 0 or game.is_over:
                for seat in [*range(game.players), None]:
                    text = rendered(game.view(seat), names[: game.players])
                    assert not RAW.search(text), (seat, text)
                    if seat is not None:
                        assert "you" in text  # the reader's own row
                        assert names[seat] not in text.split("Your hand")[0].split("\n", 1)[1].split()
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
            step += 1


# ----- the menu ----------------------------------------------------------------------------------


def test_actions_are_read_in_any_case_and_a_lone_move_is_played_for_you() -> None:
    """"PASS" is "pass"; the lone move of a forced turn is said and played, not asked for."""
    game = rounce_deal()
    reads: list[str] = []
    answers = iter(["PASS", "q"])

    def read(prompt: str) -> str:
        reads.append(prompt)
        return next(answers)

    out = console()
    seats: list[Bot | None] = [Scripted(["pass", "play 4-2"]), Scripted(["pass", "play 6-4 as 4", "play 4-4"]), None]
    assert run_game(game, seats, out, read=read) is False
    lines = told(out.export_text().splitlines())
    # PASS was taken; then Bob leads a four and your 4-3 is your only four: played for you.
    expected = ["You pass and play the hand.", "Bob leads 6-4 as a four.", "Your only move: play 4-3.",
                "You play 4-3.", "Ann plays 4-2.", "Bob wins trick 1 with 6-4."]
    assert is_in_order(expected, lines), lines
    assert len(reads) == 2  # PASS, then q at the next real choice


def test_a_long_menu_numbers_twenty_moves_and_all_lists_the_rest() -> None:
    """Rummikub's many lays: 20 numbered, 'all' lists the rest, and a number past the shown ones is refused."""
    game, rng = None, random.Random(3)
    for seed in range(50):  # the first seeded random game that reaches a turn with over 20 moves
        game = boneyard.new_game("rummikub", players=2, seed=seed)
        while not game.is_over and len(game.legal_actions()) <= 20:
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_over:
            break
    assert game is not None and not game.is_over
    legal = game.legal_actions()
    seat = game.current_player
    answers = iter(["21", "all", str(len(legal))])
    out = console()
    from boneyard.cli.play import ask_action

    chosen = ask_action(game, seat, out, lambda _p: next(answers))
    assert chosen == legal[-1]
    text = out.export_text()
    assert f"and {len(legal) - 20} more moves: type 'all' to list them, or type a move." in text
    assert "Choose a number from 1 to 20." in text
    assert f"{len(legal):>2}  " in text
