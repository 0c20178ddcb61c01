"""Rummikub hints: the solver's best play for one seat, built from that seat's view alone.

The hint reads only what ``view(seat)`` shows (the table's groups, the seat's own hand,
whether it has opened, the rules) and asks the public solver API in
``boneyard.games.rummikub.solver`` (group rules and notation:
``boneyard.games.rummikub.groups``) for the play that lays the most hand tiles. It never
touches the game's hidden state; the server then only checks that the suggested action
is legal now, as it would for any action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boneyard.games.rummikub.engine import distinct_sums, table_groups
from boneyard.games.rummikub.engine import has_opened as opened
from boneyard.games.rummikub.groups import best_opening, order_group
from boneyard.games.rummikub.groups import play_notation as play_text
from boneyard.tiles import Tile

# States (or depth-first nodes) the solver may visit for one hint; real tables need far fewer.
HINT_BUDGET = 200_000


def hint(view: dict[str, Any], is_legal: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """The best play for the view's seat: ``{action, tiles, count, pips, exact, why}``.

    ``action`` is ``None`` when no hand tile can be played (``why`` then says so: draw or
    pass). ``is_legal`` (optional) vets the solver's answer against the rules as the
    engine applies them; a refused answer is reported rather than suggested.
    """
    from boneyard.games.rummikub import solver

    hand = [Tile.parse(t) for t in view.get("hand") or []]
    groups = table_groups(view)
    distinct = distinct_sums(view)
    if not hand:
        return {"action": None, "tiles": [], "count": 0, "pips": 0, "why": "your hand is empty"}
    if not opened(view):
        opening = best_opening(hand, distinct)
        if opening is None:
            return {"action": None, "tiles": [], "count": 0, "pips": 0,
                    "why": "no starting group (three tiles in a run or of one pip total) in your hand: draw"}
        new = [str(t) for t in order_group(list(opening))]
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
