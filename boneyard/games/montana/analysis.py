"""Montana hand analysis: exact, fast answers about a concealed Montana hand.

Pure functions, shared by the engine, the bots and the UI. In Montana a set never mixes
suits (a tile's suit is its higher end), so a hand splits into sets exactly when each
suit's part does. Each suit's part is a count vector (at most 7 kinds, 0-4 copies each),
coded in base 5 as one int; a table built once per suit says, for every code, whether it
splits into runs, pairs and triples, and with how many pairs (none, one, or several: the
``one_pair`` rule needs that). Everything else is built on those tables:

- :func:`goes_out` / :func:`complete`: whether a hand (plus a tile) splits into sets;
- :func:`waits`: the tiles a hand is waiting on;
- :func:`best_split`: the highest-scoring split of a winning hand and its score;
- :func:`tiles_away`: how many tiles a hand is away from going out.

Hands are either lists of tiles or *codes*: a list of seven ints, one per suit
(:func:`encode`). The engine keeps codes up to date incrementally so that its checks
cost a handful of table lookups.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from ...tiles import Tile

SUITS: Final = 7
P5: Final = tuple(5**k for k in range(8))
TILES: tuple[Tile, ...] = tuple(Tile(h, lo) for h in range(SUITS) for lo in range(h + 1))
INDEX: dict[Tile, int] = {t: i for i, t in enumerate(TILES)}
SUIT_OF: tuple[int, ...] = tuple(t.high for t in TILES)
LOW_OF: tuple[int, ...] = tuple(t.low for t in TILES)
STEP: tuple[int, ...] = tuple(P5[t.low] for t in TILES)
UPPER_SUITS: Final = (4, 5, 6)

# Pair-count classes kept per suit code: bit 0 = splits with no pair, bit 1 = with exactly
# one pair, bit 2 = with two or more pairs. Zero: the code does not split into sets.
_NO_PAIR, _ONE_PAIR, _PAIRS = 1, 2, 4


def _shift(mask: int) -> int:
    """The classes after adding one more pair."""
    return ((mask & 1) << 1) | (4 if mask & 6 else 0)


def _build(suit: int) -> bytes:
    """The pair-class mask of every code of one suit (see the module docstring)."""
    kinds = suit + 1
    size = P5[kinds]
    pm = bytearray(size)
    pm[0] = _NO_PAIR
    for code in range(1, size):
        i = 0
        c = code
        while c % 5 == 0:
            c //= 5
            i += 1
        d = c % 5
        step = P5[i]
        m = 0
        if d >= 2:
            sub = pm[code - 2 * step]
            if sub:
                m |= _shift(sub)
            if d >= 3:
                m |= pm[code - 3 * step]
        if i + 2 <= suit:
            rest = c // 5
            if rest % 5 and (rest // 5) % 5:
                m |= pm[code - step - P5[i + 1] - P5[i + 2]]
        pm[code] = m
    return bytes(pm)


MASKS: Final[tuple[bytes, ...]] = tuple(_build(s) for s in range(SUITS))
_M0, _M1, _M2, _M3, _M4, _M5, _M6 = MASKS


class MeldSet(NamedTuple):
    """One set of a split: ``kind`` (run, pair, triple, quad), its tiles, and whether it is concealed."""

    kind: str
    tiles: tuple[Tile, ...]
    concealed: bool

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(map(str, self.tiles))}{'' if self.concealed else ' (exposed)'}"

    @property
    def suit(self) -> int:
        """The set's suit (the higher end of its tiles)."""
        return self.tiles[0].high


class Split(NamedTuple):
    """A winning hand split into sets, with its score and its breakdown."""

    score: int
    sets: tuple[MeldSet, ...]
    claim_kind: str | None
    breakdown: tuple[tuple[str, int], ...]


GOING_OUT_POINTS: Final = 4
READY_POINTS: Final = 4
_BASE: Final = {"run": 0, "pair": 0, "triple": 1, "quad": 4}
CLAIM_PRIORITY: Final = {"run": 1, "pair": 2, "triple": 3, "quad": 4}


def set_points(kind: str, suit: int, concealed: bool) -> int:
    """The points of one set: triple 1, quad 4, runs and pairs 0; doubled if concealed; doubled in suits 0-3."""
    points = _BASE[kind]
    if concealed:
        points *= 2
    if suit not in UPPER_SUITS:
        points *= 2
    return points


# ----- codes ---------------------------------------------------------------------------


def encode(tiles: Iterable[Tile]) -> list[int]:
    """The seven suit codes of a multiset of tiles (at most four of each)."""
    codes = [0] * SUITS
    for t in tiles:
        codes[t.high] += P5[t.low]
    return codes


def count(codes: Sequence[int], tile: Tile) -> int:
    """How many copies of ``tile`` the coded hand holds."""
    return (codes[tile.high] // P5[tile.low]) % 5


def complete(codes: Sequence[int], one_pair: bool = False) -> bool:
    """Whether the coded hand splits into sets with nothing left over."""
    if not one_pair:
        return bool(
            _M0[codes[0]]
            and _M1[codes[1]]
            and _M2[codes[2]]
            and _M3[codes[3]]
            and _M4[codes[4]]
            and _M5[codes[5]]
            and _M6[codes[6]]
        )
    masks = [MASKS[s][codes[s]] for s in range(SUITS)]
    return _one_pair_ok(masks)


def _one_pair_ok(masks: Sequence[int]) -> bool:
    """Exactly one pair over all suits is possible with these pair-class masks."""
    needy = [m for m in masks if not m & _NO_PAIR]
    if len(needy) > 1 or any(m == 0 for m in masks):
        return False
    if needy:
        return bool(needy[0] & _ONE_PAIR)
    return any(m & _ONE_PAIR for m in masks)


def goes_out(codes: Sequence[int], tile: Tile | None = None, one_pair: bool = False) -> bool:
    """Whether the coded hand, plus ``tile`` if given, splits into sets."""
    if tile is None:
        return complete(codes, one_pair)
    s = tile.high
    step = P5[tile.low]
    c = codes[s]
    if (c // step) % 5 == 4:
        return False
    if not one_pair:
        if not MASKS[s][c + step]:
            return False
        return all(i == s or MASKS[i][codes[i]] for i in range(SUITS))
    masks = [MASKS[i][codes[i]] for i in range(SUITS)]
    masks[s] = MASKS[s][c + step]
    return _one_pair_ok(masks)


def waits(codes: Sequence[int], one_pair: bool = False) -> list[Tile]:
    """The tiles that would complete the coded hand (a fifth copy of a tile is never waited on)."""
    bad = [s for s in range(SUITS) if not MASKS[s][codes[s]]]
    if len(bad) > 1:
        return []
    suits = bad if bad else range(SUITS)
    out = []
    for s in suits:
        c = codes[s]
        for low in range(s + 1):
            step = P5[low]
            if (c // step) % 5 < 4 and MASKS[s][c + step]:
                tile = Tile(s, low)
                if not one_pair or goes_out(codes, tile, True):
                    out.append(tile)
    return out


def is_waiting(codes: Sequence[int], one_pair: bool = False) -> bool:
    """Whether some tile completes the coded hand (the hand is one tile from going out)."""
    if one_pair:
        return bool(waits(codes, True))
    bad = -1
    for s in range(SUITS):
        if not MASKS[s][codes[s]]:
            if bad >= 0:
                return False
            bad = s
    suits = (bad,) if bad >= 0 else range(SUITS)
    for s in suits:
        c = codes[s]
        table = MASKS[s]
        for low in range(s + 1):
            step = P5[low]
            if (c // step) % 5 < 4 and table[c + step]:
                return True
    return False


# ----- best split ----------------------------------------------------------------------


@lru_cache(maxsize=200_000)
def _suit_best(suit: int, code: int) -> dict[int, tuple[int, tuple[tuple[str, int], ...]]]:
    """Per pair class (0, 1, 2 = several), the most triples of a split of one suit's code, and the split.

    A split is a tuple of (kind, lowest low end) pairs.
    """
    if code == 0:
        return {0: (0, ())}
    i = 0
    c = code
    while c % 5 == 0:
        c //= 5
        i += 1
    d = c % 5
    step = P5[i]
    out: dict[int, tuple[int, tuple[tuple[str, int], ...]]] = {}

    def consider(pc: int, triples: int, sets: tuple[tuple[str, int], ...]) -> None:
        old = out.get(pc)
        if old is None or triples > old[0]:
            out[pc] = (triples, sets)

    if d >= 3:
        for pc, (tr, sets) in _suit_best(suit, code - 3 * step).items():
            consider(pc, tr + 1, (("triple", i), *sets))
    if d >= 2:
        for pc, (tr, sets) in _suit_best(suit, code - 2 * step).items():
            consider(min(pc + 1, 2), tr, (("pair", i), *sets))
    if i + 2 <= suit and (c // 5) % 5 and (c // 25) % 5:
        for pc, (tr, sets) in _suit_best(suit, code - step - P5[i + 1] - P5[i + 2]).items():
            consider(pc, tr, (("run", i), *sets))
    return out


def _triple_points(suit: int) -> int:
    return set_points("triple", suit, True)


def _best_concealed(codes: Sequence[int], pairs_needed: int | None) -> tuple[int, list[MeldSet]] | None:
    """The best split of the concealed codes: (points of its triples, sets); ``None`` if none.

    ``pairs_needed``: ``None`` for any number of pairs, else exactly 0 or 1 pairs.
    """
    options = [_suit_best(s, codes[s]) for s in range(SUITS)]
    if any(not o for o in options):
        return None
    if pairs_needed is None:
        chosen = [max(o.values(), key=lambda v: v[0]) for o in options]
    else:
        best: list[tuple[int, tuple[tuple[str, int], ...]]] | None = None
        best_points = -1
        carriers: list[int | None] = [None] if pairs_needed == 0 else list(range(SUITS))
        for carrier in carriers:
            pick = []
            for s, o in enumerate(options):
                want = 1 if s == carrier else 0
                if want not in o:
                    break
                pick.append(o[want])
            else:
                points = sum(_triple_points(s) * p[0] for s, p in enumerate(pick))
                if points > best_points:
                    best, best_points = pick, points
        if best is None:
            return None
        chosen = best
    sets: list[MeldSet] = []
    points = 0
    for s, (triples, split) in enumerate(chosen):
        points += _triple_points(s) * triples
        for kind, low in split:
            if kind == "run":
                tiles: tuple[Tile, ...] = (Tile(s, low), Tile(s, low + 1), Tile(s, low + 2))
            else:
                tiles = (Tile(s, low),) * (2 if kind == "pair" else 3)
            sets.append(MeldSet(kind, tiles, True))
    return points, sets


def _claim_placements(codes: list[int], tile: Tile, allow_run: bool) -> list[tuple[str, list[int], tuple[Tile, ...]]]:
    """Each way the claimed ``tile`` can complete a set: (kind, codes left, the set's tiles)."""
    s, low = tile.high, tile.low
    step = P5[low]
    have = (codes[s] // step) % 5
    out: list[tuple[str, list[int], tuple[Tile, ...]]] = []
    if have >= 2:
        rest = list(codes)
        rest[s] -= 2 * step
        out.append(("triple", rest, (tile, tile, tile)))
    if have >= 1:
        rest = list(codes)
        rest[s] -= step
        out.append(("pair", rest, (tile, tile)))
    if allow_run and s >= 2:
        for start in range(max(0, low - 2), min(low, s - 2) + 1):
            others = [k for k in (start, start + 1, start + 2) if k != low]
            if all((codes[s] // P5[k]) % 5 for k in others):
                rest = list(codes)
                for k in others:
                    rest[s] -= P5[k]
                out.append(("run", rest, tuple(Tile(s, k) for k in (start, start + 1, start + 2))))
    return out


def best_split(
    hand: Sequence[Tile],
    exposed: Sequence[MeldSet] = (),
    *,
    claimed: Tile | None = None,
    ready: bool = False,
    one_pair: bool = False,
    allow_claimed_run: bool = True,
) -> Split | None:
    """The highest-scoring way a hand goes out, or ``None`` if it does not.

    ``hand``: the concealed tiles (including a winning tile pulled from the woodpile);
    ``exposed``: the sets already laid open; ``claimed``: a winning tile taken from a
    discard (its set is exposed); ``ready``: the hand was declared ready (+4);
    ``allow_claimed_run``: whether the claimed tile may complete a run (not in 2-player
    games). Equal scores prefer the claimed set that ranks higher for claims.
    """
    codes = encode(hand)
    exposed_pairs = sum(1 for m in exposed if m.kind == "pair")
    fixed = [(f"{m.kind} {m.tiles[0]} {'concealed' if m.concealed else 'exposed'}", m) for m in exposed]
    candidates: list[tuple[int, int, Split]] = []
    placements: list[tuple[str | None, list[int], tuple[Tile, ...]]]
    if claimed is None:
        placements = [(None, codes, ())]
    else:
        placements = list(_claim_placements(codes, claimed, allow_claimed_run))
    for kind, rest, tiles in placements:
        claim_pairs = 1 if kind == "pair" else 0
        need: int | None = None
        if one_pair:
            need = 1 - exposed_pairs - claim_pairs
            if need < 0:
                continue
        found = _best_concealed(rest, need)
        if found is None:
            continue
        _, concealed_sets = found
        sets: list[MeldSet] = [m for _, m in fixed]
        if kind is not None:
            sets.append(MeldSet(kind, tiles, False))
        sets.extend(concealed_sets)
        breakdown = [("going out", GOING_OUT_POINTS)]
        for m in sets:
            points = set_points(m.kind, m.suit, m.concealed)
            if points:
                label = f"{'concealed' if m.concealed else 'exposed'} {m.kind} {m.tiles[0]}"
                breakdown.append((label, points))
        if ready:
            breakdown.append(("ready", READY_POINTS))
        score = sum(p for _, p in breakdown)
        split = Split(score, tuple(sets), kind, tuple(breakdown))
        candidates.append((score, CLAIM_PRIORITY.get(kind or "", 0), split))
    if not candidates:
        return None
    return max(candidates, key=lambda c: (c[0], c[1]))[2]


# ----- distance to going out -----------------------------------------------------------


@lru_cache(maxsize=100_000)
def _suit_costs(suit: int, have: tuple[int, ...], caps: tuple[int, ...], limit: int) -> dict[tuple[int, int], int]:
    """For one suit: (size, pair class) of a complete part -> fewest tiles it needs beyond ``have``.

    A complete part holds at most ``caps[k]`` of kind ``k`` and at most ``limit`` tiles.
    """
    # state: (runs ending at this kind, runs passing through it, size, pair class) -> cost
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for k in range(suit + 1):
        new: dict[tuple[int, int, int, int], int] = {}
        may_start = k + 2 <= suit
        for (r_end, r_mid, size, pc), cost in states.items():
            base = r_end + r_mid
            if base > caps[k]:
                continue
            room = caps[k] - base
            for start in range(room + 1 if may_start else 1):
                for pairs in range((room - start) // 2 + 1):
                    for triples in range((room - start - 2 * pairs) // 3 + 1):
                        w = base + start + 2 * pairs + 3 * triples
                        total = size + w
                        if total > limit:
                            continue
                        key = (r_mid, start, total, min(pc + pairs, 2))
                        c = cost + max(0, w - have[k])
                        if c < new.get(key, 99):
                            new[key] = c
        states = new
    out: dict[tuple[int, int], int] = {}
    for (r_end, r_mid, size, pc), cost in states.items():
        if r_end == 0 and r_mid == 0 and cost < out.get((size, pc), 99):
            out[(size, pc)] = cost
    return out


def tiles_away(
    hand: Sequence[Tile],
    *,
    target: int | None = None,
    one_pair: bool = False,
    unseen: Sequence[Tile] | None = None,
) -> int | None:
    """How many tiles the hand is away from going out: 0 complete, 1 waiting, and so on.

    The answer is the fewest tiles that must come in (each replacing one held tile, except
    the last, which is added) to reach a complete hand of ``target`` tiles (default: one
    more than the hand when it has 1 modulo 3 tiles, as between turns; else its own size).
    ``unseen``: the tiles that can still arrive (default: any tile up to four copies).
    ``None`` if no complete hand can be reached.
    """
    n = len(hand)
    if target is None:
        target = n + 1 if n % 3 == 1 else n
    have = [[0] * (s + 1) for s in range(SUITS)]
    for t in hand:
        have[t.high][t.low] += 1
    caps = [[4] * (s + 1) for s in range(SUITS)]
    if unseen is not None:
        extra = [[0] * (s + 1) for s in range(SUITS)]
        for t in unseen:
            extra[t.high][t.low] += 1
        caps = [[min(4, have[s][k] + extra[s][k]) for k in range(s + 1)] for s in range(SUITS)]
    # combine suits: (size, pair class) -> fewest tiles needed
    total: dict[tuple[int, int], int] = {(0, 0): 0}
    for s in range(SUITS):
        part = _suit_costs(s, tuple(have[s]), tuple(caps[s]), target)
        new: dict[tuple[int, int], int] = {}
        for (size_a, pc_a), cost_a in total.items():
            for (size_b, pc_b), cost_b in part.items():
                size = size_a + size_b
                if size > target:
                    continue
                key = (size, min(pc_a + pc_b, 2))
                c = cost_a + cost_b
                if c < new.get(key, 99):
                    new[key] = c
        total = new
    wanted = [1] if one_pair else [0, 1, 2]
    costs = [total[(target, pc)] for pc in wanted if (target, pc) in total]
    return min(costs) if costs else None
