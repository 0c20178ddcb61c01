"""The rules of the ratings: which finished games count, for whom, and how a rating is shown.

Everything here is a pure function of facts the server already holds (``social.py``
gathers them and stores the result), so the rules can be read, tested and documented in
one place (``docs/api.md``, "Ratings"):

- **Rated means played.** A game is *aborted* (rated for nobody) when some human seat
  made fewer than :data:`MIN_OWN_DECISIONS` decisions of its own: a game resigned, left
  or timed out before everyone really played cannot be farmed for wins. A seat whose
  decisions were made by a stand-in bot (the move clock's bot, or a bot the seat was
  handed to) more than :data:`MAX_STANDIN_SHARE` of the time is unrated for its player;
  the others are still rated against it. What a resigned seat's bot plays after the
  resignation does not count either way: a resignation ranks last.
- **True ranks with ties.** Winners first, then by score (lower first where the game
  says so), sides that resigned last; equal places share one rank. Openskill's
  Bradley-Terry model compares every pair of sides, so a tie for first never lifts the
  third place above the winners.
- **Each rated name once a game.** A bot holding several seats moves once, by the mean
  of its seats' changes.
- **A familiar scale.** The conservative estimate ``mu - 3 sigma`` (a new player's is 0)
  shown as ``1500 + 30 x`` it, "provisional" until :data:`PROVISIONAL_GAMES` games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

MIN_OWN_DECISIONS = 2  # decisions each human must make themselves for a game to count
MAX_STANDIN_SHARE = 0.5  # above this share of a seat's decisions made by a bot, the seat is unrated
PROVISIONAL_GAMES = 5  # rated games before a rating stops being provisional
BASE = 1500  # what a new player is shown
# Elo points per openskill skill unit: a 400-point gap is 10 to 1 odds in Elo; in
# openskill's Bradley-Terry model the odds are exp(gap / c) with c = sqrt(2) * beta and
# beta = 25/6, so one unit of mu is 400 / (ln 10 * c), about 30 Elo points.
SCALE = 30.0


@dataclass(frozen=True)
class SeatPlay:
    """Who made one seat's decisions, as the stored actions tell it.

    ``own``: decisions its human made; ``standin``: decisions a bot made for it while its
    player was still in the game (the move clock's bot, a stand-in); ``human``: the seat
    is a human seat (bot seats are always rated); ``resigned``: its player resigned.
    """

    human: bool
    own: int = 0
    standin: int = 0
    resigned: bool = False


@dataclass(frozen=True)
class Verdict:
    """What a finished game counts for: ``rated`` seats, or nothing with ``reason`` (the log's words)."""

    rated: frozenset[int]
    aborted: bool = False
    reason: str = ""
    unrated: dict[int, str] = field(default_factory=dict)  # seat -> why it does not count for its player


def judge(plays: Sequence[SeatPlay], names: Mapping[int, str]) -> Verdict:
    """Which seats a finished game is rated for, and why the others are not.

    Aborted for everybody when a human seat made fewer than :data:`MIN_OWN_DECISIONS`
    decisions of its own (a resignation, a departure or an absence before the game really
    began); otherwise every seat is rated except a human seat whose decisions were made by
    a stand-in bot more than :data:`MAX_STANDIN_SHARE` of the time. ``names`` names the
    seats in the messages.
    """
    short = [s for s, p in enumerate(plays) if p.human and p.own < MIN_OWN_DECISIONS]
    if short:
        who = _join([names.get(s, "a player") for s in short])
        made = (f"each made fewer than {_moves(MIN_OWN_DECISIONS)}" if len(short) > 1
                else f"made {_moves(plays[short[0]].own)}")
        return Verdict(frozenset(), aborted=True,
                       reason=f"this game is not rated: {who} {made} of their own, and a rated game needs "
                              f"{_moves(MIN_OWN_DECISIONS)} from each player")
    unrated: dict[int, str] = {}
    for s, p in enumerate(plays):
        total = p.own + p.standin
        if p.human and total and p.standin / total > MAX_STANDIN_SHARE:
            unrated[s] = (f"not rated for {names.get(s, 'a player')}: a bot made {p.standin} of their {total} "
                          f"decisions (a rated game allows a bot at most {_share()} of them)")
    rated = frozenset(s for s in range(len(plays)) if s not in unrated)
    return Verdict(rated, unrated=unrated)


def ranks(sides: Sequence[Sequence[int]], scores: Sequence[float], winners: Sequence[int],
          lower_is_better: bool, resigned: Sequence[int]) -> list[int]:
    """Each side's place, 1 first, equal places for a tie: what openskill is given.

    Sides holding a winner come first, then the rest by score (lower first when
    ``lower_is_better``); sides that resigned come after everyone who did not, the first
    to resign lowest, whatever their bot scored afterwards. A side's score is its first
    seat's (a partnership's seats share one).
    """
    sign = -1.0 if lower_is_better else 1.0
    win = set(winners)

    def key(side: Sequence[int]) -> tuple[int, float]:
        score = sign * scores[side[0]] if side[0] < len(scores) else 0.0
        return (1 if any(s in win for s in side) else 0, score)

    gone = {i: min(resigned.index(s) for s in side if s in resigned) for i, side in enumerate(sides)
            if any(s in resigned for s in side)}
    live = [i for i in range(len(sides)) if i not in gone]
    out = [0] * len(sides)
    for i in live:
        out[i] = 1 + sum(1 for j in live if key(sides[j]) > key(sides[i]))
    for i, when in gone.items():
        out[i] = len(live) + 1 + sum(1 for other in gone.values() if other > when)
    return out


def combine(changes: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """One rating from the new ``(mu, sigma)`` of each seat a name held in one game: the means.

    A bot at several seats of a table played one game: it moves once, by its seats'
    average result, rather than once per seat.
    """
    n = len(changes)
    return sum(mu for mu, _ in changes) / n, sum(sigma for _, sigma in changes) / n


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate ``mu - 3 sigma``: the leaderboard's order."""
    return mu - 3.0 * sigma


def shown(mu: float, sigma: float) -> int:
    """The rating players see: ``1500 + 30 (mu - 3 sigma)``, a whole number on an Elo-like scale.

    A new player shows 1500; every game that confirms a skill lowers sigma, so a rating
    rises as the server grows sure of it (and falls with losses).
    """
    value = BASE + SCALE * ordinal(mu, sigma)
    return math.floor(value + 0.5) if math.isfinite(value) else BASE


def provisional(games: int) -> bool:
    """Whether a rating is still provisional: fewer than :data:`PROVISIONAL_GAMES` rated games."""
    return games < PROVISIONAL_GAMES


def board_label(players: int) -> str:
    """A leaderboard's name: its player count ("2 players")."""
    return f"{players} player" + ("" if players == 1 else "s")


def rules_text() -> list[str]:
    """The rules of the ratings in a player's words: the leaderboard page shows them."""
    return [
        "Each player count has its own board: a 2-player game only moves the 2-player board.",
        f"A game counts only if every player made at least {_moves(MIN_OWN_DECISIONS)} of their own: "
        "a game resigned, left or timed out before that is aborted and rated for nobody.",
        f"A player whose decisions were made by a bot (the clock's or a stand-in) more than {_share()} "
        "of the time is not rated for that game; the others are.",
        "A player who resigns ranks below everyone who did not. Tied players share their place.",
        "A bot playing several seats of one game is rated once for it.",
        "A bot account (a program its owner connects) is rated like a person when it plays people; its "
        "games against other bot accounts count on the bots' board only.",
        "Practice tables with a chosen deal never count.",
        f"The rating is {BASE} + {SCALE:g} × (μ − 3σ) of openskill's Bradley-Terry model: a new player shows {BASE}, "
        f"and a rating is provisional until {PROVISIONAL_GAMES} rated games.",
    ]


def _moves(n: int) -> str:
    return f"{n} move" + ("" if n == 1 else "s")


def _share() -> str:
    return f"{round(MAX_STANDIN_SHARE * 100)}%"


def _join(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


BOT_ACCOUNT = "botacct:"  # the player id of a bot account's seats (botapi.py)
BOTS_BOARD = "botboard:"  # a bot account's rating on the bots' board


def board_keys(keys: Sequence[str]) -> list[str]:
    """The rating rows a finished game's seats count on: bots among themselves have their own board.

    Why: a program that plays thousands of games against other programs must not fill
    the people's boards, yet against people it is rated like anyone. So when every seat
    is a bot account (``botacct:ID``), each counts on the bots' board (``botboard:ID``);
    otherwise the keys are unchanged and the game counts on the people's boards.
    """
    if keys and all(k.startswith(BOT_ACCOUNT) for k in keys):
        return [BOTS_BOARD + k[len(BOT_ACCOUNT):] for k in keys]
    return list(keys)
