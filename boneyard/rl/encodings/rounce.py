"""Domino Rounce's RL encoding.

Actions (103): ``pass`` 0, ``fold`` 1, ``dummy`` 2, ``defend`` 3, ``take`` 4;
``discard T`` 5 + k and ``play T`` 33 + k (k: the tile kind, 0-0 = 0 ... 6-6 = 27);
``play T as S`` for the 21 non-doubles: 61 + 2j (S the high end) or 61 + 2j + 1 (S the
low end), j the tile's rank among the non-doubles. A lead naming a suit the tile does not
show, or naming a suit for a double, is never legal and lies outside the space.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...games.rounce.engine import Rounce as _Game
from ...games.rounce.engine import RounceAction
from ..encoding import KIND_INDEX, KINDS, TEXT_INDEX, Block, Encoding, Obs, register

_WORDS = ("pass", "fold", "dummy", "defend", "take")
_CALLS = ("pass", "fold", "dummy", "take", "defend")
_CALL_INDEX = {c: 1 + i for i, c in enumerate(_CALLS)}
_PLAIN = [t for t in KINDS if not t.is_double]
_PLAIN_INDEX = {t: j for j, t in enumerate(_PLAIN)}
DISCARD, PLAY, NAMED = 5, 33, 61



@register
class RounceEncoding(Encoding):
    """Rounce: calls, face-down discards and five tricks a hand."""

    game_id = "rounce"
    phases = ("call", "discard", "defend", "play", "over")
    verbs = (
        "deals", "holds", "passes", "folds", "calls", "draws", "takes", "defends", "discards", "plays", "wins", "is",
    )

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

    def action_name(self, index: int) -> str:
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

    def fill(self, obs: Obs, view: Mapping[str, Any]) -> None:
        """Write Rounce's blocks from the view."""
        me = view["seat"]
        n = self.players
        o = self.off
        rel = self.rel_of[me]
        buf = obs.buf
        obs.counts(o["hand"], view["hand"], 1)
        obs.counts(o["discarded"], view["discarded"], 1)
        buf[o["trump"] + view["trump"]] = 1.0
        buf[o["turn_up"] + TEXT_INDEX[view["turn_up"]]] = 1.0
        if view["turn_up_taken"]:
            buf[o["turn_up"] + 28] = 1.0
        buf[o["dealer"] + rel[view["dealer"]]] = 1.0
        base = o["calls"]
        for s, c in enumerate(view["calls"]):
            buf[base + rel[s] * 6 + (0 if c is None else _CALL_INDEX[c])] = 1.0
        base = o["counts"]
        if view["defending"]:
            buf[base] = 1.0
        buf[base + 1] = view["dummies"] / 2
        buf[base + 2] = view["discards_due"] / 2
        buf[base + 3] = view["boneyard"] / 28
        buf[base + 4] = view["out"] / 28
        base = o["hand_sizes"]
        for s, k in enumerate(view["hand_sizes"]):
            buf[base + rel[s]] = k / 7
        leader = view["leader"]
        buf[o["leader"] + (n if leader is None else rel[leader])] = 1.0
        trick = view["trick"]
        suit = trick[0]["suit"] if trick else None
        buf[o["led"] + (7 if suit is None else suit)] = 1.0
        base = o["trick"]
        width = n + 28
        for j, p in enumerate(trick[: n - 1]):
            buf[base + j * width + rel[p["seat"]]] = 1.0
            buf[base + j * width + n + TEXT_INDEX[p["tile"]]] = 1.0
        played = [p["tile"] for t in view["tricks"] for p in t["plays"]]
        played += [p["tile"] for p in trick]
        obs.counts(o["played"], played, 1)
        base = o["tricks_won"]
        for s, k in enumerate(view["tricks_won"]):
            if k:
                buf[base + rel[s]] = k / 5
