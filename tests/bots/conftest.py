"""Fixtures shared by the bot tests."""

from __future__ import annotations

from typing import Any

import pytest

from boneyard.bots import inference as inference_module
from boneyard.bots import ismcts as ismcts_module
from boneyard.bots.inference import Inference


@pytest.fixture
def samplers_made(monkeypatch: pytest.MonkeyPatch) -> list[Inference]:
    """Every :class:`Inference` the ``ismcts`` search builds during the test, in order.

    The real class does the work; the list lets a test see how the search switched it
    (its candidates, its ``explain`` knob) and what it did (worlds weighed, explained).
    """
    made: list[Inference] = []
    real = inference_module.Inference

    def spy(view: dict[str, Any], candidates: int, epsilon: float | None = None, explain: bool = True) -> Inference:
        made.append(real(view, candidates, epsilon, explain))
        return made[-1]

    monkeypatch.setattr(ismcts_module, "Inference", spy)
    return made
