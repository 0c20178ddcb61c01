"""The rules pages (``docs/rules/<id>.md``), shipped with the package."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .games import game_class


def rules_page(game_id: str) -> str:
    """The Markdown rules page of a game; ``ValueError`` for an unknown game."""
    game_class(game_id)  # validates the id
    name = f"{game_id}.md"
    packaged = resources.files("boneyard").joinpath("_rules", name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parent.parent / "docs" / "rules" / name
    if source.is_file():
        return source.read_text(encoding="utf-8")
    raise FileNotFoundError(f"the rules page of {game_id} is missing ({name})")
