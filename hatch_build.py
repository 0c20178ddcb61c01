"""Build hook: compile the rules engines with mypyc, and boneyard's C extension modules.

The engines (``ENGINE_SOURCES``: tiles, rules, errors, draws, the base game, every game's engine,
analysis and sampling modules and Rummikub's solver and group rules, plus the two modules a
simulation of random play runs at every move beside them, the simulator's move loop and
the random bot) are compiled with mypyc from their ``.py`` files,
which stay the only source of the rules: mypyc turns them into C, and the C compiler into
one shared library (``boneyard/_engines__mypyc*.so``) plus a small module beside each
source (``boneyard/tiles.cpython-311-x86_64-linux-gnu.so`` next to ``boneyard/tiles.py``).
``boneyard/_compiled.json`` records each compiled module and a SHA-256 of the source it
came from; ``boneyard.compiled`` refuses a build whose sources changed since (it runs the
``.py`` files instead, with a warning) and honours ``BONEYARD_PURE_PYTHON=1``. A build
whose sources are unchanged is reused, so reinstalling costs nothing. Without mypy or a C
compiler the install goes on, says so once, and boneyard runs the same engines as pure
Python (same answers, slower). ``BONEYARD_NO_COMPILE=1`` skips the mypyc step on purpose.

``boneyard/games/rummikub/_rummikub_dp.c`` (the Rummikub arrangement search) and
``boneyard/rl/_observe.c`` (the RL observation writers, one interpreter for every game's
declared layout) are plain C against Python's C API. Each is compiled with the C compiler
Python was built with (``sysconfig``'s ``CC``) into ``<name><EXT_SUFFIX>``, next to its
source, so that editable installs find it in place; wheels include it. Without a compiler
the build goes on and each user falls back on pure Python: the Rummikub solver on its
sweep (exact, but far slower), the RL adapters on their Python observation writers (the
same vectors, slower); ``make`` installs ``gcc`` first.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a script (``python hatch_build.py``) where hatchling is not installed
    BuildHookInterface = object

SOURCES = {
    Path("boneyard/games/rummikub/_rummikub_dp.c"): "the Rummikub solver will use its slower pure-Python search",
    Path("boneyard/rl/_observe.c"): "the RL adapters will pack observations and make masks in Python (slower)",
}


def compile_module(root: Path, source: Path, fallback: str) -> Path | None:
    """Compile one module; its path, or ``None`` (with a warning) when it cannot be built."""
    src = root / source
    out = src.with_name(src.stem + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    if out.exists() and out.stat().st_mtime >= src.stat().st_mtime:
        return out
    include = sysconfig.get_paths()["include"]
    compilers = [os.environ.get("CC"), sysconfig.get_config_var("CC"), "cc", "gcc"]
    problems: list[str] = []
    for cc in dict.fromkeys(c for c in compilers if c):
        cmd = [*shlex.split(cc), "-O2", "-shared", "-fPIC", "-I", include, str(src), "-o", str(out)]
        try:
            subprocess.run(cmd, check=True, capture_output=True, text=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            problems.append(f"{cc}: {(getattr(exc, 'stderr', '') or str(exc)).strip()[:300]}")
            continue
        return out
    print(f"boneyard: could not compile {source} ({'; '.join(problems)}); {fallback}", file=sys.stderr)
    return None


ENGINE_SOURCES = (
    "boneyard/tiles.py",
    "boneyard/rules.py",
    "boneyard/errors.py",
    "boneyard/draws.py",
    "boneyard/games/base.py",
    "boneyard/games/*/engine.py",
    "boneyard/games/*/analysis.py",
    "boneyard/games/*/sampling.py",
    # Rummikub's legal plays come from its arrangement solver: the C search's set-up and the
    # group rules around it are Python, and most of a Rummikub move's time.
    "boneyard/games/rummikub/solver.py",
    "boneyard/games/rummikub/groups.py",
    # Not engines, but what a simulation of random play runs at every move beside them.
    "boneyard/sim/loop.py",
    "boneyard/bots/basic.py",
    # Not engines either: the RL encodings, which write an observation at every decision of
    # the RL adapters (each game's one definition of its observation; no C writer).
    "boneyard/rl/encoding.py",
    "boneyard/rl/encodings/[!_]*.py",
    # and the table every adapter plays through, with the learner's lane against the bots:
    # the batched environment's loop over its tables is compiled code.
    "boneyard/rl/core.py",
    "boneyard/rl/lane.py",
    # Nor these: the greedy heuristics' trick play, one definition for a greedy decision and
    # for the search's playouts, which play it at every tile.
    "boneyard/bots/tricks/[!_]*.py",
    # and two-box's greedy heuristic and playouts, over its engine's fast path.
    "boneyard/bots/playouts/[!_]*.py",
)
PACKAGE = Path("boneyard")
MANIFEST = PACKAGE / "_compiled.json"
GROUP = "boneyard._engines"  # mypyc's shared library: boneyard/_engines__mypyc<EXT_SUFFIX>


def engine_sources(root: Path) -> list[Path]:
    """The engine modules to compile, relative to ``root``, in a stable order."""
    found = {p.relative_to(root) for pattern in ENGINE_SOURCES for p in root.glob(pattern)}
    return sorted(found, key=lambda p: p.as_posix())


def digest(path: Path) -> str:
    """SHA-256 of a file (the same as ``boneyard.compiled.source_digest``)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def module_name(source: Path) -> str:
    """``boneyard/games/base.py`` to ``boneyard.games.base``."""
    return ".".join(source.with_suffix("").parts)


def read_manifest(root: Path) -> dict[str, Any] | None:
    """The manifest of the last build, or ``None``."""
    try:
        data = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def up_to_date(root: Path, manifest: dict[str, Any] | None, sources: list[Path], mypy_version: str) -> bool:
    """Whether the last build compiled exactly these sources, as they are now, and is all there."""
    if not manifest or not manifest.get("compiled") or manifest.get("mypy") != mypy_version:
        return False
    modules = manifest.get("modules", {})
    if set(modules) != {module_name(s) for s in sources}:
        return False
    package = root / PACKAGE
    for entry in modules.values():
        if not (package / entry["binary"]).exists() or digest(package / entry["source"]) != entry["sha256"]:
            return False
    return bool(manifest.get("shared")) and (package / manifest["shared"]).exists()


def remove_build(root: Path, manifest: dict[str, Any] | None) -> None:
    """Delete the compiled files of a previous build, so that none outlives its source."""
    if not manifest:
        return
    package = root / PACKAGE
    names = [entry["binary"] for entry in manifest.get("modules", {}).values()]
    if manifest.get("shared"):
        names.append(manifest["shared"])
    for name in names:
        (package / name).unlink(missing_ok=True)


def write_manifest(root: Path, data: dict[str, Any]) -> None:
    """Write ``boneyard/_compiled.json``."""
    (root / MANIFEST).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def compile_engines(root: Path) -> tuple[list[Path], str | None]:
    """Compile the engines in place with mypyc: the files made (relative to ``root``), or why not.

    The previous build is reused when its sources are unchanged; otherwise it is deleted
    first, so that a failed build leaves the pure-Python engines, never stale binaries.
    """
    sources = engine_sources(root)
    old = read_manifest(root)
    if os.environ.get("BONEYARD_NO_COMPILE", "") not in ("", "0"):
        remove_build(root, old)
        reason = "BONEYARD_NO_COMPILE was set at install"
        write_manifest(root, {"compiled": False, "reason": reason})
        return [], reason
    try:
        import mypy.version
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as err:
        remove_build(root, old)
        reason = f"mypy/mypyc or setuptools is not available at install: {err}"
        write_manifest(root, {"compiled": False, "reason": reason})
        return [], reason
    version = mypy.version.__version__
    if up_to_date(root, old, sources, version):
        assert old is not None
        package = root / PACKAGE
        made = [package / e["binary"] for e in old["modules"].values()] + [package / old["shared"]]
        return [p.relative_to(root) for p in made], None
    remove_build(root, old)
    (root / MANIFEST).unlink(missing_ok=True)
    started = time.monotonic()
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    cwd = os.getcwd()
    try:
        with tempfile.TemporaryDirectory(prefix="boneyard-mypyc-") as tmp:
            os.chdir(root)  # mypyc reads the mypy settings of pyproject.toml and names modules from here
            extensions = mypycify(
                [s.as_posix() for s in sources],
                opt_level="3",
                debug_level="0",
                group_name=GROUP,
                target_dir=str(Path(tmp) / "c"),
            )
            dist = Distribution({"name": "boneyard-engines", "ext_modules": extensions})
            build = dist.get_command_obj("build_ext")
            build.build_lib = str(Path(tmp) / "lib")  # type: ignore[attr-defined]
            build.build_temp = str(Path(tmp) / "tmp")  # type: ignore[attr-defined]
            build.parallel = os.cpu_count() or 1  # type: ignore[attr-defined]
            build.ensure_finalized()
            build.run()
            made: list[Path] = []
            for built in (Path(tmp) / "lib").rglob(f"*{suffix}"):
                target = root / built.relative_to(Path(tmp) / "lib")
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(built, target)
                made.append(target.relative_to(root))
    except Exception as err:  # mypy's or the C compiler's refusal: fall back, say why
        text = str(err).strip().splitlines()
        reason = f"mypyc could not compile the engines ({type(err).__name__}: {text[-1] if text else ''})"
        write_manifest(root, {"compiled": False, "reason": reason})
        return [], reason
    finally:
        os.chdir(cwd)
    modules = {}
    for source in sources:
        binary = source.with_name(source.stem + suffix)
        if binary not in made:
            reason = f"mypyc built no module for {source}"
            write_manifest(root, {"compiled": False, "reason": reason})
            return made, reason
        modules[module_name(source)] = {
            "source": source.relative_to(PACKAGE).as_posix(),
            "binary": binary.relative_to(PACKAGE).as_posix(),
            "sha256": digest(root / source),
        }
    shared = PACKAGE / (GROUP.split(".")[-1] + "__mypyc" + suffix)
    seconds = time.monotonic() - started
    write_manifest(
        root,
        {
            "compiled": True,
            "mypy": version,
            "modules": modules,
            "shared": shared.relative_to(PACKAGE).as_posix(),
            "build_seconds": round(seconds, 1),
        },
    )
    print(f"boneyard: compiled {len(modules)} engine modules with mypyc in {seconds:.0f} s", file=sys.stderr)
    return made, None


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles the modules before hatchling builds a wheel or an editable install."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the modules; a regular wheel then carries them and is tagged for this platform."""
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        made, reason = compile_engines(root)
        if reason is not None:
            print(
                f"boneyard: the engines were not compiled ({reason}); boneyard will run them as pure "
                "Python: the same answers, slower",
                file=sys.stderr,
            )
        if version != "editable":
            build_data["force_include"][str(root / MANIFEST)] = MANIFEST.as_posix()
            for path in made:
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
                build_data["force_include"][str(root / path)] = path.as_posix()
        for source, fallback in SOURCES.items():
            out = compile_module(Path(self.root), source, fallback)
            if out is None or version == "editable":
                continue
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            build_data["force_include"][str(out)] = f"{source.parent.as_posix()}/{out.name}"


def main() -> int:
    """``python hatch_build.py``: (re)build the compiled modules in place, as an editable install does."""
    root = Path(__file__).resolve().parent
    _made, reason = compile_engines(root)
    if reason is not None:
        print(f"boneyard: the engines were not compiled ({reason})", file=sys.stderr)
    for source, fallback in SOURCES.items():
        compile_module(root, source, fallback)
    return 0 if reason is None else 1


if __name__ == "__main__":
    sys.exit(main())
