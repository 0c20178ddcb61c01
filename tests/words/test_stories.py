"""Whole random games told to every seat and to a spectator: every sentence reads as words for people.

Seeded games of every game, player count and a few rules options are played with random
legal actions (half of them leaning towards the rarer choices: passing, folding, calling
dummy or Nel-O, so that thrown-in hands, defended hands and blocked hands happen too).
Then every event of ``boneyard.api.story(record, seat)`` is told, for each seat and for
the spectator, and each sentence must

- be a sentence: not empty, a capital first, a full stop last;
- carry nothing of the data it was made from: no seat numbers, ``None``/``null``,
  ``True``/``False``, brackets, braces, underscores or quoted reprs;
- say "you" exactly for the reader: the reader's own name never appears in his own
  story, an event about the reader's seat says "you", "you" appears only in events that
  concern the reader (or list every seat), and never for a spectator.

Every kind a game declares must have been told at least once over its games.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping
from typing import Any

import pytest

import boneyard
from boneyard.api import story
from boneyard.games import schema
from boneyard.words import words

from .common import NAMES, tiny_game

GAMES = boneyard.games()
SEEDS = range(4)
#: Rules options each game is also played with (the first entry is always the default rules).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "montana": [{}, {"mode": "shootout"}],
    "twobox": [{"cutthroat": True}, {"round_to_five": True, "target": 60}],
    "rummikub": [{}, {"distinct_sums": True, "target": 50}],
    "eighty": [{"nello": True}, {"nello": True, "marks": True, "marks_target": 2}],
}
#: Words of the actions the leaning games prefer, one set per leaning seed.
LEAN: dict[str, list[tuple[str, ...]]] = {
    "eighty": [("pass",), ("nel-o",)],
    "rounce": [("fold", "dummy", "take")],
    "rummikub": [("pass", "draw")],
}

FORBIDDEN = {
    "a seat number": re.compile(r"\bseat\s*\d", re.IGNORECASE),
    "None": re.compile(r"\bNone\b"),
    "null": re.compile(r"\bnull\b"),
    "a Python boolean": re.compile(r"\b(True|False)\b"),
    "a bracket or brace": re.compile(r"[\[\]{}]"),
    "an underscore": re.compile(r"_"),
    "a quoted repr": re.compile(r"(^|[\s(:,=])'[^']*'|\""),
}
YOU = re.compile(r"\b(you|your)\b", re.IGNORECASE)
#: Event fields naming one seat the event concerns.
SEAT_FIELDS = ("seat", "winner", "discarder", "bidder", "victim", "dealer", "roller", "first", "walkover")


def choose(game_id: str, legal: list[Any], rng: random.Random, seed: int) -> Any:
    """A random legal action; odd seeds lean (60%) towards the game's rarer choices."""
    leans = LEAN.get(game_id)
    if leans and seed % 2 and rng.random() < 0.6:
        liked = leans[(seed // 2) % len(leans)]
        preferred = [a for a in legal if any(w in liked for w in str(a).split())]
        if preferred:
            return rng.choice(preferred)
    return rng.choice(legal)


def concerned(game_id: str, event: Mapping[str, Any], players: int) -> set[int]:
    """The seats an event is about: its seat fields, winners and answerers; every seat for per-seat lists.

    In Eighty a seat stands for its side, so its partner is concerned too ("12 points for Bob and you").
    """
    if "points" in event and isinstance(event["points"], list):
        return set(range(players))
    seats = {event[f] for f in SEAT_FIELDS if isinstance(event.get(f), int)}
    seats.update(event.get("winners") or [])
    seats.update(a["seat"] for a in event.get("answers") or [])
    if game_id == "eighty":
        seats |= {(s + 2) % 4 for s in seats}
    return seats


def check(game_id: str, players: int, me: int | None, event: Mapping[str, Any], said: str) -> list[str]:
    """What is wrong with one told sentence (nothing: an empty list)."""
    where = f"{game_id} x{players}, read by {'the spectator' if me is None else NAMES[me]}: {said!r} ({event['kind']})"
    problems = []
    if not said or not said[0].isupper() or not said.endswith("."):
        problems.append(f"not a sentence: {where}")
    problems += [f"{what}: {where}" for what, pattern in FORBIDDEN.items() if pattern.search(said)]
    if me is None:
        if YOU.search(said):
            problems.append(f"'you' for a spectator: {where}")
        return problems
    if re.search(rf"\b{NAMES[me]}\b", said):
        problems.append(f"the reader's own name: {where}")
    if event.get("seat") == me and not YOU.search(said):
        problems.append(f"the reader's own event without 'you': {where}")
    if YOU.search(said) and me not in concerned(game_id, event, players):
        problems.append(f"'you' in an event not about the reader: {where}")
    return problems


def tell_games(game_id: str, cases: list[tuple[int, dict[str, Any], int]]) -> tuple[list[str], set[str]]:
    """Play each (players, rules, seed) game, tell its story to every seat and the spectator: (problems, kinds told)."""
    problems: list[str] = []
    kinds: set[str] = set()
    for players, rules, seed in cases:
        game = boneyard.new_game(game_id, players=players, seed=seed, rules=rules)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(choose(game_id, game.legal_actions(), rng, seed))
        record = game.record()
        for me in [*range(players), None]:
            teller = words(game_id, NAMES[:players], me)
            for _, event in story(record, me):
                kinds.add(event["kind"])
                problems += check(game_id, players, me, event, teller.tell(event))
    return problems, kinds


@functools.cache
def told(game_id: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """Every game of ``game_id`` told (cached: the tests below read the same stories)."""
    info = boneyard.game_info(game_id)["players"]
    cases = [
        (players, rules, seed)
        for players in range(info["min"], info["max"] + 1)
        for rules in VARIANTS.get(game_id, [{}])
        for seed in SEEDS
    ]
    problems, kinds = tell_games(game_id, cases)
    return tuple(problems), frozenset(kinds)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_sentence_reads_as_words_for_its_reader(game_id: str) -> None:
    problems, _ = told(game_id)
    assert not problems, f"{len(problems)} bad sentences, the first: " + "\n".join(problems[:10])


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_kind_was_told(game_id: str) -> None:
    _, kinds = told(game_id)
    assert set(schema.declared(game_id)) - kinds == set()


def test_the_tiny_games_stories_read_as_words() -> None:
    with tiny_game() as (game, _):
        problems, kinds = tell_games(game.id, [(2, {}, seed) for seed in range(6)])
        assert not problems, "\n".join(problems[:10])
        assert set(schema.declared(game.id)) - kinds == set()


def test_the_checks_catch_what_they_must() -> None:
    event = {"kind": "play", "seat": 1, "tile": "6-4"}
    assert check("rounce", 3, 0, event, "Bob plays 6-4.") == []
    for bad in ("seat 1 plays 6-4.", "Bob plays 6-4", "Bob plays ['6-4'].", "Bob plays 6_4.", "Bob plays None.",
                "Bob plays 6-4 for you.", "Bob plays '6-4'."):
        assert check("rounce", 3, 0, event, bad), bad
    assert check("rounce", 3, 1, event, "Bob plays 6-4."), "the reader's own name"
    assert check("rounce", 3, None, event, "You play 6-4."), "'you' for a spectator"
    assert check("rounce", 3, 0, {"kind": "rounced", "seat": 0}, "Ann took no trick.")
