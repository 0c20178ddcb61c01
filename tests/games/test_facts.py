"""Each game's declared facts (``game_info``) hold in play: bounds, lengths, hand numbers, the hand limit."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard.games import game_class

# A few rules per game that change the facts (targets, scoring modes), beside the defaults.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "montana": [{}, {"mode": "shootout"}],
    "twobox": [{}, {"cutthroat": True, "target": 60}, {"round_to_five": True}],
    "rummikub": [{}, {"target": 30}],
    "eighty": [{}, {"marks": True, "marks_target": 3}, {"nello": True, "target": 120}],
    "rounce": [{}],
}
CASES = [(g, n, r) for g in boneyard.games() for n in (2, 4) for r in VARIANTS.get(g, [{}])]


def _players(game: str, n: int) -> int:
    cls = game_class(game)
    return min(max(n, cls.min_players), cls.max_players)


def test_every_game_declares_the_facts_generic_code_needs() -> None:
    for game in boneyard.games():
        info = boneyard.game_info(game)
        assert isinstance(info["lower_is_better"], bool)
        low, high = info["score_bounds"]
        assert low < high
        assert isinstance(info["max_game_length"], int) and info["max_game_length"] > 0
        assert isinstance(info["teams"], bool)
        assert "max_hands" in info["options"]
        for name, option in info["options"].items():
            assert option["label"] and option["help"], f"{game} option {name} needs words for people"
            if option["type"] in ("int", "float") and "allowed" not in option:
                assert "minimum" in option and "maximum" in option, f"{game} option {name} is unbounded"
    assert boneyard.game_info("rounce")["lower_is_better"] is True
    assert boneyard.game_info("twobox")["lower_is_better"] is False


def test_facts_follow_players_and_rules() -> None:
    short = boneyard.game_info("twobox", players=2, rules={"target": 100})
    long = boneyard.game_info("twobox", players=6, rules={"target": 200})
    assert short["score_bounds"][1] < long["score_bounds"][1]
    assert short["max_game_length"] < long["max_game_length"]
    with pytest.raises(ValueError, match="2 to 6 players"):
        boneyard.game_info("twobox", players=9)
    with pytest.raises(boneyard.RulesError, match="max_hands"):
        boneyard.game_info("twobox", rules={"max_hands": 0})


@pytest.mark.parametrize(("game", "n", "rules"), CASES, ids=[f"{g}-{n}-{r}" for g, n, r in CASES])
def test_random_games_stay_within_the_declared_facts(game: str, n: int, rules: dict[str, Any]) -> None:
    players = _players(game, n)
    cls = game_class(game)
    info = boneyard.game_info(game, players=players, rules=rules)
    low, high = info["score_bounds"]
    per_hand = cls.max_hand_length(players, cls.Rules.from_dict(rules))
    for seed in range(6):
        g = boneyard.new_game(game, players=players, seed=seed, rules=rules)
        rng = random.Random(seed)
        assert g.hand_number == 1
        lengths: Counter[int] = Counter()
        while not g.is_over:
            before = g.hand_number
            lengths[before] += 1
            g.apply(rng.choice(g.legal_actions()))
            assert g.hand_number in (before, before + 1), "hands are numbered one after another"
            assert g.view(None)["hand_number"] == g.hand_number
            assert all(low <= s <= high for s in g.scores), (g.scores, (low, high))
        assert max(lengths.values()) <= per_hand
        assert len(g.record()["actions"]) <= info["max_game_length"]


@pytest.mark.parametrize("game", boneyard.games())
def test_the_hand_limit_ends_the_game_with_the_best_score_winning(game: str) -> None:
    options = boneyard.game_info(game)["options"]
    rules: dict[str, Any] = {"max_hands": 1}
    if "target" in options:  # out of reach in one hand, so the limit is what ends the game
        rules["target"] = options["target"]["maximum"]
    g = boneyard.new_game(game, seed=3, rules=rules)
    rng = random.Random(3)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.hand_number == 1
    assert g.view(None)["events"][-1] == {"kind": "game_over", "winners": g.winners, "hand_limit": 1}
    scores = g.scores
    best = min(scores) if g.lower_is_better else max(scores)
    assert g.winners == [s for s in range(g.players) if scores[s] == best]
    replayed = boneyard.replay(g.record())
    assert replayed.view(0) == g.view(0)


def test_a_blocked_twobox_hand_counts_toward_the_limit() -> None:
    """Hands that move nobody toward the target still count, so every game ends."""
    limited = []
    for seed in range(40):
        g = boneyard.new_game("twobox", players=2, seed=seed, rules={"max_hands": 2, "target": 1000})
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        assert g.hand_number <= 2
        limited.append(g.view(None)["events"][-1].get("hand_limit") == 2)
    assert all(limited), "a target of 1,000 is never reached in two hands: the limit ends every game"
