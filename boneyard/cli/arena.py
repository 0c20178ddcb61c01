"""``boneyard arena``: bots against each other in duplicate format, with a results table.

The work is done by :mod:`boneyard.bots.arena`; this module parses the options, shows a
live progress bar, prints the table and writes the JSON and PNG files asked for.
"""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..bots.arena import Arena, markdown_table, parse_bots, plot
from .common import check_game, parse_rules


def _interval(bounds: list[float], digits: int) -> str:
    low, high = bounds
    if math.isinf(low) or math.isinf(high):
        return "[n/a]"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def results_table(report: dict[str, Any]) -> Table:
    """The results table: win rate and mean score margin with 95% CIs, decision times."""
    table = Table(title=f"{report['game']}: {report['games']} games ({report['deals']} deals), seed {report['seed']}")
    table.add_column("bot", overflow="fold")
    for column in ("win rate [95% CI]", "even", "margin [95% CI]", "ms/move (max)"):
        table.add_column(column, justify="right")
    for s in report["summary"]:
        table.add_row(
            s["bot"],
            f"{s['win_rate']:.3f} {_interval(s['win_rate_ci'], 3)}",
            f"{s['even_win_rate']:.2f}",
            f"{s['margin']:+.2f} {_interval(s['margin_ci'], 2)}",
            f"{s['mean_decision_ms']:.0f} ({s['max_decision_ms']:.0f})",
        )
    return table


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to the CLI."""

    @app.command()
    def arena(
        game_id: Annotated[str, typer.Argument(metavar="GAME", help="the game to play")],
        bots: Annotated[
            str, typer.Option(help="comma-separated bots, with parameters as name:key=value (ismcts:iterations=100)")
        ] = "greedy,random",
        games: Annotated[int, typer.Option(help="games to play, rounded up to whole duplicate sets")] = 20,
        seed: Annotated[int, typer.Option(help="seed of the deals and the bots' randomness")] = 0,
        workers: Annotated[int, typer.Option(help="worker processes (results do not depend on it)")] = 1,
        players: Annotated[int | None, typer.Option(help="seats at the table (default: the game's standard)")] = None,
        rule: Annotated[list[str] | None, typer.Option("--rule", help="rules option name=value (repeatable)")] = None,
        json_file: Annotated[Path | None, typer.Option("--json", help="write every game's record here")] = None,
        plot_file: Annotated[Path | None, typer.Option("--plot", help="write a PNG chart here")] = None,
        markdown: Annotated[Path | None, typer.Option(help="append the table in Markdown to this file")] = None,
    ) -> None:
        """Play bots against each other, the same deals with the bots rotated through the seats."""
        check_game(game_id)
        if plot_file is not None and plot_file.suffix.lower() != ".png":
            raise typer.BadParameter(f"--plot must name a .png file, got {plot_file}")
        if plot_file is not None and importlib.util.find_spec("matplotlib") is None:
            raise typer.BadParameter("--plot needs matplotlib: pip install 'boneyard[plot]'")
        try:
            specs = parse_bots(bots)
            run = Arena(game_id, specs, games=games, seed=seed, workers=workers, players=players,
                        rules=parse_rules(game_id, rule))
            total = len(run.tasks())
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        console = Console()
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TimeRemainingColumn())
        with Progress(*columns, console=console, transient=False) as bar:
            job = bar.add_task(f"{game_id} arena", total=total)
            report = run.run(progress=lambda done, _total: bar.update(job, completed=done))
        console.print(results_table(report))
        console.print(f"{report['games']} games in {report['seconds']} s with {workers} worker(s)")
        if json_file is not None:
            json_file.write_text(json.dumps(report, indent=1))
            console.print(f"Results and records written to {json_file}")
        if markdown is not None:
            with markdown.open("a") as out:
                out.write(markdown_table(report) + "\n")
            console.print(f"Markdown table appended to {markdown}")
        if plot_file is not None:
            plot(report, str(plot_file))
            console.print(f"Chart written to {plot_file}")
