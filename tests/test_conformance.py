"""The conformance suite: every game in ``boneyard.games()`` against the public contract.

Seeded random games are played to the end through the public API. At every step the
cheap invariants are checked (tile conservation, a legal action applies); at sampled
steps the expensive ones (illegal and malformed actions refused with the state
unchanged, JSON views, view hiding, ``sample_game`` consistency). Every game gets this
suite for free by being registered.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard.games import game_class
from boneyard.testing import hidden_swap

GAMES = boneyard.games()
# Number of seeded games per (game, player count); CONFORMANCE_GAMES raises it for soak runs.
GAMES_PER_COUNT = int(os.environ.get("CONFORMANCE_GAMES", "3"))
MALFORMED: list[Any] = ["", "   ", "xyzzy", "play", "play 9-9", "discard 6-4 6-4 extra words", "PLAY 6-4", 42, None]


def player_counts(game_id: str) -> list[int]:
    """Every legal player count of a game."""
    info = boneyard.game_info(game_id)
    return list(range(info["players"]["min"], info["players"]["max"] + 1))


def cases() -> list[tuple[str, int]]:
    """(game, players) pairs to play."""
    return [(g, n) for g in GAMES for n in player_counts(g)]


def snapshot(g: Any) -> str:
    """Everything observable about a game, as one string."""
    return json.dumps(
        {
            "record": g.record(),
            "views": [g.view(s) for s in range(g.players)] + [g.view(None)],
            "legal": [str(a) for a in g.legal_actions()],
            "current": g.current_player,
            "scores": g.scores,
            "over": g.is_over,
            "winners": g.winners,
        },
        sort_keys=True,
    )


def check_tiles(g: Any) -> None:
    """Every tile of the game's set is in exactly one place."""
    places = g.tile_locations()
    found = Counter(t for tiles in places.values() for t in tiles)
    assert found == Counter(type(g).full_set(g.rules)), f"tiles not conserved: {places}"


def illegal_candidates(g: Any, seen: list[str], rng: random.Random) -> list[Any]:
    """Malformed inputs plus plausible actions that are not among the legal ones now."""
    legal = {str(a) for a in g.legal_actions()}
    plausible = [s for s in seen if s not in legal]
    rng.shuffle(plausible)
    tiles = [str(t) for t in type(g).full_set(g.rules)]
    mutated = []
    for text in list(legal)[:4]:
        words = text.split()
        for i, w in enumerate(words):
            if "-" in w and len(w) == 3:
                mutated.append(" ".join([*words[:i], rng.choice(tiles), *words[i + 1 :]]))
    mutated = [m for m in mutated if m not in legal]
    return [rng.choice(MALFORMED), *plausible[:3], *mutated[:3]]


def check_refusals(g: Any, seen: list[str], rng: random.Random) -> None:
    """Illegal and malformed actions raise IllegalAction and leave the game unchanged."""
    before = snapshot(g)
    for action in illegal_candidates(g, seen, rng):
        if isinstance(action, str) and g.is_legal(action):
            continue  # an unlisted but legal action (rummikub tables)
        with pytest.raises(boneyard.IllegalAction):
            g.apply(action)
        assert snapshot(g) == before, f"refused action {action!r} changed the game"


def check_views(g: Any) -> None:
    """Views are JSON-ready, carry the contract's fields and show only the seat's own hand."""
    for seat in [*range(g.players), None]:
        view = g.view(seat)
        assert json.loads(json.dumps(view)) == view
        for key in ("game", "players", "rules", "seat", "events", "events_from", "partners", "hand", "scores"):
            assert key in view, f"view lacks {key}"
        assert view["seat"] == seat
        if seat is None:
            assert view["hand"] is None
    for bad in (-1, g.players, "0", True):
        with pytest.raises(ValueError):
            g.view(bad)


def check_clone(g: Any, rng: random.Random) -> None:
    """A clone is equal and independent: playing on it leaves the original untouched."""
    before = snapshot(g)
    c = g.clone()
    assert snapshot(c) == before
    c.apply(rng.choice(c.legal_actions()))
    assert snapshot(g) == before


def check_sampling(g: Any, rng: random.Random) -> None:
    """Sampled games show the same view to that seat and play on by the rules."""
    for seat in {g.current_player, rng.randrange(g.players), None}:
        view = g.view(seat)
        s = boneyard.sample_game(view, random.Random(rng.random()))
        assert s.view(seat) == view, f"sampled game's view differs for seat {seat}"
        check_tiles(s)
        if seat is not None and seat == g.current_player:
            assert [str(a) for a in s.legal_actions()] == [str(a) for a in g.legal_actions()]
        for _ in range(60):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
            check_tiles(s)
    d = g.determinize(g.current_player, random.Random(1))
    assert d.view(g.current_player) == g.view(g.current_player)


def play_checked(
    game_id: str, players: int, seed: int, heavy_every: int = 7, rules: dict[str, Any] | None = None
) -> Any:
    """One random game with every check; returns the finished game."""
    rng = random.Random(seed * 7919 + players)
    g = boneyard.new_game(game_id, players=players, seed=seed, rules=rules)
    seen: list[str] = []
    step = 0
    while not g.is_over:
        assert g.current_player is not None and 0 <= g.current_player < players
        legal = g.legal_actions()
        assert legal, "a seat to act has no legal action"
        check_tiles(g)
        if step % heavy_every == 0:
            check_refusals(g, seen, rng)
            check_views(g)
            check_sampling(g, rng)
            check_clone(g, rng)
            assert all(g.is_legal(str(a)) for a in legal)
        action = rng.choice(legal)
        seen.append(str(action))
        if len(seen) > 40:
            del seen[:20]
        g.apply(str(action) if step % 2 else action)
        step += 1
        assert step < 200_000, "game does not end"
    assert g.current_player is None
    assert g.legal_actions() == ()
    assert g.winners and all(0 <= w < players for w in g.winners)
    check_views(g)
    with pytest.raises(boneyard.IllegalAction):
        g.apply("pass")
    return g


@pytest.mark.parametrize(("game_id", "players"), cases())
def test_random_games_follow_the_contract(game_id: str, players: int) -> None:
    for seed in range(GAMES_PER_COUNT):
        g = play_checked(game_id, players, seed)
        record = json.loads(json.dumps(g.record()))
        again = boneyard.replay(record)
        assert again.record() == g.record()
        assert snapshot(again) == snapshot(g)


def option_cases() -> list[tuple[str, str, Any]]:
    """(game, option, value) for every non-default listed value of every option."""
    out = []
    for g in GAMES:
        for name, opt in boneyard.game_info(g)["options"].items():
            for value in opt.get("allowed", []):
                if value != opt["default"]:
                    out.append((g, name, value))
    return out


@pytest.mark.parametrize(("game_id", "option", "value"), option_cases())
def test_random_games_with_each_rules_option(game_id: str, option: str, value: Any) -> None:
    info = boneyard.game_info(game_id)
    g = play_checked(game_id, info["players"]["default"], 1, heavy_every=11, rules={option: value})
    assert g.record()["rules"][option] == value
    assert boneyard.replay(json.loads(json.dumps(g.record()))).record() == g.record()


@pytest.mark.parametrize("game_id", GAMES)
def test_look_alike_tuples_are_played_as_the_listed_action(game_id: str) -> None:
    g = boneyard.new_game(game_id, seed=2)
    action = g.legal_actions()[0]
    assert isinstance(action, tuple), "actions are NamedTuples, so a plain tuple can equal one"
    g.apply(tuple(action))  # equal to a legal action: the listed object is played
    assert g.record()["actions"] == [str(action)]


@pytest.mark.parametrize(("game_id", "players"), cases())
def test_same_seed_same_record(game_id: str, players: int) -> None:
    def run() -> dict[str, Any]:
        rng = random.Random(5)
        g = boneyard.new_game(game_id, players=players, seed=11)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        record: dict[str, Any] = g.record()
        return record

    assert run() == run()


@pytest.mark.parametrize(("game_id", "players"), cases())
def test_views_hide_other_hands(game_id: str, players: int) -> None:
    """Two games differing only in tiles hidden from a seat look the same to that seat."""
    for seed in range(4):
        found = hidden_swap(game_id, players, seed)
        if found is None:
            continue
        deck, swapped, seat = found
        rng = random.Random(seed)
        g1 = boneyard.new_game(game_id, players=players, seed=seed, deck=deck, dealer=0)
        g2 = boneyard.new_game(game_id, players=players, seed=seed, deck=swapped, dealer=0)
        for _ in range(400):
            if g1.is_over or g2.is_over:
                break
            if g1.view(None) != g2.view(None) or g1.view(seat)["hand"] != g2.view(seat)["hand"]:
                break  # public play or the seat's own tiles now differ: the swap is no longer hidden
            assert g1.view(seat) == g2.view(seat), f"seat {seat}'s view reveals a hidden tile"
            legal2 = {str(a) for a in g2.legal_actions()}
            choices = [a for a in g1.legal_actions() if str(a) in legal2]
            if not choices:
                break
            action = str(rng.choice(choices))
            g1.apply(action)
            g2.apply(action)


@pytest.mark.parametrize("game_id", GAMES)
def test_new_game_rejects_bad_arguments(game_id: str) -> None:
    info = boneyard.game_info(game_id)
    with pytest.raises(ValueError):
        boneyard.new_game(game_id, players=info["players"]["max"] + 1)
    with pytest.raises(ValueError):
        boneyard.new_game(game_id, players=info["players"]["min"] - 1)
    with pytest.raises(boneyard.RulesError, match="valid options"):
        boneyard.new_game(game_id, rules={"no_such_option": 1})
    for name, option in info["options"].items():
        bad = "not a value" if option["type"] != "str" else 12345
        with pytest.raises(boneyard.RulesError, match="valid options"):
            boneyard.new_game(game_id, rules={name: bad})
    cls = game_class(game_id)
    deck = [str(t) for t in cls.full_set(cls.Rules())]
    with pytest.raises(ValueError, match="deck"):
        boneyard.new_game(game_id, deck=deck[:-1])
    with pytest.raises(ValueError, match="deck"):
        boneyard.new_game(game_id, deck=[*deck[:-1], deck[0] if deck[0] != deck[-1] else "9-9"])
    with pytest.raises(ValueError, match="dealer"):
        boneyard.new_game(game_id, dealer=info["players"]["default"])
    with pytest.raises(ValueError):
        boneyard.new_game("no-such-game")


@pytest.mark.parametrize("game_id", GAMES)
def test_game_info_declares_the_facts(game_id: str) -> None:
    info = boneyard.game_info(game_id)
    assert info["id"] == game_id
    assert info["name"] and info["summary"]
    p = info["players"]
    assert p["min"] <= p["default"] <= p["max"]
    assert isinstance(info["teams"], bool)
    json.dumps(info)
    for option in info["options"].values():
        assert "default" in option and option["doc"]
    g = boneyard.new_game(game_id, seed=1)
    assert g.players == p["default"]


@pytest.mark.parametrize("game_id", GAMES)
def test_replay_names_a_bad_record(game_id: str) -> None:
    g = boneyard.new_game(game_id, seed=3)
    rng = random.Random(3)
    for _ in range(5):
        g.apply(rng.choice(g.legal_actions()))
    record = g.record()
    with pytest.raises(ValueError, match="missing"):
        boneyard.replay({k: v for k, v in record.items() if k != "actions"})
    with pytest.raises(boneyard.IllegalAction, match="record action 6"):
        boneyard.replay({**record, "actions": [*record["actions"], "no such action"]})
    with pytest.raises(ValueError, match="actions"):
        boneyard.replay({**record, "actions": "pass"})
