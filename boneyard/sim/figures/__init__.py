"""Game-specific simulation figures, one module per game, found by game id.

A game's module ``boneyard.sim.figures.<id>`` defines ``FIGURES`` (a :class:`Figures`
subclass fed every record of a run) and may define ``watch(view, memory, hand)``, a
watcher that tallies per-move facts the hand results do not keep (the runner then builds
a view at every move, calls it on each, and adds its tallies to the hand's record under
``"watched"``), and ``watching(rules)``, which says whether the watcher has anything to
watch under a run's rules options (when not, it is not run). Figures and watchers read
only what the records and views hold.

A game with no module (a new game, a plug-in) gets :class:`GenericFigures`, which works
for any game; games living outside ``boneyard`` join with :func:`register`. No list of
game ids is kept here: the module is looked up by name, and only "there is no module for
this game" falls back on the generic figures (an error inside a game's module is raised).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ...plugins import PerGame

# (view, memory kept across the whole game, the current hand's tallies) -> None
Watcher = Callable[[Mapping[str, Any], dict[str, Any], dict[str, Any]], None]
# (the run's rules options) -> whether the watcher has anything to watch under them
Watching = Callable[[Mapping[str, Any]], bool]


class Figures:
    """Game-specific figures: fed every record, reported as a JSON-ready dict."""

    def add(self, record: Mapping[str, Any]) -> None:
        """Take in one game's record."""

    def result(self) -> dict[str, Any]:
        """The figures so far."""
        return {}


def outcomes(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The hand results of a record (hands that ended with a result)."""
    return [h["outcome"] for h in record["hands"] if isinstance(h.get("outcome"), Mapping)]


class GenericFigures(Figures):
    """Figures for any game: the hands that ended with a result, and how often each short
    text field of those results took each value (how a hand ended, say).

    A result's text fields are the engine's own words (``last_result`` in its views), so
    a game with no figures module of its own still shows how its hands went.
    """

    MAX_VALUES = 12  # a field with more distinct values is not a category: left out

    def __init__(self) -> None:
        self.hands = 0
        self.fields: dict[str, Counter[str]] = {}

    def add(self, record: Mapping[str, Any]) -> None:
        """Count the record's hand results and their text fields."""
        for out in outcomes(record):
            self.hands += 1
            for key, value in out.items():
                if isinstance(value, str):
                    self.fields.setdefault(key, Counter())[value] += 1

    def result(self) -> dict[str, Any]:
        """Hands with a result and, per text field, each value's rate with a 95% CI."""
        from ..stats import rate

        return {
            "hands_with_a_result": self.hands,
            "results_by": {
                key: {value: rate(n, self.hands) for value, n in sorted(counts.items())}
                for key, counts in sorted(self.fields.items())
                if len(counts) <= self.MAX_VALUES
            },
        }


@dataclass(frozen=True)
class _Entry:
    figures: Callable[[], Figures]
    watch: Watcher | None
    watching: Watching | None = None


def _from_module(module: ModuleType) -> _Entry:
    return _Entry(module.FIGURES, getattr(module, "watch", None), getattr(module, "watching", None))


_ENTRIES: PerGame[_Entry] = PerGame(__name__, _from_module, _Entry(GenericFigures, None))


def register(
    game_id: str, figures: Callable[[], Figures], watch: Watcher | None = None, watching: Watching | None = None
) -> None:
    """Give a game (one living outside ``boneyard``, say) its figures and optional watcher.

    ``watching(rules)``, if given, says whether the watcher has anything to watch in games
    with those rules options; when it says no, the watcher is not run, and the simulator
    need not build a view at every move for it (views are the costliest part of a move).
    """
    _ENTRIES.register(game_id, _Entry(figures, watch, watching))


def unregister(game_id: str) -> None:
    """Remove what :func:`register` added (tests clean up with this)."""
    _ENTRIES.unregister(game_id)


def _entry(game_id: str) -> _Entry:
    """The registered entry, else the game's module, else the generic figures."""
    return _ENTRIES.get(game_id)


def figures_for(game_id: str) -> Figures:
    """A fresh figures object for a run of ``game_id`` (the generic one if the game has none)."""
    return _entry(game_id).figures()


def watcher_for(game_id: str, rules: Mapping[str, Any] | None = None) -> Watcher | None:
    """The game's per-move watcher, or ``None`` (also when, given the run's ``rules``, it would see nothing).

    A watcher is run on every move's view, which costs a view per move: a game whose
    watcher only tallies what some rules options allow (two-box's cutthroat steals)
    declares ``watching(rules)``, and with other options no watcher is run.
    """
    entry = _entry(game_id)
    if entry.watch is None or (rules is not None and entry.watching is not None and not entry.watching(rules)):
        return None
    return entry.watch
