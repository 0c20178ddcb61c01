"""``boneyard play`` and ``boneyard replay``: a game in the terminal against bots, told in words.

What happens at the table is told from the events of the reader's view (the human's
seat, or nobody's when watching) through the game's words (:mod:`boneyard.words`), in
the players' names: the human is "you", each bot has a short name of its own, and no
sentence carries a seat number.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from .. import api
from ..bots import Bot, bot
from ..bots.reasons import explain
from ..bots.review import hint as coach_hint
from ..bots.spec import refusal
from ..errors import IllegalAction
from ..games.base import END_KINDS
from ..words import Words, words
from ..words.coach import CoachWords
from .common import check_game, parse_rules
from .views import default_names, describe, labels, render


class Quit(Exception):
    """The human asked to stop."""


class Story:
    """Prints one reader's events as sentences, hand by hand, as they come.

    A rule titled with the hand's number opens each hand, so that a long game reads as
    a sequence of hands; the sentences come from the game's :class:`~boneyard.words.Words`.
    """

    def __init__(self, teller: Words, console: Console) -> None:
        self.teller = teller
        self.console = console
        self.hand = 1
        self.opened = False  # whether the current hand's rule is printed

    def tell(self, events: Iterable[Mapping[str, Any]]) -> None:
        """Print each event as a sentence, opening a new hand after each hand's end (scored or thrown in)."""
        for event in events:
            kind = event.get("kind")
            if not self.opened and kind != "game_over":
                self.console.print(Rule(f"Hand {self.hand}", style="cyan"))
                self.opened = True
            self.console.print(Text(self.teller.tell(event), style="cyan"))
            if kind in END_KINDS:  # a hand scored, or thrown in (Eighty's four passes)
                ended = event.get("hand")
                self.hand = ended + 1 if isinstance(ended, int) else self.hand + 1
                self.opened = False


def table_names(seats: Sequence[Bot | None]) -> list[str]:
    """Each seat's name as the human reads it: "you" for a human seat, a short name for each bot.

    Bots are named by seat (:func:`~boneyard.cli.views.default_names`), so the names are
    distinct and a seat keeps its name whichever seat the human takes.
    """
    named = default_names(len(seats))
    return ["you" if player is None else named[s] for s, player in enumerate(seats)]


def roster(seats: Sequence[Bot | None], names: Sequence[str]) -> str:
    """Who sits at the table, in seat order: "Players: you, Bob (greedy), Cy (random)."."""
    said = [name if player is None else f"{name} ({player.name})" for name, player in zip(names, seats, strict=True)]
    return f"Players: {', '.join(said)}."


def final_scores(view: Mapping[str, Any], names: Sequence[str]) -> Table:
    """The game's end as a small table: each player by name, his score, and who won."""
    table = Table("player", "score", "", title="Final scores", title_justify="left", box=None, header_style="bold")
    winners = set(view.get("winners") or [])
    for seat, score in enumerate(view.get("scores") or []):
        table.add_row(labels(view, [seat], names), str(score), "winner" if seat in winners else "")
    return table


#: The most moves the menu numbers at once; the rest are reached by typing them, or "all".
MENU_SIZE = 20
#: The coach's thinking time for a hint (milliseconds), as the web table's default.
HINT_MS = 1500.0
HINT_TOP = 3  # the best moves a hint lists


def show_hint(view: dict[str, Any], legal: Sequence[Any], seat: int, names: Sequence[str] | None, console: Console,
              ms: float | None = HINT_MS, rounds: int | None = None) -> None:
    """The coach's hint for the seat: its best moves with their values, then why, in the web table's words.

    The analysis is the shared hint (``bots.review.hint``, seeded from the view) and the
    words :class:`~boneyard.words.coach.CoachWords`, so a position gets the same sentence
    here as at a web table.
    """
    console.print("[dim]The coach is thinking...[/dim]")
    found = coach_hint(view, list(legal), ms, rounds)
    said = CoachWords(str(view["game"]), list(names) if names else default_names(int(view["players"])), seat)
    rounds_done = found.ranking[0].rounds
    console.print(Text(f"Coach's hint ({rounds_done} deal{'' if rounds_done == 1 else 's'} of the hidden tiles "
                       "that fit what you see, each played out):", style="bold"))
    for i, j in enumerate(found.ranking[:HINT_TOP], 1):
        console.print(f"  {i}. {escape(describe(view, j.action))}  ({said.figure(j.value, j.error)})", highlight=False)
    if len(found.ranking) > 1:
        why = said.reasons(explain(found, found.ranking[0], found.ranking[1]))
        console.print(why, highlight=False, soft_wrap=True)


def ask_action(
    game: Any, seat: int, console: Console, read: Callable[[str], str], names: Sequence[str] | None = None,
    hint_ms: float | None = HINT_MS, hint_rounds: int | None = None,
) -> Any:
    """Show the seat's view and menu, and read an action until a legal one is given.

    "h" (or "hint") asks the coach (:func:`show_hint`, ``hint_ms``/``hint_rounds`` its budget).

    A lone legal move is played without asking (and said), since there is nothing to
    choose. A long menu (Rummikub's lays) numbers its first :data:`MENU_SIZE` moves and
    says how to see or type the others. Actions are read in any case ("PASS" is "pass").
    A refused action prints the engine's own explanation, which speaks to the player.
    """
    console.print(Rule(style="dim"))
    view = game.view(seat)
    console.print(render(view, names))
    legal = game.legal_actions()
    if len(legal) == 1:
        console.print(Text(f"Your only move: {describe(view, legal[0])}.", style="bold"))
        return legal[0]
    shown = len(legal) if len(legal) <= MENU_SIZE else MENU_SIZE

    def menu(upto: int) -> None:
        for i, action in enumerate(legal[:upto], 1):
            console.print(f"  [bold]{i:>2}[/bold]  {escape(describe(view, action))}")
        if upto < len(legal):
            console.print(f"  and {len(legal) - upto} more moves: type 'all' to list them, or type a move.")

    menu(shown)
    while True:
        try:
            answer = read("Your move (number or action, h for a hint, q to quit): ").strip()
        except EOFError:
            raise Quit from None
        if answer.lower() in ("q", "quit", "exit"):
            raise Quit
        if answer.lower() in ("h", "hint"):
            show_hint(view, legal, seat, names, console, hint_ms, hint_rounds)
            continue
        if answer.lower() == "all":
            shown = len(legal)
            menu(shown)
            continue
        if answer.isdigit():
            index = int(answer)
            if 1 <= index <= shown:
                return legal[index - 1]
            console.print(f"[red]Choose a number from 1 to {shown}.[/red]")
            continue
        if not answer:
            continue
        try:
            for typed in dict.fromkeys((answer, answer.lower())):
                if game.is_legal(typed):
                    return typed
            game._checked(answer.lower())  # raises with the rule broken
        except IllegalAction as err:
            console.print(Text(Words.sentence(str(err)), style="red"))


def run_game(
    game: Any,
    seats: list[Bot | None],
    console: Console,
    read: Callable[[str], str] = input,
    delay: float = 0.0,
    rng: random.Random | None = None,
    watch_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> bool:
    """Play to the end, telling each new event of the reader's view: ``None`` seats are human.

    The reader is the human seat, else ``watch_seat`` (``None``: a spectator). ``names``
    defaults to :func:`table_names`. Returns False if the human quit.
    """
    rng = rng or random.Random(game.seed)
    human = next((s for s, b in enumerate(seats) if b is None), None)
    eye = human if human is not None else watch_seat
    names = list(names) if names is not None else table_names(seats)
    story = Story(words(game.id, names, eye), console)
    told = 0  # how many of the reader's events are told

    def tell_new() -> None:
        nonlocal told
        view = game.view(eye)
        events = view["events"]
        total = view["events_from"] + len(events)
        story.tell(events[max(0, len(events) - (total - told)) :])
        told = total

    while not game.is_over:
        tell_new()
        seat = game.current_player
        player = seats[seat]
        if player is None:
            try:
                action = ask_action(game, seat, console, read, names)
            except Quit:
                return False
        else:
            action = player.choose(game.view(seat), game.legal_actions(), rng)
            if delay:
                time.sleep(delay)
        game.apply(action)
    tell_new()
    console.print(Rule("Game over"))
    view = game.view(eye)
    console.print(render(view, names))
    console.print(final_scores(view, names))
    return True


def replay_story(record: Mapping[str, Any], seat: int | None, names: Sequence[str], console: Console) -> None:
    """Tell a recorded game's every event as ``seat`` saw it (``None``: everyone's public view), hand by hand.

    Ends with the final scores, or, for a game saved before its end, the scores so far.
    """
    game = api.replay(record)
    Story(words(game.id, names, seat), console).tell(event for _step, event in api.story(record, seat))
    view = game.view(seat)
    if game.is_over:
        console.print(Rule("Game over"))
        console.print(final_scores(view, names))
    else:
        scores = ", ".join(f"{labels(view, [s], names)} {v}" for s, v in enumerate(game.scores))
        console.print(Text(f"The record stops before the end of the game. Scores so far: {scores}.", style="bold"))


def register(app: typer.Typer) -> None:
    """Add ``play`` and ``replay`` to the app."""

    @app.command()
    def play(
        game_id: Annotated[str, typer.Argument(metavar="GAME", help="a game id; `boneyard games` lists them")],
        players: Annotated[int | None, typer.Option(help="number of seats (default: the game's standard)")] = None,
        seed: Annotated[int | None, typer.Option(help="seed for a replayable game")] = None,
        seat: Annotated[int, typer.Option(help="the seat you play")] = 0,
        rules: Annotated[list[str] | None, typer.Option(help="a rules option, name=value (repeatable)")] = None,
        bots: Annotated[str, typer.Option(help="bots for the other seats, comma separated (cycled)")] = "greedy",
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
        kinds = [b.strip() for b in bots.split(",") if b.strip()] or ["greedy"]
        try:
            made = [bot(kinds[i % len(kinds)]) for i in range(game.players)]
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        for kind, player in zip(kinds, made, strict=False):  # a learned bot with no network for this table
            why = refusal(player, game_id, game.players)
            if why is not None:
                raise typer.BadParameter(f"{kind} cannot play {game_id} with {game.players} players: {why}")
        seats: list[Bot | None] = list(made)
        if not watch:
            seats[seat] = None
        names = table_names(seats)
        console = Console()
        console.print(f"[bold]{api.game_info(game_id)['name']}[/bold], {game.players} players, seed {game.seed}")
        console.print(roster(seats, names))
        finished = run_game(game, seats, console, delay=delay, names=names)
        if save is not None:
            save.write_text(json.dumps(game.record(), indent=1))
            console.print(f"Record saved to {save}")
        if not finished:
            console.print("Stopped.")

    @app.command(name="replay")
    def replay_cmd(
        file: Annotated[Path, typer.Argument(help="a record saved by 'play --save' or the web app")],
        seat: Annotated[int | None, typer.Option(help="re-tell the game as this seat saw it (called 'you')")] = None,
        names: Annotated[
            str | None, typer.Option(help="the players' names in seat order, comma separated (default: Ann, Bob, ...)")
        ] = None,
    ) -> None:
        """Re-tell a saved game from its record, hand by hand, in words."""
        try:
            record = json.loads(file.read_text())
            game = api.replay(record)
        except FileNotFoundError:
            raise typer.BadParameter(f"no such file: {file}") from None
        except (ValueError, TypeError) as err:
            raise typer.BadParameter(f"{file} is not a valid record: {err}") from None
        if seat is not None and not 0 <= seat < game.players:
            raise typer.BadParameter(f"--seat must be 0 to {game.players - 1}")
        named = default_names(game.players)
        if names is not None:
            given = [n.strip() for n in names.split(",")]
            if len(given) != game.players or not all(given) or len(set(given)) != len(given):
                raise typer.BadParameter(f"--names needs {game.players} different names, comma separated")
            named = given
        console = Console()
        console.print(f"[bold]{api.game_info(game.id)['name']}[/bold], {game.players} players, seed {game.seed}")
        teller = words(game.id, named, seat)
        console.print(f"Players: {teller.names_of(range(game.players), start=False)}.")
        replay_story(record, seat, named, console)
