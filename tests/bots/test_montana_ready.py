"""benchmarks/montana_ready.py: what play tells about a Montana ready seat's waits."""

from __future__ import annotations

from collections import Counter
from typing import Any

from boneyard.tiles import Tile

from .scripted import valid

T = Tile.parse
# A drawn first hand's end, as the view of the second hand still shows it.
HAND_END: dict[str, Any] = {
    "hand": 1, "dealer": 0, "winner": None, "how": None, "tile": None, "discarder": None, "sets": [],
    "breakdown": [], "value": 0, "stakes": [0, 0, 0, 0], "exposed": [[], [], [], []], "discards": [[1, "6-4"]],
    "points": [0, 0, 0, 0], "totals": [0, 0, 0, 0],
}


def test_own_discards_are_the_tiles_a_seat_chose_to_throw_this_hand(benchmark_module: Any) -> None:
    """Discards of earlier hands and the pulls a ready hand throws are not the seat's choices."""
    bench = benchmark_module("montana_ready")
    events = valid(
        "montana",
        {"kind": "deal", "hand": 1, "dealer": 0},
        {"kind": "discard", "seat": 1, "tile": "6-4", "ready": False},
        {"kind": "hand_end", **HAND_END},
        {"kind": "deal", "hand": 2, "dealer": 1},
        {"kind": "discard", "seat": 1, "tile": "5-5", "ready": False},
        {"kind": "discard", "seat": 2, "tile": "3-1", "ready": True},
        {"kind": "ready_discard", "seat": 2, "tile": "4-4"},
        {"kind": "discard", "seat": 3, "tile": "2-0", "ready": False},
    )
    view = {"events": events}
    assert bench.own_discards(view) == {1: {T("5-5")}, 2: {T("3-1")}, 3: {T("2-0")}}


def test_a_waits_traits(benchmark_module: Any) -> None:
    """Near an own discard means the same suit within two pips, never the tile itself."""
    bench = benchmark_module("montana_ready")
    public = Counter({"4-2": 2, "3-0": 5})
    assert bench.trait(T("4-2"), {T("4-4")}, public) == (True, 2, False)
    assert bench.trait(T("4-1"), {T("4-4")}, public) == (False, 0, False)
    assert bench.trait(T("3-0"), {T("3-0")}, public) == (False, 3, True)


def test_judging_the_worlds_on_a_worked_example(benchmark_module: Any) -> None:
    """p(wait), top and the worlds left, by hand, for dealt hands, kept ones and a model's weights."""
    bench = benchmark_module("montana_ready")
    a, b, c = T("3-1"), T("5-2"), T("2-2")
    traits = {a: (False, 0, True), b: (False, 0, False), c: (True, 0, True)}
    seen = bench.Seen(real=[a], dealt=[[a], [b], [b, c]], traits=traits, own={T("2-1"), c})
    dealt = bench.judge([seen], "dealt")
    assert dealt["p_wait"] == 1 / 3 and dealt["top"] == 0 and dealt["worlds"] == 3
    kept = bench.judge([seen], "kept")  # the hand waiting on 2-2, a tile the seat threw, is dropped
    assert kept["p_wait"] == 0.5 and kept["worlds"] == 2
    model = ({1: 1.0}, {(False, 0, True): 3.0, (False, 0, False): 1.0})
    weighted = bench.judge([seen], "kept", model)
    assert weighted["p_wait"] == 0.75 and weighted["top"] == 1 and weighted["worlds"] == 16 / 10


def test_a_short_run_finds_real_ready_hands_and_fits_the_model(benchmark_module: Any) -> None:
    """Every real ready hand waits; the fitted model favours what real play does more than the sampler."""
    bench = benchmark_module("montana_ready")
    rows, undeclared = bench.measure(12, 8, 3)
    assert len(rows) > 10
    assert 0 <= undeclared[0] <= undeclared[1] and undeclared[1] > 10
    assert all(seen.real for seen in rows)
    assert all(len(seen.dealt) == 8 and all(w for w in seen.dealt) for seen in rows)
    by_count, _ = bench.fit(rows)
    assert by_count[1] > 1 > by_count[2]
