"""The ``boneyard`` command: games, rules, play, replay (and more as they land)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from .. import api
from ..rulespages import rules_page
from . import arena, botcmd, play, review, serve, simulate, train
from .common import check_game

app = typer.Typer(help="boneyard: five domino games, bots and tools.", no_args_is_help=True, add_completion=False)


@app.command()
def games() -> None:
    """List the games with their player counts and rules options."""
    table = Table("id", "name", "players", "teams", "options")
    for game_id in api.games():
        info = api.game_info(game_id)
        p = info["players"]
        options = ", ".join(f"{k}={v['default']}" for k, v in info["options"].items()) or "-"
        table.add_row(game_id, info["name"], f"{p['min']}-{p['max']} ({p['default']})", str(info["teams"]), options)
    Console().print(table)


@app.command()
def rules(game_id: Annotated[str, typer.Argument(metavar="GAME")]) -> None:
    """Print a game's rules page."""
    check_game(game_id)
    Console().print(Markdown(rules_page(game_id)))


play.register(app)
arena.register(app)
botcmd.register(app)
review.register(app)
serve.register(app)
simulate.register(app)
train.register(app)


def main() -> None:
    """Entry point for ``python -m boneyard``."""
    app()
