"""The search's per-game knobs: cut-off playouts, evaluations, cheap playout policies."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.greedy import montana as greedy_montana
from boneyard.bots.greedy import twobox as greedy_twobox
from boneyard.bots.ismcts import DEFAULT_PRIOR, IsmctsBot, head_start
from boneyard.bots.montana import search as montana_search
from boneyard.bots.playouts import twobox as fast_twobox
from boneyard.bots.profile import SearchProfile, profile
from boneyard.bots.profiles import twobox as profile_twobox
from boneyard.games.twobox import engine as twobox_rules
from boneyard.tiles import Tile, double_six

from .profiles import use_profile


@pytest.mark.parametrize("depth", [-1, True, 1.5])
def test_ismcts_rejects_a_bad_depth(depth: object) -> None:
    with pytest.raises(ValueError, match="ismcts depth"):
        IsmctsBot(iterations=5, depth=depth)  # type: ignore[arg-type]


boneyard_tiles = double_six()


def _best_score(spinner: int, arms: list[twobox_rules.ArmEnd], u: Tile) -> int:
    """The most ``u`` could score if played next: every arm it fits, by the engine's rules."""
    ends, _ = twobox_rules.open_ends_and_count(spinner, arms)
    best = 0
    for a, end in enumerate(ends):
        if end >= 0 and u.has(end):
            after = list(arms)
            after[a] = (u, u.other(end))
            best = max(best, twobox_rules.scored(twobox_rules.open_ends_and_count(spinner, after)[1]))
    return best


def test_twobox_threat_equals_the_sum_of_each_tiles_best_score() -> None:
    """The fast threat sum is the plain per-tile computation through the engine's rules, on real positions."""
    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        g = boneyard.new_game("twobox", seed=seed)
        while not g.is_over and checked < 60:
            seat = g.current_player
            view = g.view(seat)
            hand = twobox_rules.fast_view(view)
            spinner = Tile.parse(view["spinner"]).high
            arms: list[twobox_rules.ArmEnd] = [
                (Tile.parse(arm["tiles"][-1]["tile"]), arm["tiles"][-1]["outer"]) if arm["tiles"] else None
                for arm in view["arms"]
            ]
            rest = Counter({t: hand.hidden[t.key] - hand.hands[seat][t.key] for t in set(boneyard_tiles)})
            expected = sum(n * _best_score(spinner, arms, u) for u, n in rest.items())
            best, touched = fast_twobox.new_scratch()
            found = fast_twobox.threat(hand.spinner, hand.has, hand.tile, hand.outer, hand.hidden, hand.hands[seat],
                                       best, touched)
            assert found == expected
            assert best == [0] * 64  # the scratch list is given back clean
            checked += 1
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    assert checked == 60


def test_the_fast_path_reads_the_layout_as_the_view_shows_it() -> None:
    """Open ends and count of a seat's fast view are the engine's own (its view says them too)."""
    rng = random.Random(8)
    checked = 0
    for seed in range(4):
        g = boneyard.new_game("twobox", players=3, seed=seed)
        while not g.is_over:
            view = g.view(g.current_player)
            hand = twobox_rules.fast_view(view)
            ends = [hand.open_end(a) for a in range(4)]
            assert [None if e < 0 else e for e in ends] == view["open_ends"]
            assert hand.count() == view["count"] == g.count
            checked += 1
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    assert checked > 200


def test_twobox_evaluation_favours_the_seat_nearest_going_out() -> None:
    g = boneyard.new_game("twobox", seed=4)
    rng = random.Random(4)
    while not g.is_over:
        sizes = g.view(None)["hand_sizes"]
        if min(sizes) <= 2 and max(sizes) >= 5:
            break
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    sizes = g.view(None)["hand_sizes"]
    gains = greedy_twobox.evaluate(g)
    assert len(gains) == g.players and all(x >= 0 for x in gains)
    assert sizes[gains.index(max(gains))] == min(sizes)


def test_montana_playout_policy_is_legal_and_goes_out() -> None:
    g = boneyard.new_game("montana", seed=2)
    rng = random.Random(2)
    went_out = False
    for _ in range(3000):
        if g.is_over:
            break
        view = g.view(g.current_player)
        legal = g.legal_actions()
        action = montana_search.playout(view, legal, rng)
        assert action in legal
        texts = {str(a) for a in legal}
        if "out" in texts or "claim out" in texts:
            assert str(action) in ("out", "claim out")
            went_out = True
        g.apply(action)
    assert went_out


def test_montana_playout_discards_the_loosest_tile() -> None:
    view = {"hand": ["6-1", "6-2", "6-3", "5-5", "5-5", "4-0", "2-1", "2-0", "1-1", "1-0", "3-3"]}
    legal = [f"discard {t}" for t in sorted(set(view["hand"]))]
    # 4-0 and 3-3 have no partner in their suits; 4-0 is an upper suit, thrown first
    assert montana_search.playout(view, legal, random.Random(0)) == "discard 4-0"


def test_ismcts_without_budget_to_try_every_action_plays_greedy() -> None:
    g = boneyard.new_game("montana", seed=5)
    view = g.view(g.current_player)
    legal = g.legal_actions()
    assert len(legal) > 2
    expected = GreedyBot().choose(view, legal, random.Random(0))
    assert IsmctsBot(iterations=1).choose(view, legal, random.Random(1)) == expected


def test_ismcts_cut_off_playouts_evaluate_the_rest_of_the_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a cut-off the game's evaluation is asked once per iteration that did not end the hand."""
    calls: Counter[str] = Counter()
    real = greedy_twobox.evaluate

    def spy(game: object) -> list[float]:
        calls["evaluate"] += 1
        return real(game)

    use_profile(monkeypatch, profile_twobox, evaluate=spy)
    g = boneyard.new_game("twobox", seed=1)
    bot = IsmctsBot(iterations=20, depth=2)
    bot.choose(g.view(g.current_player), g.legal_actions(), random.Random(0))
    assert 0 < calls["evaluate"] <= 20


def test_ismcts_rejects_negative_evidence() -> None:
    with pytest.raises(ValueError, match="ismcts evidence"):
        IsmctsBot(iterations=5, evidence=-1)


def test_evidence_rule_keeps_greedys_choice_on_weak_evidence() -> None:
    """An action only slightly ahead on few playouts does not overrule greedy; a clear lead does."""
    from boneyard.bots.ismcts import _Node

    def node(rewards: list[float]) -> _Node:
        n = _Node(0)
        n.visits = len(rewards)
        n.total = sum(rewards)
        n.squares = sum(r * r for r in rewards)
        return n

    root = _Node(None)
    root.children["greedy"] = node([0.4, 0.6] * 10)
    root.children["close"] = node([0.45, 0.65] * 10)
    root.children["clear"] = node([0.9, 0.95] * 10)
    assert not IsmctsBot._clearly_better(root, "close", "greedy", 2.0)
    assert IsmctsBot._clearly_better(root, "clear", "greedy", 2.0)


def test_ms_budget_skips_an_iteration_known_to_overrun() -> None:
    """Once iterations are known to cost more than the budget, the bot plays greedy at once."""
    g = boneyard.new_game("montana", seed=5)
    view, legal = g.view(g.current_player), g.legal_actions()
    bot = IsmctsBot(ms=5000, iterations=50)  # a budget no loaded machine overruns: it measures an iteration
    bot.choose(view, legal, random.Random(0))
    assert bot.last_iterations >= 1
    key = bot._cost_key(view)  # montana's flat search plays its rounds itself (no ":fast")
    assert key in bot._iteration_s
    bot._iteration_s[key] = 10.0  # as if an iteration took twice the budget
    choice = bot.choose(view, legal, random.Random(0))
    assert bot.last_iterations == 0
    assert choice == GreedyBot().choose(view, legal, random.Random(0))


def test_a_skipped_decision_halves_the_cost_it_feared() -> None:
    """A stale cost (a stall, another phase) cannot switch the search off for good."""
    g = boneyard.new_game("rounce", seed=5)
    view, legal = g.view(g.current_player), g.legal_actions()
    bot = IsmctsBot(ms=200)
    key = bot._cost_key(view)
    assert key == "rounce:" + str(view["phase"])
    bot._iteration_s[key] = 1.6  # eight times the budget
    skipped = 0
    while True:
        bot.choose(view, legal, random.Random(0))
        if bot.last_iterations:
            break
        skipped += 1
    assert 2 <= skipped <= 5  # 1.6 s, 0.8, 0.4, 0.2, then below the budget: the search runs again


def test_the_cost_of_one_phase_does_not_stop_another() -> None:
    g = boneyard.new_game("rounce", seed=5)
    view, legal = g.view(g.current_player), g.legal_actions()
    bot = IsmctsBot(ms=300)
    bot._iteration_s["rounce:play"] = 10.0
    assert view["phase"] != "play"
    bot.choose(view, legal, random.Random(0))
    assert bot.last_iterations > 0


def test_a_view_the_game_cannot_sample_gets_greedys_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from boneyard.bots import inference as inference_module

    def refuse(view: object, rng: object) -> object:
        raise ValueError("no deal of the hidden tiles fits what the view shows")

    monkeypatch.setattr(inference_module, "sample_game", refuse)
    g = boneyard.new_game("twobox", seed=2)
    view, legal = g.view(g.current_player), g.legal_actions()
    bot = IsmctsBot(iterations=50)
    assert bot.choose(view, legal, random.Random(0)) == GreedyBot().choose(view, legal, random.Random(0))
    assert bot.last_iterations == 0


def test_the_favourites_head_start_is_the_bots_prior_else_the_games_knob_for_a_policy_favourite() -> None:
    """``prior`` wins; a playout policy's favourite takes the profile's ``favourite_prior``; greedy's the default."""
    knobs = SearchProfile(favourite_prior=0.3)
    assert head_start(knobs, None, True) == 0.3
    assert head_start(knobs, 0.2, True) == 0.2
    assert head_start(knobs, None, False) == DEFAULT_PRIOR
    assert head_start(SearchProfile(), None, True) == DEFAULT_PRIOR


def test_only_rummikub_favours_its_playout_policy_and_rollout_greedy_undoes_it() -> None:
    assert IsmctsBot()._favours_policy(profile("rummikub"))
    assert IsmctsBot(rollout="policy")._favours_policy(profile("rummikub"))
    assert not IsmctsBot(rollout="greedy")._favours_policy(profile("rummikub"))
    for game in ("montana", "twobox", "eighty", "rounce"):
        assert not IsmctsBot()._favours_policy(profile(game))


def test_rummikubs_held_draw_gets_its_knobs_head_start_and_rollout_greedy_the_default() -> None:
    knobs = profile("rummikub")
    assert head_start(knobs, None, IsmctsBot()._favours_policy(knobs)) == knobs.favourite_prior > DEFAULT_PRIOR
    assert head_start(knobs, None, IsmctsBot(rollout="greedy")._favours_policy(knobs)) == DEFAULT_PRIOR


def test_each_games_favourite_and_favourite_greedy_puts_greedys_back() -> None:
    """Montana starts from ``widest``, Rummikub from its playout policy, the rest from greedy."""
    auto = IsmctsBot()
    assert auto._favourite(profile("montana")) is greedy_montana.widest
    assert auto._favourite(profile("rummikub")) is profile("rummikub").playout
    for game in ("twobox", "eighty", "rounce"):
        assert auto._favourite(profile(game)) == auto._greedy.choose
    for game in ("montana", "rummikub"):
        bot = IsmctsBot(favourite="greedy")
        assert bot._favourite(profile(game)) == bot._greedy.choose
        assert not bot._favours_policy(profile(game))


def test_an_unknown_favourite_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="ismcts favourite must be one of auto, greedy, learned, got 'widest'"):
        IsmctsBot(favourite="widest")
