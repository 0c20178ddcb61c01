"""The search with a learned network: ``favourite=learned`` (its prior) and ``rollout=learned`` (its playouts).

Each test fails without the options: they change the search's choice and its playouts,
refuse clearly where no network is shipped, play whole games legally, and leave the
default search untouched.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.spec import parse_bot_spec

pytest.importorskip("numpy")  # the network needs NumPy (the rl extra)

from boneyard.bots.learned import learned_chooser
from boneyard.rl import dmc


def _where_they_differ(phase: str) -> tuple[dict[str, Any], list[Any], Any, Any]:
    """The first decision of ``phase`` in a greedy four-player Rounce game where the network and greedy disagree.

    Returns the view, the legal actions, the network's choice and greedy's.
    """
    net = learned_chooser("rounce", 4)
    greedy = boneyard.bot("greedy")
    rng = random.Random(0)
    for seed in range(10):
        game = boneyard.new_game("rounce", players=4, seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            view = game.view(game.current_player)
            mine, theirs = net(view, legal, rng), greedy.choose(view, legal, rng)
            if len(legal) > 1 and view["phase"] == phase and str(mine) != str(theirs):
                return view, legal, mine, theirs
            game.apply(theirs)
    raise AssertionError(f"the network always agrees with greedy in the {phase} phase")


@pytest.mark.parametrize("phase", ["call", "play"])  # Rounce's calls are searched flat, its play as a tree
def test_the_learned_favourite_is_what_a_search_that_knows_too_little_plays(phase: str) -> None:
    """With one iteration the search cannot compare its actions and plays its favourite: now the network's."""
    view, legal, mine, theirs = _where_they_differ(phase)
    learned = IsmctsBot(iterations=1, favourite="learned").choose(view, legal, random.Random(1))
    plain = IsmctsBot(iterations=1).choose(view, legal, random.Random(1))
    assert str(learned) == str(mine) and str(plain) == str(theirs)


def test_the_learned_favourite_gets_the_head_start() -> None:
    """With ``prior=1`` the favourite's head start outweighs every visit: the network's choice is played."""
    view, legal, mine, _theirs = _where_they_differ("play")
    bot = IsmctsBot(iterations=60, favourite="learned", prior=1.0)
    assert str(bot.choose(view, legal, random.Random(2))) == str(mine)
    assert bot.last_iterations == 60  # it searched, and still credits the network's choice


def test_learned_playouts_are_played_by_the_network_on_views(monkeypatch: pytest.MonkeyPatch) -> None:
    """``rollout=learned``: the network plays the playouts' moves, each from the mover's view of the sampled world."""
    view, legal, _mine, _theirs = _where_they_differ("play")
    calls: list[int] = []
    real = dmc.QNetwork.act

    def counted(self: dmc.QNetwork, obs: Any, mask: Any, prefer: int | None = None) -> int:
        calls.append(1)
        return real(self, obs, mask, prefer)

    monkeypatch.setattr(dmc.QNetwork, "act", counted)
    IsmctsBot(iterations=30).choose(view, legal, random.Random(3))
    assert calls == []  # the default search never asks the network
    IsmctsBot(iterations=30, rollout="learned").choose(view, legal, random.Random(3))
    assert len(calls) > 30  # more than one move per playout: the playouts are the network's

    seen: list[dict[str, Any]] = []
    bot = IsmctsBot(iterations=10, rollout="learned")
    net = bot._learned_chooser("rounce", 4)

    def watching(v: dict[str, Any], actions: Any, rng: random.Random) -> Any:
        seen.append(v)
        return net(v, actions, rng)

    bot._learned[("rounce", 4)] = watching
    bot.choose(view, legal, random.Random(4))
    assert seen and all(v["seat"] == v["current_player"] for v in seen)  # each mover's own view, nobody else's


@pytest.mark.parametrize("spec", ["ismcts:iterations=5:favourite=learned", "ismcts:iterations=5:rollout=learned"])
@pytest.mark.parametrize(("game", "players"), [("twobox", 6), ("rounce", 2), ("montana", 3)])
def test_a_game_with_no_shipped_network_is_refused_by_name(spec: str, game: str, players: int) -> None:
    bot = parse_bot_spec(spec).make()
    table = boneyard.new_game(game, players=players, seed=0)
    legal = table.legal_actions()
    while len(legal) < 2:
        table.apply(legal[0])
        legal = table.legal_actions()
    with pytest.raises(ValueError, match=f"no learned network is shipped for {game} with {players} players") as err:
        bot.choose(table.view(table.current_player), legal, random.Random(0))
    from boneyard.rl.weights import describe

    assert f"shipped: {describe()}" in str(err.value) and "weights=FILE" in str(err.value)


def test_weights_are_read_only_with_a_learned_option(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="favourite=learned or rollout=learned"):
        IsmctsBot(weights="net.npz")
    other = tmp_path / "twobox.npz"
    dmc.QNetwork(boneyard.rl.encoding("twobox", 4), (8,)).save(other)
    bot = IsmctsBot(iterations=2, favourite="learned", weights=str(other))
    game = boneyard.new_game("rounce", players=4, seed=0)
    with pytest.raises(ValueError, match="plays twobox with 4 players, not rounce with 4"):
        bot.choose(game.view(game.current_player), game.legal_actions(), random.Random(0))


@pytest.mark.parametrize("spec", ["ismcts:iterations=8:favourite=learned",
                                  "ismcts:iterations=8:rollout=learned:favourite=learned"])
def test_the_learned_search_plays_whole_four_player_rounce_games_legally(spec: str) -> None:
    bot = parse_bot_spec(spec).make()
    greedy = boneyard.bot("greedy")
    rng = random.Random(5)
    game = boneyard.new_game("rounce", players=4, seed=21)
    decisions = 0
    while not game.is_over:
        seat = game.current_player
        legal = game.legal_actions()
        action = (bot if seat % 2 == 0 else greedy).choose(game.view(seat), legal, rng)
        assert action in legal
        decisions += seat % 2 == 0 and len(legal) > 1
        game.apply(action)
    assert game.is_over and decisions > 20


def test_the_default_search_makes_no_network() -> None:
    """Off by default: no network is read, and the search is the one it always was."""
    view, legal, _mine, theirs = _where_they_differ("play")
    bot = IsmctsBot(iterations=1)
    assert str(bot.choose(view, legal, random.Random(1))) == str(theirs)
    assert bot._net is None and bot._learned == {}
