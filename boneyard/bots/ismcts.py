"""The ``ismcts`` bot: information-set Monte Carlo tree search, generic over every game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). Each iteration deals the
hidden tiles afresh with ``boneyard.sample_game(view, rng)`` (a *determinization*), walks
one shared tree of action notations, choosing among the children legal in that deal by
UCB1 with availability counts, adds one node, plays the rest out, and backs up each
seat's reward to the nodes where that seat moved.

The playout policy (``rollout``) is the game's cheap playout policy where its greedy
module has one (``playout``: montana, whose full greedy costs milliseconds a move), else
the ``greedy`` bot; by default a game may play a playout's stretch of that policy's
moves in one call, its profile's ``finish`` (compiled in Eighty and Rounce, read from the
engine's state in Montana). ``policy`` plays the same policy one call a move through
the seats' views, ``greedy`` the greedy bot one call a move, ``random`` uniformly
(:func:`playout_chooser`, :func:`playout_finisher`). One loop plays every playout through
the engines, :func:`play_out`, and the coach (:mod:`boneyard.bots.coach`) plays its rounds
with the same loop and the same policy choice. The playout runs to the end of the
current hand (or the game), never further, or stops after ``depth`` actions (default:
the profile's ``playout_depth``, if it sets one), where the profile's
``evaluate(game)`` estimates what each seat still gains in the hand from the sampled
game's own views. The hand's end is read from the game's declared ``hand_number`` (a
hand that ends with nobody scoring, a blocked two-box hand, ends the playout too). The
reward is the score margin the hand brought (plus that estimate), counted the other way
for a game that declares ``lower_is_better``, squashed into [0, 1] by the game's
profile's ``margin_scale`` (else :data:`DEFAULT_MARGIN_SCALE`; the ``scale`` parameter
overrides it); a finished game counts the win
as well: see :func:`seat_reward`. The bot sees nothing but
its view and legal actions: the simulations run only on sampled games.

The final choice is the most visited action, the greedy bot's choice counting ``prior``
(a share of the iterations) extra visits: when the search cannot tell the actions apart
the bot plays like ``greedy``, and it overrules greedy only on clear evidence. A search
whose budget ran out before it had tried every legal action once plays greedy's choice.
Where the game's profile names the ``"playout"`` favourite (Rummikub, whose playout policy
holds plays back), the playout policy's choice takes greedy's place in both; where it
names its own (``"own"``, Montana's ``widest``), that function's choice does.
``favourite="greedy"`` puts greedy's choice back.

**A learned network** (:mod:`boneyard.bots.learned`): ``favourite=learned`` makes the
network's choice the favourite (its head start, ``prior`` of the iterations, default
:data:`DEFAULT_PRIOR`; the fallback; the baseline a flat search must beat), and
``rollout=learned`` plays the playouts (and the other seats' policy decisions in the tree)
with it, one network call a move on the mover's view of the sampled world. The network
is the one shipped for the table's game and player count (:mod:`boneyard.rl.weights`), or
``weights=FILE``; where there is none the first decision raises ``ValueError`` naming the
game and player count. Off (the default), neither costs anything.

With ``evidence`` z > 0 (default: the profile's ``evidence_z``) the search also
keeps greedy's choice unless the chosen action's mean reward beats it by z standard
errors: for games where a few dozen noisy playouts per action cannot be trusted.

With ``shape="flat"`` (or a profile's ``search="flat"``, or ``search_by_phase`` naming the
decision's phase: Rounce's calls) the bot instead compares a few candidates (the game's
profile's ``candidates``, else every legal action) on common sampled worlds: see
:meth:`IsmctsBot._flat` and :func:`search_shape`. A game may play those rounds itself,
faster (the profile's ``outcomes``: two-box's compiled greedy playouts); the bot uses them
unless it was given its own ``rollout`` or ``depth``.

In the tree, another seat's node is chosen from statistics pooled over every sampled
world, blind to the hand the world gave that seat. With ``others="policy"`` (every phase)
or ``others="auto"`` and the profile's ``others_by_policy`` naming the phase, the other
seats' decisions in the tree are instead the playout policy's on their own hands; their
nodes stay in the tree, so the searcher's later decisions are still kept apart by what
they did: see :func:`policy_phases`.

Three ingredients read more than the rules prove, each switched by a parameter (0: off;
default: the game's profile): ``infer`` draws that many worlds a sample and keeps one by the
likelihood of the other seats' past actions (:mod:`boneyard.bots.inference`; with
``infer=1`` in a game whose hands are weighed by its profile's ``seat_weight``, Montana's, the
flat search instead weighs each uniform world's playouts by that weight);
``endgame`` hands a play-phase playout with that many tricks left to the exact solver
(:mod:`boneyard.bots.endgame`); ``defence`` judges a game's discards on that many worlds
before the search (Montana's profile's ``defend``). A fourth, ``explain`` (1: on; 0: off; by default on
wherever the game's profile has an ``explain``, unless its ``explain_by_default`` says off), rebuilds in every
sampled world what the other seats' calls showed of their hands, by the greedy model
(Rounce: a dummy's and a taking dealer's best five; Montana, off by default: the pairs
and runs its claim windows proved). ``draw=0`` keeps a voluntary draw (the action ``draw``
when it is not greedy's own choice) out of the flat search's candidates, such as the
one two-box's ``candidates`` offers (its ``SEARCH_DRAW``). See ``docs/bots.md``.

The budget is ``iterations`` per decision, ``ms`` (wall-clock milliseconds) per decision,
or both (whichever ends first). With an iteration budget alone the choice depends only on
the view, the legal actions and the ``rng`` passed in, so it is reproducible from a seed;
a millisecond budget depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..games import game_class
from . import endgame
from .greedy import GreedyBot
from .inference import Inference, candidates_for
from .profile import DEFAULT_MARGIN_SCALE, DEFAULT_PRIOR, Chooser, Finisher, SearchProfile, profile

__all__ = ["DEFAULT_MARGIN_SCALE", "DEFAULT_PRIOR", "Chooser", "Finisher", "IsmctsBot", "head_start",
           "margin_scale", "paired_difference", "play_out", "playout_chooser", "playout_finisher", "policy_phases",
           "search_shape", "seat_reward"]
ROLLOUTS = ("auto", "policy", "greedy", "random", "learned")  # see IsmctsBot: the playout policy's names
MAX_PLAYOUT = 2000  # actions; a safety net, hands end long before
HEADROOM = 0.05  # share of an ``ms`` budget the search leaves unused
# A game's sampler may give up on a very constrained view (ValueError): after this many
# failures in one decision the search stops and plays on what it has (else greedy).
MAX_SAMPLE_FAILURES = 3
# Share of an ``ms`` budget a game's defence may spend drawing worlds before the search.
DEFENCE_SHARE = 0.25
# Search shapes: ``auto`` takes the game profile's shape for the decision's phase
# (``search_by_phase``, else ``search``): see :func:`search_shape`.
SHAPES = ("auto", "tree", "flat")
# see IsmctsBot._favourite: the profile's favourite, greedy's choice, or the learned network's
FAVOURITES = ("auto", "greedy", "learned")
# How the tree search decides the other seats' moves: ``tree`` by the tree's statistics,
# ``policy`` by the playout policy on the mover's own hand in the sampled world, ``auto``
# by the policy in the phases the profile's ``others_by_policy`` names: see
# :func:`policy_phases`.
OTHERS = ("auto", "tree", "policy")


class _Node:
    """One tree node: the action that led here, who played it, and its statistics."""

    __slots__ = ("avail", "children", "mover", "squares", "total", "visits")

    def __init__(self, mover: int | None) -> None:
        self.mover = mover
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.squares = 0.0

    def mean_and_error(self) -> tuple[float, float]:
        """The mean reward of the mover here and the squared standard error of that mean."""
        n = self.visits
        mean = self.total / n
        if n < 2:
            return mean, math.inf
        var = max(0.0, (self.squares - n * mean * mean) / (n - 1))
        return mean, var / n


class IsmctsBot:
    """Information-set MCTS over sampled games, budgeted by iterations and/or milliseconds."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = None,
        ms: float | None = None,
        rollout: str = "auto",
        c: float = 0.7,
        prior: float | None = None,
        depth: int | None = None,
        evidence: float | None = None,
        shape: str = "auto",
        endgame: int | None = None,
        infer: int | None = None,
        defence: int | None = None,
        others: str = "auto",
        explain: int | None = None,
        scale: float | None = None,
        draw: int | None = None,
        favourite: str = "auto",
        weights: str = "",
    ) -> None:
        if iterations is None and ms is None:
            iterations = 200
        if iterations is not None and (isinstance(iterations, bool) or int(iterations) < 1):
            raise ValueError(f"ismcts iterations must be a positive whole number, got {iterations!r}")
        if ms is not None and float(ms) <= 0:
            raise ValueError(f"ismcts ms must be a positive number of milliseconds, got {ms!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"ismcts rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
            raise ValueError(f"ismcts depth must be a whole number of actions >= 0, got {depth!r}")
        if evidence is not None and float(evidence) < 0:
            raise ValueError(f"ismcts evidence must be >= 0 standard errors, got {evidence!r}")
        if shape not in SHAPES:
            raise ValueError(f"ismcts shape must be one of {', '.join(SHAPES)}, got {shape!r}")
        if others not in OTHERS:
            raise ValueError(f"ismcts others must be one of {', '.join(OTHERS)}, got {others!r}")
        if explain is not None and (isinstance(explain, bool) or explain not in (0, 1)):
            raise ValueError(f"ismcts explain must be 1 (on) or 0 (off), got {explain!r}")
        if favourite not in FAVOURITES:
            raise ValueError(f"ismcts favourite must be one of {', '.join(FAVOURITES)}, got {favourite!r}")
        if weights and "learned" not in (rollout, favourite):
            raise ValueError("ismcts weights= names the learned network of favourite=learned or rollout=learned; "
                             "give one of those with it")
        if draw is not None and (isinstance(draw, bool) or draw not in (0, 1)):
            raise ValueError(f"ismcts draw must be 1 (on) or 0 (off), got {draw!r}")
        for knob, value in (("endgame", endgame), ("infer", infer), ("defence", defence)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"ismcts {knob} must be a whole number >= 0 (0 switches it off), got {value!r}")
        if float(c) < 0:
            raise ValueError(f"ismcts exploration c must be >= 0, got {c!r}")
        if scale is not None and (isinstance(scale, bool) or not float(scale) > 0):
            raise ValueError(f"ismcts scale must be a positive number of points, got {scale!r}")
        if prior is not None and not 0 <= float(prior) <= 1:
            raise ValueError(f"ismcts prior must be from 0 to 1 (a share of the iterations), got {prior!r}")
        self.iterations = None if iterations is None else int(iterations)
        self.ms = None if ms is None else float(ms)
        self.rollout = rollout
        self.c = float(c)
        self.prior = None if prior is None else float(prior)
        self.depth = None if depth is None else int(depth)
        self.evidence = None if evidence is None else float(evidence)
        self.shape = shape
        self.others = others
        self.endgame = endgame
        self.infer = infer
        self.defence = defence
        self.explain = explain
        self.draw = draw
        self.favourite = favourite
        self.weights = str(weights)
        self._learned: dict[tuple[str, int], Chooser] = {}  # the network's chooser, per game and player count
        self._net: Chooser | None = None  # this decision's (favourite=learned or rollout=learned), else None
        self.scale = None if scale is None else float(scale)
        self._greedy = GreedyBot()
        self._iteration_s: dict[str, float] = {}  # mean seconds an iteration took, per game
        self.last_iterations = 0

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The most visited root action after the search (see the module docstring).

        One of ``legal_actions``, or greedy's own choice where the search falls back on it
        (in rummikub that may be an unlisted whole-table play, which ``apply`` accepts).
        """
        if not legal_actions:
            raise ValueError("ismcts bot asked to choose with no legal actions")
        if len(legal_actions) == 1:
            self.last_iterations = 0
            return legal_actions[0]
        if "learned" in (self.rollout, self.favourite):
            # before the clock starts: the first decision reads the network's file
            self._net = self._learned_chooser(str(view["game"]), int(view["players"]))
        started = time.perf_counter()
        search_rng = random.Random(rng.getrandbits(64))
        legal = {str(a): a for a in legal_actions}
        root = _Node(None)
        seat = view["seat"]
        # The greedy choice (or the game's favourite, see _favourite) starts ahead by a share
        # of the visits: the search must clearly prefer another action to overrule it (an
        # uninformative search plays greedy).
        game_id = view["game"]
        prof = profile(game_id)
        greedy_action = self._favourite(prof)(view, legal_actions, random.Random(0))
        favourite = str(greedy_action)
        # the search plans to stop a little early: headroom for the final choice and for
        # stalls it cannot foresee (a garbage collection, another process on the core)
        deadline = None if self.ms is None else started + self.ms * (1 - HEADROOM) / 1000
        sampler = Inference(
            view,
            self.infer if self.infer is not None else candidates_for(game_id),
            explain=None if self.explain is None else self.explain != 0,
        )
        defend = prof.defend
        worlds = self.defence if self.defence is not None else prof.defence_worlds
        if defend is not None and worlds and seat is not None:
            # the game's defence may replace greedy's choice by a safer one, judged on
            # worlds from the search's own sampler; the search then starts from it
            greedy_action = defend(
                view, legal_actions, greedy_action, self._drawer(sampler, search_rng, started), worlds
            )
            favourite = str(greedy_action)
        shape = self.shape if self.shape != "auto" else search_shape(prof, view.get("phase"))
        if shape == "flat":
            return self._flat(view, legal_actions, greedy_action, search_rng, deadline, prof, sampler)
        looping = time.perf_counter()
        done = tried = 0
        cost_key = self._cost_key(view)
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if tried - done >= MAX_SAMPLE_FAILURES:
                break  # the game cannot sample this view: play on what is known
            if deadline is not None:
                now = time.perf_counter()
                # stop when one more iteration of the average length (this decision's, or
                # the previous decisions' before the first) would overrun the budget
                per = (now - looping) / tried if tried else self._iteration_s.get(cost_key, 0.0)
                if now + per > deadline:
                    break
            tried += 1
            done += self._iterate(root, view, legal, search_rng, sampler)
        self._learn_cost(cost_key, tried, time.perf_counter() - looping)
        self.last_iterations = done
        if seat is None:
            return legal_actions[0]
        if sum(1 for k in legal if k in root.children) < len(legal):
            # the budget did not let the search try every action once: it knows too little
            return greedy_action
        bonus = head_start(prof, self.prior, self._favours_policy(prof)) * done

        def score(k: str) -> tuple[float, float]:
            child = root.children.get(k)
            visits = child.visits if child else 0
            mean = child.total / child.visits if child and child.visits else 0.0
            return (visits + (bonus if k == favourite else 0.0), mean)

        pick = max(legal, key=score)
        z = self.evidence if self.evidence is not None else prof.evidence_z
        if z and pick != favourite and not self._clearly_better(root, pick, favourite, z):
            return greedy_action
        return legal[pick]

    def _drawer(self, sampler: Inference, rng: random.Random, started: float) -> Callable[[], Any]:
        """Worlds for a game's defence, drawn until :data:`DEFENCE_SHARE` of an ``ms`` budget is spent.

        Past that share the drawer raises ``ValueError``, which a defence takes as "no more
        worlds" and judges on those it has, so the search keeps the rest of its budget.
        """
        limit = None if self.ms is None else started + self.ms * DEFENCE_SHARE / 1000

        def draw() -> Any:
            if limit is not None and time.perf_counter() > limit:
                raise ValueError("the defence's share of the decision's time is spent")
            return sampler.sample(rng)

        return draw

    @staticmethod
    def _cost_key(view: dict[str, Any]) -> str:
        """What an iteration's measured cost is filed under: the game and the phase.

        An iteration from a bid plays a whole hand out, one from the last trick a few
        plays: a cost learnt in one phase says little about another.
        """
        return f"{view['game']}:{view.get('phase')}"

    def _learn_cost(self, key: str, iterations: int, seconds: float) -> None:
        """Remember the mean cost of this decision's iterations; halve it when none ran.

        A decision skipped because one iteration was expected to overrun the budget
        measures nothing, so without the halving one slow figure (a stall of the machine)
        would keep the search switched off for the rest of the game.
        """
        if iterations:
            self._iteration_s[key] = seconds / iterations
        elif key in self._iteration_s:
            self._iteration_s[key] /= 2

    @staticmethod
    def _clearly_better(root: _Node, pick: str, favourite: str, z: float) -> bool:
        """Whether ``pick``'s mean reward beats greedy's choice by ``z`` standard errors."""
        mine, theirs = root.children.get(pick), root.children.get(favourite)
        if mine is None or not mine.visits or theirs is None or not theirs.visits:
            return theirs is None or not theirs.visits
        mean_a, err_a = mine.mean_and_error()
        mean_b, err_b = theirs.mean_and_error()
        return mean_a - mean_b > z * math.sqrt(err_a + err_b)

    # ----- flat Monte Carlo with common random numbers ------------------------------

    def _flat(
        self,
        view: dict[str, Any],
        legal_actions: Sequence[Any],
        greedy_action: Any,
        rng: random.Random,
        deadline: float | None,
        prof: SearchProfile,
        sampler: Inference,
    ) -> Any:
        """Flat determinized search: every candidate played out on the same sampled worlds.

        Each round samples one world from the view and one playout seed, then plays each
        candidate action in its own copy of that world followed by the same playout (the
        same hidden tiles and the same random numbers: *common random numbers*), so two
        candidates' rewards in a round differ only by what the actions themselves cause.
        An iteration is one playout; a round needs one per candidate. The choice is the
        candidate with the best mean reward, kept only when its mean paired difference
        from greedy's choice beats zero by ``evidence`` standard errors; else greedy's.
        The rounds are played by :meth:`_flat_rounds`.
        """
        favourite = str(greedy_action)
        legal = {str(a): a for a in legal_actions}
        picker = prof.candidates
        chosen = list(picker(view, legal_actions, greedy_action)) if picker is not None else list(legal_actions)
        if self.draw == 0:  # no voluntary draw (greedy's own draw, when nothing plays, stays)
            chosen = [a for a in chosen if str(a) != "draw"]
        keys = list(dict.fromkeys([favourite, *(str(a) for a in chosen if str(a) in legal)]))
        self.last_iterations = 0
        if view["seat"] is None or len(keys) < 2:
            return greedy_action
        # greedy's choice may be an unlisted play (a whole Rummikub table), so it is kept as is
        actions = [greedy_action, *(legal[k] for k in keys[1:])]
        rewards, weights = self._flat_rounds(view, actions, rng, deadline, prof, sampler)
        rounds = len(rewards[0])
        if rounds == 0:
            return greedy_action
        if any(w != 1.0 for w in weights):
            totals = [sum(w * r for w, r in zip(weights, row, strict=True)) for row in rewards]
        else:
            totals = [sum(row) for row in rewards]
        best = max(range(len(keys)), key=lambda i: (totals[i], i == 0))
        if best == 0:
            return greedy_action
        z = self.evidence if self.evidence is not None else prof.evidence_z
        if _paired_lead(rewards[best], rewards[0], weights) > z:
            return actions[best]
        return greedy_action

    def _flat_rounds(
        self,
        view: dict[str, Any],
        actions: Sequence[Any],
        rng: random.Random,
        deadline: float | None,
        prof: SearchProfile,
        sampler: Inference,
        rounds: int | None = None,
    ) -> tuple[list[list[float]], list[float]]:
        """The flat search's rounds: each action's reward in each round, and each round's weight.

        Plays until the bot's ``iterations`` or the ``deadline``, whichever comes first,
        or exactly ``rounds`` rounds when that is given (then ``iterations`` is not read).
        With the game profile's ``outcomes(world, actions, seat, seed)`` (and no
        ``rollout`` or ``depth`` of the bot's own), each sampled world is handed to it and
        gives several rounds at once (rows of one outcome per action: the scores at the
        hand's end and the winners if the game ended); those are scored by
        :func:`seat_reward` like every other playout. It returns ``None`` where it cannot,
        and the round is played out here. A round's weight is 1 unless the game's sampler
        weighs worlds (``infer=1`` in Montana).
        """
        seat = view["seat"]
        game_id = view["game"]
        rewards: list[list[float]] = [[] for _ in actions]
        weights: list[float] = []  # each round's importance weight (1 unless the game reads hands)
        chooser = self._chooser(prof)
        depth = self.depth if self.depth is not None else prof.playout_depth
        solve_at = self._solve_at(prof, view)
        evaluate = prof.evaluate
        # a game's own fast whole-hand playouts (compiled): rounds of rewards per sampled
        # world; not when the bot was given its own rollout policy or playout depth
        own = self.rollout != "auto" or self.depth is not None
        fast = prof.outcomes if not own else None
        finish = self._finisher(prof, depth)
        scale = self.scale if self.scale is not None else margin_scale(game_id)
        lower = bool(game_class(game_id).lower_is_better)
        hand = view["hand_number"]
        per_key = self._cost_key(view) + ("" if fast is None else ":fast")
        looping = time.perf_counter()
        done = failures = 0
        batch = 1  # rounds a sampled world gave last time
        while rounds is None or len(weights) < rounds:
            if rounds is None and self.iterations is not None and done + len(actions) * batch > self.iterations:
                break
            if failures >= MAX_SAMPLE_FAILURES:
                break
            if deadline is not None:
                now = time.perf_counter()
                per = (now - looping) / done if done else self._iteration_s.get(per_key, 0.0)
                if now + per * len(actions) * batch > deadline:
                    break
            try:
                world, weight = sampler.sample_weighted(rng)
            except ValueError:
                failures += 1
                continue
            seed = rng.getrandbits(64)
            rows = fast(world, actions, seat, seed) if fast is not None else None
            start = list(world.scores)
            if rows is not None:
                if rounds is not None:
                    rows = rows[:rounds - len(weights)]
                weights.extend([weight] * len(rows))
                for row in rows:
                    for i, (final, winners) in enumerate(row):
                        gains = [float(a) - float(b) for a, b in zip(final, start, strict=True)]
                        rewards[i].append(seat_reward(gains, seat, winners, lower, scale))
                batch = max(1, len(rows))
                done += len(actions) * len(rows)
                continue
            weights.append(weight)
            for i, action in enumerate(actions):
                game = world.clone()
                game.apply(action)
                cut = self._playout(game, start, hand, random.Random(seed), chooser, depth, seat, solve_at, finish)
                rest = evaluate(game) if cut and evaluate is not None else None
                rewards[i].append(self._reward(game_id, game, start, rest, scale)[seat])
            done += len(actions)
        self._learn_cost(per_key, done, time.perf_counter() - looping)
        self.last_iterations = done
        return rewards, weights

    def compare(
        self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random, rounds: int
    ) -> tuple[Any, list[tuple[Any, float, float]]]:
        """Every legal action against the search's favourite, on ``rounds`` common sampled worlds.

        What a learner is taught from (:mod:`boneyard.rl.improve`): the flat search's
        rounds (:meth:`_flat_rounds`, the same worlds, playouts and rewards as the bot's own
        flat search) over *every* legal action, returned as the favourite (greedy's choice
        unless ``favourite`` says otherwise) and, per legal action, its mean reward less the
        favourite's in the same rounds and that difference's standard error (paired by
        round, weighted where the sampler weighs worlds). The favourite's own row is 0, 0.
        A view with no seat, or one legal action, gives no rounds: every row is 0, 0.
        """
        prof = profile(view["game"])
        favourite = self._favourite(prof)(view, legal_actions, random.Random(0))
        key = str(favourite)
        others = [a for a in legal_actions if str(a) != key]
        if view["seat"] is None or not others:
            return favourite, [(a, 0.0, 0.0) for a in legal_actions]
        sampler = Inference(view, self.infer if self.infer is not None else candidates_for(view["game"]),
                            explain=None if self.explain is None else self.explain != 0)
        search_rng = random.Random(rng.getrandbits(64))
        rewards, weights = self._flat_rounds(view, [favourite, *others], search_rng, None, prof, sampler, rounds)
        found: dict[str, tuple[float, float]] = {key: (0.0, 0.0)}
        for action, row in zip(others, rewards[1:], strict=True):
            found[str(action)] = paired_difference(row, rewards[0], weights)
        return favourite, [(a, *found.get(str(a), (0.0, 0.0))) for a in legal_actions]

    # ----- one iteration -----------------------------------------------------------

    def _iterate(
        self, root: _Node, view: dict[str, Any], legal: dict[str, Any], rng: random.Random, sampler: Inference
    ) -> bool:
        """One iteration; ``False`` when no game could be sampled from the view."""
        try:
            game = sampler.sample(rng)
        except ValueError:
            return False
        start = list(game.scores)
        hand = view["hand_number"]
        prof = profile(view["game"])
        chooser = self._chooser(prof)
        by_policy = policy_phases(prof, self.others)
        seat = view["seat"]
        node = root
        path = [root]
        first = True
        while not game.is_over:
            actions = game.legal_actions()
            mover = game.current_player
            if (
                by_policy is not None
                and not first
                and mover != seat
                and (not by_policy or str(game.phase) in by_policy)
            ):
                # another seat's decision taken by the playout policy on its own hand in
                # this world; its node keeps the searcher's later decisions apart by what
                # that seat did, but is never chosen between by statistics
                if len(actions) == 1 or chooser is None:
                    a = actions[rng.randrange(len(actions))]
                else:
                    a = chooser(game.view(mover), actions, rng)
                k = str(a)
                new = k not in node.children
            else:
                keys = [str(a) for a in actions]
                if first:
                    pairs = [(k, a) for k, a in zip(keys, actions, strict=True) if k in legal] or list(
                        zip(keys, actions, strict=True)
                    )
                    first = False
                else:
                    pairs = list(zip(keys, actions, strict=True))
                untried = []
                for k, a in pairs:
                    child = node.children.get(k)
                    if child is None:
                        untried.append((k, a))
                    else:
                        child.avail += 1
                new = bool(untried)
                k, a = untried[rng.randrange(len(untried))] if new else self._select(node, pairs)
            game.apply(a)
            if new:  # expand: one node a iteration, then the playout
                child = _Node(mover)
                node.children[k] = child
                path.append(child)
                break
            node = node.children[k]
            path.append(node)
            if self._hand_over(game, start, hand):
                break
        depth = self.depth if self.depth is not None else prof.playout_depth
        finish = self._finisher(prof, depth)
        cut = self._playout(game, start, hand, rng, chooser, depth, seat, self._solve_at(prof, view), finish)
        rest = prof.evaluate(game) if cut and prof.evaluate is not None else None
        reward = self._reward(view["game"], game, start, rest, self.scale)
        for n in path[1:]:
            n.visits += 1
            if n.mover is not None:
                n.total += reward[n.mover]
                n.squares += reward[n.mover] ** 2
        return True

    def _select(self, node: _Node, pairs: list[tuple[str, Any]]) -> tuple[str, Any]:
        c = self.c
        best = pairs[0]
        best_value = -math.inf
        for k, a in pairs:
            child = node.children[k]
            value = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > best_value:
                best, best_value = (k, a), value
        return best

    def _chooser(self, prof: SearchProfile) -> Chooser | None:
        """The playout policy: ``None`` for uniform random play (see :func:`playout_chooser`).

        With ``rollout=learned``, the learned network's choice (set for the decision by :meth:`choose`).
        """
        if self.rollout == "learned" and self._net is not None:
            return self._net
        return playout_chooser(prof, self.rollout, self._greedy)

    def refuses(self, game: str, players: int) -> str | None:
        """Why this search cannot play a ``game`` table of ``players`` seats (``None``: it can).

        Only ``favourite=learned`` or ``rollout=learned`` can refuse: where no learned network
        is shipped for that game and size (or ``weights=FILE`` is another game's). What a
        caller that seats bots (the server, the arena) asks before the first move.
        """
        if "learned" not in (self.rollout, self.favourite):
            return None
        try:
            self._learned_chooser(game, players)
        except ValueError as err:
            return str(err)
        return None

    def _learned_chooser(self, game_id: str, players: int) -> Chooser:
        """The learned network's chooser for this game and size, made once (``ValueError`` where there is none)."""
        key = (game_id, players)
        found = self._learned.get(key)
        if found is None:
            from .learned import learned_chooser

            found = self._learned[key] = learned_chooser(game_id, players, self.weights)
        return found

    def _favourite(self, prof: SearchProfile) -> Chooser:
        """Who picks the action the search starts from (its head start, and its fallback).

        Greedy's choice, unless the game profile's ``favourite`` names one of its own
        policies (and the bot's ``favourite`` is ``auto``): ``"playout"``, the playout
        policy, when the playouts play it (``rollout`` ``auto`` or ``policy``), so the search
        starts from the play its playouts assume of the seat later (Rummikub: a play held
        back until it goes out; with ``rollout=greedy`` both are greedy's again); ``"own"``,
        the profile's ``favourite_chooser`` (Montana's ``widest``: greedy's discard, widened
        by how many tiles would help). ``favourite=greedy`` puts greedy's choice back in
        every game; ``favourite=learned`` makes it the learned network's choice.
        """
        if self.favourite == "learned" and self._net is not None:
            return self._net
        if self._favours_policy(prof) and prof.playout is not None:
            return prof.playout
        if self.favourite == "auto" and prof.favourite == "own" and prof.favourite_chooser is not None:
            return prof.favourite_chooser
        return self._greedy.choose

    def _favours_policy(self, prof: SearchProfile) -> bool:
        """Whether :meth:`_favourite` is the game's playout policy (its profile's ``favourite``) here."""
        return (
            self.favourite == "auto"
            and prof.favourite == "playout"
            and self.rollout in ("auto", "policy")
            and prof.playout is not None
        )

    def _finisher(self, prof: SearchProfile, depth: int | None) -> Finisher | None:
        """The game's fast playout for this bot's ``rollout`` and ``depth`` (see :func:`playout_finisher`)."""
        return playout_finisher(prof, self.rollout, depth)

    def _playout(
        self,
        game: Any,
        start: list[Any],
        hand: int,
        rng: random.Random,
        chooser: Chooser | None,
        depth: int | None,
        seat: int | None = None,
        solve_at: int = 0,
        finish: Finisher | None = None,
    ) -> bool:
        """One playout of the search: :func:`play_out` (``start``, the scores when it began, is not needed).

        Kept as a method so that a test can watch the search's playouts.
        """
        return play_out(game, hand, rng, chooser, depth, seat, solve_at, finish)

    def _solve_at(self, prof: SearchProfile, view: dict[str, Any]) -> int:
        """Tricks left at which playouts hand over to the exact solver; 0: never.

        The bot's ``endgame`` parameter, else the profile's ``endgame_tricks`` where its
        ``search_solves`` (no game's does by default: the solver costs the search
        iterations), else 0; and only for a decision in the play phase. A bid or a call
        compares whole hands, and there the solver's values are biased: it sees every hand
        (too hopeful), and in Rounce it lets the other seats play together against the
        searcher (too fearful).
        """
        if view.get("phase") != "play":
            return 0
        if self.endgame is not None:
            return self.endgame
        return prof.endgame_tricks if prof.search_solves else 0

    @staticmethod
    def _hand_over(game: Any, start: list[Any], hand: int) -> bool:
        """The hand numbered ``hand`` has ended (see :func:`hand_over`; ``start`` is not needed to tell)."""
        return hand_over(game, hand)

    @staticmethod
    def _reward(
        game_id: str, game: Any, start: list[Any], rest: Sequence[float] | None = None, scale: float | None = None
    ) -> list[float]:
        """Each seat's reward in [0, 1]: the squashed score margin, with the win if the game ended.

        ``rest``: the estimated further gain of each seat in the hand (a cut-off playout);
        ``scale``: the bot's own margin scale (``None``: the game profile's ``margin_scale``).
        """
        delta = [float(a) - float(b) for a, b in zip(game.scores, start, strict=True)]
        if rest is not None:
            delta = [d + float(r) for d, r in zip(delta, rest, strict=True)]
        winners = game.winners if game.is_over else None
        lower = bool(game_class(game_id).lower_is_better)
        if scale is None:
            scale = margin_scale(game_id)
        return [seat_reward(delta, seat, winners, lower, scale) for seat in range(game.players)]


def hand_over(game: Any, hand: int) -> bool:
    """Whether the hand numbered ``hand`` has ended: the game is over or its ``hand_number`` moved on.

    Read from the hand number, not the scores: a hand may end with nobody scoring (a
    blocked two-box hand), and that too ends a playout.
    """
    return bool(game.is_over or game.hand_number != hand)


def playout_chooser(prof: SearchProfile, rollout: str = "auto", greedy: GreedyBot | None = None) -> Chooser | None:
    """The policy that plays a playout's moves, one call a move: the search's and the coach's.

    ``rollout`` (one of :data:`ROLLOUTS`): ``auto`` and ``policy`` take the game profile's
    cheap ``playout`` policy where it has one (Montana's, two-box's without its follow
    term, Rummikub's that holds plays back), else greedy's ``choose``; ``greedy`` always
    greedy's; ``random`` gives ``None``, uniform random play. ``greedy``: the bot whose
    ``choose`` is used (a new one when not given).
    """
    if rollout == "random":
        return None
    if rollout in ("auto", "policy") and prof.playout is not None:
        return prof.playout
    return (greedy if greedy is not None else GreedyBot()).choose


def playout_finisher(prof: SearchProfile, rollout: str = "auto", depth: int | None = None) -> Finisher | None:
    """The game's fast playout (its profile's ``finish``) where it may stand in for :func:`playout_chooser`'s moves.

    ``finish(game, stop)`` plays the playout policy's choices to the hand's end (or until
    ``stop`` tricks are left) in one call: the same actions the policy would take one call
    a move, far cheaper. ``finish`` must play exactly the moves of the playout policy (its
    ``playout`` where it has one, Montana's, else greedy's ``choose``: Eighty and Rounce,
    compiled). Only with the default ``rollout`` (``rollout=policy`` plays the same policy
    one Python call a move) and no playout ``depth`` (a cut-off playout counts its actions).
    """
    if rollout != "auto" or depth is not None:
        return None
    return prof.finish


def play_out(
    game: Any,
    hand: int,
    rng: random.Random,
    chooser: Chooser | None,
    depth: int | None = None,
    seat: int | None = None,
    solve_at: int = 0,
    finish: Finisher | None = None,
) -> bool:
    """Play a sampled game on to the end of hand ``hand``: the one playout loop of the search and the coach.

    Each move is the one legal action, else ``chooser``'s choice on the mover's own view
    (``None``: a uniformly random legal action, from ``rng``). With ``finish`` (see
    :func:`playout_finisher`) a stretch of the same policy's moves is played in one call.
    With ``solve_at`` > 0 and a ``seat``, once no more than that many tricks are left the
    exact endgame solver (:mod:`boneyard.bots.endgame`) plays the rest of the hand, valued
    for ``seat``, and ``finish`` stops there. With ``depth`` the playout stops after that
    many moves; ``True`` when it was cut off so before the hand ended (the caller may then
    estimate the rest), else ``False``. Where the solver takes over and how deep a playout
    runs are the callers' choices: the search reads the game's prof and the decision's
    phase, the coach plays every hand to its end (``bots/coach.py``).
    """
    limit = MAX_PLAYOUT if depth is None else depth
    stop = solve_at if seat is not None else 0
    for _ in range(limit):
        if hand_over(game, hand):
            return False
        if stop and seat is not None and endgame.supports(game) and endgame.tricks_left(game) <= stop:
            endgame.finish_hand(game, seat)
            return False
        if finish is not None and finish(game, stop):
            continue
        actions = game.legal_actions()
        if len(actions) == 1:
            game.apply(actions[0])
        elif chooser is None:
            game.apply(actions[rng.randrange(len(actions))])
        else:
            game.apply(chooser(game.view(game.current_player), actions, rng))
    return depth is not None and not hand_over(game, hand)


def search_shape(prof: SearchProfile, phase: Any) -> str:
    """The shape a game's decision is searched in: the profile's for its phase, else the profile's own.

    A tree's nodes for the other seats' decisions are chosen from statistics pooled over
    every sampled world, so in the tree those seats decide without regard to the hands
    the world gave them. Where their next decisions turn on their hands (Rounce's calls:
    keep a strong hand, fold a weak one), a game searches that phase flat instead: each
    candidate is followed by the playout policy, which reads every seat's own hand.
    """
    return prof.shape(phase)


def policy_phases(prof: SearchProfile, others: str) -> frozenset[str] | None:
    """The phases in which the tree search lets the playout policy decide for the other seats.

    ``None``: none (every decision in the tree is chosen by its statistics); an empty set:
    every phase. ``others="auto"`` reads the profile's ``others_by_policy`` (empty:
    none). A tree's node for another seat is chosen from statistics pooled over every
    sampled world, blind to the hand the world gave that seat; the policy reads that hand,
    at the price of modelling the seat as playing like the policy.
    """
    if others == "tree":
        return None
    if others == "policy":
        return frozenset()
    return prof.others_by_policy or None


def head_start(prof: SearchProfile, prior: float | None, by_policy: bool) -> float:
    """The share of a tree search's iterations credited to its favourite in the final count.

    The bot's own ``prior`` when given. Else, when the favourite is the playout policy's
    choice (``by_policy``: the profile's ``favourite``, see ``IsmctsBot._favourite``),
    the profile's ``favourite_prior``: a favourite that is a plan, such as Rummikub's
    held draw, should seldom be dropped on a few noisy playouts. Else
    :data:`DEFAULT_PRIOR`, so ``rollout=greedy`` keeps greedy's usual head start.
    """
    if prior is not None:
        return prior
    if by_policy:
        return prof.favourite_prior
    return DEFAULT_PRIOR


def margin_scale(game_id: str) -> float:
    """The score swing that squashes a hand's margin into [0, 1]: the game profile's ``margin_scale``.

    A bot tuning fact, so it sits in the profile beside the game's greedy heuristic; a game
    without one gets :data:`DEFAULT_MARGIN_SCALE`.
    """
    return profile(game_id).margin_scale


def seat_reward(
    gains: Sequence[float], seat: int, winners: Sequence[int] | None, lower_is_better: bool, scale: float
) -> float:
    """One seat's reward in [0, 1] for a playout: the search's only reward formula.

    ``gains``: each seat's score change over the playout (plus any estimate of the rest of
    the hand); ``winners``: the game's winners if the playout finished the game, else
    ``None``. The seat's margin over the mean gain (the other way round for a game whose
    lower score is better) is squashed by ``0.5 + 0.5 * tanh(margin / scale)``; a finished
    game averages that with the seat's share of the win. Every playout of the search,
    compiled or not, is scored here.
    """
    n = len(gains)
    mean = sum(gains) / n
    lead = gains[seat] - mean
    margin = 0.5 + 0.5 * math.tanh((-lead if lower_is_better else lead) / scale)
    if winners is None:
        return margin
    won = 1.0 / len(winners) if winners and seat in winners else 0.0
    return 0.5 * margin + 0.5 * won


def paired_difference(
    mine: Sequence[float], theirs: Sequence[float], weights: Sequence[float] | None = None
) -> tuple[float, float]:
    """The mean of ``mine - theirs`` paired by round, and its standard error (0, 0 with no rounds).

    With ``weights`` (one a round, not all 1) the weighted mean and its self-normalized
    standard error; with one round the error is 0.
    """
    diffs = [a - b for a, b in zip(mine, theirs, strict=True)]
    if not diffs:
        return 0.0, 0.0
    w = list(weights) if weights is not None else [1.0] * len(diffs)
    total = sum(w)
    if total <= 0:
        return 0.0, 0.0
    mean = sum(x * d for x, d in zip(w, diffs, strict=True)) / total
    if len(diffs) < 2:
        return mean, 0.0
    if all(x == 1.0 for x in w):
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        return mean, math.sqrt(var / len(diffs))
    spread = sum((x * (d - mean)) ** 2 for x, d in zip(w, diffs, strict=True))
    return mean, math.sqrt(spread) / total


def _paired_lead(mine: Sequence[float], theirs: Sequence[float], weights: Sequence[float] | None = None) -> float:
    """How many standard errors the mean of ``mine - theirs`` (paired by round) lies above zero.

    ``inf`` for a positive lead with no spread (every round agrees), ``-inf`` for none.
    With ``weights`` not all 1 (importance weights, one a round), the weighted mean and
    its self-normalized standard error, ``sqrt(sum(w² (d - mean)²)) / sum(w)``.
    """
    mean, err = paired_difference(mine, theirs, weights)
    if mean <= 0:
        return -math.inf
    if len(mine) < 2:
        return 0.0
    return math.inf if err <= 0 else mean / err
