"""Rummikub hints: the solver's best play for one seat, built from that seat's view alone.

The hint reads only what ``view(seat)`` shows (the table's groups, the seat's own hand,
whether it has opened, the rules) and asks the public solver API in
``boneyard.games.rummikub_solver`` for the play that lays the most hand tiles. It never
touches the game's hidden state; the server then only checks that the suggested action
is legal now, as it would for any action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boneyard.tiles import Tile

TABLE_KEYS = ("table", "groups", "melds", "sets")
DISTINCT_KEYS = ("distinct_sums", "distinct", "no_repeats")
# States the solver may visit for one hint (ten times the engine's budget for listing plays).
HINT_BUDGET = 200_000


def table_groups(view: dict[str, Any]) -> list[list[str]]:
    """The table's groups as lists of tile strings, whatever the view calls them."""
    for key in TABLE_KEYS:
        groups = view.get(key)
        if isinstance(groups, list):
            out = []
            for g in groups:
                tiles = g.get("tiles", []) if isinstance(g, dict) else g
                out.append([str(t) for t in tiles])
            return out
    return []


def _opened(view: dict[str, Any]) -> bool:
    """Whether the view's seat has played its starting group (True when the view does not say)."""
    seat = view.get("seat")
    for key in ("opened", "has_opened", "started"):
        value = view.get(key)
        if isinstance(value, bool):
            return value
        if isinstance(value, list) and isinstance(seat, int) and 0 <= seat < len(value):
            return bool(value[seat])
    return True


def _distinct(view: dict[str, Any]) -> bool:
    rules = view.get("rules") or {}
    return any(bool(rules.get(k)) for k in DISTINCT_KEYS)


def play_text(groups: list[list[str]]) -> str:
    """The action notation for a whole table: ``play 5-3 5-4 5-5 | 4-3 5-2 6-1``."""
    return "play " + " | ".join(" ".join(g) for g in groups)


def rummikub_hint(view: dict[str, Any], is_legal: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """The best play for the view's seat: ``{action, tiles, count, pips, exact, why}``.

    ``action`` is ``None`` when no hand tile can be played (``why`` then says so: draw or
    pass). ``is_legal`` (optional) vets the solver's answer against the rules as the
    engine applies them; a refused answer is reported rather than suggested.
    """
    from boneyard.games import rummikub_solver as solver

    hand = [Tile.parse(t) for t in view.get("hand") or []]
    groups = table_groups(view)
    distinct = _distinct(view)
    if not hand:
        return {"action": None, "tiles": [], "count": 0, "pips": 0, "why": "your hand is empty"}
    if not _opened(view):
        opening = solver.best_opening(hand, distinct)
        if opening is None:
            return {"action": None, "tiles": [], "count": 0, "pips": 0,
                    "why": "no starting group (three tiles in a run or of one pip total) in your hand: draw"}
        new = [str(t) for t in solver.order_group(list(opening))]
        action = play_text([*groups, new]) if groups else play_text([new])
        played = list(opening)
        exact = True
    else:
        grouped = [[Tile.parse(t) for t in g] for g in groups]
        table = [t for g in grouped for t in g]
        # the present grouping speeds the exact search up; the budget bounds it on dense
        # tables (past it the solver answers with its quick play, marked not exact)
        best = solver.best_play(table, hand, distinct, groups=grouped, budget=HINT_BUDGET)
        if best is None:
            return {"action": None, "tiles": [], "count": 0, "pips": 0,
                    "why": "no tile of your hand fits the table: draw (or pass when the boneyard is empty)"}
        action = play_text([[str(t) for t in g] for g in best.table])
        played = list(best.played)
        exact = best.exact
    result = {"action": action, "tiles": [str(t) for t in played], "count": len(played),
              "pips": sum(t.pips for t in played), "exact": exact,
              "why": f"plays {len(played)} tile{'s' if len(played) != 1 else ''}"}
    if is_legal is not None and not is_legal(action):
        result.update(action=None, why="the solver's play is not legal now under this table's rules")
    return result
