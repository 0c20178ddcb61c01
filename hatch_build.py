"""Build hook: compile the Rummikub arrangement search into an extension module.

``boneyard/games/_rummikub_dp.c`` is plain C against Python's C API. It is compiled with
the C compiler Python was built with (``sysconfig``'s ``CC``) into
``boneyard/games/_rummikub_dp<EXT_SUFFIX>``, next to its source, so that editable installs
find it in place; wheels include it. Without a compiler the build goes on and the solver
uses its pure-Python sweep (exact, but far slower); ``make`` installs ``gcc`` first.
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

SOURCE = Path("boneyard/games/_rummikub_dp.c")


def compile_search(root: Path) -> Path | None:
    """Compile the search; the built module's path, or ``None`` (with a warning) when it cannot be built."""
    src = root / SOURCE
    out = src.with_name("_rummikub_dp" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
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
    print(f"boneyard: could not compile {SOURCE} ({'; '.join(problems)}); "
          "the Rummikub solver will use its slower pure-Python search", file=sys.stderr)
    return None


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles the search before hatchling builds a wheel or an editable install."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the module; a regular wheel then carries it and is tagged for this platform."""
        if self.target_name != "wheel":
            return
        out = compile_search(Path(self.root))
        if out is None or version == "editable":
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        build_data["force_include"][str(out)] = f"boneyard/games/{out.name}"
