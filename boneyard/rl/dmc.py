"""Deep Monte-Carlo self-play (DouZero's method) and its Q-network, in NumPy.

Every seat of a table plays the same :class:`QNetwork` epsilon-greedily; each decision's
target is the deciding seat's own return from that decision to the episode's end (the
sum of its hand-end rewards, no bootstrapping), and the network is fitted to those
targets by minibatch mean squared error with Adam. That is all of Deep Monte-Carlo: no
value bootstrapping, no policy gradient, so it is stable with the noisy, delayed rewards
of trick and domino games, and it needs only CPUs.

The network is a shared trunk over the observation with one output per action index
(``Q(obs, ·) = MLP(obs)``), not DouZero's ``MLP([obs, action features])``. Boneyard's
actions are indices with no features beyond their one-hot, and with a one-hot the
concatenated form only adds a per-action bias to the first layer while costing one
forward pass per legal action; the head per action costs one pass per decision and
still lets every action read the shared features. Only the chosen action's output is
fitted at each decision.

Episodes are seeded one by one from the run's seed, and the weights change only between
rounds of a fixed number of episodes, so a run's weights depend on its seed and length,
not on how many worker processes played the episodes (``workers``: local processes,
started with ``spawn``).

A **teacher** (``teacher="greedy"``, any bot) makes the network a correction of that
bot rather than a policy of its own: at every decision the network plays the teacher's
choice unless its Q-value of another legal action is higher by more than ``margin``
(in target units, where the returns' spread is 1). Self-play then plays that combined
policy, so the Q-values learned are those of playing on as it does, and each correction
the network keeps is one step of policy improvement over what it plays now. It starts at
the teacher's strength instead of random play's, which matters in games whose hands
are long (Montana, two-box), where minutes of plain self-play stay far behind greedy.
The saved file names its teacher, and the ``policy`` bot plays it the same way.

:func:`train` runs it; :func:`load` reads a saved network (refusing one made for another
game, player count or encoding); the ``policy`` bot (:mod:`boneyard.rl.policy`) plays a
saved file; ``boneyard train GAME`` is the command.
"""

from __future__ import annotations

import ast
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import Bot
from ..bots.spec import parse_bot_spec
from .core import Table
from .encoding import Encoding, encoding
from .facts import rules_with_hands

#: What a saved network file says it is (``kind`` in the ``.npz``).
KIND = "dmc"
_F32 = np.float32


class QNetwork:
    """A ReLU multilayer perceptron from an observation to one Q-value per action index."""

    def __init__(self, enc: Encoding, hidden: Sequence[int] = (256, 256), seed: int = 0,
                 params: Sequence[np.ndarray] | None = None, target_scale: float = 1.0,
                 teacher: str | None = None, margin: float = 0.0) -> None:
        self.enc = enc
        #: The bot this network corrects (a bot spec such as ``"greedy"``), or ``None``: it plays alone.
        self.teacher = teacher or None
        #: How much higher (in target units) another action's Q-value must be to overrule the teacher.
        self.margin = float(margin)
        self._teacher_bot: Bot | None = None
        self.sizes = [enc.obs_size, *[int(h) for h in hidden], enc.num_actions]
        #: Q-values are returns times this (fixed at the start of training, so targets are near unit size).
        self.target_scale = float(target_scale)
        if params is None:
            rng = np.random.default_rng(seed)
            made: list[np.ndarray] = []
            for n_in, n_out in zip(self.sizes[:-1], self.sizes[1:], strict=True):
                made.append((rng.standard_normal((n_in, n_out)) * math.sqrt(2.0 / n_in)).astype(_F32))
                made.append(np.zeros(n_out, _F32))
            made[-2] *= 0.1  # small initial Q-values: no action is preferred before any evidence
            self.params = made
        else:
            self.params = [np.asarray(p, _F32) for p in params]
            shapes = [p.shape for p in self.params]
            want = [s for a, b in zip(self.sizes[:-1], self.sizes[1:], strict=True) for s in ((a, b), (b,))]
            if shapes != want:
                raise ValueError(f"network layers {shapes} do not fit this encoding, which needs {want}")

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """Q-values of a batch of observations ``(B, obs_size)`` and each layer's input (for :meth:`gradients`)."""
        inputs = [x]
        h = x
        last = len(self.params) // 2 - 1
        for i in range(0, len(self.params), 2):
            h = h @ self.params[i] + self.params[i + 1]
            if i // 2 < last:
                h = np.maximum(h, 0.0)
                inputs.append(h)
        return h, inputs

    def q_values(self, obs: np.ndarray) -> np.ndarray:
        """The Q-value of every action index for one observation (illegal ones included: mask them)."""
        return self.forward(obs[None, :])[0][0]

    def act(self, obs: np.ndarray, mask: np.ndarray, prefer: int | None = None) -> int:
        """The legal index with the highest Q-value (the lowest index among equals).

        With ``prefer`` (the teacher's index), that one unless the best is higher by more
        than :attr:`margin`.
        """
        q = np.where(mask > 0, self.q_values(obs), -np.inf)
        best = int(np.argmax(q))
        if prefer is None or prefer == best or q[best] - q[prefer] > self.margin:
            return best
        return prefer

    def teacher_bot(self) -> Bot | None:
        """The teacher as a bot (made at the first call), or ``None`` for a network that plays alone."""
        if self.teacher is not None and self._teacher_bot is None:
            self._teacher_bot = parse_bot_spec(self.teacher).make()
        return self._teacher_bot

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The network's action in ``view``, as a bot's ``choose``: what the policy bot and the search call.

        With a teacher, the teacher's choice unless the network overrules it (see
        :meth:`act`); a teacher's action the encoding cannot name (an unlisted Rummikub
        rearrangement) is played as it is. ``rng`` is the teacher's; the network plays
        greedily.
        """
        enc = self.enc
        legal = enc.legal_map(view, legal_actions)
        prefer = None
        teacher = self.teacher_bot()
        if teacher is not None:
            chosen, prefer = teacher_index(teacher, view, legal_actions, legal, rng)
            if prefer is None:
                return chosen
        return legal[self.act(enc.observe(view), enc.mask(legal), prefer)]

    def gradients(self, x: np.ndarray, actions: np.ndarray, targets: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """The loss ``mean((Q(x, a) - target)^2)`` over the batch and its gradient for every parameter."""
        q, inputs = self.forward(x)
        n = len(actions)
        rows = np.arange(n)
        err = q[rows, actions] - targets
        loss = float(np.mean(err * err))
        delta = np.zeros_like(q)
        delta[rows, actions] = (2.0 / n) * err
        return loss, self._backward(inputs, delta)

    def gradients_all(self, x: np.ndarray, targets: np.ndarray, weights: np.ndarray,
                      base: np.ndarray | None = None) -> tuple[float, list[np.ndarray]]:
        """The weighted loss over every output, ``sum(w (Q(x) - target)^2) / sum(w)``, and its gradient.

        ``targets`` and ``weights`` have one row per observation and one column per action
        index; a weight of 0 leaves that output out (an illegal or unmeasured action). With
        ``base`` (an action index per row) the values fitted are differences from that
        action's, ``Q(x, a) - Q(x, base)``: what a network taught each legal action's
        advantage over its teacher's choice (:mod:`boneyard.rl.improve`) is fitted to, since
        which action the teacher picks is not in the observation.
        """
        q, inputs = self.forward(x)
        total = float(weights.sum())
        if total <= 0:
            return 0.0, [np.zeros_like(p) for p in self.params]
        rows = np.arange(len(q))
        values = q if base is None else q - q[rows, base][:, None]
        err = (values - targets) * weights
        loss = float(np.sum(err * (values - targets)) / total)
        delta = (2.0 / total) * err
        if base is not None:
            np.subtract.at(delta, (rows, base), delta.sum(axis=1))
        return loss, self._backward(inputs, delta)

    def _backward(self, inputs: list[np.ndarray], delta: np.ndarray) -> list[np.ndarray]:
        """Every parameter's gradient from the loss's gradient at the outputs (``delta``) and each layer's input."""
        grads: list[np.ndarray] = [np.empty(0, _F32)] * len(self.params)
        for layer in range(len(self.params) // 2 - 1, -1, -1):
            w = self.params[2 * layer]
            grads[2 * layer] = (inputs[layer].T @ delta).astype(_F32)
            grads[2 * layer + 1] = delta.sum(axis=0).astype(_F32)
            if layer:
                delta = (delta @ w.T) * (inputs[layer] > 0)
        return grads

    def save(self, path: str | Path) -> None:
        """Write the network with the game, players, rules and encoding sizes it was made for."""
        enc = self.enc
        arrays: dict[str, Any] = {f"p{i}": p for i, p in enumerate(self.params)}
        np.savez_compressed(
            path, kind=KIND, game=enc.game_id, players=enc.players, rules=repr(sorted(enc.rules.items())),
            obs_size=enc.obs_size, num_actions=enc.num_actions, hidden=np.asarray(self.sizes[1:-1], np.int64),
            target_scale=self.target_scale, layers=len(self.params), teacher=self.teacher or "",
            margin=self.margin, **arrays,
        )


def teacher_index(teacher: Bot, view: dict[str, Any], legal_actions: Sequence[Any], legal: Mapping[int, Any],
                  rng: random.Random) -> tuple[Any, int | None]:
    """The teacher's action in ``view`` and its index in ``legal`` (``None``: the encoding cannot name it)."""
    chosen = teacher.choose(view, legal_actions, rng)
    for i, action in legal.items():
        if action == chosen:
            return chosen, i
    return chosen, None


def is_dmc_file(path: str | Path) -> bool:
    """Whether ``path`` is a network saved by :meth:`QNetwork.save` (the policy bot reads both kinds)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return "kind" in data.files and str(data["kind"]) == KIND
    except (OSError, ValueError):
        return False


def load(path: str | Path) -> QNetwork:
    """Read a network saved by :meth:`QNetwork.save`.

    ``ValueError`` naming the problem when the file is not one, or when its sizes do not
    match the encoding the running code makes for its game, players and rules (a file made
    before an encoding changed, or for another one, would otherwise play nonsense).
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            if "kind" not in data.files or str(data["kind"]) != KIND:
                raise ValueError("it has no Deep Monte-Carlo network in it")
            game, players = str(data["game"]), int(data["players"])
            rules = dict(ast.literal_eval(str(data["rules"])))
            obs_size, num_actions = int(data["obs_size"]), int(data["num_actions"])
            hidden = [int(h) for h in data["hidden"]]
            params = [data[f"p{i}"] for i in range(int(data["layers"]))]
            scale = float(data["target_scale"])
            teacher = str(data["teacher"]) if "teacher" in data.files else ""
            margin = float(data["margin"]) if "margin" in data.files else 0.0
    except (OSError, KeyError, ValueError, SyntaxError) as err:
        raise ValueError(f"{path} is not a saved boneyard DMC network: {err}") from None
    enc = encoding(game, players, rules)
    if (enc.obs_size, enc.num_actions) != (obs_size, num_actions):
        raise ValueError(
            f"{path} was made for a {game} encoding of {obs_size} observations and {num_actions} actions; "
            f"this version's {game} encoding for {players} players has {enc.obs_size} and {enc.num_actions}: "
            "train it again")
    if teacher:
        try:
            parse_bot_spec(teacher)
        except ValueError as err:
            raise ValueError(f"{path} names a teacher this version cannot make: {err}") from None
    return QNetwork(enc, hidden, params=params, target_scale=scale, teacher=teacher, margin=margin)


class Adam:
    """Adam (Kingma and Ba) over a list of arrays, updated in place."""

    def __init__(self, params: list[np.ndarray], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8) -> None:
        self.params = params
        self.lr, self.b1, self.b2, self.eps = lr, betas[0], betas[1], eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: Sequence[np.ndarray]) -> None:
        """One update of every parameter from its gradient."""
        self.t += 1
        c1 = 1.0 - self.b1 ** self.t
        c2 = 1.0 - self.b2 ** self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= self.b1
            m += (1.0 - self.b1) * g
            v *= self.b2
            v += (1.0 - self.b2) * (g * g)
            p -= (self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(_F32)


@dataclass
class Samples:
    """Decisions of self-play episodes: observations, chosen indices and the deciders' returns."""

    obs: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    episodes: int = 0

    def extend(self, other: Samples) -> None:
        """Append another batch's decisions after these (order kept: runs stay reproducible)."""
        self.obs += other.obs
        self.actions += other.actions
        self.returns += other.returns
        self.episodes += other.episodes


#: What a decision's target is: the deciding seat's rewards to the end, or its share of the win.
OBJECTIVES = ("score", "win")


def play_episode(net: QNetwork, seed: int, epsilon: float, objective: str = "score") -> Samples:
    """One self-play game: every seat plays ``net`` epsilon-greedily; each decision with its seat's return-to-go.

    ``objective="score"``: the return is the seat's normalized rewards from the decision to
    the end. ``"win"`` (DouZero's WP): the seat's share of the win at the end (1, a tied
    winner's fraction, or 0; partners win together), which is what the arena counts.
    ``seed`` fixes the deal and the exploration. A decision with one legal action is
    not kept (there is nothing to learn from it). A network with a teacher plays as
    :meth:`QNetwork.choose` does (the teacher's choice unless overruled); a teacher's
    action the encoding cannot name is played but not kept.
    """
    enc = net.enc
    rng = np.random.default_rng(seed)
    table = Table(enc, int(rng.integers(2**62)), reward="normalized")
    teacher = net.teacher_bot()
    bot_rng = random.Random(int(rng.integers(2**62))) if teacher is not None else None
    earned = [0.0] * enc.players  # each seat's rewards so far
    seats: list[int] = []
    before: list[float] = []
    out = Samples(episodes=1)
    while not table.over:
        seat = int(table.seat)  # type: ignore[arg-type]  # not over: a seat is to act
        o = table.observation(seat)
        obs, mask = o["observation"], o["action_mask"]
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            index = int(legal[0])
        else:
            if rng.random() < epsilon:
                index = int(rng.choice(legal))
            elif teacher is None:
                index = net.act(obs, mask)
            else:
                assert bot_rng is not None
                chosen, taught = teacher_index(teacher, table.view(seat), table.game.legal_actions(), table.legal(),
                                               bot_rng)
                if taught is None:  # outside the action space: played, not learned from
                    _earn(earned, table.play_quiet(chosen))
                    continue
                index = net.act(obs, mask, taught)
            out.obs.append(obs)
            out.actions.append(index)
            seats.append(seat)
            before.append(earned[seat])
        _earn(earned, table.play_index(index))
    if objective == "win":
        winners = list(table.game.winners)
        share = [winners.count(s) / len(winners) if winners else 0.0 for s in range(enc.players)]
        out.returns = [share[s] for s in seats]
    else:
        out.returns = [earned[s] - b for s, b in zip(seats, before, strict=True)]
    return out


def _earn(earned: list[float], rewards: list[float] | None) -> None:
    """Add a step's rewards (``None``: none paid) to every seat's total."""
    if rewards is not None:
        for s, r in enumerate(rewards):
            earned[s] += r


#: A worker's share of a round: game, players, rules, widths, weights, the teacher (or None)
#: and its margin, epsilon, objective, and the episodes' seeds.
Job = tuple[str, int, dict[str, Any], list[int], list[np.ndarray], str | None, float, float, str, list[int]]


def _play_episodes(job: Job) -> Samples:
    """A worker's share of a round: the episodes of its seeds with the given weights (top level: picklable)."""
    game, players, rules, hidden, params, teacher, margin, epsilon, objective, seeds = job
    net = QNetwork(encoding(game, players, rules), hidden, params=params, teacher=teacher, margin=margin)
    out = Samples()
    for s in seeds:
        out.extend(play_episode(net, s, epsilon, objective))
    return out


def win_rate_vs_random(net: QNetwork, games: int, seed: int = 0) -> float:
    """The network's share of wins (greedy, no exploration) against random legal moves, seats rotated.

    Seatings follow the arena's (partners together in team games), so an even match is
    0.5. A quick check for the progress display; :func:`arena` gives the measured figure.
    """
    from .. import api
    from ..bots.arena import rotation_count, seating

    enc = net.enc
    teams = bool(api.game_info(enc.game_id)["teams"])
    rotations = rotation_count(enc.players, 2, teams)
    rng = np.random.default_rng(seed)
    total = 0.0
    for g in range(games):
        seats = seating(enc.players, 2, g % rotations, teams)
        table = Table(enc, int(rng.integers(2**62)))
        bot_rng = random.Random(g)
        while not table.over:
            seat = int(table.seat)  # type: ignore[arg-type]
            if seats[seat] == 0:
                table.play_quiet(net.choose(table.view(seat), table.game.legal_actions(), bot_rng))
            else:
                table.play_index(int(rng.choice(sorted(table.legal()))))
        winners = list(table.game.winners)
        total += sum(1 for w in winners if seats[w] == 0) / len(winners) if winners else 0.0
    return total / games


class Replay:
    """The latest decisions (observation, index, scaled target) in fixed arrays, the oldest overwritten first."""

    def __init__(self, size: int, obs_size: int) -> None:
        self.obs = np.zeros((size, obs_size), _F32)
        self.actions = np.zeros(size, np.int64)
        self.targets = np.zeros(size, _F32)
        self.next = 0
        self.filled = 0

    def add(self, obs: np.ndarray, actions: np.ndarray, targets: np.ndarray) -> int:
        """Store a round's decisions; returns how many the buffer now holds."""
        size = len(self.actions)
        for start in range(0, len(actions), size):  # a round larger than the buffer keeps its latest
            o, a, t = obs[start:start + size], actions[start:start + size], targets[start:start + size]
            where = (self.next + np.arange(len(a))) % size
            self.obs[where], self.actions[where], self.targets[where] = o, a, t
            self.next = int((self.next + len(a)) % size)
            self.filled = min(size, self.filled + len(a))
        return self.filled


@dataclass
class Progress:
    """What :func:`train` reports after each round (the command's progress bar shows it)."""

    episodes: int
    decisions: int
    seconds: float
    loss: float
    win_rate: float | None  # against random, when an evaluation just ran


def train(
    game: str,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    hands: int | None = 1,
    seconds: float = 60.0,
    episodes: int | None = None,
    workers: int = 1,
    seed: int = 0,
    hidden: Sequence[int] = (256, 256),
    lr: float = 1e-3,
    batch: int = 256,
    round_episodes: int = 32,
    epsilon: float = 0.05,
    objective: str = "score",
    replay: int = 20_000,
    passes: float = 2.0,
    teacher: str | None = None,
    margin: float = 0.1,
    eval_every: float = 30.0,
    eval_games: int = 40,
    progress: Callable[[Progress], None] | None = None,
) -> QNetwork:
    """Deep Monte-Carlo self-play for ``seconds`` of wall time (or exactly ``episodes`` games).

    Each round plays ``round_episodes`` seeded games with the current weights (split over
    ``workers`` processes) and adds their decisions to a buffer of the latest ``replay``
    ones; the network then takes ``passes`` times as many minibatches of ``batch`` as the
    round's decisions fill, drawn from the buffer (the games cost far more than the
    updates, so each decision is used more than once). ``objective``: see
    :func:`play_episode`. ``hands=1`` (the default) trains on one-hand games,
    short episodes with a clear signal; the network then plays whole games too, since the
    encoding does not depend on the hand limit. With ``episodes`` the run is exactly
    reproducible: the same seed gives the same weights, whatever ``workers`` is.
    Every ``eval_every`` seconds, ``eval_games`` games against random are played for the
    progress report (0 turns that off). ``teacher`` (a bot spec such as ``"greedy"``)
    makes the network a correction of that bot, overruling it by more than ``margin``
    (see the module's docstring); ``ValueError`` names an unknown bot or a negative margin.
    """
    from .. import api

    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if margin < 0:
        raise ValueError(f"the margin by which the network overrules its teacher must be 0 or more, got {margin}")
    if teacher is not None:
        parse_bot_spec(teacher)  # an unknown bot or a bad parameter is named now, not in a worker
    count = players or int(api.game_info(game)["players"]["default"])
    full_rules = rules_with_hands(rules, hands)
    enc = encoding(game, count, full_rules)
    net = QNetwork(enc, hidden, seed=seed, teacher=teacher, margin=margin)
    opt = Adam(net.params, lr)
    seeds = np.random.SeedSequence(seed)
    shuffle = np.random.default_rng(seeds.spawn(1)[0])
    started = time.perf_counter()
    last_eval = started
    done = decisions = 0
    buffer = Replay(max(replay, 1), enc.obs_size)
    pool = None
    if workers > 1:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        while (done < episodes) if episodes is not None else (time.perf_counter() - started < seconds):
            n = round_episodes if episodes is None else min(round_episodes, episodes - done)
            round_seeds = [int(s.generate_state(1)[0]) for s in seeds.spawn(n)]
            params = [p.copy() for p in net.params]
            samples = Samples()
            if pool is None:
                samples = _play_episodes((game, count, full_rules, list(hidden), params, teacher, margin, epsilon,
                                          objective, round_seeds))
            else:
                # Contiguous shares, read back in order: the same samples, in the same order, as one process.
                size = -(-n // workers)
                jobs: list[Job] = [
                    (game, count, full_rules, list(hidden), params, teacher, margin, epsilon, objective,
                     round_seeds[i:i + size])
                    for i in range(0, n, size)
                ]
                for part in pool.map(_play_episodes, jobs):
                    samples.extend(part)
            done += n
            if not samples.actions:
                continue
            returns = np.asarray(samples.returns, _F32)
            if decisions == 0:  # the scale is fixed by the first round, so targets stay comparable
                spread = float(returns.std())
                net.target_scale = 1.0 / spread if spread > 1e-6 else 1.0
            a = np.asarray(samples.actions, np.int64)
            filled = buffer.add(np.asarray(samples.obs, _F32), a, returns * _F32(net.target_scale))
            losses = []
            for _ in range(max(1, round(passes * len(a) / batch))):
                pick = shuffle.integers(0, filled, min(batch, filled))
                loss, grads = net.gradients(buffer.obs[pick], buffer.actions[pick], buffer.targets[pick])
                opt.step(grads)
                losses.append(loss)
            decisions += len(a)
            rate = None
            now = time.perf_counter()
            if eval_games and eval_every and (now - last_eval >= eval_every):
                rate = win_rate_vs_random(net, eval_games, seed=done)
                last_eval = time.perf_counter()
            if progress is not None:
                progress(Progress(done, decisions, now - started, float(np.mean(losses)), rate))
    finally:
        if pool is not None:
            pool.shutdown()
    return net


def arena(path: str | Path, opponent: str, games: int = 400, seed: int = 0, workers: int = 1,
          rules: Mapping[str, Any] | None = None, players: int | None = None,
          progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The saved network as the ``policy`` bot against ``opponent`` in the duplicate arena: the arena's report.

    ``rules`` default to the ones the network was trained with (a one-hand game for a
    ``hands=1`` run); the policy bot's row has the win rate and its 95% interval.
    """
    from ..bots.arena import Arena, parse_bots

    net = load(path)
    specs = parse_bots(f"policy:weights={path},{opponent}")
    run = Arena(net.enc.game_id, specs, games=games, seed=seed, workers=workers,
                players=players or net.enc.players, rules=dict(net.enc.rules if rules is None else rules))
    return run.run(progress=progress)
