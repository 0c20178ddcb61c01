"""Greedy two-box: score now, block the count, keep doubles playable.

The heuristic, as a decent player would put it. Each play (or stack) is valued as:

- **Score now**: the points it scores (the open-end count after it, when a multiple of 5;
  with ``cutthroat`` a stack right after a scoring play steals that score).
- **Block the count**: minus half the points the next player could score on the layout it
  leaves, averaged over the tiles unseen by this seat, weighted by the chance he holds them.
- **Keep doubles playable**: a bonus for playing a double while its number is open, and a
  penalty for each double left in hand whose number shows on no open end.
- **Lighten the hand**: a little for heavy tiles, and a large bonus for going out.

Draw only when nothing can be played; pass only when nothing else is legal.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...tiles import Tile, double_six

_FULL = double_six(2)
_TILES = {str(t): t for t in _FULL}
BLOCK_WEIGHT = 0.5
DOUBLE_BONUS = 3.0
STRANDED_DOUBLE = 2.0
PIP_WEIGHT = 0.2
OUT_BONUS = 25.0


def tile(text: str) -> Tile:
    """A tile from its notation."""
    found = _TILES.get(text)
    return found if found is not None else Tile.parse(text)


class Layout:
    """The layout's arm ends as the view shows them: (last tile, outer end) per arm, the spinner."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.spinner = tile(view["spinner"]).high
        self.arms: list[tuple[Tile, int] | None] = []
        for arm in view["arms"]:
            tiles = arm["tiles"]
            self.arms.append((tile(tiles[-1]["tile"]), tiles[-1]["outer"]) if tiles else None)

    def ends(self) -> list[int | None]:
        """The number open on each arm (``None``: a tip not yet open)."""
        arms = self.arms
        ends: list[int | None] = [a[1] if a else self.spinner for a in arms]
        if not (arms[0] and arms[1]):
            ends[2] = ends[3] = None
        return ends

    def count(self, arms: list[tuple[Tile, int] | None] | None = None) -> int:
        """The open-end count (rule 5)."""
        arms = self.arms if arms is None else arms
        total = 0
        for arm in arms:
            if arm:
                t, outer = arm
                total += 2 * outer if t.is_double else outer
        if not (arms[0] and arms[1]):
            total += 2 * self.spinner
        return total

    def after(self, t: Tile, arm: int) -> int:
        """The count after playing ``t`` to arm ``arm`` (1-4)."""
        end = self.ends()[arm - 1]
        assert end is not None
        arms = list(self.arms)
        arms[arm - 1] = (t, t.other(end))
        return self.count(arms)

    def best_score(self, t: Tile) -> int:
        """The most ``t`` could score if played next."""
        best = 0
        for arm, end in enumerate(self.ends(), 1):
            if end is not None and t.has(end):
                c = self.after(t, arm)
                if c > 0 and c % 5 == 0:
                    best = max(best, c)
        return best


def unseen(view: dict[str, Any]) -> Counter[Tile]:
    """Tiles this seat has not seen: the others' hands and the boneyard."""
    pool = Counter(_FULL)
    pool.subtract(tile(t) for t in view["hand"])
    pool[tile(view["spinner"])] -= 1
    for arm in view["arms"]:
        for t in arm["tiles"]:
            pool[tile(t["tile"])] -= 2 if t.get("stacked_by") is not None else 1
    if view.get("spinner_stacked_by") is not None:
        pool[tile(view["spinner"])] -= 1
    return +pool


def choose(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """The greedy action for a two-box view."""
    texts = {str(a): a for a in legal_actions}
    plays = [k for k in texts if k.startswith(("play", "stack"))]
    if not plays:
        return texts["draw"] if "draw" in texts else legal_actions[0]
    layout = Layout(view)
    hand = [tile(t) for t in view["hand"]]
    rest = unseen(view)
    seat = view["seat"]
    nxt = (seat + 1) % view["players"]
    chance = view["hand_sizes"][nxt] / max(1, sum(rest.values()))
    return texts[max(plays, key=lambda k: (_value(k, view, layout, hand, rest, chance), k))]


def _value(text: str, view: dict[str, Any], layout: Layout, hand: list[Tile], rest: Counter[Tile], p: float) -> float:
    words = text.split()
    t = tile(words[1])
    where = int(words[3])
    left = list(hand)
    left.remove(t)
    if words[0] == "stack":
        steal = view.get("steal")
        if view["rules"].get("cutthroat") and steal and steal.get("points"):
            score = steal["points"] * (2 if t.is_double else 1) * 2  # gain plus the victim's loss
        else:
            c = layout.count()
            score = c if c > 0 and c % 5 == 0 else 0
        after = layout
    else:
        c = layout.after(t, where)
        score = c if c > 0 and c % 5 == 0 else 0
        after = Layout.__new__(Layout)
        after.spinner = layout.spinner
        after.arms = list(layout.arms)
        end = layout.ends()[where - 1]
        assert end is not None
        after.arms[where - 1] = (t, t.other(end))
    threat = p * sum(n * after.best_score(u) for u, n in rest.items())
    value = score - BLOCK_WEIGHT * threat + PIP_WEIGHT * t.pips
    if t.is_double:
        value += DOUBLE_BONUS
    open_numbers = {e for e in after.ends() if e is not None}
    value -= STRANDED_DOUBLE * sum(1 for u in left if u.is_double and u.high not in open_numbers)
    if not left:
        value += OUT_BONUS
    return value
