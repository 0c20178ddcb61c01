"""Domino Rounce's RL encoding.

Actions (103): ``pass`` 0, ``fold`` 1, ``dummy`` 2, ``defend`` 3, ``take`` 4;
``discard T`` 5 + k and ``play T`` 33 + k (k: the tile kind, 0-0 = 0 ... 6-6 = 27);
``play T as S`` for the 21 non-doubles: 61 + 2j (S the high end) or 61 + 2j + 1 (S the
low end), j the tile's rank among the non-doubles. A lead naming a suit the tile does not
show, or naming a suit for a double, is never legal and lies outside the space.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ...games.rounce.engine import Rounce as _Game
from ...games.rounce.engine import RounceAction, placement
from ..encoding import KIND_INDEX, KINDS, Encoding, Teller, Told, register, silent, tile
from ..layout import Block, Each, Flag, If, Lookup, Number, OneTile, Scale, Seat, Seats, Set, Tiles

_WORDS = ("pass", "fold", "dummy", "defend", "take")
_CALLS = ("pass", "fold", "dummy", "take", "defend")
_CALL_INDEX: dict[str | None, int] = {None: 0, **{c: 1 + i for i, c in enumerate(_CALLS)}}
_PLAIN = [t for t in KINDS if not t.is_double]
_PLAIN_INDEX = {t: j for j, t in enumerate(_PLAIN)}
DISCARD, PLAY, NAMED = 5, 33, 61


@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass a game's encoding
class RounceEncoding(Encoding):
    """Rounce: calls, face-down discards and five tricks a hand."""

    game_id = "rounce"
    phases = ("call", "discard", "defend", "play", "over")
    verbs = (
        "deals", "holds", "passes", "folds", "calls", "draws", "takes", "defends", "discards", "plays", "wins", "is",
    )
    told: ClassVar[Mapping[str, Teller]] = {
        "first_dealer": Told("deals"),
        "deal": silent,
        "dealt": Told("holds", tile="tiles"),
        "pass": Told("passes"),
        "fold": Told("folds"),
        "dummy": Told("calls"),
        "dummy_tiles": Told("draws", tile="tiles"),
        "take": Told("takes", tile="tile"),
        "defend": Told("defends"),
        "play_on": Told("plays"),
        "discard": Told("discards", tile="tile"),  # the tile for the discarder only
        "walkover": Told("is"),
        "play": Told("plays", tile="tile"),
        "trick": Told("wins"),
        "rounced": Told("is"),
        "hand_end": silent,
        "game_over": silent,
    }
    derived = ("played_by", "shown_out")
    derived_from = ("events", "trump")

    def action_count(self) -> int:
        """5 words, 28 discards, 28 plays, 42 leads naming a suit."""
        return NAMED + 2 * len(_PLAIN)

    def index(self, action: Any, view: Mapping[str, Any]) -> int:
        """The fixed index of a Rounce action (see the module docstring)."""
        a: RounceAction = _Game.parse_action(action) if isinstance(action, str) else action
        if a.tile is None:
            return _WORDS.index(a.kind)
        k = KIND_INDEX[a.tile]
        if a.kind == "discard":
            return DISCARD + k
        if a.suit is None:
            return PLAY + k
        if a.tile.is_double or not a.tile.has(a.suit):
            raise ValueError(f"'{a}' can never be legal: only a non-double names one of its own ends")
        return NAMED + 2 * _PLAIN_INDEX[a.tile] + (0 if a.suit == a.tile.high else 1)

    def action_name(self, index: Any) -> str:
        """The notation of the action at ``index``."""
        i = self.check_index(index)
        if i < DISCARD:
            return _WORDS[i]
        if i < PLAY:
            return f"discard {KINDS[i - DISCARD]}"
        if i < NAMED:
            return f"play {KINDS[i - PLAY]}"
        t = _PLAIN[(i - NAMED) // 2]
        return f"play {t} as {t.high if (i - NAMED) % 2 == 0 else t.low}"

    def derive(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Per seat, the tiles it played to tricks this hand, and the suits it has shown out of.

        A seat shows out of the led suit when its play does not count in it (the engine's
        ``placement``: a trump lead asks for trumps, a plain lead for its named suit).
        """
        trump = view["trump"]
        out: list[list[int]] = [[] for _ in range(self.players)]
        for trick in self.tricks_played(view):
            lead = trick[0]
            led = placement(tile(lead["tile"]), trump, None, lead.get("suit"))[0]
            for play in trick[1:]:
                if placement(tile(play["tile"]), trump, led)[0] != led and led not in out[play["seat"]]:
                    out[play["seat"]].append(led)
        return {"played_by": self.plays_by_seat(view, {"play": "tile"}), "shown_out": out}

    def game_blocks(self) -> list[Block]:
        """Hand, discards, trump, turn-up, calls, the trick and what has been played."""
        n = self.players
        return [
            Block("hand", 28, "my tiles (one-hot per kind)", (Tiles(0, "hand"),)),
            Block("discarded", 28, "my face-down discards this hand", (Tiles(0, "discarded"),)),
            Block("trump", 7, "one-hot of the trump number", (Number(0, "trump", 7),)),
            Block("turn_up", 29, "one-hot of the turn-up tile; last entry: taken by the dealer",
                  (OneTile(0, "turn_up"), Flag(28, "turn_up_taken"))),
            Block("dealer", n, "one-hot of the dealer (relative)", (Seat(0, "dealer"),)),
            Block("calls", n * 6, "per relative seat, one-hot of its call: none, pass, fold, dummy, take, defend",
                  (Seats(0, "calls", 6, (Lookup(0, (), _CALL_INDEX),)),)),
            Block("counts", 5, "defending, dummies / 2, discards due / 2, boneyard / 28, tiles out / 28",
                  (Flag(0, "defending"), Scale(1, "dummies", 2), Scale(2, "discards_due", 2),
                   Scale(3, "boneyard", 28), Scale(4, "out", 28))),
            Block("hand_sizes", n, "tiles in each relative seat's hand / 7",
                  (Seats(0, "hand_sizes", 1, (Scale(0, (), 7),)),)),
            Block("leader", n + 1, "one-hot of the trick's leader (relative); last: none",
                  (Seat(0, "leader", none=n),)),
            Block("led", 8, "one-hot of the suit led in the current trick (0-6); last: no trick led yet",
                  (If("trick", (Number(0, ("trick", 0, "suit"), 7, none=7),), (Set(7),)),)),
            # Every play of the trick: a trick is gathered at its last play.
            Block("trick", (n - 1) * (n + 28), "the plays of the current trick in order: relative seat, tile",
                  (Each(0, "trick", n + 28, (Seat(0, "seat"), OneTile(n, "tile")), most=n - 1),)),
            Block("played", 28, "tiles played to tricks this hand",
                  (Tiles(0, "trick", key="tile"), Each(0, "tricks", 0, (Tiles(0, "plays", key="tile"),)))),
            Block("tricks_won", n, "tricks won this hand per relative seat / 5",
                  (Seats(0, "tricks_won", 1, (Scale(0, (), 5),)),)),
            Block("played_by", n * 28, "per relative seat, the tiles it played to tricks this hand (from the events)",
                  (Seats(0, "played_by", 28, (Tiles(0, ()),)),)),
            Block("shown_out", n * 7, "per relative seat, the suits (0-6) it did not follow when led this hand: void",
                  (Seats(0, "shown_out", 7, (Each(0, (), 0, (Number(0, (), 7),)),)),)),
        ]


register(RounceEncoding)
