"""Greedy Montana: keep the tiles that bring the hand nearest to going out.

Built on the hand analysis (``boneyard.games.montana.analysis``), the heuristic a decent
player would recognise:

- **Go out** whenever the rules allow (``out``, ``claim out``).
- **Quads**: declare a concealed quad, or add the fourth tile to an exposed triple,
  whenever allowed (they score well and bring a replacement tile).
- **Discard** the tile whose loss leaves the hand fewest tiles from going out
  (``tiles_away``, counting only tiles not yet seen); among equals, the one leaving the
  most live winning tiles when waiting, then a tile of an upper suit (lower-suit sets
  score double), then the highest.
- **Declare ready** (dealer mode) with a discard that leaves the hand waiting on at
  least two live tiles.
- **Claim** a triple, quad or run only when, after the best discard that follows, the
  hand is nearer to going out than it is now; otherwise pass.

The search's own parts live beside it: the candidates and the cheaper playout policy
(:mod:`boneyard.bots.montana.search`), the defence (:mod:`~boneyard.bots.montana.defence`),
the reading of the table (:mod:`~boneyard.bots.montana.reading`), joined in the search
profile (:mod:`boneyard.bots.profiles.montana`). The search's favourite is :func:`widest`:
greedy's choice, but between discards equally near going out, the one that more unseen
tiles would help.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...games.montana import analysis as hands
from ...tiles import Tile, double_six, tile_of

_FULL = double_six(4)
tile = tile_of  # a tile from its notation (a table lookup)
READY_MIN_WAITS = 2
MAX_CANDIDATES = 5


def unseen(view: dict[str, Any]) -> Counter[Tile]:
    """Tiles this seat has not seen: not in hand, not exposed, not lying in the discards."""
    pool = Counter(_FULL)
    pool.subtract(tile(t) for t in view["hand"])
    for sets in view["exposed"]:
        for meld in sets:
            pool.subtract(tile(t) for t in meld["tiles"])
    pool.subtract(tile(t) for _, t in view["discards"])
    return +pool


def _away(hand: list[Tile], one_pair: bool, live: list[Tile]) -> int:
    found = hands.tiles_away(hand, one_pair=one_pair, unseen=live)
    return 99 if found is None else found


def live_waits(hand: list[Tile], one_pair: bool, rest: Counter[Tile]) -> int:
    return sum(rest[t] for t in hands.waits(hands.encode(hand), one_pair))


def discard_key(hand: list[Tile], t: Tile, one_pair: bool, rest: Counter[Tile], live: list[Tile]) -> tuple:
    left = list(hand)
    left.remove(t)
    away = _away(left, one_pair, live)
    waits = live_waits(left, one_pair, rest) if away == 1 else 0
    return (away, -waits, t.high < 4, -t.pips)


def best_discard(hand: list[Tile], one_pair: bool, rest: Counter[Tile]) -> tuple[Tile, tuple]:
    """The tile to throw and its key (tiles away, -live waits, ...)."""
    live = list(rest.elements())
    keys = {t: discard_key(hand, t, one_pair, rest, live) for t in set(hand)}
    best = min(keys, key=lambda t: (keys[t], -t.key))
    return best, keys[best]


def choose(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """The greedy action for a Montana view."""
    texts = {str(a): a for a in legal_actions}
    for word in ("out", "claim out"):
        if word in texts:
            return texts[word]
    for k in texts:
        if k.startswith(("quad ", "add ")):
            return texts[k]
    one_pair = bool(view["rules"].get("one_pair", False))
    hand = [tile(t) for t in view["hand"]]
    rest = unseen(view)
    if any(k.startswith("claim") for k in texts):
        return _claim(view, texts, hand, one_pair, rest)
    discards = [k for k in texts if k.startswith("discard")]
    if not discards:
        return legal_actions[0]
    live = list(rest.elements())
    options = {tile(k.split()[1]) for k in discards}
    pick = min(options, key=lambda t: (discard_key(hand, t, one_pair, rest, live), -t.key))
    ready = f"discard {pick} ready"
    if ready in texts:
        left = list(hand)
        left.remove(pick)
        if live_waits(left, one_pair, rest) >= READY_MIN_WAITS:
            return texts[ready]
    plain = f"discard {pick}"
    return texts[plain] if plain in texts else texts[next(k for k in discards if k.split()[1] == str(pick))]


def acceptance(left: list[Tile], one_pair: bool, rest: Counter[Tile], live: list[Tile], away: int) -> int:
    """How many unseen tiles would each bring ``left`` (a hand after its discard) nearer to going out.

    Copies count one each, as each is one more pull or discard that helps: the wider the
    hand, the sooner it is ready. ``away``: ``left``'s own tiles from going out.
    """
    found = 0
    for t, copies in rest.items():
        if copies > 0:
            after = hands.tiles_away([*left, t], one_pair=one_pair, unseen=live)
            if after is not None and after < away:
                found += copies
    return found


def widest(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """Greedy's choice, but among discards equally far from going out, the widest hand's.

    Greedy breaks a tie between discards that leave the hand two tiles or more from going
    out by suit and pips alone; a player counts instead which keeps the most unseen tiles
    that would bring the hand nearer (:func:`acceptance`), since a hand that more tiles
    help is ready sooner, and three hands in four are won by the seat that gets there
    first. Among equally wide hands, greedy's own order; a ready declaration, a claim or
    a hand one tile away (where greedy already counts its live waits) stay greedy's.
    ``ismcts`` starts from this choice (:data:`PROFILE`): it wins about eight chips a
    hand more than greedy's in duplicate self-play (``benchmarks/montana_widest.py``).
    """
    chosen = choose(view, legal_actions, rng)
    mine = str(chosen)
    if not mine.startswith("discard") or mine.endswith(" ready"):
        return chosen
    plain = {k.split()[1]: a for a in legal_actions if (k := str(a)).startswith("discard") and not k.endswith("ready")}
    if len(plain) < 2:
        return chosen
    one_pair = bool(view["rules"].get("one_pair", False))
    hand = [tile(t) for t in view["hand"]]
    rest = unseen(view)
    live = list(rest.elements())
    keys = {name: discard_key(hand, tile(name), one_pair, rest, live) for name in plain}
    nearest = min(key[0] for key in keys.values())
    tied = [name for name in plain if keys[name][0] == nearest]
    if nearest < 2 or len(tied) < 2:
        return chosen

    def width(name: str) -> int:
        left = list(hand)
        left.remove(tile(name))
        return acceptance(left, one_pair, rest, live, nearest)

    wide = {name: width(name) for name in tied}
    most = max(wide.values())
    if wide.get(mine.split()[1]) == most:
        return chosen
    # among the widest, greedy's own order (its discard key, then the tile's)
    return plain[min((n for n in tied if wide[n] == most), key=lambda n: (keys[n], -tile(n).key))]


def _claim(view: dict[str, Any], texts: dict[str, Any], hand: list[Tile], one_pair: bool, rest: Counter[Tile]) -> Any:
    claimed = tile(view["claim"]["tile"])
    live = list(rest.elements())
    now = _away(hand, one_pair, live)
    best_key: tuple | None = None
    best_text = "pass"
    for k in texts:
        words = k.split()
        if words[0] != "claim":
            continue
        if words[1] == "run":
            used = [tile(words[2]), tile(words[3])]
        else:
            used = [claimed] * (2 if words[1] == "triple" else 3)
        left = list(hand)
        try:
            for t in used:
                left.remove(t)
        except ValueError:
            continue
        if not left:
            continue
        _, key = best_discard(left, one_pair, rest)
        if key[0] < now and (best_key is None or key < best_key):
            best_key, best_text = key, k
    return texts[best_text] if best_text in texts else texts["pass"]
