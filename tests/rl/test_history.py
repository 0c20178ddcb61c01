"""The history window: every declared event kind has its row, written from the event's fields.

Each game's encoding declares in ``told`` how each kind of event becomes a row (actor,
verb slot, tile). Here: every kind the game declares is told (and nothing else); scripted
events give exactly the rows the old history lines gave (the verbs and tiles of
``docs/rl.md``); Montana's claim windows reach the observation (who claimed, what was
claimed, who won it); and the window holds what the view holds (this hand's events and
the previous hand's end).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np
import pytest

import boneyard
from boneyard.games import schema
from boneyard.rl import encoding
from boneyard.rl.encoding import HISTORY_WINDOW, KINDS, NOTHING, OTHER, Encoding, Row, Told
from boneyard.tiles import Tile

GAMES = boneyard.games()

# Scripted events of every kind and the row each must give (the old history lines' rows).
SCRIPTED: dict[str, list[tuple[dict[str, Any], Row]]] = {
    "rounce": [
        ({"kind": "first_dealer", "seat": 2}, Row((2,), "deals", None)),
        ({"kind": "deal", "hand": 1, "dealer": 2, "turn_up": "6-4", "trump": 6}, NOTHING),
        ({"kind": "dealt", "seat": 1, "tiles": ["5-3", "6-6", "1-0", "2-2", "4-1"]}, Row((1,), "holds", "5-3")),
        ({"kind": "pass", "seat": 3}, Row((3,), "passes", None)),
        ({"kind": "fold", "seat": 0}, Row((0,), "folds", None)),
        ({"kind": "dummy", "seat": 1, "count": 6}, Row((1,), "calls", None)),
        ({"kind": "dummy_tiles", "seat": 1, "tiles": ["6-5", "3-3"]}, Row((1,), "draws", "6-5")),
        ({"kind": "take", "seat": 2, "tile": "6-4"}, Row((2,), "takes", "6-4")),
        ({"kind": "defend", "seat": 2}, Row((2,), "defends", None)),
        ({"kind": "play_on", "seat": 2}, Row((2,), "plays", None)),
        ({"kind": "discard", "seat": 2, "tile": "1-0"}, Row((2,), "discards", "1-0")),
        ({"kind": "discard", "seat": 2}, Row((2,), "discards", None)),  # as the others see it
        ({"kind": "walkover", "seat": 3}, Row((3,), "is", None)),
        ({"kind": "play", "seat": 1, "tile": "5-2", "suit": 5}, Row((1,), "plays", "5-2")),
        ({"kind": "trick", "seat": 1, "number": 2, "plays": []}, Row((1,), "wins", None)),
        ({"kind": "rounced", "seat": 0}, Row((0,), "is", None)),
        ({"kind": "hand_end", "hand": 1}, NOTHING),
        ({"kind": "game_over", "winners": [1]}, NOTHING),
    ],
    "montana": [
        ({"kind": "first_dealer", "seat": 2, "roller": 0, "roll": 3}, Row((0,), OTHER, None)),
        ({"kind": "first_dealer", "seat": 2}, Row((2,), "deals", None)),
        ({"kind": "deal", "hand": 1, "dealer": 2}, NOTHING),
        ({"kind": "dealt", "seat": 3, "tiles": ["6-6", "2-1"]}, Row((3,), "holds", "6-6")),
        ({"kind": "pull", "seat": 1, "tile": "4-4"}, Row((1,), "pulls", "4-4")),
        ({"kind": "pull", "seat": 1}, Row((1,), "pulls", None)),
        ({"kind": "replacement", "seat": 1, "tile": "3-0"}, Row((1,), "pulls", "3-0")),
        ({"kind": "replacement", "seat": 1}, Row((1,), "pulls", None)),
        ({"kind": "woodpile_empty", "seat": 0}, Row((0,), "must", None)),
        ({"kind": "discard", "seat": 1, "tile": "5-2", "ready": False}, Row((1,), "discards", "5-2")),
        ({"kind": "discard", "seat": 1, "tile": "5-2", "ready": True}, Row((1,), "discards", "5-2")),
        ({"kind": "ready_discard", "seat": 3, "tile": "6-1"}, Row((3,), "is", "6-1")),
        ({"kind": "quad", "seat": 2, "tile": "4-4"}, Row((2,), "declares", "4-4")),
        ({"kind": "add", "seat": 2, "tile": "5-5"}, Row((2,), "adds", "5-5")),
        ({"kind": "answer", "seat": 2, "tile": "5-4", "claim": "run", "tiles": ["5-3", "5-5"]},
         Row((2,), "answers", "5-3")),
        ({"kind": "answer", "seat": 2, "tile": "5-4", "claim": "triple"}, Row((2,), "answers", None)),
        ({"kind": "answer", "seat": 2, "tile": "5-4"}, Row((2,), "answers", None)),
        # The claim window's result: every claimant, "claims", the discard.
        ({"kind": "answers", "tile": "5-4", "discarder": 1, "winner": 3,
          "answers": [{"seat": 2, "claim": "run", "tiles": ["5-3", "5-5"]}, {"seat": 3, "claim": "triple"},
                      {"seat": 0, "claim": "pass"}]},
         Row((2, 3), "claims", "5-4")),
        ({"kind": "answers", "tile": "5-4", "discarder": 1, "winner": None,
          "answers": [{"seat": 2, "claim": "pass"}, {"seat": 3, "claim": "pass"}]},
         Row((), "claims", "5-4")),
        ({"kind": "claimed", "seat": 3, "tile": "5-4", "discarder": 1, "set": "triple", "tiles": ["5-4"] * 3},
         Row((3,), "claims", "5-4")),
        ({"kind": "out", "seat": 3, "how": "claim", "tile": "5-4", "discarder": 1, "value": 30},
         Row((3,), "goes", "5-4")),
        ({"kind": "out", "seat": 3, "how": "pull", "tile": "5-4", "discarder": None, "value": 30},
         Row((3,), "goes", None)),
        ({"kind": "hand_end", "hand": 1, "winner": 3}, NOTHING),
        ({"kind": "deals_again", "seat": 2}, Row((2,), OTHER, None)),
        ({"kind": "game_over", "winners": [1]}, NOTHING),
    ],
    "twobox": [
        ({"kind": "redeal"}, NOTHING),
        ({"kind": "deal", "hand": 1, "hand_size": 7, "boneyard": 28}, NOTHING),
        ({"kind": "dealt", "seat": 0, "tiles": ["6-6", "3-1"]}, Row((0,), "holds", "6-6")),
        ({"kind": "spinner", "seat": 0, "tile": "6-6"}, Row((0,), "sets", "6-6")),
        ({"kind": "draw", "seat": 1, "tile": "2-0"}, Row((1,), "draws", "2-0")),
        ({"kind": "draw", "seat": 1}, Row((1,), "draws", None)),
        ({"kind": "play", "seat": 1, "tile": "6-2", "arm": 3}, Row((1,), "plays", "6-2")),
        ({"kind": "stack", "seat": 2, "tile": "6-2", "on": 3}, Row((2,), "stacks", "6-2")),
        ({"kind": "score", "seat": 2, "points": 10, "count": 10}, Row((2,), "scores", None)),
        ({"kind": "steal", "seat": 3, "victim": 2, "points": 20}, Row((3,), "steals", None)),
        ({"kind": "pass", "seat": 0}, Row((0,), "passes", None)),
        ({"kind": "domino", "seat": 0, "points": 25}, Row((0,), "goes", None)),
        ({"kind": "blocked", "seat": 1, "points": 5}, NOTHING),
        ({"kind": "hand_end", "hand": 1}, NOTHING),
        ({"kind": "game_over", "winners": [0]}, NOTHING),
    ],
    "rummikub": [
        ({"kind": "first_dealer", "seat": 1}, Row((1,), "deals", None)),
        ({"kind": "deal", "hand": 1, "dealer": 1, "first": 2}, NOTHING),
        ({"kind": "dealt", "seat": 2, "tiles": ["6-5", "1-1"]}, Row((2,), "holds", "6-5")),
        ({"kind": "draw", "seat": 2, "tile": "3-2"}, Row((2,), "draws", "3-2")),
        ({"kind": "draw", "seat": 2}, Row((2,), "draws", None)),
        ({"kind": "pass", "seat": 3}, Row((3,), "passes", None)),
        ({"kind": "play", "seat": 0, "tiles": ["6-6", "6-5", "6-4"], "opening": True}, Row((0,), "opens", "6-6")),
        ({"kind": "play", "seat": 0, "tiles": ["4-2"], "opening": False}, Row((0,), "plays", "4-2")),
        ({"kind": "domino", "seat": 0}, Row((0,), "plays", None)),
        ({"kind": "blocked", "seat": None}, NOTHING),
        ({"kind": "hand_end", "hand": 1}, NOTHING),
        ({"kind": "game_over", "winners": [0]}, NOTHING),
    ],
    "eighty": [
        ({"kind": "first_dealer", "seat": 3}, Row((3,), "shuffles", None)),
        ({"kind": "deal", "hand": 1, "dealer": 3}, NOTHING),
        ({"kind": "dealt", "seat": 2, "tiles": ["6-6", "5-1"]}, Row((2,), "holds", "6-6")),
        ({"kind": "pass", "seat": 0}, Row((0,), "passes", None)),
        ({"kind": "bid", "seat": 1, "bid": 55}, Row((1,), "bids", None)),
        ({"kind": "thrown_in", "hand": 1, "dealer": 0}, NOTHING),
        ({"kind": "bid_won", "seat": 1, "bid": 55, "early": False}, Row((1,), "wins", None)),
        ({"kind": "nel_o", "seat": 3}, NOTHING),
        ({"kind": "trump", "seat": 1, "suit": 5}, Row((1,), "names", None)),
        ({"kind": "play", "seat": 1, "tile": "5-5"}, Row((1,), "plays", "5-5")),
        ({"kind": "trick", "seat": 2, "number": 1, "points": 12, "plays": []}, Row((2,), "wins", None)),
        ({"kind": "nel_o_set", "seat": 1}, Row((1,), "took", None)),
        ({"kind": "hand_end", "hand": 1}, NOTHING),
        ({"kind": "game_over", "winners": [1, 3]}, NOTHING),
    ],
}


def window(enc: Encoding, obs: np.ndarray) -> list[Row]:
    """The observation's history rows, read back (relative actors; all-zero rows included)."""
    n, verbs = enc.players, enc.verbs
    width = n + len(verbs) + 1 + len(KINDS)
    rows = []
    for j in range(HISTORY_WINDOW):
        row = obs[enc.off["history"] + j * width : enc.off["history"] + (j + 1) * width]
        actors = tuple(int(i) for i in np.flatnonzero(row[:n]))
        slots = np.flatnonzero(row[n : n + len(verbs) + 1])
        tiles = np.flatnonzero(row[n + len(verbs) + 1 :])
        assert len(slots) <= 1 and len(tiles) <= 1 and set(row.tolist()) <= {0.0, 1.0}
        verb = None if not len(slots) else (*verbs, OTHER)[slots[0]]
        rows.append(Row(actors, verb, str(KINDS[tiles[0]]) if len(tiles) else None))
    return rows


def relative(row: Row, me: int, n: int) -> Row:
    """A row with its actors relative to ``me``, as the observation writes it."""
    return Row(tuple(sorted((a - me) % n for a in row.actors)), row.verb, row.tile)


def positions(game_id: str, seeds: int, players: int | None = None) -> Iterator[tuple[Any, int]]:
    """(game, seat) at every step of seeded random games, for every seat."""
    for seed in range(seeds):
        game = boneyard.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            for seat in range(game.players):
                yield game, seat
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_kind_is_told_and_nothing_else(game_id: str) -> None:
    enc = encoding(game_id)
    assert list(enc.told) == list(schema.declared(game_id))
    for kind, teller in enc.told.items():
        if isinstance(teller, Told):
            assert teller.verb in (*enc.verbs, OTHER), kind


@pytest.mark.parametrize("game_id", GAMES)
def test_scripted_events_give_the_rows_of_the_old_lines(game_id: str) -> None:
    enc = encoding(game_id)
    told = {event["kind"] for event, _ in SCRIPTED[game_id]}
    assert told == set(schema.declared(game_id))  # every kind is scripted here
    for event, want in SCRIPTED[game_id]:
        assert enc.row(event) == want, event


@pytest.mark.parametrize("game_id", GAMES)
def test_the_window_is_the_last_events_of_the_view_as_each_seat_sees_them(game_id: str) -> None:
    enc = encoding(game_id)
    n = enc.players
    for checked, (game, seat) in enumerate(positions(game_id, 1)):
        view = game.view(seat)
        events = view["events"][-HISTORY_WINDOW:]
        rows = window(enc, enc.observe(view))
        empty = HISTORY_WINDOW - len(events)
        assert rows[:empty] == [NOTHING] * empty  # fewer events than the window: zero rows first
        assert rows[empty:] == [relative(enc.row(e), seat, n) for e in events]
        if checked >= 400:
            break


@pytest.mark.parametrize("game_id", GAMES)
def test_a_new_hand_starts_with_the_last_hands_end_in_the_window(game_id: str) -> None:
    enc = encoding(game_id)
    # A view just dealt holds the action that ended the last hand, its end and the new deal:
    # fewer rows than the window, so the window starts with zero rows.
    for game, seat in positions(game_id, 3):
        view = game.view(seat)
        if game.hand_number >= 2 and len(view["events"]) < HISTORY_WINDOW:
            rows = window(enc, enc.observe(view))
            assert rows[0] == NOTHING
            assert any(e["kind"] in ("hand_end", "thrown_in") for e in view["events"])
            return
    pytest.fail("no hand start seen")


def claim_windows(seeds: int) -> Iterator[tuple[Any, int, Mapping[str, Any], int]]:
    """(game, seat, answers event, its index in the view) for every Montana claim window seen."""
    seen: set[int] = set()
    for game, seat in positions("montana", seeds):
        events = game.view(seat)["events"]
        for i, event in enumerate(events):
            if event["kind"] == "answers" and (id(event), seat) not in seen and len(events) - i <= HISTORY_WINDOW:
                seen.add((id(event), seat))  # type: ignore[arg-type]
                yield game, seat, event, len(events) - 1 - i


def test_montana_claims_reach_the_observation() -> None:
    """Who claimed the discard, that a claim window closed on it, and who won it, for every seat."""
    enc = encoding("montana")
    n = enc.players
    claimed = passed = won = 0
    for game, seat, event, back in claim_windows(12):
        view = game.view(seat)
        rows = window(enc, enc.observe(view))
        row = rows[HISTORY_WINDOW - 1 - back]
        claimants = [a["seat"] for a in event["answers"] if a["claim"] != "pass"]
        assert row == Row(tuple(sorted((s - seat) % n for s in claimants)), "claims", event["tile"])
        if claimants:
            claimed += 1
        else:
            passed += 1
        events = view["events"]
        at = len(events) - 1 - back
        if event["winner"] is not None and back >= 1:
            # The next event is the winner taking the discard: him alone, "claims", the discard.
            assert events[at + 1]["kind"] == "claimed" and events[at + 1]["seat"] == event["winner"]
            assert rows[HISTORY_WINDOW - back] == Row(((event["winner"] - seat) % n,), "claims", event["tile"])
            won += 1
        if claimed >= 20 and passed >= 20 and won >= 10:
            return
    pytest.fail(f"too few claim windows: {claimed} with claims, {passed} all passed, {won} won")


def test_a_montana_run_claim_shows_its_tiles_only_to_the_claimant() -> None:
    enc = encoding("montana")
    for game, seat in positions("montana", 20):
        for event in game.view(seat)["events"]:
            if event["kind"] == "answer" and event.get("claim") == "run":
                assert event["seat"] == seat
                assert enc.row(event) == Row((seat,), "answers", event["tiles"][0])
                others = [e for s in range(game.players) if s != seat for e in game.view(s)["events"]
                          if e["kind"] == "answer" and e["seat"] == seat and e["tile"] == event["tile"]]
                assert others and all(enc.row(e) == Row((seat,), "answers", None) for e in others)
                return
    pytest.fail("no run claim seen")


def test_a_scripted_montana_claim_window_in_the_vector() -> None:
    """A hand-made view whose window holds a claim window: the exact entries of its rows."""
    enc = encoding("montana")
    view = boneyard.new_game("montana", seed=0).view(1)
    discard = {"kind": "discard", "seat": 0, "tile": "5-4", "ready": False}
    result = {"kind": "answers", "tile": "5-4", "discarder": 0, "winner": 3,
              "answers": [{"seat": 1, "claim": "pass"}, {"seat": 2, "claim": "triple"},
                          {"seat": 3, "claim": "out", "completes": "triple"}]}
    taken = {"kind": "claimed", "seat": 3, "tile": "5-4", "discarder": 0, "set": "out", "tiles": []}
    view["events"] = [discard, {"kind": "answer", "seat": 1, "tile": "5-4", "claim": "pass"},
                      {"kind": "answer", "seat": 2, "tile": "5-4"}, {"kind": "answer", "seat": 3, "tile": "5-4"},
                      result, taken]
    rows = window(enc, enc.observe(view))
    assert rows == [NOTHING, NOTHING,
                    Row((3,), "discards", "5-4"),  # seat 0, three seats after seat 1
                    Row((0,), "answers", None), Row((1,), "answers", None), Row((2,), "answers", None),
                    Row((1, 2), "claims", "5-4"),  # seats 2 and 3 claimed it
                    Row((2,), "claims", "5-4")]  # and seat 3 took it
    obs = enc.observe(view)
    width = enc.players + len(enc.verbs) + 1 + len(KINDS)
    at = enc.off["history"] + 6 * width
    assert np.flatnonzero(obs[at : at + width]).tolist() == [
        1, 2, enc.players + enc.verbs.index("claims"), enc.players + len(enc.verbs) + 1 + KINDS.index(Tile(5, 4))]


def test_an_event_kind_no_game_declares_gets_a_zero_row() -> None:
    enc = encoding("rounce")
    assert enc.row({"kind": "no_such_kind", "seat": 1}) == NOTHING


def test_a_row_naming_a_verb_the_game_does_not_have_is_refused() -> None:
    class Odd(type(encoding("rounce"))):  # type: ignore[misc]
        told: ClassVar = {**type(encoding("rounce")).told, "pass": lambda e: Row((e["seat"],), "shrugs", None)}

    enc = Odd(4)
    game = boneyard.new_game("rounce", seed=1)
    while not any(e["kind"] == "pass" for e in game.view(0)["events"]):
        game.apply("pass" if "pass" in map(str, game.legal_actions()) else game.legal_actions()[0])
    with pytest.raises(ValueError, match="shrugs"):
        enc.observe(game.view(0))
    with pytest.raises(ValueError, match="not one of"):
        type("Bad", (Odd,), {"told": {"pass": Told("shrugs")}})(4)
