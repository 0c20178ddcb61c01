"""Inference from play: sampled worlds weighted by how well they explain the others' actions.

``boneyard.sample_game(view, rng)`` deals the hidden tiles uniformly within what the rules
prove (a seat that did not follow suit holds none of it). But a choice reveals more than
the rules do: a seat that passed in the bidding probably holds a weak hand, a seat that
threw a low tile on its partner's winning trick probably had no count to give. This
module weighs a sampled world by the *likelihood* of the other seats' public actions in
it, under a model of how they play, and resamples by that weight (sampling importance
resampling, SIR):

- **The model.** Each other seat is taken to play the game's greedy heuristic, departing
  from it with probability ``epsilon`` (the game profile's ``infer_epsilon``, else
  :data:`DEFAULT_EPSILON`) spread evenly over the other legal actions: an action greedy
  would have chosen has likelihood ``1 - epsilon``, any other ``epsilon / (n - 1)`` among
  ``n`` legal actions, and a forced action 1. A world's weight is the product over the
  other seats' past decisions (seats decide independently given their hands).
- **The past decisions.** Which decisions can be re-asked, and with what hand, is a fact
  of each game: its profile's ``past_decisions(view, world, seat)`` lists them
  (a past view of that seat, the legal actions then, and a test for the action taken),
  built from the searching seat's view (its public tricks and bids) and that seat's hand
  in the sampled world. A game without it is not weighted (every world counts the same).
- **A cheaper model.** A game's profile may instead give a ``seat_weight(view, world, seat)``:
  the likelihood of a seat's hand in the world, read from the view's public state without
  re-asking past decisions (Montana: how far the hand is from going out, against how far
  real hands are at that point of a hand). It is used in place of ``past_decisions``.
- **Importance weights.** With one candidate and a ``seat_weight``, the flat
  search draws worlds uniformly and weighs each one's playouts by its weight
  (:meth:`Inference.sample_weighted`): the same reading with no world drawn in vain.
- **Exchanges replayed.** A game's profile may give an ``explain(view, world, rng)`` that
  rebuilds, in each uniformly drawn world, what another seat kept when it exchanged
  tiles face down, by the same model (Rounce: a dummy's or a taking dealer's best five
  of what it drew), and may reject a world whose hands contradict a call (a weight of
  0 or 1: a seat that passed on a weak hand), which is then drawn again, at most
  :data:`EXPLAIN_TRIES` times. Montana's instead gives each seat what its claim
  windows proved it holds (a pair it passed on, the tiles of a claim it lost). It is on
  wherever the game has one unless its profile's ``explain_by_default`` is false (Montana's: no
  gain measured), whatever ``candidates``; ``explain=0`` or ``1`` decides instead.
- **The cost cap.** Each weighted sample draws ``candidates`` worlds and keeps one with
  probability proportional to its weight, so a sample costs ``candidates`` uniform draws
  plus the weighing; at most :data:`MAX_DECISIONS` of a seat's most recent decisions are
  judged, and a seat's likelihood is cached by its hand for the rest of the decision, so
  a hand seen again costs nothing.

Only what the searching seat's view shows (its public state and events) and the sampled
world's hands enter: the real game is never read.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..api import sample_game
from .profile import profile

MAX_DECISIONS = 16  # per other seat: the most recent decisions judged
EXPLAIN_TRIES = 64  # worlds drawn at most for one that the game's explain accepts

# A past decision of another seat: its view then, the legal actions then, and a test of
# whether an action (as greedy would return it) is the one the seat took.
Decision = tuple[dict[str, Any], Sequence[Any], Callable[[Any], bool]]


def candidates_for(game_id: str) -> int:
    """Worlds drawn per weighted sample for a game: its profile's ``infer_candidates``.

    0 for a game whose profile has neither a ``past_decisions`` nor a ``seat_weight``:
    there is nothing to weigh, so the search samples uniformly.
    """
    prof = profile(game_id)
    return prof.infer_candidates if prof.weighs else 0


class Inference:
    """Weighted sampling of worlds for one decision of one seat (see the module).

    ``Inference(view, candidates)``: ``candidates`` worlds are drawn per :meth:`sample`
    (0 or 1: no weighing). Every world is drawn by :meth:`draw`, which applies the game's
    ``explain`` when ``explain`` is true (``None``: the profile's
    ``explain_by_default``). ``ValueError`` from the game's sampler passes through.
    """

    def __init__(
        self, view: dict[str, Any], candidates: int, epsilon: float | None = None, explain: bool | None = None
    ) -> None:
        self.view = view
        self.seat: int | None = view.get("seat")
        prof = profile(view["game"])
        if explain is None:  # the game's own default: on unless its profile says off
            explain = prof.explain_by_default
        self.explain: Callable[[dict[str, Any], Any, random.Random], Any] | None = (
            prof.explain if explain and self.seat is not None else None
        )
        self.decisions: Callable[[dict[str, Any], Any, int], list[Decision]] | None = prof.past_decisions
        self.choose: Callable[[dict[str, Any], Sequence[Any], random.Random], Any] | None = prof.choose
        self.seat_weight: Callable[[dict[str, Any], Any, int], float] | None = prof.seat_weight
        weighable = self.decisions is not None or self.seat_weight is not None
        self.candidates = candidates if weighable and self.seat is not None else 0
        eps = epsilon if epsilon is not None else prof.infer_epsilon
        if not 0 < eps <= 1:
            raise ValueError(f"inference epsilon must be in (0, 1], got {eps!r}")
        self.epsilon = eps
        self._cache: dict[tuple[int, tuple[str, ...]], float] = {}
        self._judged = False  # some other seat had a decision with a choice (known after the first world)
        self.weighed = 0  # worlds weighed (for tests and benchmarks)
        self.explained = 0  # worlds the game's explain accepted ...
        self.rejected = 0  # ... and rejected (for tests and benchmarks)

    def draw(self, rng: random.Random) -> Any:
        """One world dealt uniformly within the rules, then the game's ``explain`` (if on).

        A world it rejects (its hands contradict another seat's call) is drawn again,
        at most :data:`EXPLAIN_TRIES` times; after that the last one is used as dealt, so a
        view the model cannot explain costs a bounded time and still gets a world.
        """
        world = sample_game(self.view, rng)
        if self.explain is None:
            return world
        for _ in range(EXPLAIN_TRIES):
            explained = self.explain(self.view, world, rng)
            if explained is not None:
                self.explained += 1
                return explained
            self.rejected += 1
            world = sample_game(self.view, rng)
        return world

    def sample(self, rng: random.Random) -> Any:
        """One world: :meth:`draw`'s if inference is off, else the SIR pick among ``candidates`` draws."""
        if self.candidates <= 1:
            return self.draw(rng)
        worlds = [self.draw(rng)]
        weights = [self.weight(worlds[0])]
        if not self._judged:
            # nobody else has had a choice yet (a fact of the view, not of the world):
            # weighing would change nothing, so this decision samples uniformly
            self.candidates = 1
            return worlds[0]
        for _ in range(self.candidates - 1):
            worlds.append(self.draw(rng))
            weights.append(self.weight(worlds[-1]))
        total = sum(weights)
        if total <= 0:
            return worlds[rng.randrange(len(worlds))]
        pick = rng.random() * total
        for world, w in zip(worlds, weights, strict=True):
            pick -= w
            if pick < 0:
                return world
        return worlds[-1]

    def sample_weighted(self, rng: random.Random) -> tuple[Any, float]:
        """One world and the weight its statistics should carry (for the flat search).

        With ``candidates`` 1 and the game's ``seat_weight`` (*importance weights*),
        one uniform world and its weight: nothing is drawn in vain, and the search weighs
        each world's playouts instead of choosing among worlds. Otherwise :meth:`sample`'s
        world with weight 1.
        """
        if self.candidates == 1 and self.seat_weight is not None:
            world = self.draw(rng)
            return world, self.weight(world)
        return self.sample(rng), 1.0

    def weight(self, world: Any) -> float:
        """The likelihood of the other seats' past actions in ``world`` under the model."""
        self.weighed += 1
        out = 1.0
        for s in range(world.players):
            if s != self.seat:
                out *= self.seat_likelihood(world, s)
        return out

    def seat_likelihood(self, world: Any, seat: int) -> float:
        """The likelihood of ``seat``'s past actions given its hand in ``world`` (cached by hand).

        With the game's ``seat_weight``, its weight of the hand instead.
        """
        key = (seat, tuple(str(t) for t in world.hands[seat]))
        found = self._cache.get(key)
        if found is not None:
            return found
        if self.seat_weight is not None:
            value = float(self.seat_weight(self.view, world, seat))
            self._judged = True
            self._cache[key] = value
            return value
        assert self.decisions is not None and self.choose is not None
        value = 1.0
        eps = self.epsilon
        for past, legal, taken in self.decisions(self.view, world, seat)[-MAX_DECISIONS:]:
            n = len(legal)
            if n < 2:
                continue
            self._judged = True
            agree = taken(self.choose(past, legal, random.Random(0)))
            value *= (1 - eps) if agree else eps / (n - 1)
        self._cache[key] = value
        return value
