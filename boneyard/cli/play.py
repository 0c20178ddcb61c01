"""``boneyard play`` and ``boneyard replay``: a game in the terminal against bots."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

from .. import api
from ..bots import Bot, bot
from ..errors import IllegalAction
from .common import check_game, parse_rules
from .views import describe, render


class Quit(Exception):
    """The human asked to stop."""


def ask_action(game: Any, seat: int, console: Console, read: Callable[[str], str]) -> Any:
    """Show the seat's view and menu, and read an action until a legal one is given."""
    console.print(Rule(style="dim"))
    view = game.view(seat)
    console.print(render(view))
    legal = game.legal_actions()
    for i, action in enumerate(legal, 1):
        console.print(f"  [bold]{i:>2}[/bold]  {escape(describe(view, action))}")
    while True:
        try:
            answer = read("Your move (number or action, q to quit): ").strip()
        except EOFError:
            raise Quit from None
        if answer.lower() in ("q", "quit", "exit"):
            raise Quit
        if answer.isdigit():
            index = int(answer)
            if 1 <= index <= len(legal):
                return legal[index - 1]
            console.print(f"[red]Choose a number from 1 to {len(legal)}.[/red]")
            continue
        if not answer:
            continue
        try:
            if game.is_legal(answer):
                return answer
            game._checked(answer)  # raises with the rule broken
        except IllegalAction as err:
            console.print(f"[red]{err}[/red]")


def run_game(
    game: Any,
    seats: list[Bot | None],
    console: Console,
    read: Callable[[str], str] = input,
    delay: float = 0.0,
    rng: random.Random | None = None,
    watch_seat: int | None = None,
) -> bool:
    """Play to the end: ``None`` seats are human. Returns False if the human quit."""
    rng = rng or random.Random(game.seed)
    human = next((s for s, b in enumerate(seats) if b is None), None)
    shown = 0
    eye = human if human is not None else watch_seat
    while not game.is_over:
        seat = game.current_player
        history = game.history(eye)
        for line in history[shown:]:
            console.print(Text(line, style="cyan"))
        shown = len(history)
        player = seats[seat]
        if player is None:
            try:
                action = ask_action(game, seat, console, read)
            except Quit:
                return False
        else:
            action = player.choose(game.view(seat), game.legal_actions(), rng)
            if delay:
                time.sleep(delay)
        game.apply(action)
    for line in game.history(eye)[shown:]:
        console.print(Text(line, style="cyan"))
    console.print(Rule("Game over"))
    console.print(render(game.view(eye)))
    names = ", ".join(f"seat {w}" + (" (you)" if w == human else "") for w in game.winners)
    console.print(f"[bold]Scores:[/bold] {game.scores}   [bold]Winner(s):[/bold] {names}")
    return True


def register(app: typer.Typer) -> None:
    """Add ``play`` and ``replay`` to the app."""

    @app.command()
    def play(
        game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id; `boneyard games` lists them")],
        players: Annotated[int | None, typer.Option(help="number of seats (default: the game's standard)")] = None,
        seed: Annotated[int | None, typer.Option(help="seed for a replayable game")] = None,
        seat: Annotated[int, typer.Option(help="the seat you play")] = 0,
        rules: Annotated[list[str] | None, typer.Option(help="a rules option, name=value (repeatable)")] = None,
        bots: Annotated[str, typer.Option(help="bots for the other seats, comma separated (cycled)")] = "random",
        save: Annotated[Path | None, typer.Option(help="write the game's record (JSON) here")] = None,
        watch: Annotated[bool, typer.Option(help="all seats are bots; just watch")] = False,
        delay: Annotated[float, typer.Option(help="seconds to pause after each bot move")] = 0.0,
    ) -> None:
        """Play a game in the terminal against bots (or watch bots play)."""
        check_game(game_id)
        parsed = parse_rules(game_id, rules)
        try:
            game = api.new_game(game_id, players=players, seed=seed, rules=parsed)
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        if not watch and not 0 <= seat < game.players:
            raise typer.BadParameter(f"--seat must be 0 to {game.players - 1}")
        names = [b.strip() for b in bots.split(",") if b.strip()] or ["random"]
        try:
            made = [bot(names[i % len(names)]) for i in range(game.players)]
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        seats: list[Bot | None] = list(made)
        if not watch:
            seats[seat] = None
        console = Console()
        console.print(f"[bold]{api.game_info(game_id)['name']}[/bold], {game.players} players, seed {game.seed}")
        finished = run_game(game, seats, console, delay=delay)
        if save is not None:
            save.write_text(json.dumps(game.record(), indent=1))
            console.print(f"Record saved to {save}")
        if not finished:
            console.print("Stopped.")

    @app.command(name="replay")
    def replay_cmd(
        file: Annotated[Path, typer.Argument(help="a record saved by 'play --save' or the web app")],
        seat: Annotated[int | None, typer.Option(help="re-tell the game as this seat saw it")] = None,
    ) -> None:
        """Re-tell a saved game from its record."""
        try:
            record = json.loads(file.read_text())
            game = api.replay(record)
        except FileNotFoundError:
            raise typer.BadParameter(f"no such file: {file}") from None
        except (ValueError, TypeError) as err:
            raise typer.BadParameter(f"{file} is not a valid record: {err}") from None
        console = Console()
        console.print(f"[bold]{api.game_info(game.id)['name']}[/bold], {game.players} players, seed {game.seed}")
        for line in game.history(seat):
            console.print(Text(line, style="cyan"))
        state = "finished" if game.is_over else "unfinished"
        console.print(f"[bold]{state}; scores:[/bold] {game.scores}  [bold]winners:[/bold] {game.winners}")
