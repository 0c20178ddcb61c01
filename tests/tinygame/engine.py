"""The Tiny Block engine: a block-and-draw line game with a double-two set.

Two players hold two tiles each; two lie in the boneyard. In turn a player lays a tile on
either end of the line (``play 2-1 left`` / ``play 2-1 right``), draws while the boneyard
lasts (``draw``), or passes when he can do neither (``pass``). A player who plays his last
tile, or holds fewer pips when both pass in a row, scores the other hand's pips; the
first to the target wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from boneyard.errors import IllegalAction
from boneyard.games.base import Game, deal_hidden
from boneyard.rules import Rules, option
from boneyard.tiles import Tile

_SET = sorted((Tile(a, b) for a in range(3) for b in range(a + 1)), reverse=True)
HAND = 2


class TinyAction(NamedTuple):
    """``draw``, ``pass`` or ``play TILE left|right``."""

    kind: str
    tile: Tile | None = None
    side: str = ""

    def __str__(self) -> str:
        return f"play {self.tile} {self.side}" if self.kind == "play" else self.kind


DRAW = TinyAction("draw")
PASS = TinyAction("pass")


@dataclass(frozen=True)
class TinyRules(Rules):
    """Tiny Block's options."""

    target: int = option(6, label="Target", minimum=1, maximum=50, doc="points that win the game")


class TinyBlock(Game):
    """Tiny Block, declared like every game: facts first, then the hooks."""

    id = "tinyblock"
    order = 99
    name = "Tiny Block"
    summary = "Two players, a double-two set: match an end of the line or draw; out first scores."
    min_players = 2
    max_players = 2
    default_players = 2
    hand_size = HAND
    Rules = TinyRules

    @classmethod
    def score_bounds(cls, players: int, rules: Any) -> tuple[int, int]:
        """Points only grow, by at most every pip in the set at once."""
        return 0, rules.target - 1 + sum(t.pips for t in _SET)

    @classmethod
    def max_hand_length(cls, players: int, rules: Any) -> int:
        """Six plays, two draws, a pass round between plays and one to block."""
        return 6 + 2 + 6 + 2

    @classmethod
    def full_set(cls, rules: Any) -> list[Tile]:
        """Double-two: six tiles."""
        return list(_SET)

    def _setup(self, dealer: int | None) -> None:
        self.points = [0, 0]
        self.hand_number = 0
        self.first = dealer if dealer is not None else self.rng.randrange(2)
        self._deal()

    def _deal(self) -> None:
        if self._hand_limit_reached():
            return
        deck = self._deck()
        self.hand_number += 1
        self.hands = [sorted(deck[:HAND], reverse=True), sorted(deck[HAND : 2 * HAND], reverse=True)]
        self.boneyard = deck[2 * HAND :]
        self.line: list[Tile] = []
        self.ends: tuple[int, int] | None = None
        self.passes = 0
        self.phase = "play"
        self.current_player = self.first
        self.first = 1 - self.first
        self._new_hand()
        self._emit({"kind": "deal", "hand": self.hand_number})
        for seat in (0, 1):
            self._emit({"kind": "dealt", "seat": seat, "tiles": [str(t) for t in self.hands[seat]]}, to=seat)

    def _legal(self) -> list[TinyAction]:
        hand = self.hands[self.current_player]  # type: ignore[index]
        out = []
        for t in hand:
            if self.ends is None:
                out.append(TinyAction("play", t, "left"))
                continue
            for side, end in zip(("left", "right"), self.ends, strict=True):
                if t.has(end):
                    out.append(TinyAction("play", t, side))
        if self.boneyard:
            out.append(DRAW)
        elif not out:
            out.append(PASS)
        return out

    def _play(self, action: TinyAction) -> None:
        seat: int = self.current_player  # type: ignore[assignment]
        if action.kind == "draw":
            tile = self.boneyard.pop(0)
            self.hands[seat].append(tile)
            self.hands[seat].sort(reverse=True)
            mine = {"kind": "draw", "seat": seat, "tile": str(tile)}
            self._emit(mine, to=seat, public={"kind": "draw", "seat": seat})
            return
        if action.kind == "pass":
            self.passes += 1
            self._emit({"kind": "pass", "seat": seat})
            if self.passes == 2:
                self._end_hand(None)
            else:
                self.current_player = 1 - seat
            return
        tile = action.tile
        assert tile is not None
        self.hands[seat].remove(tile)
        self.passes = 0
        if self.ends is None:
            self.ends = (tile.high, tile.low)
        elif action.side == "left":
            self.ends = (tile.other(self.ends[0]), self.ends[1])
        else:
            self.ends = (self.ends[0], tile.other(self.ends[1]))
        self.line.append(tile)
        self._emit({"kind": "play", "seat": seat, "tile": str(tile), "side": action.side})
        if not self.hands[seat]:
            self._end_hand(seat)
        else:
            self.current_player = 1 - seat

    def _end_hand(self, winner: int | None) -> None:
        pips = [sum(t.pips for t in h) for h in self.hands]
        if winner is None and pips[0] != pips[1]:
            winner = 0 if pips[0] < pips[1] else 1
        points = [0, 0]
        if winner is not None:
            points[winner] = pips[1 - winner]
            self.points[winner] += pips[1 - winner]
        self._emit_end({
            "kind": "hand_end", "hand": self.hand_number, "winner": winner, "line": [str(t) for t in self.line],
            "hands": [[str(t) for t in h] for h in self.hands], "points": points, "totals": list(self.points),
        })
        if winner is not None and self.points[winner] >= self.rules.target:
            self._end_game([winner])
            return
        self._deal()

    @classmethod
    def parse_action(cls, text: str) -> TinyAction:
        """``draw``, ``pass`` or ``play 2-1 left|right``."""
        words = text.split() if isinstance(text, str) else []
        if words in (["draw"], ["pass"]):
            return DRAW if words[0] == "draw" else PASS
        if len(words) == 3 and words[0] == "play" and words[2] in ("left", "right"):
            try:
                return TinyAction("play", Tile.parse(words[1]), words[2])
            except ValueError:
                pass
        raise IllegalAction(f"not a tinyblock action: {text!r}; expected draw, pass or 'play 2-1 left'")

    def _fill_view(self, view: dict[str, Any], seat: int | None) -> None:
        view["hand_number"] = self.hand_number
        view["line"] = [str(t) for t in self.line]
        view["ends"] = list(self.ends) if self.ends else None
        view["boneyard"] = len(self.boneyard)
        view["hand_sizes"] = [len(h) for h in self.hands]
        view["passes"] = self.passes
        view["first"] = self.first
        view["hand"] = None if seat is None else [str(t) for t in self.hands[seat]]

    def tile_locations(self) -> dict[str, list[Tile]]:
        """Both hands, the boneyard and the line."""
        return {"hand 0": self.hands[0], "hand 1": self.hands[1], "boneyard": self.boneyard, "line": self.line}

    @property
    def scores(self) -> list[int]:
        """Points so far."""
        return list(self.points)

    @classmethod
    def sample(cls, view: dict[str, Any], rng: random.Random) -> Any:
        """Deal the other hand and the boneyard at random from the unseen tiles."""
        game = cls._blank(view["players"], cls.Rules.from_dict(view["rules"]), rng.randrange(2**63))
        game._restore_common(view)
        seat = view["seat"]
        own = [Tile.parse(t) for t in view["hand"]] if seat is not None else []
        line = [Tile.parse(t) for t in view["line"]]
        unseen = list(_SET)
        for t in own + line:
            unseen.remove(t)
        if seat is None:
            dealt = deal_hidden(unseen, [*view["hand_sizes"], view["boneyard"]], rng)
            hands = [dealt[0], dealt[1]]
        else:
            dealt = deal_hidden(unseen, [view["hand_sizes"][1 - seat], view["boneyard"]], rng)
            hands = [own, dealt[0]] if seat == 0 else [dealt[0], own]
        game.points = list(view["scores"])
        game.hand_number = view["hand_number"]
        game.hands = [sorted(h, reverse=True) for h in hands]
        game.boneyard = dealt[-1]
        game.line = line
        game.ends = tuple(view["ends"]) if view["ends"] else None
        game.passes = view["passes"]
        game.first = view["first"]
        return game


GAME = TinyBlock
