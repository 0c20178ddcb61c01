"""One learner seat at a table, boneyard's bots at the others: the single-agent environment's play.

:class:`Lane` is what :class:`boneyard.rl.gym_env.BoneyardEnv` does between Gymnasium's
calls: deal a game and let the bots play to the learner's turn, play the learner's
index, then the bots' answers, and add up the learner's rewards meanwhile. The batched
environment (:mod:`boneyard.rl.vector`) holds N lanes and steps them all in
:func:`step_lanes`, one loop writing straight into the batch's arrays. Both
environments therefore run this one definition, and mypyc compiles it with the table
(:mod:`boneyard.rl.core`) and the encodings (``hatch_build.py``'s ``ENGINE_SOURCES``),
so the batch's loop over its tables is compiled code, not Python.

It reads only the public contract through :class:`~boneyard.rl.core.Table` and each
bot's ``choose(view, legal_actions, rng)``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..bots import Bot
from .core import Table
from .encoding import Encoding


class Lane:
    """One seat of a game played by the learner; bots play the others."""

    def __init__(self, enc: Encoding, bots: list[Bot], seat: int, random_seat: bool, illegal_penalty: float,
                 reward: str) -> None:
        self.enc = enc
        #: The bots of the other seats, in turn order from the learner's left.
        self.bots = bots
        #: The learner's seat (drawn at every deal when ``random_seat``).
        self.seat = seat
        self.random_seat = random_seat
        self.illegal_penalty = illegal_penalty
        self.reward = reward
        self.table: Table | None = None
        self.bot_rng = random.Random(0)
        #: Set by an illegal action, which ends the episode with the game unfinished.
        self.ended = False
        # The learner's rewards from hands the bots finished before its first turn: paid
        # with its first step's reward, since Gymnasium's reset() returns none.
        self.carried = 0.0

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) field by field: a compiled class is remade through a function."""
        return (_remade, (self.enc, self.bots, self.seat, self.random_seat, self.illegal_penalty, self.reward,
                          self.table, self.bot_rng, self.ended, self.carried))

    def deal(self, rng: Any, deck: Sequence[Any] | None, dealer: int | None) -> int:
        """Deal a game from ``rng`` (a NumPy generator) and let the bots play to the learner's first decision.

        Returns how many games it dealt and skipped because the bots ended them before
        the learner could decide: not an episode, since ``reset()`` can return neither a
        reward nor the end (a one-hand Rounce where all fold to the learner's deal).
        ``ValueError`` when a given ``deck`` ends that way (dealing it again would too).
        """
        if self.random_seat:
            self.seat = int(rng.integers(self.enc.players))
        self.bot_rng = random.Random(int(rng.integers(2**62)))
        self.ended = False
        skipped = 0
        while True:
            table = Table(self.enc, int(rng.integers(2**62)), deck=deck, dealer=dealer, reward=self.reward)
            self.table = table
            self.carried = self.bots_play()
            if not table.over:
                return skipped
            skipped += 1
            if deck is not None:
                raise ValueError("the given deck ends the game before the learner's first decision")

    def advance(self, index: int) -> tuple[float, bool, str | None]:
        """Play the learner's index and the bots' answers: (reward, terminated, the illegal action named or None).

        An index that is not legal now ends the episode (``terminated``) with
        ``illegal_penalty`` and the game unchanged.
        """
        table = self.table
        assert table is not None
        if index not in table.legal():
            self.ended = True
            return self.illegal_penalty, True, f"{index} ({self.enc.action_name(self.enc.check_index(index))})"
        paid = table.play_index(index)
        reward = self.carried + (0.0 if paid is None else paid[self.seat])
        self.carried = 0.0
        reward += self.bots_play()
        return reward, table.over, None

    def bots_play(self) -> float:
        """The bots act until the learner's turn or the end; the learner's rewards meanwhile."""
        table = self.table
        assert table is not None
        me = self.seat
        players = self.enc.players
        total = 0.0
        while not table.over:
            seat = table.seat
            assert seat is not None
            if seat == me:
                break
            bot = self.bots[(seat - me - 1) % players]
            chosen = bot.choose(table.view(seat), table.game.legal_actions(), self.bot_rng)
            paid = table.play_quiet(chosen)
            if paid is not None:
                total += paid[me]
        return total


def _remade(enc: Encoding, bots: list[Bot], seat: int, random_seat: bool, illegal_penalty: float, reward: str,
            table: Table | None, bot_rng: random.Random, ended: bool, carried: float) -> Lane:
    """A pickled :class:`Lane` made again (``Lane.__reduce__``): the same table, bots and random streams."""
    lane = Lane(enc, bots, seat, random_seat, illegal_penalty, reward)
    lane.table = table
    lane.bot_rng = bot_rng
    lane.ended = ended
    lane.carried = carried
    return lane


def step_lanes(lanes: list[Lane], envs: list[Any], picks: list[int], autoreset: Any, rewards: Any,
               terminations: Any, obs: Any, masks: Any, seats: Any, hands: Any) -> None:
    """One step of a batch: lane ``i`` plays ``picks[i]`` (or, flagged in ``autoreset``, is dealt anew).

    ``envs[i]`` deals lane ``i`` again from its own generator (its ``_deal``), exactly as
    the single environment's ``reset`` would. The NumPy arrays are written in place:
    each lane's reward, end, observation, mask, seat and hand number.
    """
    for i in range(len(lanes)):
        lane = lanes[i]
        if autoreset[i]:
            envs[i]._deal({})
            rewards[i] = 0.0
            terminations[i] = False
        else:
            reward, ended, _illegal = lane.advance(picks[i])
            rewards[i] = reward
            terminations[i] = ended
        write_lane(lane, i, obs, masks, seats, hands)


def write_lane(lane: Lane, i: int, obs: Any, masks: Any, seats: Any, hands: Any) -> None:
    """Lane ``i``'s observation, mask, seat and hand number, into row ``i`` of the batch's arrays."""
    table = lane.table
    assert table is not None
    seat = lane.seat
    obs[i] = table.observe(seat)
    masks[i] = table.mask(seat)
    seats[i] = seat
    hands[i] = table.game.hand_number
