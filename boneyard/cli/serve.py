"""``boneyard serve``: the web app (FastAPI + uvicorn) on a SQLite file or PostgreSQL."""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer


def parse_options(text: str) -> dict[str, Any]:
    """``"max_hands=1,target=50"`` to rules options (numbers and true/false read as such)."""
    from ..bots.spec import parse_value

    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" not in part:
            raise ValueError(f"options are written key=value, got {part!r}")
        key, value = part.split("=", 1)
        options[key.strip()] = parse_value(value.strip())
    return options


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the app."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
        db: Annotated[str, typer.Option(help="database URL: sqlite:///FILE or postgresql://...")] = "sqlite:///boneyard.db",
        bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before acting")] = 0.6,
        limits: Annotated[str, typer.Option(
            help="per-address limits: 'off' or e.g. "
                 "'create=30/minute,join=60/minute,act=20/second,register=10/minute,claim=10/minute,"
                 "coach=10/minute,open=50,sockets=200,search=8'")] = "",
        idle_timeout: Annotated[float, typer.Option(help="seconds without an action after which a table expires")] = (
            6 * 3600),
        workers: Annotated[int, typer.Option(help="worker processes (more than 1 needs PostgreSQL)")] = 1,
        forwarded_allow_ips: Annotated[str, typer.Option(
            help="proxy addresses whose X-Forwarded-For is trusted (behind a reverse proxy)")] = "127.0.0.1",
        public_url: Annotated[str, typer.Option(
            help="the address friends open, e.g. http://my-laptop:8000 (used by the copy-link buttons)")] = "",
        redis: Annotated[str, typer.Option(
            help="Redis URL, e.g. redis://10.0.0.5:6379/0: every server process naming it counts the limits "
                 "and caps together")] = "",
        bot_ms_cap: Annotated[float, typer.Option(
            help="the most a search bot (ismcts) may think per move (milliseconds), whatever its seat asks")] = 1000.0,
        compute_workers: Annotated[int, typer.Option(
            help="worker processes that run the bots' searches and the coach (0: half the cores)")] = 0,
        ladder: Annotated[float, typer.Option(
            help="seconds between the ladder's rounds, which pair the online bot accounts and start their games "
                 "(0: no ladder)")] = 0.0,
        ladder_rules: Annotated[str, typer.Option(
            help="rules options of the ladder's games, e.g. 'max_hands=1' (each game takes those it has)")] = "",
        bot_heartbeat: Annotated[float, typer.Option(
            help="seconds between the empty lines that keep a quiet bot stream open")] = 10.0,
        test_clock: Annotated[bool, typer.Option(
            help="TESTS ONLY: the move clocks' time stands still until POST /api/test/clock advances it "
                 "(anyone could run out every clock: never in production)")] = False,
        smtp_host: Annotated[str, typer.Option(
            help="SMTP server that notices go through by e-mail (none: no e-mail is sent)")] = "",
        smtp_port: Annotated[int, typer.Option(help="port of the SMTP server")] = 25,
        smtp_from: Annotated[str, typer.Option(help="the From address of the notices' e-mail")] = "boneyard@localhost",
        smtp: Annotated[str, typer.Option(
            help="the SMTP server as one URL, smtp://HOST:PORT?from=ADDRESS (instead of the three above)")] = "",
        push_loopback: Annotated[bool, typer.Option(
            help="accept push subscriptions whose endpoint is plain http on this machine (a local push "
                 "service, for tests)")] = False,
    ) -> None:
        """Run the web app: lobby at http://HOST:PORT/, API docs at /docs."""
        import uvicorn

        from ..server import create_app
        from ..server.clock import TestClock
        from ..server.ratelimit import LimitSettings

        if bot_delay < 0:
            raise typer.BadParameter("--bot-delay must be 0 or more seconds")
        if idle_timeout <= 0:
            raise typer.BadParameter("--idle-timeout must be a positive number of seconds")
        try:
            settings = LimitSettings.parse(limits) if limits else LimitSettings()
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        if workers < 1:
            raise typer.BadParameter("--workers must be 1 or more")
        if not 0 < bot_ms_cap <= 60_000:
            raise typer.BadParameter("--bot-ms-cap must be above 0 and at most 60000 milliseconds")
        if compute_workers < 0:
            raise typer.BadParameter("--compute-workers must be 0 (half the cores) or more")
        if ladder < 0 or (ladder and workers > 1):
            raise typer.BadParameter("--ladder must be 0 (off) or more seconds, and needs --workers 1")
        if not 0.1 <= bot_heartbeat <= 60:
            raise typer.BadParameter("--bot-heartbeat must be from 0.1 to 60 seconds")
        try:
            rules_of_ladder = parse_options(ladder_rules)
        except ValueError as err:
            raise typer.BadParameter(f"--ladder-rules: {err}") from None
        if test_clock and workers > 1:
            raise typer.BadParameter("--test-clock needs --workers 1: each process would keep its own time")
        if workers > 1 and not db.startswith("postgresql"):
            raise typer.BadParameter("--workers above 1 needs a PostgreSQL --db: SQLite serves one process")
        from ..server.social import check_public_url
        from ..server.wsprotocol import AbortableWebSocketProtocol

        try:
            public_url = check_public_url(public_url)
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None

        if redis:
            from ..server.sharedlimits import check_url

            try:
                redis = check_url(redis)
            except ValueError as err:
                raise typer.BadParameter(str(err)) from None

        from ..server.mail import MailSettings

        try:
            mail = MailSettings.parse_url(smtp) if smtp else (
                MailSettings(smtp_host, smtp_port, smtp_from) if smtp_host else None)
        except ValueError as err:
            raise typer.BadParameter(str(err)) from None
        if mail is not None and not 0 < mail.port < 65536:
            raise typer.BadParameter("--smtp-port must be from 1 to 65535")

        shown = public_url or f"http://{host}:{port}"
        typer.echo(f"boneyard: lobby at {shown}/  (database {db}, {workers} worker(s)"
                   f"{', limits shared through Redis' if redis else ''})")
        # No access log: at the warning level it prints nothing, yet would format every request.
        # timeout_graceful_shutdown: a backstop for open streams (each process ends its bots' streams itself)
        options: dict[str, Any] = {"host": host, "port": port, "log_level": "warning", "access_log": False,
                                   "timeout_graceful_shutdown": 10,
                                   "ws_max_size": 65536,
                                   "ws": AbortableWebSocketProtocol, "forwarded_allow_ips": forwarded_allow_ips}
        if workers == 1:
            app = create_app(db, bot_delay=bot_delay, limits=settings, idle_timeout=idle_timeout,
                             public_url=public_url, tune_gc=True, redis_url=redis or None, bot_ms_cap=bot_ms_cap,
                             compute_workers=compute_workers or None, bot_heartbeat=bot_heartbeat,
                             ladder=ladder or None, ladder_rules=rules_of_ladder, mail=mail,
                             push_loopback=push_loopback, clock=TestClock() if test_clock else None)
            server = uvicorn.Server(uvicorn.Config(app, **options))
            handle_exit = server.handle_exit

            def stop(sig: int, frame: Any) -> None:
                # the bot streams never end by themselves: end them, or the server waits for them
                app.state.bots.stopping()
                handle_exit(sig, frame)

            server.handle_exit = stop  # type: ignore[method-assign]
            server.run()
            return
        os.environ.update({"BONEYARD_DB": db, "BONEYARD_BOT_DELAY": str(bot_delay), "BONEYARD_LIMITS": limits,
                           "BONEYARD_IDLE_TIMEOUT": str(idle_timeout), "BONEYARD_PUBLIC_URL": public_url,
                           "BONEYARD_REDIS": redis, "BONEYARD_BOT_MS_CAP": str(bot_ms_cap),
                           "BONEYARD_COMPUTE_WORKERS": str(compute_workers or ""),
                           "BONEYARD_SMTP": f"smtp://{mail.host}:{mail.port}?from={mail.sender}" if mail else "",
                           "BONEYARD_PUSH_LOOPBACK": "1" if push_loopback else ""})
        # workers are spawned processes that import the app and its WebSocket protocol by name
        options["ws"] = "boneyard.server.wsprotocol:AbortableWebSocketProtocol"
        uvicorn.run("boneyard.server.app:app_from_env", factory=True, workers=workers, **options)
