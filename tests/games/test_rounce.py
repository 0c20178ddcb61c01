"""Scripted Rounce deals with exact results, one test per rule and ruling (rounce 1-6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import boneyard
from boneyard import IllegalAction, Tile
from boneyard.tiles import double_six


def deck_for(hands: Sequence[str], turn_up: str, boneyard_front: str = "") -> list[str]:
    """A deck: the hands in seat order, the turn-up, then the given boneyard tiles, then the rest."""
    used = [t for h in hands for t in h.split()] + [turn_up] + boneyard_front.split()
    rest = [str(t) for t in double_six()]
    for t in used:
        rest.remove(str(Tile.parse(t)))
    return used + rest


def game(hands: Sequence[str], turn_up: str, dealer: int = 0, front: str = "", points: list[int] | None = None) -> Any:
    g = boneyard.new_game("rounce", players=len(hands), seed=1, deck=deck_for(hands, turn_up, front), dealer=dealer)
    if points is not None:
        g.points = list(points)
    return g


def legal(g: Any) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def play(g: Any, *actions: str) -> None:
    for a in actions:
        g.apply(a)


# The trick-rules hand: 3 players, dealer 0, trump 5 (turn-up 5-0).
TRICK_HANDS = ["4-2 5-5 6-5 5-3 1-1", "6-4 4-4 3-1 2-0 6-6", "4-3 6-2 5-1 1-0 3-3"]


def test_deal_turn_up_trump_and_first_caller() -> None:
    g = game(TRICK_HANDS, "5-0")
    v = g.view(1)
    assert v["hand"] == ["6-6", "6-4", "4-4", "3-1", "2-0"]
    assert v["turn_up"] == "5-0" and v["trump"] == 5 and not v["turn_up_taken"]
    assert v["dealer"] == 0 and g.current_player == 1
    assert v["boneyard"] == 12 and v["hand_sizes"] == [5, 5, 5]
    assert legal(g) == ["pass", "fold", "dummy"]
    assert boneyard.new_game("rounce", players=2, seed=1).view(0)["boneyard"] == 17
    assert boneyard.new_game("rounce", players=4, seed=1).view(0)["boneyard"] == 7


def test_dealer_rotates_left_and_first_dealer_is_seeded() -> None:
    dealers = {boneyard.new_game("rounce", players=4, seed=s).view(None)["dealer"] for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    g = game(["6-6 6-5 6-4 6-3 6-2", "5-5 5-4 5-3 5-2 5-1", "4-4 4-3 4-2 4-1 4-0", "3-3 3-2 3-1 3-0 2-2"], "1-0")
    play(g, "fold", "fold", "fold")  # the dealer is left alone: next hand
    assert g.view(None)["dealer"] == 1 and g.view(None)["hand_number"] == 2


def test_trick_rules_in_order_and_scoring() -> None:
    g = game(TRICK_HANDS, "5-0")
    play(g, "pass", "pass", "pass")
    assert g.current_player == 1
    with pytest.raises(IllegalAction, match="must name its suit"):
        g.apply("play 6-4")
    with pytest.raises(IllegalAction, match="cannot be led as suit 3"):
        g.apply("play 6-4 as 3")
    g.apply("play 6-4 as 4")
    assert g.view(2)["events"][-1] == {"kind": "play", "seat": 1, "tile": "6-4", "suit": 4}
    assert legal(g) == ["play 4-3"]  # must follow suit 4
    with pytest.raises(IllegalAction, match="must follow suit 4"):
        g.apply("play 6-2")
    play(g, "play 4-3", "play 4-2")
    assert g.view(None)["tricks_won"] == [0, 1, 0]  # 6-4 ranks 6 in suit 4
    # Trick 2: seat 1 won but holds no trump, so he may lead anything.
    assert "play 4-4" in legal(g) and "play 3-1 as 1" in legal(g)
    play(g, "play 4-4", "play 5-1")
    assert legal(g) == ["play 6-5", "play 5-5", "play 5-3"]  # three trumps, cannot follow: trump
    with pytest.raises(IllegalAction, match="three or more trumps who cannot follow suit must play a trump"):
        g.apply("play 1-1")
    g.apply("play 5-3")
    assert g.view(None)["tricks_won"] == [1, 1, 0]  # 5-3 (rank 3) beats 5-1 (rank 1)
    # Trick 3: the winner must lead a trump while he holds one.
    assert legal(g) == ["play 6-5", "play 5-5"]
    with pytest.raises(IllegalAction, match="won the previous trick must lead a trump"):
        g.apply("play 1-1")
    play(g, "play 5-5", "play 3-1", "play 1-0")
    play(g, "play 6-5", "play 6-6", "play 3-3")
    play(g, "play 1-1", "play 2-0", "play 6-2")  # 6-2 cannot follow suit 1 and cannot win
    result = g.view(None)["last_result"]
    assert result["tricks"] == [4, 1, 0]
    assert result["changes"] == [-4, -1, 5]  # seat 2 is rounced
    assert g.scores == [11, 14, 20]
    assert g.view(None)["hand_number"] == 2 and g.view(None)["dealer"] == 1


def test_three_trumps_must_lead_a_trump() -> None:
    g = game(["6-6 6-5 6-4 1-1 2-1", "6-3 5-5 4-4 3-3 2-2"], "6-0", dealer=1)
    play(g, "pass", "pass")
    assert g.current_player == 0
    assert legal(g) == ["play 6-6", "play 6-5", "play 6-4"]
    with pytest.raises(IllegalAction, match="three or more trumps must lead a trump"):
        g.apply("play 1-1")


def test_trump_ranking_other_end_and_double_as_trump_number() -> None:
    g = game(["5-5 5-3 4-4 3-3 1-1", "6-5 5-4 0-0 1-0 2-1"], "5-2", dealer=0)
    play(g, "pass", "pass", "play 6-5", "play 5-5")
    assert g.view(None)["tricks_won"] == [0, 1]  # 6-5 (rank 6) beats the double (rank 5)
    g2 = game(["5-5 5-3 4-4 3-3 1-1", "6-5 5-4 0-0 1-0 2-1"], "5-2", dealer=0)
    play(g2, "pass", "pass", "play 5-4")
    assert legal(g2) == ["play 5-5", "play 5-3"]  # trump led: follow with a trump
    g2.apply("play 5-5")
    assert g2.view(None)["tricks_won"] == [1, 0]  # the double (rank 5) beats 5-4


def test_follow_counts_in_led_suit_and_trump_tiles_never_follow() -> None:
    # Trump 6: 6-3 is a trump, not a 3, so seat 1 holding only 6-3 with a 3 cannot follow.
    g = game(["3-2 1-1 2-2 4-4 5-5", "6-3 4-0 5-0 1-0 2-0"], "6-0", dealer=1)
    play(g, "pass", "pass", "play 3-2 as 3")
    assert legal(g) == ["play 6-3", "play 5-0", "play 4-0", "play 2-0", "play 1-0"]
    g.apply("play 4-0")
    assert g.view(None)["tricks_won"] == [1, 0]


def test_fold_not_allowed_with_two_players() -> None:
    g = game(["6-6 6-5 6-4 6-3 6-2", "5-5 5-4 5-3 5-2 5-1"], "1-0")
    assert legal(g) == ["pass", "dummy"]
    with pytest.raises(IllegalAction, match="only with 3 or 4 players"):
        g.apply("fold")


def test_dummy_with_three_players_draws_six_discards_one_at_most_two() -> None:
    front = "6-6 6-5 6-4 6-3 6-2 6-1 6-0 4-4 4-3 4-2 4-1 4-0"
    g = game(["5-5 5-4 5-3 5-2 5-1", "3-3 3-2 3-1 3-0 2-2", "2-1 2-0 1-1 1-0 0-0"], "5-0", front=front)
    g.apply("dummy")
    v = g.view(1)
    assert v["hand"] == ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1"]
    assert v["discarded"] == ["3-3", "3-2", "3-1", "3-0", "2-2"]
    assert v["discards_due"] == 1 and v["boneyard"] == 6
    with pytest.raises(IllegalAction, match="must first discard 1 tile"):
        g.apply("pass")
    with pytest.raises(IllegalAction, match="you do not hold 5-5"):
        g.apply("discard 5-5")
    g.apply("discard 6-1")
    assert g.view(1)["hand"] == ["6-6", "6-5", "6-4", "6-3", "6-2"]
    assert g.view(2)["events"][-1] == {"kind": "discard", "seat": 1}
    assert g.view(1)["events"][-1] == {"kind": "discard", "seat": 1, "tile": "6-1"}
    assert {"kind": "dummy", "seat": 1, "count": 6} in g.view(2)["events"]
    assert not any(e["kind"] == "dummy_tiles" for e in g.view(2)["events"])
    drawn = ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1"]
    assert {"kind": "dummy_tiles", "seat": 1, "tiles": drawn} in g.view(1)["events"]
    g.apply("dummy")
    assert g.view(2)["hand"] == ["6-0", "4-4", "4-3", "4-2", "4-1", "4-0"]
    g.apply("discard 4-0")
    assert legal(g) == ["pass", "fold", "take"]  # two dummies already: none for the dealer
    with pytest.raises(IllegalAction, match="at most 2 with 3 players"):
        g.apply("dummy")


def test_dummy_with_four_players_takes_seven_discards_two_only_one() -> None:
    hands = ["6-6 6-5 6-4 6-3 6-2", "5-5 5-4 5-3 5-2 5-1", "4-4 4-3 4-2 4-1 4-0", "3-3 3-2 3-1 3-0 2-2"]
    g = game(hands, "1-0")
    g.apply("dummy")
    assert g.view(1)["hand_sizes"][1] == 7 and g.view(1)["boneyard"] == 0 and g.view(1)["discards_due"] == 2
    g.apply("discard 2-1")
    assert g.current_player == 1 and g.view(1)["discards_due"] == 1
    g.apply("discard 2-0")
    assert g.current_player == 2
    assert legal(g) == ["pass", "fold"]
    with pytest.raises(IllegalAction, match="at most 1 with 4 players"):
        g.apply("dummy")


def test_dealer_takes_the_turn_up_and_discards_any_tile() -> None:
    g = game(TRICK_HANDS, "5-0")
    with pytest.raises(IllegalAction, match="only the dealer may take"):
        g.apply("take")
    play(g, "pass", "pass")
    assert legal(g) == ["pass", "fold", "dummy", "take"]
    g.apply("take")
    assert g.view(0)["hand"] == ["6-5", "5-5", "5-3", "5-0", "4-2", "1-1"]
    assert legal(g) == [f"discard {t}" for t in ["6-5", "5-5", "5-3", "5-0", "4-2", "1-1"]]
    g.apply("discard 1-1")
    v = g.view(1)
    assert v["turn_up_taken"] and v["hand_sizes"][0] == 5 and v["phase"] == "play" and g.current_player == 1
    assert {"kind": "take", "seat": 0, "tile": "5-0"} in v["events"]


def test_everyone_else_folds_dealer_takes_five_without_play() -> None:
    hands = ["6-6 6-5 6-4 6-3 6-2", "5-5 5-4 5-3 5-2 5-1", "4-4 4-3 4-2 4-1 4-0", "3-3 3-2 3-1 3-0 2-2"]
    g = game(hands, "1-0")
    play(g, "fold", "fold", "fold")
    assert g.scores == [10, 15, 15, 15]
    assert g.view(None)["last_result"]["changes"] == [-5, 0, 0, 0]
    events = g.view(None)["events"]
    assert {"kind": "walkover", "seat": 0} in events
    end = next(e for e in events if e["kind"] == "hand_end")
    assert end["walkover"] == 0 and end["tricks"] == [5, 0, 0, 0] and end["points"] == [-5, 0, 0, 0]
    assert end["played"] == [] and end["calls"] == [None, "fold", "fold", "fold"]


def test_only_one_left_in_takes_five_without_play() -> None:
    g = game(TRICK_HANDS, "5-0")
    play(g, "pass", "fold", "fold")  # the dealer folds too: seat 1 is alone
    assert g.scores == [15, 10, 15]


def test_dealer_may_defend_against_a_lone_dummy_with_four_players() -> None:
    hands = ["6-6 6-5 6-4 6-3 6-2", "5-5 5-4 5-3 5-2 5-1", "4-4 4-3 4-2 4-1 4-0", "3-3 3-2 3-1 3-0 2-2"]
    g = game(hands, "1-0")
    with pytest.raises(IllegalAction, match="only the dealer may defend"):
        g.apply("defend")
    play(g, "fold", "fold", "dummy", "discard 2-1", "discard 2-0")
    assert legal(g) == ["pass", "fold", "take", "defend"]
    g.apply("defend")
    assert g.view(None)["defending"] and g.current_player == 3  # seats 1 and 2 folded
    while g.view(None)["hand_number"] == 1:
        g.apply(g.legal_actions()[-1])
    result = g.view(None)["last_result"]
    assert result["changes"][0] == 0  # the defender's score never changes
    assert result["changes"][1] == 0 and result["changes"][2] == 0
    t3 = result["tricks"][3]
    assert result["changes"][3] == (-t3 if t3 else 5)
    assert sum(result["tricks"]) == 5


def test_defend_needs_two_folds_and_a_dummy() -> None:
    hands = ["6-6 6-5 6-4 6-3 6-2", "5-5 5-4 5-3 5-2 5-1", "4-4 4-3 4-2 4-1 4-0", "3-3 3-2 3-1 3-0 2-2"]
    g = game(hands, "1-0")
    play(g, "fold", "fold", "pass")
    assert "defend" not in legal(g)
    g3 = game(TRICK_HANDS, "5-0")
    play(g3, "fold", "dummy")
    g3.apply(g3.legal_actions()[0])
    assert "defend" not in legal(g3)  # three players: never


def test_defend_after_taking_the_turn_up() -> None:
    hands = ["6-6 6-5 6-4 6-3 6-2", "5-5 5-4 5-3 5-2 5-1", "4-4 4-3 4-2 4-1 4-0", "3-3 3-2 3-1 3-0 2-2"]
    g = game(hands, "1-0")
    play(g, "fold", "fold", "dummy", "discard 2-1", "discard 2-0", "take", "discard 6-2")
    assert legal(g) == ["pass", "defend"]
    with pytest.raises(IllegalAction, match="may now only defend or pass"):
        g.apply("fold")
    g.apply("pass")
    assert not g.view(None)["defending"] and g.view(None)["phase"] == "play"


def test_first_lead_skips_a_folded_seat() -> None:
    g = game(TRICK_HANDS, "5-0")
    play(g, "fold", "pass", "pass")
    assert g.current_player == 2


def test_game_ends_when_someone_reaches_zero_lowest_wins() -> None:
    g = game(TRICK_HANDS, "5-0", points=[3, 1, 9])
    play(g, "pass", "pass", "pass", "play 6-4 as 4", "play 4-3", "play 4-2", "play 4-4", "play 5-1", "play 5-3")
    play(g, "play 5-5", "play 3-1", "play 1-0", "play 6-5", "play 6-6", "play 3-3", "play 1-1", "play 2-0", "play 6-2")
    assert g.is_over and g.current_player is None
    assert g.scores == [-1, 0, 14]
    assert g.winners == [0]
    with pytest.raises(IllegalAction, match="game is over"):
        g.apply("pass")


def test_equal_lowest_share_the_win() -> None:
    g = game(TRICK_HANDS, "5-0", points=[4, 1, 9])
    play(g, "pass", "pass", "pass", "play 6-4 as 4", "play 4-3", "play 4-2", "play 4-4", "play 5-1", "play 5-3")
    play(g, "play 5-5", "play 3-1", "play 1-0", "play 6-5", "play 6-6", "play 3-3", "play 1-1", "play 2-0", "play 6-2")
    assert g.scores == [0, 0, 14]
    assert g.winners == [0, 1]


def test_views_hide_hands_and_face_down_tiles() -> None:
    g = game(TRICK_HANDS, "5-0")
    v = g.view(1)
    assert v["hand"] == ["6-6", "6-4", "4-4", "3-1", "2-0"]
    text = str({k: v[k] for k in v if k != "hand"})
    for tile in ("4-3", "6-2", "4-2", "1-1"):  # other seats' tiles appear nowhere
        assert tile not in text
    assert g.view(None)["hand"] is None and g.view(None)["discarded"] is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("play", "expected pass, fold"),
        ("play 7-7", "tile ends must be 0 to 6"),
        ("discard 6-4 now", "expected pass, fold"),
        ("play 6-4 as x", "expected pass, fold"),
        ("Pass", "expected pass, fold"),
    ],
)
def test_malformed_actions_name_the_expected_form(text: str, message: str) -> None:
    g = game(TRICK_HANDS, "5-0")
    with pytest.raises(IllegalAction, match=message):
        g.apply(text)


def test_sample_respects_voids_and_trump_limits() -> None:
    g = game(TRICK_HANDS, "5-0")
    play(g, "pass", "pass", "pass", "play 6-4 as 4", "play 4-3", "play 4-2", "play 4-4", "play 5-1")
    # Seat 2 could not follow 4 and played a trump; seat 1 led after winning with no trump.
    import random

    for i in range(200):
        s = boneyard.sample_game(g.view(0), random.Random(i))
        assert s.view(0) == g.view(0)
        seat1 = s.hands[1]
        seat2 = s.hands[2]
        assert not any(t.has(5) for t in seat1)  # led a non-trump after winning: no trumps
        assert not any(t.has(4) and not t.has(5) for t in seat2)  # void in suit 4


def test_soak_thousands_of_hands_keep_the_invariants() -> None:
    """Seeded random play: every hand five tricks, points move exactly by the hand's changes."""
    import random
    from collections import Counter

    rng = random.Random(2024)
    hands = 0
    full = Counter(double_six())
    for seed in range(400):
        g = boneyard.new_game("rounce", players=2 + seed % 3, seed=seed)
        points = g.scores
        while not g.is_over:
            number = g.view(None)["hand_number"]
            g.apply(rng.choice(g.legal_actions()))
            if g.is_over or g.view(None)["hand_number"] != number:
                hands += 1
                r = g.view(None)["last_result"]
                assert sum(r["tricks"]) == 5
                for seat, change in enumerate(r["changes"]):
                    assert change in (0, 5) if r["tricks"][seat] == 0 else change in (0, -r["tricks"][seat])
                assert [p + c for p, c in zip(points, r["changes"], strict=True)] == g.scores == r["points"]
                points = g.scores
                assert Counter(t for ts in g.tile_locations().values() for t in ts) == full
        assert min(g.scores) <= 0 and g.winners == [s for s, p in enumerate(g.scores) if p == min(g.scores)]
    assert hands >= 3000
