"""Whether the engines run compiled (mypyc) or as pure Python, and never a stale build.

The install compiles the rules engines (tiles, rules, errors, draws, the base game, every game's
engine, analysis and sampling modules, Rummikub's solver and group rules; and, beside them,
the simulator's move loop and the random bot) with mypyc from their own ``.py`` files,
which stay the only source of the rules; the compiled modules sit beside those files
(``engine.cpython-311-x86_64-linux-gnu.so`` next to ``engine.py``), and Python prefers
them. ``boneyard/_compiled.json``, written by the build, lists the compiled modules and a
SHA-256 of each source they were built from.

:func:`install` (run when this module is imported, which ``import boneyard`` does before
any engine) puts a finder
in front of Python's import system that loads the ``.py`` sources instead of the compiled
modules when

- ``BONEYARD_PURE_PYTHON`` is set to anything but ``""`` or ``0`` (tests check the
  pure-Python engines this way),
- any compiled module's source differs from the one it was built from (an edited file in
  an editable install: the edit is what runs, with one warning saying to rebuild),
- the build left no manifest, or one that says the compiler was missing.

It is all or nothing: mypyc compiles the modules as one group that calls across modules
directly, so one stale source puts every engine back on Python. The answers are the same
either way; only the speed differs.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = PACKAGE_DIR / "_compiled.json"
ENV_PURE = "BONEYARD_PURE_PYTHON"

_state: dict[str, Any] = {"compiled": False, "reason": "boneyard.compiled.install() has not run", "modules": []}


def source_digest(path: Path) -> str:
    """SHA-256 of a source file's bytes: what the build records and the import compares."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def decide(manifest: dict[str, Any] | None, package_dir: Path, environ: dict[str, str]) -> tuple[bool, str]:
    """Whether to use the compiled modules, and why (or why not), from the build's manifest.

    Pure: it reads the sources named in the manifest under ``package_dir`` and nothing
    else, so that tests can check every case on a directory of their own.
    """
    if environ.get(ENV_PURE, "") not in ("", "0"):
        return False, f"pure Python ({ENV_PURE} is set)"
    if manifest is None:
        return False, "pure Python (no compiled build: the engines were not compiled at install)"
    if not manifest.get("compiled"):
        return False, f"pure Python ({manifest.get('reason') or 'the install could not compile the engines'})"
    modules: dict[str, dict[str, str]] = manifest.get("modules", {})
    for name, entry in sorted(modules.items()):
        source = package_dir / entry["source"]
        built = package_dir / entry["binary"]
        if not source.exists() or not built.exists():
            return False, f"pure Python (the compiled build is incomplete: {name} is missing)"
        if source_digest(source) != entry["sha256"]:
            return False, (
                f"pure Python (boneyard/{entry['source']} changed since the engines were compiled; "
                "rebuild with `make` or `pip install -e .`)"
            )
    shared = manifest.get("shared")
    if shared and not (package_dir / shared).exists():
        return False, f"pure Python (the compiled build is incomplete: {shared} is missing)"
    return True, f"compiled with mypyc ({len(modules)} modules)"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules as their ``.py`` sources, ahead of the compiled files beside them."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of the source file of a listed module; ``None`` leaves others to Python."""
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def _read_manifest() -> dict[str, Any] | None:
    try:
        data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _compiled_candidates(manifest: dict[str, Any] | None) -> dict[str, Path]:
    """Every engine module that has a compiled file beside its source, by module name."""
    out: dict[str, Path] = {}
    if manifest:
        for name, entry in manifest.get("modules", {}).items():
            out[name] = PACKAGE_DIR / entry["source"]
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for built in PACKAGE_DIR.rglob("*"):
        if built.name.endswith(suffixes) and not built.name.startswith("_"):
            stem = built.name.split(".", 1)[0]
            source = built.with_name(stem + ".py")
            if source.exists():
                parts = source.relative_to(PACKAGE_DIR).with_suffix("").parts
                out[".".join((__package__ or "boneyard", *parts))] = source
    return out


def install() -> None:
    """Decide once per process between the compiled and the pure-Python engines."""
    if any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        return
    manifest = _read_manifest()
    compiled, reason = decide(manifest, PACKAGE_DIR, dict(os.environ))
    modules = sorted((manifest or {}).get("modules", {})) if compiled else []
    _state.update(compiled=compiled, reason=reason, modules=modules)
    if compiled:
        return
    sources = _compiled_candidates(manifest)
    if sources:
        sys.meta_path.insert(0, _SourceFinder(sources))
        if "changed since" in reason or "incomplete" in reason:
            warnings.warn(f"boneyard engines: {reason}", RuntimeWarning, stacklevel=1)


def is_compiled() -> bool:
    """Whether this process runs the mypyc-compiled engines."""
    return bool(_state["compiled"])


def describe() -> str:
    """One line saying which engines run and why (printed by ``make`` after the install)."""
    return str(_state["reason"])


def compiled_modules() -> list[str]:
    """The names of the modules running compiled (empty when pure Python)."""
    return list(_state["modules"])


install()
