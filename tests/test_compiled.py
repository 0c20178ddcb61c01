"""The compiled engines (mypyc) and their pure-Python fallback: same answers, never stale.

``boneyard.compiled`` picks the compiled modules only when the build's manifest matches
the sources; these tests check that choice case by case, that the engines really run
compiled when the build says so (``make test`` sets ``BONEYARD_REQUIRE_COMPILED=1``),
that the pure-Python engines pass the conformance suite, that both give the same games,
and that an edited source is what runs (with a warning) in a copy of a compiled build.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard import compiled
from boneyard.games import game_class

ROOT = Path(__file__).resolve().parent.parent
ENGINE_MODULES = (
    "boneyard.tiles",
    "boneyard.rules",
    "boneyard.games.base",
    "boneyard.games.rummikub.solver",
    "boneyard.games.rummikub.groups",
    "boneyard.sim.loop",
    "boneyard.bots.basic",
)


def pure_env() -> dict[str, str]:
    """The environment of a subprocess that must run the pure-Python engines."""
    env = dict(os.environ)
    env[compiled.ENV_PURE] = "1"
    env.pop("BONEYARD_REQUIRE_COMPILED", None)
    return env


def fake_build(tmp_path: Path, *, source_text: str = "X = 1\n") -> tuple[dict[str, Any], Path]:
    """A package directory with one 'compiled' module and its manifest, for ``decide``."""
    (tmp_path / "mod.py").write_text(source_text)
    (tmp_path / "mod.so").write_bytes(b"")
    (tmp_path / "_shared.so").write_bytes(b"")
    manifest = {
        "compiled": True,
        "shared": "_shared.so",
        "modules": {
            "pkg.mod": {"source": "mod.py", "binary": "mod.so", "sha256": compiled.source_digest(tmp_path / "mod.py")}
        },
    }
    return manifest, tmp_path


def test_a_matching_build_is_used(tmp_path: Path) -> None:
    manifest, root = fake_build(tmp_path)
    assert compiled.decide(manifest, root, {}) == (True, "compiled with mypyc (1 modules)")


def test_the_environment_variable_forces_pure_python(tmp_path: Path) -> None:
    manifest, root = fake_build(tmp_path)
    use, why = compiled.decide(manifest, root, {compiled.ENV_PURE: "1"})
    assert not use and compiled.ENV_PURE in why
    assert compiled.decide(manifest, root, {compiled.ENV_PURE: "0"})[0]  # "0" means no


def test_an_edited_source_is_never_shadowed(tmp_path: Path) -> None:
    manifest, root = fake_build(tmp_path)
    (root / "mod.py").write_text("X = 2\n")
    use, why = compiled.decide(manifest, root, {})
    assert not use
    assert "mod.py changed since the engines were compiled" in why


def test_a_missing_build_or_a_failed_one_means_pure_python(tmp_path: Path) -> None:
    manifest, root = fake_build(tmp_path)
    assert compiled.decide(None, root, {})[0] is False
    use, why = compiled.decide({"compiled": False, "reason": "no C compiler"}, root, {})
    assert not use and "no C compiler" in why
    (root / "mod.so").unlink()
    use, why = compiled.decide(manifest, root, {})
    assert not use and "incomplete" in why
    (root / "mod.so").write_bytes(b"")
    (root / "_shared.so").unlink()
    assert compiled.decide(manifest, root, {})[0] is False


def built() -> bool:
    """Whether this checkout has a compiled build whose sources match."""
    return compiled.decide(compiled._read_manifest(), compiled.PACKAGE_DIR, {})[0]


def test_the_engines_run_compiled_when_the_build_is_there() -> None:
    required = os.environ.get("BONEYARD_REQUIRE_COMPILED", "") not in ("", "0")
    pure = os.environ.get(compiled.ENV_PURE, "") not in ("", "0")
    if not required and (pure or not built()):
        pytest.skip(f"no compiled build in use here: {compiled.describe()}")
    assert compiled.is_compiled(), compiled.describe()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in (*ENGINE_MODULES, *(game_class(g).__module__ for g in boneyard.games())):
        __import__(name)
        assert sys.modules[name].__file__.endswith(suffixes), f"{name} runs from {sys.modules[name].__file__}"


def test_the_pure_python_engines_pass_the_conformance_suite() -> None:
    # A fresh interpreter told to skip the compiled modules runs tests/test_conformance.py,
    # then checks that every engine module it used came from a .py file.
    script = (
        "import sys, pytest, boneyard, boneyard.compiled as c\n"
        "assert not c.is_compiled(), c.describe()\n"
        "rc = pytest.main(['-o', 'addopts=', '--import-mode=importlib', '-q', '-p', 'no:cacheprovider', "
        "'-p', 'no:xdist', 'tests/test_conformance.py'])\n"
        "mods = [m for n, m in sys.modules.items() if (n.startswith('boneyard.games.') or n in "
        f"{ENGINE_MODULES!r}) and not n.rsplit('.', 1)[-1].startswith('_')]  # not the C helpers\n"
        "bad = [m.__name__ for m in mods if not (getattr(m, '__file__', '') or '').endswith('.py')]\n"
        "print('compiled modules used:', bad, 'engine modules:', len(mods))\n"
        "sys.exit(rc or (3 if bad or len(mods) < 8 else 0))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=pure_env(), capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and "compiled modules used: []" in done.stdout


PLAY_SCRIPT = """
import json, random, sys
import boneyard
out = {}
for game_id in boneyard.games():
    for seed in range(2):
        g = boneyard.new_game(game_id, seed=seed)
        rng = random.Random(seed)
        views = []
        while not g.is_over and len(g.record()["actions"]) < 400:
            legal = g.legal_actions()
            if len(views) < 3 and len(legal) > 1:
                seat = g.current_player
                world = boneyard.sample_game(g.view(seat), random.Random(5))
                copy = world.clone()
                views.append([world.view(None), sorted(map(str, copy.legal_actions())), str(copy.tile_locations())])
            g.apply(legal[rng.randrange(len(legal))])
        out[f"{game_id}-{seed}"] = [g.record(), g.view(0), g.scores, g.winners, views]
print(json.dumps(out, sort_keys=True, default=str))
"""


def test_compiled_and_pure_python_engines_play_the_same_games() -> None:
    def run(env: dict[str, str]) -> Any:
        done = subprocess.run(
            [sys.executable, "-c", PLAY_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout)

    here = dict(os.environ)
    here.pop(compiled.ENV_PURE, None)
    assert run(here) == run(pure_env())


def test_a_copy_of_the_build_with_an_edited_source_runs_the_edit(tmp_path: Path) -> None:
    if not built():
        pytest.skip(f"no compiled build here: {compiled.describe()}")
    copy = tmp_path / "boneyard"
    shutil.copytree(compiled.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__", "static"))
    rounce = copy / "games" / "rounce" / "engine.py"
    edited = re.sub(r"^(START_POINTS\b[^=]*=) 15$", r"\1 14", rounce.read_text(), count=1, flags=re.M)
    assert edited != rounce.read_text()
    rounce.write_text(edited)
    script = (
        "import warnings; warnings.simplefilter('always')\n"
        "import boneyard, boneyard.compiled as c, sys\n"
        "print(c.describe())\n"
        "g = boneyard.new_game('rounce', seed=1)\n"
        "print(g.scores, sys.modules['boneyard.games.rounce.engine'].__file__)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop(compiled.ENV_PURE, None)
    env.pop("BONEYARD_REQUIRE_COMPILED", None)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "games/rounce/engine.py changed since the engines were compiled" in done.stdout
    assert "[14, 14, 14, 14]" in done.stdout and done.stdout.strip().endswith("engine.py")
    assert "RuntimeWarning" in done.stderr

