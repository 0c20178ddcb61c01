"""``boneyard review``: the coach's verdict on every decision of one seat in a saved game.

The review itself (the walk over the record, the coach's figures, the verdicts and their
words) is :mod:`boneyard.bots.review`, the same one the web app's review runs; this
command reads the file, shows progress and lays the answer out as a Rich table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from .. import api
from ..bots.review import CoachWords, Reviewed, review
from ..errors import IllegalAction, RulesError
from .views import default_names

STYLES = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}


def load_record(path: Path) -> dict[str, Any]:
    """The record in ``path``, or ``ValueError`` naming what is wrong with the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ValueError(f"cannot read it: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise ValueError("it is not a text file (a saved game is JSON)") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"it is not valid JSON: {err.msg} at line {err.lineno}") from None
    if not isinstance(record, dict):
        raise ValueError("it holds JSON but not a game record (an object with game, players, seed, actions)")
    return record


def seat_names(record: dict[str, Any]) -> list[str]:
    """How the review names the seats: a record keeps no names, so the terminal's "Ann", "Bob"... by seat.

    They are the names ``boneyard replay`` gives the same record, so a review reads beside
    its replay; the seat reviewed is "you" either way.
    """
    players = record.get("players")
    return default_names(players if isinstance(players, int) else 0)


def layout(reviewed: Reviewed, words: CoachWords, top: int, every: bool) -> Table:
    """The review as a Rich table: one row per decision (only the marked ones unless ``every``).

    Each row: the decision's number and hand, the action played with its value, the
    verdict in words, and the coach's ``top`` best actions with theirs. The reasons
    follow the table, a line each (:func:`reasons`).
    """
    table = Table("#", "hand", "played", "value", "verdict", "the coach's best (value ± two standard errors)")
    for d in reviewed.decisions:
        if not every and d.mark is None:
            continue
        style = STYLES.get(d.mark or "", "")
        verdict = words.compared(d.mine)
        table.add_row(
            str(d.number),
            str(d.hand),
            d.played,
            words.figure(d.value, d.mine.judgement.error),
            f"[{style}]{verdict}[/{style}]" if style else verdict,
            "; ".join(f"{v.action} {words.figure(v.judgement.value, v.judgement.error)}" for v in d.ranking[:top]),
        )
    return table


def reasons(reviewed: Reviewed, words: CoachWords, every: bool) -> list[str]:
    """Why, for each decision the table shows: "3. Why pass: ..." in the words the web's review uses.

    The sentence is :meth:`CoachWords.reasons` on the decision's typed reasons, the same
    one the web page shows for the same decision.
    """
    out = []
    for d in reviewed.decisions:
        why = words.why(d)
        if (every or d.mark is not None) and why is not None:
            out.append(f"{d.number}. {why}")
    return out


def summary(reviewed: Reviewed, words: CoachWords) -> str:
    """The closing line: the marks counted, and the decisions the coach could not judge."""
    line = words.tally(reviewed.counts())
    if reviewed.skipped:
        line += f"; {reviewed.skipped} not judged (no deal of the hidden tiles fitted what was seen)"
    return line


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to the CLI."""

    @app.command(name="review")
    def review_cmd(
        path: Annotated[Path, typer.Argument(metavar="GAME.JSON", help="a saved game record (boneyard play --save)")],
        seat: Annotated[int, typer.Option(help="the seat whose decisions are reviewed")] = 0,
        ms: Annotated[
            float | None, typer.Option(help="time per decision, milliseconds (default 1000; none with --rounds)")
        ] = None,
        rounds: Annotated[
            int | None, typer.Option(help="at most this many sampled deals per decision (alone: a reproducible review)")
        ] = None,
        top: Annotated[int, typer.Option(help="best actions shown per decision")] = 3,
        seed: Annotated[int | None, typer.Option(help="seed of the coach's sampling (default: the web's)")] = None,
        all_decisions: Annotated[bool, typer.Option("--all", help="show every decision, not only marked ones")] = False,
    ) -> None:
        """Replay a saved game and mark the seat's inaccuracies, mistakes and blunders."""
        console = Console()
        if ms is not None and ms <= 0:
            raise typer.BadParameter("--ms must be a positive number of milliseconds")
        if rounds is not None and rounds < 1:
            raise typer.BadParameter("--rounds must be at least 1")
        if top < 1:
            raise typer.BadParameter("--top must be at least 1")
        if ms is None and rounds is None:
            ms = 1000.0
        try:
            record = load_record(path)
            with Progress(console=console, transient=True) as progress:
                task = progress.add_task("the coach judges the decisions", total=None)

                def advance(done: int, total: int) -> None:
                    progress.update(task, completed=done, total=total)

                reviewed = review(record, seat, ms, seed, rounds, advance)
        except (ValueError, IllegalAction, RulesError) as err:
            console.print(f"[red]Cannot review {path}:[/red] {err}", highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None
        words = CoachWords(reviewed.game, seat_names(record), seat)
        name = api.game_info(reviewed.game)["name"]
        judged = len(reviewed.decisions)
        console.print(f"[bold]{name}[/bold]: review of seat {seat}, {judged} decision{'' if judged == 1 else 's'}"
                      " with a choice", highlight=False)
        console.print(f"Values: {words.units(seat)}. Marks: {words.limits()}; late in a game, by the chance "
                      f"of winning it lost: {words.late_limits()}.", highlight=False)
        console.print(layout(reviewed, words, top, all_decisions))
        for line in reasons(reviewed, words, all_decisions):
            console.print(line, highlight=False, soft_wrap=True)
        console.print(summary(reviewed, words), highlight=False)
