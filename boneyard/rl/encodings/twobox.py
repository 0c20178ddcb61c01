"""Four-man two-box draw's RL encoding.

Actions (254): ``draw`` 0, ``pass`` 1, ``play T to A`` 2 + 4k + (A - 1) (A 1-4),
``stack T on A`` 114 + 5k + A (A 0-4; 0 is the spinner), k the tile kind (0-0 = 0 ...
6-6 = 27).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ...games.twobox.engine import Twobox as _Game
from ...games.twobox.engine import TwoboxAction
from ..encoding import KIND_INDEX, KINDS, TEXT_INDEX, Block, Buffer, Encoding, Teller, Told, counts, register, silent

PLAY, STACK = 2, 114
# A double's string -> its number (the spinner is a double).
_SPINNER_NUMBER = {str(t): t.high for t in KINDS if t.is_double}


@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass a game's encoding
class TwoboxEncoding(Encoding):
    """Two-box draw: a four-armed spinner, draws, plays and stacks."""

    game_id = "twobox"
    random_first_dealer = False  # the highest double opens
    phases = ("play", "over")
    verbs = ("holds", "sets", "draws", "plays", "stacks", "scores", "steals", "passes", "goes")
    told: ClassVar[Mapping[str, Teller]] = {
        "redeal": silent,
        "deal": silent,
        "dealt": Told("holds", tile="tiles"),
        "spinner": Told("sets", tile="tile"),
        "draw": Told("draws", tile="tile"),  # the tile for the drawer only
        "play": Told("plays", tile="tile"),
        "stack": Told("stacks", tile="tile"),
        "score": Told("scores"),
        "steal": Told("steals"),
        "pass": Told("passes"),
        "domino": Told("goes"),
        "blocked": silent,
        "hand_end": silent,
        "game_over": silent,
    }

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

    def action_name(self, index: Any) -> str:
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


    def fill(self, buf: Buffer, view: Mapping[str, Any]) -> None:
        """Write two-box's blocks from the view."""
        n = self.players
        rel = self.rel_of[view["seat"]]
        (at_hand, at_sizes, at_drawn, at_boneyard, at_spinner, at_arms, at_count, at_passed, at_steal, lay,
         at_target) = self.game_off
        index = TEXT_INDEX
        counts(buf, at_hand, view["hand"], 2, index, None)
        for s, k in enumerate(view["hand_sizes"]):
            buf[at_sizes + rel[s]] = k / 28 if k < 28 else 1.0
        for s, k in enumerate(view["drawn"]):
            if k:
                buf[at_drawn + rel[s]] = k / 28 if k < 28 else 1.0
        buf[at_boneyard] = view["boneyard"] / 56
        spinner = view["spinner"]
        buf[at_spinner + _SPINNER_NUMBER[spinner]] = 1.0
        if view["spinner_stacked_by"] is not None:
            buf[at_spinner + 7] = 1.0
            buf[lay + index[spinner]] += 1.0
        else:
            buf[lay + index[spinner]] += 0.5
        row = at_arms
        for arm in view["arms"]:
            end = arm["open_end"]
            buf[row + (0 if end is None else end + 1)] = 1.0
            tiles = arm["tiles"]
            if tiles:
                if tiles[-1]["stacked_by"] is None:
                    buf[row + 8] = 1.0
                k = len(tiles)
                buf[row + 9] = k / 14 if k < 14 else 1.0
                for e in tiles:
                    buf[lay + index[e["tile"]]] += 0.5 if e["stacked_by"] is None else 1.0
            row += 10
        c = view["count"] / 50
        buf[at_count] = c if c < 1.0 else 1.0
        buf[at_count + 1] = view["passes"] / n
        for s, numbers in enumerate(view["passed_on"]):
            base = at_passed + rel[s] * 7
            for x in numbers:
                buf[base + x] = 1.0
        steal = view["steal"]
        if steal is None:
            buf[at_steal + n] = 1.0
        else:
            buf[at_steal + rel[steal["seat"]]] = 1.0
            buf[at_steal + n + 1] = min(steal["points"] / 50, 1.0)
        buf[at_target] = min(view["target"] / 300, 1.0)


register(TwoboxEncoding)
