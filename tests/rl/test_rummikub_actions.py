"""Rummikub's action space (layout version 2): rearrangements an agent can choose among.

Scripted positions check the exact plays of each family (the solver's best play, every
valid one-tile extension, the keep-back plays and which of them are left out); seeded
random games check that every index the mask marks is a play the engine accepts, that
applying it changes the table as its family says, and that index and play round-trip.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard.games import game_class
from boneyard.rl import encoding
from boneyard.rl.core import Table
from boneyard.rl.encodings import rummikub as R
from boneyard.tiles import Tile


def position(table: list[str], hand: str, opened: bool = True) -> tuple[Any, dict[str, Any]]:
    """A two-player game with this table and this hand for the seat to act (the hidden tiles dealt at random)."""
    g = boneyard.new_game("rummikub", players=2, seed=0)
    seat = g.current_player
    view = g.view(seat)
    view["table"] = [group.split() for group in table]
    view["hand"] = hand.split()
    view["opened"] = [opened, opened]
    view["hand_sizes"][seat] = len(view["hand"])
    view["boneyard"] = 56 - sum(len(group.split()) for group in table) - sum(view["hand_sizes"])
    game = game_class("rummikub").sample(view, random.Random(0))
    assert game.current_player == seat
    return game, game.view(seat)


def named(enc: Any, mapping: dict[int, Any]) -> dict[int, str]:
    """The legal map as index -> the play's notation."""
    return {i: str(a) for i, a in sorted(mapping.items())}


def kind(text: str) -> int:
    """The index of a tile kind in the 28-kind order."""
    return R.KIND_INDEX[Tile.parse(text)]


def test_the_layout_keeps_version_one_indices_and_adds_the_keep_back_family() -> None:
    enc = encoding("rummikub", 4, actions="rearrange")
    assert R.VERSION == 2 and enc.num_actions == 942
    assert (R.NEW, R.EXTEND, R.REARRANGE, R.KEEP_BACK) == (2, 409, 913, 914)
    assert enc.action_name(913) == "the solver's best rearrangement"
    assert enc.action_name(914) == "the solver's best play keeping back one 0-0"
    assert enc.action_name(941) == "the solver's best play keeping back one 6-6"
    assert enc.action_name(409 + 28 + kind("5-2")) == "extend group 2 with 5-2"


def test_each_kept_back_tile_of_the_best_play_gives_its_own_play() -> None:
    """A run of 5s and a hand that can lay all four tiles: four ways to hold one back."""
    enc = encoding("rummikub", 2, actions="rearrange")
    game, view = position(["5-3 5-4 5-5"], "5-2 5-1 0-0 6-5")
    assert named(enc, enc.legal_map(view, game.legal_actions())) == {
        0: "draw",
        2 + R.TRIPLES.index((Tile(0, 0), Tile(5, 1), Tile(5, 2))): "play 5-3 5-4 5-5 | 0-0 5-1 5-2",
        409 + kind("0-0"): "play 0-0 5-3 5-4 5-5",
        409 + kind("5-2"): "play 5-2 5-3 5-4 5-5",
        409 + kind("6-5"): "play 5-3 5-4 5-5 6-5",
        913: "play 0-0 5-1 5-2 5-3 5-4 5-5 6-5",  # all four, the joker as 5-0
        914 + kind("0-0"): "play 5-1 5-2 5-3 5-4 5-5 6-5",  # the joker kept
        914 + kind("5-1"): "play 0-0 5-2 5-3 5-4 5-5 6-5",
        914 + kind("5-2"): "play 5-1 0-0 5-3 5-4 5-5 6-5",  # the joker stands for 5-2
        914 + kind("6-5"): "play 0-0 5-1 5-2 5-3 5-4 5-5",
    }


def test_a_keep_back_play_that_is_an_extension_or_lays_nothing_is_left_out() -> None:
    """Keeping 5-1 back leaves the extension by 5-2 (index 426 has it); keeping 5-2 back lays nothing."""
    enc = encoding("rummikub", 2, actions="rearrange")
    game, view = position(["5-3 5-4 5-5"], "5-2 5-1")
    assert named(enc, enc.legal_map(view, game.legal_actions())) == {
        0: "draw",
        409 + kind("5-2"): "play 5-2 5-3 5-4 5-5",
        913: "play 5-1 5-2 5-3 5-4 5-5",
    }
    assert R.solver_plays(view) == [(913, game.parse_action("play 5-1 5-2 5-3 5-4 5-5"))]


def test_every_group_a_tile_extends_is_marked_not_only_the_listed_first() -> None:
    """6-2 extends the run of 6s and the 8-pip sum group; the engine lists only the first."""
    enc = encoding("rummikub", 2, actions="rearrange")
    game, view = position(["6-5 6-4 6-3", "5-3 4-4 6-2"], "6-2")
    listed = {str(a) for a in game.legal_actions()}
    mapping = named(enc, enc.legal_map(view, game.legal_actions()))
    second = 409 + 28 + kind("6-2")
    assert mapping[409 + kind("6-2")] == "play 6-2 6-3 6-4 6-5 | 5-3 4-4 6-2"
    assert mapping[second] == "play 6-5 6-4 6-3 | 6-2 6-2 5-3 4-4"
    assert mapping[second] not in listed and game.is_legal(mapping[second])
    assert enc.index(mapping[second], view) == second


def test_before_opening_only_new_groups_are_marked() -> None:
    enc = encoding("rummikub", 2, actions="rearrange")
    game, view = position(["5-3 5-4 5-5"], "5-2 5-1 0-0 6-5", opened=False)
    mapping = enc.legal_map(view, game.legal_actions())
    assert all(i == 0 or R.NEW <= i < R.EXTEND for i in mapping), named(enc, mapping)
    assert R.solver_plays(view) == [] and R.extensions(view) == {}


def test_a_table_outside_the_space_has_no_index() -> None:
    enc = encoding("rummikub", 2, actions="rearrange")
    game, view = position(["5-3 5-4 5-5"], "5-2 5-1 0-0 6-5")
    other = "play 5-1 5-2 5-3 | 0-0 5-4 5-5 6-5"  # valid, but no family's play
    assert game.is_legal(other)
    with pytest.raises(ValueError, match="no index"):
        enc.index(other, view)


def laid(before: Counter[Tile], action: Any) -> Counter[Tile]:
    """The hand tiles a play adds to the table."""
    return Counter(t for g in action.groups for t in g) - before


@pytest.mark.parametrize("players", [2, 4])
def test_every_marked_play_is_legal_and_does_what_its_family_says(players: int) -> None:
    enc = encoding("rummikub", players, actions="rearrange")
    families: Counter[str] = Counter()
    for seed in range(4):
        g = boneyard.new_game("rummikub", players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(160):
            if g.is_over:
                break
            view = g.view(g.current_player)
            mapping = enc.legal_map(view, g.legal_actions())
            table = [tuple(Tile.parse(t) for t in group) for group in view["table"]]
            on_table = Counter(t for group in table for t in group)
            solved = R.solver_plays(view)  # the best play first, at 913 or at its family's index
            best_laid = laid(on_table, solved[0][1]) if solved else Counter()
            for i, action in mapping.items():
                assert g.is_legal(action), (i, str(action))
                assert enc.index(action, view) == i and enc.index(str(action), view) == i
                if i < R.NEW:
                    continue
                added = laid(on_table, action)
                assert not on_table - Counter(t for grp in action.groups for t in grp)  # nothing taken off
                if i < R.EXTEND:
                    families["new"] += 1
                    assert list(action.groups[:-1]) == table and sum(added.values()) == 3
                elif i < R.REARRANGE:
                    families["extend"] += 1
                    group, k = divmod(i - R.EXTEND, 28)
                    assert added == Counter([R.KINDS[k]])  # one tile of kind k
                    kept = [grp for j, grp in enumerate(action.groups) if j != group]
                    assert kept == table[:group] + table[group + 1 :]
                elif i == R.REARRANGE:
                    families["best"] += 1
                    assert action in g.legal_actions()  # the engine's own listed play
                else:
                    families["keep back"] += 1
                    held = R.KINDS[i - R.KEEP_BACK]
                    assert added[held] <= best_laid[held] - 1 and sum(added.values()) >= 1
                    assert sum(added.values()) <= sum(best_laid.values())
            after = g.clone()
            i = rng.choice(sorted(mapping))
            after.apply(mapping[i])  # applying it changes the table by exactly the tiles laid
            if i >= R.NEW and after.hand_number == g.hand_number:
                new_table = Counter(t for grp in after.view(None)["table"] for t in grp)
                assert new_table == Counter(str(t) for t in (on_table + laid(on_table, mapping[i])).elements())
            g = after
    assert all(families[f] for f in ("new", "extend", "best", "keep back")), families


def test_the_adapters_play_keep_back_and_unlisted_extension_indices() -> None:
    """Through the table every adapter drives: the indices the engine does not list are played."""
    enc = encoding("rummikub", 2, actions="rearrange")
    played: Counter[str] = Counter()
    for seed in range(12):
        table = Table(enc, seed)
        rng = random.Random(seed)
        while not table.over:
            legal = table.legal()
            listed = table.game.legal_actions()
            extra = sorted(i for i, a in legal.items() if a not in listed)
            i = rng.choice(extra) if extra and rng.random() < 0.7 else rng.choice(sorted(legal))
            if i in extra:
                played["keep back" if i >= R.KEEP_BACK else "extend"] += 1
            hand = len(table.game.view(table.seat)["hand"])
            seat, deal = table.seat, table.game.hand_number
            table.play(i)
            if i in extra and not table.over and table.game.hand_number == deal:
                assert table.game.view(seat)["hand_sizes"][seat] < hand
    assert played["keep back"] and played["extend"], played


def test_the_standard_action_set_leaves_the_keep_back_family_empty() -> None:
    """By default the mask holds no keep-back play (no search beyond the engine's), the same size of space."""
    standard = encoding("rummikub", 2)
    rearrange = encoding("rummikub", 2, actions="rearrange")
    assert standard.num_actions == rearrange.num_actions == R.KEEP_BACK + 28
    rng = random.Random(5)
    seen_keep_back = 0
    for seed in range(30):
        game = boneyard.new_game("rummikub", players=2, seed=seed)
        for _ in range(rng.randrange(10, 60)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        view = game.view(game.current_player)
        legal = game.legal_actions()
        plain = standard.legal_map(view, legal)
        full = rearrange.legal_map(view, legal)
        assert not any(i >= R.KEEP_BACK for i in plain)
        assert {i: str(a) for i, a in full.items() if i < R.KEEP_BACK} == {i: str(a) for i, a in plain.items()}
        seen_keep_back += any(i >= R.KEEP_BACK for i in full)
    assert seen_keep_back > 0


def test_an_unknown_action_set_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="actions must be one of standard, rearrange, got 'all'"):
        encoding("rummikub", 2, actions="all")
    with pytest.raises(ValueError, match="actions must be one of standard, got 'rearrange'"):
        encoding("rounce", 2, actions="rearrange")
