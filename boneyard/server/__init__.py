"""The web app: FastAPI server, SQL persistence and the browser front end.

Everything a client receives is built from ``view(seat)``; see ``docs/api.md``.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
