"""Greedy two-box's follow term: a bonus per open end the hand left can still play on."""

from __future__ import annotations

from typing import Any

import boneyard
from boneyard.bots.greedy import twobox as greedy
from boneyard.bots.profiles import twobox as profile_twobox
from boneyard.tiles import double_six

HANDS = [
    "6-6 5-0 4-0 3-0 2-1 4-1 5-1",  # the only double dealt: seat 0 sets the spinner
    "6-4 6-1 1-0 1-0 5-3 5-2 3-2",  # seat 1 plays first
    "5-0 4-0 3-0 2-0 2-1 3-1 4-1",
    "5-1 4-2 4-3 5-4 5-4 4-2 4-3",
]


def _game() -> Any:
    """The deal above, the rest of the tiles in the boneyard."""
    pool = [str(t) for t in double_six(2)]
    deck = []
    for hand in HANDS:
        for t in hand.split():
            pool.remove(t)
            deck.append(t)
    return boneyard.new_game("twobox", players=4, seed=1, deck=deck + pool)


def _weights_seen(monkeypatch: Any) -> list[Any]:
    """The weights every decision is valued with from now on (a spy on the hand-over to the compiled heuristic)."""
    seen: list[Any] = []
    real = greedy.fast_weights

    def spy(weights: Any) -> Any:
        seen.append(weights)
        return real(weights)

    monkeypatch.setattr(greedy, "fast_weights", spy)
    return seen


def test_the_follow_term_counts_the_open_ends_the_hand_left_matches() -> None:
    g = _game()
    view = g.view(1)
    assert view["current_player"] == 1 and view["spinner"] == "6-6"
    legal = g.legal_actions()
    plays = [str(a) for a in legal if str(a).startswith("play")]
    assert plays == ["play 6-4 to 1", "play 6-4 to 2", "play 6-1 to 1", "play 6-1 to 2"]
    with_follow = greedy.values(view, legal)
    without = greedy.values(view, legal, greedy.WEIGHTS._replace(follow=0.0))
    gained = {k: round((with_follow[k] - without[k]) / greedy.WEIGHTS.follow, 9) for k in plays}
    # after 6-1 the open ends are 1 and the spinner's 6: the 1-0 follows the 1, the 6-4 the 6;
    # after 6-4 they are 4 (nothing left follows it) and 6 (the 6-1 does)
    assert gained == {"play 6-4 to 1": 1, "play 6-4 to 2": 1, "play 6-1 to 1": 2, "play 6-1 to 2": 2}


def test_greedy_reads_the_weights_at_each_call(monkeypatch: Any) -> None:
    """An experiment that swaps ``WEIGHTS`` changes greedy's own choices, not only the playouts."""
    g = _game()
    view, legal = g.view(1), g.legal_actions()
    seen = _weights_seen(monkeypatch)
    swapped = greedy.WEIGHTS._replace(follow=0.0)
    monkeypatch.setattr(greedy, "WEIGHTS", swapped)
    greedy.choose(view, legal, None)  # type: ignore[arg-type]
    assert seen and all(w is swapped for w in seen)


def test_the_searchs_playouts_leave_the_follow_term_out(monkeypatch: Any) -> None:
    """Greedy keeps a follow; the search's playouts, through the engine or on its fast path, play without it."""
    assert greedy.WEIGHTS.follow > 0
    assert greedy.WEIGHTS._replace(follow=0.0) == greedy.PLAYOUT_WEIGHTS
    g = _game()
    view, legal = g.view(1), g.legal_actions()
    seen = _weights_seen(monkeypatch)
    greedy.playout(view, legal, None)  # type: ignore[arg-type]
    assert seen and all(w == greedy.PLAYOUT_WEIGHTS for w in seen)
    seen.clear()
    plays = [a for a in legal if str(a).startswith("play")]
    rows = profile_twobox.outcomes(g, plays, 1, 7)
    assert rows and seen == [greedy.PLAYOUT_WEIGHTS]
