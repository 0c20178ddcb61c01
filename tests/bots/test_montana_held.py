"""Montana's search reads what the claim windows proved the other seats hold (the explain knob)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.greedy import montana as gm
from boneyard.bots.inference import Inference
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.montana import reading as montana_reading
from boneyard.bots.profiles import montana as montana_profile
from boneyard.tiles import Tile, double_six

from .profiles import use_profile
from .scripted import valid

T = Tile.parse
FILLER = ["6-5", "5-2", "5-4", "5-1", "4-4", "4-3", "4-1", "3-2", "3-0", "2-1"]


def game(hands: dict[int, list[str]], wood: list[str], dealer: int) -> Any:
    """A four-seat game dealt as given (FILLER for the seats not named), ``wood`` pulled first."""
    seats = [hands.get(s, FILLER) for s in range(4)]
    rest = Counter(str(t) for t in double_six(4))
    rest.subtract([*(t for h in seats for t in h), *wood])
    deck = [t for h in seats for t in h] + wood + sorted(rest.elements())
    return boneyard.new_game("montana", players=4, seed=1, deck=deck, dealer=dealer)


def play(g: Any, *actions: str) -> None:
    """Apply the actions in order."""
    for a in actions:
        g.apply(a)


def _lost_run_claim() -> Any:
    """Seat 1 claims a run on seat 0's 6-3 and loses it to seat 2's triple; seat 2 discards."""
    seat1 = ["6-1", "6-2", *FILLER[:8]]
    seat2 = ["6-3", "6-3", *FILLER[:8]]
    g = game({1: seat1, 2: seat2}, ["6-3"], dealer=0)
    play(g, "discard 6-3", "claim run 6-1 6-2", "claim triple", "discard 6-5")
    return g


def _holds(hand: list[Tile], reqs: list[montana_reading.Requirement]) -> bool:
    have = Counter(hand)
    return all(any(all(have[t] >= k for t, k in o.items()) for o in req) for req in reqs)


def test_a_lost_claim_proves_its_tiles_and_a_won_one_is_shown() -> None:
    g = _lost_run_claim()
    # seat 2's pair went into its exposed triple; seat 1 still holds the run's two tiles
    assert montana_reading.held_requirements(g.view(0)) == {1: [[Counter({T("6-1"): 1, T("6-2"): 1})]]}
    assert montana_reading.held_requirements(g.view(3)) == {1: [[Counter({T("6-1"): 1, T("6-2"): 1})]]}
    assert montana_reading.held_requirements(g.view(1)) == {}  # nothing to read about one's own hand


def test_a_pass_proves_a_pair_or_for_the_next_seat_a_run_until_a_tile_is_shown() -> None:
    seat1 = ["6-1", "6-2", *FILLER[:8]]
    seat2 = ["6-3", "6-3", *FILLER[:8]]
    g = game({1: seat1, 2: seat2}, ["6-3", "2-2"], dealer=0)
    play(g, "discard 6-3", "pass", "pass")
    found = montana_reading.held_requirements(g.view(0))
    pair = Counter({T("6-3"): 2})
    runs = [Counter([T(a), T(b)]) for a, b in (("6-1", "6-2"), ("6-2", "6-4"), ("6-4", "6-5"))]
    assert found[2] == [[pair]]  # not the seat after the discarder: a pair
    assert found[1] == [[pair, *runs]]
    # seat 1 shows the 6-2 it was proved to hold: only the options without it stand
    play(g, "discard 6-2")
    found = montana_reading.held_requirements(g.view(0))[1]
    assert found == [[pair, Counter({T("6-1"): 1}), Counter({T("6-4"): 1}), runs[2]]]


def test_options_the_unseen_tiles_cannot_make_are_dropped() -> None:
    """A pass on a tile that completed the hand (going out is never forced) proves no pair.

    Seat 0 sees three of the four 6-3s, so to seat 0 the pair is impossible and nothing is
    read; seat 3 sees one, and reads the pair the rules allow (the one case the reading
    leaves out: a player who could go out passing).
    """
    seat0 = ["6-3", "6-3", "6-3", *FILLER[:7]]
    seat2 = ["1-1", "1-1", "1-1", "0-0", "0-0", "0-0", "3-3", "3-3", "3-3", "6-3"]
    g = game({0: seat0, 2: seat2}, ["2-0"], dealer=0)
    play(g, "discard 6-3")
    assert g.current_player == 2 and [str(a) for a in g.legal_actions()] == ["claim out", "pass"]
    play(g, "pass")
    assert montana_reading.held_requirements(g.view(0)) == {}
    assert montana_reading.held_requirements(g.view(3)) == {2: [[Counter({T("6-3"): 2})]]}


def _meld(kind: str, *tiles: str) -> dict[str, Any]:
    return {"kind": kind, "tiles": list(tiles), "concealed": False, "points": 0}


def test_a_scripted_hand_read_from_its_events() -> None:
    """Only this hand is read; what a seat shows is taken off; a ready seat is not read.

    Hand 1 (ended) had seat 3 pass on 4-4: not read. Hand 2: seat 1 loses a run claim on
    6-3 to seat 2's triple (seat 2 lays its pair), then throws both tiles of the run;
    seat 3 (next after seat 2) and seat 1 pass on seat 2's 5-4; seat 3 lays a concealed
    quad of 5-5 (one run option loses its 5-5); seat 2 declares ready, then passes.
    """
    events = valid(
        "montana",
        {"kind": "deal", "hand": 1, "dealer": 3},
        {"kind": "discard", "seat": 0, "tile": "4-4", "ready": False},
        {"kind": "answer", "seat": 3, "tile": "4-4"},
        {"kind": "answers", "tile": "4-4", "discarder": 0, "answers": [{"seat": 3, "claim": "pass"}], "winner": None},
        {"kind": "hand_end", "hand": 1, "dealer": 3, "winner": None, "how": None, "tile": None, "discarder": None,
         "sets": [], "breakdown": [], "value": 0, "stakes": [0, 0, 0, 0], "exposed": [[], [], [], []],
         "discards": [[0, "4-4"]], "points": [0, 0, 0, 0], "totals": [0, 0, 0, 0]},
        {"kind": "deal", "hand": 2, "dealer": 3},
        {"kind": "discard", "seat": 0, "tile": "6-3", "ready": False},
        {"kind": "answers", "tile": "6-3", "discarder": 0, "winner": 2, "answers": [
            {"seat": 1, "claim": "run", "tiles": ["6-2", "6-1"]}, {"seat": 2, "claim": "triple"}]},
        {"kind": "claimed", "seat": 2, "tile": "6-3", "discarder": 0, "set": "triple", "tiles": ["6-3"] * 3},
        {"kind": "discard", "seat": 2, "tile": "5-4", "ready": False},
        {"kind": "answers", "tile": "5-4", "discarder": 2, "winner": None, "answers": [
            {"seat": 3, "claim": "pass"}, {"seat": 1, "claim": "pass"}]},
        {"kind": "quad", "seat": 3, "tile": "5-5"},
        {"kind": "replacement", "seat": 3},
        {"kind": "discard", "seat": 3, "tile": "2-2", "ready": False},
        {"kind": "discard", "seat": 1, "tile": "6-1", "ready": False},
        {"kind": "discard", "seat": 1, "tile": "6-2", "ready": False},
        {"kind": "discard", "seat": 2, "tile": "3-3", "ready": True},
        {"kind": "discard", "seat": 0, "tile": "1-1", "ready": False},
        {"kind": "answers", "tile": "1-1", "discarder": 0, "winner": None, "answers": [{"seat": 2, "claim": "pass"}]},
    )
    view = {
        "players": 4, "seat": 0, "ready": [False, False, True, False], "events": events,
        "hand": ["6-6", "6-0", "4-3", "4-1", "4-0", "3-2", "3-0", "2-1", "1-0", "0-0"],
        "exposed": [[], [], [_meld("triple", "6-3", "6-3", "6-3")], [_meld("quad", *["5-5"] * 4)]],
        "discards": [[2, "5-4"], [3, "2-2"], [1, "6-1"], [1, "6-2"], [2, "3-3"], [0, "1-1"]],
    }
    pair = Counter({T("5-4"): 2})
    runs = [Counter({T("5-2"): 1, T("5-3"): 1}), Counter({T("5-3"): 1})]
    assert montana_reading.held_requirements(view) == {1: [[pair]], 3: [[pair, *runs]]}
    # the same seat's own reading, and a spectator's (every unseen tile possible)
    assert 3 not in montana_reading.held_requirements({**view, "seat": 3})
    assert montana_reading.held_requirements({**view, "seat": None}) == {1: [[pair]], 3: [[pair, *runs]]}
    # the previous hand alone (a view that still ends there): seat 3's pass on 4-4
    ended = {**view, "events": events[:5], "exposed": [[], [], [], []], "discards": [[0, "4-4"]]}
    assert montana_reading.held_requirements(ended) == {3: [[Counter({T("4-4"): 2})]]}
    assert [e["kind"] for e in montana_reading.hand_events(view)][:2] == ["discard", "answers"]


def _accounted(world: Any, view: dict[str, Any]) -> Counter[Tile]:
    tiles: Counter[Tile] = Counter()
    for h in world.hands:
        tiles.update(h)
    tiles.update(world.dead)
    tiles.update(world.wood[world.wood_at:])
    tiles.update(T(t) for _, t in view["discards"])
    tiles.update(T(t) for sets in view["exposed"] for m in sets for t in m["tiles"])
    return tiles


def test_explained_worlds_hold_what_was_proved_and_keep_every_tile() -> None:
    g = _lost_run_claim()
    view = g.view(3)
    need = montana_reading.held_requirements(view)
    rng = random.Random(5)
    uniform = [boneyard.sample_game(view, rng) for _ in range(30)]
    assert not all(_holds(w.hands[1], need[1]) for w in uniform)  # the sampler alone does not read it
    sampler = Inference(view, 0, explain=True)
    for _ in range(30):
        world = sampler.draw(rng)
        assert _holds(world.hands[1], need[1])
        assert world.hands[3] == g.hands[3]  # the seat's own hand is never touched
        assert [len(h) for h in world.hands] == [len(h) for h in g.hands]
        assert _accounted(world, view) == Counter(double_six(4))
        assert all(world.codes[s] == gm.hands.encode(world.hands[s]) for s in range(4))
    assert sampler.explained == 30
    assert Inference(view, 0).explain is None  # off unless asked: no gain was measured (docs/bots.md)
    assert Inference(view, 0, explain=False).explain is None


def test_the_search_reads_the_windows_only_when_asked(monkeypatch: Any) -> None:
    g = _lost_run_claim()
    seat = g.current_player
    calls = []

    def counted(view: dict[str, Any], world: Any, rng: random.Random) -> Any:
        calls.append(1)
        return world

    use_profile(monkeypatch, montana_profile, explain=counted)
    legal = g.legal_actions()
    IsmctsBot(iterations=40).choose(g.view(seat), legal, random.Random(1))
    assert not calls
    IsmctsBot(iterations=40, explain=1).choose(g.view(seat), legal, random.Random(1))
    assert calls


def test_real_hands_always_hold_what_was_proved() -> None:
    """Over seeded greedy games, every requirement read from a view holds in the real hands."""
    checked = 0
    for seed in range(4):
        g = boneyard.new_game("montana", players=4, seed=700 + seed, rules={"max_hands": 2})
        rng = random.Random(seed)
        greedy = GreedyBot()
        for step in range(900):
            if g.is_over:
                break
            seat = g.current_player
            view = g.view(seat)
            if step % 5 == 0:
                for other, reqs in montana_reading.held_requirements(view).items():
                    assert _holds(g.hands[other], reqs), (other, reqs, g.hands[other])
                    checked += len(reqs)
                    if step % 25 == 0:
                        world = Inference(view, 0, explain=True).draw(rng)
                        assert _accounted(world, view) == Counter(double_six(4))
                        assert world.hands[seat] == g.hands[seat]
            g.apply(greedy.choose(view, g.legal_actions(), rng))
    assert checked > 20


def test_the_benchmark_finds_requirements_the_real_hands_keep(benchmark_module: Any) -> None:
    """A short run of benchmarks/montana_windows.py: requirements found, none broken, rows compared."""
    bench = benchmark_module("montana_windows")
    found = bench.measure(3, 2, 4)
    assert found["with_need"] > 0 and found["kept"] > 0 and found["broken"] == 0
    assert found["danger"] and found["copies"] and found["draws"] == 2 * found["with_need"]
