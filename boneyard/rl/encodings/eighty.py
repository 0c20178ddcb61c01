"""Eighty's RL encoding (four seats, partners 0+2 and 1+3).

Actions (60): ``pass`` 0, ``bid 50`` ... ``bid 80`` 1-31, ``bid nel-o`` 32,
``trump 1`` ... ``trump 6`` 33-38, ``play T`` 39 + k (k: the tile's rank among the 21
blank-less kinds, 1-1 = 0 ... 6-6 = 20).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ...games.eighty.engine import MAX_BID, MIN_BID, EightyAction, tables
from ...games.eighty.engine import Eighty as _Game
from ..encoding import (
    KIND_INDEX_NO_BLANK,
    KINDS_NO_BLANK,
    TEXT_INDEX_NO_BLANK,
    Encoding,
    Teller,
    Told,
    register,
    silent,
    tile,
)
from ..layout import Block, Each, Flag, Lookup, Match, Number, OneTile, Scale, Seat, Seats, Set, Tiles

BID, NELO, TRUMP, PLAY = 1, 32, 33, 39
_BID_SPAN = MAX_BID - MIN_BID
_OPTIONS = ("nello", "doubles_suit", "marks")
_LED_INDEX: dict[str | None, int] = {
    None: 0, **{name: 1 + i for i, name in enumerate(("1", "2", "3", "4", "5", "6", "trump", "doubles"))}
}


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
    derived = ("played_by", "shown_out")
    derived_from = ("events", "trump")

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

    def derive(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Per seat, the tiles it played this hand, and the suits it has shown out of.

        A seat shows out of the led suit when its tile does not belong to it, by the
        engine's own trick tables for the hand's trumps (none in nel-o) and doubles rule.
        """
        tabs = tables(view["trump"] or 0, bool(self.rules["doubles_suit"]))
        out: list[list[int]] = [[] for _ in range(self.players)]
        for trick in self.tricks_played(view):
            led = tabs.lead_suit[tile(trick[0]["tile"]).key]
            member = tabs.member[led]
            for play in trick[1:]:
                if not member[tile(play["tile"]).key] and led not in out[play["seat"]]:
                    out[play["seat"]].append(led)
        return {"played_by": self.plays_by_seat(view, {"play": "tile"}), "shown_out": out}

    def game_blocks(self) -> list[Block]:
        """Hand, bidding, trumps, the trick, what has been played, the sides' count."""
        index = TEXT_INDEX_NO_BLANK
        return [
            Block("hand", 21, "my tiles: copies of each blank-less kind / 2", (Tiles(0, "hand", 2, index=index),)),
            Block("shuffler", 4, "one-hot of the shuffler (relative)", (Seat(0, "shuffler"),)),
            Block("bids", 4 * 5, "per relative seat: not yet, pass, a number bid, (bid - 50) / 30, nel-o",
                  (Seats(0, "bids", 5, (Match((), {None: (Set(0),), "pass": (Set(1),), "nel-o": (Set(4),)},
                                              (Set(2), Scale(3, (), _BID_SPAN, shift=MIN_BID))),)),)),
            Block("bidder", 5, "one-hot of the high bidder (relative); last: none yet", (Seat(0, "bidder", none=4),)),
            Block("high_bid", 2, "(high bid - 50) / 30, and 1 for nel-o",
                  (Match("high_bid", {"nel-o": (Set(1),), None: ()},
                         (Scale(0, "high_bid", _BID_SPAN, shift=MIN_BID),)),)),
            Block("trump", 7, "one-hot of trumps: none (yet, or nel-o), 1 to 6", (Number(0, "trump", 7, none=0),)),
            Block("sitting_out", 5, "one-hot of the nel-o partner sitting out (relative); last: nobody",
                  (Seat(0, "sitting_out", none=4),)),
            Block("hand_sizes", 4, "tiles in each relative seat's hand / 10",
                  (Seats(0, "hand_sizes", 1, (Scale(0, (), 10),)),)),
            Block("leader", 5, "one-hot of the trick's leader (relative); last: none", (Seat(0, "leader", none=4),)),
            Block("led", 9, "one-hot of the suit led: none, 1-6, trump, doubles", (Lookup(0, "led_suit", _LED_INDEX),)),
            # Every play of the trick: a trick is gathered at its fourth play.
            Block("trick", 3 * (4 + 21), "the plays of the current trick in order: relative seat, tile",
                  (Each(0, "trick", 25, (Seat(0, "seat"), OneTile(4, "tile", index=index)), most=3),)),
            Block("played", 21, "tiles played to tricks this hand: copies / 2",
                  (Tiles(0, "trick", 2, key="tile", index=index),
                   Each(0, "tricks", 0, (Tiles(0, "plays", 2, key="tile", index=index),)))),
            Block("tricks_won", 4, "tricks won this hand per relative seat / 10",
                  (Seats(0, "tricks_won", 1, (Scale(0, (), 10),)),)),
            # sides[0] holds seats 0 and 2, sides[1] seats 1 and 3: the observer's side first.
            Block("sides", 4, "my side's and the other side's points taken this hand / 80, count / 60",
                  (Seats(0, "sides", 1, (Scale(0, "taken", 80), Scale(2, "count", 60)), modulus=2),)),
            Block("options", 3, "rules: nello, doubles_suit, marks",
                  tuple(Flag(j, ("rules", name)) for j, name in enumerate(_OPTIONS))),
            Block("played_by", 4 * 21, "per relative seat, the tiles it played this hand (from the events): copies / 2",
                  (Seats(0, "played_by", 21, (Tiles(0, (), 2, index=index),)),)),
            Block("shown_out", 4 * 8, "per relative seat, the suits it did not follow when led this hand (void): "
                  "1-6, trump, doubles",
                  (Seats(0, "shown_out", 8, (Each(0, (), 0, (Number(0, (), 8, shift=-1),)),)),)),
        ]


register(EightyEncoding)
