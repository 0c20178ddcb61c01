"""``boneyard review``: the coach's verdict on every decision of one seat in a saved game."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from .. import api
from ..bots.coach import Judgement, analyse, loss, mark, thresholds
from ..errors import IllegalAction, RulesError

PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
STYLES = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: where it was, what was played, the coach's ranking and verdict."""

    number: int  # the action's place in the record, from 1
    played: str
    ranking: list[Judgement]
    loss: float
    error: float
    mark: str | None


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


def start_of(record: dict[str, Any]) -> Any:
    """A new game set up as the record's was (its first position), checking the whole record replays.

    ``ValueError`` / ``IllegalAction`` / ``RulesError`` name what is wrong with the record.
    """
    api.replay(record)  # every check of a record, and every action, before any analysis
    return api.new_game(
        record["game"],
        players=record["players"],
        seed=record["seed"],
        rules=record.get("rules"),
        deck=record.get("deck"),
        dealer=record.get("dealer"),
    )


def review(
    record: dict[str, Any], seat: int, ms: float, seed: int = 0, progress: Progress | None = None
) -> list[Decision]:
    """The coach's judgement of each decision of ``seat`` (with more than one legal action).

    ``ValueError`` naming the problem for a bad record or seat.
    """
    game = start_of(record)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"--seat must be a seat of this {game.players}-player game: 0 to {game.players - 1}")
    actions: list[str] = record["actions"]
    todo = 0
    probe = game.clone()
    for text in actions:
        if probe.current_player == seat and len(probe.legal_actions()) > 1:
            todo += 1
        probe.apply(text)
    task = progress.add_task(f"analysing seat {seat}'s decisions", total=todo) if progress else None
    rng = random.Random(seed)
    out: list[Decision] = []
    for number, text in enumerate(actions, 1):
        legal = game.legal_actions()
        if game.current_player == seat and len(legal) > 1:
            played = game.parse_action(text)
            # a play the legal list does not name (a Rummikub arrangement) is judged with the rest
            candidates = legal if any(str(a) == str(played) for a in legal) else [*legal, played]
            ranking = analyse(game.view(seat), candidates, ms=ms, rng=rng.getrandbits(64))
            mine = next(j for j in ranking if str(j.action) == str(played))
            gap, err = loss(ranking[0], mine)
            verdict = mark(game.id, gap, err)
            out.append(Decision(number, str(played), ranking, gap, err, verdict))
            if progress is not None and task is not None:
                progress.advance(task)
        game.apply(text)
    return out


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to the CLI."""

    @app.command(name="review")
    def review_cmd(
        path: Annotated[Path, typer.Argument(metavar="GAME.JSON", help="a saved game record (boneyard play --save)")],
        seat: Annotated[int, typer.Option(help="the seat whose decisions are reviewed")] = 0,
        ms: Annotated[float, typer.Option(help="thinking time per decision, milliseconds")] = 1000.0,
        top: Annotated[int, typer.Option(help="best actions shown per decision")] = 3,
        seed: Annotated[int, typer.Option(help="seed of the coach's sampling")] = 0,
        all_decisions: Annotated[bool, typer.Option("--all", help="show every decision, not only marked ones")] = False,
    ) -> None:
        """Replay a saved game and mark the seat's inaccuracies, mistakes and blunders."""
        console = Console()
        if ms <= 0:
            raise typer.BadParameter("--ms must be a positive number of milliseconds")
        if top < 1:
            raise typer.BadParameter("--top must be at least 1")
        try:
            record = load_record(path)
            with Progress(console=console, transient=True) as progress:
                decisions = review(record, seat, ms, seed, progress)
        except (ValueError, IllegalAction, RulesError) as err:
            console.print(f"[red]Cannot review {path}:[/red] {err}", highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None
        game_id = record["game"]
        name = api.game_info(game_id)["name"]
        console.print(f"[bold]{name}[/bold]: review of seat {seat} ({len(decisions)} decisions)")
        limits = ", ".join(f"{n} from {v:g}" for n, v in reversed(thresholds(game_id)))
        console.print(f"Values: margin over the rest of the hand, in points, for seat {seat}. Loss marks: {limits}.")
        table = Table("#", "played", "value", "best actions (value ± error)", "loss", "mark")
        for d in decisions:
            if not all_decisions and d.mark is None:
                continue
            mine = next((j for j in d.ranking if str(j.action) == d.played), None)
            best = "; ".join(f"{j.action} {_value(j)}" for j in d.ranking[:top])
            style = STYLES.get(d.mark or "", "")
            table.add_row(
                str(d.number),
                d.played,
                "-" if mine is None else f"{mine.value:+.2f}",
                best,
                f"{d.loss:.2f}",
                f"[{style}]{d.mark}[/{style}]" if d.mark else "",
            )
        console.print(table)
        counts = {k: sum(1 for d in decisions if d.mark == k) for k in PLURALS}
        console.print(", ".join(f"{v} {k if v == 1 else PLURALS[k]}" for k, v in counts.items()))


def _value(j: Judgement) -> str:
    err = "?" if j.error == float("inf") else f"{j.error:.2f}"
    return f"{j.value:+.2f}±{err}"
