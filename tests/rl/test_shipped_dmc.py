"""The shipped networks (``boneyard/rl/weights/<game>-<players>.npz``) load and play whole games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import boneyard
from boneyard.rl.policy import PolicyBot

WEIGHTS = Path(boneyard.__file__).resolve().parent / "rl" / "weights" / "rounce-4.npz"


def _shipped() -> list[tuple[str, int]]:
    from boneyard.rl.weights import shipped

    return list(shipped())


#: Tables no shipped network plays (the refusal tests' tables).
UNSHIPPED = [("rounce", 2), ("montana", 3), ("twobox", 6), ("rummikub", 2)]


@pytest.mark.parametrize(("game", "players"), _shipped())
def test_every_shipped_network_plays_its_table_to_the_end(game: str, players: int) -> None:
    """It loads with today's encoding (a stale file is refused) and makes only legal choices, whole games."""
    from boneyard.rl.weights import shipped

    bot = PolicyBot(str(shipped()[(game, players)]))
    greedy = boneyard.bot("greedy")
    rng = random.Random(0)
    for seed in range(2):
        game_ = boneyard.new_game(game, players=players, seed=seed)
        while not game_.is_over:
            seat = game_.current_player
            legal = game_.legal_actions()
            chooser = bot if seat % 2 == 0 else greedy
            action = chooser.choose(game_.view(seat), legal, rng)
            assert action in legal
            game_.apply(action)


def test_the_package_ships_its_networks_as_package_data() -> None:
    """Found through importlib.resources (the wheel and an editable install carry it), and not git-ignored.

    The wheel's file list comes from hatchling's selection of the ``boneyard`` package,
    which leaves out only git-ignored files: the network must stay tracked and unignored.
    """
    import subprocess

    from boneyard.rl.weights import shipped

    found = shipped()
    assert found[("rounce", 4)] == WEIGHTS
    assert not set(UNSHIPPED) & set(found)
    root = WEIGHTS.parents[3]
    for path in found.values():
        tracked = subprocess.run(["git", "ls-files", "--error-unmatch", str(path)], cwd=root, capture_output=True)
        ignored = subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=root, capture_output=True)
        if tracked.returncode not in (0, 1) or ignored.returncode == 128:
            pytest.skip("not a git checkout")
        assert tracked.returncode == 0 and ignored.returncode == 1, path


def test_bot_policy_with_no_file_plays_the_shipped_network() -> None:
    """``bot:policy`` needs no weights file at a four-player Rounce table: it plays the shipped network's choices."""
    plain = boneyard.bot("policy")
    from_file = PolicyBot(str(WEIGHTS))
    rng = random.Random(0)
    game = boneyard.new_game("rounce", players=4, seed=7)
    while not game.is_over:
        legal = game.legal_actions()
        view = game.view(game.current_player)
        action = plain.choose(view, legal, rng)
        assert action in legal and str(action) == str(from_file.choose(view, legal, rng))
        game.apply(action)


@pytest.mark.parametrize(("game", "players"), UNSHIPPED)
def test_bot_policy_with_no_file_refuses_a_table_with_no_shipped_network_by_name(game: str, players: int) -> None:
    from boneyard.rl.weights import NoWeightsError, describe

    table = boneyard.new_game(game, players=players, seed=0)
    assert "rounce with 4 players" in describe()
    wanted = f"no learned network is shipped for {game} with {players} players (shipped: {describe()})"
    with pytest.raises(NoWeightsError, match=wanted.replace("(", r"\(").replace(")", r"\)")):
        boneyard.bot("policy").choose(table.view(table.current_player), table.legal_actions(), random.Random(0))
    plain = PolicyBot()
    assert wanted in str(plain.refuses(game, players))
    assert plain.refuses("rounce", 4) is None and plain.tables() == _shipped()


def test_a_policy_file_plays_only_its_own_game_and_size() -> None:
    two = PolicyBot(str(WEIGHTS.parents[3] / "examples" / "rounce_policy.npz"))
    assert two.tables() == [("rounce", 2)] and two.refuses("rounce", 2) is None
    assert "plays rounce with 2 players, not rounce with 4" in str(two.refuses("rounce", 4))


@pytest.mark.parametrize("command", [["arena", "montana", "--players", "3", "--bots", "policy,greedy", "--games", "2"],
                                     ["simulate", "twobox", "--players", "6", "--bots", "policy", "--games", "1"],
                                     ["arena", "rounce", "--players", "2", "--bots",
                                      "ismcts:iterations=5:favourite=learned,greedy", "--games", "2"],
                                     ["play", "rummikub", "--players", "2", "--bots", "policy"]])
def test_the_commands_refuse_a_learned_bot_with_no_network_in_words(command: list[str]) -> None:
    """Before the first deal, naming the game and the player count: not a traceback at the first decision."""
    from typer.testing import CliRunner

    from boneyard.cli.main import app

    result = CliRunner().invoke(app, command, input="")
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.replace("│", " ").split())
    assert "cannot play" in said and "no learned network is shipped for" in said, said
    assert "Traceback" not in result.output
