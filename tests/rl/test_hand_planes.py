"""The whole hand in the observation: each seat's plays, the suits it has shown out of, Montana's claims.

The facts come from the view's typed events (``Encoding.derive``); here they are checked
against what the engines themselves know: the tiles on the table, the tricks, and the
voids the engines' own samplers honour (Eighty's ``_voids``, Rounce's ``_constraints``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import boneyard
from boneyard.rl import encoding
from boneyard.rl.encoding import TEXT_INDEX
from boneyard.rl.layout import ViewError
from boneyard.tiles import Tile


def positions(game_id: str, players: int, seeds: range, moves: int = 400) -> Any:
    """Every decision of seeded random games, as the engine game (the same object, moved on)."""
    for seed in seeds:
        game = boneyard.new_game(game_id, players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if game.is_over:
                break
            yield game
            game.apply(rng.choice(game.legal_actions()))


def plane(enc: Any, obs: np.ndarray, name: str, rel: int, width: int) -> np.ndarray:
    """The entries of block ``name`` for relative seat ``rel``."""
    at = enc.off[name] + rel * width
    return obs[at : at + width]


@pytest.mark.parametrize("game_id", ["rounce", "eighty"])
def test_trick_games_plays_by_seat_are_the_tricks_plays(game_id: str) -> None:
    """Every tile played to this hand's tricks, under the seat that played it; nothing else."""
    enc = encoding(game_id)
    checked = 0
    for game in positions(game_id, enc.players, range(6)):
        view = game.view(game.current_player)
        want: list[Counter[str]] = [Counter() for _ in range(enc.players)]
        for trick in [*[t["plays"] for t in view["tricks"]], view["trick"]]:
            for play in trick:
                want[play["seat"]][play["tile"]] += 1
        got = enc.derive(view)["played_by"]
        assert [Counter(p) for p in got] == want
        checked += sum(map(len, got))
    assert checked > 500


def test_eighty_shown_out_suits_are_the_engines_voids() -> None:
    enc = encoding("eighty")
    shown = 0
    for rules in ({}, {"doubles_suit": True}):
        enc = encoding("eighty", 4, rules)
        for seed in range(8):
            game = boneyard.new_game("eighty", seed=seed, rules=rules)
            rng = random.Random(seed)
            while not game.is_over:
                for seat in range(4):
                    got = enc.derive(game.view(seat))["shown_out"]
                    assert [set(s) for s in got] == game._voids(), (seed, seat)
                    shown += sum(map(len, got))
                game.apply(rng.choice(game.legal_actions()))
                if game.hand_number > 3:
                    break
    assert shown > 100


def test_rounce_shown_out_suits_are_those_the_engines_sampler_honours() -> None:
    """A suit is shown out exactly where the engine's constraints forbid the seat its plain tiles."""
    shown = 0
    for players in (2, 4):
        enc = encoding("rounce", players)
        for game in positions("rounce", players, range(10), moves=300):
            view = game.view(game.current_player)
            if view["phase"] != "play":
                continue
            seats = list(range(players))
            allowed, _limits = game._constraints(seats)
            got = enc.derive(view)["shown_out"]
            trump = view["trump"]
            for seat in seats:
                for suit in range(7):
                    if suit == trump:
                        if suit in got[seat]:  # void in trumps: no trump may be dealt to it
                            assert allowed[seat] is not None and not allowed[seat](Tile(trump, trump))
                        continue
                    plain = Tile(suit, suit)  # a plain double shows one suit only
                    forbidden = allowed[seat] is not None and not allowed[seat](plain)
                    assert (suit in got[seat]) == forbidden, (seat, suit, got, view["tricks"], view["trick"])
                shown += len(got[seat])
    assert shown > 50


@pytest.mark.parametrize("game_id", ["twobox", "rummikub"])
def test_layout_games_plays_by_seat_are_the_tiles_on_the_table(game_id: str) -> None:
    """Two-box's spinner, plays and stacks, Rummikub's laid tiles: together, the tiles on the table."""
    enc = encoding(game_id)
    checked = 0
    for game in positions(game_id, enc.players, range(5)):
        view = game.view(game.current_player)
        got = Counter(t for tiles in enc.derive(view)["played_by"] for t in tiles)
        if game_id == "twobox":  # a stacked tile hides a second copy of itself
            table: Counter[str] = Counter()
            if view["spinner"]:
                table[view["spinner"]] += 1 if view["spinner_stacked_by"] is None else 2
            for arm in view["arms"]:
                for item in arm["tiles"]:
                    table[item["tile"]] += 1 if item["stacked_by"] is None else 2
            assert got == table
        else:
            table = Counter(t for group in view["table"] for t in group)
            assert got == table
        checked += got.total()
    assert checked > 200


def test_montana_discards_and_claims_by_seat() -> None:
    """Each discard under its discarder; each claim under its claimant, the claimed tile another's discard."""
    enc = encoding("montana")
    claims = 0
    for game in positions("montana", 4, range(4), moves=600):
        view = game.view(game.current_player)
        facts = enc.derive(view)
        hand = enc.hand_events(view)
        discards: list[Counter[str]] = [Counter() for _ in range(4)]
        for e in hand:
            if e["kind"] in ("discard", "ready_discard"):
                discards[e["seat"]][e["tile"]] += 1
        assert [Counter(d) for d in facts["discarded_by"]] == discards
        for seat, claimed in enumerate(facts["claimed_by"]):
            for t in claimed:
                assert any(discards[s][t] for s in range(4) if s != seat)
            claims += len(claimed)
        # what lies on the table was discarded by the seat the table names
        for seat, t in view["discards"]:
            assert discards[seat][t] > 0
    assert claims > 0


def test_the_planes_reach_the_observation_at_relative_seats() -> None:
    """Rounce: my left-hand neighbour's play shows in its plane (relative seat 1), from every seat's view."""
    enc = encoding("rounce", 4)
    for game in positions("rounce", 4, range(3), moves=200):
        view = game.view(game.current_player)
        facts = enc.derive(view)
        me = view["seat"]
        obs = enc.observe(view)
        for seat in range(4):
            rel = (seat - me) % 4
            row = plane(enc, obs, "played_by", rel, 28)
            assert set(np.flatnonzero(row)) == {TEXT_INDEX[t] for t in facts["played_by"][seat]}
            suits = plane(enc, obs, "shown_out", rel, 7)
            assert set(np.flatnonzero(suits)) == set(facts["shown_out"][seat])


def test_a_view_the_facts_cannot_be_read_from_is_refused_by_name() -> None:
    enc = encoding("rounce")
    view = boneyard.new_game("rounce", seed=2).view(0)
    with pytest.raises(ViewError, match=r"^view\['trump'\] is missing$"):
        enc.observe({k: v for k, v in view.items() if k != "trump"})
    with pytest.raises(ViewError, match=r"^view\['events'\] must be a list, got str$"):
        enc.observe({**view, "events": "x"})
    with pytest.raises(ViewError, match="whose seat is not one of 0 to 3: 7"):
        enc.observe({**view, "events": [*view["events"], {"kind": "play", "seat": 7, "tile": "6-6"}]})
