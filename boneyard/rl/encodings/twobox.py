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
from ..encoding import KIND_INDEX, KINDS, Encoding, Teller, Told, register, silent
from ..layout import Block, Each, Equals, Length, Lookup, Match, Number, OneTile, Scale, Seat, Seats, Set, Tiles, Weight

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
    derived = ("played_by",)

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

    def derive(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Per seat, the tiles it put on the table this hand: the spinner, plays and stacks."""
        return {"played_by": self.plays_by_seat(view, {"spinner": "tile", "play": "tile", "stack": "tile"})}

    def game_blocks(self) -> list[Block]:
        """Hand, boneyard, the spinner and its arms, passes, steals, the layout."""
        n = self.players
        # A tile on the table counts a half, a stacked one (the tile and the one under it) a whole.
        copies = Weight("stacked_by", {None: 0.5}, 1.0)
        return [
            Block("hand", 28, "my tiles: copies of each kind / 2", (Tiles(0, "hand", 2),)),
            Block("hand_sizes", n, "tiles in each relative seat's hand / 28 (capped at 1)",
                  (Seats(0, "hand_sizes", 1, (Scale(0, (), 28, hi=1.0),)),)),
            Block("drawn", n, "tiles each relative seat drew this hand / 28 (capped at 1)",
                  (Seats(0, "drawn", 1, (Scale(0, (), 28, hi=1.0),)),)),
            Block("boneyard", 1, "tiles left in the boneyard / 56", (Scale(0, "boneyard", 56),)),
            Block("spinner", 8, "one-hot of the spinner double's number; last: stacked already",
                  (Lookup(0, "spinner", _SPINNER_NUMBER), Equals(7, "spinner_stacked_by", None, negate=True))),
            Block("arms", 4 * 10, "per arm: one-hot of the open end (closed, 0-6), end tile stackable, tiles / 14",
                  (Each(0, "arms", 10, (
                      Number(0, "open_end", 8, shift=1, none=0),
                      Equals(8, ("tiles", -1, "stacked_by"), None, absent_ok=True),  # (an arm with no tiles: 0)
                      Length(9, "tiles", 14, hi=1.0),
                  ), most=4),)),
            Block("count", 2, "the open-end count / 50, consecutive passes / players",
                  (Scale(0, "count", 50, hi=1.0), Scale(1, "passes", n))),
            Block("passed_on", n * 7, "per relative seat, the numbers it passed on this hand",
                  (Seats(0, "passed_on", 7, (Each(0, (), 0, (Number(0, (), 7),)),)),)),
            Block("steal", n + 2, "a stealable score (cutthroat): scorer (relative, last: none), points / 50",
                  (Match("steal", {None: (Set(n),)},
                         (Seat(0, ("steal", "seat")), Scale(n + 1, ("steal", "points"), 50, hi=1.0))),)),
            Block("layout", 28, "tiles on the table (spinner, arms, stacks): copies / 2",
                  (Match("spinner_stacked_by", {None: (OneTile(0, "spinner", 0.5, add=True),)},
                         (OneTile(0, "spinner", 1.0, add=True),)),
                   Each(0, "arms", 0, (Tiles(0, "tiles", key="tile", weight=copies),)))),
            Block("target", 1, "the target / 300", (Scale(0, "target", 300, hi=1.0),)),
            Block("played_by", n * 28, "per relative seat, the tiles it put on the table this hand (spinner, plays, "
                  "stacks; from the events): copies / 2",
                  (Seats(0, "played_by", 28, (Tiles(0, (), 2),)),)),
        ]


register(TwoboxEncoding)
