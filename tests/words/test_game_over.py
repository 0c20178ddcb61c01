"""The end of a game, told the same way by every game: one winner, you, partners, a shared win, the hand limit."""

from __future__ import annotations

import pytest

from .common import say


@pytest.mark.parametrize(
    ("game", "players", "me", "winners", "limit", "said"),
    [
        ("rounce", 3, 0, [2], None, "Game over: Cy wins."),
        ("rounce", 3, 2, [2], None, "Game over: you win."),
        ("eighty", 4, 3, [1, 3], None, "Game over: Bob and you win."),
        ("eighty", 4, None, [0, 2], None, "Game over: Ann and Cy win."),
        ("twobox", 3, 0, [0, 2], None, "Game over: you and Cy share the win."),
        ("montana", 3, 1, [0, 1, 2], None, "Game over: everyone ties and shares the win."),
        ("rummikub", 4, 0, [1], 100, "The hand limit of 100 hands is reached. Game over: Bob wins."),
        ("montana", 2, 1, [1], 1, "The hand limit of one hand is reached. Game over: you win."),
    ],
)
def test_game_over(game: str, players: int, me: int | None, winners: list[int], limit: int | None, said: str) -> None:
    event: dict[str, object] = {"kind": "game_over", "winners": winners}
    if limit is not None:
        event["hand_limit"] = limit
    assert say(game, event, players, me) == said
