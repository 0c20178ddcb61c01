"""``boneyard.client`` in this process: one bot challenges another with :class:`BotClient`, both are
hosted by :class:`BotRunner` on threads, and their game counts on the bots' board."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from boneyard.bots import bot
from boneyard.client import BotApiError, BotClient, BotRunner, register

from .conftest import Server, free_port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose own bots act at once."""
    db = tmp_path_factory.mktemp("client") / "client.db"
    running = Server(f"sqlite:///{db}", bot_delay=0.0, port=free_port()).start()
    yield running
    running.stop()


def test_a_bot_challenges_another_with_the_python_client_and_both_play_it_out(server: Server) -> None:
    one = register(server.url, "Alpha", "Ann", ["twobox"], "greedy, from the client")
    two = register(server.url, "Beta", "Bob", ["twobox"])
    alpha, beta = BotClient(server.url, one["token"]), BotClient(server.url, two["token"])
    said: list[str] = []
    runners = [BotRunner(client, lambda: bot("greedy"), ["twobox"], seed=1, say=said.append)
               for client in (alpha, beta)]
    threads = [threading.Thread(target=r.run, kwargs={"max_games": 1}, daemon=True) for r in runners]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 20
        while len(httpx.get(server.url + "/api/bots/online", timeout=10).json()) < 2:
            assert time.monotonic() < deadline, "the runners did not come online"
            time.sleep(0.1)
        made = alpha.challenge("Beta", "twobox", players=2, rules={"max_hands": 1})
        assert made["challenge"]["challenger"] == {"name": "Alpha", "account": "bot"}
        for thread in threads:
            thread.join(60)
            assert not thread.is_alive(), said
        assert all(r.finished == runners[0].finished and len(r.finished) == 1 for r in runners)
        # the rating lands a moment after the game's end (stored, then counted)
        table = runners[0].finished[0]
        deadline = time.monotonic() + 20
        names: set[str] = set()
        while names != {"Alpha", "Beta"}:
            room = httpx.get(f"{server.url}/api/tables/{table}/friends", timeout=10).json()
            unrated = [e["text"] for e in room["log"] if "not rated" in e["text"]]
            assert not unrated and time.monotonic() < deadline, (names, unrated)
            board = httpx.get(f"{server.url}/api/games/twobox/leaderboard", params={"board": "bots"}, timeout=10)
            names = {row["name"] for row in board.json()}
            time.sleep(0.2)
        assert "accepted Alpha's challenge at twobox" in said
    finally:
        for runner in runners:
            runner.stop.set()
        alpha.close()
        beta.close()


def test_the_client_raises_the_servers_words(server: Server) -> None:
    stranger = BotClient(server.url, "bot_not_a_token")
    with pytest.raises(BotApiError) as refused:
        next(stranger.events())
    assert refused.value.status == 403 and "no bot account has this token" in refused.value.detail
    register(server.url, "Taken", "Someone", ["twobox"])  # this test's own, whatever ran before it
    with pytest.raises(BotApiError) as taken:
        register(server.url, "Taken", "Someone else", ["twobox"])
    assert taken.value.status == 409
    stranger.close()
