"""Montana's fast playout (``greedy/montana.py``'s ``finish``) against its playout policy."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.greedy import montana as greedy_montana
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.montana import search as montana_search
from boneyard.bots.profiles import montana as montana_profile
from boneyard.tiles import Tile

from .profiles import use_profile


def _positions(count: int, seed: int) -> Iterator[Any]:
    """Montana games at random moments (discards, claims, ready seats), two to four players.

    Greedy plays most moves, with a random legal move one time in five, so that the
    positions are not only those greedy would reach.
    """
    rng = random.Random(seed)
    greedy = GreedyBot()
    found = 0
    while found < count:
        game = boneyard.new_game("montana", players=rng.choice([2, 3, 4, 4]), seed=rng.getrandbits(32))
        while not game.is_over and found < count:
            legal = game.legal_actions()
            view = game.view(game.current_player)
            if rng.random() < 0.05:
                found += 1
                yield game.clone()
            if rng.random() < 0.2:
                game.apply(legal[rng.randrange(len(legal))])
            else:
                game.apply(greedy.choose(view, legal, rng))


def _policy_on_engine(game: Any) -> list[str]:
    """The playout policy one call a move through each seat's view, as ``rollout=policy`` plays."""
    hand = game.hand_number
    played: list[str] = []
    while not game.is_over and game.hand_number == hand:
        legal = game.legal_actions()
        action = (
            legal[0]
            if len(legal) == 1
            else montana_search.playout(game.view(game.current_player), legal, random.Random(0))
        )
        played.append(str(action))
        game.apply(action)
    return played


def test_finish_plays_the_playout_policys_moves_in_its_order() -> None:
    """Move for move the same as the policy on the views, over 300 positions of varied games."""
    claims = 0
    for game in _positions(300, 11):
        expected = _policy_on_engine(game.clone())
        copy = game.clone()
        before = len(copy.record()["actions"])
        played = montana_search.finish(copy, 0)
        got = [str(a) for a in copy.record()["actions"][before:]]
        assert got == expected, f"position {game.record()}"
        assert played == bool(expected)
        assert copy.is_over or copy.hand_number != game.hand_number  # played to the hand's end
        claims += sum(a.startswith("claim") for a in expected)
    assert claims > 20  # the positions reach the claims, not only the discards


def test_finish_plays_nothing_once_the_game_is_over() -> None:
    """A finished game is left as it is, and ``False`` says nothing was played."""
    game = boneyard.new_game("montana", seed=3)
    while not game.is_over:
        montana_search.finish(game, 0)
    before = game.record()
    assert not montana_search.finish(game, 0)
    assert game.record() == before


def _spots(count: int) -> list[tuple[dict[str, Any], list[Any]]]:
    """Decisions with a choice, from seeded greedy games."""
    out = []
    for game in _positions(count * 4, 5):
        legal = game.legal_actions()
        if len(legal) > 1 and not game.is_over:
            out.append((game.view(game.current_player), legal))
    return out[:count]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each call of Montana's ``finish`` returned while the test ran (a spy around it)."""
    made: list[bool] = []
    real = montana_search.finish

    def spy(game: Any, stop: int = 0) -> bool:
        made.append(real(game, stop))
        return made[-1]

    use_profile(monkeypatch, montana_profile, finish=spy)
    return made


def test_the_search_with_the_fast_playout_is_todays_search_made_cheaper(calls: list[bool]) -> None:
    """Same iterations, same choices as ``rollout=policy``, and the fast playout really ran.

    The policy uses no random numbers, so with an iteration budget both searches play the
    same playouts on the same worlds.
    """
    fast = IsmctsBot(iterations=30, defence=0)
    slow = IsmctsBot(iterations=30, rollout="policy", defence=0)
    searched = 0
    for i, (view, legal) in enumerate(_spots(12)):
        made = len(calls)
        a = fast.choose(view, legal, random.Random(i))
        searched += len(calls) > made
        made = len(calls)
        b = slow.choose(view, legal, random.Random(i))
        assert len(calls) == made, "rollout=policy must play out one call at a time"
        assert str(a) == str(b)
    assert searched >= 3, "the search did not use the fast playout"


def test_the_coach_values_are_the_same_with_the_fast_playout(
    calls: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coach plays its rounds with the fast playout: same values, to the last bit."""
    spots = _spots(3)
    fast = [boneyard.analyse(v, la, ms=None, rounds=4, rng=random.Random(2)) for v, la in spots]
    assert any(calls), "the coach did not use the fast playout"
    use_profile(monkeypatch, montana_profile, finish=None)
    slow = [boneyard.analyse(v, la, ms=None, rounds=4, rng=random.Random(2)) for v, la in spots]
    assert fast == slow


def test_an_unknown_rollout_names_the_choices() -> None:
    """``rollout`` takes the four documented names; anything else says which they are."""
    IsmctsBot(rollout="policy")
    with pytest.raises(ValueError, match="auto, policy, greedy, random"):
        IsmctsBot(rollout="fast")


@pytest.mark.parametrize(
    ("hand", "legal", "expected"),
    [
        # a pair of the discard: claim the triple
        (["5-3", "5-3", "6-1", "2-0"], ["claim triple", "pass"], "claim triple"),
        # three of it: the quad rather than the triple
        (["5-3", "5-3", "5-3", "2-0"], ["claim triple", "claim quad", "pass"], "claim quad"),
        # going out beats every set
        (["5-3", "5-3"], ["claim triple", "claim out", "pass"], "claim out"),
        # a run from two tiles held singly
        (["5-2", "5-4", "6-1", "2-0"], ["claim run 5-2 5-4", "pass"], "claim run 5-2 5-4"),
        # a run that would break up a pair: pass
        (["5-2", "5-2", "5-4", "2-0"], ["claim run 5-2 5-4", "pass"], "pass"),
        # a triple rather than a run
        (["5-3", "5-3", "5-2", "5-4"], ["claim run 5-2 5-4", "claim triple", "pass"], "claim triple"),
    ],
)
def test_the_playout_policy_claims_sets(hand: list[str], legal: list[str], expected: str) -> None:
    """The cheap policy claims what greedy usually claims: quads, triples, runs of single tiles."""
    assert montana_search.playout({"hand": hand}, legal, random.Random(0)) == expected


def test_the_playout_policy_declares_ready_with_its_loosest_waiting_discard() -> None:
    """Ready raises the hand's value, so the policy declares it when a discard allows,
    choosing among the ready discards the tile least tied to the rest of the hand."""
    hand = ["5-3", "5-3", "5-2", "6-1", "2-0"]
    legal = ["discard 5-3", "discard 6-1", "discard 2-0", "discard 6-1 ready", "discard 5-3 ready"]
    assert montana_search.playout({"hand": hand}, legal, random.Random(0)) == "discard 6-1 ready"
    # with no ready discard, the loosest tile goes plainly
    assert montana_search.playout({"hand": hand}, legal[:3], random.Random(0)) == "discard 6-1"


def test_the_policys_parts_switch_off_for_the_benchmark() -> None:
    """``benchmarks/montana_playout.py`` measures each part by switching it off."""
    pair = [greedy_montana.tile("5-3")] * 2
    moves: list[tuple[str, Tile | None, Tile | None, Any]] = [
        ("claim triple", None, None, "claim triple"),
        ("pass", None, None, "pass"),
    ]
    assert montana_search.pick(pair, moves) == "claim triple"
    assert montana_search.pick(pair, moves, claims=False) == "pass"
    hand = [greedy_montana.tile(t) for t in ("6-1", "2-0")]
    moves = [("discard", hand[0], None, "discard 6-1"), ("ready", hand[1], None, "discard 2-0 ready")]
    assert montana_search.pick(hand, moves) == "discard 2-0 ready"
    assert montana_search.pick(hand, moves, ready=False) == "discard 6-1"
