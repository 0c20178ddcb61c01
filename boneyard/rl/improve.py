"""A network taught by the search: one step of policy improvement over greedy, learned.

Deep Monte-Carlo (:mod:`boneyard.rl.dmc`) learns from one game's return per decision, a
signal so noisy that minutes of self-play do not find the few moves where greedy errs.
This trainer learns from a far cleaner signal, the one the ``ismcts`` bot's flat search
computes: at sampled decisions of games that the teacher (``greedy``) plays at every
seat, every legal action is played out against the teacher's own choice on the same
sampled worlds (:meth:`~boneyard.bots.ismcts.IsmctsBot.compare`, common random numbers,
the rest of the hand played by the search's playout policy), which gives each action's
*advantage* over the teacher's choice: its mean reward less the teacher's, paired world
by world. The network (:class:`~boneyard.rl.dmc.QNetwork`, the same file and bot as Deep
Monte-Carlo's) is fitted to those advantages for every legal action at once, and plays
as a correction of its teacher: the teacher's choice unless the network values another
legal action higher by more than the margin. That is expert iteration's first step
(Anthony et al. 2017; AlphaZero's distillation of the search), with greedy as the
apprentice's starting point: what the search would change about greedy's play, made a
reflex that costs one network call.

Two stages, each usable alone:

- :func:`collect` plays seeded games and labels decisions (``share`` of the decisions
  with more than one legal action, ``rounds`` worlds each), in local processes; the
  labels are kept as :class:`Labels` and saved with :meth:`Labels.save`, so a run can
  be fitted again with other settings, or grown, without playing again.
- :func:`fit` fits a network to labels (a held-out tenth chooses when to stop).

``boneyard train GAME --method search`` runs both (``--labels FILE`` keeps the labels;
``--minutes 0`` fits them again).
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.greedy import GreedyBot
from ..bots.ismcts import IsmctsBot
from .core import Table
from .dmc import Adam, QNetwork
from .encoding import Encoding, encoding
from .facts import rules_with_hands

__all__ = ["TEACHER", "Labels", "collect", "fit", "label_games"]

#: The bot the network corrects, and whose choice the search measures every action against.
TEACHER = "greedy"
_F32 = np.float32
#: What a labels file says it is (``kind`` in the ``.npz``).
LABELS_KIND = "search-labels"


@dataclass
class Labels:
    """Labelled decisions: observation, legal mask, each legal action's advantage and its error, the teacher's index.

    ``advantage[i, a]`` is action ``a``'s mean reward less the teacher's choice's over the
    decision's sampled worlds (in the search's reward units, [-1, 1]); 0 for the teacher's
    own index and for every illegal one. ``error`` holds the standard errors.
    """

    game: str
    players: int
    rules: dict[str, Any]
    obs: np.ndarray
    mask: np.ndarray
    advantage: np.ndarray
    error: np.ndarray
    teacher: np.ndarray
    games: int = 0

    @classmethod
    def empty(cls, enc: Encoding) -> Labels:
        """No decisions yet, for ``enc``'s game, player count and rules."""
        a = enc.num_actions
        return cls(enc.game_id, enc.players, dict(enc.rules), np.zeros((0, enc.obs_size), _F32),
                   np.zeros((0, a), bool), np.zeros((0, a), _F32), np.zeros((0, a), _F32), np.zeros(0, np.int64))

    def __len__(self) -> int:
        return len(self.teacher)

    def extend(self, other: Labels) -> None:
        """Append ``other``'s decisions after these (the same game, players and rules)."""
        if (other.game, other.players, other.rules) != (self.game, self.players, self.rules):
            raise ValueError(f"labels of {other.game} with {other.players} players and rules {other.rules} cannot "
                             f"join those of {self.game} with {self.players} players and rules {self.rules}")
        self.obs = np.concatenate([self.obs, other.obs])
        self.mask = np.concatenate([self.mask, other.mask])
        self.advantage = np.concatenate([self.advantage, other.advantage])
        self.error = np.concatenate([self.error, other.error])
        self.teacher = np.concatenate([self.teacher, other.teacher])
        self.games += other.games

    def save(self, path: str | Path) -> None:
        """Write the labels (``np.savez_compressed``) with the game, players and rules they were made for."""
        np.savez_compressed(path, kind=LABELS_KIND, game=self.game, players=self.players,
                            rules=repr(sorted(self.rules.items())), obs=self.obs, mask=self.mask,
                            advantage=self.advantage, error=self.error, teacher=self.teacher, games=self.games)

    @classmethod
    def load(cls, path: str | Path) -> Labels:
        """Read labels written by :meth:`save`; ``ValueError`` naming the problem when the file is not one.

        Labels whose observation or action sizes differ from the running code's encoding
        (made before an encoding changed) are refused too: a network fitted to them would
        read the wrong entries.
        """
        import ast

        try:
            with np.load(path, allow_pickle=False) as data:
                if "kind" not in data.files or str(data["kind"]) != LABELS_KIND:
                    raise ValueError("it holds no search labels")
                found = cls(str(data["game"]), int(data["players"]), dict(ast.literal_eval(str(data["rules"]))),
                            data["obs"].astype(_F32), data["mask"].astype(bool), data["advantage"].astype(_F32),
                            data["error"].astype(_F32), data["teacher"].astype(np.int64), int(data["games"]))
        except (OSError, KeyError, ValueError, SyntaxError) as err:
            raise ValueError(f"{path} is not a saved labels file: {err}") from None
        enc = encoding(found.game, found.players, found.rules)
        if found.obs.shape[1:] != (enc.obs_size,) or found.mask.shape[1:] != (enc.num_actions,):
            raise ValueError(f"{path} was labelled for another {found.game} encoding than this version's "
                             f"({enc.obs_size} observations, {enc.num_actions} actions): label again")
        return found


def label_games(game: str, players: int, rules: Mapping[str, Any], seeds: Sequence[int], share: float,
                rounds: int) -> Labels:
    """Play one game per seed with the teacher at every seat, labelling ``share`` of its decisions.

    A decision is labelled when it has more than one legal action and the encoding can
    name the teacher's choice (an unlisted Rummikub rearrangement is played, not
    labelled). Each seed fixes the deal, which decisions are labelled and the search's
    worlds, so the same seeds give the same labels.
    """
    enc = encoding(game, players, dict(rules))
    out = Labels.empty(enc)
    teacher = GreedyBot()
    search = IsmctsBot(favourite=TEACHER)
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    advantages: list[np.ndarray] = []
    errors: list[np.ndarray] = []
    taught: list[int] = []
    for seed in seeds:
        rng = random.Random(seed)
        table = Table(enc, rng.getrandbits(62))
        while not table.over:
            seat = int(table.seat)  # type: ignore[arg-type]  # not over: a seat is to act
            view = table.view(seat)
            legal_actions = table.game.legal_actions()
            if len(legal_actions) < 2 or rng.random() >= share:
                table.play_quiet(teacher.choose(view, legal_actions, rng))
                continue
            favourite, rows = search.compare(view, legal_actions, rng, rounds)
            index = {str(action): i for i, action in table.legal().items()}
            chosen = index.get(str(favourite))
            if chosen is not None:
                advantage = np.zeros(enc.num_actions, _F32)
                error = np.zeros(enc.num_actions, _F32)
                mask = np.zeros(enc.num_actions, bool)
                for action, mean, err in rows:
                    i = index.get(str(action))
                    if i is not None:
                        mask[i] = True
                        advantage[i], error[i] = mean, err
                obs.append(enc.observe(view))
                masks.append(mask)
                advantages.append(advantage)
                errors.append(error)
                taught.append(chosen)
            table.play_quiet(favourite)
        out.games += 1
    if taught:
        out.obs, out.mask = np.stack(obs), np.stack(masks)
        out.advantage, out.error = np.stack(advantages), np.stack(errors)
        out.teacher = np.asarray(taught, np.int64)
    return out


def _label_job(job: tuple[str, int, dict[str, Any], list[int], float, int]) -> Labels:
    """A worker's share: :func:`label_games` of its seeds (top level, so a process pool can pickle it)."""
    return label_games(*job)


@dataclass
class Progress:
    """What :func:`collect` and :func:`fit` report as they go (the command's progress bars show it)."""

    stage: str  # "labelling" or "fitting"
    done: float  # seconds spent labelling, or epochs fitted
    games: int
    decisions: int
    loss: float | None = None  # held-out loss, while fitting


def collect(
    game: str,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    hands: int | None = None,
    seconds: float = 60.0,
    games: int | None = None,
    workers: int = 1,
    share: float = 0.25,
    rounds: int = 32,
    seed: int = 0,
    into: Labels | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> Labels:
    """Label decisions of seeded teacher games for ``seconds`` of wall time (or exactly ``games`` games).

    Games are dealt in rounds of ``2 * workers`` (one seed each, from ``seed``), split over
    ``workers`` local processes and read back in order, so a fixed number of games gives
    the same labels on any number of processes. ``hands`` limits a game's hands (default:
    the rules' own, whole games, so that the labels see every score the table reaches);
    ``share`` is the chance a decision is labelled, ``rounds`` the sampled worlds each
    labelled decision is measured on. ``into``: labels to add to (their game, players and
    rules must match); game seeds then continue after theirs.
    """
    from .. import api

    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if not 0 < share <= 1:
        raise ValueError(f"share is the chance a decision is labelled, above 0 and at most 1, got {share}")
    if rounds < 2:
        raise ValueError(f"rounds must be at least 2 (a standard error needs two worlds), got {rounds}")
    count = players or int(api.game_info(game)["players"]["default"])
    full_rules = rules_with_hands(rules, hands)
    enc = encoding(game, count, full_rules)
    labels = into if into is not None else Labels.empty(enc)
    if into is not None and (into.game, into.players, into.rules) != (game, count, dict(enc.rules)):
        raise ValueError(f"these labels are of {into.game} with {into.players} players and rules {into.rules}, "
                         f"not {game} with {count} players and rules {dict(enc.rules)}")
    first = labels.games
    started = time.perf_counter()
    played = 0
    pool = None
    if workers > 1:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        while (played < games) if games is not None else (time.perf_counter() - started < seconds):
            n = 2 * workers if games is None else min(2 * workers, games - played)
            round_seeds = [int(np.random.SeedSequence([seed, first + played + k]).generate_state(1)[0])
                           for k in range(n)]
            size = -(-n // workers)  # contiguous shares, read back in order: the same labels as one process
            jobs = [(game, count, dict(enc.rules), round_seeds[i:i + size], share, rounds) for i in range(0, n, size)]
            parts = map(_label_job, jobs) if pool is None else pool.map(_label_job, jobs)
            for part in parts:
                labels.extend(part)
            played += n
            if progress is not None:
                progress(Progress("labelling", time.perf_counter() - started, labels.games, len(labels)))
    finally:
        if pool is not None:
            pool.shutdown()
    return labels


def fit(
    labels: Labels,
    hidden: Sequence[int] = (256, 256),
    epochs: int = 60,
    lr: float = 1e-3,
    batch: int = 256,
    margin: float = 0.25,
    seed: int = 0,
    progress: Callable[[Progress], None] | None = None,
) -> QNetwork:
    """A network fitted to ``labels``' advantages, playing as a correction of :data:`TEACHER`.

    Targets are the advantages divided by their spread over the non-teacher legal actions
    (kept as the network's ``target_scale``), so ``margin`` is in units of that spread:
    the network overrules the teacher only where it predicts another action better by
    more than ``margin`` of it. The fitted values are each legal action's output less the
    teacher's action's output (:meth:`~boneyard.rl.dmc.QNetwork.gradients_all` with a
    base), every other legal action with weight 1, illegal ones 0; the standard errors are
    kept in the labels for analysis, not weighed. A tenth of the decisions, drawn by
    ``seed``, is held out: the
    weights kept are those of the epoch with the lowest held-out loss (at most
    ``epochs``), so a long run does not fit the labels' noise.
    """
    if len(labels) < 20:
        raise ValueError(f"{len(labels)} labelled decisions are too few to fit a network: label more games")
    enc = encoding(labels.game, labels.players, labels.rules)
    rng = np.random.default_rng(seed)
    others = labels.mask.copy()
    others[np.arange(len(labels)), labels.teacher] = False
    spread = float(labels.advantage[others].std()) if others.any() else 0.0
    scale = 1.0 / spread if spread > 1e-9 else 1.0
    targets = labels.advantage * _F32(scale)
    weights = others.astype(_F32)  # the teacher's own difference is 0 by construction
    order = rng.permutation(len(labels))
    cut = max(1, len(order) // 10)
    held, kept = order[:cut], order[cut:]
    net = QNetwork(enc, hidden, seed=seed, target_scale=scale, teacher=TEACHER, margin=margin)
    opt = Adam(net.params, lr)
    best = [p.copy() for p in net.params]
    best_loss = math.inf
    for epoch in range(epochs):
        shuffled = rng.permutation(kept)
        for start in range(0, len(shuffled), batch):
            pick = shuffled[start:start + batch]
            _, grads = net.gradients_all(labels.obs[pick], targets[pick], weights[pick], labels.teacher[pick])
            opt.step(grads)
        loss, _ = net.gradients_all(labels.obs[held], targets[held], weights[held], labels.teacher[held])
        if loss < best_loss:
            best_loss, best = loss, [p.copy() for p in net.params]
        if progress is not None:
            progress(Progress("fitting", epoch + 1, labels.games, len(labels), loss))
    net.params[:] = best
    return net
