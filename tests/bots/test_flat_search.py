"""The flat search shape: candidates on common sampled worlds, reproducible, greedy on weak evidence."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

import boneyard
from boneyard.bots import inference as inference_module
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.greedy import montana as greedy_montana
from boneyard.bots.ismcts import IsmctsBot, _paired_lead, seat_reward
from boneyard.bots.montana import search as montana_search
from boneyard.bots.playouts import twobox as fast_twobox
from boneyard.bots.profiles import twobox as profile_twobox

from .profiles import use_profile


def decision(game_id: str, seed: int, skip: int = 0) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """A view and legal actions with a real choice, after ``skip`` greedy decisions."""
    g = boneyard.new_game(game_id, seed=seed)
    greedy = GreedyBot()
    rng = random.Random(seed)
    while True:
        legal = g.legal_actions()
        view = g.view(g.current_player)
        if len(legal) > 2:
            if skip == 0:
                return view, legal
            skip -= 1
        g.apply(greedy.choose(view, legal, rng))


def test_ismcts_rejects_an_unknown_shape() -> None:
    with pytest.raises(ValueError, match="ismcts shape"):
        IsmctsBot(iterations=5, shape="deep")


@pytest.mark.parametrize("game_id", ["twobox", "montana", "rounce"])
def test_flat_search_is_reproducible_from_a_seed(game_id: str) -> None:
    for skip in range(3):
        view, legal = decision(game_id, 3, skip)
        first = IsmctsBot(iterations=30, shape="flat").choose(view, legal, random.Random(5))
        again = IsmctsBot(iterations=30, shape="flat").choose(view, legal, random.Random(5))
        assert str(first) == str(again)
        assert first in legal


def test_flat_search_compares_an_unlisted_greedy_play() -> None:
    """Rummikub's greedy may answer with a whole-table play the engine did not list; the
    flat search compares it with the listed ones and may play it, as the tree search does."""
    view, legal = decision("rummikub", 2, skip=8)
    expected = GreedyBot().choose(view, legal, random.Random(0))
    assert str(expected) not in {str(a) for a in legal}  # the case this test is about
    bot = IsmctsBot(iterations=6 * len(legal), shape="flat")
    chosen = bot.choose(view, legal, random.Random(1))
    assert bot.last_iterations > 0  # it searched, rather than falling back on greedy's play
    assert chosen in legal or chosen == expected
    world = boneyard.sample_game(view, random.Random(2))
    world.apply(chosen)  # the engine takes it


def test_flat_search_plays_every_candidate_on_the_same_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Common random numbers: one sampled world per round, each candidate on a copy of it."""
    sampled: list[Any] = []
    real = inference_module.sample_game

    def spy(view: dict[str, Any], rng: random.Random) -> Any:
        world = real(view, rng)
        sampled.append(world)
        return world

    monkeypatch.setattr(inference_module, "sample_game", spy)
    played: list[tuple[int, str]] = []
    real_playout = IsmctsBot._playout

    def watch(self: IsmctsBot, game: Any, *args: Any) -> bool:
        played.append((len(sampled), str(game.record()["actions"][-1])))
        return real_playout(self, game, *args)

    monkeypatch.setattr(IsmctsBot, "_playout", watch)
    # the playouts through the engine (as where a game has no whole-hand rounds of its own)
    use_profile(monkeypatch, profile_twobox, outcomes=None)
    view, legal = decision("twobox", 2)
    found = profile_twobox.candidates(view, legal, GreedyBot().choose(view, legal, random.Random(0)))
    assert len(found) >= 2
    bot = IsmctsBot(iterations=10 * len(found), shape="flat")
    bot.choose(view, legal, random.Random(1))
    assert len(sampled) == 10
    assert bot.last_iterations == 10 * len(found)
    for round_ in range(1, 11):
        tried = [a for r, a in played if r == round_]
        assert sorted(tried) == sorted(str(a) for a in found)


def test_flat_search_without_budget_for_a_round_plays_greedy() -> None:
    view, legal = decision("twobox", 4)
    expected = GreedyBot().choose(view, legal, random.Random(0))
    found = profile_twobox.candidates(view, legal, expected)
    bot = IsmctsBot(iterations=len(found) - 1, shape="flat")
    assert bot.choose(view, legal, random.Random(0)) == expected
    assert bot.last_iterations == 0


def test_paired_lead_counts_standard_errors_of_the_difference() -> None:
    # the same lead of 0.25 in every round: no spread, an infinitely sure lead
    assert _paired_lead([0.75, 0.5, 1.0], [0.5, 0.25, 0.75]) == float("inf")
    # no lead at all
    assert _paired_lead([0.5, 0.5], [0.5, 0.5]) == float("-inf")
    # differences 0.2 and 0.0: mean 0.1, standard error 0.1
    assert _paired_lead([0.7, 0.5], [0.5, 0.5]) == pytest.approx(1.0)


def test_montana_candidates_are_greedys_ties_on_tiles_away() -> None:
    view, legal = decision("montana", 5)
    greedy = GreedyBot().choose(view, legal, random.Random(0))
    found = montana_search.candidates(view, legal, greedy)
    assert found[0] == greedy
    assert all(a in legal for a in found)
    assert len(found) <= greedy_montana.MAX_CANDIDATES + 1
    hand = [greedy_montana.tile(t) for t in view["hand"]]
    rest = greedy_montana.unseen(view)
    live = list(rest.elements())
    aways = {
        greedy_montana.discard_key(hand, greedy_montana.tile(str(a).split()[1]), False, rest, live)[0] for a in found
    }
    assert len(aways) == 1  # nobody is ready at the first discard: ties only


def test_twobox_candidates_are_every_play_then_the_draw() -> None:
    """Every play and stack, greedy's first, then the draw while the boneyard has tiles."""
    drawn = 0
    for skip in range(8):
        view, legal = decision("twobox", 6, skip)
        greedy = GreedyBot().choose(view, legal, random.Random(0))
        found = profile_twobox.candidates(view, legal, greedy)
        plays = [a for a in legal if str(a) != "draw"]
        draw = [a for a in legal if str(a) == "draw"]
        assert found[0] == greedy
        assert sorted(map(str, found[: len(plays)])) == sorted(map(str, plays))
        assert found[len(plays) :] == draw
        drawn += bool(draw)
    assert drawn >= 4  # most of these decisions could draw


def test_flat_search_uses_the_games_compiled_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each sampled world gives ROUNDS_PER_WORLD rounds; the best mean is played, greedy's or not."""
    calls: list[int] = []
    totals: dict[str, float] = {}
    real = profile_twobox.outcomes

    def spy(world: Any, actions: Any, seat: int, seed: int) -> Any:
        rows = real(world, actions, seat, seed)
        assert rows is not None
        calls.append(len(rows))
        start = world.scores
        for row in rows:
            for a, (final, winners) in zip(actions, row, strict=True):
                gains = [f - s for f, s in zip(final, start, strict=True)]
                r = seat_reward(gains, seat, winners, False, profile_twobox.PROFILE.margin_scale)
                totals[str(a)] = totals.get(str(a), 0.0) + r
        return rows

    use_profile(monkeypatch, profile_twobox, outcomes=spy)
    overruled = 0
    for skip in range(12):
        view, legal = decision("twobox", 2, skip)
        greedy = GreedyBot().choose(view, legal, random.Random(0))
        found = profile_twobox.candidates(view, legal, greedy)
        if len(found) < 2:
            continue
        calls.clear()
        totals.clear()
        per_world = profile_twobox.ROUNDS_PER_WORLD * len(found)
        bot = IsmctsBot(iterations=5 * per_world, shape="flat")
        choice = bot.choose(view, legal, random.Random(1))
        assert calls == [profile_twobox.ROUNDS_PER_WORLD] * 5
        assert bot.last_iterations == 5 * per_world
        assert str(choice) == max(totals, key=lambda k: totals[k])
        overruled += choice != greedy
    assert overruled >= 1


def test_an_explicit_depth_or_rollout_plays_out_through_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled rounds stand for greedy whole-hand playouts only: other settings skip them."""
    use_profile(monkeypatch, profile_twobox, outcomes=lambda *args: pytest.fail("compiled rounds used"))
    view, legal = decision("twobox", 2)
    found = profile_twobox.candidates(view, legal, GreedyBot().choose(view, legal, random.Random(0)))
    assert len(found) >= 2
    for bot in (
        IsmctsBot(iterations=4 * len(found), shape="flat", depth=3),
        IsmctsBot(iterations=4 * len(found), shape="flat", rollout="random"),
    ):
        bot.choose(view, legal, random.Random(1))
        assert bot.last_iterations == 4 * len(found)  # four rounds played out here, one per world


def test_the_twobox_playouts_are_compiled() -> None:
    """make (and pip install) compiles them with the engines; pure Python, two-box's search is much weaker."""
    if os.environ.get("BONEYARD_REQUIRE_COMPILED", "") in ("", "0"):
        pytest.skip("the build is not required to be compiled here")
    assert fast_twobox.__file__.endswith(".so"), "bots/playouts/twobox.py is not compiled: reinstall (make build)"


def _rounce_decision(phase: str, seed: int = 3, first: bool = False) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """A Rounce view in ``phase`` with a real choice, reached by greedy play.

    ``first``: one that the other seats answer (the hand's first call, or a lead).
    """
    for s in range(seed, seed + 200):
        g = boneyard.new_game("rounce", players=4, seed=s)
        greedy = GreedyBot()
        rng = random.Random(s)
        while not g.is_over:
            legal = g.legal_actions()
            view = g.view(g.current_player)
            fresh = not any(view["calls"]) if phase == "call" else not view["trick"]
            if view["phase"] == phase and len(legal) > 1 and (fresh or not first):
                return view, legal
            g.apply(greedy.choose(view, legal, rng))
    raise AssertionError(f"no Rounce decision in phase {phase}")


@pytest.mark.parametrize(
    ("phase", "shape", "expected"),
    [("call", "auto", "flat"), ("play", "auto", "tree"), ("call", "tree", "tree"), ("play", "flat", "flat")],
)
def test_rounce_searches_its_calls_flat_and_its_tricks_in_the_tree(
    phase: str, shape: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    view, legal = _rounce_decision(phase)
    used: list[str] = []
    flat = IsmctsBot._flat
    iterate = IsmctsBot._iterate

    def spy_flat(self: IsmctsBot, *args: Any, **kwargs: Any) -> Any:
        used.append("flat")
        return flat(self, *args, **kwargs)

    def spy_tree(self: IsmctsBot, *args: Any, **kwargs: Any) -> Any:
        used.append("tree")
        return iterate(self, *args, **kwargs)

    monkeypatch.setattr(IsmctsBot, "_flat", spy_flat)
    monkeypatch.setattr(IsmctsBot, "_iterate", spy_tree)
    action = IsmctsBot(iterations=40, shape=shape).choose(view, legal, random.Random(1))
    assert action in legal
    assert used and set(used) == {expected}


def test_search_shape_reads_the_phase_before_the_game_wide_knob() -> None:
    from boneyard.bots.ismcts import search_shape
    from boneyard.bots.profile import SearchProfile
    from boneyard.bots.profiles import rounce as rounce_profile

    knobs = SearchProfile(search="flat", search_by_phase={"bid": "tree"})
    assert search_shape(knobs, "bid") == "tree"
    assert search_shape(knobs, "play") == "flat"
    assert search_shape(SearchProfile(), "play") == "tree"
    assert search_shape(rounce_profile.PROFILE, "call") == "flat"
    assert search_shape(rounce_profile.PROFILE, "discard") == "flat"
    assert search_shape(rounce_profile.PROFILE, "play") == "tree"
