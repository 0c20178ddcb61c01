"""Eighty's reading of the table: each seat's past decisions, asked again of a sampled world.

Inference (:mod:`boneyard.bots.inference`) weighs a world the search samples by how likely
the other seats' real bids, trump calls and plays are under greedy's heuristic
(``greedy/eighty.py``), had they held the hands the world gives them. :func:`past_decisions`
rebuilds each of a seat's decisions of this hand (the view it had, the legal actions
then, and which of them it took) from the public record and the world's hand.

Joined in the game's search profile, :mod:`boneyard.bots.profiles.eighty`.
"""

from __future__ import annotations

from typing import Any

from ...games.eighty.engine import BIDS, MAX_BID, MIN_BID, NELO, PASS, PLAYS, TRUMP_LIST, tables
from ...tiles import tile_of

tile = tile_of  # a tile from its notation (a table lookup)


def past_decisions(view: dict[str, Any], world: Any, seat: int) -> list[tuple[dict[str, Any], list[Any], Any]]:
    """``seat``'s bid, trump call and plays of this hand as decisions to re-ask (``ismcts`` inference).

    Its hand at the bidding is its hand in the sampled ``world`` plus every tile it has
    played this hand (nobody draws in Eighty); before each play, the tiles played since.
    The bids then are those of the seats before it (the bidding starts left of the
    shuffler), the legal plays follow the engine's suit tables
    (:func:`~boneyard.games.eighty.engine.tables`). A bid made after a Nel-O bid is not
    judged (the heuristic never bids over one).
    """
    tricks = view["tricks"]
    rounds = [t["plays"] for t in tricks] + ([view["trick"]] if view["trick"] else [])
    mine = [(i, j) for i, plays in enumerate(rounds) for j, p in enumerate(plays) if p["seat"] == seat]
    held = list(world.hands[seat]) + [tile(rounds[i][j]["tile"]) for i, j in mine]
    out: list[tuple[dict[str, Any], list[Any], Any]] = []
    base = {**view, "seat": seat, "current_player": seat, "tricks": [], "trick": []}
    bids = view["bids"]
    if bids[seat] is not None:
        order = [(view["shuffler"] + 1 + k) % 4 for k in range(4)]
        earlier = order[: order.index(seat)]
        said = [bids[s] for s in earlier]
        if "nel-o" not in said:
            numbers = [b for b in said if isinstance(b, int)]
            high = max(numbers) if numbers else None
            low = MIN_BID if high is None else high + 1
            legal = [PASS, *(BIDS[n] for n in range(low, MAX_BID + 1))]
            if view["rules"].get("nello"):
                legal.append(NELO)
            past = {
                **base,
                "phase": "bid",
                "hand": [str(t) for t in sorted(held, reverse=True)],
                "bids": [bids[s] if s in earlier else None for s in range(4)],
                "high_bid": high,
                "bidder": None,
                "trump": None,
                "nello": False,
            }
            wanted = "pass" if bids[seat] == "pass" else f"bid {bids[seat]}"
            out.append((past, legal, lambda a, w=wanted: str(a) == w))
    trump = view["trump"]
    if trump and view["bidder"] == seat:
        past = {**base, "phase": "trump", "hand": [str(t) for t in sorted(held, reverse=True)], "trump": None}
        out.append((past, list(TRUMP_LIST), lambda a, w=trump: a.number == w))
    if not mine:
        return out
    tabs = tables(trump or 0, bool(view["rules"].get("doubles_suit", False)))
    for i, j in mine:
        play = rounds[i][j]
        before = rounds[i][:j]
        hand = sorted(held, reverse=True)
        if before:
            member = tabs.member[tabs.lead_suit[tile(before[0]["tile"]).key]]
            hand = [t for t in hand if member[t.key]] or hand
        legal = list({t.key: PLAYS[t.key] for t in hand}.values())
        past = {
            **base,
            "phase": "play",
            "hand": [str(t) for t in sorted(held, reverse=True)],
            "tricks": tricks[:i],
            "trick": before,
        }
        played = tile(play["tile"])
        out.append((past, legal, lambda a, w=played: a.tile == w))
        held.remove(played)
    return out
