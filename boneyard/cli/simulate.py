"""``boneyard simulate``: many seeded games between bots, in parallel, with a summary table.

The work is done by :mod:`boneyard.sim`; this module parses the options, shows the
progress bar, prints the tables and says where the files went.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..sim import SimulationError, simulate
from ..sim.summary import describe, figure_rows
from .common import check_game, parse_rules


def sides_table(summary: dict[str, Any], key: str, title: str) -> Table:
    """Win rate (95% CI) and score spread, one row per bot or per seat."""
    table = Table(title=title)
    for column in (key, "seat-games", "wins", "win rate", "95% CI", "mean score", "std", "min", "max"):
        table.add_column(column, justify="left" if column == key else "right")
    for row in summary[f"by_{key}"]:
        score = row["score"]
        lo, hi = row["win_rate_ci95"]
        table.add_row(
            str(row[key]),
            str(row["games"]),
            str(row["wins"]),
            f"{row['win_rate']:.3f}",
            f"[{lo:.3f}, {hi:.3f}]",
            f"{score['mean']:.2f}",
            f"{score['std']:.2f}",
            f"{score['min']:g}",
            f"{score['max']:g}",
        )
    return table


def figures_table(summary: dict[str, Any]) -> Table:
    """Hands per game, hand length and the game-specific figures."""
    table = Table("figure", "value", title=f"{summary['game']}: hands and game figures")
    table.add_row("hands per game", describe(summary["hands_per_game"]))
    table.add_row("decisions per hand", describe(summary["hand_length"]))
    table.add_row("decisions per game", describe(summary["decisions_per_game"]))
    if summary["shared_wins"]["count"]:
        table.add_row("games with a shared win", describe(summary["shared_wins"]))
    for name, text in figure_rows(summary["figures"]):
        table.add_row(name, text)
    return table


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to the CLI."""

    @app.command(name="simulate")
    def simulate_cmd(
        game_id: Annotated[str, typer.Argument(metavar="GAME", help="the game to simulate")],
        bots: Annotated[
            str, typer.Option(help="bots dealt round the seats, comma separated, name or name:key=value")
        ] = "random",
        games: Annotated[int, typer.Option(help="number of games")] = 100,
        players: Annotated[int | None, typer.Option(help="seats at the table (default: the game's standard)")] = None,
        rules: Annotated[list[str] | None, typer.Option(help="a rules option, name=value (repeatable)")] = None,
        seed: Annotated[int, typer.Option(help="master seed: the same seed gives the same results")] = 0,
        workers: Annotated[int, typer.Option(help="parallel workers (results do not depend on it)")] = 1,
        backend: Annotated[str, typer.Option(help="local (processes) or ray")] = "local",
        address: Annotated[
            str | None, typer.Option(help="Ray cluster address (default: RAY_ADDRESS, else a local Ray)")
        ] = None,
        out: Annotated[Path | None, typer.Option(help="folder for results.jsonl and summary.json")] = None,
        plot: Annotated[bool, typer.Option(help="also write PNG charts (scores, win rates) to the folder")] = False,
        batch_size: Annotated[int | None, typer.Option(help="games per batch of work (default: automatic)")] = None,
        rotate: Annotated[bool, typer.Option(help="start the bots one seat later each game")] = True,
    ) -> None:
        """Play many seeded games between bots; write results.jsonl and summary.json; print a summary."""
        check_game(game_id)
        parsed = parse_rules(game_id, rules)
        folder = out if out is not None else Path("sim-results") / game_id
        console = Console()
        try:
            result = simulate(
                game_id,
                players=players,
                rules=parsed,
                bots=bots,
                games=games,
                seed=seed,
                workers=workers,
                backend=backend,
                address=address,
                out=folder,
                plot=plot,
                batch_size=batch_size,
                rotate=rotate,
                keep_records=False,
                progress=True,
            )
        except SimulationError as err:
            raise typer.BadParameter(str(err)) from None
        summary = result.summary
        rules_text = ", ".join(f"{k}={v}" for k, v in summary["rules"].items()) or "-"
        console.print(
            f"[bold]{game_id}[/bold], {summary['players']} players, {summary['games']} games, "
            f"seed {summary['seed']}, rules {rules_text}"
        )
        console.print(sides_table(summary, "bot", "Win rate and score by bot"))
        console.print(sides_table(summary, "seat", "Win rate and score by seat"))
        console.print(figures_table(summary))
        console.print(
            f"{summary['games']} games in {result.elapsed:.1f} s ({result.games_per_second:,.1f} games/s, "
            f"{backend}, {workers} worker{'s' * (workers > 1)})"
        )
        for path in result.files:
            console.print(f"wrote {path}")
