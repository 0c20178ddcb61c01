"""The coach explains itself: typed reasons (``bots/reasons.py``), their words (``words/coach.py``), late games.

Scripted positions in several games: a Rounce pass judged on what the player could see
before the others called; the reasons' fields agree with the figures they come from; the
others' holding that turns a decision is found; late in a game the chance of winning the
game ranks the actions, and can rank them otherwise than the hand's margin.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard.bots.coach import Analysis, Judgement, analysis, is_late, to_target
from boneyard.bots.reasons import explain, holding, tiles_of
from boneyard.bots.review import review
from boneyard.tiles import double_six
from boneyard.words.coach import CoachWords

GREEDY = boneyard.bot("greedy")
NAMES = ["Ann", "Bob", "Cy"]

# A three-player Rounce deal: Ann (seat 0, first to call; Cy deals) holds five low tiles
# and no trump (the turn-up 6-0 makes sixes trumps): passing risks being rounced. She
# passes, then Bob and Cy both fold, so she takes all five tricks without play.
WEAK = ["1-0", "2-0", "3-0", "2-1", "3-1"]
DECK = [*WEAK, "6-6", "6-5", "6-4", "6-3", "6-2", "5-5", "5-4", "4-4", "5-3", "4-3", "6-0"]


def _weak_pass_record() -> dict[str, Any]:
    deck = DECK + [str(t) for t in double_six() if str(t) not in DECK]
    game = boneyard.new_game("rounce", players=3, seed=4, deck=deck, dealer=2, rules={"max_hands": 1})
    for action in ("pass", "fold", "fold"):
        game.apply(action)
    assert game.is_over  # one hand: Ann took the five tricks by walkover
    record: dict[str, Any] = game.record()
    return record


def test_a_rounce_pass_is_judged_on_what_was_seen_before_the_others_called() -> None:
    reviewed = review(_weak_pass_record(), 0, ms=None, rounds=40)
    first = reviewed.decisions[0]
    assert first.played == "pass" and first.mark is not None  # a weak hand: passing was a real risk
    r = first.reasons
    assert r is not None and r.worse == "pass" and r.better != "pass"
    assert [(m.seat, m.event["kind"]) for m in r.later] == [(1, "fold"), (2, "fold")]
    assert r.actual is not None and r.actual > first.value  # the real deal went far better than the coach expected
    said = CoachWords("rounce", NAMES, 0).why(first)
    assert said is not None
    assert said.startswith(f"Why {r.better}: ")
    assert "before Bob and Cy called (then: Bob folds; Cy folds)" in said
    assert "judged it on what you could see then" in said and "as it happened" in said
    # to another reader, the same reasons with names
    theirs = CoachWords("rounce", NAMES, 1).why(first)
    assert theirs is not None and "what Ann could see then" in theirs and "before you and Cy called" in theirs


def test_the_judgement_uses_only_what_the_seat_saw() -> None:
    """The decision's figures and reasons are the same whatever the others then did (they came later)."""
    record = _weak_pass_record()
    other = {**record, "actions": ["pass", "pass", "pass"]}
    game = boneyard.replay(other)  # the hand goes on: the others played it
    assert not game.is_over
    one = review(record, 0, ms=None, rounds=12).decisions[0]
    two = review(other, 0, ms=None, rounds=12).decisions[0]
    assert [(v.action, v.judgement.samples) for v in one.ranking] == [
        (v.action, v.judgement.samples) for v in two.ranking]
    assert one.reasons is not None and two.reasons is not None
    assert one.reasons.holding == two.reasons.holding and one.reasons.gap == two.reasons.gap
    assert [m.event["kind"] for m in two.reasons.later] == ["pass", "pass"]


def _decision(game_id: str, seed: int, skip: int, players: int | None = None,
              rules: dict[str, Any] | None = None) -> Any:
    """A seeded greedy game stopped at its ``skip``-th decision with a choice."""
    game = boneyard.new_game(game_id, players=players, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        if len(legal) > 1:
            if skip == 0:
                return game
            skip -= 1
        game.apply(GREEDY.choose(game.view(game.current_player), legal, rng))
    raise AssertionError("the game ended first")


@pytest.mark.parametrize(("game_id", "seed", "skip"), [("eighty", 3, 12), ("twobox", 5, 2), ("rounce", 5, 4),
                                                       ("rummikub", 2, 3)])
def test_reasons_agree_with_the_figures_in_several_games(game_id: str, seed: int, skip: int) -> None:
    game = _decision(game_id, seed, skip)
    seat = game.current_player
    view = game.view(seat)
    found = analysis(view, game.legal_actions(), ms=None, rounds=12, rng=seed)
    best, worst = found.ranking[0], found.ranking[-1]
    r = explain(found, best, worst)
    hand = [str(t) for t in view.get("hand") or []]
    assert (r.better, r.worse, r.rounds) == (str(best.action), str(worst.action), 12)
    assert r.gap == pytest.approx(best.value - worst.value)
    assert set(r.spends) == set(tiles_of(r.better, hand)) - set(tiles_of(r.worse, hand))
    assert set(r.keeps) == set(tiles_of(r.worse, hand)) - set(tiles_of(r.better, hand))
    assert set(r.keeps) <= set(hand) and set(r.spends) <= set(hand)
    assert (r.mine_better, r.mine_worse) == (best.gains[seat], worst.gains[seat])
    if r.helped is not None:
        assert r.helped != seat and r.helped_by == pytest.approx(worst.gains[r.helped] - best.gains[r.helped])
    if r.holding is not None:  # a tile the seat cannot see, held by someone else
        assert r.holding.seat != seat and r.holding.tile not in hand and 0 < r.holding.share < 1
    said = CoachWords(game_id, ["Ann", "Bob", "Cy", "Dee"][: game.players], seat).reasons(r)
    assert said.startswith(f"Why {r.better}: ") and said.endswith(".")
    for t in r.keeps:
        assert t in said
    assert r.to_dict()["better"] == r.better


def test_the_holding_that_turns_a_decision_is_found() -> None:
    """Synthetic deals: "a" beats "b" by 4 exactly where Bob holds 6-6 (half the deals), else they tie."""
    rounds = 12
    hands = tuple(
        (frozenset({"1-0"}), frozenset({"6-6", "2-2"} if i % 2 else {"5-5", "2-2"}),
         frozenset({"5-5", "3-3"} if i % 2 else {"6-6", "3-3"}))
        for i in range(rounds))
    a = Judgement("a", 2.0, 0.3, tuple(4.0 if i % 2 else 0.0 for i in range(rounds)), (0.0, 0.0, 0.0))
    b = Judgement("b", 0.0, 0.3, tuple(0.0 for _ in range(rounds)), (0.0, 0.0, 0.0))
    found = Analysis("twobox", 0, False, (a, b), hands, {"seat": 0, "hand": ["1-0"], "players": 3})
    h = holding(found, a, b)
    # Bob's 6-6 and Cy's 5-5 (or their absence) tell the same story: the first that widens the gap is told
    assert h is not None and (h.seat, h.tile, h.share, h.effect, h.where_held) == (1, "6-6", 0.5, 4.0, 4.0)
    said = CoachWords("twobox", NAMES, 0).holding(h, explain(found, a, b))
    assert said == "the gap is widest where Bob holds 6-6 (Bob does in 50% of those deals)"
    assert holding(found, a, a) is None  # no difference: nothing turns it


def test_late_is_read_from_the_scores_and_the_target() -> None:
    start = boneyard.new_game("twobox", players=3, seed=1)
    assert to_target(start.view(0)) == 150 and not is_late(start.view(0))
    near = boneyard.new_game("twobox", players=3, seed=1, rules={"target": 40})
    assert is_late(near.view(0))  # within two typical hand swings (2 x 25 points)
    rounce = boneyard.new_game("rounce", players=3, seed=1, rules={"max_hands": 1})
    assert to_target(rounce.view(0)) == 15 and not is_late(rounce.view(0))  # the hand limit is not lateness
    eighty = boneyard.new_game("eighty", seed=1, rules={"target": 60})
    assert is_late(eighty.view(0)) and not is_late(boneyard.new_game("eighty", seed=1).view(0))
    montana = boneyard.new_game("montana", players=3, seed=3)
    assert not is_late(montana.view(0))  # the first deal; its last deal (the deal gone round) is late


def test_late_in_a_game_the_chance_of_winning_ranks_the_actions() -> None:
    """Two-box to 30: drawing gains more of the hand on average, but playing 1-0 wins the game more often."""
    game = _decision("twobox", 38, 2, players=3, rules={"target": 30})
    view = game.view(game.current_player)
    late = analysis(view, game.legal_actions(), ms=None, rounds=40, rng=38)
    assert late.late and late.measure == "win"
    by_margin = max(late.ranking, key=lambda j: j.value)
    top = late.ranking[0]
    assert str(top.action) != str(by_margin.action)
    assert top.win is not None and by_margin.win is not None and top.win > by_margin.win
    assert top.value < by_margin.value
    # asked to ignore the game's end, the same deals rank by the margin
    plain = analysis(view, game.legal_actions(), ms=None, rounds=40, rng=38, late=False)
    assert str(plain.ranking[0].action) == str(by_margin.action) and plain.ranking[0].win is None
    said = CoachWords("twobox", NAMES, game.current_player).reasons(explain(late, top, by_margin))
    assert "late in the game the coach ranks by the chance of winning it" in said
    assert f"after {top.action}" in said and "%" in said
    assert top.to_dict()["win"] == round(top.win, 3)
