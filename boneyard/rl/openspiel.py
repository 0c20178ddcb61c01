"""Every boneyard game as an OpenSpiel game: ``import boneyard.rl.openspiel`` registers them.

Each game is registered as ``python_boneyard_<id>`` (``pyspiel.load_game(
"python_boneyard_rounce", {"players": 3})``; every rules option is a game parameter
too). The declared facts:

- ``GameType``: sequential, explicit stochastic chance, imperfect information,
  general-sum (scores are not zero-sum in any of the games, except Montana's chips in
  dealer mode; general-sum claims nothing false there), rewards at hand ends.
- ``GameInfo``: the game's action count for the player count and rules,
  ``CHANCE_OUTCOMES`` (28) chance outcomes, utilities in [-1, 1] (a whole game's scaled
  score change; with ``reward="score"``, in points: plus or minus the bounds' width),
  and the game's ``max_game_length`` from ``boneyard.game_info`` (every
  game ends within it: the rules' ``max_hands``; as OpenSpiel counts it, chance nodes
  are not included).

Chance. Every tile that is dealt or drawn comes from an explicit chance node:

- the first dealer, when the game draws one (every game but two-box, where the highest
  double opens): one node, each seat equally likely (outcome: the seat);
- each hand's tiles: one node per tile of the game's set, in deal order (the hands, then
  what lies out, the turn-up, the boneyard in the order it is drawn). The outcome is the
  tile's kind (its index among the 28 double-six kinds, 0-0 = 0 ... 6-6 = 27), with
  probability copies left / tiles left: every unseen tile is equally likely.

The first hand's tiles are drawn before the game starts; each later hand's are drawn as
soon as the hand before is dealt (a face-down stock shuffled ahead), so that the engine
finds them ready when a hand ends; the last of them go unused when the game ends
first. The engine deals them through its ``deck_source`` hook. What is left to the
engine's own fixed-seed stream: a reshuffle the engine makes before chance could draw
another stock (two-box's redeal when nobody holds a double) and two-box's tie-break
between two holders of the same opening double, both rare.

Observations: ``observation_tensor`` is the encoding's vector (from the player's view
only; zeros before the first deal); ``information_state_tensor`` is that vector followed
by one entry per action index, 1 where the player took that action in this hand (its
own moves, which the view shows only through their effects; a fixed size, where the
whole game's history would not be); ``information_state_string`` is the player's view as
JSON with every event the player has seen since the game began (perfect recall: a view
lists only this hand's events and the previous hand's end, so the state keeps the
earlier ones once a perfect-recall observer asks for them), ``observation_string`` the
view with only its last 8 events. ``resample_from_infostate``
builds the state of a world drawn by ``boneyard.sample_game`` from the player's view, and
draws anew every tile chance has chosen that nobody has seen yet, so OpenSpiel's ISMCTS
runs on our games.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import pyspiel

from .. import api
from ..tiles import Tile
from .core import Table
from .encoding import HISTORY_WINDOW, KIND_INDEX, KINDS, Encoding, encoded_games, encoding
from .facts import check_reward

CHANCE_OUTCOMES = len(KINDS)
# OpenSpiel's player ids as plain ints (comparing with the pybind enums on every call is slow).
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_Item = TypeVar("_Item")


class _Flat(list[_Item]):
    """A list whose items never change (tiles, counts, whole decks once drawn).

    OpenSpiel clones a Python state by deep-copying each of its fields: for such a list a
    copy of the list is a deep copy, without visiting (and copying) every tile in it.
    """

    def __deepcopy__(self, memo: dict[int, Any]) -> _Flat[_Item]:
        return _Flat(self)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a game: ``python_boneyard_rounce``."""
    return f"python_boneyard_{game_id}"


#: The ``rewards`` parameter: paid at each hand's end (the default), or all at the game's end.
REWARDS_AT = ("hands", "end")


def game_type(game_id: str, rewards: str = "hands") -> pyspiel.GameType:
    """The truthful ``GameType`` of a game, with its player count and rules as parameters.

    ``rewards="end"`` declares terminal rewards (the whole return at the last step), which
    OpenSpiel's ``MCTSBot`` and other algorithms that read only outcomes require.
    """
    info = api.game_info(game_id)
    params: dict[str, Any] = {"players": info["players"]["default"], "rewards": "hands", "reward": "normalized",
                              "actions": "standard"}
    for name, option in info["options"].items():
        params[name] = option["default"]
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"boneyard {info['name']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=(pyspiel.GameType.RewardModel.TERMINAL if rewards == "end"
                      else pyspiel.GameType.RewardModel.REWARDS),
        max_num_players=info["players"]["max"],
        min_num_players=info["players"]["min"],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class BoneyardGame(pyspiel.Game):
    """A boneyard game for OpenSpiel; the subclass per game sets ``game_id``."""

    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        rewards = str(given.pop("rewards", "hands"))
        if rewards not in REWARDS_AT:
            raise ValueError(f"rewards must be 'hands' (at each hand's end) or 'end' (all at the game's end), "
                             f"got {rewards!r}")
        #: Whether the whole return is paid at the game's end (``rewards="end"``).
        self.rewards_at_end = rewards == "end"
        #: The reward scale: ``"normalized"`` (by the score bounds) or ``"score"`` (points).
        self.reward = check_reward(str(given.pop("reward", "normalized")))
        actions = str(given.pop("actions", "standard"))
        kind = game_type(self.game_id, rewards)
        spec = kind.parameter_specification
        unknown = sorted(set(given) - set(spec))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)} for {kind.short_name}; "
                             f"parameters: {', '.join(spec)}")
        players = int(given.pop("players", spec["players"]))
        rules = {k: given[k] for k in given}
        self.enc: Encoding = encoding(self.game_id, players, rules, actions)
        bound = self.enc.facts.return_bound(self.reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.enc.num_actions,
            max_chance_outcomes=max(CHANCE_OUTCOMES, players),
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            max_game_length=self.enc.facts.max_game_length,
        )
        super().__init__(kind, info, {"players": players, "rewards": rewards, "reward": self.reward, "actions": actions,
                                      **self.enc.rules})

    def new_initial_state(self) -> BoneyardState:
        """The state before anything is dealt: the first chance node."""
        return BoneyardState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BoneyardObserver:
        """The observer: the encoding's tensor, or the view as a string (perfect recall)."""
        if params:
            raise ValueError(f"observer parameters are not supported; got {params}")
        return BoneyardObserver(self.enc, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class BoneyardState(pyspiel.State):
    """A state: the chance outcomes drawn so far, and once dealt the engine game as a :class:`Table`."""

    def __init__(self, game: BoneyardGame) -> None:
        super().__init__(game)
        enc = self.enc = game.enc
        self._at_end = game.rewards_at_end
        self.table: Table | None = None
        n = enc.players
        self._returns: list[float] = _Flat([0.0] * n)
        self._rewards: list[float] = _Flat([0.0] * n)
        #: The first dealer, once chance has drawn it (``None`` in games without one).
        self.dealer: int | None = None
        self._dealer_due = enc.random_first_dealer
        #: The tiles drawn so far for the hand being drawn, in deal order.
        self.drawing: list[Tile] = _Flat()
        self._left: list[int] = _Flat()  # copies left per kind while a hand's tiles are drawn
        self._left_total = 0
        #: The next hand's tiles, drawn and waiting for the engine to deal them.
        self.pending: list[Tile] | None = None
        #: The tiles of every hand after the first, as the engine took them.
        self.later_decks: list[list[Tile]] = _Flat()
        self._drawing = False
        #: Per seat, the events it saw that the views no longer list (earlier hands), kept
        #: once a perfect-recall string is asked for (``None`` until then: see :meth:`recalled`).
        self._recall: list[list[Any]] | None = None
        #: Per seat, the action indices it took in this hand (the information-state tensor's last block).
        self.taken: list[tuple[int, ...]] = _Flat(() for _ in range(enc.players))
        if not self._dealer_due:
            self._start_drawing()
        self._player = _CHANCE  # OpenSpiel asks often: kept up to date

    def _start_drawing(self) -> None:
        """Begin drawing a hand's tiles: every tile of the set unseen."""
        self._drawing = True
        self.drawing = _Flat()
        left = _Flat([0] * CHANCE_OUTCOMES)
        for t in self.enc.full_set:
            left[KIND_INDEX[t]] += 1
        self._left = left
        self._left_total = len(self.enc.full_set)

    def _update_player(self) -> None:
        table = self.table
        if self._drawing or self._dealer_due:
            self._player = _CHANCE
        elif table is None or table.seat is None:
            self._player = _TERMINAL
        else:
            self._player = table.seat

    def _take_deck(self, full: list[Tile]) -> list[Tile] | None:
        """The engine's ``deck_source``: the next hand's tiles as chance drew them.

        ``None`` (the engine's own shuffle) only when one move needs a second deck before
        chance can draw one (a two-box redeal).
        """
        deck = self.pending
        self.pending = None
        if deck is not None:
            self.later_decks.append(deck)
        return deck

    # ----- the OpenSpiel State interface ------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while the dealer or tiles are drawn, ``TERMINAL`` at the end."""
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.table is not None and player == self.table.seat
        return sorted(self.table.legal())

    # The three calls below answer from Python what OpenSpiel's C++ ``State`` would answer
    # by calling back into Python several times (and, for the tensor, building a state and
    # an observation twice); C++ callers still take the C++ path, which gives the same values.

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the one to act), as OpenSpiel's ``State`` gives them."""
        me = self._player
        if me == _TERMINAL:
            return []
        if me == _CHANCE:  # the chance outcomes, whoever asks (as the C++ path answers)
            if self._dealer_due:
                return list(range(self.enc.players))
            return [k for k, c in enumerate(self._left) if c]
        if player is None or player == me:
            return self._legal_actions(me)
        if player < 0:
            raise pyspiel.SpielError(f"legal actions asked for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        """Whether the next action is chance's: the first dealer or a tile of a hand."""
        return self._player == _CHANCE

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (default: the one to act), as the game's observer writes it."""
        if player is None:
            player = self._player
        if not 0 <= player < self.enc.players:
            raise pyspiel.SpielError(f"observation tensor asked for player {player}; players are 0 to "
                                     f"{self.enc.players - 1}")
        if self.table is None:
            return [0.0] * self.enc.obs_size
        return self.table.observe_list(player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s information-state tensor: its observation, then 1 per action index it took this hand."""
        if player is None:
            player = self._player
        if not 0 <= player < self.enc.players:
            raise pyspiel.SpielError(f"information state tensor asked for player {player}; players are 0 to "
                                     f"{self.enc.players - 1}")
        out = self.observation_tensor(player) + [0.0] * self.enc.num_actions
        base = self.enc.obs_size
        for index in self.taken[player]:
            out[base + index] = 1.0
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first dealer (each seat alike), or the next tile: each kind as likely as its unseen copies."""
        assert self._player == _CHANCE
        if self._dealer_due:
            n = self.enc.players
            return [(s, 1.0 / n) for s in range(n)]
        inv = 1.0 / self._left_total
        return [(k, c * inv) for k, c in enumerate(self._left) if c]

    def _apply_action(self, action: int) -> None:
        if self._player == _CHANCE:
            self._apply_chance(int(action))
            return
        table = self.table
        assert table is not None
        game = table.game
        recall = self._recall
        # While perfect recall is kept, each seat's events before the move: a move that deals
        # a hand cuts the earlier ones from the views.
        before = None if recall is None else [(game.events_from(s), game.events(s)) for s in range(self.enc.players)]
        game.deck_source = self._take_deck
        seat, hand = self._player, game.hand_number
        try:
            paid = table.play_index(int(action))
        finally:
            game.deck_source = None
        if game.hand_number != hand:
            self.taken = _Flat(() for _ in range(self.enc.players))
        else:
            taken = _Flat(self.taken)
            taken[seat] = (*taken[seat], int(action))
            self.taken = taken
        if before is not None:
            self._keep_cut(before)
        if paid is None:  # most decisions: no hand ended, every reward zero
            if any(self._rewards):
                self._rewards = _Flat([0.0] * self.enc.players)
        else:
            self._rewards = _Flat(paid)
            if any(paid):
                self._returns = _Flat(r + d for r, d in zip(self._returns, paid, strict=True))
        if self.pending is None and not table.over:
            self._start_drawing()  # the next hand's tiles, ready before the engine needs them
        self._update_player()

    def _keep_cut(self, before: list[tuple[int, list[Any]]]) -> None:
        """Add to each seat's recall the events the last move cut from its view."""
        assert self._recall is not None and self.table is not None
        game = self.table.game
        for seat, (start, events) in enumerate(before):
            cut = game.events_from(seat) - start
            if cut:
                # A new list: clones share the lists of events (see _Flat).
                self._recall[seat] = _Flat([*self._recall[seat], *events[:cut]])

    def recalled(self) -> list[list[Any]]:
        """Per seat, the events it saw that its view no longer lists (the hands before the last one's end).

        Kept from the first call on; on the first, made by replaying this state's chance
        outcomes and moves from the start in a fresh state that keeps them.
        """
        if self._recall is None:
            fresh = BoneyardState(self.get_game())
            fresh._recall = _Flat(_Flat() for _ in range(self.enc.players))
            for step in self.full_history():  # every chance outcome and move, in order
                fresh.apply_action(step.action)
            self._recall = fresh._recall
        return self._recall

    def _apply_chance(self, action: int) -> None:
        """Apply a chance outcome: the first dealer, or the next tile of the hand being drawn.

        The rewards of the last decision stay as they are: OpenSpiel reads them at the
        next decision node, after the chance nodes that draw the next hand's tiles.
        """
        if self._dealer_due:
            if not 0 <= action < self.enc.players:
                raise ValueError(f"the first dealer is a seat from 0 to {self.enc.players - 1}, got {action}")
            self.dealer = action
            self._dealer_due = False
            self._start_drawing()
            self._update_player()
            return
        left = self._left
        if not 0 <= action < CHANCE_OUTCOMES or not left[action]:
            unseen = ", ".join(str(KINDS[k]) for k, c in enumerate(left) if c)
            raise ValueError(f"chance outcome {action} is not an unseen tile; unseen: {unseen}")
        left[action] -= 1
        self._left_total -= 1
        self.drawing.append(KINDS[action])
        if self._left_total == 0:
            deck, self.drawing, self._drawing = self.drawing, _Flat(), False
            if self.table is None:
                self.table = Table(self.enc, 0, deck=deck, dealer=self.dealer, reward=self.get_game().reward)
                if not self.table.over:
                    self._start_drawing()
            else:
                self.pending = deck
        self._update_player()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if self._dealer_due:
                return f"seat {action} deals first"
            return f"tile {KINDS[action]}" if 0 <= action < CHANCE_OUTCOMES else f"tile {action}?"
        if self.table is not None and not self.table.over and player == self.table.seat:
            legal = self.table.legal()
            if action in legal:
                return str(legal[action])
        return self.enc.action_name(int(action))

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        """Each player's total reward so far (the scaled score change since the start; with
        ``rewards="end"``, zero until the game is over)."""
        if self._at_end and not self.is_terminal():
            return [0.0] * self.enc.players
        return list(self._returns)

    def rewards(self) -> list[float]:
        """Each player's reward for the last decision (non-zero only when it ended a hand; chance adds none;
        with ``rewards="end"``, the whole return at the last step and zero before)."""
        if self._at_end:
            return list(self._returns) if self.is_terminal() else [0.0] * self.enc.players
        return list(self._rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> BoneyardState:
        """A state of a world consistent with ``player_id``'s view (``boneyard.sample_game``).

        The hidden tiles in play are dealt anew from the view, and every tile chance has
        drawn that nobody has seen (the next hand's, or those of a hand being drawn) is
        drawn anew too. The sampler's number seeds it all, so the same number gives the
        same world.
        """
        recall = self.recalled()
        new: BoneyardState = self.clone()
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        if self.table is not None and not self.table.over:
            world = api.sample_game(self.table.game.view(player_id), rng)
            new.table = self.table.with_game(world)
            # The world's log is the player's events, as every seat's: so is what came before.
            new._recall = _Flat(recall[player_id] for _ in range(self.enc.players))
            # Only the player's own moves are its to know: the others' are not carried into the world.
            new.taken = _Flat(self.taken[s] if s == player_id else () for s in range(self.enc.players))
        if self.pending is not None:
            deck = list(self.enc.full_set)
            rng.shuffle(deck)
            new.pending = _Flat(deck)
        if self.drawing:
            pool = list(self.enc.full_set)
            rng.shuffle(pool)
            new.drawing = _Flat(pool[: len(self.drawing)])
            left = Counter(KIND_INDEX[t] for t in self.enc.full_set)
            left.subtract(KIND_INDEX[t] for t in new.drawing)
            new._left = _Flat(left[k] for k in range(CHANCE_OUTCOMES))
        new._update_player()
        return new

    def __str__(self) -> str:
        """The whole state: the chance outcomes so far and the engine's record rebuild it exactly."""
        return json.dumps(
            {
                "dealer": self.dealer,
                "record": None if self.table is None else self.table.game.record(),
                "later_decks": [[str(t) for t in d] for d in self.later_decks],
                "pending": None if self.pending is None else [str(t) for t in self.pending],
                "drawing": [str(t) for t in self.drawing],
            },
            sort_keys=True,
            separators=(",", ":"),
        )


class BoneyardObserver:
    """OpenSpiel's observer interface over a seat's view."""

    def __init__(self, enc: Encoding, iig_obs_type: Any) -> None:
        self.enc = enc
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("boneyard observers show one player's view (public and own private information) only")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        # Perfect recall: the information-state tensor (the observation, then the actions
        # the player took this hand); else the observation tensor.
        size = enc.obs_size + (enc.num_actions if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: enc.obs_size]}
        if self.perfect_recall:
            self.dict["actions_taken_this_hand"] = self.tensor[enc.obs_size :]

    def set_from(self, state: BoneyardState, player: int) -> None:
        """Write the player's observation vector (zeros before the game is dealt), and with perfect
        recall the actions it took this hand after it."""
        size = self.enc.obs_size
        if state.table is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:size] = state.table.observe(player)
        if self.perfect_recall:
            self.tensor[size:] = 0.0
            for index in state.taken[player]:
                self.tensor[size + index] = 1.0

    def string_from(self, state: BoneyardState, player: int) -> str:
        """The player's view as JSON: with every event it has seen (perfect recall), or with its last 8 only."""
        if state.table is None:
            return f"player {player}: the first hand is being drawn"
        view = state.table.game.view(player)
        events = view["events"]
        if self.perfect_recall:
            earlier = state.recalled()[player]
            view["events"] = [*earlier, *events]
            view["events_from"] -= len(earlier)
        elif len(events) > HISTORY_WINDOW:
            view["events"] = events[-HISTORY_WINDOW:]
            view["events_from"] += len(events) - HISTORY_WINDOW
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _register() -> None:
    """Register every game with OpenSpiel (once per process)."""
    registered = set(pyspiel.registered_names())
    for game_id in encoded_games():
        name = short_name(game_id)
        if name in registered:
            continue
        cls = type(f"Boneyard{game_id.capitalize()}Game", (BoneyardGame,), {"game_id": game_id})
        globals()[cls.__name__] = cls
        pyspiel.register_game(game_type(game_id), cls)


_register()
