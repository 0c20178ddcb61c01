"""The rules of a club event, with no server and no engine: who sits with whom each round,
how a table's result becomes event points, and the standings with their tie-breaks.

``docs/api.md`` ("Tournaments") states these rules in words; this module is their one
definition, used by the server (``tourney.py``) and checked by the tests against scripted
results. Entrants are numbers ``0 .. n-1`` in join order (their seed); a seat that holds
``None`` is filled by a bot, which is no entrant.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

FORMATS = ("swiss", "round_robin")

# How many table choices one pass of the grouping search may try before it allows one more
# repeated meeting (see :func:`group`): it keeps a large event's pairing under a second.
NODE_LIMIT = 20000

Pair = frozenset[int]


@dataclass(frozen=True)
class TableResult:
    """One finished table of an event: who sat at each seat and each seat's place (1 first)."""

    seats: tuple[int | None, ...]  # entrant per seat; None: a bot filled the seat
    ranks: tuple[int, ...]  # each seat's place at the table, equal places for a tie

    @property
    def points(self) -> tuple[float, ...]:
        """Each seat's event points: see :func:`placing_points`."""
        return tuple(placing_points(self.ranks))


@dataclass(frozen=True)
class Standing:
    """One line of the standings: an entrant's place and the numbers that put them there."""

    place: int  # 1 first
    entrant: int
    points: float
    buchholz: float
    head_to_head: float | None  # None: no tie on points and Buchholz to break
    played: int


def placing_points(ranks: Sequence[int]) -> list[float]:
    """Event points of each seat of a finished table from its places (1 first).

    A seat earns one point for each table-mate placed below it and half a point for each
    table-mate with the same place, so a table of four gives 3, 2, 1 and 0 and players who
    tie share the points of the places they hold (two tied firsts get 2.5 each). Why this
    rule: it needs no table of points per size, and a two-player game gives the familiar
    1, ½, 0.
    """
    return [sum(1.0 for other in ranks if other > mine) + 0.5 * (sum(1 for other in ranks if other == mine) - 1)
            for mine in ranks]


def capacities(entrants: int, size: int) -> list[int]:
    """How many entrants sit at each table of a round; the other seats go to bots.

    There are ``ceil(entrants / size)`` tables; the seats no entrant fills are given out
    one per table from the last table backwards (and round again if there are more seats
    than tables), so bots are spread as thinly as possible and the top tables are full.
    """
    if entrants < 1 or size < 1:
        raise ValueError("an event needs at least one entrant and tables of at least one seat")
    tables = -(-entrants // size)
    caps = [size] * tables
    for i in range(tables * size - entrants):
        caps[tables - 1 - i % tables] -= 1
    return caps


def meetings(results: Sequence[TableResult | Sequence[int | None]]) -> Counter[Pair]:
    """How often each pair of entrants has sat at the same table (bots are not counted)."""
    met: Counter[Pair] = Counter()
    for table in results:
        seats = table.seats if isinstance(table, TableResult) else table
        people = [e for e in seats if e is not None]
        for a, b in itertools.combinations(people, 2):
            met[frozenset((a, b))] += 1
    return met


def _cost(people: Sequence[int], met: Mapping[Pair, int]) -> int:
    return sum(met.get(frozenset(pair), 0) for pair in itertools.combinations(people, 2))


def group(order: Sequence[int], caps: Sequence[int], met: Mapping[Pair, int],
          limit: int = NODE_LIMIT) -> list[list[int]]:
    """Split ``order`` (best first) into tables of ``caps`` people, avoiding repeat table-mates.

    The exact method (``docs/api.md``): the cost of a grouping is the number of earlier
    meetings among table-mates, summed over the pairs at each table. Tables are filled in
    order; each takes the best entrant not yet seated and then the rest of its seats from
    the entrants not yet seated, trying their combinations in the order of ``order``
    (a depth-first search, so the first grouping found keeps the best entrants together).
    A first pass accepts only groupings of cost 0; if it finds none (or tries ``limit``
    tables without success) a new pass accepts cost 1, and so on. The pass that accepts
    the cost of plain consecutive groups always succeeds at once, so the search ends.
    """
    if sum(caps) != len(order):
        raise ValueError(f"{len(order)} entrants do not fill tables of {list(caps)}")
    allowed = 0
    while True:
        tried = [0]
        found = _search(list(order), list(caps), met, allowed, limit, tried)
        if found is not None:
            return found
        allowed += 1


def _search(left: list[int], caps: list[int], met: Mapping[Pair, int], allowed: int, limit: int,
            tried: list[int]) -> list[list[int]] | None:
    if not caps:
        return []
    head, rest = left[0], left[1:]
    for others in itertools.combinations(rest, caps[0] - 1):
        tried[0] += 1
        if tried[0] > limit:
            return None
        table = [head, *others]
        cost = _cost(table, met)
        if cost > allowed:
            continue
        taken = set(others)
        below = _search([e for e in rest if e not in taken], caps[1:], met, allowed - cost, limit, tried)
        if below is not None:
            return [table, *below]
        if tried[0] > limit:
            return None
    return None


def seat(tables: Sequence[Sequence[int]], size: int) -> list[tuple[int | None, ...]]:
    """Each table's seats: its entrants in order, then ``None`` (a bot) up to ``size`` seats."""
    return [tuple([*people, *[None] * (size - len(people))]) for people in tables]


def circle_round(entrants: int, round_index: int) -> list[list[int]]:
    """Round ``round_index`` (0 first) of the circle method for two-player tables.

    Entrant 0 stays put while the others turn one place each round; with an odd number a
    ghost joins, and whoever meets the ghost plays a bot that round. Over ``n - 1`` rounds
    (``n`` with the ghost) every pair meets exactly once.
    """
    people: list[int | None] = list(range(entrants))
    if entrants % 2:
        people.append(None)
    n = len(people)
    turn = round_index % (n - 1)
    ring = people[1:]
    ring = ring[-turn:] + ring[:-turn] if turn else ring
    line = [people[0], *ring]
    out = []
    for i in range(n // 2):
        pair = [p for p in (line[i], line[n - 1 - i]) if p is not None]
        out.append(pair)
    out.sort(key=len, reverse=True)  # a table with a bot comes last, as in a Swiss round
    return out


def round_robin_rounds(entrants: int, size: int) -> int:
    """The rounds a round robin has unless the host asks for fewer: every pair meets once at two-player
    tables (``n - 1`` rounds, ``n`` when odd); at bigger tables the fewest rounds in which each
    entrant could meet everyone, ``ceil((n - 1) / (size - 1))``."""
    if size == 2:
        return entrants - 1 if entrants % 2 == 0 else entrants
    return max(1, -(-(entrants - 1) // (size - 1)))


def pair_round(fmt: str, entrants: int, size: int, round_index: int,
               results: Sequence[TableResult]) -> list[tuple[int | None, ...]]:
    """The seats of every table of round ``round_index`` (0 first), given all earlier results.

    Swiss: the entrants in standings order (points, tie-breaks, seed; the first round by
    seed) are grouped by :func:`group`. Round robin at two-player tables: the circle method;
    at bigger tables: the entrants in seed order grouped by :func:`group`, which brings
    together those who have met least.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    caps = capacities(entrants, size)
    if fmt == "round_robin" and size == 2:
        return seat(circle_round(entrants, round_index), size)
    if fmt == "swiss" and round_index > 0:
        order = [s.entrant for s in standings(entrants, results)]
    else:
        order = list(range(entrants))
    return seat(group(order, caps, meetings(results)), size)


def standings(entrants: int, results: Sequence[TableResult]) -> list[Standing]:
    """Every entrant, best first, with the numbers the order is made of.

    1. Points: the sum of :func:`placing_points` over the entrant's tables.
    2. Buchholz: the sum, over the entrant's tables, of the points of each entrant who sat
       there with them (bots count nothing); a table-mate met twice counts twice.
    3. Head to head, among those still level on 1 and 2 only: over every table where the
       entrant sat with at least one of them, one point for each of them placed below the
       entrant and half a point for each placed equal.
    4. Seed: who joined first.
    """
    points = [0.0] * entrants
    played = [0] * entrants
    for table in results:
        for e, p in zip(table.seats, table.points, strict=True):
            if e is not None:
                points[e] += p
                played[e] += 1
    buchholz = [0.0] * entrants
    for table in results:
        people = [e for e in table.seats if e is not None]
        for e in people:
            buchholz[e] += sum(points[m] for m in people if m != e)
    ordered = sorted(range(entrants), key=lambda e: (-points[e], -buchholz[e], e))
    out: list[Standing] = []
    for _key, level in itertools.groupby(ordered, key=lambda e: (points[e], buchholz[e])):
        tied = list(level)
        h2h: dict[int, float | None] = {e: None for e in tied}
        if len(tied) > 1:
            h2h = {e: _head_to_head(e, set(tied), results) for e in tied}
            tied.sort(key=lambda e: (-(h2h[e] or 0.0), e))
        for e in tied:
            out.append(Standing(len(out) + 1, e, points[e], buchholz[e], h2h[e], played[e]))
    return out


def _head_to_head(entrant: int, tied: set[int], results: Sequence[TableResult]) -> float:
    score = 0.0
    for table in results:
        if entrant not in table.seats:
            continue
        mine = table.ranks[table.seats.index(entrant)]
        for e, rank in zip(table.seats, table.ranks, strict=True):
            if e is not None and e != entrant and e in tied:
                score += 1.0 if rank > mine else 0.5 if rank == mine else 0.0
    return score
