"""Scripted four-man two-box deals with exact results, one test per rule and ruling (twobox 1-10)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import boneyard
from boneyard import IllegalAction, Tile
from boneyard.tiles import double_six

FULL = [str(t) for t in double_six(2)]
# Fillers: no six and no double, so they never open a hand nor match a six.
FILLERS = [str(t) for t in double_six(2) if t.high != 6 and not t.is_double]
FILLER_SET = set(FILLERS)


def deck_for(hands: Sequence[str], front: str = "", fill: bool = True) -> list[str]:
    """A deck: each seat's tiles (topped up to 7 with fillers), the boneyard front, then the rest."""
    pool = list(FULL)
    named = [h.split() for h in hands] + [front.split()]
    for t in (t for h in named for t in h):
        pool.remove(str(Tile.parse(t)))
    fillers = [t for t in pool if t in FILLER_SET]
    out: list[str] = []
    for h in named[:-1]:
        h = [str(Tile.parse(t)) for t in h]
        while fill and len(h) < 7:
            t = fillers.pop(0)
            pool.remove(t)
            h.append(t)
        assert len(h) == 7, h
        out += h
    out += [str(Tile.parse(t)) for t in named[-1]]
    return out + pool


def game(hands: Sequence[str], front: str = "", seed: int = 1, **rules: Any) -> Any:
    """A game whose first hand is dealt from the given tiles."""
    return boneyard.new_game("twobox", players=len(hands), seed=seed, rules=rules, deck=deck_for(hands, front))


def legal(g: Any) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def play(g: Any, *actions: str) -> None:
    for a in actions:
        g.apply(a)


# The source page's scoring walk-through: seat 0 sets 6-6 (and holds the twin and a 6-5).
WALK = ["6-6 6-6 6-5", "6-3", "6-2", "6-5"]


def test_walk_through_scores_15_5_10_and_the_stacked_10() -> None:
    g = game(WALK)
    v = g.view(None)
    assert v["spinner"] == "6-6" and v["spinner_seat"] == 0 and g.current_player == 1
    assert v["count"] == 12 and g.scores == [0, 0, 0, 0]
    assert v["open_ends"] == [6, 6, None, None]
    g.apply("play 6-3 to 1")
    assert g.view(None)["count"] == 15 and g.scores == [0, 15, 0, 0]
    g.apply("play 6-2 to 2")
    v = g.view(None)
    assert v["count"] == 5 and g.scores == [0, 15, 5, 0]
    assert v["open_ends"] == [3, 2, 6, 6]
    g.apply("play 6-5 to 3")
    assert g.view(None)["count"] == 10 and g.scores == [0, 15, 5, 10]
    assert {"stack 6-5 on 3", "stack 6-6 on 0"} <= set(legal(g))
    g.apply("stack 6-5 on 3")
    v = g.view(None)
    assert v["count"] == 10 and g.scores == [10, 15, 5, 10]
    assert v["arms"][2]["tiles"] == [{"tile": "6-5", "outer": 5, "seat": 3, "stacked_by": 0}]
    assert v["last_play"] == {"seat": 0, "action": "stack 6-5 on 3", "count": 10, "scored": 10, "stolen_from": None}


def test_walk_through_without_cutthroat_a_stacked_double_scores_the_count() -> None:
    g = game(WALK)
    play(g, "play 6-3 to 1", "play 6-2 to 2", "play 6-5 to 3", "stack 6-6 on 0")
    assert g.scores == [10, 15, 5, 10]
    assert g.view(None)["spinner_stacked_by"] == 0


def test_cutthroat_steals_10_and_20_with_a_double() -> None:
    g = game(WALK, cutthroat=True)
    play(g, "play 6-3 to 1", "play 6-2 to 2", "play 6-5 to 3")
    assert g.view(None)["steal"] == {"seat": 3, "points": 10}
    g.apply("stack 6-5 on 3")
    assert g.scores == [10, 15, 5, 0]
    assert g.view(None)["last_play"]["stolen_from"] == 3
    g = game(WALK, cutthroat=True)
    play(g, "play 6-3 to 1", "play 6-2 to 2", "play 6-5 to 3", "stack 6-6 on 0")
    assert g.scores == [20, 15, 5, -10]
    assert g.view(None)["last_play"] == {
        "seat": 0,
        "action": "stack 6-6 on 0",
        "count": 10,
        "scored": 20,
        "stolen_from": 3,
    }


def test_cutthroat_steal_only_straight_after_a_scoring_play() -> None:
    g = game(["6-6 6-0", "6-1", "6-4 6-1", "6-0"], cutthroat=True)
    play(g, "play 6-1 to 1")  # count 12 + 1 = 13: nothing
    assert g.view(None)["steal"] is None
    g.apply("stack 6-1 on 1")  # after a play that scored nothing: no steal, and 13 scores nothing
    assert g.scores == [0, 0, 0, 0] and g.view(None)["arms"][0]["tiles"][0]["stacked_by"] == 2


def test_cutthroat_steals_only_the_last_play() -> None:
    g = game(["6-6", "6-3", "6-2", "6-3"], cutthroat=True)
    play(g, "play 6-3 to 1", "play 6-2 to 2")  # 15 for seat 1, then 5 for seat 2
    g.apply("stack 6-3 on 1")  # seat 3 steals the 5 of the very last play, not the 15
    assert g.scores == [0, 15, 0, 5]
    assert g.view(None)["steal"] == {"seat": 3, "points": 5}


def test_cutthroat_chain_and_draws_before_the_stack() -> None:
    hands = ["6-6 6-5", "6-3", "6-2", "6-5"]
    g = game(hands, cutthroat=True)
    play(g, "play 6-3 to 1", "play 6-2 to 2", "play 6-5 to 3")  # 15, 5, 10
    play(g, "draw", "draw", "stack 6-5 on 3")  # seat 0 draws first: still the very next play
    assert g.scores == [10, 15, 5, 0]
    assert g.view(None)["steal"] == {"seat": 0, "points": 10}


def test_cutthroat_steal_of_the_spinner_score() -> None:
    g = game(["5-5 1-0", "5-5"], cutthroat=True)
    assert g.scores == [10, 0] and g.view(None)["steal"] == {"seat": 0, "points": 10}
    g.apply("stack 5-5 on 0")
    assert g.scores == [-10, 20]


def test_opening_highest_double_and_5_5_scores_10() -> None:
    g = game(["4-4 3-3", "5-5", "2-2", "1-1"])
    v = g.view(None)
    assert v["spinner"] == "5-5" and v["spinner_seat"] == 1 and g.current_player == 2
    assert g.scores == [0, 10, 0, 0] and v["count"] == 10
    assert v["hand_sizes"] == [7, 6, 7, 7] and v["boneyard"] == 28
    g = game(["4-4 3-3", "1-1", "2-2", "0-0"])
    assert g.view(None)["spinner"] == "4-4" and g.current_player == 1 and g.scores == [0, 0, 0, 0]
    assert g.view(None)["count"] == 8


def test_opening_tie_is_broken_by_the_seeded_rng() -> None:
    setters = set()
    for seed in range(30):
        a = game(["6-6", "5-5", "6-6", "4-4"], seed=seed)
        b = game(["6-6", "5-5", "6-6", "4-4"], seed=seed)
        assert a.view(None)["spinner_seat"] == b.view(None)["spinner_seat"]
        setters.add(a.view(None)["spinner_seat"])
    assert setters == {0, 2}


def test_redeal_when_nobody_holds_a_double() -> None:
    no_doubles = [t for t in FULL if not Tile.parse(t).is_double]
    deck = no_doubles + [t for t in FULL if Tile.parse(t).is_double]
    g = boneyard.new_game("twobox", players=4, seed=3, deck=deck)
    v = g.view(None)
    assert {"kind": "redeal"} in v["events"]
    assert v["hand_number"] == 1 and Tile.parse(v["spinner"]).is_double
    assert sum(v["hand_sizes"]) == 27 and v["boneyard"] == 28


def test_deal_from_a_given_deck_and_draws_from_the_front() -> None:
    g = game(WALK, front="5-4 3-3")
    assert g.view(0)["hand"] == sorted(g.view(0)["hand"], key=lambda t: Tile.parse(t).key, reverse=True)
    assert g.view(1)["hand"][0] == "6-3"
    g.apply("draw")
    assert "5-4" in g.view(1)["hand"] and g.view(None)["drawn"] == [0, 1, 0, 0]
    g.apply("draw")
    assert "3-3" in g.view(1)["hand"] and g.view(None)["boneyard"] == 26
    assert g.view(0)["events"][-1] == {"kind": "draw", "seat": 1}
    assert g.view(1)["events"][-1] == {"kind": "draw", "seat": 1, "tile": "3-3"}


def test_tips_only_after_both_sides_and_doubles_go_crosswise() -> None:
    g = game(["6-6 3-3", "6-3", "6-2 2-2", "6-5"])
    assert legal(g) == ["play 6-3 to 1", "play 6-3 to 2", "draw"]
    with pytest.raises(IllegalAction, match=r"both sides of the spinner \(arms 1 and 2\) must hold a tile before tip"):
        g.apply("play 6-3 to 3")
    play(g, "play 6-3 to 1")
    assert "play 6-2 to 3" not in legal(g)
    play(g, "play 6-2 to 2", "play 6-5 to 4")  # 3 + 2 + 5 = 10
    assert g.scores == [0, 15, 5, 10]
    play(g, "play 3-3 to 1")  # double crosswise on arm 1: 6 + 2 + 5 = 13, the arm's end stays 3
    v = g.view(None)
    assert v["count"] == 13 and v["open_ends"] == [3, 2, 6, 5] and g.scores == [0, 15, 5, 10]
    assert [e["tile"] for e in v["arms"][0]["tiles"]] == ["6-3", "3-3"]
    g.apply("draw")
    with pytest.raises(IllegalAction, match="you do not hold 2-2"):
        g.apply("play 2-2 to 2")


def test_count_spinner_counts_while_at_most_one_side_and_only_multiples_of_5() -> None:
    g = game(["4-4", "4-1", "4-2"])
    assert g.view(None)["count"] == 8
    g.apply("play 4-1 to 2")  # 8 + 1 = 9
    assert g.view(None)["count"] == 9 and g.scores == [0, 0, 0]
    g.apply("play 4-2 to 1")  # sides done: 1 + 2 = 3
    assert g.view(None)["count"] == 3
    g = game(["3-3", "3-0 0-0", "3-0"])  # spinner 6, then 3-0: 6 + 0 = 6
    play(g, "play 3-0 to 1", "play 3-0 to 2")  # both sides end 0: count 0 scores nothing
    assert g.view(None)["count"] == 0 and g.scores == [0, 0, 0]


def test_stack_rules_and_their_messages() -> None:
    g = game(["6-6 6-6 6-3", "6-3", "6-2"])
    g.apply("play 6-3 to 1")  # 15 for seat 1
    with pytest.raises(IllegalAction, match="you do not hold 6-3"):
        g.apply("stack 6-3 on 1")
    g.apply("play 6-2 to 2")  # seat 2: 3 + 2 = 5
    assert "stack 6-3 on 1" in legal(g) and "stack 6-6 on 0" in legal(g)
    with pytest.raises(IllegalAction, match="arm 3 holds no tile to stack on"):
        g.apply("stack 6-6 on 3")
    with pytest.raises(IllegalAction, match=r"only an identical tile can be stacked: arm 2 ends with 6-2"):
        g.apply("stack 6-3 on 2")
    with pytest.raises(IllegalAction, match="only an identical tile can be stacked: the spinner is 6-6"):
        g.apply("stack 6-3 on 0")
    with pytest.raises(IllegalAction, match="stacked on 0"):
        g.apply("stack 6-3 on 5")
    g.apply("stack 6-3 on 1")
    assert g.scores == [5, 15, 5]


def test_spinner_stack_needs_an_empty_arm() -> None:
    g = game(["6-6 6-6 6-3 6-2", "6-4 6-1", "6-5 5-5"])
    play(g, "play 6-4 to 1", "play 6-5 to 2", "play 6-3 to 3", "play 6-1 to 4", "play 5-5 to 2")
    assert "stack 6-6 on 0" not in legal(g)
    with pytest.raises(IllegalAction, match="only while it has an empty arm"):
        g.apply("stack 6-6 on 0")


def test_draw_when_able_must_play_when_able_pass_only_when_empty() -> None:
    g = game(["6-6", "6-3", "1-0 1-0 2-0 2-0 2-1 2-1 4-0"])
    assert "draw" in legal(g) and "play 6-3 to 1" in legal(g)
    with pytest.raises(IllegalAction, match="must play when he can"):
        g.apply("pass")
    g.apply("play 6-3 to 1")
    assert legal(g) == ["draw"]  # seat 2 cannot play: he must draw
    with pytest.raises(IllegalAction, match="boneyard holds 35 tiles: draw instead"):
        g.apply("pass")


def blocked_game(seat0: str, seat2: str, target: int = 1000, **rules: Any) -> Any:
    """Six players, spinner 6-6; all fourteen sixes are played and every hand is blocked.

    Seat 1 draws the whole boneyard first. ``seat0`` (4 tiles) and ``seat2`` (5 tiles) are
    the low hands; everyone else holds high tiles.
    """
    sixes = {0: "6-6 6-6 6-0", 1: "6-5 6-4 6-0", 2: "6-3 6-2", 3: "6-5 6-2", 4: "6-3 6-1", 5: "6-4 6-1"}
    low = {0: seat0.split(), 2: seat2.split()}
    pool = list(FILLERS)
    for t in low[0] + low[2]:
        if t in pool:
            pool.remove(t)
    pool.sort(key=lambda t: Tile.parse(t).pips, reverse=True)
    hands = []
    for s in range(6):
        extra = low.get(s) or [pool.pop(0) for _ in range(7 - len(sixes[s].split()))]
        hands.append(" ".join(sixes[s].split() + extra))
    rules["target"] = target
    g = boneyard.new_game("twobox", players=6, seed=1, rules=rules, deck=deck_for(hands, " ".join(pool)))
    play(g, *["draw"] * 14)
    play(
        g,
        "play 6-5 to 1",
        "play 6-3 to 2",
        "play 6-5 to 1",
        "play 6-3 to 2",
        "play 6-4 to 1",
        "stack 6-6 on 0",
        "play 6-4 to 1",
        "play 6-2 to 2",
        "play 6-2 to 2",
        "play 6-1 to 3",
        "play 6-1 to 3",
        "play 6-0 to 4",
        "play 6-0 to 4",
    )
    return g


def pass_round(g: Any) -> tuple[list[int], list[int]]:
    before = list(g.scores)
    pips = [sum(Tile.parse(t).pips for t in g.view(s)["hand"]) for s in range(6)]
    for _ in range(5):
        assert legal(g) == ["pass"]
        g.apply("pass")
    return before, pips


def test_blocked_hand_lowest_scores_others_minus_own() -> None:
    g = blocked_game("1-0 1-0 2-0 3-0", "2-1 2-1 3-1 3-1 3-2")
    before, pips = pass_round(g)
    assert pips[0] == 7 and pips[2] == 19
    assert g.view(None)["passed_on"][2] == [6]
    g.apply("pass")
    result = g.view(None)["last_result"]
    award = sum(pips) - 2 * pips[0]
    assert result["how"] == "blocked" and result["winner"] == 0 and result["award"] == award
    assert result["pips"] == pips
    assert g.scores[0] == before[0] + award and g.scores[1:] == before[1:]
    assert g.view(None)["hand_number"] == 2


def test_blocked_tie_goes_to_the_lowest_tile() -> None:
    g = blocked_game("0-0 2-1 2-1 3-0", "1-0 1-0 2-0 2-0 3-0")  # 9 and 9: 0-0 beats 1-0
    before, pips = pass_round(g)
    g.apply("pass")
    assert pips[0] == pips[2] == 9
    assert g.view(None)["last_result"]["winner"] == 0
    assert g.scores[0] == before[0] + sum(pips) - 18


def test_blocked_tie_on_lowest_tile_pips_goes_to_the_lower_high_end() -> None:
    g = blocked_game("2-0 2-0 5-0 5-0", "1-1 1-1 2-1 2-1 3-1")  # 14 and 14: 1-1 beats 2-0
    before, pips = pass_round(g)
    g.apply("pass")
    assert pips[0] == pips[2] == 14
    assert g.view(None)["last_result"]["winner"] == 2
    assert g.scores[2] == before[2] + sum(pips) - 28


def test_blocked_still_tied_nobody_scores() -> None:
    g = blocked_game("1-0 2-1 2-1 2-2", "1-0 2-0 2-0 3-0 3-0")  # 11 and 11, both lowest 1-0
    before, pips = pass_round(g)
    g.apply("pass")
    assert pips[0] == pips[2] == 11
    r = g.view(None)["last_result"]
    assert r["winner"] is None and r["award"] == 0 and g.scores == before


def test_blocked_award_is_not_rounded() -> None:
    g = blocked_game("1-0 1-0 2-0 3-0", "2-1 2-1 3-1 3-1 3-2", round_to_five=True)
    before, pips = pass_round(g)
    g.apply("pass")
    assert g.scores[0] - before[0] == sum(pips) - 14 == g.view(None)["last_result"]["award"]
    assert (sum(pips) - 14) % 5 != 0


# Two players; seat 0 goes out on his sixth play with seat 1 left holding 4-4 (8 pips).
DOMINO_HANDS = ["6-6 6-1 2-1 3-2 4-3 5-4 5-0", "6-0 0-0 3-0 3-3 4-3 6-5 4-4"]
DOMINO_PLAY = [
    "play 6-0 to 2",
    "play 6-1 to 1",
    "play 0-0 to 2",
    "play 2-1 to 1",
    "play 3-0 to 2",
    "play 3-2 to 1",
    "play 3-3 to 2",
    "play 4-3 to 1",
    "play 4-3 to 2",
    "play 5-4 to 1",
    "play 6-5 to 3",
]


@pytest.mark.parametrize(("rounding", "award"), [(False, 8), (True, 10)])
def test_domino_scores_the_pips_left_and_next_hand_starts(rounding: bool, award: int) -> None:
    g = game(DOMINO_HANDS, round_to_five=rounding)
    play(g, *DOMINO_PLAY)
    assert g.view(0)["hand"] == ["5-0"] and g.view(1)["hand"] == ["4-4"]
    before = list(g.scores)
    g.apply("play 5-0 to 1")  # ends 0, 4, 5, 6(empty tip): 0 + 4 + 5 = 9, nothing
    r = g.view(None)["last_result"]
    assert r["how"] == "domino" and r["winner"] == 0 and r["award"] == award and r["pips"] == [0, 8]
    assert r["hands"] == [[], ["4-4"]]
    assert g.scores == [before[0] + award, before[1]]
    v = g.view(None)
    assert v["hand_number"] == 2 and v["drawn"] == [0, 0] and v["passed_on"] == [[], []]
    assert g.current_player == (v["spinner_seat"] + 1) % 2
    assert sum(v["hand_sizes"]) == 13 and v["boneyard"] == 42


def test_domino_count_scores_in_sequence() -> None:
    g = game(DOMINO_HANDS)
    expected = [0, 0, 0, 0, 5, 0, 0, 10, 0, 0, 0]
    counts = []
    for action in DOMINO_PLAY:
        before = list(g.scores)
        g.apply(action)
        counts.append(sum(g.scores) - sum(before))
    # 6-0: 12+0=12; 6-1: 1+0=1; 0-0: 1+0=1 (crosswise 0); 2-1: 2+0=2; 3-0: 2+3=5 scores;
    # 3-2: 3+3=6; 3-3: 3+6=9 (crosswise); 4-3: 4+6=10 scores; 4-3: 4+4=8; 5-4: 9; 6-5 on tip 3: 14.
    assert counts == expected
    assert g.view(None)["count"] == 5 + 4 + 5


def test_target_is_won_at_once_mid_hand() -> None:
    g = game(WALK, target=15)
    g.apply("play 6-3 to 1")
    assert g.is_over and g.winners == [1] and g.current_player is None and g.legal_actions() == ()
    assert g.view(None)["last_result"]["how"] == "target"
    with pytest.raises(IllegalAction, match="game is over"):
        g.apply("draw")


def test_target_reached_by_the_spinner_and_by_going_out() -> None:
    g = game(["5-5", "1-0"], target=10)
    assert g.is_over and g.winners == [0] and g.scores == [10, 0]
    g = game(DOMINO_HANDS, target=18)
    play(g, *DOMINO_PLAY)
    assert not g.is_over and g.scores == [10, 5]
    g.apply("play 5-0 to 1")
    assert g.is_over and g.winners == [0] and g.scores == [18, 5]
    assert g.view(None)["last_result"]["how"] == "domino"


def test_cutthroat_steal_can_win() -> None:
    g = game(WALK, cutthroat=True, target=20)
    play(g, "play 6-3 to 1", "play 6-2 to 2", "play 6-5 to 3", "stack 6-6 on 0")
    assert g.is_over and g.winners == [0] and g.scores == [20, 15, 5, -10]


def test_rules_options_and_info() -> None:
    info = boneyard.game_info("twobox")
    assert info["players"] == {"min": 2, "max": 6, "default": 4}
    assert {k: v["default"] for k, v in info["options"].items()} == {
        "target": 150,
        "cutthroat": False,
        "round_to_five": False,
        "max_hands": 100,
    }
    for bad in ({"target": 0}, {"target": "x"}, {"cutthroat": 1}, {"round_to_five": "yes"}):
        with pytest.raises(boneyard.RulesError, match="valid options"):
            boneyard.new_game("twobox", rules=bad)
    assert boneyard.new_game("twobox", seed=1, rules={"target": 100.0}).rules.target == 100


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected draw, pass"),
        ("play 6-3", "expected draw, pass"),
        ("play 6-3 on 1", "expected draw, pass"),
        ("stack 6-3 to 1", "expected draw, pass"),
        ("play 9-3 to 1", "tile ends must be 0 to 6"),
        ("play 6-3 to x", "the arm must be a number"),
        ("play 6-3 to 5", "played to arm 1 or 2"),
        ("play 6-3 to 0", "played to arm 1 or 2"),
        ("play 1-0 to 1", "you do not hold 1-0"),
        ("Draw", "expected draw, pass"),
    ],
)
def test_malformed_and_illegal_messages(text: str, message: str) -> None:
    g = game(WALK)
    before = json.dumps([g.view(s) for s in range(4)] + [g.record()])
    with pytest.raises(IllegalAction, match=message):
        g.apply(text)
    assert json.dumps([g.view(s) for s in range(4)] + [g.record()]) == before


def test_mismatched_play_names_the_open_end() -> None:
    g = game(["6-6", "6-3 2-1"])
    with pytest.raises(IllegalAction, match="2-1 does not match arm 1's open end 6"):
        g.apply("play 2-1 to 1")
    with pytest.raises(IllegalAction, match="not a twobox action"):
        g.apply(42)


def test_views_hide_hands_and_boneyard() -> None:
    g = game(WALK)
    v0, spectator = g.view(0), g.view(None)
    assert spectator["hand"] is None and v0["hand"][0] == "6-6"
    text = json.dumps(spectator)
    assert "6-3" not in text  # seat 1's tile is hidden until played
    assert all(e["kind"] != "dealt" for e in spectator["events"])
    dealt = [e for e in v0["events"] if e["kind"] == "dealt"]
    assert len(dealt) == 1 and dealt[0]["seat"] == 0 and dealt[0]["tiles"][:3] == ["6-6", "6-6", "6-5"]


def test_sample_respects_passes_and_the_opening() -> None:
    g = blocked_game("1-0 1-0 2-0 3-0", "2-1 2-1 3-1 3-1 3-2")
    play(g, "pass", "pass")
    rng = random.Random(4)
    for seat in (0, 3, None):
        view = g.view(seat)
        for _ in range(5):
            s = boneyard.sample_game(view, rng)
            assert s.view(seat) == view
            for p in (2, 3):
                assert all(not Tile.parse(t).has(6) for t in s.view(p)["hand"])
    # Spinner 4-4 and nobody has drawn: no hidden hand may hold 5-5 or 6-6.
    g = game(["4-4", "3-3", "2-2", "1-1"])
    for _ in range(20):
        s = boneyard.sample_game(g.view(1), rng)
        for p in (0, 2, 3):
            assert not {"5-5", "6-6"} & set(s.view(p)["hand"])
    g.apply("draw")  # seat 1 has drawn one tile: he may hold one of them now
    seen = Counter()
    for _ in range(200):
        s = boneyard.sample_game(g.view(0), rng)
        high = [t for t in s.view(1)["hand"] if t in ("5-5", "6-6")]
        assert len(high) <= 1
        seen[len(high)] += 1
    assert seen[1] > 0


def test_clone_is_independent() -> None:
    g = game(WALK)
    c = g.clone()
    c.apply("play 6-3 to 1")
    assert g.scores == [0, 0, 0, 0] and c.scores == [0, 15, 0, 0]
    assert g.view(1)["hand"][0] == "6-3"


def view_count(v: dict[str, Any]) -> int:
    """The count recomputed from a view alone (rule 5), independently of the engine."""
    sides = all(a["tiles"] for a in v["arms"][:2])
    d = Tile.parse(v["spinner"]).high
    total = 0 if sides else 2 * d
    for arm in v["arms"]:
        if arm["tiles"]:
            last = arm["tiles"][-1]
            total += last["outer"] * (2 if Tile.parse(last["tile"]).is_double else 1)
    return total


def test_seeded_soak_invariants() -> None:
    """Random games across every player count and option: conservation, counts and scores add up."""
    rng = random.Random(2024)
    hands = index = 0
    full = Counter(double_six(2))
    while hands < 3000:
        players = 2 + index % 5
        rules = {"cutthroat": index % 2 == 1, "round_to_five": index % 3 == 0, "target": (100, 150, 200)[index % 3]}
        g = boneyard.new_game("twobox", players=players, seed=index, rules=rules)
        index += 1
        while not g.is_over:
            legal_now = g.legal_actions()
            action = legal_now[rng.randrange(len(legal_now))]
            before, hand_number = list(g.scores), g.hand_number
            g.apply(action)
            delta = [a - b for a, b in zip(g.scores, before, strict=True)]
            result = g.last_result
            hand_went_on = result is None or result["hand"] != hand_number or result["how"] == "target"
            if g.hand_number == hand_number and action.kind in ("play", "stack") and hand_went_on:
                lp = g.view(None)["last_play"]
                if lp["stolen_from"] is None:
                    assert lp["scored"] == (lp["count"] if lp["count"] > 0 and lp["count"] % 5 == 0 else 0)
                    assert sum(delta) == lp["scored"] == delta[lp["seat"]]
                else:
                    assert sum(delta) == 0 and delta[lp["stolen_from"]] == -lp["scored"] == -delta[lp["seat"]]
            elif action.kind in ("draw", "pass"):
                assert delta == [0] * players or (action.kind == "pass" and (g.hand_number != hand_number or g.is_over))
            places = g.tile_locations()
            assert Counter(t for ts in places.values() for t in ts) == full
            v = g.view(None)
            assert v["count"] == view_count(v)
            assert all(e is None for e in v["open_ends"][2:]) == (not all(a["tiles"] for a in v["arms"][:2]))
        hands += g.hand_number
        assert len(g.winners) == 1 and g.scores[g.winners[0]] >= g.rules.target
        assert max(g.scores) == g.scores[g.winners[0]] and sorted(g.scores)[-2] < g.rules.target


def test_terminal_view_draws_the_cross() -> None:
    from rich.console import Console

    from boneyard.cli.views.twobox import render

    g = game(WALK)
    play(g, "play 6-3 to 1", "play 6-2 to 2", "play 6-5 to 3", "stack 6-5 on 3")
    console = Console(width=80, record=True)
    console.print(render(g.view(1)))
    lines = console.export_text().splitlines()
    middle = next(line for line in lines if "[6‖6]" in line)
    assert middle.index("[3|6]") < middle.index("[6‖6]") < middle.index("[6|2]")
    assert middle.strip().startswith("(3)") and middle.strip().endswith("(2)")
    top = lines.index(next(line for line in lines if "[5|6]x2" in line))
    assert lines.index(middle) > top and "(5)" in lines[top - 1]
    assert "(6)" in lines[lines.index(middle) + 1]  # the empty tip 4 below
    text = "\n".join(lines)
    assert "Count: 10" in text and "Your hand:" in text and "6-3" not in text.split("Your hand:")[1]


def test_cutthroat_a_pass_between_does_not_stop_the_steal() -> None:
    g = game(["6-6 6-3", "6-3", "1-0 1-0 2-0 2-0 2-1 2-1 4-0"], cutthroat=True)
    play(g, *["draw"] * 35, "play 6-3 to 1")  # seat 1 empties the boneyard, then scores 15
    assert g.scores == [0, 15, 0] and legal(g) == ["pass"]
    play(g, "pass", "stack 6-3 on 1")  # seat 2 passes; seat 0's stack is still the very next play
    assert g.scores == [15, 0, 0]
    assert g.view(None)["passed_on"] == [[], [], [3, 6]]


def test_cutthroat_no_stealing_from_oneself() -> None:
    g = game(["6-6 1-0 1-0 2-0 2-0 2-1 2-1", "6-3"], cutthroat=True)
    play(g, *["draw"] * 42, "play 6-3 to 1")  # seat 1 holds the other 6-3 now
    assert g.scores == [0, 15] and legal(g) == ["pass"]
    play(g, "pass", "stack 6-3 on 1")  # his own scoring play: an ordinary stack scoring the count
    assert g.scores == [0, 30]
    assert g.view(None)["last_play"]["stolen_from"] is None


def test_dealer_is_recorded_but_the_highest_double_opens() -> None:
    deck = deck_for(WALK)
    plain = boneyard.new_game("twobox", players=4, seed=9, deck=deck)
    dealt = boneyard.new_game("twobox", players=4, seed=9, deck=deck, dealer=2)
    assert dealt.view(None) == plain.view(None) and dealt.current_player == 1
    assert dealt.record()["dealer"] == 2 and "dealer" not in plain.record()


def test_record_and_replay_of_a_scripted_game() -> None:
    g = game(WALK, cutthroat=True)
    play(g, "draw", "play 6-3 to 1", "play 6-2 to 2", "play 6-5 to 3", "stack 6-6 on 0")
    record = json.loads(json.dumps(g.record()))
    assert record["actions"] == ["draw", "play 6-3 to 1", "play 6-2 to 2", "play 6-5 to 3", "stack 6-6 on 0"]
    again = boneyard.replay(record)
    assert again.scores == [20, 15, 5, -10]
    assert all(again.view(s) == g.view(s) for s in (None, 0, 1, 2, 3))
