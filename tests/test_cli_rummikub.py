"""The terminal's Rummikub view: jokers marked, and menu lines that name only what a play lays."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

import boneyard
from boneyard.cli.play import ask_action
from boneyard.cli.views import describe, render

DECK = ["5-3", "5-4", "5-5", "4-3", "5-2", "6-1", "5-2", "0-0", "3-2", "3-0", "1-0", "5-0", "4-2", "6-4",
        "6-0", "6-4", "2-2", "2-1", "3-3", "4-4", "4-0", "6-2", "6-6", "4-1", "6-1", "6-6", "1-1", "4-4",
        "6-5", "2-2", "6-3", "5-5", "6-5", "0-0", "3-2", "5-3", "5-0", "1-1", "4-2", "4-3", "1-0", "3-3",
        "5-1", "5-4", "5-1", "3-1", "2-0", "6-2", "6-3", "6-0", "2-0", "3-0", "4-1", "4-0", "3-1", "2-1"]


def text_of(renderable: object) -> str:
    out = io.StringIO()
    Console(file=out, width=100, color_system=None).print(renderable)
    return out.getvalue()


def game_after_opening() -> Any:
    game = boneyard.new_game("rummikub", players=2, seed=1, deck=DECK, dealer=1)
    game.apply("play 5-3 5-4 5-5")
    game.apply("draw")
    return game


def test_jokers_are_marked_in_the_hand_and_on_the_table() -> None:
    game = game_after_opening()
    shown = text_of(render(game.view(0)))
    assert "[0-0 J]" in shown and "J: a joker" in shown
    assert "[5-2]" in shown and "[5-2 J]" not in shown
    game.apply("play 5-3 5-4 5-5 | 4-3 5-2 6-1 0-0")  # the joker goes to the table, 5-2 stays
    table = text_of(render(game.view(1))).split("Table:")[1].split("Your hand")[0]
    assert "[0-0 J]" in table


def test_menu_lines_name_the_tiles_laid_not_the_whole_table() -> None:
    game = game_after_opening()
    view = game.view(0)
    line = describe(view, "play 5-2 5-3 5-4 5-5 | 4-3 5-2 6-1 0-0")
    assert line == "lay 5-2 4-3 5-2 6-1 0-0 (joker); changes 1 table group"
    assert describe(view, "play 5-3 5-4 5-5 | 4-3 5-2 6-1") == "lay 4-3 5-2 6-1"
    assert describe(view, "draw") == "draw"
    assert describe(boneyard.new_game("rounce", seed=1).view(0), "play 6-4 as 4") == "play 6-4 as 4"


def test_the_terminal_menu_uses_the_short_lines() -> None:
    game = game_after_opening()
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    answers = iter(["1"])
    ask_action(game, 0, console, lambda _prompt: next(answers))
    menu = [line for line in out.getvalue().splitlines() if line.strip()[:2].strip().isdigit()]
    assert menu and all("|" not in line for line in menu), menu
    assert any("lay " in line for line in menu) or len(game.legal_actions()) <= 2
