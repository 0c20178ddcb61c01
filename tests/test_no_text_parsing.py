"""Nobody parses what happened from text: every layer reads the typed events.

The engines log events (data); ``boneyard/words`` turns them into English for people,
and nothing reads that English back. This test scans the package's sources (Python,
JavaScript and C) for the ways text used to be parsed:

- the old history lines: a view's ``history`` key, ``Game.history``, ``_log`` calls;
- regular expressions or splits over log sentences: patterns that match the start of a
  history line ("seat 2 plays ...", "hand 3 over"), and ``re`` imported outside the few
  modules whose patterns read something else (named below, with what they read);
- a hand-written parser in C of history lines (the RL writers once had one).
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "boneyard"

# Modules that may use regular expressions, and what their patterns read (never history text).
RE_ALLOWED = {
    "server/tables.py": "table ids in paths",
    "server/hotpath.py": "request paths",
    "server/bodylimit.py": "request paths",
    "server/limitgate.py": "request paths",
    "bots/reasons.py": "tiles in action notation (what an action takes from the hand)",
}
# The old text protocol in code (prose, docstrings and comments are skipped): a view's
# "history" key (the observation block of that name, ``off["history"]``, is not it), the
# engines' ``history()`` and ``_log``, and the pages' readers of log lines.
OLD_TEXT = [
    re.compile(r"""(?<!off)\[\s*["']history["']\s*\]"""),
    re.compile(r"""\.get\(\s*["']history["']"""),
    re.compile(r"\b(game|g|table\.game)\.history\(|\bview\.history\b"),
    re.compile(r"\b_log\("),
    re.compile(r"history_start|history_from|linesSince|finalTrick|nameSeats"),
]
# Patterns that read a log line's words: "seat N <verb>", "hand N over", "wins trick".
LINE_PATTERNS = re.compile(r"""(\^seat|seat \(\\d|seat \\d|hand \\d\+ \(?over|wins trick|\\bholds\\b)""")


def sources(*suffixes: str) -> list[Path]:
    """The package's source files with these suffixes (built products and vendored files aside)."""
    return sorted(p for p in PACKAGE.rglob("*") if p.suffix in suffixes and p.is_file() and ".so" not in p.name)


def code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a source that are code: comments and Python docstrings left out."""
    out = []
    in_doc = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        stripped = line.strip()
        if path.suffix == ".py" and (stripped.startswith('"""') or stripped.startswith("'''")):
            quotes = stripped[:3]
            if not (len(stripped) >= 6 and stripped.endswith(quotes)):
                in_doc = not in_doc
            continue
        if in_doc or stripped.startswith(("#", "//", "*", "/*")):
            continue
        out.append((number, line))
    return out


def test_no_layer_reads_history_text() -> None:
    found = []
    for path in sources(".py", ".js", ".c"):
        rel = path.relative_to(PACKAGE).as_posix()
        for number, line in code_lines(path):
            for pattern in OLD_TEXT:
                if pattern.search(line):
                    found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, "history text is still read:\n" + "\n".join(found)


def test_no_pattern_matches_a_log_sentence() -> None:
    found = []
    for path in sources(".py", ".js", ".c"):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("words/"):
            continue  # the renderers make the sentences
        for number, line in code_lines(path):
            if LINE_PATTERNS.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, "a pattern reads log sentences:\n" + "\n".join(found)


def test_regular_expressions_only_where_they_read_something_else() -> None:
    users = set()
    for path in sources(".py"):
        rel = path.relative_to(PACKAGE).as_posix()
        if any(re.match(r"\s*(import re\b|from re import)", line) for _, line in code_lines(path)):
            users.add(rel)
    unexpected = sorted(users - set(RE_ALLOWED))
    assert not unexpected, f"re is imported by {unexpected}: say what its patterns read in RE_ALLOWED, or read data"


def test_no_c_module_parses_text_lines() -> None:
    for path in sources(".c"):
        text = path.read_text(encoding="utf-8")
        assert "history" not in text, f"{path.name} still reads history lines"
