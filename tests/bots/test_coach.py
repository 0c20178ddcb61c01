"""The coach: its answers' shape, its consistency with real play, and the one review (``bots/review.py``).

The terminal command is checked in ``tests/test_cli_review.py``, the web's review in
``tests/server/test_coach_web.py`` (which also checks that both give the same review).
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import boneyard
from boneyard.bots import review as review_module
from boneyard.bots.coach import Judgement, analyse, loss, mark, thresholds
from boneyard.bots.review import CoachWords, Reviewer, positions, review, seed_for, verdict, verdicts
from boneyard.tiles import double_six

GREEDY = boneyard.bot("greedy")


def _decision(game_id: str, seed: int, skip: int, phase: str | None = None) -> Any:
    """A seeded greedy game stopped at its ``skip``-th real decision (in ``phase``, if given)."""
    game = boneyard.new_game(game_id, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        if len(legal) > 1 and (phase is None or str(game.phase) == phase):
            if skip == 0:
                return game
            skip -= 1
        game.apply(GREEDY.choose(game.view(game.current_player), legal, rng))
    return None


def test_analyse_values_every_legal_action_best_first() -> None:
    game = _decision("rounce", 5, 2, "play")
    seat = game.current_player
    legal = game.legal_actions()
    before = game.record()
    ranking = analyse(game.view(seat), legal, ms=None, rounds=6, rng=3)
    assert sorted(str(j.action) for j in ranking) == sorted(str(a) for a in legal)
    assert [j.value for j in ranking] == sorted((j.value for j in ranking), reverse=True)
    assert all(j.rounds == 6 and math.isfinite(j.error) and j.error >= 0 for j in ranking)
    assert ranking == analyse(game.view(seat), legal, ms=None, rounds=6, rng=3)  # seeded: reproducible
    assert game.record() == before
    assert boneyard.analyse is analyse
    d = ranking[0].to_dict()
    assert set(d) == {"action", "value", "error", "rounds"} and d["rounds"] == 6


@pytest.mark.parametrize("game_id", ["eighty", "twobox", "rummikub", "montana"])
def test_analyse_answers_in_every_game(game_id: str) -> None:
    game = _decision(game_id, 2, 1)
    ranking = analyse(game.view(game.current_player), game.legal_actions(), ms=1, rng=1)
    assert len(ranking) == len(game.legal_actions())
    assert all(j.rounds >= 1 for j in ranking)  # at least one round, whatever the budget


def test_analyse_refuses_bad_requests() -> None:
    game = boneyard.new_game("rounce", seed=1)
    view, legal = game.view(game.current_player), game.legal_actions()
    with pytest.raises(ValueError, match="spectator"):
        analyse(game.view(None), legal)
    with pytest.raises(ValueError, match="no legal actions"):
        analyse(view, [])
    with pytest.raises(ValueError, match="budget"):
        analyse(view, legal, ms=None)
    with pytest.raises(ValueError, match="ms must be"):
        analyse(view, legal, ms=0)
    with pytest.raises(ValueError, match=r"game\.view"):
        analyse({"seat": 0}, legal)


def _finish_hand(game: Any, seat: int) -> float:
    """The seat's real margin for the rest of the hand, everyone playing greedy (hidden tiles as dealt)."""
    start = list(game.scores)
    hand = game.hand_number
    rng = random.Random(0)
    while not game.is_over and game.hand_number == hand:
        game.apply(GREEDY.choose(game.view(game.current_player), game.legal_actions(), rng))
    gains = [a - b for a, b in zip(game.scores, start, strict=True)]
    others = [gains[s] for s in range(game.players) if s != seat]
    return -(gains[seat] - sum(others) / len(others))  # rounce: lower is better


def test_top_action_scores_better_than_bottom_action_in_real_play() -> None:
    """Over seeded Rounce positions, the coach's top action beats its bottom one, by > 2 standard errors.

    Each position is played on in the real game (its true hidden tiles, which the coach
    never saw) once with the coach's top action and once with its bottom action, everyone
    then playing greedy; the paired differences of the seat's margin are compared.
    """
    diffs: list[float] = []
    seed = 0
    while len(diffs) < 40:
        seed += 1
        game = _decision("rounce", seed, seed % 3)
        if game is None:
            continue
        seat = game.current_player
        ranking = analyse(game.view(seat), game.legal_actions(), ms=None, rounds=8, rng=seed)
        if ranking[0].value - ranking[-1].value < 0.5:
            continue  # the coach sees no real difference here: nothing to test
        outcomes = []
        for j in (ranking[0], ranking[-1]):
            world = game.clone()
            world.apply(j.action)
            outcomes.append(_finish_hand(world, seat))
        diffs.append(outcomes[0] - outcomes[1])
    mean = sum(diffs) / len(diffs)
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))
    assert mean > 2 * se, (mean, se)


def test_marks_need_both_size_and_evidence() -> None:
    assert [name for name, _ in thresholds("rounce")] == ["blunder", "mistake", "inaccuracy"]
    blunder, mistake, inaccuracy = (v for _, v in thresholds("rounce"))
    assert blunder > mistake > inaccuracy > 0
    assert mark("rounce", blunder, 0.0) == "blunder"
    assert mark("rounce", (mistake + blunder) / 2, 0.01) == "mistake"
    assert mark("rounce", inaccuracy, 0.0) == "inaccuracy"
    assert mark("rounce", inaccuracy * 0.9, 0.0) is None
    assert mark("rounce", blunder, blunder) is None  # within noise: not marked
    assert thresholds("eighty")[0][1] > thresholds("rounce")[0][1]  # scaled by each game's hand swing
    a = Judgement("a", 2.0, 0.5, (1.0, 3.0, 2.0))
    b = Judgement("b", 1.0, 0.5, (0.0, 2.0, 1.0))
    assert loss(a, b) == (1.0, 0.0)  # paired rounds: the shared noise cancels


# A three-player Rounce deal: seat 0 (first to call; seat 2 deals) holds the five highest
# trumps (6s are trumps: the turn-up is 6-0), sure to take all five tricks. Folding that
# hand is the deliberately bad decision.
STRONG = ["6-6", "6-5", "6-4", "6-3", "6-2"]
DECK = [*STRONG, "5-5", "5-4", "5-3", "5-2", "5-1", "4-4", "4-3", "4-2", "4-1", "4-0", "6-0"]


def _record(first: str) -> dict[str, Any]:
    deck = DECK + [str(t) for t in double_six() if str(t) not in DECK]
    game = boneyard.new_game("rounce", players=3, seed=4, deck=deck, dealer=2)
    game.apply(first)
    rng = random.Random(1)
    hand = game.hand_number
    while not game.is_over and game.hand_number == hand:
        game.apply(GREEDY.choose(game.view(game.current_player), game.legal_actions(), rng))
    record: dict[str, Any] = game.record()
    return record


def test_review_marks_the_deliberate_blunder() -> None:
    bad = review(_record("fold"), 0, ms=1000)
    assert bad.total == 1 and bad.skipped == 0
    first = bad.decisions[0]
    assert (first.number, first.step, first.seat, first.hand, first.played) == (1, 0, 0, 1, "fold")
    assert first.mark == "blunder" and first.loss == first.mine.loss > 0
    assert first.ranking[0].action != "fold" and first.ranking[0].is_best and not first.mine.is_best
    assert first.held is not None and set(STRONG) <= set(first.held)
    assert bad.counts() == {"blunder": 1, "mistake": 0, "inaccuracy": 0}
    good = review(_record("pass"), 0, ms=300, seed=1)
    marked = [d for d in good.decisions if d.mark in ("mistake", "blunder")]
    assert not marked, [(d.number, d.played, d.mark) for d in marked]


def _scripted(seed: int) -> dict[str, Any]:
    """A one-hand three-player Rounce game: seat 0 always takes its last legal action, the others their first."""
    game = boneyard.new_game("rounce", players=3, seed=seed, dealer=2, rules={"max_hands": 1})
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[-1] if game.current_player == 0 else legal[0])
    record: dict[str, Any] = game.record()
    return record


def test_positions_are_exactly_the_seats_decisions_with_a_choice() -> None:
    record = _scripted(7)
    found = positions(record, 0)
    game = boneyard.replay({**record, "actions": []})
    expected = []
    for step, text in enumerate(record["actions"]):
        if game.current_player == 0 and len(game.legal_actions()) > 1:
            expected.append((step, text, game.view(0), game.hand_number))
        game.apply(text)
    assert [(p.step, str(p.played), p.view, p.hand) for p in found] == expected
    assert [p.number for p in found] == list(range(1, len(expected) + 1))
    assert all(str(p.played) in [str(a) for a in p.candidates] for p in found)
    with pytest.raises(ValueError, match="0 to 2"):
        positions(record, 3)
    with pytest.raises(ValueError, match="cannot be replayed"):
        positions({**record, "actions": ["play 6-6"]}, 0)


def test_review_is_reproducible_and_its_seeds_depend_on_the_decision_alone() -> None:
    record = _scripted(7)
    once = review(record, 0, ms=None, rounds=6)
    assert once == review(record, 0, ms=None, rounds=6)
    assert [d.mark for d in once.decisions] == ["blunder", None, "blunder", None]
    assert all(d.rounds == 6 for d in once.decisions)
    # a decision judged alone meets the deals it met in the whole review
    reviewer = Reviewer(record, 0, None, rounds=6)
    assert reviewer.judge(reviewer.positions[2]) == once.decisions[2]
    view = reviewer.positions[0].view
    assert seed_for(view, ["a", "b"]) == seed_for(view, ["a", "b"]) != seed_for(view, ["b", "a"])
    assert seed_for(view, ["a"], 1) != seed_for(view, ["a"], 2)
    assert review(record, 0, ms=None, rounds=6, seed=5) != once  # another seed: other deals


def test_review_reports_progress_and_skips_a_decision_it_cannot_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    real = review_module.analysis
    calls = {"n": 0}

    def flaky(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:
            raise ValueError("no world could be sampled")
        return real(*args, **kwargs)

    monkeypatch.setattr(review_module, "analysis", flaky)
    seen: list[tuple[int, int]] = []
    result = review(_scripted(7), 0, ms=None, rounds=2, progress=lambda done, total: seen.append((done, total)))
    assert result.total == 4 and result.skipped == 1
    assert [d.number for d in result.decisions] == [1, 3, 4]
    assert seen == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def test_a_review_needs_a_budget() -> None:
    record = _scripted(7)
    with pytest.raises(ValueError, match="budget"):
        Reviewer(record, 0, None)
    with pytest.raises(ValueError, match="ms must be"):
        Reviewer(record, 0, 0)
    with pytest.raises(ValueError, match="rounds must be"):
        Reviewer(record, 0, None, rounds=0)


def test_verdicts_in_words() -> None:
    best = Judgement("pass", 1.5, 0.2, (1.0, 2.0, 1.5))
    fold = Judgement("fold", -11.5, 0.5, (-12.0, -11.0, -11.5))  # 13 points worse in every round: a blunder
    close = Judgement("dummy", 1.4, 0.2, (1.5, 1.5, 1.2))  # 0.1 worse on average, within the noise
    small = Judgement("play 6-4", 0.5, 0.2, (0.0, 1.0, 0.5))  # 1 point worse in every round: clear but small
    one = Judgement("x", 1.0, math.inf, (1.0,))
    words = CoachWords("rummikub", ["Ann", "Bob", "Cy"], 0)
    ranked = verdicts([best, fold, close, small], "rummikub")
    assert [v.mark for v in ranked] == [None, "blunder", None, None]
    assert [words.compared(v) for v in ranked] == [
        "the coach's choice",
        "a blunder: 13 points worse than pass",
        "as good as pass, within the coach's uncertainty",
        "a small difference: 1 point worse than pass",
    ]
    assert words.compared(verdict(Judgement("y", 2.0, math.inf, (2.0,)), one, "rummikub")) == (
        "too few deals to tell it from y")
    assert words.value(1.5, 0.2, 0) == "about 1.5 points in your favour over the rest of this hand (give or take 0.4)"
    assert words.value(-1.0, math.inf, 0) == "about 1 point against you over the rest of this hand"
    assert words.value(-1.0, math.inf, 1) == "about 1 point against Bob over the rest of this hand"
    assert words.value(2.25, 0.1, 2) == "about 2.2 points in Cy's favour over the rest of this hand (give or take 0.2)"
    assert words.value(0.0, 0.1, 0).startswith("even over the rest of this hand")
    assert [words.figure(*x) for x in ((1.5, 0.2), (-1.0, math.inf), (0.0, 0.05), (-0.25, 1.0))] == [
        "+1.5 points ± 0.4", "−1 point", "0 points ± 0.1", "−0.25 points ± 2"]
    assert words.units(1) == "points of margin over the other players for the rest of this hand, in Bob's favour"
    assert words.tally({"blunder": 1, "mistake": 0, "inaccuracy": 2}) == "1 blunder, 0 mistakes, 2 inaccuracies"
    assert words.limits() == "inaccuracy from 2.5 points, mistake from 6.2, blunder from 12.5"


def test_a_decision_in_one_sentence_names_the_player() -> None:
    decision = review(_record("fold"), 0, ms=None, rounds=6).decisions[0]
    mine = CoachWords("rounce", ["Ann", "Bob", "Cy"], 0).decision(decision)
    theirs = CoachWords("rounce", ["Ann", "Bob", "Cy"], 2).decision(decision)
    assert mine.startswith("You played fold (−") and ", a blunder: " in mine and mine.endswith(".")
    assert theirs == "Ann" + mine[3:]
