"""The C observation writer (``boneyard/rl/_observe.c``) against the Python writers, which define the vectors.

``Encoding.observe`` / ``observe_list`` hand a plain dict view of a seat to the C writer and
fall back to ``observe_python`` / ``observe_list_python`` for anything else, or when the C
writer leaves a history line to Python. The C writer reads every view key and parses the
history lines itself, so it can drift from the definition without any other test noticing
(the vectors stay plausible). Here both are compared byte for byte:

- over thousands of seeded random positions of every game, player count and view-changing
  rules option, for every seat (and the masks of ``_observe.mask``);
- over crafted and generated history lines (odd spacing, odd verbs, odd actors, tiles glued
  to words, non-ASCII text, tiles outside the set);
- over malformed views, which must raise in C wherever the Python writers raise (never
  crash, never return a vector the definition does not give).

Skipped where the C module is not built, unless ``BONEYARD_REQUIRE_COMPILED`` is set (as
``make test`` and CI set it): then a missing C writer fails.
"""

from __future__ import annotations

import copy
import os
import random
import re
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boneyard
from boneyard.rl.encoding import C_WRITER, HISTORY_WINDOW, Encoding, encoding

if not C_WRITER:
    if os.environ.get("BONEYARD_REQUIRE_COMPILED", "") not in ("", "0"):
        pytest.fail(
            "BONEYARD_REQUIRE_COMPILED is set but boneyard/rl/_observe.c was not compiled "
            "(boneyard.rl.encoding.C_WRITER is False): rebuild with a C compiler",
            pytrace=False,
        )
    pytest.skip("boneyard/rl/_observe.c is not compiled here: only the Python writers run", allow_module_level=True)

from boneyard.rl import _observe

GAMES = boneyard.games()
ERRORS = (KeyError, TypeError, ValueError, IndexError)

# Rules options that change what the views show (or how far the games go): the first of
# each game's list is played at every player count, the others too.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "montana": [
        {},
        {"mode": "shootout", "max_hands": 1},
        {"one_pair": True, "max_hands": 1},
        {"mode": "shootout", "one_pair": True},
    ],
    "twobox": [{}, {"cutthroat": True, "target": 40}, {"cutthroat": True, "round_to_five": True}],
    "rummikub": [{}, {"distinct_sums": True, "target": 20}],
    "eighty": [
        {},
        {"nello": True},
        {"doubles_suit": True, "target": 40},
        {"marks": True, "nello": True, "doubles_suit": True, "marks_target": 2},
    ],
    "rounce": [{}, {"max_hands": 1}],
}
MOVES_PER_CASE = 500


def player_counts(game_id: str) -> list[int]:
    p = boneyard.game_info(game_id)["players"]
    return list(range(p["min"], p["max"] + 1))


CASES = [(g, n, i) for g in GAMES for n in player_counts(g) for i in range(len(VARIANTS[g]))]


def run(fn: Callable[[Any], Any], view: Any) -> tuple[str, Any]:
    """("ok", the observation as bytes or list) or ("error", the exception's type)."""
    try:
        out = fn(view)
    except Exception as e:
        return "error", type(e)
    return "ok", out.tobytes() if isinstance(out, np.ndarray) else out


def assert_c_matches(enc: Encoding, view: dict[str, Any]) -> None:
    """The C writer runs on the view and gives exactly the Python writers' vector and list."""
    want = enc.observe_python(view).tobytes()
    want_list = enc.observe_list_python(view)
    raw = _observe.observe(enc._cspec, view, False)
    assert isinstance(raw, bytearray), "the C writer left a plain view to Python"
    assert bytes(raw) == want
    got = enc.observe(view)
    assert got.dtype == np.float32 and got.shape == (enc.obs_size,)
    assert got.tobytes() == want
    got_list = enc.observe_list(view)
    assert type(got_list) is list and len(got_list) == enc.obs_size
    assert got_list == want_list
    assert all(type(x) is float for x in got_list)


def plain_mask(enc: Encoding, legal: Mapping[int, Any]) -> np.ndarray:
    m = np.zeros(enc.num_actions, np.int8)
    for i in legal:
        m[i] = 1
    return m


def positions(game_id: str, players: int, rules: dict[str, Any], moves: int) -> Iterator[Any]:
    """Seeded random games, played to their end until ``moves`` moves are made (at most 3 x ``moves``).

    Yields the game at each position, its end too (the game object is reused: read it at once).
    """
    seed = done = 0
    while done < moves:
        g = boneyard.new_game(game_id, players=players, seed=seed, rules=rules)
        rng = random.Random(seed)
        seed += 1
        while True:
            yield g
            if g.is_over or done >= 3 * moves:
                break
            g.apply(rng.choice(g.legal_actions()))
            done += 1


# ----- 1. random positions of every game, player count and rules option ----------------------


@pytest.mark.parametrize(("game_id", "players", "variant"), CASES)
def test_c_writer_matches_python_on_random_positions(game_id: str, players: int, variant: int) -> None:
    rules = VARIANTS[game_id][variant]
    enc = encoding(game_id, players, rules)
    assert enc._cspec is not None, f"{game_id} has no C writer"
    phases: set[str] = set()
    checked = 0
    for g in positions(game_id, players, rules, MOVES_PER_CASE):
        for seat in range(players):
            view = g.view(seat)
            assert type(view) is dict
            assert_c_matches(enc, view)
            phases.add(view["phase"])
            checked += 1
        if not g.is_over:
            cur = g.current_player
            legal = enc.legal_map(g.view(cur), g.legal_actions())
            mask = enc.mask(legal)
            assert mask.dtype == np.int8 and mask.tobytes() == plain_mask(enc, legal).tobytes()
    assert checked >= MOVES_PER_CASE * players
    # Every phase but at most one rare one (Rounce's "defend") was compared, the game's end too.
    assert "over" in phases and len(phases) >= len(enc.phases) - 1, sorted(phases)


def test_views_that_vary_under_the_rules_options_are_compared() -> None:
    # The options really show in the compared views: nel-o bids, steals, shootout, one_pair.
    seen: set[str] = set()
    for game_id, rules in (
        ("eighty", {"nello": True}),
        ("twobox", {"cutthroat": True, "target": 40}),
        ("montana", {"mode": "shootout", "one_pair": True, "max_hands": 1}),
    ):
        enc = encoding(game_id, None, rules)
        for g in positions(game_id, enc.players, rules, 400):
            for seat in range(enc.players):
                view = g.view(seat)
                assert_c_matches(enc, view)
                if view.get("high_bid") == "nel-o" or "nel-o" in view.get("bids", ()):
                    seen.add("nel-o")
                if view.get("steal") is not None:
                    seen.add("steal")
                if view.get("mode") == "shootout" and view["rules"]["one_pair"]:
                    seen.add("shootout")
                if view.get("claim") is not None:
                    seen.add("claim")
    assert seen == {"nel-o", "steal", "shootout", "claim"}


# ----- 2. history lines ---------------------------------------------------------------------

# Lines the history reader must read as Encoding._parse_line does (or leave to Python).
LINES = [
    "seat 1 plays 6-4",
    "seat 1 plays  6-4",
    "seat  1 plays 6-4",
    "seat 1  plays 6-4",
    "seat 1 plays, 6-4",
    "seat 1 plays,6-4",
    "seat 1 plays;  6-4",
    "seat 1 play2 6-4",
    "seat 1 play_s 6-4",
    "seat 1 _ 6-4",
    "seat 1 2 6-4",
    "seat 1 2-2 6-4",
    "seat 1 frobs 6-4",
    "seat 1 Plays 6-4",
    "seat 1 PLAYS 6-4",
    "seat 0 holds 0-0",
    "seat 2 wins the trick with 5-5",
    "seat 3 plays 6-4",
    "seat 4 plays 6-4",
    "seat 5 plays 6-4",
    "seat 6 plays 6-4",
    "seat 9 plays 6-4",
    "seat 01 plays 6-4",
    "seat 000002 plays 3-3",
    "seat 999999 plays 6-4",
    "seat 0000002 plays 3-3",
    "seat 1234567 plays 6-4",
    "seat 1234567",
    "seat 12345678x",
    "seat 1 plays 6-4 café",
    "seät 1 plays 6-4",
    "seat 1 pläys 6-4",
    "seat \u0661 plays 6-4",
    "seat 1 plays \u0666-4",
    "Seat 1 plays 6-4",
    "player 1 plays 6-4",
    " seat 1 plays 6-4",
    "seat1 plays 6-4",
    "seat\t1 plays 6-4",
    "seat 1x plays 6-4",
    "seat",
    "seat ",
    "seat 1",
    "seat 1 ",
    "seat 1 plays",
    "seat 1 plays ",
    "",
    " ",
    "seat 1 plays x6-4",
    "seat 1 plays 6-4x",
    "seat 1 plays x6-4 2-1",
    "seat 1 plays 6-4x 2-1",
    "seat 1 plays _6-4 2-1",
    "seat 1 plays 6-4_ 2-1",
    "seat 1 plays x 6-4",
    "seat 1 plays 4-6",
    "seat 1 plays 6-4 3-3",
    "seat 1 plays 6-4-3",
    "seat 1 plays 16-4 2-2",
    "seat 1 plays 6-41 2-2",
    "seat 1 plays -6-4-",
    "seat 1 plays6-4",
    "seat 1 plays-6-4",
    "seat 1 plays_6-4 1-1",
    "seat 1 plays\t6-4",
    "seat 1 plays 6-4\n",
    "seat 1 plays 6-4.",
    "seat 1 plays (6-4)",
    "seat 1 plays 6 - 4",
    "seat 1 plays 6--4 1-0",
    "seat 1 plays 66 6-6",
    "seat 1 plays 9-9x 6-4",
    "seat 1 plays 6-4 7-8",
    "seat 1 plays 7-8",
    "seat 1 plays 6-9",
    "seat 1 plays 8-1 6-4",
    "seat 1 plays,7-8",
    "seat 1 plays7-8 1-1",
    "seat 11 plays 9-0",
    "the hand ends 7-8",
    "seat x plays 7-8",
    "seat 1234567 plays 7-8",
]


def left_to_python(enc: Encoding, line: object) -> bool:
    """Whether the C reader leaves the line to Python: not ASCII, an actor of 7+ digits, a first tile off the set."""
    if not isinstance(line, str) or not line.isascii() or re.match(r"seat \d{7}", line):
        return True
    try:
        enc._parse_line(line)
    except KeyError:
        return True
    return False


def assert_same_outcome(enc: Encoding, view: dict[str, Any]) -> None:
    """Both paths give the same vector and list, or raise the same exception type."""
    assert run(enc.observe, view) == run(enc.observe_python, view)
    assert run(enc.observe_list, view) == run(enc.observe_list_python, view)


def assert_history_read_alike(enc: Encoding, view: dict[str, Any]) -> None:
    """C and Python agree on a view's history; C leaves it to Python exactly where it should."""
    assert_same_outcome(enc, view)
    window = view["history"][-HISTORY_WINDOW:]
    left = any(left_to_python(enc, line) for line in window)
    assert (_observe.observe(enc._cspec, view, False) is None) == left, window
    assert (_observe.observe(enc._cspec, view, True) is None) == left, window
    if not left:
        assert_c_matches(enc, view)


_BASE_VIEWS: dict[tuple[str, int], list[dict[str, Any]]] = {}


def base_views(game_id: str, players: int) -> list[dict[str, Any]]:
    """Each seat's view of a position some moves into a seeded game (cached; copy before changing)."""
    key = (game_id, players)
    if key not in _BASE_VIEWS:
        g = boneyard.new_game(game_id, players=players, seed=11)
        rng = random.Random(11)
        for _ in range(20):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        _BASE_VIEWS[key] = [g.view(s) for s in range(players)]
    return _BASE_VIEWS[key]


def with_history(view: dict[str, Any], history: Sequence[Any]) -> dict[str, Any]:
    out = dict(view)
    out["history"] = history
    return out


HISTORY_CASES = [(g, n) for g in GAMES for n in sorted({player_counts(g)[0], player_counts(g)[-1]})]


@pytest.mark.parametrize(("game_id", "players"), HISTORY_CASES)
def test_crafted_history_lines_are_read_as_python_reads_them(game_id: str, players: int) -> None:
    enc = encoding(game_id, players)
    bad = [line for line in LINES if left_to_python(enc, line)]
    assert 10 <= len(bad) < len(LINES) - 40  # both kinds are exercised
    for view in base_views(game_id, players):
        real = list(view["history"])
        assert real, "the base position has history lines"
        for line in LINES:
            assert_history_read_alike(enc, with_history(view, [line]))
            assert_history_read_alike(enc, with_history(view, [*real[-3:], line]))
            assert_history_read_alike(enc, with_history(view, [line, *real[-9:]]))  # out of the window
        for k in (0, 1, 5, 7, 8, 9, 20):
            assert_history_read_alike(enc, with_history(view, real[-k:] if k else []))
        good = [line for line in LINES if line not in bad]
        for start in range(0, len(good), 3):  # windows of crafted lines, sliding
            assert_history_read_alike(enc, with_history(view, good[: start + 1]))
        assert_history_read_alike(enc, with_history(view, tuple(good)))
        assert_history_read_alike(enc, with_history(view, [*good, "seat 1 plays 7-8", *good[:7]]))
        assert_history_read_alike(enc, with_history(view, [*good[:7], "seat 1 plays 7-8"]))


def test_a_line_with_a_tile_off_the_set_raises_keyerror_on_both_paths() -> None:
    enc = encoding("rounce")
    view = with_history(base_views("rounce", 4)[1], ["seat 1 plays 7-8"])
    assert _observe.observe(enc._cspec, view, False) is None
    for fn in (enc.observe, enc.observe_python, enc.observe_list, enc.observe_list_python):
        with pytest.raises(KeyError):
            fn(view)


def test_non_string_history_lines_fall_back_to_python_alike() -> None:
    enc = encoding("eighty")
    view = base_views("eighty", 4)[0]
    for line in (5, None, b"seat 1 plays 6-4"):
        assert_history_read_alike(enc, with_history(view, ["seat 1 plays 6-4", line]))


_PIECES = [
    "seat ", "seat ", "seat", " ", " ", "  ", "0", "1", "2", "3", "5", "6", "7", "9", "01", "1234567", "plays",
    "holds", "bids", "wins", "x", "X", "_", "-", ",", "é", "6-4", "4-6", "7-8", "3-3", "0-0", "\t",
]
_ALPHABET = "seat 0123456789abcxyz -,é_\t"
LINE = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=9).map("".join),
    st.text(_ALPHABET, max_size=24),
    st.builds(
        lambda a, b: f"seat {a}{b}", st.text("0123456789", min_size=1, max_size=8), st.text(_ALPHABET, max_size=16)
    ),
)
_HYPOTHESIS_ENCODINGS = {g: encoding(g, player_counts(g)[0]) for g in GAMES}


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(GAMES), history=st.lists(LINE, max_size=11), seat=st.integers(0, 1))
def test_generated_history_lines_are_read_as_python_reads_them(game_id: str, history: list[str], seat: int) -> None:
    enc = _HYPOTHESIS_ENCODINGS[game_id]
    view = base_views(game_id, enc.players)[seat]
    assert_history_read_alike(enc, with_history(view, history))


# ----- 3. malformed views --------------------------------------------------------------------

_TILE = re.compile(r"^\d-\d$")


def mutations(value: Any) -> list[Any]:
    """Wrong values to put where ``value`` stands in a view."""
    if isinstance(value, str) and _TILE.match(value):
        a, b = value.split("-")
        out: list[Any] = ["9-9", "66", "6-4 ", "7-0", 64, None]
        return [*out, f"{b}-{a}"] if a != b else out
    if isinstance(value, bool):
        return [None, "yes", []]
    if isinstance(value, int):
        return [None, float(value), str(value), -1, 99, 1.5, [value]]
    if isinstance(value, float):
        return [None, "x"]
    if value is None:
        return [0, 1.5, "x", [], {}]
    if isinstance(value, str):
        return [None, 1, [value]]
    if isinstance(value, list):
        out = [None, "6-4", "seat", {}, 7]
        if value:
            out += [value[:-1], [*value, value[-1]], [*value, value[0]], [None, *value[1:]], [*value[:-1], 1.5]]
            out += [[*value, v] for v in value if v and v not in (value[0], value[-1])][:1]  # one entry too many
        return out
    if isinstance(value, dict):
        return [None, [], "x", 3]
    return [None]


def paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside a view (keys and indices), outside its history."""
    if isinstance(value, dict):
        for k, v in value.items():
            if at == () and k in ("history", "seat"):
                continue
            yield (*at, k)
            yield from paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield (*at, i)
            yield from paths(v, (*at, i))


def put(view: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(view)
    where: Any = out
    for k in path[:-1]:
        where = where[k]
    where[path[-1]] = value
    return out


def drop(view: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
    out = copy.deepcopy(view)
    where: Any = out
    for k in path[:-1]:
        where = where[k]
    del where[path[-1]]
    return out


def rich_view(game_id: str) -> tuple[Encoding, dict[str, Any]]:
    """A view with most of its parts filled: a trick in play, a claim, a steal, a table..."""
    rules = {"twobox": {"cutthroat": True}, "eighty": {"nello": True}}.get(game_id, {})
    wanted: dict[str, Callable[[dict[str, Any]], bool]] = {
        "rounce": lambda v: len(v["trick"]) >= 2 and bool(v["tricks"]) and bool(v["discarded"]),
        "eighty": lambda v: len(v["trick"]) >= 2 and bool(v["tricks"]),
        "twobox": lambda v: v["steal"] is not None and sum(len(a["tiles"]) for a in v["arms"]) >= 4,
        "montana": lambda v: v["claim"] is not None and len(v["discards"]) >= 8 and any(v["exposed"]),
        "rummikub": lambda v: len(v["table"]) >= 2,
    }
    enc = encoding(game_id, None, rules)
    for g in positions(game_id, enc.players, rules, 3000):
        for seat in range(enc.players):
            v = g.view(seat)
            if v["phase"] != "over" and wanted[game_id](v):
                return enc, v
    raise AssertionError(f"no rich {game_id} position found")


def check_malformed(enc: Encoding, view: dict[str, Any], good: dict[str, Any], want_good: bytes) -> str:
    """Where Python raises, C raises one of ERRORS; where Python writes a vector, C writes it or raises.

    Returns how it went: "both raise", "same", or "c stricter": C refuses what the Python
    writers take by accident (a seat -1 read as the last seat, an empty dict iterated as an
    empty list, a None count skipped as falsy, a trump of 99 written into the next block).
    After a C error the same encoding still writes the right vector of a good view.
    """
    py = run(enc.observe_python, view)
    py_list = run(enc.observe_list_python, view)
    assert py[0] == py_list[0]
    raw = run(lambda v: _observe.observe(enc._cspec, v, False), view)
    raw_list = run(lambda v: _observe.observe(enc._cspec, v, True), view)
    got = run(enc.observe, view)
    got_list = run(enc.observe_list, view)
    if raw[0] == "error" or raw_list[0] == "error":
        assert raw[0] == raw_list[0] == got[0] == got_list[0] == "error"
        assert raw[1] in ERRORS and raw_list[1] in ERRORS, raw
        assert raw == got and raw_list == got_list
        assert enc.observe(good).tobytes() == want_good  # nothing left behind
        assert np.asarray(enc.observe_list(good), np.float32).tobytes() == want_good
        return "both raise" if py[0] == "error" else "c stricter"
    assert py[0] == "ok", (py, "C wrote a vector where the Python writers raise")
    assert raw[1] is not None and bytes(raw[1]) == py[1] and raw_list[1] == py_list[1]
    assert got == py and got_list == py_list
    return "same"


@pytest.mark.parametrize("game_id", GAMES)
def test_malformed_views_raise_in_c_wherever_python_raises(game_id: str) -> None:
    enc, view = rich_view(game_id)
    want = enc.observe_python(view).tobytes()
    assert_c_matches(enc, view)
    tally = {"both raise": 0, "same": 0, "c stricter": 0}
    for path in paths(view):
        for bad in mutations(_at(view, path)):
            tally[check_malformed(enc, put(view, path, bad), view, want)] += 1
        if isinstance(path[-1], str):
            tally[check_malformed(enc, drop(view, path), view, want)] += 1
    assert tally["both raise"] > 50 and tally["same"] > 20, tally


def _at(view: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        view = view[k]
    return view


def first_path(view: Any, test: Callable[[tuple[Any, ...], Any], bool]) -> tuple[Any, ...]:
    for path in paths(view):
        if test(path, _at(view, path)):
            return path
    raise AssertionError("no such value in the view")


def _is_seat_in_play(game_id: str) -> Callable[[tuple[Any, ...], Any], bool]:
    """Where a seat number stands inside the game's plays: a trick's play, a steal, the dealer."""
    return {
        "rounce": lambda p, v: p[0] == "trick" and p[-1] == "seat",
        "eighty": lambda p, v: p[0] == "trick" and p[-1] == "seat",
        "twobox": lambda p, v: p == ("steal", "seat"),
        "rummikub": lambda p, v: p == ("dealer",),
    }[game_id]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_named_malformed_views_raise_on_both_paths(game_id: str) -> None:
    enc, view = rich_view(game_id)
    want = enc.observe_python(view).tobytes()
    tile = first_path(view, lambda p, v: p[0] == "hand" and isinstance(v, str))
    seat = ("discards", -1, 0) if game_id == "montana" else first_path(view, _is_seat_in_play(game_id))
    broken = [
        drop(view, ("hand",)),
        drop(view, ("phase",)),
        drop(view, ("scores",)),
        drop(view, (next(k for k in ("dealer", "shuffler", "spinner") if k in view),)),
        put(view, ("scores",), [*view["scores"], 0]),
        put(view, tile, "9-9"),
        put(view, tile, "66"),
        put(view, ("hand",), "6-4"),
        put(view, ("hand_sizes",), "7"),
        put(view, ("scores",), None),
        put(view, seat, None),
        put(view, seat, float(_at(view, seat))),
    ]
    for bad in broken:
        for fn in (enc.observe_python, enc.observe_list_python):
            with pytest.raises(ERRORS):
                fn(bad)
        for as_list in (False, True):
            with pytest.raises(ERRORS):
                _observe.observe(enc._cspec, bad, as_list)
        with pytest.raises(ERRORS):
            enc.observe(bad)
        with pytest.raises(ERRORS):
            enc.observe_list(bad)
        assert enc.observe(view).tobytes() == want
        assert np.asarray(enc.observe_list(view), np.float32).tobytes() == want
    # The view's own seat not an int seat: the C writer is not asked, Python answers (raises, but for -1).
    for bad_seat in (1.0, -1, enc.players, "1", True):
        bad = put(view, ("seat",), bad_seat)
        assert run(enc.observe, bad) == run(enc.observe_python, bad)
        assert run(enc.observe_list, bad) == run(enc.observe_list_python, bad)
        assert bad_seat in (-1, True) or run(enc.observe, bad)[0] == "error"


# ----- 4. masks, spectators, other mappings ----------------------------------------------------


def test_mask_sets_each_key_and_refuses_bad_indices() -> None:
    assert bytes(_observe.mask(10, {})) == bytes(10)
    assert bytes(_observe.mask(10, {0: "a", 3: None, 9: 1})) == bytes([1, 0, 0, 1, 0, 0, 0, 0, 0, 1])
    assert bytes(_observe.mask(3, {True: 1})) == bytes([0, 1, 0])  # bool is an int, as bytearray takes it
    assert bytes(_observe.mask(4, {np.int64(2): 1})) == bytes([0, 0, 1, 0])  # so is a NumPy integer
    for bad in ({10: 1}, {-1: 1}, {0: 1, 11: 1}, {2**40: 1}):
        with pytest.raises(ValueError):
            _observe.mask(10, bad)
    bad_keys: list[dict[Any, Any]] = [{"1": 1}, {1.0: 1}, {None: 1}, {(1,): 1}]
    for bad_key in bad_keys:
        with pytest.raises(TypeError):
            _observe.mask(10, bad_key)
    with pytest.raises(TypeError):
        _observe.mask(10, [1, 2])  # type: ignore[arg-type]
    rng = random.Random(4)
    for enc in (encoding(g) for g in GAMES):
        for _ in range(30):
            legal = {i: None for i in rng.sample(range(enc.num_actions), rng.randrange(1, 20))}
            m = enc.mask(legal)
            assert m.dtype == np.int8 and m.tobytes() == plain_mask(enc, legal).tobytes()
            # A mapping that is not a dict goes the Python way: the same mask.
            assert enc.mask(types.MappingProxyType(legal)).tobytes() == m.tobytes()
        with pytest.raises(ValueError):
            enc.mask({enc.num_actions: None})


@pytest.mark.parametrize("game_id", GAMES)
def test_spectator_and_non_dict_views_take_the_python_way(game_id: str) -> None:
    enc = encoding(game_id)
    g = next(p for i, p in enumerate(positions(game_id, enc.players, {}, 15)) if i == 15)
    spectator = g.view(None)
    assert spectator["seat"] is None
    for fn in (enc.observe, enc.observe_python, enc.observe_list, enc.observe_list_python):
        with pytest.raises(ValueError, match="spectator"):
            fn(spectator)
    with pytest.raises(ValueError, match="spectator"):
        _observe.observe(enc._cspec, spectator, False)
    for seat in range(enc.players):
        view = g.view(seat)
        want = enc.observe_python(view).tobytes()
        proxy = types.MappingProxyType(view)
        assert enc.observe(proxy).tobytes() == want
        assert enc.observe_list(proxy) == enc.observe_list_python(view)
        assert enc.observe(dict(view)).tobytes() == want
        with pytest.raises(TypeError):
            _observe.observe(enc._cspec, proxy, False)  # type: ignore[arg-type]
        broken = types.MappingProxyType({k: v for k, v in view.items() if k != "hand"})
        assert run(enc.observe, broken) == run(enc.observe_python, broken) == ("error", KeyError)


_PER_SEAT = {
    "rounce": ("scores", "calls", "hand_sizes", "tricks_won"),
    "eighty": ("scores", "bids", "hand_sizes", "tricks_won"),
    "twobox": ("scores", "hand_sizes", "drawn", "passed_on"),
    "montana": ("scores", "exposed"),
    "rummikub": ("scores",),
}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_per_seat_list_with_an_entry_too_many_raises_indexerror_in_c_too(game_id: str) -> None:
    # The C writer once read only the first `players` entries and wrote a vector where the
    # Python writers' rel[seat] raises IndexError.
    enc, view = rich_view(game_id)
    want = enc.observe_python(view).tobytes()
    for key in _PER_SEAT[game_id]:
        entries = view[key]
        extra = next((e for e in entries if e), entries[0])  # tricks_won and exposed skip a falsy entry
        bad = put(view, (key,), [*entries, extra])
        for fn in (enc.observe_python, enc.observe_list_python, enc.observe, enc.observe_list):
            with pytest.raises(IndexError):
                fn(bad)
        assert enc.observe(view).tobytes() == want
