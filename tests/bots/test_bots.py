"""The bots: legal choices, views only, reproducible from a seed, and the greedy heuristics' strength."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

import boneyard
from boneyard.bots import inference as inference_module
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.ismcts import IsmctsBot
from boneyard.games import game_class
from boneyard.testing import hidden_swap

GAMES = boneyard.games()
FAST = {"random": {}, "greedy": {}, "ismcts": {"iterations": 8}}


def make(name: str) -> Any:
    """A bot with a small budget for tests."""
    return boneyard.bot(name, **FAST[name])


def test_registry_lists_the_bots() -> None:
    assert {"random", "greedy", "ismcts"} <= set(boneyard.bots())
    with pytest.raises(ValueError, match="available bots"):
        boneyard.bot("no-such-bot")


@pytest.mark.parametrize("bad", [{"iterations": 0}, {"ms": -5}, {"rollout": "smart"}, {"c": -1}])
def test_ismcts_rejects_bad_budgets(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="ismcts"):
        boneyard.bot("ismcts", **bad)


def play(game_id: str, names: list[str], seed: int, limit: int) -> list[str]:
    """Play up to ``limit`` actions (see :func:`play_game`); the actions played."""
    actions: list[str] = play_game(game_id, names, seed, limit).record()["actions"]
    return actions


def play_game(game_id: str, names: list[str], seed: int, limit: int) -> Any:
    """Play up to ``limit`` actions, each seat's bot seeing a JSON copy of its view; check legality."""
    g = boneyard.new_game(game_id, seed=seed)
    seats = [make(names[s % len(names)]) for s in range(g.players)]
    rngs = [random.Random(seed * 31 + s) for s in range(g.players)]
    for _ in range(limit):
        if g.is_over:
            break
        seat = g.current_player
        legal = g.legal_actions()
        view = json.loads(json.dumps(g.view(seat)))  # a bot gets data, never the game
        action = seats[seat].choose(view, legal, rngs[seat])
        # rummikub: a whole-table play may be legal without being listed
        assert action in legal or (isinstance(action, str) and g.is_legal(action)), f"{names} chose {action}"
        g.apply(action)
    return g


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_play_whole_games_legally(game_id: str, name: str) -> None:
    """Two whole games each: every choice legal, and the game really ends within the cap."""
    for seed in range(2):
        game = play_game(game_id, [name, "random"], seed, 100_000)
        assert game.is_over, f"{game_id} with {name} did not end in 100,000 actions"
        assert game.winners


@pytest.mark.parametrize("game_id", GAMES)
def test_ismcts_chooses_legal_actions(game_id: str) -> None:
    play(game_id, ["ismcts", "greedy"], 1, 40)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("name", ["random", "greedy", "ismcts"])
def test_bots_are_reproducible_from_a_seed(game_id: str, name: str) -> None:
    limit = 40 if name == "ismcts" else 300
    assert play(game_id, [name], 4, limit) == play(game_id, [name], 4, limit)


def swapped_games(game_id: str, seed: int) -> tuple[Any, Any, int] | None:
    """Two games differing only in one tile swapped between two other seats' hands."""
    players = game_class(game_id).default_players
    found = hidden_swap(game_id, players, seed, seat=0)
    if found is None:
        return None
    g1 = boneyard.new_game(game_id, players=players, seed=seed, deck=found.deck, dealer=players - 1)
    g2 = boneyard.new_game(game_id, players=players, seed=seed, deck=found.swapped, dealer=players - 1)
    return g1, g2, found.seat


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("name", ["greedy", "ismcts"])
def test_bots_decide_from_the_view_alone(game_id: str, name: str) -> None:
    """Games that differ only in tiles hidden from a seat get the same decisions from that seat's bot."""
    checked = 0
    for seed in range(6):
        pair = swapped_games(game_id, seed)
        if pair is None:
            continue
        g1, g2, seat = pair
        for _ in range(60):
            if g1.is_over or g1.view(seat) != g2.view(seat):
                break
            if g1.current_player == seat and len(g1.legal_actions()) > 1:
                a1 = make(name).choose(g1.view(seat), g1.legal_actions(), random.Random(9))
                a2 = make(name).choose(g2.view(seat), g2.legal_actions(), random.Random(9))
                assert str(a1) == str(a2)
                checked += 1
            legal2 = {str(a) for a in g2.legal_actions()}
            choices = [str(a) for a in g1.legal_actions() if str(a) in legal2]
            if not choices:
                break
            action = random.Random(len(g1.record()["actions"])).choice(choices)
            g1.apply(action)
            g2.apply(action)
    assert checked, "no decision of the seat was compared"


def test_ismcts_simulates_only_on_sampled_games(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    real = inference_module.sample_game

    def spy(view: dict[str, Any], rng: random.Random) -> Any:
        seen.append(view)
        return real(view, rng)

    monkeypatch.setattr(inference_module, "sample_game", spy)
    g = boneyard.new_game("rounce", seed=2)
    seat = g.current_player
    view = g.view(seat)
    boneyard.bot("ismcts", iterations=12, shape="tree").choose(view, g.legal_actions(), random.Random(1))
    assert len(seen) == 12  # the tree: one sampled world an iteration
    assert all(v is view for v in seen)
    seen.clear()
    legal = g.legal_actions()
    boneyard.bot("ismcts", iterations=12).choose(view, legal, random.Random(1))
    assert len(seen) == 12 // len(legal)  # a call is searched flat: one world a round of every call
    assert all(v is view for v in seen)


def test_ismcts_millisecond_budget_is_kept() -> None:
    g = boneyard.new_game("rounce", seed=5)
    b = IsmctsBot(ms=100, iterations=10**9)  # only the time budget can stop this search

    start = time.perf_counter()
    b.choose(g.view(g.current_player), g.legal_actions(), random.Random(0))
    assert time.perf_counter() - start < 5.0  # generous for a loaded machine; unbounded without the budget
    assert b.last_iterations >= 1


def test_greedy_beats_random_at_rounce() -> None:
    """A fixed, seeded duplicate match: the heuristic must win clearly (deterministic, not flaky)."""
    wins = 0.0
    for seed in range(10):
        for rotation in range(2):
            g = boneyard.new_game("rounce", seed=seed)
            names = ["greedy", "random"] if rotation == 0 else ["random", "greedy"]
            seats = [make(names[s % 2]) for s in range(g.players)]
            rng = random.Random(seed)
            while not g.is_over:
                p = g.current_player
                g.apply(seats[p].choose(g.view(p), g.legal_actions(), rng))
            wins += sum(1 for w in g.winners if seats[w].name == "greedy") / len(g.winners)
    assert wins / 20 > 0.7


def test_greedy_falls_back_to_random_for_a_game_without_a_heuristic() -> None:
    assert GreedyBot.has_policy("rounce")
    assert not GreedyBot.has_policy("no-such-game")


def test_eighty_greedy_unseen_is_the_set_less_every_tile_seen() -> None:
    """Greedy Eighty's unseen tiles: the set minus the hand and every tile played, in the set's order.

    The search's playouts ask this at every play, so it is counted in a plain dict; this
    checks it against the definition over seeded random games, order included (the
    heuristic breaks ties by it).
    """
    from collections import Counter

    from boneyard.bots.greedy import eighty as greedy_eighty
    from boneyard.tiles import tile_of

    checked = 0
    for seed in range(30):
        g = boneyard.new_game("eighty", seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            view = g.view(g.current_player)
            want = Counter(greedy_eighty._FULL)
            want.subtract(tile_of(t) for t in view["hand"])
            want.subtract(tile_of(p["tile"]) for tr in view["tricks"] for p in tr["plays"])
            want.subtract(tile_of(p["tile"]) for p in view["trick"])
            assert list(greedy_eighty.unseen(view).items()) == list((+want).items())
            checked += 1
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
    assert checked > 1000


def test_eighty_greedy_estimate_counts_the_outranking_trumps_as_defined() -> None:
    """Greedy Eighty's bid estimate, counted over the trump tiles alone, equals the plain definition.

    The definition: subtract the hand from the whole set and count, for each of the hand's
    trumps, the unseen trumps of higher power. Every bid of a search's playouts asks this
    six times, so it is counted the short way; the floats must be equal, not close, since
    the bids compare them.
    """
    from collections import Counter

    from boneyard.bots.greedy import eighty as greedy_eighty
    from boneyard.games.eighty.engine import COUNT, TRUMP_SUIT, power

    def defined(hand: list[Any], trump: int, doubles: bool) -> float:
        rest = Counter(greedy_eighty._FULL)
        rest.subtract(hand)
        trumps = [t for t in hand if t.has(trump)]
        tricks = 0.0
        for t in trumps:
            mine = power(t, TRUMP_SUIT, trump, doubles)
            higher = sum(
                n for u, n in rest.items() if n > 0 and u.has(trump) and power(u, TRUMP_SUIT, trump, doubles) > mine
            )
            tricks += greedy_eighty._TRUMP_ODDS[min(higher, len(greedy_eighty._TRUMP_ODDS) - 1)]
        tricks += max(0, len(trumps) - 3) * 0.4
        tricks += sum(0.6 for t in hand if t.is_double and not t.has(trump))
        count = sum(COUNT.get(t, 0) * (0.9 if t.has(trump) or t.is_double else 0.5) for t in hand)
        return 2 * tricks + count + greedy_eighty.PARTNER_SHARE

    rng = random.Random(5)
    for _ in range(2000):
        deck = list(greedy_eighty._FULL)
        rng.shuffle(deck)
        hand = sorted(deck[: rng.randint(1, 12)], key=lambda t: t.key, reverse=True)
        for trump in range(1, 7):
            for doubles in (False, True):
                assert greedy_eighty.estimate(hand, trump, doubles) == defined(hand, trump, doubles)
