"""The service worker keeps the whole lobby shell: every file the lobby page loads, imports included.

The offline lobby works only if every module the page imports, however deep, is in the
worker's cache; a module added to the lobby and forgotten there breaks the offline lobby
with no error a page test would see while the network is up. Read from the files
themselves: the page's scripts and styles, then each module's static imports.
"""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "boneyard" / "server" / "static"
IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+["']([^"']+)["']""", re.M)


def _shell() -> set[str]:
    text = (STATIC / "sw.js").read_text()
    listed = text[text.index("const SHELL = [") : text.index("];", text.index("const SHELL = ["))]
    return set(re.findall(r'"([^"]+)"', listed))


def _lobby_files() -> set[str]:
    page = (STATIC / "index.html").read_text()
    found = set(re.findall(r'<(?:script[^>]*src|link[^>]*rel="stylesheet"[^>]*href)="(/static/[^"]+)"', page))
    todo = [f for f in found if f.endswith(".js")]
    while todo:
        url = todo.pop()
        path = STATIC / url.removeprefix("/static/")
        for target in IMPORT.findall(path.read_text()):
            resolved = "/static/" + (path.parent / target).resolve().relative_to(STATIC.resolve()).as_posix()
            if resolved not in found:
                found.add(resolved)
                todo.append(resolved)
    return found


def test_the_worker_caches_every_file_the_lobby_loads() -> None:
    lobby = _lobby_files()
    assert "/static/lobby.js" in lobby and "/static/core/rulesform.js" in lobby  # the walk follows imports
    assert lobby - _shell() == set()


def test_a_module_missing_from_the_cache_is_found() -> None:
    """The check itself: a shell without one of the lobby's imported modules is caught."""
    assert "/static/core/api.js" in _lobby_files() - (_shell() - {"/static/core/api.js"})
