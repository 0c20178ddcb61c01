"""The trick playouts against greedy: Eighty's and Rounce's, compiled by mypyc from the heuristic's
own Python (``bots/tricks/<game>.py``), with no C twin."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard.bots import ismcts as ismcts_module
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.greedy import eighty as greedy_eighty
from boneyard.bots.greedy import rounce as greedy_rounce
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.profiles import eighty as eighty_profile
from boneyard.bots.profiles import rounce as rounce_profile
from boneyard.bots.tricks import eighty as tricks_eighty
from boneyard.bots.tricks import rounce as tricks_rounce

from .profiles import use_profile

BOTS = Path(__file__).resolve().parents[2] / "boneyard" / "bots"
GREEDY = {"eighty": greedy_eighty, "rounce": greedy_rounce}
TRICKS = {"eighty": 10, "rounce": 5}
TRICK_MODULES = {"eighty": tricks_eighty, "rounce": tricks_rounce}
PROFILES = {"eighty": eighty_profile, "rounce": rounce_profile}  # where each search profile lives


@pytest.mark.parametrize("game_id", sorted(GREEDY))
def test_the_playout_is_compiled_with_the_engines_from_greedys_python(game_id: str) -> None:
    """No C twin: greedy's play and its playout are one Python module, compiled with the engines."""
    from boneyard import compiled

    assert PROFILES[game_id].PROFILE.finish is TRICK_MODULES[game_id].finish
    assert not list(BOTS.glob(f"_{game_id}_playout*"))
    if compiled.is_compiled():
        assert f"boneyard.bots.tricks.{game_id}" in compiled.compiled_modules()


def _positions(game_id: str, count: int, seed: int) -> Iterator[Any]:
    """Play-phase games at random moments of partly random play, the game's variety mixed in.

    Eighty: every rules option, and Nel-O bid at random when it may be (greedy never bids
    it). Rounce: two to four players, folds and dummies as they come. Some plays are random
    too, so that the positions are not only those greedy would reach.
    """
    rng = random.Random(seed)
    greedy = GreedyBot()
    found = 0
    while found < count:
        if game_id == "eighty":
            rules = {"nello": rng.random() < 0.5, "doubles_suit": rng.random() < 0.5}
            game = boneyard.new_game("eighty", seed=rng.getrandbits(32), rules=rules)
        else:
            game = boneyard.new_game("rounce", players=rng.choice([2, 3, 4, 4]), seed=rng.getrandbits(32))
        while not game.is_over and found < count:
            view = game.view(game.current_player)
            legal = game.legal_actions()
            if view["phase"] == "play" and rng.random() < 0.1:
                found += 1
                yield game.clone()
            nello = [a for a in legal if str(a) == "bid nel-o"]
            if nello and rng.random() < 0.3:
                game.apply(nello[0])
            elif rng.random() < 0.25:
                game.apply(legal[rng.randrange(len(legal))])
            else:
                game.apply(greedy.choose(view, legal, rng))


def _greedy_on_engine(game: Any, stop: int) -> list[str]:
    """Greedy's plays one Python call at a time, as the search's rollout makes them."""
    hand = game.hand_number
    played: list[str] = []
    total = TRICKS[game.id]
    while not game.is_over and game.hand_number == hand and not (stop and total - len(game.tricks) <= stop):
        legal = game.legal_actions()
        view = game.view(game.current_player)
        action = legal[0] if len(legal) == 1 else GREEDY[game.id].choose(view, legal, random.Random(0))
        played.append(str(action))
        game.apply(action)
    return played


@pytest.mark.parametrize("game_id", sorted(GREEDY))
def test_the_compiled_playout_plays_greedys_tiles_in_greedys_order(game_id: str) -> None:
    """Tile for tile the same as the Python heuristic, over 1,500 positions (every variety, stops)."""
    rng = random.Random(3)
    varied = stops = 0
    for game in _positions(game_id, 1500, 11):
        stop = rng.choice([0, 0, 1, 2, 3])
        expected = _greedy_on_engine(game.clone(), stop)
        copy = game.clone()
        before = len(copy.record()["actions"])
        played = TRICK_MODULES[game_id].finish(copy, stop)
        got = [str(a) for a in copy.record()["actions"][before:]]
        assert got == expected, f"position {game.record()}: stop {stop}"
        assert played == bool(expected)
        view = game.view(None)
        varied += bool(view["nello"]) if game_id == "eighty" else "fold" in view["calls"]
        stops += bool(stop and expected)
        if expected and not stop:
            assert copy.is_over or copy.hand_number != game.hand_number  # played to the hand's end
    assert varied > 100 and stops > 200  # the positions reach every branch of the heuristic


def test_finish_stops_where_the_endgame_solver_takes_over() -> None:
    """With ``stop`` = 3 the playout leaves exactly three tricks, the current one unbegun."""
    game = next(g for g in _positions("eighty", 40, 5) if len(g.tricks) < 6 and not g.view(0)["nello"])
    assert tricks_eighty.finish(game, 3)
    assert len(game.tricks) == 7 and not game.view(None)["trick"]
    assert not tricks_eighty.finish(game, 3)  # nothing left to play before the stop


@pytest.mark.parametrize("game_id", sorted(GREEDY))
def test_finish_plays_nothing_outside_the_play_phase(game_id: str) -> None:
    """In the bidding or the calls the playout leaves the game to greedy's choose."""
    game = boneyard.new_game(game_id, seed=4)
    before = game.record()
    assert not TRICK_MODULES[game_id].finish(game, 0)
    assert game.record() == before


def _spots(game_id: str, count: int) -> list[tuple[dict[str, Any], list[Any]]]:
    """Decisions with a choice, from bids or calls to late tricks, of seeded greedy games."""
    rng = random.Random(8)
    greedy = GreedyBot()
    out: list[tuple[dict[str, Any], list[Any]]] = []
    seed = 20
    game = boneyard.new_game(game_id, seed=seed)
    while len(out) < count:
        if game.is_over:
            seed += 1
            game = boneyard.new_game(game_id, seed=seed)
        legal = game.legal_actions()
        view = game.view(game.current_player)
        if len(legal) > 1 and rng.random() < 0.25:
            out.append((view, legal))
        game.apply(greedy.choose(view, legal, rng))
    return out


@pytest.mark.parametrize("game_id", sorted(GREEDY))
def test_the_search_with_compiled_playouts_is_todays_search_made_cheaper(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same iterations, same choices as ``rollout=greedy``, and the compiled playout really ran.

    The compiled playout takes greedy's tiles, and greedy's play uses no random numbers in
    these games, so with an iteration budget the two searches build the same tree.
    """
    calls = []
    real = TRICK_MODULES[game_id].finish

    def spy(game: Any, stop: int = 0) -> bool:
        played = real(game, stop)
        calls.append(played)
        return played

    use_profile(monkeypatch, PROFILES[game_id], finish=spy)
    fast = IsmctsBot(iterations=40, endgame=0, infer=0)
    slow = IsmctsBot(iterations=40, rollout="greedy", endgame=0, infer=0)
    for i, (view, legal) in enumerate(_spots(game_id, 12)):
        made = len(calls)
        a = fast.choose(view, legal, random.Random(i))
        assert any(calls[made:]), "the search did not use the compiled playout"
        made = len(calls)
        b = slow.choose(view, legal, random.Random(i))
        assert len(calls) == made, "rollout=greedy must play out one call at a time"
        assert str(a) == str(b)


@pytest.mark.parametrize("game_id", sorted(GREEDY))
def test_the_compiled_playout_hands_over_to_the_solver(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the endgame on, the playout stops at the solver's trick count and the solver ends the hand."""
    stops: list[int] = []
    real = TRICK_MODULES[game_id].finish

    def spy(game: Any, stop: int = 0) -> bool:
        stops.append(stop)
        return real(game, stop)

    solved: list[int] = []
    real_solve = ismcts_module.endgame.finish_hand

    def solve(game: Any, seat: int) -> None:
        solved.append(len(game.tricks))
        real_solve(game, seat)

    use_profile(monkeypatch, PROFILES[game_id], finish=spy)
    monkeypatch.setattr(ismcts_module.endgame, "finish_hand", solve)
    view, legal = next(
        (v, la) for v, la in _spots(game_id, 40) if v["phase"] == "play" and len(v["tricks"]) < TRICKS[game_id] - 3
    )
    IsmctsBot(iterations=10, endgame=2, infer=0).choose(view, legal, random.Random(1))
    assert stops and set(stops) == {2}
    assert solved and set(solved) == {TRICKS[game_id] - 2}


@pytest.mark.parametrize("game_id", sorted(GREEDY))
def test_the_coach_values_are_the_same_with_the_compiled_playouts(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coach plays its rounds with the compiled playouts: same values, to the last bit."""
    spots = [(v, la) for v, la in _spots(game_id, 30) if v["phase"] == "play"][:4]
    assert spots
    real = TRICK_MODULES[game_id].finish
    played: list[bool] = []

    def spy(game: Any, stop: int = 0) -> bool:
        played.append(real(game, stop))
        return played[-1]

    use_profile(monkeypatch, PROFILES[game_id], finish=spy)
    fast = [boneyard.analyse(v, la, ms=None, rounds=6, rng=random.Random(2)) for v, la in spots]
    assert any(played), "the coach did not use the compiled playout"
    use_profile(monkeypatch, PROFILES[game_id], finish=None)
    slow = [boneyard.analyse(v, la, ms=None, rounds=6, rng=random.Random(2)) for v, la in spots]
    assert [[(str(j.action), j.samples) for j in a] for a in fast] == [
        [(str(j.action), j.samples) for j in a] for a in slow
    ]
