"""A small learned policy: a linear softmax over the legal actions, trained by REINFORCE.

:class:`LinearPolicy` scores each action index as ``W @ observation + b`` and chooses
among the legal ones only (illegal logits are masked out). :func:`train` improves it on
the Gymnasium environment against boneyard's bots with REINFORCE (returns-to-go of the
hand-end rewards, a running-mean baseline, batches of whole games). :class:`PolicyBot`
plays a saved policy as a boneyard bot (``boneyard arena GAME --bots
policy:weights=FILE.npz,random``): it sees only its seat's view and the legal actions,
like every bot. NumPy only: this runs in minutes on two CPU cores.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .encoding import Encoding, encoding


class LinearPolicy:
    """Masked softmax over ``W @ obs + b`` for one game's encoding."""

    def __init__(self, enc: Encoding, weights: np.ndarray | None = None, bias: np.ndarray | None = None) -> None:
        self.enc = enc
        shape = (enc.num_actions, enc.obs_size)
        self.w = np.zeros(shape, np.float64) if weights is None else np.asarray(weights, np.float64)
        self.b = np.zeros(enc.num_actions, np.float64) if bias is None else np.asarray(bias, np.float64)
        if self.w.shape != shape or self.b.shape != (enc.num_actions,):
            raise ValueError(f"weights must be {shape} and bias ({enc.num_actions},) for this encoding, "
                             f"got {self.w.shape} and {self.b.shape}")

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The action distribution: softmax of the logits over the legal indices (zero elsewhere)."""
        logits = self.w @ obs + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> int:
        """An action index: sampled with ``rng``, else the most likely legal one."""
        p = self.probabilities(obs, mask)
        if rng is None:
            return int(np.argmax(p))
        return int(rng.choice(len(p), p=p))

    def save(self, path: str | Path) -> None:
        """Write the weights with the game, player count and rules they were made for."""
        np.savez_compressed(
            path, w=self.w.astype(np.float32), b=self.b.astype(np.float32),
            game=self.enc.game_id, players=self.enc.players, rules=repr(sorted(self.enc.rules.items())),
        )

    @classmethod
    def load(cls, path: str | Path) -> LinearPolicy:
        """Read a policy saved by :meth:`save` (``ValueError`` naming the problem if it is not one)."""
        try:
            data = np.load(path, allow_pickle=False)
            game, players = str(data["game"]), int(data["players"])
            w, b = data["w"], data["b"]
        except (OSError, KeyError, ValueError) as err:
            raise ValueError(f"{path} is not a saved boneyard policy: {err}") from None
        rules = dict(_parse_rules(str(data["rules"])))
        return cls(encoding(game, players, rules), w, b)


def _parse_rules(text: str) -> list[tuple[str, Any]]:
    """The rules saved by :meth:`LinearPolicy.save` (a repr of sorted (name, value) pairs)."""
    import ast

    value = ast.literal_eval(text)
    if not isinstance(value, list):
        raise ValueError(f"bad rules in a saved policy: {text!r}")
    return [(str(k), v) for k, v in value]


def train(
    game: str,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    opponents: str = "random",
    seconds: float = 120.0,
    episodes: int | None = None,
    batch: int = 32,
    lr: float = 1.0,
    seed: int = 0,
    policy: LinearPolicy | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> tuple[LinearPolicy, list[float]]:
    """REINFORCE on the Gymnasium environment for ``seconds`` (or ``episodes`` games).

    The learner takes a random seat each game. Advantages (returns-to-go less a running
    baseline) are normalised per batch, so ``lr`` does not depend on the game's reward
    scale. Returns the policy and the mean return of each batch (the learning curve).
    """
    from .gym_env import BoneyardEnv

    env = BoneyardEnv(game, players, rules, opponents=opponents, seat="random")
    pol = policy or LinearPolicy(env.enc)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    curve: list[float] = []
    started = time.perf_counter()
    done = 0
    grad_w = np.zeros_like(pol.w)
    grad_b = np.zeros_like(pol.b)
    while (episodes is None or done < episodes) and (episodes is not None or time.perf_counter() - started < seconds):
        xs: list[np.ndarray] = []
        ps: list[np.ndarray] = []
        acts: list[int] = []
        gains: list[float] = []
        totals = []
        for _ in range(batch):
            obs, info = env.reset(seed=int(rng.integers(2**62)))
            steps_x, steps_p, steps_a, rewards = [], [], [], []
            over = False
            while not over:
                mask = info["action_mask"]
                p = pol.probabilities(obs, mask)
                a = int(rng.choice(len(p), p=p))
                steps_x.append(obs)
                steps_p.append(p)
                steps_a.append(a)
                obs, r, term, trunc, info = env.step(a)
                rewards.append(float(r))
                over = term or trunc
            to_go = np.cumsum(rewards[::-1])[::-1]
            xs += steps_x
            ps += steps_p
            acts += steps_a
            gains += list(to_go)
            totals.append(float(sum(rewards)))
            done += 1
        g = np.asarray(gains)
        adv = g - baseline
        baseline = 0.9 * baseline + 0.1 * float(g.mean())
        scale = adv.std() + 1e-8
        adv = adv / scale
        x = np.asarray(xs)
        onehot = -np.asarray(ps)
        onehot[np.arange(len(acts)), acts] += 1.0
        delta = onehot * adv[:, None]
        grad_w[:] = delta.T @ x / len(acts)
        grad_b[:] = delta.mean(axis=0)
        pol.w += lr * grad_w
        pol.b += lr * grad_b
        curve.append(float(np.mean(totals)))
        if progress is not None:
            progress(done, curve[-1])
    return pol, curve


class PolicyBot:
    """A saved policy as a boneyard bot: a :class:`LinearPolicy` or a Deep Monte-Carlo network.

    Both play greedily (the most likely legal action, or the highest Q-value); the kind is
    read from the file (:func:`boneyard.rl.dmc.is_dmc_file`), so ``policy:weights=FILE``
    takes either. With no file (``bot:policy``) it plays the network shipped in the
    package for its table's game and player count (:mod:`boneyard.rl.weights`), found at
    its first decision, when the view says which game it sits at; where none is shipped
    it refuses with a ``ValueError`` naming the game, the player count and what is shipped.
    """

    name = "policy"

    def __init__(self, weights: str = "") -> None:
        from . import dmc

        self.weights = weights
        self.policy: LinearPolicy | dmc.QNetwork | None = None
        if weights:
            self.policy = dmc.load(weights) if dmc.is_dmc_file(weights) else LinearPolicy.load(weights)

    def tables(self) -> list[tuple[str, int]]:
        """The games and player counts this bot plays: its file's, else those with a shipped network.

        What a lobby reads to offer ``bot:policy`` only where it can sit (``GET /api/bots/about``).
        """
        from .weights import shipped

        if self.policy is not None:
            return [(self.policy.enc.game_id, self.policy.enc.players)]
        return list(shipped())

    def refuses(self, game: str, players: int) -> str | None:
        """Why this bot cannot sit at a ``game`` table of ``players`` seats (``None``: it can).

        What a caller that seats bots (the server, the arena) asks before the first move, so
        that a table the bot has no network for is refused in words when it is made, not
        at its first decision.
        """
        from .weights import NoWeightsError, shipped_path

        if self.policy is not None:
            enc = self.policy.enc
            if (enc.game_id, enc.players) != (game, players):
                return f"{self.weights} plays {enc.game_id} with {enc.players} players, not {game} with {players}"
            return None
        try:
            shipped_path(game, players)
        except NoWeightsError as err:
            return str(err)
        return None

    def _network(self, view: dict[str, Any]) -> LinearPolicy | Any:
        """The policy for this view's table: the file given, else the network shipped for its game and size."""
        if self.policy is not None:
            return self.policy
        from .weights import load_shipped

        return load_shipped(view["game"], int(view["players"]))

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The policy's choice among the legal actions of this view (``ValueError`` for another game's table)."""
        policy = self._network(view)
        enc = policy.enc
        if view["game"] != enc.game_id or view["players"] != enc.players:
            raise ValueError(f"this policy plays {enc.game_id} with {enc.players} players, "
                             f"not {view['game']} with {view['players']} ({self.weights})")
        if not isinstance(policy, LinearPolicy):  # a Deep Monte-Carlo network, with its teacher if it has one
            return policy.choose(view, legal_actions, rng)
        legal = enc.legal_map(view, legal_actions)
        return legal[policy.act(enc.observe(view), enc.mask(legal))]
