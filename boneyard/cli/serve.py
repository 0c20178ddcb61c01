"""``boneyard serve``: the web app (FastAPI + uvicorn) on a SQLite file or PostgreSQL."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the app."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
        db: Annotated[str, typer.Option(help="database URL: sqlite:///FILE or postgresql://...")] = "sqlite:///boneyard.db",
        bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before acting")] = 0.6,
    ) -> None:
        """Run the web app: lobby at http://HOST:PORT/, API docs at /docs."""
        import uvicorn

        from ..server import create_app

        if bot_delay < 0:
            raise typer.BadParameter("--bot-delay must be 0 or more seconds")
        typer.echo(f"boneyard: lobby at http://{host}:{port}/  (database {db})")
        uvicorn.run(create_app(db, bot_delay=bot_delay), host=host, port=port, log_level="warning")
