"""Four-man two-box draw's RL encoding.

Actions (254): ``draw`` 0, ``pass`` 1, ``play T to A`` 2 + 4k + (A - 1) (A 1-4),
``stack T on A`` 114 + 5k + A (A 0-4; 0 is the spinner), k the tile kind (0-0 = 0 ...
6-6 = 27).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...games.twobox import Twobox as _Game
from ...games.twobox import TwoboxAction
from ..encoding import KIND_INDEX, KINDS, Block, Encoding, Obs, register, tile

PLAY, STACK = 2, 114


def fallback_facts(players: int, rules: Mapping[str, Any]) -> dict[str, Any]:
    """Points; cutthroat steals can take a score below 0; the game stops at the target."""
    target = rules["target"]
    lo = -target if rules["cutthroat"] else 0
    return {"lower_is_better": False, "score_bounds": [lo, target + 300], "teams": False, "max_game_length": 8000}


@register
class TwoboxEncoding(Encoding):
    """Two-box draw: a four-armed spinner, draws, plays and stacks."""

    game_id = "twobox"
    phases = ("play", "over")
    verbs = ("holds", "sets", "draws", "plays", "stacks", "scores", "steals", "passes", "goes")

    def action_count(self) -> int:
        """draw, pass, 28 x 4 plays, 28 x 5 stacks."""
        return STACK + 5 * len(KINDS)

    def index(self, action: Any, view: Mapping[str, Any]) -> int:
        """The fixed index of a two-box action (see the module docstring)."""
        a: TwoboxAction = _Game.parse_action(action) if isinstance(action, str) else action
        if a.kind == "draw":
            return 0
        if a.kind == "pass":
            return 1
        assert a.tile is not None and a.arm is not None
        k = KIND_INDEX[a.tile]
        if a.kind == "play" and 1 <= a.arm <= 4:
            return PLAY + 4 * k + a.arm - 1
        if a.kind == "stack" and 0 <= a.arm <= 4:
            return STACK + 5 * k + a.arm
        raise ValueError(f"'{a}' can never be legal: arms are 1-4 (plays) and 0-4 (stacks)")

    def action_name(self, index: int) -> str:
        """The notation of the action at ``index``."""
        i = self.check_index(index)
        if i < PLAY:
            return ("draw", "pass")[i]
        if i < STACK:
            k, arm = divmod(i - PLAY, 4)
            return f"play {KINDS[k]} to {arm + 1}"
        k, arm = divmod(i - STACK, 5)
        return f"stack {KINDS[k]} on {arm}"

    def game_blocks(self) -> list[Block]:
        """Hand, boneyard, the spinner and its arms, passes, steals, the layout."""
        n = self.players
        return [
            Block("hand", 28, "my tiles: copies of each kind / 2"),
            Block("hand_sizes", n, "tiles in each relative seat's hand / 28 (capped at 1)"),
            Block("drawn", n, "tiles each relative seat drew this hand / 28 (capped at 1)"),
            Block("boneyard", 1, "tiles left in the boneyard / 56"),
            Block("spinner", 8, "one-hot of the spinner double's number; last: stacked already"),
            Block("arms", 4 * 10, "per arm: one-hot of the open end (closed, 0-6), end tile stackable, tiles / 14"),
            Block("count", 2, "the open-end count / 50, consecutive passes / players"),
            Block("passed_on", n * 7, "per relative seat, the numbers it passed on this hand"),
            Block("steal", n + 2, "a stealable score (cutthroat): scorer (relative, last: none), points / 50"),
            Block("layout", 28, "tiles on the table (spinner, arms, stacks): copies / 2"),
            Block("target", 1, "the target / 300"),
        ]

    def fill(self, obs: Obs, view: Mapping[str, Any]) -> None:
        """Write two-box's blocks from the view."""
        me = view["seat"]
        n = self.players
        at = obs.at
        self.count_tiles(at["hand"], view["hand"], 2)
        for s, k in enumerate(view["hand_sizes"]):
            at["hand_sizes"][self.rel(s, me)] = min(k / 28, 1.0)
        for s, k in enumerate(view["drawn"]):
            at["drawn"][self.rel(s, me)] = min(k / 28, 1.0)
        at["boneyard"][0] = view["boneyard"] / 56
        spinner = tile(view["spinner"])
        at["spinner"][spinner.high] = 1.0
        at["spinner"][7] = float(view["spinner_stacked_by"] is not None)
        layout = at["layout"]
        layout[KIND_INDEX[spinner]] += 0.5 * (2 if view["spinner_stacked_by"] is not None else 1)
        arms = at["arms"]
        for a, arm in enumerate(view["arms"]):
            end = arm["open_end"]
            arms[a * 10 + (0 if end is None else end + 1)] = 1.0
            tiles = arm["tiles"]
            if tiles:
                arms[a * 10 + 8] = float(tiles[-1]["stacked_by"] is None)
            arms[a * 10 + 9] = min(len(tiles) / 14, 1.0)
            for e in tiles:
                layout[KIND_INDEX[tile(e["tile"])]] += 0.5 * (2 if e["stacked_by"] is not None else 1)
        at["count"][0] = min(view["count"] / 50, 1.0)
        at["count"][1] = view["passes"] / n
        passed = at["passed_on"]
        for s, numbers in enumerate(view["passed_on"]):
            for x in numbers:
                passed[self.rel(s, me) * 7 + x] = 1.0
        steal = view["steal"]
        if steal is None:
            at["steal"][n] = 1.0
        else:
            at["steal"][self.rel(steal["seat"], me)] = 1.0
            at["steal"][n + 1] = min(steal["points"] / 50, 1.0)
        at["target"][0] = min(view["target"] / 300, 1.0)
