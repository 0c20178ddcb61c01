"""Every boneyard game as an OpenSpiel game: ``import boneyard.rl.openspiel`` registers them.

Each game is registered as ``python_boneyard_<id>`` (``pyspiel.load_game(
"python_boneyard_rounce", {"players": 3})``; every rules option is a game parameter
too). The declared facts:

- ``GameType``: sequential, explicit stochastic chance, imperfect information,
  general-sum (scores are not zero-sum in any of the games, except Montana's chips in
  dealer mode; general-sum claims nothing false there), rewards at hand ends.
- ``GameInfo``: the game's action count for the player count and rules, 256 chance
  outcomes, utilities in [-1, 1] (a whole game's scaled score change), and the game's
  ``max_game_length`` from ``boneyard.game_info`` (every game ends within it: the rules'
  ``max_hands``).

Chance. The engine draws all its randomness (the first dealer, every hand's shuffle and
so every deal and draw, and the engine's own tie-breaks) from one seeded stream, as
the physical game draws every tile from a shuffled stock. The OpenSpiel game makes that
seed explicit: the game starts with ``SEED_BYTES`` chance nodes of 256 equally likely
outcomes, the bytes of a 64-bit game seed, hidden from every player. Every deal and draw
is then a function of that chance outcome; the action count stays finite (256), and a
state is exactly ``boneyard.new_game(id, seed=...)`` plus the players' actions.

Observations: ``observation_tensor`` is the encoding's vector (from the player's view
only); ``information_state_string`` is the player's whole view as JSON (perfect recall:
the view carries the player's history), ``observation_string`` the view with only the
recent history. ``resample_from_infostate`` builds the state of a world drawn by
``boneyard.sample_game`` from the player's view, so OpenSpiel's ISMCTS runs on our games.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from .. import api
from .core import Table
from .encoding import HISTORY_WINDOW, Encoding, encoded_games, encoding

SEED_BYTES = 8
CHANCE_OUTCOMES = 256
# OpenSpiel's player ids as plain ints (comparing with the pybind enums on every call is slow).
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_SEED_OUTCOMES = [(b, 1.0 / CHANCE_OUTCOMES) for b in range(CHANCE_OUTCOMES)]


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a game: ``python_boneyard_rounce``."""
    return f"python_boneyard_{game_id}"


def game_type(game_id: str) -> pyspiel.GameType:
    """The truthful ``GameType`` of a game, with its player count and rules as parameters."""
    info = api.game_info(game_id)
    params: dict[str, Any] = {"players": info["players"]["default"]}
    for name, option in info["options"].items():
        params[name] = option["default"]
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"boneyard {info['name']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=info["players"]["max"],
        min_num_players=info["players"]["min"],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class BoneyardGame(pyspiel.Game):
    """A boneyard game for OpenSpiel; the subclass per game sets ``game_id``."""

    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        kind = game_type(self.game_id)
        given = dict(params or {})
        spec = kind.parameter_specification
        unknown = sorted(set(given) - set(spec))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)} for {kind.short_name}; "
                             f"parameters: {', '.join(spec)}")
        players = int(given.pop("players", spec["players"]))
        rules = {k: given[k] for k in given}
        self.enc: Encoding = encoding(self.game_id, players, rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.enc.num_actions,
            max_chance_outcomes=CHANCE_OUTCOMES,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=self.enc.facts.max_game_length,
        )
        super().__init__(kind, info, {"players": players, **self.enc.rules})

    def new_initial_state(self) -> BoneyardState:
        """The state before the seed is drawn."""
        return BoneyardState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BoneyardObserver:
        """The observer: the encoding's tensor, or the view as a string (perfect recall)."""
        if params:
            raise ValueError(f"observer parameters are not supported; got {params}")
        return BoneyardObserver(self.enc, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class BoneyardState(pyspiel.State):
    """A state: the seed's bytes drawn so far, then the engine game as a :class:`Table`."""

    def __init__(self, game: BoneyardGame) -> None:
        super().__init__(game)
        self.enc = game.enc
        self.seed_bytes: list[int] = []
        self.table: Table | None = None
        n = self.enc.players
        self._returns = [0.0] * n
        self._rewards = [0.0] * n
        self._player = _CHANCE  # OpenSpiel asks often: kept up to date

    def _update_player(self) -> None:
        table = self.table
        if table is None:
            self._player = _CHANCE
        else:
            seat = table.seat
            self._player = _TERMINAL if seat is None else seat

    # ----- the OpenSpiel State interface ------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while the seed is drawn, ``TERMINAL`` at the end."""
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
        if me == _CHANCE:
            return list(range(CHANCE_OUTCOMES))
        if player is None or player == me:
            return self._legal_actions(me)
        if player < 0:
            raise pyspiel.SpielError(f"legal actions asked for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        """Whether the next action is a byte of the game seed."""
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

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next byte of the game seed: 256 equally likely outcomes."""
        assert self.table is None
        return list(_SEED_OUTCOMES)

    def _apply_action(self, action: int) -> None:
        if self.table is None:
            if not 0 <= action < CHANCE_OUTCOMES:
                raise ValueError(f"a seed byte is 0 to 255, got {action}")
            self.seed_bytes.append(int(action))
            if len(self.seed_bytes) == SEED_BYTES:
                self.table = Table(self.enc, int.from_bytes(bytes(self.seed_bytes), "big"))
                self._update_player()
            return
        self._rewards = self.table.play(int(action))
        if any(self._rewards):
            self._returns = [r + d for r, d in zip(self._returns, self._rewards, strict=True)]
        self._update_player()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"seed byte {action}"
        if self.table is not None and not self.table.over and player == self.table.seat:
            legal = self.table.legal()
            if action in legal:
                return str(legal[action])
        return self.enc.action_name(int(action))

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        """Each player's total reward so far (the scaled score change since the start)."""
        return list(self._returns)

    def rewards(self) -> list[float]:
        """Each player's reward for the last action (non-zero only when a hand ended)."""
        return list(self._rewards)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> BoneyardState:
        """A state of a world consistent with ``player_id``'s view (``boneyard.sample_game``).

        The sampler's number seeds the sampling, so the same number gives the same world.
        Before the seed is drawn there is nothing hidden yet: a clone.
        """
        new: BoneyardState = self.clone()
        if self.table is None or self.table.over:
            return new
        seed = int(float(probability_sampler()) * 2**53)
        world = api.sample_game(self.table.game.view(player_id), random.Random(seed))
        new.table = self.table.with_game(world)
        new._update_player()
        return new

    def __str__(self) -> str:
        """The whole state: the engine's record (seed and actions) rebuilds it exactly."""
        if self.table is None:
            return f"seed bytes {self.seed_bytes}"
        return json.dumps(self.table.game.record(), sort_keys=True, separators=(",", ":"))


class BoneyardObserver:
    """OpenSpiel's observer interface over a seat's view."""

    def __init__(self, enc: Encoding, iig_obs_type: Any) -> None:
        self.enc = enc
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("boneyard observers show one player's view (public and own private information) only")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = 0 if self.perfect_recall else enc.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BoneyardState, player: int) -> None:
        """Write the player's observation vector (zeros before the game is dealt)."""
        if self.perfect_recall:
            return
        if state.table is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state.table.observe(player)

    def string_from(self, state: BoneyardState, player: int) -> str:
        """The player's view as JSON: all of it (perfect recall), or with the recent history only."""
        if state.table is None:
            return f"player {player}: the game seed is being drawn"
        view = state.table.game.view(player)
        if not self.perfect_recall:
            view["history"] = view["history"][-HISTORY_WINDOW:]
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
