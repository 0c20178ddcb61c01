"""``boneyard train``: a learned network for one game, then its arena figures.

Two methods: ``--method dmc`` (the default), Deep Monte-Carlo self-play
(:mod:`boneyard.rl.dmc`); ``--method search``, a network taught greedy's corrections by
the flat search (:mod:`boneyard.rl.improve`). This module parses the options, shows the
progress bar, saves the network and measures it in the duplicate arena against random
and greedy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from .arena import results_table
from .common import check_game, parse_rules


def _bar(console: Console) -> Progress:
    """The progress display both methods show: a bar, the elapsed time and a line of figures."""
    return Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                    TextColumn("{task.fields[line]}"), console=console)


def _train_dmc(console: Console, game_id: str, players: int | None, rules: dict[str, Any], hands: int,
               seconds: float, workers: int, seed: int, widths: list[int], lr: float, epsilon: float,
               objective: str, teacher: str | None, margin: float) -> Any:
    """Deep Monte-Carlo self-play for ``seconds``, with its progress bar (games, loss, wins against random)."""
    from ..rl import dmc

    with _bar(console) as bar:
        job = bar.add_task(f"{game_id} self-play", total=seconds, line="")
        seen: dict[str, str] = {"rate": "not yet"}

        def show(p: dmc.Progress) -> None:
            if p.win_rate is not None:
                seen["rate"] = f"{p.win_rate:.2f}"
            line = f"{p.episodes:,} games, loss {p.loss:.3f}, wins vs random {seen['rate']}"
            bar.update(job, completed=min(p.seconds, seconds), line=line)

        return dmc.train(game_id, players, rules, hands=hands, seconds=seconds, workers=workers, seed=seed,
                         hidden=widths, lr=lr, epsilon=epsilon, objective=objective, teacher=teacher, margin=margin,
                         progress=show)


def _train_search(console: Console, game_id: str, players: int | None, rules: dict[str, Any], hands: int | None,
                  seconds: float, workers: int, seed: int, widths: list[int], lr: float, margin: float,
                  rounds: int, share: float, labels: Path | None) -> Any:
    """Label greedy's games with the search for ``seconds`` (adding to ``labels``), then fit, with progress bars."""
    from ..rl import improve

    found = improve.Labels.load(labels) if labels is not None and labels.exists() else None
    epochs = 60
    with _bar(console) as bar:
        if seconds > 0:
            job = bar.add_task(f"{game_id} labelling", total=seconds, line="")

            def labelled(p: improve.Progress) -> None:
                bar.update(job, completed=min(p.done, seconds), line=f"{p.games:,} games, {p.decisions:,} decisions")

            found = improve.collect(game_id, players, rules, hands, seconds, workers=workers, share=share,
                                    rounds=rounds, seed=seed, into=found, progress=labelled)
            if labels is not None:
                labels.parent.mkdir(parents=True, exist_ok=True)
                found.save(labels)
                console.print(f"Labels written to {labels} ({len(found):,} decisions of {found.games:,} games)")
        assert found is not None  # --minutes 0 needs an existing labels file (checked by the caller)
        fitting = bar.add_task(f"{game_id} fitting", total=epochs, line="")

        def fitted(p: improve.Progress) -> None:
            bar.update(fitting, completed=p.done, line=f"held-out loss {p.loss:.3f}")

        return improve.fit(found, widths, epochs=epochs, lr=lr, margin=margin, seed=seed, progress=fitted)


def _tune(console: Console, net: Any, out: Path, margins: list[float], games: int, seed: int, workers: int,
          rules: dict[str, Any]) -> None:
    """Play each margin against greedy in the arena and save the network with the best one.

    The deals come from ``seed``, which the caller keeps apart from the final arena's, so
    the figure printed afterwards is not the one the margin was chosen on.
    """
    from ..rl import dmc

    tried: list[tuple[float, float, float, float]] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console) as bar:
        for margin in margins:
            played = bar.add_task(f"margin {margin:g} against greedy", total=None)

            def moved(done: int, total: int, played: TaskID = played) -> None:
                bar.update(played, completed=done, total=total)

            net.margin = margin
            net.save(out)
            row = dmc.arena(out, "greedy", games=games, seed=seed, workers=workers, rules=rules,
                            progress=moved)["summary"][0]
            tried.append((float(row["win_rate"]), margin, *row["win_rate_ci"]))
    for rate, margin, low, high in tried:
        console.print(f"margin {margin:g}: win rate against greedy {rate:.3f} [{low:.3f}, {high:.3f}]")
    best = max(tried)[1]
    console.print(f"Keeping margin {best:g}")
    net.margin = best
    net.save(out)


def register(app: typer.Typer) -> None:
    """Add the ``train`` command to the CLI."""

    @app.command()
    def train(
        game_id: Annotated[str, typer.Argument(metavar="GAME", help="the game to learn")],
        out: Annotated[Path, typer.Option(help="where to save the network (.npz)")],
        minutes: Annotated[float, typer.Option(help="training time (wall clock)")] = 5.0,
        players: Annotated[int | None, typer.Option(help="seats at the table (default: the game's standard)")] = None,
        rule: Annotated[list[str] | None, typer.Option("--rule", help="rules option name=value (repeatable)")] = None,
        method: Annotated[str, typer.Option(help="dmc (self-play) or search (greedy's corrections, taught by "
                                                 "the search)")] = "dmc",
        hands: Annotated[int | None, typer.Option(help="hands per training game (default: 1 for dmc, short "
                                                       "episodes; the rules' own for search)")] = None,
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
        margin: Annotated[float | None, typer.Option(help="how much higher (targets have a spread of 1) an action "
                                                          "must be valued to overrule the teacher (default: 0.1 "
                                                          "with dmc's --teacher, 0.25 with search)")] = None,
        rounds: Annotated[int, typer.Option(help="search: sampled worlds each labelled decision is measured "
                                                 "on")] = 32,
        share: Annotated[float, typer.Option(help="search: the chance a decision is labelled")] = 0.25,
        labels: Annotated[Path | None, typer.Option(help="search: a labels file to add to and keep (.npz): a "
                                                         "run grows it, and --minutes 0 fits it again")] = None,
        arena_games: Annotated[int, typer.Option(help="duplicate arena games against random and against greedy "
                                                      "at the end (0: none)")] = 400,
        arena_hands: Annotated[int | None, typer.Option(help="hands per arena game (default: as trained; "
                                                             "0: the rules' own limit)")] = None,
        tune: Annotated[str | None, typer.Option(help="search: margins to try against greedy before the arena, "
                                                      "comma-separated; the best is kept (default: 0.25,0.5,0.75 "
                                                      "unless --margin is given)")] = None,
        tune_games: Annotated[int, typer.Option(help="search: duplicate games against greedy per margin tried, "
                                                     "on other deals than the arena's")] = 200,
    ) -> None:
        """Train a learned bot, save it, and measure it against random and greedy.

        --method dmc plays itself (Deep Monte-Carlo); --method search labels greedy's
        games with the search's measure of every legal action and fits a network that
        corrects greedy. The saved file plays as the policy bot (policy:weights=FILE) in
        the arena, on a server and in the terminal.
        """
        check_game(game_id)
        if method not in ("dmc", "search"):
            raise typer.BadParameter(f"--method is dmc or search, got {method!r}")
        if out.suffix != ".npz":
            raise typer.BadParameter(f"--out must name a .npz file, got {out}")
        if labels is not None and (method != "search" or labels.suffix != ".npz"):
            raise typer.BadParameter("--labels names a .npz file of --method search")
        try:
            widths = [int(w) for w in hidden.split(",") if w.strip()]
        except ValueError:
            raise typer.BadParameter(f"--hidden takes widths such as 256,256, got {hidden!r}") from None
        if not widths or min(widths) < 1:
            raise typer.BadParameter("every --hidden width must be above 0")
        if tune is None:
            tune = "0.25,0.5,0.75" if method == "search" and margin is None else ""
        try:
            margins = [float(m) for m in tune.split(",") if m.strip()]
        except ValueError:
            raise typer.BadParameter(f"--tune takes margins such as 0.25,0.5,0.75, got {tune!r}") from None
        if margins and (method != "search" or min(margins) < 0 or tune_games < 2):
            raise typer.BadParameter("--tune takes margins of 0 or more, with --method search and --tune-games 2 "
                                     "or more")
        if minutes < 0 or (minutes == 0 and (labels is None or not labels.exists())):
            raise typer.BadParameter("--minutes must be above 0 (0 only refits an existing --labels file)")
        console = Console()
        seconds = minutes * 60.0
        try:
            if method == "dmc":
                net = _train_dmc(console, game_id, players, parse_rules(game_id, rule), 1 if hands is None else hands,
                                 seconds, workers, seed, widths, lr, epsilon, objective, teacher,
                                 0.1 if margin is None else margin)
            else:
                if teacher not in (None, "greedy"):
                    raise typer.BadParameter("--method search corrects greedy; --teacher takes no other bot")
                net = _train_search(console, game_id, players, parse_rules(game_id, rule), hands, seconds, workers,
                                    seed, widths, lr, 0.25 if margin is None else margin, rounds, share, labels)
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        from ..rl import dmc

        out.parent.mkdir(parents=True, exist_ok=True)
        net.save(out)
        arena_rules = dict(net.enc.rules)
        if arena_hands == 0:
            arena_rules = parse_rules(game_id, rule)
        elif arena_hands is not None:
            arena_rules["max_hands"] = arena_hands
        if margins:
            _tune(console, net, out, margins, tune_games, seed + 1, workers, arena_rules)
        console.print(f"Network written to {out} (plays as policy:weights={out})")
        for opponent in ("random", "greedy") if arena_games > 0 else ():
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=console) as bar:
                played = bar.add_task(f"arena against {opponent}", total=None)

                def moved(done: int, total: int, bar: Progress = bar, played: TaskID = played) -> None:
                    bar.update(played, completed=done, total=total)

                report = dmc.arena(out, opponent, games=arena_games, seed=seed, workers=workers, rules=arena_rules,
                                   progress=moved)
            console.print(results_table(report))
