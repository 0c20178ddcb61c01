"""``boneyard bot``: register a bot account on a server and host a bot there (``boneyard.client``)."""

from __future__ import annotations

from typing import Annotated, Any

import typer


def register(app: typer.Typer) -> None:
    """Add the ``bot`` commands (``register``, ``run``) to the app."""
    group = typer.Typer(help="Bot accounts: play a program against people and other programs on a server.",
                        no_args_is_help=True)
    app.add_typer(group, name="bot")

    @group.command("register")
    def register_account(
        name: Annotated[str, typer.Option(help="the bot's name, unique on the server")],
        owner: Annotated[str, typer.Option(help="who runs it")],
        games: Annotated[str, typer.Option(help="the games it plays, comma-separated, e.g. montana,rounce")],
        server: Annotated[str, typer.Option(help="the server's address")] = "http://127.0.0.1:8000",
        description: Annotated[str, typer.Option(help="a line about it")] = "",
    ) -> None:
        """Register a bot account; prints its token once (keep it secret: it is the bot's password)."""
        from ..client import BotApiError
        from ..client import register as register_bot

        try:
            made = register_bot(server, name, owner, [g.strip() for g in games.split(",") if g.strip()], description)
        except BotApiError as err:
            raise typer.BadParameter(err.detail) from None
        typer.echo(f"bot account {made['name']} registered; its token (shown only now): {made['token']}")

    @group.command("run")
    def run(
        token: Annotated[str, typer.Option(help="the bot account's token")],
        bot: Annotated[str, typer.Option(
            help="a bot spec: name[:key=value...], e.g. ismcts:ms=500, greedy, policy:weights=FILE, or a bot "
                 "installed under the entry point group boneyard.bots")] = "greedy",
        server: Annotated[str, typer.Option(help="the server's address")] = "http://127.0.0.1:8000",
        games: Annotated[str, typer.Option(help="accept challenges only for these games (comma-separated; "
                                                "default: the account's games)")] = "",
        max_games: Annotated[int, typer.Option(help="stop after this many finished games (0: run until stopped)")] = 0,
        seed: Annotated[int | None, typer.Option(help="seed of the bot's random choices")] = None,
        seek: Annotated[str, typer.Option(help="while idle, keep an open seek for this game in the lobby, "
                                               "e.g. rounce (people take it from 'Play a bot')")] = "",
        seek_players: Annotated[int, typer.Option(help="the seek's player count (0: the game's smallest)")] = 0,
        seek_hands: Annotated[int, typer.Option(help="the seek's hands (0: a whole game)")] = 0,
    ) -> None:
        """Host a bot as a bot account: accept challenges, play every game, resume after a restart or a cut."""
        from ..bots.spec import parse_bot_spec
        from ..client import BotApiError, BotClient, BotRunner

        try:
            spec = parse_bot_spec(bot)
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        client = BotClient(server, token)
        wanted = [g.strip() for g in games.split(",") if g.strip()] or None
        offer: dict[str, Any] | None = None
        if seek:
            import boneyard

            if seek not in boneyard.games():
                raise typer.BadParameter(f"--seek names a game id ({', '.join(boneyard.games())}), not {seek!r}")
            offer = {"game": seek, "players": seek_players or boneyard.game_info(seek)["players"]["min"],
                     "rules": {"max_hands": seek_hands} if seek_hands else {}}
        runner = BotRunner(client, spec.make, wanted, seed=seed, say=typer.echo, seek=offer)
        typer.echo(f"boneyard bot: hosting {spec.label} at {server}")
        try:
            runner.run(max_games=max_games or None)
        except BotApiError as err:
            typer.echo(f"the server refused this bot: {err.detail}", err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            pass
        finally:
            client.close()
