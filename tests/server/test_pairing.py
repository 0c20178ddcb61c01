"""The club events' rules alone (``boneyard/server/pairing.py``): points, seats, pairings and
standings for scripted results, each expected value worked out by hand from ``docs/api.md``."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from boneyard.server import pairing
from boneyard.server.pairing import Pair, TableResult


def test_placing_points() -> None:
    assert pairing.placing_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert pairing.placing_points([2, 4, 1, 3]) == [2, 0, 3, 1]
    assert pairing.placing_points([1, 1, 3, 4]) == [2.5, 2.5, 1, 0]  # two firsts share 3 + 2
    assert pairing.placing_points([1, 2]) == [1, 0]
    assert pairing.placing_points([1, 1]) == [0.5, 0.5]


def test_capacities_spread_the_bots_from_the_last_table() -> None:
    assert pairing.capacities(8, 4) == [4, 4]
    assert pairing.capacities(6, 4) == [3, 3]  # two bots: one at each table
    assert pairing.capacities(5, 4) == [3, 2]  # three bots: last, first, last
    assert pairing.capacities(9, 4) == [3, 3, 3]
    assert pairing.capacities(7, 2) == [2, 2, 2, 1]  # the odd one out plays a bot
    assert pairing.capacities(2, 4) == [2]
    with pytest.raises(ValueError):
        pairing.capacities(0, 4)


def test_first_swiss_round_is_by_seed() -> None:
    assert pairing.pair_round("swiss", 6, 4, 0, []) == [(0, 1, 2, None), (3, 4, 5, None)]
    assert pairing.pair_round("swiss", 8, 4, 0, []) == [(0, 1, 2, 3), (4, 5, 6, 7)]


def test_six_entrants_three_rounds_of_two_player_swiss() -> None:
    """A scripted Swiss event whose standings need every tie-break."""
    results: list[TableResult] = []

    def play(round_index: int, expected: list[tuple[int | None, ...]], ranks: list[tuple[int, ...]]) -> None:
        seats = pairing.pair_round("swiss", 6, 2, round_index, results)
        assert seats == expected
        results.extend(TableResult(s, r) for s, r in zip(seats, ranks, strict=True))

    # round 1 by seed: 1 beats 0, 2 beats 3, 4 beats 5
    play(0, [(0, 1), (2, 3), (4, 5)], [(2, 1), (1, 2), (1, 2)])
    # winners 1, 2, 4 (1 point, Buchholz 0, never met: by seed), then 0, 3, 5 (Buchholz 1 each)
    # -> order 1 2 4 0 3 5, and nobody has met the next in line
    play(1, [(1, 2), (4, 0), (3, 5)], [(2, 1), (2, 1), (1, 1)])
    # points 2:2, 0:1 (Buchholz 1+1=2), 1:1 (1+2=3), 4:1 (0.5+1=1.5), 3:0.5 (2+0.5), 5:0.5 (1+0.5)
    # -> order 2 1 0 4 3 5; 2-1 met, so 2-0; then 1-4 would leave 3-5, who met: 1-3 leaves 4-5,
    # who met; 1-5 leaves 4-3: no repeat
    play(2, [(2, 0), (1, 5), (4, 3)], [(1, 2), (2, 1), (1, 1)])
    table = [(s.place, s.entrant, s.points, s.buchholz, s.head_to_head, s.played)
             for s in pairing.standings(6, results)]
    assert table == [
        (1, 2, 3.0, 3.0, None, 3),  # 3 wins; opponents 3 (1) + 1 (1) + 0 (1)
        (2, 4, 1.5, 3.5, 1.0, 3),  # level with 5 on points and Buchholz (5 + 0 + 3 = 1.5 + 1 + 1): 4 beat 5
        (3, 5, 1.5, 3.5, 0.0, 3),
        (4, 3, 1.0, 6.0, None, 3),  # opponents 2 (3) + 5 (1.5) + 4 (1.5)
        (5, 1, 1.0, 5.5, 1.0, 3),  # level with 0 (both 1 + 3 + 1.5): 1 beat 0, though 0 is seeded first
        (6, 0, 1.0, 5.5, 0.0, 3),
    ]


def test_four_player_swiss_avoids_repeat_table_mates() -> None:
    """8 entrants at tables of 4: after round 1 a grouping with no repeated pair exists only
    by mixing the tables two and two; the search finds the one that keeps the leaders together."""
    r1 = [TableResult((0, 1, 2, 3), (1, 2, 3, 4)), TableResult((4, 5, 6, 7), (4, 3, 2, 1))]
    # points: 0:3 1:2 2:1 3:0 / 7:3 6:2 5:1 4:0; Buchholz: 0 and 7: 3; 1 and 6: 4; 2 and 5: 5; 3 and 4: 6
    standing = [s.entrant for s in pairing.standings(8, r1)]
    assert standing == [0, 7, 1, 6, 2, 5, 3, 4]
    seats = pairing.pair_round("swiss", 8, 4, 1, r1)
    # 0 takes 7, then 1 has met 0: 6, then 2 and 5 met 0 and 7... the first table without a
    # repeat from 0 7 1 6 2 5 3 4: 0 with two of 7 6 5 4 and one more of 1 2 3 is impossible
    # (a table of four needs two from one first-round table), so the best is one repeat per
    # table: 0 7 1 6 (0-1, 7-6), then 2 5 3 4 (2-3, 5-4)
    assert seats == [(0, 7, 1, 6), (2, 5, 3, 4)]


def brute_force(order: list[int], caps: list[int], met: Counter[Pair]) -> list[list[int]]:
    """The documented result of ``group`` found the slow way: of every grouping (each table's
    first seat the best entrant left, the others in order), the fewest repeats, then the first."""
    def splits(left: list[int], caps: list[int]) -> list[list[list[int]]]:
        if not caps:
            return [[]]
        out = []
        for others in itertools.combinations(left[1:], caps[0] - 1):
            rest = [e for e in left[1:] if e not in others]
            out += [[[left[0], *others], *below] for below in splits(rest, caps[1:])]
        return out

    def cost(grouping: list[list[int]]) -> int:
        return sum(met[frozenset(p)] for t in grouping for p in itertools.combinations(t, 2))

    pos = {e: i for i, e in enumerate(order)}
    return min(splits(order, caps), key=lambda g: (cost(g), [[pos[e] for e in t] for t in g]))


@pytest.mark.parametrize("seed", range(30))
def test_group_is_the_cheapest_first_grouping(seed: int) -> None:
    rng = random.Random(seed)
    entrants = rng.randrange(4, 11)
    size = rng.choice([2, 3, 4])
    caps = pairing.capacities(entrants, size)
    order = list(range(entrants))
    rng.shuffle(order)
    met: Counter[Pair] = Counter()
    for _ in range(rng.randrange(0, 12)):
        met[frozenset(rng.sample(range(entrants), 2))] += 1
    assert pairing.group(order, caps, met) == brute_force(order, caps, met)


@pytest.mark.parametrize("entrants", [4, 5, 6, 7])
def test_circle_method_meets_every_pair_once(entrants: int) -> None:
    rounds = pairing.round_robin_rounds(entrants, 2)
    assert rounds == (entrants - 1 if entrants % 2 == 0 else entrants)
    met: Counter[Pair] = Counter()
    bot_games: Counter[int] = Counter()
    for r in range(rounds):
        seats = pairing.pair_round("round_robin", entrants, 2, r, [])
        people = [e for table in seats for e in table if e is not None]
        assert sorted(people) == list(range(entrants))  # everyone plays every round
        for table in seats:
            if None in table:
                bot_games[table[0]] += 1  # type: ignore[index]
        met += pairing.meetings(seats)
    assert set(met.values()) == {1} and len(met) == entrants * (entrants - 1) // 2
    assert all(n == 1 for n in bot_games.values())  # with an odd number, each plays the bot once


def test_round_robin_at_tables_of_four_spreads_meetings() -> None:
    """8 entrants at tables of 4: ceil(7 / 3) = 3 rounds, in which every pair meets; each round
    is the grouping with the fewest earlier meetings, the first in seed order among equals."""
    assert pairing.round_robin_rounds(8, 4) == 3
    results: list[TableResult] = []
    rounds = []
    for r in range(3):
        seats = pairing.pair_round("round_robin", 8, 4, r, results)
        rounds.append(seats)
        results += [TableResult(s, (1, 2, 3, 4)) for s in seats]
    assert rounds[0] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    assert rounds[1] == [(0, 1, 4, 5), (2, 3, 6, 7)]  # one repeat per table is the fewest possible
    # the 8 pairs not met yet are exactly those of 0 1 6 7 and 2 3 4 5 across the old tables;
    # that grouping costs 8 earlier meetings, as does 0 2 4 6 / 1 3 5 7, and comes first
    assert rounds[2] == [(0, 1, 6, 7), (2, 3, 4, 5)]
    assert len(pairing.meetings(results)) == 28  # every pair has met


def test_unknown_format() -> None:
    with pytest.raises(ValueError):
        pairing.pair_round("knockout", 4, 2, 0, [])
