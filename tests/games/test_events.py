"""Typed events, for every game: valid against the schema, the same on replay, and hiding what they must.

Seeded random games of every game and player count are played to the end while every
seat's events (and the spectator's) are collected as they appear in the views; then:

- every event validates against the game's shipped JSON Schema, and the shipped schema
  files and the tables of ``docs/api.md`` are those the declarations make;
- replaying the record (``boneyard.api.story``) gives each seat exactly the events it
  saw live, and a view's events are exactly the tail of that story (bounded to this hand
  and the previous hand's end);
- a part declared for one seat only is never in another seat's view (``dealt`` events,
  a pulled or drawn tile, a Montana answer), and the swap test: two deals differing only
  by tiles a seat cannot see give that seat the same events;
- each hand ends with a ``hand_end`` whose ``totals`` are the scores after the hand and
  whose ``points`` add up with them, and the game with one ``game_over`` naming the winners.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import boneyard
from boneyard.api import story
from boneyard.games import schema
from boneyard.testing import hidden_swap

GAMES = boneyard.games()
ROOT = Path(__file__).resolve().parents[2]


def cases() -> list[tuple[str, int]]:
    """(game, players) pairs: every legal player count of every game."""
    out = []
    for g in GAMES:
        p = boneyard.game_info(g)["players"]
        out += [(g, n) for n in range(p["min"], p["max"] + 1)]
    return out


def validator(game_id: str) -> jsonschema.protocols.Validator:
    """A validator of one event of ``game_id``, from the shipped schema file."""
    spec = json.loads(schema.schema_path(game_id).read_text())
    cls = jsonschema.validators.validator_for(spec)
    cls.check_schema(spec)
    return cls(spec)


def play(game_id: str, players: int, seed: int) -> tuple[Any, dict[int | None, list[Mapping[str, Any]]]]:
    """A random game to the end, with every seat's events as the views showed them, in order."""
    rng = random.Random(seed)
    g = boneyard.new_game(game_id, players=players, seed=seed)
    seats: list[int | None] = [*range(players), None]
    seen: dict[int | None, list[Mapping[str, Any]]] = {s: [] for s in seats}

    def collect() -> None:
        for s in seats:
            view = g.view(s)
            events, start = view["events"], view["events_from"]
            total = start + len(events)
            new = total - len(seen[s])
            assert 0 <= new <= len(events), f"seat {s}: events were cut before the view showed them"
            assert [dict(e) for e in seen[s][start:]] == [dict(e) for e in events[: len(events) - new]], (
                f"seat {s}: a listed event changed"
            )
            seen[s].extend(events[len(events) - new :])

    collect()
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        collect()
    return g, seen


@pytest.mark.parametrize("game_id", GAMES)
def test_shipped_schemas_and_docs_match_the_declarations(game_id: str) -> None:
    assert schema.schema_path(game_id).read_text() == schema.schema_text(game_id), (
        "events.schema.json is stale: run python -m boneyard.games.schema"
    )
    page = (ROOT / "docs" / "api.md").read_text()
    assert schema.markdown(game_id) in page, "docs/api.md's events table is stale: run python -m boneyard.games.schema"


@pytest.mark.parametrize(("game_id", "players"), cases())
def test_events_validate_replay_and_hide(game_id: str, players: int) -> None:
    check = validator(game_id)
    kinds = schema.declared(game_id)
    for seed in range(2):
        g, seen = play(game_id, players, seed)
        record = json.loads(json.dumps(g.record()))
        for seat, events in seen.items():
            for e in events:
                errors = sorted(check.iter_errors(e), key=str)
                assert not errors, f"{game_id} {e['kind']} event fails the schema: {errors[0].message}: {e}"
                td = kinds[e["kind"]]
                if schema.is_private(td):
                    assert seat is not None and e["seat"] == seat, f"{e['kind']} shown to a seat it is not for"
                for name in schema.secret_fields(td):
                    if name in e:
                        assert seat is not None and e["seat"] == seat, f"{e['kind']}'s {name} shown to another seat"
            replayed = [e for _, e in story(record, seat)]
            assert replayed == events, f"seat {seat}: replaying the record tells other events"
            assert g.view(seat)["events"] == events[len(events) - len(g.view(seat)["events"]) :]
        check_ends(g, seen[None])


def check_ends(g: Any, events: list[Mapping[str, Any]]) -> None:
    """Hand ends carry points that sum to the totals; the game ends once, with its winners."""
    ends = [e for e in events if e["kind"] == "hand_end"]
    assert ends, "no hand ended"
    for before, after in itertools.pairwise(ends):
        assert len(after["points"]) == len(after["totals"]) == g.players
        assert after["hand"] > before["hand"]
    assert ends[-1]["totals"] == list(g.scores)
    overs = [e for e in events if e["kind"] == "game_over"]
    assert len(overs) == 1 and events[-1] is overs[0]
    assert overs[0]["winners"] == list(g.winners)


@pytest.mark.parametrize(("game_id", "players"), [c for c in cases() if c[0] != "montana"])
def test_hand_points_add_up_to_the_totals(game_id: str, players: int) -> None:
    """Each hand's ``points`` are the change of ``totals`` from the hand before (Montana's ready stakes aside)."""
    _, seen = play(game_id, players, 7)
    start = list(boneyard.new_game(game_id, players=players, seed=7).scores)
    for e in (e for e in seen[None] if e["kind"] == "hand_end"):
        assert [a + b for a, b in zip(start, e["points"], strict=True)] == e["totals"], e
        start = e["totals"]


@pytest.mark.parametrize(("game_id", "players"), cases())
def test_a_seat_sees_the_same_events_whatever_it_cannot_see(game_id: str, players: int) -> None:
    """The swap test on events: decks differing by two tiles hidden from a seat tell it the same events."""
    for seed in range(3):
        found = hidden_swap(game_id, players, seed)
        if found is None:
            continue
        deck, swapped, seat = found
        rng = random.Random(seed)
        g1 = boneyard.new_game(game_id, players=players, seed=seed, deck=deck, dealer=0)
        g2 = boneyard.new_game(game_id, players=players, seed=seed, deck=swapped, dealer=0)
        for _ in range(300):
            if g1.is_over or g2.is_over or g1.view(None) != g2.view(None):
                break
            if g1.view(seat)["hand"] != g2.view(seat)["hand"]:
                break  # the seat now holds a swapped tile: no longer hidden from it
            assert g1.view(seat)["events"] == g2.view(seat)["events"], f"seat {seat}'s events reveal a hidden tile"
            legal2 = {str(a) for a in g2.legal_actions()}
            choices = [a for a in g1.legal_actions() if str(a) in legal2]
            if not choices:
                break
            action = str(rng.choice(choices))
            g1.apply(action)
            g2.apply(action)


def test_a_view_keeps_the_last_play_of_the_hand_before() -> None:
    """After a hand ends and the next is dealt, the view still shows the play that ended it, and its end."""
    g = boneyard.new_game("rounce", players=3, seed=4)
    rng = random.Random(4)
    while g.hand_number == 1:
        g.apply(rng.choice(g.legal_actions()))
    kinds = [e["kind"] for e in g.view(0)["events"]]
    end = kinds.index("hand_end")
    assert kinds[end + 1] == "deal"
    assert kinds.count("deal") == 1, "only the new hand's deal: the hand before is cut"
    assert kinds[0] in ("play", "walkover"), "the action that ended the hand is kept whole"


def test_game_info_and_views_name_the_sides() -> None:
    assert boneyard.game_info("eighty")["sides"] == [[0, 2], [1, 3]]
    assert boneyard.game_info("rounce", players=3)["sides"] == [[0], [1], [2]]
    assert boneyard.new_game("eighty", seed=1).view(None)["partners"] == [[0, 2], [1, 3]]
    assert boneyard.new_game("twobox", players=5, seed=1).view(2)["partners"] == [[s] for s in range(5)]
