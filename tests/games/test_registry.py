"""The game registry: discovery is complete before anyone, on any thread, reads it."""

from __future__ import annotations

import importlib
import threading
import time
from types import ModuleType

import pytest

registry = importlib.import_module("boneyard.games")  # the package: ``boneyard.games`` is also a function


def test_threads_never_see_a_half_filled_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_discovered", False)
    monkeypatch.setattr(registry, "_registry", {})
    real = importlib.import_module

    def slow_import(name: str) -> ModuleType:
        time.sleep(0.02)  # widen the window in which a second thread could read too early
        return real(name)

    monkeypatch.setattr(registry.importlib, "import_module", slow_import)
    seen: list[list[str]] = []
    threads = [threading.Thread(target=lambda: seen.append(registry.game_ids())) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [["montana", "twobox", "rummikub", "eighty", "rounce"]] * 6
