"""Montana's defence: a discard judged by how likely another seat goes out on it.

A seat that goes out on a discard makes the discarder pay three times the hand's value,
so before the search, greedy's discard is checked on sampled worlds (:func:`danger`, by
the engine's own claim-out rule) and replaced by a safer one when it is likely to feed
another seat (:func:`defend`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...tiles import Tile, tile_of
from ..greedy.montana import READY_MIN_WAITS, discard_key, live_waits, unseen

tile = tile_of  # a tile from its notation (a table lookup)


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
    keys = {name: discard_key(hand, tile(name), one_pair, rest, live) for name in plain}
    reach = keys[mine][0] + (1 if mine_risk >= BAIL_DANGER else 0)
    options = [n for n in plain if keys[n][0] <= reach]
    best = min(options, key=lambda n: (risk[tile(n)], keys[n], -tile(n).key))
    if risk[tile(best)] > mine_risk - DANGER_MARGIN:
        return greedy_action
    if pick.endswith("ready") and f"discard {best} ready" in texts:
        left = list(hand)
        left.remove(tile(best))
        if live_waits(left, one_pair, rest) >= READY_MIN_WAITS:
            return texts[f"discard {best} ready"]
    return plain[best]


# ----- reading the other hands (read by ismcts's inference; see seat_weight) ---------

