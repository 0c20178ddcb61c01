"""Each game's search profile: typed, checked when it is made, the one place the search's per-game settings live."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

import boneyard
from boneyard.bots import greedy
from boneyard.bots.profile import DEFAULT, SearchProfile, _profile_module, profile, profile_module

BOTS = Path(__file__).resolve().parents[2] / "boneyard" / "bots"
# the names the search's settings had as module constants read with getattr
OLD_KNOBS = ("MARGIN_SCALE", "EVIDENCE_Z", "SEARCH_BY_PHASE", "OTHERS_BY_POLICY", "FAVOURITE", "PLAYOUT_DEPTH",
             "ENDGAME_TRICKS", "DEFENCE_WORLDS", "INFER_CANDIDATES", "INFER_EPSILON", "EXPLAIN")


def test_every_game_with_a_heuristic_declares_its_profile() -> None:
    """Beside its heuristic, or in ``boneyard/bots/profiles/<id>.py`` (read first): one place each."""
    for game in boneyard.games():
        module = profile_module(game)
        assert module is not None and isinstance(module.PROFILE, SearchProfile), game
        assert profile(game) is module.PROFILE
        if module is not greedy.policy(game):
            assert module.__name__ == f"boneyard.bots.profiles.{game}"
            assert not hasattr(greedy.policy(game), "PROFILE"), f"{game}: two profiles"
    for game in ("montana", "twobox", "eighty", "rounce", "rummikub"):  # split: greedy/<id>.py is the heuristic alone
        assert profile_module(game).__name__ == f"boneyard.bots.profiles.{game}"
    assert profile("no-such-game") is DEFAULT


def test_a_profile_module_without_a_profile_is_refused() -> None:
    with pytest.raises(ValueError, match="must declare PROFILE, a SearchProfile"):
        _profile_module(SimpleNamespace(__name__="boneyard.bots.profiles.tiny", PROFILE={"search": "flat"}))


@pytest.mark.parametrize(("changes", "says"), [
    ({"search": "deep"}, "search must be one of tree, flat, not 'deep'"),
    ({"search_by_phase": {"call": "wide"}}, "search_by_phase['call'] must be one of tree, flat"),
    ({"favourite": "widest"}, "favourite must be one of greedy, playout, own, not 'widest'"),
    ({"favourite": "own"}, "favourite 'own' needs its favourite_chooser"),
    ({"favourite": "playout"}, "favourite 'playout' needs a playout policy"),
    ({"margin_scale": 0.0}, "margin_scale must be above 0"),
    ({"defence_worlds": 8}, "above 0 only with a defend policy"),
    ({"search_solves": True}, "above 0 where the search solves"),
    ({"infer_epsilon": 0.0}, "infer_epsilon must be in (0, 1]"),
])
def test_a_wrong_profile_is_refused_when_it_is_made_naming_the_field(changes: dict[str, object], says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        SearchProfile(**changes)  # type: ignore[arg-type]


def test_a_profile_cannot_be_changed_once_made() -> None:
    rounce = profile("rounce")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rounce.margin_scale = 3.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        rounce.search_by_phase["play"] = "flat"  # type: ignore[index]


def test_a_registered_heuristic_with_a_wrong_profile_is_refused() -> None:
    choose = SimpleNamespace(choose=lambda view, legal, rng: legal[0])
    wrong = SimpleNamespace(choose=choose.choose, PROFILE={"search": "flat"})
    with pytest.raises(ValueError, match="PROFILE must be a SearchProfile"):
        greedy.register("tiny-wrong", wrong)
    assert not greedy.policy("tiny-wrong")


def test_one_value_for_the_solvers_reach_used_by_the_coach_and_off_in_the_search() -> None:
    """The exact solver's reach was written twice (3 in the coach, 0 in the greedy modules): now once."""
    for game in ("eighty", "rounce"):
        assert profile(game).endgame_tricks == 3 and not profile(game).search_solves
    coach = (BOTS / "coach.py").read_text(encoding="utf-8")
    assert "ENDGAME_TRICKS" not in coach and "prof.endgame_tricks" in coach


def test_no_getattr_knob_remains_in_the_search() -> None:
    for path in BOTS.rglob("*.py"):
        if path.name == "profile.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "getattr(knobs" not in text and "getattr(policy(" not in text, path.name
        for name in OLD_KNOBS:
            assert not re.search(rf"\b{name}\b", text), (path.name, name)
