"""Hand-made events for the bot tests, checked against the game's shipped schema.

A test that builds a view by hand (instead of playing to the position) must give it
events an engine could log, or the reading it tests would read something no table says.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import jsonschema

from boneyard.games import schema


@functools.cache
def _validator(game_id: str) -> Any:
    spec = json.loads(schema.schema_path(game_id).read_text())
    return jsonschema.validators.validator_for(spec)(spec)


def valid(game_id: str, *events: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The events, each once checked against ``game_id``'s declared kinds (a bad one raises)."""
    for event in events:
        _validator(game_id).validate(dict(event))
    return list(events)
