"""The declared observation blocks: both interpreters give the old writers' values, and refuse the same views.

Each game's observation is its list of blocks, each with the generic operations of
``boneyard.rl.layout`` that write it. The Python interpreter (``layout.write``, through
``Encoding.observe_python``) and the C one (``_observe.run``, behind ``observe`` and
``observe_list`` where it was built) are checked here against ``fill_reference`` (the
Python ``fill`` writers the declarations replaced, kept unchanged) on every seat of
thousands of seeded positions of every game, player count and rules variant; against
each other on broken views (the same ``ValueError``, message included, never a crash);
and the declarations themselves are checked: an operation that could write outside its
block is refused when the encoding is made.

The C interpreter's parts are skipped where the C module is not built, unless
``BONEYARD_REQUIRE_COMPILED`` is set (as ``make test`` and CI set it): then they fail.
"""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np
import pytest

import boneyard
from boneyard.rl import layout
from boneyard.rl.encoding import C_OBSERVE, HISTORY_WINDOW, Encoding, Teller, encoding
from boneyard.rl.layout import Block, Each, Flag, Match, OneTile, Scale, Seat, Seats, Set, Tiles, ViewError, Weight

from .fill_reference import observe_list as reference

GAMES = boneyard.games()
REQUIRED = os.environ.get("BONEYARD_REQUIRE_COMPILED", "") not in ("", "0")


def needs_c() -> None:
    """Skip a C check where the module is not built (fail instead where it is required)."""
    if not C_OBSERVE:
        if REQUIRED:
            pytest.fail("BONEYARD_REQUIRE_COMPILED is set but boneyard/rl/_observe.c was not compiled", pytrace=False)
        pytest.skip("boneyard/rl/_observe.c is not compiled here: only the Python interpreter runs")


def counts(game_id: str) -> list[int]:
    """Every player count of a game."""
    p = boneyard.game_info(game_id)["players"]
    return list(range(p["min"], p["max"] + 1))


# Every game and player count, and the rules variants that change what the views hold.
CASES: list[tuple[str, int, dict[str, Any]]] = [(g, n, {}) for g in GAMES for n in counts(g)] + [
    ("montana", 4, {"mode": "shootout", "one_pair": True}),
    ("twobox", 4, {"cutthroat": True}),
    ("eighty", 4, {"nello": True, "doubles_suit": True}),
    ("eighty", 4, {"marks": True, "nello": True}),
    ("rummikub", 3, {"distinct_sums": True}),
    ("rounce", 3, {"max_hands": 3}),
]


def positions(game_id: str, players: int, rules: Mapping[str, Any], games: int, moves: int) -> Iterator[Any]:
    """Seeded random games: each position once (the caller asks for every seat's view)."""
    for seed in range(games):
        game = boneyard.new_game(game_id, players=players, seed=seed, rules=dict(rules))
        rng = random.Random(seed)
        for _ in range(moves):
            if game.is_over:
                break
            yield game
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


def outcome(f: Any, *args: Any) -> tuple[str, Any]:
    """What a call gives: ("ok", its value) or ("error", the exception's type and message)."""
    try:
        return "ok", f(*args)
    except ValueError as exc:
        return "error", (type(exc), str(exc))


# ----- both interpreters give the old writers' values ------------------------------------------


@pytest.mark.parametrize(("game_id", "players", "rules"), CASES,
                         ids=[f"{g}-{n}-{'+'.join(r) or 'default'}" for g, n, r in CASES])
def test_both_interpreters_write_the_old_observations(game_id: str, players: int, rules: dict[str, Any]) -> None:
    enc = encoding(game_id, players, rules)
    checked = 0
    for game in positions(game_id, players, rules, games=4, moves=150):
        for seat in range(players):
            view = game.view(seat)
            want = reference(enc, view)
            assert enc.observe_python(view) == want, (game_id, seat)
            assert enc.observe_list(view) == want
            assert enc.observe(view).tobytes() == np.asarray(want, np.float32).tobytes()
            checked += 1
    assert checked >= 250


# ----- broken views: the same ValueError from both -------------------------------------------------

JUNK: list[Any] = [None, "x", "9-9", 1.5, -1, 99, True, [], {}, [None], {"a": 1}, ["6-6", 3], [[1, "2-1"]], 2**70]


def mutations(view: dict[str, Any], rng: random.Random, count: int) -> Iterator[dict[str, Any]]:
    """Broken copies of a view: a key deleted, a value replaced by junk, anywhere in it."""
    for key in view:
        if key != "seat":
            broken = dict(view)
            del broken[key]
            yield broken
            for junk in JUNK:
                broken = dict(view)
                broken[key] = junk
                yield broken
    for _ in range(count):  # deeper: a random entry of a random nested list or dict
        broken = copy.deepcopy(view)
        node: Any = broken
        for _ in range(rng.randrange(1, 5)):
            keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
            keys = [k for k in keys if k != "events"] or keys
            if not keys:
                break
            k = rng.choice(keys)
            if rng.random() < 0.3 or not isinstance(node[k], dict | list) or not node[k]:
                if isinstance(node, dict) and rng.random() < 0.3:
                    del node[k]
                else:
                    node[k] = rng.choice(JUNK)
                break
            node = node[k]
        yield broken


@pytest.mark.parametrize("game_id", GAMES)
def test_broken_views_give_the_same_value_error_from_both(game_id: str) -> None:
    needs_c()
    enc = encoding(game_id)
    rng = random.Random(7)
    refused = accepted = 0
    for game in positions(game_id, enc.players, {}, games=2, moves=60):
        if rng.random() > 0.15:
            continue
        view = game.view(game.current_player if game.current_player is not None else 0)
        for broken in mutations(view, rng, 40):
            py = outcome(enc.observe_python, broken)
            c = outcome(enc.observe_list, broken)
            assert py == c, (game_id, py, c)
            packed = outcome(enc.observe, broken)
            if py[0] == "ok":
                accepted += 1
                assert packed[0] == "ok" and packed[1].tobytes() == np.asarray(py[1], np.float32).tobytes()
            else:
                refused += 1
                assert issubclass(py[1][0], ValueError) and packed[0] == "error" and packed[1] == py[1]
    assert refused > 50 and accepted > 5


@pytest.mark.parametrize("game_id", GAMES)
def test_broken_events_give_the_same_rows_or_error_from_both(game_id: str) -> None:
    # The window's rows: C reads the plain kinds itself and asks Python for the rest, and for
    # anything its table cannot read; both must agree on every row and every refusal.
    needs_c()
    enc = encoding(game_id)
    rng = random.Random(11)
    compared = 0
    for game in positions(game_id, enc.players, {}, games=3, moves=80):
        view = game.view(game.current_player if game.current_player is not None else 0)
        events = view["events"]
        if not events:
            continue
        for _ in range(6):
            j = rng.randrange(max(0, len(events) - 8), len(events))
            event = dict(events[j])
            field = rng.choice(sorted(event))
            if rng.random() < 0.3 and field != "kind":
                del event[field]
            else:
                event[field] = rng.choice([*JUNK, [{"seat": 1, "claim": "run"}, {"seat": 9}], [{"claim": None}]])
            broken = {**view, "events": [*events[:j], event, *events[j + 1:]]}
            fresh = encoding(game_id, enc.players)  # its own caches: nothing remembered from the real event
            assert outcome(fresh.observe_python, broken) == outcome(fresh.observe_list, broken), (game_id, event)
            compared += 1
    assert compared > 50


def test_a_claim_windows_row_names_the_claimants_in_c_and_python() -> None:
    enc = encoding("montana")
    base = boneyard.new_game("montana", seed=0).view(0)
    answers: list[Any] = [{"seat": 2, "claim": "run"}, {"seat": 3, "claim": "pass"}, {"seat": 1},
                          {"seat": 0, "claim": 7}]
    view = {**base, "events": [{"kind": "answers", "tile": "5-4", "discarder": 1, "answers": answers}]}
    got = enc.observe_python(view)
    row = enc.off["history"] + (HISTORY_WINDOW - 1) * enc._history_width
    assert [i for i in range(enc.players) if got[row + i]] == [0, 1, 2]  # seats 0, 1, 2 (relative to seat 0)
    assert enc.observe_list(view) == got


def test_the_errors_name_what_is_wrong() -> None:
    enc = encoding("rounce")
    game = boneyard.new_game("rounce", seed=1)
    view = game.view(0)
    writers = [enc.observe_python] + ([enc.observe_list, enc.observe] if C_OBSERVE else [])
    cases: list[tuple[dict[str, Any], str]] = [
        ({k: v for k, v in view.items() if k != "hand"}, r"^view\['hand'\] is missing$"),
        ({**view, "hand": "6-6"}, r"^view\['hand'\] must be a list, got str$"),
        ({**view, "hand": ["6-6", "7-7"]}, r"^view\['hand'\]\[i\] must be a tile of the 28 kinds, got '7-7'$"),
        ({**view, "trump": 7}, r"^view\['trump'\] must be an int from 0 to 6, got 7$"),
        ({**view, "dealer": 4}, r"^view\['dealer'\] must be a seat from 0 to 3, got 4$"),
        ({**view, "leader": "x"}, r"^view\['leader'\] must be a seat from 0 to 3 or None, got 'x'$"),
        ({**view, "dummies": "2"}, r"^view\['dummies'\] must be a number, got '2'$"),
        ({**view, "calls": ["pass", "x", None, None]}, r"^view\['calls'\]\[i\] must be one of None, 'pass', 'fold', "),
        ({**view, "hand_sizes": [1, 2, 3, 4, 5]}, r"^view\['hand_sizes'\] has 5 entries, for 4 seats$"),
        ({**view, "trick": [{"seat": 1, "suit": 2}]}, r"^view\['trick'\]\[i\]\['tile'\] is missing$"),
        ({**view, "tricks": [{"plays": [["6-6"]]}]},
         r"^view\['tricks'\]\[i\]\['plays'\]\[i\]\['tile'\] is missing: list has "),
        ({**view, "seat": None}, r"^observations are made for a seat, not for a spectator's view$"),
        ({**view, "seat": 4}, r"^a view's seat is one of 0 to 3, got 4$"),
        ({**view, "events": [*view["events"], {"kind": "play", "seat": 9, "tile": "6-6"}]},
         r"^view\['events'\] holds a play event whose seat is not one of 0 to 3: 9$"),
        ({**view, "events": [*view["events"], {"seat": 1}]}, r"^view\['events'\] holds an event that cannot be read"),
    ]
    for broken, message in cases:
        for write in writers:
            with pytest.raises(ValueError, match=message):
                write(broken)


# ----- the declarations ----------------------------------------------------------------------------


def test_an_operation_that_could_write_past_its_block_is_refused() -> None:
    refused: list[tuple[tuple[Any, ...], int]] = [
        ((Tiles(0, "hand", index={"6-6": 30}),), 28),  # a tile's place past the block
        ((Seat(2, "dealer"),), 4),  # four seats from entry 2 of a block of four
        ((Set(5),), 5),
        ((Each(0, "trick", 10, (Set(0),)),), 100),  # a moving loop with no bound
        ((Each(0, "trick", 10, (Set(0),), most=3),), 20),  # its third item writes entry 20
        ((Seats(0, "scores", 3, (Scale(2, (), 1.0),)),), 11),  # the fourth seat's entry 9 + 2 = 11
        ((Match("x", {None: (Set(9),)}),), 9),
        ((Set(-1),), 9),
        ((Each(0, "trick", 5, (Set(-1),), most=2),), 9),  # before its item's base
        ((Tiles(0, "hand", 0),), 28),  # no copies
        ((Tiles(0, "hand", 2, weight=Weight("x", {}, 1.0)),), 28),  # copies and a weight
        ((Scale(0, "x", 0),), 1),  # a scale of zero
    ]
    for ops, size in refused:
        with pytest.raises(ValueError):
            layout.check([Block("b", size, "", ops)], 4)
    layout.check([Block("b", 21, "", (Each(0, "trick", 10, (Set(0),), most=3),))], 4)  # entries 0, 10, 20
    layout.check([Block("b", 12, "", (Seats(0, "scores", 3, (Scale(2, (), 1.0),)),))], 4)


def test_every_encoding_declares_blocks_that_fit() -> None:
    for game_id, players, rules in CASES:
        enc = encoding(game_id, players, rules)
        layout.check(enc.blocks, players)  # (made at construction too)
        assert sum(b.size for b in enc.blocks) == enc.obs_size
        assert all(b.ops for b in enc.blocks), "every block is written by some operation"


def test_float32_entries_are_written_straight_only_where_sums_stay_exact() -> None:
    assert all(layout.exact_in_float32(encoding(g).blocks) for g in GAMES)
    assert not layout.exact_in_float32([Block("b", 28, "", (Tiles(0, "hand", 3),))])  # thirds: not exact
    assert not layout.exact_in_float32([Block("b", 28, "", (Tiles(0, "hand", 2), Tiles(0, "pulled")))])  # mixed
    assert layout.exact_in_float32([Block("b", 28, "", (Tiles(0, "hand", 4), OneTile(0, "x", 0.5, add=True)))])
    assert layout.exact_in_float32([Block("b", 28, "", (Tiles(0, "t", weight=Weight("s", {None: 0.5}, 1.0)),))])
    assert not layout.exact_in_float32([Block("b", 28, "", (Tiles(0, "t", weight=Weight("s", {None: 0.1}, 1.0)),))])


class Custom(Encoding):
    """A made-up game's encoding over Rounce's views: thirds, and a list long enough to pass 65,536 additions."""

    game_id = "rounce"
    phases = ("call", "discard", "defend", "play", "over")
    verbs = ("plays",)
    told: ClassVar[Mapping[str, Teller]] = {}  # no rows of its own: the window stays zero

    def action_count(self) -> int:
        return 1

    def index(self, action: Any, view: Mapping[str, Any]) -> int:
        return 0

    def action_name(self, index: Any) -> str:
        return "x"

    def game_blocks(self) -> list[Block]:
        return [
            Block("thirds", 28, "copies / 3", (Tiles(0, "hand", 3),)),
            Block("many", 28, "copies / 4 of a long list", (Tiles(0, "many", 4),)),
            Block("flags", 2, "rules", (Flag(0, ("rules", "max_hands")), Match("phase", {"play": (Set(1),)}))),
        ]


def test_sums_that_float32_cannot_keep_exact_are_summed_as_doubles() -> None:
    enc = Custom(4)
    assert not layout.exact_in_float32(enc.blocks)
    view = dict(boneyard.new_game("rounce", seed=2).view(1))
    view["hand"] = ["6-6"] * 5 + ["1-0"]
    view["many"] = ["2-1"] * 70_001 + ["6-6"]
    want = enc.observe_python(view)
    thirds = 0.0
    for _ in range(5):
        thirds += 1 / 3
    assert want[enc.off["thirds"] + 27] == thirds and want[enc.off["many"] + 4] == 70_001 / 4
    # Summed in float32 the thirds would round at each step, and come out otherwise:
    step = np.float32(0)
    for _ in range(5):
        step = np.float32(float(step) + 1 / 3)
    assert step != np.float32(thirds)
    assert enc.observe_list(view) == want
    assert enc.observe(view).tobytes() == np.asarray(want, np.float32).tobytes()


def test_the_straight_float32_path_goes_through_doubles_past_its_exact_range() -> None:
    needs_c()
    from boneyard.rl import _observe

    blocks = [Block("many", 28, "", (Tiles(0, "many", 256),))]  # steps of 1/256
    assert layout.exact_in_float32(blocks)
    view = {"seat": 0, "many": ["1-0"] * 70_000 + ["0-0"] * 3}
    prog = _observe.program(layout.flatten(blocks, [0]), 28, 2, "seat", 4, ViewError, True)
    got = np.frombuffer(_observe.run(prog, view, False, lambda e: ((), ())), np.float32)
    buf = [0.0] * 28
    layout.write(blocks, [0], buf, view, 0, 2, lambda events: [])
    assert got.tobytes() == np.asarray(buf, np.float32).tobytes()
    assert got[1] == np.float32(70_000 / 256) and got[0] == np.float32(3 / 256)


def test_a_weighted_tile_list_adds_each_items_step_by_its_field() -> None:
    blocks = [Block("b", 28, "", (Tiles(0, "t", key="tile", weight=Weight("by", {None: 0.5, "x": 0.25}, 1.0)),))]
    items = [{"tile": "1-0", "by": None}, {"tile": "1-0", "by": 2}, {"tile": "6-6", "by": "x"},
             {"tile": "6-6", "by": [1]}]  # an unhashable value takes the default
    view = {"seat": 0, "t": items}
    buf = [0.0] * 28
    layout.write(blocks, [0], buf, view, 0, 2, lambda events: [])
    assert buf[1] == 1.5 and buf[27] == 1.25 and sum(buf) == 2.75
    broken = {"seat": 0, "t": [{"tile": "1-0"}]}
    with pytest.raises(ViewError, match=r"^view\['t'\]\[i\]\['by'\] is missing$"):
        layout.write(blocks, [0], [0.0] * 28, broken, 0, 2, lambda events: [])
    if C_OBSERVE:
        from boneyard.rl import _observe

        for direct in (True, False):
            prog = _observe.program(layout.flatten(blocks, [0]), 28, 2, "seat", 4, ViewError, direct)
            assert _observe.run(prog, view, True, lambda e: ((), ())) == buf
            assert np.frombuffer(_observe.run(prog, view, False, lambda e: ((), ())), np.float32).tolist() == buf
            with pytest.raises(ViewError, match=r"^view\['t'\]\[i\]\['by'\] is missing$"):
                _observe.run(prog, broken, False, lambda e: ((), ()))


# ----- the window's rows in C --------------------------------------------------------------------


def test_every_scripted_event_gives_the_same_row_in_c_and_python() -> None:
    needs_c()
    from .test_history import SCRIPTED

    for game_id, scripted in SCRIPTED.items():
        enc = encoding(game_id)
        base = boneyard.new_game(game_id, seed=0).view(0)
        for seat in range(enc.players):
            for event, _ in scripted:
                view = {**base, "seat": seat, "events": [event]}
                assert enc.observe_list(view) == enc.observe_python(view), (game_id, event)
        # A window of them all, the last HISTORY_WINDOW of them in each view.
        events = [e for e, _ in scripted]
        for end in range(1, len(events) + 1):
            view = {**base, "events": events[:end]}
            assert enc.observe_list(view) == enc.observe_python(view)
        assert len(events) > HISTORY_WINDOW


def test_the_window_cache_stays_bounded_and_right_when_tiny() -> None:
    needs_c()
    from boneyard.rl import _observe

    enc = encoding("montana")
    tiny = _observe.program(layout.flatten(enc.blocks, enc._offsets), enc.obs_size, enc.players, "seat", 4,
                            ViewError, True)
    made = 0
    for game in positions("montana", 4, {}, games=2, moves=200):
        for seat in range(4):
            view = game.view(seat)
            got = _observe.run(tiny, enc.full_view(view), True, enc._remember)
            assert got == enc.observe_python(view)
            made += 1
    assert made > 500
    assert _observe.cached(tiny) <= 4
    assert _observe.cached(enc._program) <= enc.window_cache


def test_a_row_callback_that_observes_again_gets_its_own_scratch() -> None:
    # rows_of runs Python: another observation may run meanwhile on the same program (another
    # thread, or here the callback itself); neither may spoil the other.
    needs_c()
    from boneyard.rl import _observe

    enc = encoding("montana")
    game = boneyard.new_game("montana", seed=4)
    rng = random.Random(4)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    views = [enc.full_view(game.view(s)) for s in range(4)]
    out = {"kind": "out", "seat": 3, "how": "claim", "tile": "5-4", "discarder": 1, "value": 30}  # told by Python
    views[0] = {**views[0], "events": [*views[0]["events"], out]}
    prog = _observe.program(layout.flatten(enc.blocks, enc._offsets), enc.obs_size, 4, "seat", 4, ViewError, False)
    inner: list[Any] = []

    def rows_of(event: Any) -> Any:
        inner.append(_observe.run(prog, views[1], True, enc._remember))
        return enc._remember(event)

    got = _observe.run(prog, views[0], True, rows_of)
    assert got == enc.observe_python(views[0])
    assert inner and all(x == enc.observe_python(views[1]) for x in inner)


def test_rows_of_must_answer_in_its_form() -> None:
    needs_c()
    from boneyard.rl import _observe

    enc = encoding("montana")
    game = boneyard.new_game("montana", seed=1)
    view = enc.full_view({**game.view(0), "events": [{"kind": "first_dealer", "seat": 2, "roller": 0}]})  # a Choice
    answers: list[Any] = [None, ((9,), ()), ((0,), (10_000,)), ([0], ()), (tuple(range(9)), ()), ((), ())]

    def rows_of(event: Any) -> Any:
        return answers[0]

    for answer in answers:
        answers[0] = answer
        prog = _observe.program(layout.flatten(enc.blocks, enc._offsets), enc.obs_size, 4, "seat", 4, ViewError, True)
        if answer == ((), ()):
            _observe.run(prog, view, False, rows_of)  # an empty row is a row
        else:
            with pytest.raises(TypeError, match="rows_of gives"):
                _observe.run(prog, view, False, rows_of)
