"""Helpers shared by the terminal commands: option parsing and friendly errors."""

from __future__ import annotations

from typing import Any

import typer

from ..games import game_class, game_ids


def check_game(game_id: str) -> str:
    """The game id, or a clean usage error naming the games."""
    if game_id not in game_ids():
        raise typer.BadParameter(f"unknown game {game_id!r}; choose from: {', '.join(game_ids())}")
    return game_id


def parse_rules(game_id: str, pairs: list[str] | None) -> dict[str, Any]:
    """``["k=v", ...]`` to a rules dict typed by the game's options."""
    cls = game_class(game_id).Rules
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise typer.BadParameter(f"rules options are written name=value, got {pair!r}")
        name, text = pair.split("=", 1)
        try:
            out[name.strip()] = cls.parse_value(name.strip(), text)
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
    return out
