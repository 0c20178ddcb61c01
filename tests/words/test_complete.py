"""Every declared event kind has its own sentence: each game's Words class answers every kind it declares.

A kind told by the fallback would read "hand end ..." with the kind's bare name; the
declarations (``schema.declared``) are the list to cover, so a kind added to a game's
``events.py`` without its words fails here. The kinds declared once for every game in
``boneyard/games/events.py`` (``game_over``, ``dealt``, ``first_dealer``) are told by the
base class, which a game may override.
"""

from __future__ import annotations

import typing

import pytest

import boneyard
from boneyard.games import events as shared_events
from boneyard.games import schema
from boneyard.words import Words, words_class

from .common import tiny_game

GAMES = boneyard.games()

#: The kinds declared once in boneyard/games/events.py: the base Words class tells them.
SHARED = {
    typing.get_args(hints["kind"])[0]
    for value in vars(shared_events).values()
    if isinstance(value, type) and "kind" in (hints := typing.get_type_hints(value))
}


def untold(cls: type[Words], game_id: str) -> list[str]:
    """The game's declared kinds with no ``on_<kind>`` method of its own (the shared kinds may be the base's)."""
    missing = []
    for kind in schema.declared(game_id):
        name = f"on_{kind}"
        owner = next((c for c in cls.__mro__ if name in vars(c)), None)
        if owner is None or (owner is Words and kind not in SHARED):
            missing.append(kind)
    return missing


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_tells_every_kind_it_declares(game_id: str) -> None:
    cls = words_class(game_id)
    assert cls is not Words, f"{game_id} has no words module of its own"
    assert untold(cls, game_id) == []


def test_the_tiny_game_brings_words_for_every_kind() -> None:
    with tiny_game() as (game, told):
        assert words_class(game.id) is told
        assert untold(told, game.id) == []
    assert words_class("tinyblock") is Words


def test_a_missing_kind_is_caught() -> None:
    full = words_class("rounce")
    kinds = [k for k in schema.declared("rounce") if k not in ("walkover", "game_over")]
    kept = {f"on_{k}": getattr(full, f"on_{k}") for k in kinds}
    assert untold(type("Short", (Words,), kept), "rounce") == ["walkover"]
    assert untold(Words, "rounce") == [k for k in schema.declared("rounce") if k not in SHARED]
    assert {"game_over", "dealt", "first_dealer"} == SHARED
