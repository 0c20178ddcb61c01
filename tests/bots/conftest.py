"""Fixtures shared by the bot tests."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
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

    def spy(
        view: dict[str, Any], candidates: int, epsilon: float | None = None, explain: bool | None = None
    ) -> Inference:
        made.append(real(view, candidates, epsilon, explain))
        return made[-1]

    monkeypatch.setattr(ismcts_module, "Inference", spy)
    return made


@pytest.fixture
def benchmark_module() -> Callable[[str], ModuleType]:
    """A loader of a script in ``benchmarks/`` by its name, for the tests of what it measures.

    The scripts are not a package, so each is loaded from its file, under a name of its
    own in ``sys.modules`` while it runs (a dataclass looks its module up there).
    """

    def load(name: str) -> ModuleType:
        path = Path(__file__).resolve().parents[2] / "benchmarks" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(f"benchmark_{name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module

    return load
