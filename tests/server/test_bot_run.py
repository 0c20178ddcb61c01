"""``boneyard bot run`` and the Node example as separate processes against a real ``boneyard serve``:
a whole game of each of the five games, a bot process killed (kill -9) mid-game and restarted, and a
client in another language."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import boneyard

from .botkit import challenge, new_bot, play_person, run_bot, wait_online
from .conftest import Server, free_port

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot_client.js"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose own bots act at once."""
    db = tmp_path_factory.mktemp("botrun") / "bots.db"
    running = Server(f"sqlite:///{db}", bot_delay=0.0, port=free_port()).start()
    yield running
    running.stop()


def test_a_hosted_bot_plays_a_whole_game_of_each_game_and_is_rated(server: Server, tmp_path: Path) -> None:
    bot = new_bot(server, boneyard.games())
    process = run_bot(server, bot["token"], tmp_path / "bot.log", "greedy")
    try:
        wait_online(server, bot["name"])
        person = httpx.post(server.url + "/api/players", json={"name": "Ann"}, timeout=10).json()
        rated = []
        for game in boneyard.games():
            players = boneyard.game_info(game)["players"]["min"]
            answer = challenge(server, bot["name"], {"game": game, "players": players, "rules": {"max_hands": 1},
                                                     "name": "Ann"}, code=person["code"])
            assert answer["challenge"]["status"] == "accepted", answer
            table = answer["challenge"]["table"]
            final = play_person(server, table, answer["token"], random.Random(game))
            assert final["is_over"], game
            assert final["seats"][1] == {**final["seats"][1], "name": bot["name"], "account": "bot"}
            # the rating lands a moment after the end: wait for it, or for the words saying it is not rated
            deadline = time.monotonic() + 20
            while True:
                board = httpx.get(f"{server.url}/api/games/{game}/leaderboard", params={"players": players},
                                  timeout=10).json()
                mine = [row for row in board if row["name"] == bot["name"]]
                log = httpx.get(f"{server.url}/api/tables/{table}/friends", timeout=10).json()["log"]
                if mine or any("not rated" in e["text"] for e in log):
                    break
                assert time.monotonic() < deadline, f"{game}: neither rated nor said to be unrated"
                time.sleep(0.2)
            if mine:
                assert mine[0]["account"] == "bot" and mine[0]["bot"] is True and mine[0]["games"] == 1
                rated.append(game)
            # a game against a person never counts on the bots' board
            bots_board = httpx.get(f"{server.url}/api/games/{game}/leaderboard", params={"board": "bots"},
                                   timeout=10).json()
            assert all(row["name"] != bot["name"] for row in bots_board)
        # short one-hand games may end before everyone made the two decisions a rated game needs
        assert len(rated) >= 3, rated
        assert "accepted Ann's challenge" in (tmp_path / "bot.log").read_text()
    finally:
        process.kill()
        process.wait()


def test_a_bot_killed_mid_game_and_restarted_resumes_its_seat(server: Server, tmp_path: Path) -> None:
    bot = new_bot(server, ["montana"])
    log = tmp_path / "bot.log"
    process = run_bot(server, bot["token"], log)
    try:
        wait_online(server, bot["name"])
        answer = challenge(server, bot["name"], {"game": "montana", "players": 2, "rules": {"max_hands": 1},
                                                 "name": "Ann"})
        table, token = answer["challenge"]["table"], answer["token"]
        rng = random.Random(5)
        midway = play_person(server, table, token, rng, until_version=6)
        assert not midway["is_over"]
        process.kill()  # kill -9: the program gets no chance to say goodbye
        process.wait()
        wait_online(server, bot["name"], online=False)
        stalled = httpx.get(f"{server.url}/api/tables/{table}", timeout=10).json()
        assert not stalled["is_over"]
        process = run_bot(server, bot["token"], log)  # the restarted program is told of its game and resumes
        wait_online(server, bot["name"])  # back before Ann plays on (she may finish the hand without it)
        final = play_person(server, table, token, rng)
        assert final["is_over"]
        friends = httpx.get(f"{server.url}/api/tables/{table}/friends", timeout=10).json()
        assert not any("clock ran out" in entry["text"] for entry in friends["log"])  # the bot itself played on
        assert log.read_text().count("hosting random") == 2
    finally:
        process.kill()
        process.wait()


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_the_node_example_plays_a_game(server: Server, tmp_path: Path) -> None:
    bot = new_bot(server, ["rounce"])
    out = (tmp_path / "node.log").open("wb")
    process = subprocess.Popen(["node", str(EXAMPLE), server.url, bot["token"], "1"], stdout=out,
                               stderr=subprocess.STDOUT)
    try:
        wait_online(server, bot["name"])
        answer = challenge(server, bot["name"], {"game": "rounce", "players": 2, "rules": {"max_hands": 1},
                                                 "name": "Ann"})
        final = play_person(server, answer["challenge"]["table"], answer["token"], random.Random(2))
        assert final["is_over"]
        assert process.wait(30) == 0  # it leaves after its one game
        assert "finished; winners" in (tmp_path / "node.log").read_text()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_policy_from_the_rl_adapters_is_hosted_with_its_weights_file(server: Server, tmp_path: Path) -> None:
    weights = Path(__file__).resolve().parents[2] / "examples" / "rounce_policy.npz"
    bot = new_bot(server, ["rounce"])
    log = tmp_path / "policy.log"
    process = run_bot(server, bot["token"], log, f"policy:weights={weights}")
    try:
        wait_online(server, bot["name"])
        # the example policy was trained for two players
        answer = challenge(server, bot["name"], {"game": "rounce", "players": 2, "rules": {"max_hands": 1},
                                                 "name": "Ann"})
        final = play_person(server, answer["challenge"]["table"], answer["token"], random.Random(9))
        assert final["is_over"]
        assert "the bot failed" not in log.read_text()  # the policy made every decision itself
        # at four players it cannot decide: the runner says why and plays a legal action, the table goes on.
        # A hand where every seat ahead of the dealing bot folds ends with no decision of its own (a few
        # deals in a hundred): another hand is played until one reaches the bot.
        for game in range(6):
            answer = challenge(server, bot["name"], {"game": "rounce", "players": 4, "rules": {"max_hands": 1},
                                                     "name": "Ann"})
            final = play_person(server, answer["challenge"]["table"], answer["token"], random.Random(9 + game))
            assert final["is_over"]
            if "the bot failed" in log.read_text():
                break
        said = log.read_text()
        assert f"hosting policy:weights={weights}" in said
        assert said.count("the bot failed (ValueError: this policy plays rounce with 2 players") >= 1
    finally:
        process.kill()
        process.wait()


def test_a_game_of_several_hands_goes_on_after_each_hand_end(server: Server, tmp_path: Path) -> None:
    # between hands the table waits for the person's "Next hand", never for the bot; the bot's
    # stream gives it its turn only once the next hand may be played (no clock: nobody stands in)
    bot = new_bot(server, ["montana"])
    process = run_bot(server, bot["token"], tmp_path / "bot.log", "greedy")
    try:
        wait_online(server, bot["name"])
        answer = challenge(server, bot["name"], {"game": "montana", "players": 2, "rules": {"max_hands": 3},
                                                 "name": "Ann"})
        final = play_person(server, answer["challenge"]["table"], answer["token"], random.Random(11), within=60)
        assert final["is_over"] and final["view"]["hand_number"] >= 2
        assert "refused" not in (tmp_path / "bot.log").read_text()
    finally:
        process.kill()
        process.wait()


def test_boneyard_bot_register_prints_the_token_once(server: Server) -> None:
    made = subprocess.run([sys.executable, "-m", "boneyard", "bot", "register", "--server", server.url, "--name",
                           "Cli", "--owner", "Ann", "--games", "montana, rounce"], capture_output=True, text=True,
                          timeout=60)
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip().rsplit(" ", 1)[-1]
    assert token.startswith("bot_")
    public = httpx.get(f"{server.url}/api/bots/accounts/Cli", timeout=10).json()
    assert public["games"] == ["montana", "rounce"] and public["owner"] == "Ann"
    again = subprocess.run([sys.executable, "-m", "boneyard", "bot", "register", "--server", server.url, "--name",
                            "Cli", "--owner", "Ann", "--games", "montana"], capture_output=True, text=True, timeout=60)
    assert again.returncode != 0 and "already called" in again.stderr
    events = httpx.get(f"{server.url}/api/bots/online", timeout=10).json()
    assert all(b["name"] != "Cli" for b in events)
