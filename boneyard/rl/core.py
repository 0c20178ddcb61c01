"""One running game as the RL adapters see it: legal indices, views, observations, hand-end rewards.

Every adapter (PettingZoo, Gymnasium, OpenSpiel) drives the engine through a
:class:`Table`. It reads only the public contract: ``view(seat)``, ``legal_actions()``,
``apply``, ``scores``, ``hand_number`` and ``is_over``.

Rewards: when a hand ends (the hand number moves on) or the game does, every seat
receives its score change since the hand began (the first hand: since the scores before
the deal, ``game_info``'s ``start_scores``), scaled by the game's score bounds and
negated where lower scores are better (:meth:`boneyard.rl.facts.Facts.rewards`; with
``reward="score"`` the change in points, unscaled). At all other steps the rewards are
zero. Every game ends within its ``max_game_length`` actions (the rules' ``max_hands``),
so no adapter ever truncates one.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import api
from ..tiles import Tile
from .encoding import Encoding


class Table:
    """A game in progress with its encoding."""

    def __init__(
        self,
        enc: Encoding,
        seed: int,
        deck: Sequence[str | Tile] | None = None,
        dealer: int | None = None,
        game: Any = None,
        reward: str = "normalized",
    ) -> None:
        self.enc = enc
        #: The reward scale: ``"normalized"`` (by the score bounds) or ``"score"`` (points).
        self.reward = reward
        self.game = game if game is not None else api.new_game(
            enc.game_id, players=enc.players, seed=seed, rules=enc.rules, deck=deck, dealer=dealer
        )
        self.hand = self.game.hand_number
        # Rewards count from the scores before the first deal, so that points a deal
        # scores (two-box's spinner count) are paid too; a game given (a sampled world, see
        # with_game) counts from now.
        self.hand_scores: list[float] = list(enc.facts.start_scores) if game is None else list(self.game.scores)
        self.steps = 0
        self._legal: dict[int, Any] | None = None
        # The last view made in this position, and its seat (-1: none yet).
        self._view_seat = -1
        self._view: dict[str, Any] = {}
        self._position()

    def _position(self) -> None:
        """Read who is to act and whether the game is over, once per position (the adapters ask often)."""
        self.over: bool = bool(self.game.is_over)
        #: The seat to act, ``None`` once over.
        self.seat: int | None = None if self.over else int(self.game.current_player)

    def legal(self) -> dict[int, Any]:
        """Index -> legal action of the seat to act (empty once over)."""
        if self._legal is None:
            seat = self.seat
            if seat is None:
                self._legal = {}
            else:
                self._legal = self.enc.legal_map(self.view(seat), self.game.legal_actions())
        return self._legal

    def mask(self, seat: int) -> np.ndarray:
        """The legal-action mask of ``seat`` (all zeros unless it is to act)."""
        if seat != self.seat:
            return np.zeros(self.enc.num_actions, dtype=np.int8)
        return self.enc.mask(self.legal())

    def view(self, seat: int) -> dict[str, Any]:
        """``game.view(seat)``, kept until the position changes or another seat is asked (read-only: shared)."""
        if seat == self._view_seat:
            return self._view
        view = self._view = self.game.view(seat)
        self._view_seat = seat
        return view

    def observe(self, seat: int) -> np.ndarray:
        """The observation of ``seat``, from its view only (a new array each call: callers may keep or change it)."""
        return self.enc.observe(self.view(seat))

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        """PettingZoo's observation dict of ``seat``: its ``observation`` and its ``action_mask``.

        The two are made together, from one view, because every step of an AEC loop asks
        for both (new arrays each call).
        """
        view = self.view(seat)
        if seat != self.seat:
            return self.enc.observation(view, None)
        legal = self._legal
        if legal is None:
            obs, self._legal = self.enc.observation_and_legal(view, self.game.legal_actions())
            return obs
        return self.enc.observation(view, legal)

    def observe_list(self, seat: int) -> list[float]:
        """The observation of ``seat`` as a new Python list (OpenSpiel's tensor form)."""
        return self.enc.observe_list(self.view(seat))

    def play(self, index: int) -> list[float]:
        """Play the legal action of ``index``; returns every seat's reward for this step.

        ``ValueError`` (the game unchanged) when the index is not legal now.
        """
        rewards = self.play_index(index)
        return [0.0] * self.enc.players if rewards is None else rewards

    def play_index(self, index: int) -> list[float] | None:
        """:meth:`play`, but ``None`` in place of all-zero rewards (most steps: no list is made)."""
        legal = self._legal
        if legal is None:
            legal = self.legal()
        # The common case (a plain int naming a legal action) is looked up directly.
        action = legal.get(index) if type(index) is int else None
        if action is None:
            i = self.enc.check_index(index)
            if i not in legal:
                names = ", ".join(f"{k} ({legal[k]})" for k in sorted(legal))
                raise ValueError(f"action {i} ({self.enc.action_name(i)}) is not legal now; legal: {names}")
            action = legal[i]
        return self.play_quiet(action)

    def play_action(self, action: Any) -> list[float]:
        """Play an engine action (the bots' way: any legal action, listed or not); every seat's reward.

        ``IllegalAction`` (the game unchanged) when it is not legal.
        """
        rewards = self.play_quiet(action)
        return [0.0] * self.enc.players if rewards is None else rewards

    def play_quiet(self, action: Any) -> list[float] | None:
        """:meth:`play_action`, but ``None`` in place of all-zero rewards (most steps: no list is made)."""
        g = self.game
        g.apply(action)
        self._legal = None
        self._view_seat = -1
        self.steps += 1
        if g.is_over:
            self.over = True
            self.seat = None
            return self._rewards()
        self.seat = int(g.current_player)
        return None if g.hand_number == self.hand else self._rewards()

    def _rewards(self) -> list[float]:
        """Every seat's reward at a hand's or the game's end (the hand's score changes, scaled)."""
        g = self.game
        scores = list(g.scores)
        out = self.enc.facts.rewards(self.hand_scores, scores, self.reward)
        self.hand = g.hand_number
        self.hand_scores = scores
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        # The engine's own clone is much faster than a generic deep copy; the encoding is shared.
        new = self.with_game(self.game.clone())
        new._legal = None if self._legal is None else dict(self._legal)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its encoding, game and reward bookkeeping (a compiled class is remade through a function)."""
        return (_remade, (self.enc, self.game, self.reward, self.hand, self.hand_scores, self.steps))

    def with_game(self, game: Any) -> Table:
        """A table holding ``game`` (a sampled world) in this table's place: same steps and hand bookkeeping."""
        return _remade(self.enc, game, self.reward, self.hand, self.hand_scores, self.steps)

    def render(self) -> str:
        """The table as a spectator sees it, in text (the terminal front end's renderer)."""
        from rich.console import Console

        from ..cli.views import render
        from ..words import words

        out = io.StringIO()
        console = Console(file=out, width=100, color_system=None, force_terminal=False)
        view = self.game.view(None)
        console.print(render(view))
        console.print("scores: " + " ".join(str(s) for s in self.game.scores))
        events = view["events"]
        if events:
            names = [f"player_{seat}" for seat in range(self.enc.players)]  # the agents' names
            console.print("last: " + words(self.enc.game_id, names).tell(events[-1]))
        return out.getvalue()


def _remade(enc: Encoding, game: Any, reward: str, hand: int, hand_scores: list[float], steps: int) -> Table:
    """A table of ``game`` with the given reward bookkeeping: a pickled one made again, a copy or a sampled world.

    Field by field, since a compiled class has no ``__dict__`` to copy.
    """
    table = Table(enc, 0, game=game, reward=reward)
    table.hand = hand
    table.hand_scores = list(hand_scores)
    table.steps = steps
    return table
