"""The tree search's other seats decided by the playout policy on their own hands (``others``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from boneyard.bots.inference import Inference
from boneyard.bots.ismcts import IsmctsBot, _Node, policy_phases
from boneyard.bots.profile import SearchProfile
from boneyard.bots.profiles import rounce as rounce_profile

from .test_flat_search import _rounce_decision


def _descents(
    others: str, monkeypatch: pytest.MonkeyPatch, phase: str = "call"
) -> tuple[list[tuple[int, str, str]], dict[str, Any], _Node]:
    """The (seat, phase, answer) of every playout-policy call made in the tree's descent
    (before a playout), the searcher's view, and the tree grown."""
    view, legal = _rounce_decision(phase, 0, first=True)
    in_playout = [False]
    asked: list[tuple[int, str, str]] = []

    def last(seen: dict[str, Any], actions: Sequence[Any], rng: random.Random) -> Any:
        if not in_playout[0]:
            asked.append((seen["seat"], seen["phase"], str(actions[-1])))
        return actions[-1]

    playout = IsmctsBot._playout

    def watch(self: IsmctsBot, *args: Any, **kwargs: Any) -> bool:
        in_playout[0] = True
        try:
            return playout(self, *args, **kwargs)
        finally:
            in_playout[0] = False

    monkeypatch.setattr(IsmctsBot, "_chooser", lambda self, knobs: last)
    monkeypatch.setattr(IsmctsBot, "_playout", watch)
    bot = IsmctsBot(iterations=200, shape="tree", others=others)
    root = _Node(None)
    rng = random.Random(4)
    sampler = Inference(view, 0)
    keyed = {str(a): a for a in legal}
    for _ in range(200):
        assert bot._iterate(root, view, keyed, rng, sampler)
    return asked, view, root


def _others_moves(node: _Node, seat: int) -> set[str]:
    """The moves of other seats anywhere in the tree below ``node``."""
    found: set[str] = set()
    for key, child in node.children.items():
        if child.mover != seat:
            found.add(key)
        found |= _others_moves(child, seat)
    return found


def test_the_other_callers_follow_the_policy_in_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """With Rounce's knob the other seats' calls and discards in the tree are the policy's,
    on their own hands, and never the searcher's own decisions nor a trick."""
    asked, view, root = _descents("auto", monkeypatch)
    assert asked, "the tree never reached another seat's call"
    assert all(seat != view["seat"] for seat, _, _ in asked)
    assert {phase for _, phase, _ in asked} <= {"call", "discard", "defend"}
    assert "call" in {phase for _, phase, _ in asked}
    # the policy's answers are the moves the tree took (as nodes of those seats)
    assert {answer for _, _, answer in asked} <= _others_moves(root, view["seat"])


def test_without_the_knob_the_tree_chooses_for_every_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    asked, _, _ = _descents("tree", monkeypatch)
    assert asked == []


def test_with_policy_everywhere_the_tree_asks_it_in_the_tricks_too(monkeypatch: pytest.MonkeyPatch) -> None:
    asked, view, root = _descents("policy", monkeypatch, "play")
    assert all(seat != view["seat"] for seat, _, _ in asked)
    assert "play" in {phase for _, phase, _ in asked}
    assert {answer for _, _, answer in asked} <= _others_moves(root, view["seat"])


def test_policy_phases_reads_the_parameter_then_the_games_knob() -> None:
    assert policy_phases(rounce_profile.PROFILE, "tree") is None
    assert policy_phases(rounce_profile.PROFILE, "policy") == frozenset()
    assert policy_phases(rounce_profile.PROFILE, "auto") == {"call", "discard", "defend"}
    assert policy_phases(SearchProfile(), "auto") is None


def test_ismcts_rejects_an_unknown_others() -> None:
    with pytest.raises(ValueError, match="ismcts others"):
        IsmctsBot(iterations=5, others="oracle")
