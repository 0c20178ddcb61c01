"""Montana's sampling: a whole game consistent with one seat's view (``Montana.sample``).

The view hides the other hands, the dead hands and the woodpile; what play has proved
about them must still hold in a sampled game: the hand sizes, the copy limits proved by
claim windows a seat was not asked in, a ready seat's fixed hand (one tile from going
out, and every pull and discard since tested against it) and, in an open claim window,
exactly who has been asked so far. :func:`sample` deals the hidden tiles at random within
those proofs (ready hands built from random sets); the engine's ``sample`` classmethod
calls it. It reads the game's public state through the engine's own rules (the claim
window, a claim out), never re-deriving them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

from ...tiles import Tile, double_six
from ..base import deal_hidden
from . import analysis as an
from .analysis import P5
from .engine import HAND, SEATS, Montana, Phase, _meld_from

_KINDS: Final = double_six()


def sample(cls: type[Montana], view: dict[str, Any], rng: random.Random) -> Montana:
    """A game matching ``view``, the hidden tiles dealt at random within what play proved.

    Respected: the hand sizes; the copy limits proved by claim windows a seat was not
    asked in; a ready seat's fixed hand (one tile from going out, and every pull and
    discard since tested against it); and, in an open claim window, exactly who has
    been asked so far (seats skipped had no claim). Ready hands are built from random
    sets, the other hidden tiles dealt at random.
    """
    n = view["players"]
    seat = view["seat"]
    game: Montana = cls._blank(n, cls.Rules.from_dict(view["rules"]), rng.getrandbits(63))
    game._restore_common(view)
    game._deck_used = True
    game.chips = list(view["chips"])
    game.outs = list(view["outs"])
    game.hand_number = view["hand_number"]
    game.deal_passes = view["deal_passes"]
    game.last_result = view["last_result"]
    game.dealer = view["dealer"]
    game.exposed = [[_meld_from(d) for d in sets] for sets in view["exposed"]]
    game.discards = [(s, Tile.parse(t)) for s, t in view["discards"]]
    game.ready = list(view["ready"])
    game.stakes = list(view["stakes"])
    game.limits = [{Tile.parse(t).key: k for t, k in lim.items()} for lim in view["proved_limits"]]
    game.pulls = [0] * n
    game.tests = [[(Tile.parse(t), how, wins) for t, how, wins in tests] for tests in view["proved_ready"]]
    game.pending = []
    game.claim_queue = []
    game.claim_options = {}
    game.answers = {}
    game.pulled = []
    claim = view["claim"]
    game.claim_tile = Tile.parse(claim["tile"]) if claim else None
    game.claim_from = claim["from"] if claim else -1
    own = [Tile.parse(t) for t in view["hand"]] if seat is not None else []
    pool = list(cls.full_set(game.rules))
    public = own + [t for sets in game.exposed for m in sets for t in m.tiles] + [t for _, t in game.discards]
    for t in public:
        pool.remove(t)
    hidden = [s for s in range(n) if s != seat]
    sizes = view["hand_sizes"]
    for _ in range(300):
        hands = _sample_hands(game, pool, hidden, sizes, own, seat, view, rng)
        if hands is not None:
            break
    else:
        raise ValueError("no deal of the hidden tiles fits what the view shows")
    return game

def _sample_hands(
    game: Montana,
    pool: list[Tile],
    hidden: list[int],
    sizes: list[int],
    own: list[Tile],
    seat: int | None,
    view: dict[str, Any],
    rng: random.Random,
) -> list[list[Tile]] | None:
    """One attempt at dealing the hidden tiles into ``game``; ``None`` if it fails a proof."""
    n = game.players
    one_pair = game.rules.one_pair
    rest = list(pool)
    rng.shuffle(rest)
    hands: list[list[Tile]] = [[] for _ in range(n)]
    if seat is not None:
        hands[seat] = list(own)
    pulled: list[Tile] = []
    turn = game.phase == Phase.TURN
    asked: set[int] = set()
    if game.phase == Phase.CLAIM:
        asked = {*view["claim"]["answered"], game.current_player}  # type: ignore[arg-type]
    for s in hidden:
        if not game.ready[s]:
            continue
        on_turn = turn and s == game.current_player
        size = sizes[s] - (1 if on_turn else 0)
        seeds = [t for t, _, wins in game.tests[s] if wins]
        if s in asked:
            seeds.insert(0, game.claim_tile)  # type: ignore[arg-type]
        seed = seeds[0] if seeds else None
        found = _ready_hand(game, s, rest, size, seed, rng)
        if found is None:
            return None
        whole = found
        for t in whole:
            rest.remove(t)
        hands[s] = whole
        if on_turn:
            chances = [t for t in an.waits(an.encode(whole), one_pair) if t in rest]
            if not chances:
                return None
            pulled = [rng.choice(chances)]
            rest.remove(pulled[0])
            hands[s] = [*whole, pulled[0]]
    free = [s for s in hidden if not game.ready[s]]
    for s in free:
        if s in asked:  # give an asked seat the tiles of one claim it could make
            reason = _claim_reason(game, s, rest, sizes[s], rng)
            if reason is None:
                return None
            hands[s] = reason
            for t in reason:
                rest.remove(t)
    dead = (SEATS - n) * HAND
    places = [sizes[s] - len(hands[s]) for s in free] + [dead, view["woodpile"]]
    try:
        deal = deal_hidden(rest, places, rng, tries=1)
    except ValueError:
        return None
    for i, s in enumerate(free):
        hands[s] = hands[s] + deal[i]
    game.hands = [sorted(h, reverse=True) for h in hands]
    game.codes = [an.encode(h) for h in game.hands]
    game.dead = deal[-2]
    game.wood = deal[-1]
    game.wood_at = 0
    if not _sample_fits(game, hidden, pulled):
        return None
    if turn:
        cur = game.current_player
        if cur == seat:
            game.pulled = [Tile.parse(t) for t in view["pulled"]]
        elif pulled:
            game.pulled = pulled
        else:
            game.pulled = [rng.choice(game.hands[cur])] if cur is not None else []
    else:
        game.pulled = []
    if game.phase == Phase.CLAIM and not _sample_window(game, view, seat, rng):
        return None
    return game.hands

def _ready_hand(
    game: Montana, seat: int, pool: list[Tile], size: int, seed: Tile | None, rng: random.Random
) -> list[Tile] | None:
    """A fixed hand of ``size`` tiles for a hidden ready seat that keeps every test made on it.

    Built as a random complete hand of one tile more, less one tile (``seed``, a tile it
    is known to win with, when there is one); up to 200 tries.
    """
    one_pair = game.rules.one_pair
    # Without a known winning tile, every other try builds the hand around a wait the
    # seat was never shown to pass on: with many non-winning pulls tested, a hand built
    # from random sets alone almost never keeps them all.
    passed_on = {t for t, _, wins in game.tests[seat] if not wins}
    waits = [t for t in _KINDS if t not in passed_on] if seed is None else []
    for attempt in range(200):
        wait = seed if seed is not None else (rng.choice(waits) if waits and attempt % 2 == 0 else None)
        whole = _random_complete(pool, size + 1, one_pair, rng, wait)
        if whole is None:
            continue
        codes = an.encode(whole)
        fits = []
        for t in [wait] if wait is not None else list(dict.fromkeys(whole)):
            codes[t.high] -= P5[t.low]
            if _ready_ok(game, seat, codes):
                fits.append(t)
            codes[t.high] += P5[t.low]
        if fits:
            whole.remove(rng.choice(fits))
            return whole
    return None

def _claim_reason(game: Montana, seat: int, pool: list[Tile], size: int, rng: random.Random) -> list[Tile] | None:
    """Tiles from ``pool`` that would let ``seat`` (holding ``size`` tiles) claim the offered tile."""
    tile = game.claim_tile
    assert tile is not None
    copies = pool.count(tile)
    options: list[list[Tile]] = []
    if size == 1 and copies:
        options.append([tile])  # a lone tile waiting for its pair
    if copies >= 2:
        options.append([tile, tile])
    if copies >= 3:
        options.append([tile, tile, tile])
    if game.players > 2 and tile.high >= 2 and game._next(game.claim_from) == seat:
        s, low = tile.high, tile.low
        for start in range(max(0, low - 2), min(low, s - 2) + 1):
            others = [Tile(s, k) for k in (start, start + 1, start + 2) if k != low]
            if all(t in pool for t in others):
                options.append(others)
    options = [o for o in options if len(o) <= size]
    if not options:
        return [] if rng.random() < 0.5 else None  # only a winning hand could claim: leave it to chance
    return list(rng.choice(options))

def _sample_fits(game: Montana, hidden: list[int], pulled: list[Tile]) -> bool:
    """Whether the dealt hidden hands keep every proved limit and every ready test."""
    one_pair = game.rules.one_pair
    for s in hidden:
        codes = game.codes[s]
        pulls = game.pulls[s]
        for key, k in game.limits[s].items():
            if (codes[key // 8] // P5[key % 8]) % 5 > k + pulls:
                return False
        if not game.ready[s]:
            continue
        fixed = list(codes)
        if pulled and s == game.current_player:
            t = pulled[0]
            fixed[t.high] -= P5[t.low]
            if not an.complete(codes, one_pair):
                return False
        if not _ready_ok(game, s, fixed):
            return False
    return True

def _ready_ok(game: Montana, seat: int, fixed: list[int]) -> bool:
    """Whether a ready seat's fixed hand (coded) waits and agrees with every test made on it."""
    one_pair = game.rules.one_pair
    if not an.is_waiting(fixed, one_pair):
        return False
    for t, how, wins in game.tests[seat]:
        ok = an.goes_out(fixed, t, one_pair) if how == "pull" else game._claim_out_ok(fixed, t)
        if ok != wins:
            return False
    return True

def _sample_window(game: Montana, view: dict[str, Any], seat: int | None, rng: random.Random) -> bool:
    """Rebuild an open claim window; ``False`` if the dealt hands would ask other seats."""
    claim = view["claim"]
    tile = game.claim_tile
    assert tile is not None
    answered = list(claim["answered"])
    cur = game.current_player
    queue, options = game._window(game.claim_from, tile)
    if cur not in queue:
        return False
    at = queue.index(cur)
    if queue[:at] != answered:
        return False
    game.claim_queue = queue[at:]
    game.claim_options = options
    game.answers = {}
    for s in answered:
        if s == seat:
            game.answers[s] = game.parse_action(view["my_answer"])
        else:
            game.answers[s] = rng.choice(options[s])
    return True




def _random_complete(
    pool: list[Tile], size: int, one_pair: bool, rng: random.Random, seed: Tile | None = None
) -> list[Tile] | None:
    """A random complete hand of ``size`` tiles built from random sets of ``pool`` (``None``: failed).

    With ``seed``, the first set holds one extra copy of ``seed`` that is not taken from the pool.
    """
    have: dict[Tile, int] = {}
    for t in pool:
        have[t] = have.get(t, 0) + 1
    if seed is not None:
        have[seed] = have.get(seed, 0) + 1
    kinds = list(have)
    out: list[Tile] = []
    left = size
    pairs = 0
    for _ in range(40):
        if left == 0:
            break
        if left == 1:
            return None
        if seed is not None and not out:
            want = rng.choice(("pair", "triple", "run"))
        elif left == 2 or (one_pair and pairs == 0 and left % 3 == 2):
            want = "pair"
        elif one_pair:
            want = rng.choice(("triple", "run"))
        else:
            want = rng.choice(("pair", "triple", "run"))
        if seed is not None and not out:
            t = seed
            if want == "run" and seed.high >= 2:
                t = Tile(seed.high, max(0, min(seed.low - rng.randrange(3), seed.high - 2)))
        else:
            t = rng.choice(kinds)
        if want == "run":
            if t.high < 2 or t.low > t.high - 2:
                continue
            tiles = [t, Tile(t.high, t.low + 1), Tile(t.high, t.low + 2)]
            if any(have.get(x, 0) < 1 for x in tiles):
                continue
        else:
            k = 2 if want == "pair" else 3
            if have[t] < k:
                continue
            tiles = [t] * k
        for x in tiles:
            have[x] -= 1
        out.extend(tiles)
        left -= len(tiles)
        pairs += want == "pair"
    return out if left == 0 else None


def conform(game: Montana, view: dict[str, Any], needs: dict[int, list[list[Counter[Tile]]]],
            rng: random.Random) -> Montana | None:
    """``game`` (a sampled world) changed in place to meet ``needs``, or ``None`` when it cannot.

    The sampler respects what the claim windows a seat was *not* asked in proved (it holds
    at most so many copies); ``needs`` carries what the windows it *was* asked in proved:
    per seat, requirements each met by one of its options (a pair of the tile, or the two
    other tiles of a run, less what it has shown since). Uniform worlds almost never give
    a seat such a pair, so each such seat is given the tiles: for each requirement an
    option it already holds, else one drawn at random; each missing tile is swapped in
    from wherever the world put it (the woodpile, a dead hand, another seat that needs it
    less) for a tile of the seat's that no requirement names. Never touched: the viewer's
    hand, ready seats' hands, a pulled tile. ``None`` when a swap finds no tile to give or
    take, when the new hands break a proved limit or a ready hand's tests, or when an open
    claim window would ask other seats or forbid an answer already given.
    """
    if not needs:
        return game
    me = view["seat"]
    pulled = set(game.pulled) if game.current_player not in (None, me) else set()
    wanted: dict[int, Counter[Tile]] = {}
    for s, reqs in needs.items():
        have = Counter(game.hands[s])
        want: Counter[Tile] = Counter()
        for req in reqs:
            held = [o for o in req if all(have[t] >= k for t, k in o.items())]
            option = held[0] if held else rng.choice(req)
            want |= option
        wanted[s] = want
    changed: set[int] = set()
    for s, want in wanted.items():
        hand = game.hands[s]
        for t, k in want.items():
            while hand.count(t) < k:
                if not _swap_in(game, s, t, wanted, pulled if s == game.current_player else set(), rng, me):
                    return None
                changed.add(s)
    if not changed:
        return game
    for s in range(game.players):
        game.hands[s].sort(reverse=True)
        game.codes[s] = an.encode(game.hands[s])
    hidden = [s for s in range(game.players) if s != me]
    if not _sample_fits(game, hidden, list(game.pulled) if game.current_player in hidden else []):
        return None
    if game.claim_tile is not None and game.claim_queue:
        queue, options = game._window(game.claim_from, game.claim_tile)
        if queue != [*game.answers, *game.claim_queue]:
            return None
        if any(a not in options[s] for s, a in game.answers.items() if s != me):
            return None
        game.claim_options = options
    return game


def _swap_in(game: Montana, seat: int, t: Tile, wanted: dict[int, Counter[Tile]], keep: set[Tile],
             rng: random.Random, me: int | None) -> bool:
    """Move one copy of ``t`` into ``seat``'s hand from a hidden place, a spare tile of the seat's out to it."""
    hand = game.hands[seat]
    spare = [i for i, u in enumerate(hand) if u != t and u not in keep and hand.count(u) > wanted[seat][u]]
    if not spare:
        return False
    places: list[tuple[list[Tile], int]] = []
    wood = game.wood
    places.extend((wood, i) for i in range(game.wood_at, len(wood)) if wood[i] == t)
    places.extend((game.dead, i) for i, u in enumerate(game.dead) if u == t)
    for other in range(game.players):
        if other in (seat, me) or game.ready[other]:
            continue
        theirs = game.hands[other]
        pulled = game.pulled if other == game.current_player else []
        if theirs.count(t) > wanted.get(other, Counter())[t] and t not in pulled:
            places.extend((theirs, i) for i, u in enumerate(theirs) if u == t)
    if not places:
        return False
    where, at = rng.choice(places)
    give = rng.choice(spare)
    where[at], hand[give] = hand[give], where[at]
    return True
