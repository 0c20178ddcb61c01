"""Eighty's RL encoding (four seats, partners 0+2 and 1+3).

Actions (60): ``pass`` 0, ``bid 50`` ... ``bid 80`` 1-31, ``bid nel-o`` 32,
``trump 1`` ... ``trump 6`` 33-38, ``play T`` 39 + k (k: the tile's rank among the 21
blank-less kinds, 1-1 = 0 ... 6-6 = 20).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ...games.eighty.engine import MAX_BID, MIN_BID, EightyAction
from ...games.eighty.engine import Eighty as _Game
from ..encoding import (
    KIND_INDEX_NO_BLANK,
    KINDS_NO_BLANK,
    TEXT_INDEX_NO_BLANK,
    Block,
    Buffer,
    Encoding,
    Teller,
    Told,
    counts,
    register,
    silent,
)

BID, NELO, TRUMP, PLAY = 1, 32, 33, 39
_BID_SPAN = MAX_BID - MIN_BID
_OPTIONS = ("nello", "doubles_suit", "marks")
_LED_INDEX = {name: 1 + i for i, name in enumerate(("1", "2", "3", "4", "5", "6", "trump", "doubles"))}


@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass a game's encoding
class EightyEncoding(Encoding):
    """Eighty: one round of bids, trumps, ten tricks a hand."""

    game_id = "eighty"
    phases = ("bid", "trump", "play", "over")
    verbs = ("shuffles", "holds", "passes", "bids", "wins", "names", "plays", "took", "lays")
    told: ClassVar[Mapping[str, Teller]] = {
        "first_dealer": Told("shuffles"),
        "deal": silent,
        "dealt": Told("holds", tile="tiles"),
        "pass": Told("passes"),
        "bid": Told("bids"),
        "thrown_in": silent,
        "bid_won": Told("wins"),
        "nel_o": silent,
        "trump": Told("names"),
        "play": Told("plays", tile="tile"),
        "trick": Told("wins"),
        "nel_o_set": Told("took"),
        "hand_end": silent,
        "game_over": silent,
    }

    def action_count(self) -> int:
        """pass, 31 bids, nel-o, 6 trumps, 21 tiles."""
        return PLAY + len(KINDS_NO_BLANK)

    def index(self, action: Any, view: Mapping[str, Any]) -> int:
        """The fixed index of an Eighty action (see the module docstring)."""
        a: EightyAction = _Game.parse_action(action) if isinstance(action, str) else action
        if a.kind == "pass":
            return 0
        if a.kind == "nelo":
            return NELO
        if a.kind == "bid" and a.number is not None and MIN_BID <= a.number <= MAX_BID:
            return BID + a.number - MIN_BID
        if a.kind == "trump" and a.number is not None and 1 <= a.number <= 6:
            return TRUMP + a.number - 1
        if a.kind == "play" and a.tile in KIND_INDEX_NO_BLANK:
            return PLAY + KIND_INDEX_NO_BLANK[a.tile]
        raise ValueError(f"'{a}' can never be legal in Eighty")

    def action_name(self, index: Any) -> str:
        """The notation of the action at ``index``."""
        i = self.check_index(index)
        if i == 0:
            return "pass"
        if i < NELO:
            return f"bid {MIN_BID + i - BID}"
        if i == NELO:
            return "bid nel-o"
        if i < PLAY:
            return f"trump {i - TRUMP + 1}"
        return f"play {KINDS_NO_BLANK[i - PLAY]}"

    def game_blocks(self) -> list[Block]:
        """Hand, bidding, trumps, the trick, what has been played, the sides' count."""
        return [
            Block("hand", 21, "my tiles: copies of each blank-less kind / 2"),
            Block("shuffler", 4, "one-hot of the shuffler (relative)"),
            Block("bids", 4 * 5, "per relative seat: not yet, pass, a number bid, (bid - 50) / 30, nel-o"),
            Block("bidder", 5, "one-hot of the high bidder (relative); last: none yet"),
            Block("high_bid", 2, "(high bid - 50) / 30, and 1 for nel-o"),
            Block("trump", 7, "one-hot of trumps: none (yet, or nel-o), 1 to 6"),
            Block("sitting_out", 5, "one-hot of the nel-o partner sitting out (relative); last: nobody"),
            Block("hand_sizes", 4, "tiles in each relative seat's hand / 10"),
            Block("leader", 5, "one-hot of the trick's leader (relative); last: none"),
            Block("led", 9, "one-hot of the suit led: none, 1-6, trump, doubles"),
            Block("trick", 3 * (4 + 21), "the plays of the current trick in order: relative seat, tile"),
            Block("played", 21, "tiles played to tricks this hand: copies / 2"),
            Block("tricks_won", 4, "tricks won this hand per relative seat / 10"),
            Block("sides", 4, "my side's and the other side's points taken this hand / 80, count / 60"),
            Block("options", 3, "rules: nello, doubles_suit, marks"),
        ]


    def fill(self, buf: Buffer, view: Mapping[str, Any]) -> None:
        """Write Eighty's blocks from the view."""
        me = view["seat"]
        rel = self.rel_of[me]
        (at_hand, at_shuffler, at_bids, at_bidder, at_high, at_trump, at_out, at_sizes, at_leader, at_led, at_trick,
         at_played, at_won, at_sides, at_options) = self.game_off
        index = TEXT_INDEX_NO_BLANK
        counts(buf, at_hand, view["hand"], 2, index, None)
        buf[at_shuffler + rel[view["shuffler"]]] = 1.0
        for s, b in enumerate(view["bids"]):
            row = at_bids + rel[s] * 5
            if b is None:
                buf[row] = 1.0
            elif b == "pass":
                buf[row + 1] = 1.0
            elif b == "nel-o":
                buf[row + 4] = 1.0
            else:
                buf[row + 2] = 1.0
                buf[row + 3] = (b - MIN_BID) / _BID_SPAN
        bidder = view["bidder"]
        buf[at_bidder + (4 if bidder is None else rel[bidder])] = 1.0
        high = view["high_bid"]
        if high == "nel-o":
            buf[at_high + 1] = 1.0
        elif high is not None:
            buf[at_high] = (high - MIN_BID) / _BID_SPAN
        buf[at_trump + (view["trump"] or 0)] = 1.0
        out = view["sitting_out"]
        buf[at_out + (4 if out is None else rel[out])] = 1.0
        for s, k in enumerate(view["hand_sizes"]):
            buf[at_sizes + rel[s]] = k / 10
        leader = view["leader"]
        buf[at_leader + (4 if leader is None else rel[leader])] = 1.0
        led = view["led_suit"]
        buf[at_led + (0 if led is None else _LED_INDEX[led])] = 1.0
        trick = view["trick"]
        row = at_trick
        for p in trick[:3]:  # all of them: a trick is gathered at its fourth play
            buf[row + rel[p["seat"]]] = 1.0
            buf[row + 4 + index[p["tile"]]] = 1.0
            row += 25
        counts(buf, at_played, trick, 2, index, "tile")
        for t in view["tricks"]:
            counts(buf, at_played, t["plays"], 2, index, "tile")
        for s, k in enumerate(view["tricks_won"]):
            if k:
                buf[at_won + rel[s]] = k / 10
        sides = view["sides"]
        mine, theirs = sides[me % 2], sides[1 - me % 2]
        buf[at_sides] = mine["taken"] / 80
        buf[at_sides + 1] = theirs["taken"] / 80
        buf[at_sides + 2] = mine["count"] / 60
        buf[at_sides + 3] = theirs["count"] / 60
        rules = view["rules"]
        for j, name in enumerate(_OPTIONS):
            if rules[name]:
                buf[at_options + j] = 1.0


register(EightyEncoding)
