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
from ...games.rounce.engine import RounceAction
from ..encoding import KIND_INDEX, KINDS, TEXT_INDEX, Block, Buffer, Encoding, Teller, Told, counts, register, silent

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

    def game_blocks(self) -> list[Block]:
        """Hand, discards, trump, turn-up, calls, the trick and what has been played."""
        n = self.players
        return [
            Block("hand", 28, "my tiles (one-hot per kind)"),
            Block("discarded", 28, "my face-down discards this hand"),
            Block("trump", 7, "one-hot of the trump number"),
            Block("turn_up", 29, "one-hot of the turn-up tile; last entry: taken by the dealer"),
            Block("dealer", n, "one-hot of the dealer (relative)"),
            Block("calls", n * 6, "per relative seat, one-hot of its call: none, pass, fold, dummy, take, defend"),
            Block("counts", 5, "defending, dummies / 2, discards due / 2, boneyard / 28, tiles out / 28"),
            Block("hand_sizes", n, "tiles in each relative seat's hand / 7"),
            Block("leader", n + 1, "one-hot of the trick's leader (relative); last: none"),
            Block("led", 8, "one-hot of the suit led in the current trick (0-6); last: no trick led yet"),
            Block("trick", (n - 1) * (n + 28), "the plays of the current trick in order: relative seat, tile"),
            Block("played", 28, "tiles played to tricks this hand"),
            Block("tricks_won", n, "tricks won this hand per relative seat / 5"),
        ]


    def fill(self, buf: Buffer, view: Mapping[str, Any]) -> None:
        """Write Rounce's blocks from the view."""
        rel = self.rel_of[view["seat"]]
        n = self.players
        (at_hand, at_discarded, at_trump, at_turn_up, at_dealer, at_calls, at_counts, at_sizes, at_leader, at_led,
         at_trick, at_played, at_won) = self.game_off
        index = TEXT_INDEX
        counts(buf, at_hand, view["hand"], 1, index, None)
        counts(buf, at_discarded, view["discarded"], 1, index, None)
        buf[at_trump + view["trump"]] = 1.0
        buf[at_turn_up + index[view["turn_up"]]] = 1.0
        if view["turn_up_taken"]:
            buf[at_turn_up + 28] = 1.0
        buf[at_dealer + rel[view["dealer"]]] = 1.0
        call = _CALL_INDEX
        for s, c in enumerate(view["calls"]):
            buf[at_calls + rel[s] * 6 + call[c]] = 1.0
        if view["defending"]:
            buf[at_counts] = 1.0
        buf[at_counts + 1] = view["dummies"] / 2
        buf[at_counts + 2] = view["discards_due"] / 2
        buf[at_counts + 3] = view["boneyard"] / 28
        buf[at_counts + 4] = view["out"] / 28
        for s, k in enumerate(view["hand_sizes"]):
            buf[at_sizes + rel[s]] = k / 7
        leader = view["leader"]
        buf[at_leader + (n if leader is None else rel[leader])] = 1.0
        trick = view["trick"]
        if trick:
            suit = trick[0]["suit"]
            buf[at_led + (7 if suit is None else suit)] = 1.0
            row = at_trick
            for p in trick[: n - 1]:  # all of them: a trick is gathered at its last play
                buf[row + rel[p["seat"]]] = 1.0
                buf[row + n + index[p["tile"]]] = 1.0
                row += n + 28
            counts(buf, at_played, trick, 1, index, "tile")
        else:
            buf[at_led + 7] = 1.0
        for t in view["tricks"]:
            counts(buf, at_played, t["plays"], 1, index, "tile")
        for s, k in enumerate(view["tricks_won"]):
            if k:
                buf[at_won + rel[s]] = k / 5


register(RounceEncoding)
