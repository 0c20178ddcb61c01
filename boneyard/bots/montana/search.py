"""Montana's search parts: the candidates it weighs, and its cheap playout policy.

The hand analysis that greedy uses costs milliseconds a discard, over hands of about a
hundred moves, so playouts use :func:`playout` instead: go out, quads and adds as greedy
does, claim every quad and triple and the runs made of two tiles held singly, declare
ready whenever a discard allows it, and discard the tile least connected to the rest of
its suit in hand (copies, then neighbours one and two apart). :func:`finish` plays those
choices to the hand's end on a sampled world through the engine's actions. The search
is flat over :func:`candidates`, on the same sampled worlds for every candidate.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...tiles import Tile, tile_of
from ..greedy.montana import MAX_CANDIDATES, discard_key, unseen

tile = tile_of  # a tile from its notation (a table lookup)


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
    keys = {name: discard_key(hand, tile(name), one_pair, rest, live) for name in plain}
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

