"""The rule helpers the engines export (and the bots call) read the views as the engines play.

Each helper is the engine's own rule, so its scripted tests cover the rule itself; these
tests check that a bot, feeding the helpers only what a view shows, reaches the engine's
own verdicts: every finished trick's winner, every play's suit and rank.
"""

from __future__ import annotations

import random

import boneyard
from boneyard.games.eighty import engine as eighty
from boneyard.games.rounce import engine as rounce
from boneyard.tiles import Tile


def _random_games(game_id: str, seeds: range, **kwargs: object) -> list[dict[str, object]]:
    """The final-hand views of seat 0 at every action of seeded random games."""
    views = []
    for seed in seeds:
        game = boneyard.new_game(game_id, seed=seed, **kwargs)  # type: ignore[arg-type]
        rng = random.Random(seed)
        while not game.is_over:
            views.append(game.view(0))
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    return views


def test_eighty_trick_winner_from_the_view_is_the_engines() -> None:
    checked = 0
    for doubles in (False, True):
        for view in _random_games("eighty", range(3), rules={"doubles_suit": doubles, "nello": True}):
            if not view["tricks"] or view["trick"]:
                continue
            last = view["tricks"][-1]  # type: ignore[index]
            trump = 0 if view["nello"] else view["trump"] or 0
            plays = [(p["seat"], Tile.parse(p["tile"])) for p in last["plays"]]
            seat, power = eighty.trick_winner(plays, eighty.tables(trump, doubles))
            assert seat == last["winner"]
            led = eighty.lead_suit(plays[0][1], trump, doubles)
            assert power == max(eighty.power(t, led, trump, doubles) for _, t in plays)
            checked += 1
    assert checked > 50


def test_rounce_placement_and_trick_winner_from_the_view_are_the_engines() -> None:
    checked = 0
    for view in _random_games("rounce", range(6), players=3):
        if not view["tricks"] or view["trick"]:
            continue
        last = view["tricks"][-1]  # type: ignore[index]
        trump = view["trump"]
        led = last["plays"][0]["suit"]
        for i, p in enumerate(last["plays"]):
            t = Tile.parse(p["tile"])
            suit, rank = rounce.placement(t, trump, None if i == 0 else led, p["suit"] if i == 0 else None)
            assert (suit, rank) == (p["suit"], p["rank"])
        placed = [(p["suit"], p["rank"]) for p in last["plays"]]
        assert last["plays"][rounce.trick_winner(placed, trump)]["seat"] == last["winner"]
        checked += 1
    assert checked > 30


def test_rummikub_play_notation_is_the_engines_and_reads_back() -> None:
    """One writer of the notation: the engine's actions print with it and parse back to themselves."""
    from boneyard.games.rummikub.engine import Rummikub
    from boneyard.games.rummikub.groups import play_notation

    game = boneyard.new_game("rummikub", seed=4)
    plays = [a for a in game.legal_actions() if a.kind == "play"]
    assert plays
    for action in plays:
        assert str(action) == play_notation(action.groups)
        assert Rummikub.parse_action(play_notation(action.groups)) == action
