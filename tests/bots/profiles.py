"""Tests change a game's search profile for one test: a copy with some fields replaced, put back after."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest


def use_profile(monkeypatch: pytest.MonkeyPatch, module: Any, **changes: Any) -> Any:
    """Give ``module`` a copy of its ``PROFILE`` with ``changes``; the copy.

    ``module`` is where the game's profile lives (``profile_module(game_id)``): its
    ``bots/profiles/<id>.py``, or its greedy heuristic for a game that keeps it there.
    """
    changed = dataclasses.replace(module.PROFILE, **changes)
    monkeypatch.setattr(module, "PROFILE", changed)
    return changed
