"""The observation writers of commit 91caeef, kept as the reference the declared blocks are checked against.

The blocks added since (each seat's plays this hand, the suits it has shown out of,
Montana's discards and claims per seat: the ``derived`` facts) are written at the end by
:func:`fill_derived`, entry by entry from the facts the encoding derives (which
``test_hand_planes.py`` checks against the engines).

Before each game's blocks were declared as data (``Block(..., ops)``, run by
``boneyard.rl.layout`` in Python and by ``_observe.c``'s generic interpreter), each game
wrote them in a Python ``fill(buf, view)``, and the common blocks were written by
``Encoding._write``. Those writers had been compared entry by entry with 16b8c50's
observations (``benchmarks/rl_observations_ab.py``); they are copied here unchanged (but
for their names) so that ``test_layout.py`` can check that both interpreters of the
declarations give exactly their values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.games.eighty.engine import MAX_BID, MIN_BID
from boneyard.rl.encoding import HISTORY_WINDOW, KINDS, TEXT_INDEX, TEXT_INDEX_NO_BLANK, Encoding
from boneyard.tiles import Tile

Buffer = list[float]
RECENT = 6
_CALLS = ("pass", "fold", "dummy", "take", "defend")
_CALL_INDEX: dict[str | None, int] = {None: 0, **{c: 1 + i for i, c in enumerate(_CALLS)}}
_SPINNER_NUMBER = {str(t): t.high for t in KINDS if t.is_double}
_BID_SPAN = MAX_BID - MIN_BID
_OPTIONS = ("nello", "doubles_suit", "marks")
_LED_INDEX = {name: 1 + i for i, name in enumerate(("1", "2", "3", "4", "5", "6", "trump", "doubles"))}


def counts(
    buf: Buffer, base: int, items: Sequence[Any], copies: int, index: Mapping[str, int], key: Any = None
) -> None:
    """Entry ``base + index[tile]`` of each item's tile: 1.0 (``copies`` 1), else + 1 / ``copies``."""
    if copies == 1:
        for item in items:
            buf[base + index[item if key is None else item[key]]] = 1.0
        return
    step = 1.0 / copies
    for item in items:
        buf[base + index[item if key is None else item[key]]] += step


def observe_list(enc: Encoding, view: Mapping[str, Any]) -> list[float]:
    """The whole observation as ``Encoding.observe_list`` wrote it: the window's rows, the common blocks, ``fill``."""
    seat = view["seat"]
    buf = [0.0] * enc.obs_size
    events = view["events"][-HISTORY_WINDOW:]
    width = enc.players + len(enc.verbs) + 1 + len(KINDS)
    base = enc.off["history"] + (HISTORY_WINDOW - len(events)) * width
    n = enc.players
    for event in events:
        actors, verb, tile = enc.row(event)
        for a in sorted({(s - seat) % n for s in actors}):
            buf[base + a] = 1.0
        if verb is not None:
            buf[base + n + (*enc.verbs, "other").index(verb)] = 1.0
        if tile is not None:
            buf[base + n + len(enc.verbs) + 1 + KINDS.index(Tile.parse(tile))] = 1.0
        base += width
    rel = [(s - seat) % n for s in range(n)]
    if view["phase"] in enc.phases:
        buf[enc.off["phase"] + enc.phases.index(view["phase"])] = 1.0
    cur = view["current_player"]
    buf[enc.off["to_act"] + (n if cur is None else rel[cur])] = 1.0
    lo, hi = enc.facts.score_bounds
    for s, v in enumerate(view["scores"]):
        x = (v - lo) / (hi - lo)
        buf[enc.off["scores"] + rel[s]] = 0.0 if x < 0.0 else 1.0 if x > 1.0 else x
    FILLS[enc.game_id](enc, buf, view)
    fill_derived(enc, buf, view)
    return buf


def fill_derived(enc: Encoding, buf: Buffer, view: Mapping[str, Any]) -> None:
    """Write the blocks of the derived facts: a tile plane or a suit row per relative seat."""
    facts = enc.derive(view)
    n = enc.players
    me = view["seat"]
    for name, value in facts.items():
        at = enc.off[name]
        if name == "shown_out":
            width, low = (8, 1) if enc.game_id == "eighty" else (7, 0)
            for seat, suits in enumerate(value):
                for suit in suits:
                    buf[at + ((seat - me) % n) * width + suit - low] = 1.0
            continue
        index = TEXT_INDEX_NO_BLANK if enc.game_id == "eighty" else TEXT_INDEX
        copies = {"montana": 4, "rounce": 1}.get(enc.game_id, 2)
        for seat, tiles in enumerate(value):
            counts(buf, at + ((seat - me) % n) * len(index), tiles, copies, index)


def fill_montana(self: Any, buf: Buffer, view: Mapping[str, Any]) -> None:
    """Write Montana's blocks from the view."""
    n = self.players
    rel = [(s - view["seat"]) % self.players for s in range(self.players)]
    (at_hand, at_pulled, at_exposed, at_discards, at_recent, at_claim, at_ready, at_sizes, at_dealer, at_counts,
     at_options) = self.game_off[:11]
    index = TEXT_INDEX
    counts(buf, at_hand, view["hand"], 4, index, None)
    counts(buf, at_pulled, view["pulled"], 1, index, None)
    for s, sets in enumerate(view["exposed"]):
        if sets:
            base = at_exposed + rel[s] * 28
            for m in sets:
                counts(buf, base, m["tiles"], 4, index, None)
    discards = view["discards"]
    counts(buf, at_discards, discards, 4, index, 1)  # [seat, tile] pairs
    width = n + 28
    last = discards[-RECENT:]
    row = at_recent + (RECENT - len(last)) * width
    for s, t in last:
        buf[row + rel[s]] = 1.0
        buf[row + n + index[t]] = 1.0
        row += width
    claim = view["claim"]
    if claim is None:
        buf[at_claim + 28 + n] = 1.0
    else:
        buf[at_claim + index[claim["tile"]]] = 1.0
        buf[at_claim + 28 + rel[claim["from"]]] = 1.0
        for s in claim["answered"]:
            buf[at_claim + 28 + n + 1 + rel[s]] = 1.0
    ready, stakes, sizes = view["ready"], view["stakes"], view["hand_sizes"]
    for s in range(n):
        r = rel[s]
        if ready[s]:
            buf[at_ready + 2 * r] = 1.0
        if stakes[s]:
            buf[at_ready + 2 * r + 1] = stakes[s] / 4
        buf[at_sizes + r] = sizes[s] / 14
    buf[at_dealer + rel[view["dealer"]]] = 1.0
    buf[at_counts] = view["woodpile"] / 112
    buf[at_counts + 1] = min(view["deal_passes"] / n, 1.0)
    if view["mode"] == "shootout":
        buf[at_options] = 1.0
    if view["rules"]["one_pair"]:
        buf[at_options + 1] = 1.0


def fill_twobox(self: Any, buf: Buffer, view: Mapping[str, Any]) -> None:
    """Write two-box's blocks from the view."""
    n = self.players
    rel = [(s - view["seat"]) % self.players for s in range(self.players)]
    (at_hand, at_sizes, at_drawn, at_boneyard, at_spinner, at_arms, at_count, at_passed, at_steal, lay,
     at_target) = self.game_off[:11]
    index = TEXT_INDEX
    counts(buf, at_hand, view["hand"], 2, index, None)
    for s, k in enumerate(view["hand_sizes"]):
        buf[at_sizes + rel[s]] = k / 28 if k < 28 else 1.0
    for s, k in enumerate(view["drawn"]):
        if k:
            buf[at_drawn + rel[s]] = k / 28 if k < 28 else 1.0
    buf[at_boneyard] = view["boneyard"] / 56
    spinner = view["spinner"]
    buf[at_spinner + _SPINNER_NUMBER[spinner]] = 1.0
    if view["spinner_stacked_by"] is not None:
        buf[at_spinner + 7] = 1.0
        buf[lay + index[spinner]] += 1.0
    else:
        buf[lay + index[spinner]] += 0.5
    row = at_arms
    for arm in view["arms"]:
        end = arm["open_end"]
        buf[row + (0 if end is None else end + 1)] = 1.0
        tiles = arm["tiles"]
        if tiles:
            if tiles[-1]["stacked_by"] is None:
                buf[row + 8] = 1.0
            k = len(tiles)
            buf[row + 9] = k / 14 if k < 14 else 1.0
            for e in tiles:
                buf[lay + index[e["tile"]]] += 0.5 if e["stacked_by"] is None else 1.0
        row += 10
    c = view["count"] / 50
    buf[at_count] = c if c < 1.0 else 1.0
    buf[at_count + 1] = view["passes"] / n
    for s, numbers in enumerate(view["passed_on"]):
        base = at_passed + rel[s] * 7
        for x in numbers:
            buf[base + x] = 1.0
    steal = view["steal"]
    if steal is None:
        buf[at_steal + n] = 1.0
    else:
        buf[at_steal + rel[steal["seat"]]] = 1.0
        buf[at_steal + n + 1] = min(steal["points"] / 50, 1.0)
    buf[at_target] = min(view["target"] / 300, 1.0)


def fill_rummikub(self: Any, buf: Buffer, view: Mapping[str, Any]) -> None:
    """Write Rummikub's blocks from the view."""
    n = self.players
    rel = [(s - view["seat"]) % self.players for s in range(self.players)]
    at_hand, at_table, at_groups, at_opened, at_sizes, at_dealer, at_counts = self.game_off[:7]
    index = TEXT_INDEX
    counts(buf, at_hand, view["hand"], 2, index, None)
    base = at_groups
    for group in view["table"]:
        counts(buf, at_table, group, 2, index, None)
        counts(buf, base, group, 2, index, None)
        base += 28
    opened, sizes = view["opened"], view["hand_sizes"]
    for s in range(n):
        if opened[s]:
            buf[at_opened + rel[s]] = 1.0
        buf[at_sizes + rel[s]] = min(sizes[s] / 28, 1.0)
    buf[at_dealer + rel[view["dealer"]]] = 1.0
    buf[at_counts] = view["boneyard"] / 56
    buf[at_counts + 1] = view["passes"] / n
    buf[at_counts + 2] = min(view["target"] / 200, 1.0)


def fill_eighty(self: Any, buf: Buffer, view: Mapping[str, Any]) -> None:
    """Write Eighty's blocks from the view."""
    me = view["seat"]
    rel = [(s - me) % 4 for s in range(4)]
    (at_hand, at_shuffler, at_bids, at_bidder, at_high, at_trump, at_out, at_sizes, at_leader, at_led, at_trick,
     at_played, at_won, at_sides, at_options) = self.game_off[:15]
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


def fill_rounce(self: Any, buf: Buffer, view: Mapping[str, Any]) -> None:
    """Write Rounce's blocks from the view."""
    rel = [(s - view["seat"]) % self.players for s in range(self.players)]
    n = self.players
    (at_hand, at_discarded, at_trump, at_turn_up, at_dealer, at_calls, at_counts, at_sizes, at_leader, at_led,
     at_trick, at_played, at_won) = self.game_off[:13]
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


FILLS = {
    "montana": fill_montana,
    "twobox": fill_twobox,
    "rummikub": fill_rummikub,
    "eighty": fill_eighty,
    "rounce": fill_rounce,
}
