"""The bots read worlds through the engines' public entries: no private, no field rewritten.

A sampled world is a game the engine vouches for; a bot that calls an engine's private
helper or rewrites a world's hands keeps a second copy of a rule that can drift from the
engine's. These scans read the bots' source (the abstract syntax tree), so a new module
is covered the day it is added.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOTS = Path(__file__).resolve().parents[2] / "boneyard" / "bots"
#: NamedTuple's public methods carry a leading underscore by design
NAMEDTUPLE = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}
#: the names the bots give a sampled or cloned game
WORLD_NAMES = {"world", "game", "sampled", "clone", "copy", "w", "g"}
MUTATORS = {"sort", "append", "extend", "remove", "pop", "insert", "clear", "reverse", "update"}


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def private_uses(source: str) -> list[str]:
    """Each ``x._name`` in ``source`` where ``x`` is not ``self`` or ``cls``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                and node.attr not in NAMEDTUPLE):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def world_edits(source: str) -> list[str]:
    """Each assignment to, or in-place change of, a field of a world (by the names bots use)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            targets = [node.func.value]
        for t in targets:
            # an attribute of the world itself (``world.out = ...``) or anything inside one
            if isinstance(t, (ast.Attribute, ast.Subscript)) and _root(t) in WORLD_NAMES:
                found.append(f"line {node.lineno}: {ast.unparse(t)}")
    return found


MODULES = sorted(BOTS.rglob("*.py"))


def test_the_scans_catch_what_they_look_for() -> None:
    """The scanners themselves: the shapes the bots used to have are found."""
    old = (
        "def f(world, t, codes, rng):\n"
        "    if world._claim_out_ok(codes, t):\n"
        "        queue, options = world._window(1, t)\n"
        "    world.hands[2] = sorted(world.hands[2])\n"
        "    world.codes[2] = []\n"
        "    world.out = []\n"
        "    world.hands[1].sort()\n"
        "    self._cache = None\n"
        "    w = WEIGHTS._replace(follow=0.0)\n"
    )
    assert private_uses(old) == ["line 2: world._claim_out_ok", "line 3: world._window"]
    assert world_edits(old) == ["line 4: world.hands[2]", "line 5: world.codes[2]", "line 6: world.out",
                                "line 7: world.hands[1]"]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(BOTS)))
def test_no_bot_calls_an_engine_private(path: Path) -> None:
    """No bot module reaches into a game through an underscored attribute."""
    assert private_uses(path.read_text()) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(BOTS)))
def test_no_bot_rewrites_a_world(path: Path) -> None:
    """Worlds are changed only by their engine (``apply``, ``conform``), never field by field."""
    assert world_edits(path.read_text()) == []


def test_no_hand_written_native_source_under_bots() -> None:
    """The bots' speed comes from mypyc compiling their Python with the engines, never from a
    second copy of a rule in C: a C, C++ or Cython source under ``boneyard/bots`` is what the
    C trick playouts and two-box's C twin were, and would let a rule fixed in the engine stay
    wrong in the copy. (The compiled ``.so`` files mypyc writes from the ``.py`` are not sources.)"""
    native = sorted(p.relative_to(BOTS).as_posix() for suffix in ("*.c", "*.h", "*.cpp", "*.pyx")
                    for p in BOTS.rglob(suffix))
    assert native == [], f"hand-written native sources under boneyard/bots: {native}"
