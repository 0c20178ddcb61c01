"""``boneyard train``: a Deep Monte-Carlo self-play network for one game, then its arena figures.

The work is done by :mod:`boneyard.rl.dmc`; this module parses the options, shows the
progress bar (episodes, loss, the latest win rate against random), saves the network and
measures it in the duplicate arena against random and greedy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from .arena import results_table
from .common import check_game, parse_rules


def register(app: typer.Typer) -> None:
    """Add the ``train`` command to the CLI."""

    @app.command()
    def train(
        game_id: Annotated[str, typer.Argument(metavar="GAME", help="the game to learn")],
        out: Annotated[Path, typer.Option(help="where to save the network (.npz)")],
        minutes: Annotated[float, typer.Option(help="training time (wall clock)")] = 5.0,
        players: Annotated[int | None, typer.Option(help="seats at the table (default: the game's standard)")] = None,
        rule: Annotated[list[str] | None, typer.Option("--rule", help="rules option name=value (repeatable)")] = None,
        hands: Annotated[int, typer.Option(help="hands per training game (1: short episodes, a clear signal)")] = 1,
        workers: Annotated[int, typer.Option(help="processes playing the self-play games")] = 1,
        seed: Annotated[int, typer.Option(help="seed of the network, the deals and the exploration")] = 0,
        hidden: Annotated[str, typer.Option(help="hidden layer widths, comma-separated")] = "256,256",
        lr: Annotated[float, typer.Option(help="Adam's learning rate")] = 1e-3,
        epsilon: Annotated[float, typer.Option(help="share of random moves while playing itself")] = 0.05,
        objective: Annotated[str, typer.Option(help="what a decision is worth: score (its seat's rewards to "
                                                    "the end) or win (its seat's share of the win)")] = "score",
        teacher: Annotated[str | None, typer.Option(help="a bot the network learns to correct, e.g. greedy: it "
                                                         "plays the bot's choice unless it values another higher "
                                                         "by --margin")] = None,
        margin: Annotated[float, typer.Option(help="with --teacher: how much higher (targets have a spread of "
                                                   "1) an action must be valued to overrule the teacher")] = 0.1,
        arena_games: Annotated[int, typer.Option(help="duplicate arena games against random and against greedy "
                                                      "at the end (0: none)")] = 400,
        arena_hands: Annotated[int | None, typer.Option(help="hands per arena game (default: as trained; "
                                                             "0: the rules' own limit)")] = None,
    ) -> None:
        """Train a learned bot by self-play (Deep Monte-Carlo), save it, and measure it against random and greedy.

        The saved file plays as the policy bot (policy:weights=FILE) in the arena, on a
        server and in the terminal.
        """
        from ..rl import dmc

        check_game(game_id)
        if out.suffix != ".npz":
            raise typer.BadParameter(f"--out must name a .npz file, got {out}")
        try:
            widths = [int(w) for w in hidden.split(",") if w.strip()]
        except ValueError:
            raise typer.BadParameter(f"--hidden takes widths such as 256,256, got {hidden!r}") from None
        if minutes <= 0 or not widths or min(widths) < 1:
            raise typer.BadParameter("--minutes and every --hidden width must be above 0")
        console = Console()
        columns = (TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                   TextColumn("{task.fields[line]}"))
        seconds = minutes * 60.0
        try:
            with Progress(*columns, console=console) as bar:
                job = bar.add_task(f"{game_id} self-play", total=seconds, line="")
                seen: dict[str, str] = {"rate": "not yet"}

                def show(p: dmc.Progress) -> None:
                    if p.win_rate is not None:
                        seen["rate"] = f"{p.win_rate:.2f}"
                    line = f"{p.episodes:,} games, loss {p.loss:.3f}, wins vs random {seen['rate']}"
                    bar.update(job, completed=min(p.seconds, seconds), line=line)

                net = dmc.train(game_id, players, parse_rules(game_id, rule), hands=hands, seconds=seconds,
                                workers=workers, seed=seed, hidden=widths, lr=lr, epsilon=epsilon,
                                objective=objective, teacher=teacher, margin=margin,
                                progress=show)
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        out.parent.mkdir(parents=True, exist_ok=True)
        net.save(out)
        console.print(f"Network written to {out} (plays as policy:weights={out})")
        arena_rules = dict(net.enc.rules)
        if arena_hands == 0:
            arena_rules = parse_rules(game_id, rule)
        elif arena_hands is not None:
            arena_rules["max_hands"] = arena_hands
        for opponent in ("random", "greedy") if arena_games > 0 else ():
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=console) as bar:
                played = bar.add_task(f"arena against {opponent}", total=None)

                def moved(done: int, total: int, bar: Progress = bar, played: TaskID = played) -> None:
                    bar.update(played, completed=done, total=total)

                report = dmc.arena(out, opponent, games=arena_games, seed=seed, workers=workers, rules=arena_rules,
                                   progress=moved)
            console.print(results_table(report))
