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

:func:`playout` is a much cheaper policy for the ``ismcts`` bot's playouts (the hand
analysis costs milliseconds a discard, over hands of about a hundred moves): go out,
quads and adds as above, claim every quad and triple and the runs made of two tiles held
singly, declare ready whenever a discard allows it, and discard the tile least connected
to the rest of its suit in hand (copies, then neighbours one and two apart). Playouts
run to the hand's end. :data:`PROFILE` makes the bot search flat over :func:`candidates` (on
the same sampled worlds for every candidate), keeping its favourite unless another
candidate's paired lead is one standard error above zero. The favourite
(the profile's ``favourite_chooser``) is :func:`widest`: greedy's choice, but between discards equally near
going out, the one that more unseen tiles would help.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...games.montana import analysis as hands
from ...games.montana.engine import HAND, SEATS
from ...tiles import Tile, double_six, tile_of
from ..profile import SearchProfile

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


def _live_waits(hand: list[Tile], one_pair: bool, rest: Counter[Tile]) -> int:
    return sum(rest[t] for t in hands.waits(hands.encode(hand), one_pair))


def _discard_key(hand: list[Tile], t: Tile, one_pair: bool, rest: Counter[Tile], live: list[Tile]) -> tuple:
    left = list(hand)
    left.remove(t)
    away = _away(left, one_pair, live)
    waits = _live_waits(left, one_pair, rest) if away == 1 else 0
    return (away, -waits, t.high < 4, -t.pips)


def best_discard(hand: list[Tile], one_pair: bool, rest: Counter[Tile]) -> tuple[Tile, tuple]:
    """The tile to throw and its key (tiles away, -live waits, ...)."""
    live = list(rest.elements())
    keys = {t: _discard_key(hand, t, one_pair, rest, live) for t in set(hand)}
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
    pick = min(options, key=lambda t: (_discard_key(hand, t, one_pair, rest, live), -t.key))
    ready = f"discard {pick} ready"
    if ready in texts:
        left = list(hand)
        left.remove(pick)
        if _live_waits(left, one_pair, rest) >= READY_MIN_WAITS:
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
    keys = {name: _discard_key(hand, tile(name), one_pair, rest, live) for name in plain}
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


def candidates(view: dict[str, Any], legal_actions: Sequence[Any], greedy_action: Any) -> list[Any]:
    """The actions worth a search (``ismcts``'s flat shape): greedy's close seconds.

    On a claim, every answer (they are few). On a discard, the plain discards of the
    tiles that leave the hand as few tiles from going out as greedy's choice does, best
    first by greedy's own key; while another seat is ready (its hand fixed and waiting:
    a discard it goes out on costs three times the hand's value), also those one tile
    further, the safer discards greedy never weighs. At most :data:`MAX_CANDIDATES`
    besides greedy's choice. Anything else: greedy's choice alone (nothing to search).
    """
    texts = {str(a): a for a in legal_actions}
    if any(k.startswith("claim") for k in texts):
        return list(legal_actions)
    plain = {k.split()[1]: a for k, a in texts.items() if k.startswith("discard") and not k.endswith("ready")}
    if len(plain) < 2:
        return [greedy_action]
    one_pair = bool(view["rules"].get("one_pair", False))
    hand = [tile(t) for t in view["hand"]]
    rest = unseen(view)
    live = list(rest.elements())
    keys = {name: _discard_key(hand, tile(name), one_pair, rest, live) for name in plain}
    ranked = sorted(plain, key=lambda name: (keys[name], -tile(name).key))
    seat = view["seat"]
    danger = any(r for s, r in enumerate(view.get("ready") or []) if s != seat)
    reach = keys[ranked[0]][0] + (1 if danger else 0)
    return [greedy_action, *(plain[n] for n in ranked if keys[n][0] <= reach)][: MAX_CANDIDATES + 1]


def playout(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """A cheap Montana policy for search playouts (see the module docstring)."""
    moves: list[tuple[str, Tile | None, Tile | None, Any]] = []
    for a in legal_actions:
        k = str(a)
        words = k.split()
        if words[0] in ("quad", "add", "discard") and len(words) > 1:
            moves.append(("ready" if k.endswith(" ready") else words[0], tile(words[1]), None, a))
        elif k.startswith("claim run "):
            moves.append(("claim run", tile(words[2]), tile(words[3]), a))
        else:
            moves.append((k, None, None, a))
    return pick([tile(text) for text in view["hand"]], moves)


def pick(
    hand: Sequence[Tile],
    moves: Sequence[tuple[str, Tile | None, Tile | None, Any]],
    claims: bool = True,
    ready: bool = True,
) -> Any:
    """:func:`playout`'s choice among ``(kind, tile, second, action)`` moves (the engine's action kinds).

    Go out, else a quad or an add, else claim a quad or a triple, else claim a run made
    with two tiles held singly (a run that breaks up a pair or a triple is not worth it),
    else declare ready with the loosest tile whose discard allows it, else discard the
    loosest tile (:func:`_loosest`), else pass; with none of those, the first move. The
    claims and the ready declarations make the playouts nearer real play: each gains
    chips a hand against the same policy without it (``benchmarks/montana_playout.py``
    switches each off with ``claims`` and ``ready``).
    """
    outs = quad = claim = run = passing = None
    discards: list[tuple[Tile, Any]] = []
    readies: list[tuple[Tile, Any]] = []
    for kind, t, second, a in moves:
        if kind == "out" or kind == "claim out":
            outs = outs or a
        elif kind == "quad" or kind == "add":
            quad = quad or a
        elif kind == "claim quad" and claims:
            claim = a
        elif kind == "claim triple" and claims:
            claim = claim or a
        elif kind == "claim run" and claims and run is None and hand.count(t) == 1 and hand.count(second) == 1:
            run = a
        elif kind == "discard" and t is not None:
            discards.append((t, a))
        elif kind == "ready" and t is not None and ready:
            readies.append((t, a))
        elif kind == "pass":
            passing = a
    if outs is not None:
        return outs
    if quad is not None:
        return quad
    if claim is not None:
        return claim
    if run is not None:
        return run
    if readies:
        return _loosest(hand, readies)
    if not discards:
        return passing if passing is not None else moves[0][3]
    return _loosest(hand, discards)


def _loosest(hand: Sequence[Tile], discards: Sequence[tuple[Tile, Any]]) -> Any:
    """The discard (a ``(tile, action)`` pair's action) of the tile least tied to its suit in ``hand``.

    Tied by copies (2 each), then neighbours one apart (1 each side) and two apart (0.5):
    the lowest score goes, then a tile of an upper suit (lower-suit sets score double),
    then the first by name.
    """
    suits = [[0] * 11 for _ in range(7)]  # per suit (the high end), copies of each low end, padded by 2
    for t in hand:
        suits[t.high][t.low + 2] += 1
    best = None
    best_key: tuple[float, bool, str] | None = None
    for t, a in discards:
        row = suits[t.high]
        low = t.low + 2
        key = (
            2.0 * (row[low] - 1)
            + (1.0 if row[low - 1] else 0.0)
            + (1.0 if row[low + 1] else 0.0)
            + 0.5 * ((1 if row[low - 2] else 0) + (1 if row[low + 2] else 0)),
            t.high < 4,
            str(t),
        )
        if best_key is None or key < best_key:
            best, best_key = a, key
    return best


def finish(game: Any, stop: int = 0) -> bool:
    """In the search profile: the hand played to its end with :func:`playout`'s choices, in one call.

    The same actions, in the same order, as calling :func:`playout` on every seat's view
    (checked in ``tests/bots``), but read from the sampled world's own state (each seat's
    hand, the actions' kind and tile) instead of a view built and parsed every move: that
    was most of a search iteration. ``stop`` is for the trick games' solver; Montana has
    none, so it is ignored. ``False`` when nothing was played (the hand already over).
    """
    hand = game.hand_number
    played = False
    while not game.is_over and game.hand_number == hand:
        actions = game.legal_actions()
        game.apply(
            actions[0]
            if len(actions) == 1
            else pick(game.hands[game.current_player], [(a.kind, a.tile, a.second, a) for a in actions])
        )
        played = True
    return played


# ----- defence (read by ismcts; see defend) ------------------------------------------

SAFE_DANGER = 0.05  # expected seats going out on greedy's discard below which it stands
BAIL_DANGER = 0.3  # ... at or above which a discard one tile further from going out is taken if safer
DANGER_MARGIN = 0.05  # a safer discard must cut the danger by at least this much


def danger(worlds: Sequence[Any], seat: int, tiles: Sequence[Tile]) -> dict[Tile, float]:
    """Each tile's expected number of other seats that would go out on it if ``seat`` threw it.

    Judged on sampled ``worlds`` (each a full game consistent with the seat's view, so the
    others' hands respect their exposed sets, what their discards and passes proved, and a
    ready seat's fixed waiting hand); whether a seat may go out on the tile is the
    engine's own rule (``can_go_out_on``).
    """
    out = dict.fromkeys(tiles, 0.0)
    if not worlds:
        return out
    for world in worlds:
        for other in range(world.players):
            if other == seat or not world.hands[other]:
                continue
            for t in tiles:
                if world.can_go_out_on(other, t):
                    out[t] += 1.0
    return {t: v / len(worlds) for t, v in out.items()}


def defend(view: dict[str, Any], legal_actions: Sequence[Any], greedy_action: Any, sample: Any, worlds: int) -> Any:
    """Greedy's discard, or a safer one when greedy's is likely to let another seat go out.

    A seat that goes out on a discard makes the discarder pay three times the hand's value,
    so a discard is judged by its *danger*: the expected number of other seats that go out
    on it (:func:`danger`, over ``worlds`` worlds drawn by ``sample()``, the search's own
    sampler, inference included). Greedy's discard stands when its danger is below
    :data:`SAFE_DANGER`. Otherwise the safest discard that leaves the hand as few tiles from
    going out (one more when greedy's danger reaches :data:`BAIL_DANGER`) replaces it, if
    it cuts the danger by :data:`DANGER_MARGIN` at least; ties go to greedy's own order.
    A ready declaration is kept when the safer tile still allows one with enough live
    waits. Not a discard decision: greedy's action unchanged.
    """
    texts = {str(a): a for a in legal_actions}
    pick = str(greedy_action)
    if not pick.startswith("discard") or worlds < 1:
        return greedy_action
    plain = {k.split()[1]: a for k, a in texts.items() if k.startswith("discard") and not k.endswith("ready")}
    if len(plain) < 2:
        return greedy_action
    seat = view["seat"]
    one_pair = bool(view["rules"].get("one_pair", False))
    hand = [tile(t) for t in view["hand"]]
    rest = unseen(view)
    live = list(rest.elements())
    mine = pick.split()[1]
    drawn = []
    for _ in range(worlds):
        try:
            drawn.append(sample())
        except ValueError:
            break  # no more worlds (the sampler gave up, or the time for them is spent)
    risk = danger(drawn, seat, [tile(n) for n in plain])
    mine_risk = risk[tile(mine)]
    if mine_risk < SAFE_DANGER:
        return greedy_action
    keys = {name: _discard_key(hand, tile(name), one_pair, rest, live) for name in plain}
    reach = keys[mine][0] + (1 if mine_risk >= BAIL_DANGER else 0)
    options = [n for n in plain if keys[n][0] <= reach]
    best = min(options, key=lambda n: (risk[tile(n)], keys[n], -tile(n).key))
    if risk[tile(best)] > mine_risk - DANGER_MARGIN:
        return greedy_action
    if pick.endswith("ready") and f"discard {best} ready" in texts:
        left = list(hand)
        left.remove(tile(best))
        if _live_waits(left, one_pair, rest) >= READY_MIN_WAITS:
            return texts[f"discard {best} ready"]
    return plain[best]


# ----- reading the other hands (read by ismcts's inference; see seat_weight) ---------

_WOODPILE = len(_FULL) - SEATS * HAND  # the woodpile at the start of a hand
READING_STEP = 8  # pulls from the woodpile a stage of the hand spans (see reading_stage)
READING_STAGES = 5  # stages told apart; later pulls count as the last
READING_AWAY = 6  # tiles away told apart (0 to 5); farther counts as the last
# How much more often real play leaves a (not ready) hand this many tiles from going out
# than the sampler deals it, by stage of the hand: real hands over sampled ones, each as a
# share of its stage; 1 where the sampler too rarely deals such a hand to judge. Written by
# benchmarks/montana_reading.py (400 greedy self-play hands, the default run).
AWAY_WEIGHTS: tuple[tuple[float, ...], ...] = (
    (1.0, 1.0, 2.47, 1.127, 0.685, 0.507),
    (1.0, 1.0, 5.0, 0.976, 0.291, 0.114),
    (1.0, 1.0, 6.056, 0.724, 0.144, 0.064),
    (1.0, 1.0, 6.86, 0.549, 0.066, 0.02),
    (1.0, 1.0, 6.323, 0.391, 0.038, 0.024),
)


def reading_stage(view: dict[str, Any]) -> int:
    """How far into the hand a view is, in :data:`READING_STEP` pulls from the woodpile.

    Hands grow nearer to going out as they are played, so real hands are compared with
    sampled ones at the same stage.
    """
    pulled = _WOODPILE - int(view["woodpile"])
    return min(max(pulled, 0) // READING_STEP, READING_STAGES - 1)


def hidden_away(hand: Sequence[Tile]) -> int:
    """Tiles a seat's concealed hand is from going out (capped at ``READING_AWAY - 1``)."""
    found = hands.tiles_away(hand)
    return READING_AWAY - 1 if found is None else min(found, READING_AWAY - 1)


def seat_weight(view: dict[str, Any], world: Any, seat: int) -> float:
    """The weight of ``seat``'s hand in a sampled ``world``, for inference from play.

    A uniform deal gives the other seats hands as scattered as chance makes them, but
    real players keep the tiles that fit and throw the rest: by the middle of a hand
    most real hands are two tiles from going out, most dealt ones three or four. A
    world is weighted by how much more often real play leaves a hand as far from going
    out as this one, at this stage of the hand (:data:`AWAY_WEIGHTS`). A ready seat's
    hand is already fixed by the sampler (weight 1).
    """
    if view["ready"][seat]:
        return 1.0
    return AWAY_WEIGHTS[reading_stage(view)][hidden_away(world.hands[seat])]


# ----- what the claim windows proved the others hold (read by ismcts; see explain) -----


# One requirement: the hand holds at least one of these multisets of tiles.
Requirement = list[Counter[Tile]]


def hand_events(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The view's events since the current hand was dealt: what a reading of this hand looks at.

    A view's events also keep the end of the previous hand (everything up to its
    ``hand_end``); the current hand is what follows the last ``deal`` event. A view with
    no ``deal`` (a game that has not dealt yet) gives all its events.
    """
    events: Sequence[Mapping[str, Any]] = view["events"]
    for i in range(len(events) - 1, -1, -1):
        if events[i]["kind"] == "deal":
            return list(events[i + 1 :])
    return list(events)


def _passed(seat: int, t: Tile, discarder: int, players: int) -> Requirement:
    """What a seat that passed on ``t`` held to be asked: a pair of it, or (next after the discarder) a run's two."""
    req = [Counter({t: 2})]
    if seat == (discarder + 1) % players and players > 2 and t.high >= 2:
        for first in range(max(0, t.low - 2), min(t.low, t.high - 2) + 1):
            run = [Tile(t.high, k) for k in range(first, first + 3) if k != t.low]
            req.append(Counter(run))
    return req


def _answered(answer: Mapping[str, Any], t: Tile, discarder: int, players: int) -> Requirement | None:
    """What one answer in a claim window proves its seat held (``None`` for out: nothing is read from it)."""
    claim = answer["claim"]
    if claim == "pass":
        return _passed(int(answer["seat"]), t, discarder, players)
    if claim == "triple":
        return [Counter({t: 2})]
    if claim == "quad":
        return [Counter({t: 3})]
    if claim == "run":
        return [Counter(tile(x) for x in answer["tiles"])]
    return None


def held_requirements(view: dict[str, Any]) -> dict[int, list[Requirement]]:
    """What this hand's claim windows proved each other seat still holds, read from its events.

    A seat is asked about a discard only when it has a claim on it, and everyone sees who
    was asked and, once all have answered, the answers (the ``answers`` event). So a seat
    that **lost a claim** held its tiles: a pair for a triple, three for a quad, the two
    other tiles of a run. A seat that **passed** held a pair of the tile, or (the seat
    just after the discarder) the other two tiles of a run with it, or a hand the tile
    completed; the last is left out, since a player who can go out on a discard nearly
    always does. Every tile the seat has shown since (``discard``, the hand's tiles laid
    in a ``claimed`` set, a ``quad`` or an ``add``) is taken off what it was proved to
    hold. Not read: ready seats (their hands are fixed by the sampler, tested against
    every pull and claim) and the seat itself. Returns, per seat, the requirements still
    standing: each a list of options, one of which the hand holds.
    """
    n = int(view["players"])
    reqs: dict[int, list[Requirement]] = {}
    ready: set[int] = set()

    def shown(seat: int, t: Tile, k: int = 1) -> None:
        for req in reqs.get(seat, ()):
            for option in req:
                option[t] = max(0, option[t] - k)
        reqs[seat] = [req for req in reqs.get(seat, ()) if all(+option for option in req)]

    for event in hand_events(view):
        kind = event["kind"]
        if kind == "discard":
            shown(event["seat"], tile(event["tile"]))
            if event["ready"]:
                ready.add(event["seat"])
        elif kind == "answers":
            t, discarder = tile(event["tile"]), int(event["discarder"])
            for answer in event["answers"]:
                seat = int(answer["seat"])
                req = None if seat in ready else _answered(answer, t, discarder, n)
                if req is not None:
                    reqs.setdefault(seat, []).append(req)
        elif kind == "claimed":
            # the set laid less the discard taken: the tiles that came from the hand (none for out)
            laid = Counter(tile(x) for x in event["tiles"])
            laid[tile(event["tile"])] -= 1
            for t, k in (+laid).items():
                shown(event["seat"], t, k)
        elif kind == "quad":
            shown(event["seat"], tile(event["tile"]), 4)
        elif kind == "add":
            shown(event["seat"], tile(event["tile"]))
    me = view["seat"]
    now_ready = view.get("ready") or []
    rest = unseen(view) if me is not None else Counter(_FULL)
    out: dict[int, list[Requirement]] = {}
    for s, found in reqs.items():
        if s == me or s in ready or (s < len(now_ready) and now_ready[s]):
            continue
        # an option the unseen tiles cannot make (the seat's reason was a hand the tile completed)
        kept = [[o for o in req if all(rest[t] >= k for t, k in o.items())] for req in found]
        kept = [req for req in kept if req]
        if kept:
            out[s] = kept
    return out


_held_cache: tuple[Any, int, dict[int, list[Requirement]]] | None = None


def _held(view: dict[str, Any]) -> dict[int, list[Requirement]]:
    """:func:`held_requirements` for ``view``, read once per decision (every world drawn asks)."""
    global _held_cache
    count = len(view["events"])
    if _held_cache is not None and _held_cache[0] is view and _held_cache[1] == count:
        return _held_cache[2]
    found = held_requirements(view)
    _held_cache = (view, count, found)
    return found


def explain(view: dict[str, Any], world: Any, rng: random.Random) -> Any:
    """The claim windows replayed in a sampled ``world`` (in the search profile).

    The sampler respects what the windows a seat was *not* asked in proved (it holds at
    most so many copies), but not what the windows it *was* asked in proved: that it
    holds a pair of the tile, or the two other tiles of a run, less what it has shown
    since (:func:`held_requirements`, read from the events). The engine's ``conform``
    gives each such seat the tiles, moving them within the rules. Returns the world, or
    ``None`` when it cannot be made to fit; the caller then draws another.
    """
    needs = _held(view)
    if not needs:
        return world
    return world.conform(view, needs, rng)


#: How ``ismcts`` and the coach play Montana (:mod:`boneyard.bots.profile`).
PROFILE = SearchProfile(
    margin_scale=30.0,  # a hand's typical score swing, squashing margins into [0, 1]
    search="flat",  # a few candidates compared on common sampled worlds (see candidates) ...
    evidence_z=1.0,  # ... greedy overruled only on this many standard errors of evidence
    candidates=candidates,
    # the search starts from widest's choice (greedy's, widened by acceptance) instead of greedy's
    favourite="own",
    favourite_chooser=widest,
    playout=playout,
    finish=finish,
    defend=defend,
    defence_worlds=24,  # sampled worlds a defended discard is judged on (ismcts's ``defence`` parameter overrides)
    # inference: worlds drawn per weighted sample; 0: off unless asked for (ismcts:infer=N)
    seat_weight=seat_weight,
    infer_candidates=0,
    # the claim windows' reading: off unless asked (ismcts:explain=1), since head to head it
    # gained nothing measurable (docs/bots-measurements.md, "Montana reads the claim windows")
    explain=explain,
    explain_by_default=False,
    choose=choose,
)
