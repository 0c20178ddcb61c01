"""Domino Rummikub: scripted deals with exact outcomes for every rule, ruling and option,
every kind of invalid play, the solver against an integer programme, and a seeded soak."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard.games.rummikub import groups as group_rules
from boneyard.games.rummikub import solver, sweep
from boneyard.games.rummikub.engine import Rummikub
from boneyard.tiles import Tile, double_six, parse_tiles

from . import rummikub_reference as reference


def T(text: str) -> list[Tile]:
    """Tiles from a space-separated string."""
    return parse_tiles(text.split())


def deck_for(*hands: str, boneyard_front: str = "") -> list[str]:
    """A full deck: the given hands (8 tiles each) in seat order, then the boneyard's front, then the rest."""
    given = [t for h in hands for t in h.split()] + boneyard_front.split()
    rest = Counter(double_six(2))
    rest.subtract(Tile.parse(t) for t in given)
    assert all(v >= 0 for v in rest.values()), "a tile is given too often"
    return given + [str(t) for t in sorted(rest.elements())]


def game(*hands: str, players: int | None = None, dealer: int = 0, rules: dict[str, Any] | None = None,
         boneyard_front: str = "") -> Any:
    """A game dealt from the given hands, seat ``dealer`` dealing."""
    n = players or len(hands)
    return boneyard.new_game(
        "rummikub", players=n, seed=1, rules=rules, deck=deck_for(*hands, boneyard_front=boneyard_front),
        dealer=dealer,
    )


# Hands used below (8 tiles each). Seat 1 holds a run and a sum group; seat 2 only odds.
H0 = "5-3 5-4 5-5 4-3 5-2 6-1 1-0 2-0"
H1 = "3-1 3-2 3-3 6-2 4-4 6-0 1-1 2-1"
H2 = "6-5 6-4 4-2 4-1 3-0 2-2 5-1 4-0"


# ----- groups ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "group",
    ["5-3 5-4 5-5", "6-1 5-1 4-1", "4-3 5-2 6-1", "3-0 2-1 3-0", "2-0 2-1 2-2 3-2 4-2 5-2 6-2",
     "0-0 5-4 5-5", "5-3 6-6 5-5", "6-6 0-0 0-0", "4-3 0-0 6-1 5-2 4-3", "1-0 0-0 3-0"],
)
def test_valid_groups(group: str) -> None:
    assert group_rules.group_error(T(group)) is None


@pytest.mark.parametrize(
    ("group", "why"),
    [
        ("5-3 5-4", "a group needs three or more"),
        ("5-3 5-4 5-6 5-0", "not consecutive"),
        ("5-3 4-3 6-1", "neither a run"),
        ("1-0 2-1 6-5", "no number is shared"),
        ("2-0 2-0 2-1", "repeat"),
        ("2-0 2-1 2-2 3-2 4-2 5-2 6-2 0-0", "at most seven"),
    ],
)
def test_invalid_groups_say_why(group: str, why: str) -> None:
    err = group_rules.group_error(T(group))
    assert err is not None and why in err


def test_jokers_are_never_natural_tiles() -> None:
    # 6-6 6-5 6-4 is a run only through the joker: as naturals 6-6 would not share 6 at position 6 twice
    assert group_rules.group_error(T("6-6 6-5 6-4")) is None
    # 0-0 used as a sum-0 tile with 1-0 and 2-0 (sums 1, 2) still works as a run of 0s (0-0 stands for 0-0)
    assert group_rules.group_error(T("0-0 1-0 2-0")) is None
    assert group_rules.is_joker(Tile(0, 0)) and group_rules.is_joker(Tile(6, 6))
    assert not group_rules.is_joker(Tile(5, 5))


def test_distinct_sums_option() -> None:
    assert group_rules.group_error(T("4-3 4-3 5-2"), distinct_sums=False) is None
    err = group_rules.group_error(T("4-3 4-3 5-2"), distinct_sums=True)
    assert err is not None and "4-3 twice" in err
    # four different tiles total 6 (6-0 5-1 4-2 3-3), so five cannot be told apart even with jokers
    assert group_rules.group_error(T("6-0 5-1 4-2 3-3"), distinct_sums=True) is None
    err = group_rules.group_error(T("6-0 5-1 4-2 3-3 0-0"), distinct_sums=True)
    assert err is not None and "only 4 different tiles" in err
    # a run may still hold what a sum group could not
    assert group_rules.group_error(T("2-0 2-1 2-2"), distinct_sums=True) is None


def test_order_group_puts_jokers_where_they_stand() -> None:
    assert [str(t) for t in group_rules.order_group(T("5-5 0-0 5-3"))] == ["5-3", "0-0", "5-5"]
    assert [str(t) for t in group_rules.order_group(T("5-2 6-1 4-3"))] == ["6-1", "5-2", "4-3"]


# ----- the solver --------------------------------------------------------------------------


def score(table: list[Tile], hand: list[Tile], distinct: bool = False) -> tuple[int, int]:
    sol = solver.best_play(table, hand, distinct)
    if sol is None:
        return (0, 0)
    assert all(group_rules.group_error(g, distinct) is None for g in sol.table)
    assert Counter(t for g in sol.table for t in g) == Counter(table) + Counter(sol.played)
    assert not Counter(sol.played) - Counter(hand)
    return sol.score


def test_solver_exact_small_cases() -> None:
    assert score([], T("5-3 5-4 5-5 1-0")) == (3, 27)
    assert score([], T("5-3 1-0 2-2")) == (0, 0)
    # 6-4 cannot join: 5-5 or 5-4 would leave the run short; only the joker fits (0 pips)
    assert score(T("5-3 5-4 5-5"), T("6-4 0-0")) == (1, 0)
    # the run lends its 4-1 to a new sum group 4-1 3-2 5-0 (and stays a run of three)
    assert score(T("4-1 4-2 4-3 4-4"), T("3-2 5-0")) == (2, 10)
    # both jokers of the hand: 6-6 preferred for pips when only one is needed
    assert score(T("4-3 5-2 6-1"), T("6-6 0-0")) == (2, 12)
    with pytest.raises(ValueError, match="do not split"):
        solver.best_play(T("4-3 5-2"), T("1-0"))
    assert solver.arrange(T("4-3 5-2 6-1 5-3 5-4 5-5")) is not None
    assert solver.arrange(T("4-3 5-2 6-1 5-3")) is None


@pytest.mark.parametrize(
    ("table", "hand", "distinct", "expect", "groups"),
    [
        # no group at all: two jokers cannot form one, three can
        ("", "0-0 6-6", False, None, None),
        ("", "0-0 0-0 6-6", False, (3, 12), ["0-0 0-0 6-6"]),
        # a table of jokers only takes a fourth joker or any natural
        ("0-0 0-0 6-6", "6-6", False, (1, 12), ["0-0 0-0 6-6 6-6"]),
        ("0-0 0-0 6-6", "5-4", False, (1, 9), ["0-0 0-0 6-6 5-4"]),
        # a full distinct sum group has no room for a spare joker; a plain one has
        ("6-0 5-1 4-2 3-3", "0-0", True, None, None),
        ("6-0 5-1 4-2 3-3", "0-0", False, (1, 0), ["6-0 5-1 4-2 3-3 0-0"]),
        # two jokers complete a natural taken out of the full group
        ("6-0 5-1 4-2 3-3", "0-0 6-6", True, (2, 12), ["6-6 0-0 6-0", "5-1 4-2 3-3"]),
        ("5-0 4-1 3-2", "0-0", True, None, None),
        ("6-1 5-2 4-3", "0-0 6-6", True, None, None),
        # a run of seven is full: it splits into 3 + 4 and the three takes the joker
        ("2-0 2-1 2-2 3-2 4-2 5-2 6-2", "0-0", False, (1, 0), ["3-2 4-2 5-2 6-2", "2-0 2-1 2-2 0-0"]),
        # with distinct sums the two jokers make a third run with a natural taken from the seven
        ("2-0 2-1 2-2 3-2 4-2 5-2 6-2", "0-0 6-6", True, (2, 12), ["6-6 0-0 2-0", "4-2 5-2 6-2", "2-1 2-2 3-2"]),
        # jokers inside runs: 1-0 _ _ 3-1 needs both jokers (one from the table)
        ("3-2 4-2 5-2 0-0", "1-0 3-1 0-0", False, (3, 5), None),
        ("3-3 4-3 5-3", "1-0 3-1 0-0 0-0", False, (4, 5), None),
    ],
)
def test_spare_jokers_and_full_groups(
    table: str, hand: str, distinct: bool, expect: tuple[int, int] | None, groups: list[str] | None
) -> None:
    tiles, own = (T(table) if table else []), T(hand)
    sol = solver.best_play(tiles, own, distinct)
    assert (sol.score if sol is not None else None) == expect
    assert (reference.milp_score(tiles, own, distinct) if pytest.importorskip("scipy") else None) == (expect or (0, 0))
    if sol is not None:
        assert all(group_rules.group_error(g, distinct) is None for g in sol.table)
        if groups is not None:
            assert [" ".join(map(str, g)) for g in sol.table] == groups


def test_best_opening() -> None:
    assert group_rules.best_opening(T("1-0 2-0 3-0 6-5 6-4 6-3")) == tuple(T("6-3 6-4 6-5"))
    assert group_rules.best_opening(T("1-0 6-5 4-4")) is None
    assert set(group_rules.valid_triples(T("4-3 5-2 6-1 4-3"))) == {
        tuple(sorted(T("4-3 5-2 6-1"))), tuple(sorted(T("4-3 4-3 5-2"))), tuple(sorted(T("4-3 4-3 6-1")))
    }


def check_against_highs(seed: int, count: int, table: tuple[int, int], hand: tuple[int, int], every: int) -> None:
    """``count`` random positions (every ``every``-th with distinct sums, every other one
    given its grouping): an exact, valid best play with HiGHS's optimum."""
    pytest.importorskip("scipy")
    rng = random.Random(seed)
    for i in range(count):
        distinct = i % every == every - 1
        groups, own = reference.random_position(rng, rng.randint(*table), rng.randint(*hand), distinct)
        tiles = [t for g in groups for t in g]
        solver._CACHE.clear()
        sol = solver.best_play(tiles, own, distinct, groups=groups if i % 2 else None, require=False)
        assert sol is not None and sol.exact
        assert sol.score == reference.milp_score(tiles, own, distinct), (groups, own, distinct)
        assert all(group_rules.group_error(g, distinct) is None for g in sol.table)
        assert Counter(t for g in sol.table for t in g) == Counter(tiles) + Counter(sol.played)
        assert not Counter(sol.played) - Counter(own)


def test_solver_matches_the_integer_programme() -> None:
    """1,000 random positions (jokers and duplicates included): the same optimum as HiGHS."""
    check_against_highs(2024, 1000, (0, 8), (1, 6), every=5)


def test_the_compiled_search_is_built() -> None:
    """``make`` installs a C compiler, so the install must have built the fast search."""
    assert solver.COMPILED, "boneyard/games/_rummikub_dp.c was not compiled: reinstall with a C compiler"


def test_the_compiled_search_refuses_malformed_input() -> None:
    dp = solver._dp
    assert dp is not None
    with pytest.raises(ValueError, match="49 bytes"):
        dp.solve(b"x", bytes(49), 0, 0, 0, False, -1, 10)
    with pytest.raises(ValueError, match="at most two of each natural kind"):
        dp.solve(bytes([3] * 49), bytes(49), 0, 0, 0, False, -1, 10)
    with pytest.raises(ValueError, match="between zero and four jokers"):
        dp.solve(bytes(49), bytes(49), 5, 0, 0, False, -1, 10)
    assert dp.solve(bytes(49), bytes(49), 0, 0, 0, False, -1, 10) == -1  # over the budget
    score, jokers, used, path = dp.solve(bytes(49), bytes(49), 0, 0, 0, False, -1, 10**6)  # nothing at all
    assert (score, jokers, used, len(path)) == (0, 0, 0, 28)  # one step per kind, no sum line to close


def test_dense_positions_match_the_integer_programme() -> None:
    """Benchmark-like positions (table 10-50 tiles, hand 4-20): the same optimum as HiGHS, valid tables."""
    check_against_highs(99, 120, (10, 50), (4, 20), every=3)


def test_the_pure_python_search_agrees_with_the_compiled_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback used where nothing could be compiled finds the same optimum (smaller tables: it is slow)."""
    rng = random.Random(7)
    cases = []
    for i in range(60):
        distinct = i % 4 == 3
        groups, hand = reference.random_position(rng, rng.randint(0, 18), rng.randint(1, 8), distinct)
        cases.append(([t for g in groups for t in g], hand, distinct))
    solver._CACHE.clear()
    compiled = [score(table, hand, distinct) for table, hand, distinct in cases]
    monkeypatch.setattr(solver, "COMPILED", False)
    solver._CACHE.clear()
    assert [score(table, hand, distinct) for table, hand, distinct in cases] == compiled
    solver._CACHE.clear()


def test_budgeted_solver_falls_back_to_a_valid_play() -> None:
    groups, hand = reference.random_position(random.Random(5), 40, 12)
    table = [t for g in groups for t in g]
    sol = solver.best_play(table, hand, groups=groups, budget=1, require=False)
    assert sol is not None
    assert all(group_rules.group_error(g) is None for g in sol.table)
    assert Counter(t for g in sol.table for t in g) == Counter(table) + Counter(sol.played)


# ----- dealing, turn order -----------------------------------------------------------------


def test_deal_from_deck_and_first_player() -> None:
    g = game(H0, H1, H2, dealer=2)
    assert g.hands[0] == sorted(T(H0), reverse=True)
    assert g.hands[2] == sorted(T(H2), reverse=True)
    assert g.current_player == 0  # the seat after the dealer
    full = deck_for(H0, H1, H2)
    assert [str(t) for t in g.boneyard] == full[24:]
    v = g.view(1)
    assert v["boneyard"] == 56 - 24 and v["hand_sizes"] == [8, 8, 8] and v["opened"] == [False] * 3
    assert v["hand"] == [str(t) for t in sorted(T(H1), reverse=True)]
    assert g.view(None)["hand"] is None


def test_draw_takes_the_front_of_the_boneyard_and_passes_the_turn() -> None:
    g = game(H0, H1, dealer=1, boneyard_front="6-3")
    assert g.current_player == 0
    g.apply("draw")
    assert Tile(6, 3) in g.hands[0] and len(g.hands[0]) == 9
    assert g.current_player == 1
    assert g.view(0)["events"][-1] == {"kind": "draw", "seat": 0, "tile": "6-3"}
    assert g.view(1)["events"][-1] == {"kind": "draw", "seat": 0}


# ----- the opening -------------------------------------------------------------------------


def test_opening_lists_every_valid_triple() -> None:
    g = game(H0, H1, dealer=1)
    plays = sorted(str(a) for a in g.legal_actions() if a.kind == "play")
    assert "play 5-3 5-4 5-5" in plays and "play 6-1 5-2 4-3" in plays
    assert str(g.legal_actions()[0]) == "draw"


def test_opening_then_whole_table_play() -> None:
    g = game(H0, H1, dealer=1)
    g.apply("play 5-3 5-4 5-5")
    assert g.table == [tuple(T("5-3 5-4 5-5"))] and g.opened == [True, False]
    assert g.current_player == 1
    g.apply("play 5-3 5-4 5-5 | 3-1 3-2 3-3")  # seat 1 opens beside the table
    assert g.opened == [True, True] and len(g.table) == 2 and g.current_player == 0
    assert g.view(None)["events"][-1] == {"kind": "play", "seat": 1, "tiles": ["3-3", "3-2", "3-1"], "opening": True}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("play 5-3 5-4 5-5 4-3", "an opening is|exactly three"),
        ("play 5-3 5-4", "exactly three tiles, not 2"),
        ("play 6-1 5-2 1-0", "is not valid"),
        ("play 6-5 6-4 6-3", "not in your hand"),
    ],
)
def test_bad_openings(text: str, message: str) -> None:
    g = game(H0, H1, dealer=1)
    before = g.view(0)
    with pytest.raises(boneyard.IllegalAction, match=message):
        g.apply(text)
    assert g.view(0) == before


def test_opening_may_not_touch_the_table() -> None:
    g = game(H0, "5-2 6-5 1-1 2-1 3-1 6-0 4-0 2-2", dealer=1)
    g.apply("play 5-3 5-4 5-5")
    for text in ("play 5-2 5-3 5-4 5-5 6-5", "play 5-3 5-4 5-5 | 1-1 2-1 3-1 | 6-0 4-0 2-2"):
        with pytest.raises(boneyard.IllegalAction, match="you have not opened"):
            g.apply(text)
    g.apply("play 5-3 5-4 5-5 | 1-1 2-1 3-1")
    assert g.opened == [True, True]


# ----- plays after opening -----------------------------------------------------------------


def opened_game() -> Any:
    """Seat 0 opened with 5-3 5-4 5-5, seat 1 with 3-1 3-2 3-3; seat 0 to play."""
    g = game(H0, H1, dealer=1)
    g.apply("play 5-3 5-4 5-5")
    g.apply("play 5-3 5-4 5-5 | 3-1 3-2 3-3")
    assert g.current_player == 0
    return g


def test_rearranging_the_whole_table() -> None:
    g = opened_game()
    # seat 0 extends the 3s run with 4-3 and lays a sum group, in one play
    g.apply("play 5-2 5-3 5-4 5-5 | 3-1 3-2 3-3 4-3")
    assert sorted(map(str, g.hands[0])) == sorted(["6-1", "1-0", "2-0"])
    assert g.table == [tuple(T("5-2 5-3 5-4 5-5")), tuple(T("3-1 3-2 3-3 4-3"))]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("play 5-3 5-4 5-5 | 3-1 3-2 4-3", "table tile 3-3 is missing"),
        ("play 5-3 5-4 5-5 | 3-1 3-2 3-3 3-4 3-5", "3-5|5-3 is not in your hand"),
        ("play 5-3 5-4 5-5 | 3-1 3-2 3-3", "adds no tile"),
        ("play 5-3 5-4 5-5 | 3-1 3-2 3-3 | 6-1 1-0 2-0", r"group 3 \(6-1 1-0 2-0\) is not valid"),
        ("play 5-3 5-4 5-5 6-1 | 3-1 3-2 3-3", "group 1"),
        ("play 5-3 5-4 | 5-5 3-1 3-2 3-3 4-3", "group 1 .*a group needs three or more"),
        ("play 5-3 5-4 5-5 |  | 3-1 3-2 3-3 4-3", "group 2 .* is empty"),
        ("play 5-3 5-4 5-5 | 3-1 3-2 3-3 9-9", "not a Rummikub action"),
        ("draws", "expected draw, pass"),
        ("pass", "only when the boneyard is empty"),
    ],
)
def test_invalid_plays_name_what_is_wrong(text: str, message: str) -> None:
    g = opened_game()
    before = (g.view(0), g.view(None), g.record())
    with pytest.raises(boneyard.IllegalAction, match=message):
        g.apply(text)
    assert (g.view(0), g.view(None), g.record()) == before


def test_legal_plays_include_the_solver_best_and_single_tiles() -> None:
    g = opened_game()
    plays = [a for a in g.legal_actions() if a.kind == "play"]
    best = solver.best_play([t for grp in g.table for t in grp], g.hands[0])
    assert best is not None
    assert any(Counter(t for grp in a.groups for t in grp) == Counter(t for grp in best.table for t in grp)
               for a in plays)
    texts = {str(a) for a in plays}
    assert "play 5-2 5-3 5-4 5-5 | 3-1 3-2 3-3" in texts  # 5-2 alone onto the 5s run
    assert all(g.is_legal(t) for t in texts)


# ----- the hand's end, scoring, target -----------------------------------------------------


def test_going_out_scores_the_other_hands() -> None:
    g = game("5-3 5-4 5-5 2-0 2-1 2-2 6-5 3-2", H1, dealer=1, rules={"target": 50}, boneyard_front="6-3 4-0")
    g.apply("play 5-3 5-4 5-5")
    g.apply("draw")
    g.apply("play 5-3 5-4 5-5 | 2-0 2-1 2-2")
    g.apply("draw")
    g.apply("play 5-3 5-4 5-5 6-5 | 2-0 2-1 2-2 2-3")
    r = g.last_result
    assert r["reason"] == "domino" and r["winner"] == 0
    assert r["pips"] == [0, 42 + 9 + 4] and r["points"] == [55, 0]
    assert g.scores == [55, 0] and g.is_over and g.winners == [0]


def draw_out(g: Any) -> None:
    """Everyone draws until the boneyard is empty."""
    while g.boneyard:
        g.apply("draw")


def test_blocked_hand_lowest_pips_scores() -> None:
    g = game(H0, H1, dealer=1, rules={"target": 1000})
    draw_out(g)
    assert str(g.legal_actions()[0]) == "pass"
    pips = [sum(t.pips for t in h) for h in g.hands]
    assert pips[0] != pips[1]
    g.apply("pass")
    g.apply("pass")
    r = g.last_result
    low = min(range(2), key=lambda s: pips[s])
    assert r["reason"] == "blocked" and r["winner"] == low
    assert r["points"][low] == pips[1 - low] and g.scores[low] == pips[1 - low]
    assert g.hand_number == 2 and g.dealer == 0 and g.current_player == 1  # the deal rotates


def test_blocked_tie_scores_nothing() -> None:
    one = [str(t) for t in double_six()]
    deck = one[:8] + one[:8] + [t for pair in zip(one[8:], one[8:], strict=True) for t in pair]
    g = boneyard.new_game("rummikub", players=2, seed=1, deck=deck, dealer=1, rules={"target": 1000})
    draw_out(g)
    assert sorted(g.hands[0]) == sorted(g.hands[1])
    g.apply("pass")
    g.apply("pass")
    assert g.last_result["winner"] is None and g.scores == [0, 0] and g.hand_number == 2


def test_passes_must_be_consecutive() -> None:
    g = game(H0, H1, H2, dealer=2, rules={"target": 1000})
    draw_out(g)
    g.apply("pass")
    g.apply("pass")
    player = g.current_player
    play = next(a for a in g.legal_actions() if a.kind == "play")
    g.apply(play)  # a play restarts the count
    g.apply("pass")
    g.apply("pass")
    assert g.hand_number == 1 and g.passes == 2 and g.current_player == player
    g.apply("pass")
    assert g.hand_number == 2


def test_target_ends_the_game_and_ties_share() -> None:
    g = game(H0, H1, dealer=1, rules={"target": 1})
    draw_out(g)
    g.apply("pass")
    g.apply("pass")
    assert g.is_over and g.current_player is None and len(g.winners) == 1
    assert g.scores[g.winners[0]] >= 1
    assert g.legal_actions() == ()
    with pytest.raises(boneyard.IllegalAction, match="over"):
        g.apply("pass")


def test_rules_options() -> None:
    info = boneyard.game_info("rummikub")
    assert info["options"]["target"]["default"] == 100
    assert info["options"]["distinct_sums"]["default"] is False
    with pytest.raises(boneyard.RulesError, match="valid options"):
        boneyard.new_game("rummikub", rules={"target": 0})
    assert boneyard.new_game("rummikub", seed=1, rules={"target": 50}).rules.target == 50


# ----- views, sampling, the soak -----------------------------------------------------------


def test_sample_keeps_the_view() -> None:
    g = opened_game()
    for seat in (0, 1, None):
        v = g.view(seat)
        s = boneyard.sample_game(v, random.Random(3))
        assert s.view(seat) == v


def test_seeded_soak_keeps_the_invariants() -> None:
    """3,000 random hands (2-6 players, both options): tiles conserved, groups valid, scoring exact."""
    full = Counter(double_six(2))
    hands = 0
    rng = random.Random(77)
    seed = 0
    while hands < 3000:
        distinct = seed % 4 == 3
        rules = {"target": 1 if seed % 3 else 40, "distinct_sums": distinct}
        g: Rummikub = boneyard.new_game("rummikub", players=2 + seed % 5, seed=seed, rules=rules)
        seed += 1
        last_hand = g.hand_number
        while not g.is_over:
            before = list(g.scores)
            action = rng.choice(g.legal_actions())
            g.apply(action)
            assert all(a >= b for a, b in zip(g.scores, before, strict=True))
            if action.kind == "play" or g.hand_number != last_hand or g.is_over:
                locs = g.tile_locations()
                assert Counter(t for ts in locs.values() for t in ts) == full
                assert all(group_rules.group_error(grp, distinct) is None for grp in g.table)
            if g.hand_number != last_hand or g.is_over:
                hands += 1
                last_hand = g.hand_number
                r = g.last_result
                assert r is not None
                gained = 0 if r["winner"] is None else sum(r["pips"]) - r["pips"][r["winner"]]
                assert sum(r["points"]) == gained
                assert r["pips"] == [sum(Tile.parse(t).pips for t in h) for h in r["hands"]]
        assert g.winners and max(g.scores) >= rules["target"]
    assert seed > 600


def test_a_budgeted_answer_is_not_reused_for_a_larger_budget() -> None:
    groups, hand = reference.random_position(random.Random(0), 14, 6)
    table = [t for g in groups for t in g]
    solver._CACHE.clear()
    cut = solver.best_play(table, hand, groups=groups, budget=1, require=False)
    assert cut is not None and not cut.exact and cut.score == (3, 26)
    assert solver.best_play(table, hand, groups=groups, budget=1, require=False) is cut
    again = solver.best_play(table, hand, groups=groups, budget=10**9, require=False)
    assert again is not None and again.exact and again.score == (5, 39)


def test_the_shared_row_memo_may_be_emptied_between_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "COMPILED", False)  # the pure-Python sweep's memo
    monkeypatch.setattr(sweep, "_MEMO_LIMIT", 0)
    for table, hand, expect in [("3-3 4-3 5-3", "1-0 3-1 0-0 0-0", (4, 5)), ("3-2 4-2 5-2 0-0", "1-0 3-1 0-0", (3, 5))]:
        solver._CACHE.clear()
        sol = solver.best_play(T(table), T(hand))
        assert sol is not None and sol.score == expect
        assert len(sweep._VECS) < 100  # emptied before this search
