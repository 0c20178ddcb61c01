"""Build hook: compile boneyard's C extension modules.

``boneyard/games/rummikub/_rummikub_dp.c`` (the Rummikub arrangement search) and
``boneyard/bots/_twobox_playout.c`` (the two-box playouts of the ``ismcts`` bot) are plain
C against Python's C API. Each is compiled with the C compiler Python was built with
(``sysconfig``'s ``CC``) into ``<name><EXT_SUFFIX>``, next to its source, so that editable
installs find it in place; wheels include it. Without a compiler the build goes on and
each user falls back on pure Python: the Rummikub solver on its sweep (exact, but far
slower), the bot on playouts through the engine (far fewer per decision); ``make``
installs ``gcc`` first.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCES = {
    Path("boneyard/games/rummikub/_rummikub_dp.c"): "the Rummikub solver will use its slower pure-Python search",
    Path("boneyard/bots/_twobox_playout.c"): "the ismcts bot will play two-box out through the engine (fewer playouts)",
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


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles the modules before hatchling builds a wheel or an editable install."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the modules; a regular wheel then carries them and is tagged for this platform."""
        if self.target_name != "wheel":
            return
        for source, fallback in SOURCES.items():
            out = compile_module(Path(self.root), source, fallback)
            if out is None or version == "editable":
                continue
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            build_data["force_include"][str(out)] = f"{source.parent.as_posix()}/{out.name}"
