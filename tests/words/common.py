"""What the words tests share: the table's names, a teller, and a check that a hand-made event is a real one."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jsonschema

from boneyard.games import register, schema, unregister
from boneyard.words import register as register_words
from boneyard.words import unregister as unregister_words
from boneyard.words import words

#: The players' names at every test table, seat by seat.
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")


@functools.cache
def _validator(game_id: str) -> Any:
    spec = json.loads(schema.schema_path(game_id).read_text())
    return jsonschema.validators.validator_for(spec)(spec)


def valid(game_id: str, event: Mapping[str, Any]) -> Mapping[str, Any]:
    """``event``, once checked against the game's shipped schema (a scripted event must be one the engine could log)."""
    _validator(game_id).validate(dict(event))
    return event


def say(game_id: str, event: Mapping[str, Any], players: int, me: int | None = 0) -> str:
    """The sentence for a hand-made (and checked) event at a table of ``players``, read by seat ``me``."""
    return words(game_id, NAMES[:players], me).tell(valid(game_id, event))


TINY = Path(__file__).resolve().parents[1] / "tinygame"


@contextmanager
def tiny_game() -> Iterator[tuple[Any, Any]]:
    """Tiny Block (``tests/tinygame``) registered with its words while the block runs: (game class, words class)."""
    init = TINY / "__init__.py"
    spec = importlib.util.spec_from_file_location("tinygame", init, submodule_search_locations=[str(TINY)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tinygame"] = module
    spec.loader.exec_module(module)
    cls = register(module.GAME)
    told = importlib.import_module("tinygame.words").WORDS
    register_words(cls.id, told)
    try:
        yield cls, told
    finally:
        unregister_words(cls.id)
        unregister(cls.id)
