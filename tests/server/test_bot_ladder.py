"""The ladder (``boneyard serve --ladder``): two hosted bot accounts play 20 games unattended and fill
the bots' board, which people's boards never show."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from .botkit import new_bot, run_bot, wait_online
from .conftest import Server, free_port

GAMES = 20


def test_two_bots_play_twenty_ladder_games_and_appear_on_the_bots_board(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'ladder.db'}", bot_delay=0.0, port=free_port(),
                    extra=["--ladder", "0.2", "--ladder-rules", "max_hands=1"]).start()
    first, second = new_bot(server, ["montana"]), new_bot(server, ["montana"])
    processes = [run_bot(server, bot["token"], tmp_path / f"{bot['name']}.log", "greedy") for bot in (first, second)]
    try:
        for bot in (first, second):
            wait_online(server, bot["name"])
        deadline = time.monotonic() + 90
        rows: list[dict[str, object]] = []
        while time.monotonic() < deadline:
            rows = httpx.get(f"{server.url}/api/games/montana/leaderboard", params={"board": "bots"},
                             timeout=10).json()
            if len(rows) == 2 and all(int(str(row["games"])) >= GAMES for row in rows):
                break
            time.sleep(0.5)
        assert {row["name"] for row in rows} == {first["name"], second["name"]}, rows
        assert all(int(str(row["games"])) >= GAMES for row in rows), rows
        assert all(row["account"] == "bot" and row["board"] == "2 players" for row in rows)
        people = httpx.get(f"{server.url}/api/games/montana/leaderboard", timeout=10).json()
        assert not any(row["name"] in (first["name"], second["name"]) for row in people)
        page = httpx.get(f"{server.url}/leaderboard/montana", params={"players": 2, "board": "bots"}, timeout=10).text
        assert first["name"] in page and second["name"] in page and "Bots' board" in page
        assert "<span class=badge>bot</span>" in page
        history = httpx.get(f"{server.url}/api/history", params={"game": "montana"}, timeout=10).json()
        assert len(history) >= GAMES
        assert all(set(h["seats"]) == {first["name"], second["name"]} for h in history)
    finally:
        for process in processes:
            process.kill()
            process.wait()
        server.stop()
