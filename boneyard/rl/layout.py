"""An observation's blocks as data: the operations a game's encoding declares, and the Python writer that runs them.

Each block of an observation (:class:`Block`) carries the operations that write it, each
a frozen value naming where in the view it reads (a *path* of keys and list indices),
where in the block it writes (``at``, from the block's start) and how (scales, slots, the
tile index). A game's encoding is its list of blocks: that list is the one definition of
its observation, readable here in Python, and two interpreters run it, both knowing no
game:

- :func:`write` (this module), the reference, in Python: it runs wherever the C module
  was not built;
- ``_observe.run`` (``boneyard/rl/_observe.c``), which reads the view dict straight into
  a float32 buffer from the flat form :func:`flatten` makes of the same blocks (every
  key, offset, scale and index it uses comes from here).

``tests/rl/test_layout.py`` checks that both give the same values on thousands of
positions of every game, player count and rules variant, and the same ``ValueError``
(message included) on broken views.

Seats are relative to the observing seat (``(seat - me) % players``). An operation only
ever writes inside its block: :func:`check` refuses a declaration that could write past
it (a one-hot wider than the block, a loop with no bound on its items), and the reads
check what they read (a seat in range, a tile of the index, a number), so no view can
make either interpreter write elsewhere.

The operations:

- :class:`Set`: a constant entry; :class:`Flag`: 1 when a value is true; :class:`Equals`: 1
  when a value equals a constant (or does not);
- :class:`Tiles` (each tile of a list: set, or add 1 / copies, or a :class:`Weight` by a
  field of the item), :class:`OneTile` (one tile);
- :class:`Seat` (a relative-seat one-hot), :class:`Number` (an int's one-hot),
  :class:`Lookup` (a one-hot through a mapping);
- :class:`Scale` (a number, shifted, divided, optionally bounded), :class:`Length` (a
  list's length, divided, optionally bounded);
- :class:`If` (by truth), :class:`Match` (by value: a dict look-up of constants);
- :class:`Each` (the items of a list, a stride apart), :class:`Seats` (a per-seat list,
  each item at its relative seat);
- :class:`Window` (the last events of the view, each as its memoised row: the history
  window).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..tiles import double_six

#: Where an operation reads: the keys (``str``) and list indices (``int``, negative from the end) from its context.
Key = str | int
Path = tuple[Key, ...]

#: The 28 kinds of a double-six set as views write them ("6-4") -> their index (0-0 = 0, 1-0 = 1, 1-1 = 2...).
TILE_INDEX: dict[str, int] = {str(t): i for i, t in enumerate(double_six())}

#: What a written observation is before packing: a list of floats, zero but where written.
Buffer = list[float]
#: A window row: the seats it marks (absolute; relative to the observer when written) and its other entries.
RowEntries = tuple[tuple[int, ...], tuple[int, ...]]
#: A window's rows: each event's :data:`RowEntries`, for a list of events.
Rows = Callable[[Sequence[Any]], Sequence[RowEntries]]
#: How the window's table tells a kind: its verb's entry (-1: none), the fields of the acting seat and of the tile,
#: and seats from a list of records, ``(field, seat, skip, value)`` (each record's seat unless its skip is value).
Said = tuple[int, str | None, str | None, tuple[str, str, str, Any] | None]

# The operation codes of the flat form (_observe.c reads the same numbers).
GROUP, SET, TILES, TILE, SEAT, NUMBER, LOOKUP, SCALE, LENGTH, FLAG, IF, MATCH, EACH, SEATS, WINDOW, EQUALS = range(16)
# Scale and Length flags: a lower and an upper bound.
LO, HI = 1, 2


def path_of(path: Key | Path) -> Path:
    """A path as a tuple: one key alone stands for a path of one."""
    return path if isinstance(path, tuple) else (path,)


def describe(context: str, path: Path) -> str:
    """Where a path leads, in errors: ``view['trick'][i]['tile']``."""
    return context + "".join(f"[{k!r}]" for k in path)


ITEM = "[i]"
"""How an item of a list is written in errors (``view['tricks'][i]['plays']``)."""


class ViewError(ValueError):
    """A view the observation cannot be read from: a key missing, a value of the wrong kind or range."""


class Op:
    """One declared operation: what it reads, where it writes, and its flat form for C."""

    def extent(self, players: int) -> int:
        """One past the last entry it may write, from its base (its block's start, or its item's)."""
        raise NotImplementedError

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        """Write from the context ``ctx`` (the view, or a list's item) at ``base``."""
        raise NotImplementedError

    def flat(self, where: str) -> tuple[Any, ...]:
        """The flat form _observe.c compiles (see :func:`flatten`)."""
        raise NotImplementedError

    def children(self) -> tuple[tuple[Op, ...], ...]:
        """The operations it runs in turn (branches of a test, a loop's body)."""
        return ()


def _flat(code: int, at: int, path: Path, where: str, ints: tuple[int, int, int] = (0, 0, 0),
          nums: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0), obj: Any = None, key: Any = None,
          inner: str = "", detail: str = "", branches: tuple[tuple[tuple[Any, ...], ...], ...] = (),
          extra: Any = None) -> tuple[Any, ...]:
    """One operation's flat form (see :func:`flatten`)."""
    return (code, at, path, where, inner, *ints, *(float(x) for x in nums), obj, key, detail, extra, branches)


# ----- reading ------------------------------------------------------------------------------


class _Absent(Exception):
    """A path that leads nowhere: a key not in its dict, an index past its list."""


def _get(ctx: Any, path: Path, where: str, absent_ok: bool = False) -> Any:
    """The value at ``path`` from ``ctx``; :class:`ViewError` naming it when it is not there.

    With ``absent_ok``, a key or index that is not there raises :class:`_Absent` instead
    (a value of the wrong kind on the way is still refused).
    """
    v = ctx
    for k in path:
        try:
            v = v[k]
        except (KeyError, IndexError):
            if absent_ok:
                raise _Absent from None
            raise ViewError(f"{where} is missing") from None
        except TypeError:
            raise ViewError(f"{where} is missing: {type(v).__name__} has no entry {k!r}") from None
    return v


def _items(v: Any, where: str) -> Sequence[Any]:
    """``v`` as the list it must be."""
    if not isinstance(v, list | tuple):
        raise ViewError(f"{where} must be a list, got {type(v).__name__}")
    return v


def _int(v: Any) -> bool:
    """Whether ``v`` is an int and not a bool (seats, numbers)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v: Any, where: str) -> float:
    """``v`` as a float: an int (bools too) or a float."""
    if isinstance(v, int | float):
        try:
            return float(v)
        except OverflowError:
            pass
    raise ViewError(f"{where} must be a number, got {v!r}")


def _bounded(x: float, flags: int, lo: float, hi: float) -> float:
    """``x`` held within the bounds the flags ask for."""
    if flags & LO and x < lo:
        return lo
    if flags & HI and x > hi:
        return hi
    return x


@dataclass
class Writer:
    """One observation being written: the buffer, the observing seat, the table's size, the window's rows."""

    buf: Buffer
    me: int
    players: int
    rows: Rows


# ----- the operations -------------------------------------------------------------------------


@dataclass(frozen=True)
class Set(Op):
    """Entry ``at`` is ``value`` (a constant: the slot of "none", "not yet", "taken")."""

    at: int
    value: float = 1.0

    def extent(self, players: int) -> int:
        return self.at + 1

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        w.buf[base + self.at] = self.value

    def flat(self, where: str) -> tuple[Any, ...]:
        return _flat(SET, self.at, (), where, nums=(self.value, 0.0, 0.0, 0.0))


@dataclass(frozen=True)
class Flag(Op):
    """Entry ``at`` is 1 when the value at ``path`` is true."""

    at: int
    path: Key | Path

    def extent(self, players: int) -> int:
        return self.at + 1

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        if _get(ctx, path, describe(where, path)):
            w.buf[base + self.at] = 1.0

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(FLAG, self.at, path, describe(where, path))


@dataclass(frozen=True)
class Equals(Op):
    """Entry ``at`` is 1 when the value at ``path`` equals ``value`` (``negate``: when it does not).

    ``absent_ok``: a path that leads nowhere (a key not there, an index past the end of a
    list) writes nothing, instead of being refused: "the last tile is unstacked" of an
    arm with no tiles.
    """

    at: int
    path: Key | Path
    value: Any
    negate: bool = False
    absent_ok: bool = False

    def extent(self, players: int) -> int:
        if not (self.value is None or type(self.value) in (str, int, bool)):
            raise ValueError(f"Equals at {self.path!r}: the value must be None, a str, an int or a bool")
        return self.at + 1

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        try:
            v = _get(ctx, path, describe(where, path), self.absent_ok)
        except _Absent:
            return
        if (v == self.value) != self.negate:
            w.buf[base + self.at] = 1.0

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(EQUALS, self.at, path, describe(where, path), ints=(int(self.negate), int(self.absent_ok), 0),
                     obj=self.value)


def _tile_detail(index: Mapping[str, int]) -> str:
    return "a tile of the 28 kinds" if len(index) == 28 else f"a tile of the {len(index)} kinds of this game's set"


@dataclass(frozen=True)
class Weight:
    """What each item of a :class:`Tiles` list adds, by one of its fields: ``steps[item[key]]``, else ``default``.

    (Two-box counts a tile on the table a half and a stacked one, which hides a second
    copy, a whole: ``Weight("stacked_by", {None: 0.5}, 1.0)``.) A value that cannot be
    looked up (a dict, a list) takes ``default``.
    """

    key: Key
    steps: Mapping[Any, float]
    default: float

    def step(self, item: Any, where: str) -> float:
        """The step of one item (``where``: how errors name its field)."""
        v = _get(item, (self.key,), where)
        try:
            found = self.steps.get(v)
        except TypeError:
            found = None
        return self.default if found is None else found


@dataclass(frozen=True)
class Tiles(Op):
    """Each tile of the list at ``path`` marks its kind: entry ``at + index[tile]`` is 1, or grows by 1 / ``copies``.

    An item is a tile as views write it ("6-4"), or holds one at ``item[key]`` (a
    ``[seat, tile]`` pair with key 1, a play's dict with key "tile"). ``index``: the
    tile -> position map (default: the 28 kinds of :data:`TILE_INDEX`). With ``weight``,
    each item adds its :class:`Weight`'s step instead.
    """

    at: int
    path: Key | Path
    copies: int = 1
    key: Key | None = None
    index: Mapping[str, int] | None = None
    weight: Weight | None = None

    def tiles(self) -> Mapping[str, int]:
        return TILE_INDEX if self.index is None else self.index

    def extent(self, players: int) -> int:
        if self.copies < 1 or (self.weight is not None and self.copies != 1):
            raise ValueError(f"Tiles at {self.path!r}: copies must be at least 1 (and 1 with a weight)")
        return self.at + max(self.tiles().values()) + 1

    def _inner(self, at: str) -> tuple[str, str]:
        """How errors name an item's tile, and its weight's field."""
        inner = at + ITEM if self.key is None else describe(at + ITEM, (self.key,))
        return inner, "" if self.weight is None else describe(at + ITEM, (self.weight.key,))

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        items = _items(_get(ctx, path, at), at)
        index, key, buf, weight = self.tiles(), self.key, w.buf, self.weight
        inner, weighed = self._inner(at)
        step = 1.0 / self.copies
        for item in items:
            t = item if key is None else _get(item, (key,), inner)
            try:
                k = index[t]
            except (KeyError, TypeError):
                raise ViewError(f"{inner} must be {_tile_detail(index)}, got {t!r}") from None
            if weight is not None:
                buf[base + self.at + k] += weight.step(item, weighed)
            elif self.copies == 1:
                buf[base + self.at + k] = 1.0
            else:
                buf[base + self.at + k] += step

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        at = describe(where, path)
        inner, weighed = self._inner(at)
        w = self.weight
        extra = None if w is None else (w.key, {k: float(v) for k, v in w.steps.items()}, float(w.default), weighed)
        return _flat(TILES, self.at, path, at, ints=(self.copies, 0, 0), nums=(1.0 / self.copies, 0.0, 0.0, 0.0),
                     obj=dict(self.tiles()), key=self.key, inner=inner, detail=_tile_detail(self.tiles()),
                     extra=extra)


@dataclass(frozen=True)
class OneTile(Op):
    """The tile at ``path`` marks its kind: entry ``at + index[tile]`` is ``value`` (or grows by it, with ``add``)."""

    at: int
    path: Key | Path
    value: float = 1.0
    add: bool = False
    index: Mapping[str, int] | None = None

    def tiles(self) -> Mapping[str, int]:
        return TILE_INDEX if self.index is None else self.index

    def extent(self, players: int) -> int:
        return self.at + max(self.tiles().values()) + 1

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        t = _get(ctx, path, at)
        index = self.tiles()
        try:
            k = index[t]
        except (KeyError, TypeError):
            raise ViewError(f"{at} must be {_tile_detail(index)}, got {t!r}") from None
        if self.add:
            w.buf[base + self.at + k] += self.value
        else:
            w.buf[base + self.at + k] = self.value

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(TILE, self.at, path, describe(where, path), ints=(int(self.add), 0, 0),
                     nums=(self.value, 0.0, 0.0, 0.0), obj=dict(self.tiles()), detail=_tile_detail(self.tiles()))


@dataclass(frozen=True)
class Seat(Op):
    """A one-hot of the seat at ``path``, relative to the observer; ``none``: the slot of ``None`` (else refused)."""

    at: int
    path: Key | Path
    none: int | None = None

    def extent(self, players: int) -> int:
        return self.at + max(players, 0 if self.none is None else self.none + 1)

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        s = _get(ctx, path, at)
        if s is None and self.none is not None:
            w.buf[base + self.at + self.none] = 1.0
            return
        if not _int(s) or not 0 <= s < w.players:
            raise ViewError(f"{at} must be {_seat_detail(w.players, self.none)}, got {s!r}")
        w.buf[base + self.at + (s - w.me) % w.players] = 1.0

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(SEAT, self.at, path, describe(where, path), ints=(-1 if self.none is None else self.none, 0, 0))


def _seat_detail(players: int, none: int | None) -> str:
    return f"a seat from 0 to {players - 1}" + ("" if none is None else " or None")


@dataclass(frozen=True)
class Number(Op):
    """A one-hot of the int at ``path``: entry ``at + value + shift``, within ``size``; ``none``: None's slot."""

    at: int
    path: Key | Path
    size: int
    shift: int = 0
    none: int | None = None

    def extent(self, players: int) -> int:
        return self.at + max(self.size, 0 if self.none is None else self.none + 1)

    def detail(self) -> str:
        return f"an int from {-self.shift} to {self.size - 1 - self.shift}" + ("" if self.none is None else " or None")

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        v = _get(ctx, path, at)
        if v is None and self.none is not None:
            w.buf[base + self.at + self.none] = 1.0
            return
        if not _int(v) or not 0 <= v + self.shift < self.size:
            raise ViewError(f"{at} must be {self.detail()}, got {v!r}")
        w.buf[base + self.at + v + self.shift] = 1.0

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(NUMBER, self.at, path, describe(where, path),
                     ints=(self.size, self.shift, -1 if self.none is None else self.none), detail=self.detail())


@dataclass(frozen=True)
class Lookup(Op):
    """A one-hot through a mapping: entry ``at + slots[value]``; other values refused (``missing_ok``: unwritten)."""

    at: int
    path: Key | Path
    slots: Mapping[Any, int]
    missing_ok: bool = False

    def extent(self, players: int) -> int:
        return self.at + max(self.slots.values()) + 1

    def detail(self) -> str:
        return "one of " + ", ".join(repr(k) for k in self.slots)

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        v = _get(ctx, path, at)
        try:
            slot = self.slots.get(v)
        except TypeError:
            slot = None
        if slot is not None:
            w.buf[base + self.at + slot] = 1.0
        elif not self.missing_ok:
            raise ViewError(f"{at} must be {self.detail()}, got {v!r}")

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(LOOKUP, self.at, path, describe(where, path), ints=(int(self.missing_ok), 0, 0),
                     obj=dict(self.slots), detail=self.detail())


@dataclass(frozen=True)
class Scale(Op):
    """Entry ``at`` is ``(value - shift) / scale``, held at or above ``lo`` and at or below ``hi`` where given."""

    at: int
    path: Key | Path
    scale: float
    shift: float = 0.0
    lo: float | None = None
    hi: float | None = None

    def extent(self, players: int) -> int:
        if not self.scale:
            raise ValueError(f"Scale at {self.path!r}: the scale must not be zero")
        return self.at + 1

    def flags(self) -> int:
        return (LO if self.lo is not None else 0) | (HI if self.hi is not None else 0)

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        x = (_number(_get(ctx, path, at), at) - self.shift) / self.scale
        w.buf[base + self.at] = _bounded(x, self.flags(), self.lo or 0.0, self.hi or 0.0)

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(SCALE, self.at, path, describe(where, path), ints=(self.flags(), 0, 0),
                     nums=(self.shift, self.scale, self.lo or 0.0, self.hi or 0.0))


@dataclass(frozen=True)
class Length(Op):
    """Entry ``at`` is the length of the list at ``path`` / ``scale``, held at or below ``hi`` where given."""

    at: int
    path: Key | Path
    scale: float
    hi: float | None = None

    def extent(self, players: int) -> int:
        if not self.scale:
            raise ValueError(f"Length at {self.path!r}: the scale must not be zero")
        return self.at + 1

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        x = len(_items(_get(ctx, path, at), at)) / self.scale
        w.buf[base + self.at] = _bounded(x, 0 if self.hi is None else HI, 0.0, self.hi or 0.0)

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(LENGTH, self.at, path, describe(where, path), ints=(0 if self.hi is None else HI, 0, 0),
                     nums=(0.0, self.scale, 0.0, self.hi or 0.0))


@dataclass(frozen=True)
class If(Op):
    """``then`` when the value at ``path`` is true (a non-empty list, a set flag), else ``otherwise``."""

    path: Key | Path
    then: tuple[Op, ...]
    otherwise: tuple[Op, ...] = ()

    def children(self) -> tuple[tuple[Op, ...], ...]:
        return (self.then, self.otherwise)

    def extent(self, players: int) -> int:
        return max((op.extent(players) for ops in self.children() for op in ops), default=0)

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        for op in self.then if _get(ctx, path, describe(where, path)) else self.otherwise:
            op.run(w, ctx, base, where)

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(IF, 0, path, describe(where, path),
                     branches=tuple(tuple(op.flat(where) for op in ops) for ops in self.children()))


@dataclass(frozen=True)
class Match(Op):
    """The operations of the case equal to the value at ``path`` (a look-up among constants), else ``default``.

    A value that cannot be looked up (a dict, a list) takes ``default``.
    """

    path: Key | Path
    cases: Mapping[Any, tuple[Op, ...]]
    default: tuple[Op, ...] = ()

    def children(self) -> tuple[tuple[Op, ...], ...]:
        return (self.default, *self.cases.values())

    def extent(self, players: int) -> int:
        return max((op.extent(players) for ops in self.children() for op in ops), default=0)

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        v = _get(ctx, path, describe(where, path))
        try:
            ops = self.cases.get(v)
        except TypeError:
            ops = None
        for op in self.default if ops is None else ops:
            op.run(w, ctx, base, where)

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        return _flat(MATCH, 0, path, describe(where, path), obj={k: 1 + i for i, k in enumerate(self.cases)},
                     branches=tuple(tuple(op.flat(where) for op in ops) for ops in self.children()))


@dataclass(frozen=True)
class Each(Op):
    """``ops`` for each item of the list at ``path`` (read from the item), the item ``j`` at ``at + j * stride``.

    ``most``: at most that many items are written, the first ones (the last ones with
    ``last``, then the final item lands in the last place: a window of recent items);
    the others are left out. A loop that moves (``stride`` > 0) must say ``most``.
    """

    at: int
    path: Key | Path
    stride: int
    ops: tuple[Op, ...]
    most: int | None = None
    last: bool = False

    def children(self) -> tuple[tuple[Op, ...], ...]:
        return (self.ops,)

    def extent(self, players: int) -> int:
        inner = max((op.extent(players) for op in self.ops), default=0)
        if self.stride < 0 or (self.stride > 0 and self.most is None) or (self.most is not None and self.most < 1):
            raise ValueError(f"Each at {self.path!r}: a loop that moves needs a positive stride and a bound (most)")
        return self.at + (0 if self.most is None else (self.most - 1) * self.stride) + inner

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        items = _items(_get(ctx, path, at), at)
        most = self.most
        b = base + self.at
        if most is not None and len(items) > most:
            items = items[len(items) - most:] if self.last else items[:most]
        if most is not None and self.last:
            b += (most - len(items)) * self.stride
        inner = at + ITEM
        for item in items:
            for op in self.ops:
                op.run(w, item, b, inner)
            b += self.stride

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        at = describe(where, path)
        most = -1 if self.most is None else self.most
        return _flat(EACH, self.at, path, at, ints=(self.stride, most, int(self.last)),
                     branches=(tuple(op.flat(at + ITEM) for op in self.ops),))


@dataclass(frozen=True)
class Seats(Op):
    """``ops`` for each item of the per-seat list at ``path``: item ``i`` at ``at + ((i - me) % modulus) * stride``.

    ``modulus``: the list's seats (default: the players; 2 for a list per side of a
    partnership game, where the observer's side comes first). A longer list is refused.
    """

    at: int
    path: Key | Path
    stride: int
    ops: tuple[Op, ...]
    modulus: int | None = None

    def children(self) -> tuple[tuple[Op, ...], ...]:
        return (self.ops,)

    def extent(self, players: int) -> int:
        inner = max((op.extent(players) for op in self.ops), default=0)
        m = players if self.modulus is None else self.modulus
        if self.stride < 0 or m < 1:
            raise ValueError(f"Seats at {self.path!r}: the stride must not be negative, nor the modulus below 1")
        return self.at + (m - 1) * self.stride + inner

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        items = _items(_get(ctx, path, at), at)
        m = w.players if self.modulus is None else self.modulus
        if len(items) > m:
            raise ViewError(f"{at} has {len(items)} entries, for {m} seats")
        inner = at + ITEM
        for i, item in enumerate(items):
            b = base + self.at + ((i - w.me) % m) * self.stride
            for op in self.ops:
                op.run(w, item, b, inner)

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        at = describe(where, path)
        return _flat(SEATS, self.at, path, at, ints=(self.stride, 0 if self.modulus is None else self.modulus, 0),
                     branches=(tuple(op.flat(at + ITEM) for op in self.ops),))


@dataclass(frozen=True)
class Window(Op):
    """The last ``size`` items of the list at ``path`` (the view's events), oldest first, the last in the last row.

    Each event's row (its seats, marked relative to the observer, and its other entries)
    is the encoding's: the writer's ``rows``, memoised by the event's identity. ``kinds``
    is the same rule as data for the kinds a plain field reading says (``Told``: kind ->
    its verb's entry, the field of the acting seat, the field of the tile, or of a list
    of tiles whose first is taken; ``None``: a kind only the encoding's Python says),
    which ``_observe.c`` reads from the event itself; ``tiles`` places a tile at
    ``tile_at + tiles[tile]``, ``kind_key`` is the field naming the kind.
    """

    at: int
    path: Key | Path
    size: int
    width: int
    kinds: Mapping[str, Said | None]
    tile_at: int
    kind_key: str = "kind"
    tiles: Mapping[str, int] | None = None

    def extent(self, players: int) -> int:
        index = TILE_INDEX if self.tiles is None else self.tiles
        if self.tile_at + max(index.values()) >= self.width or players > self.width:
            raise ValueError("Window: a row's seats and tiles must fit its width")
        for said in self.kinds.values():
            if said is not None and not -1 <= said[0] < self.width:
                raise ValueError(f"Window: a verb's entry {said[0]} outside the row's {self.width}")
        return self.at + self.size * self.width

    def run(self, w: Writer, ctx: Any, base: int, where: str) -> None:
        path = path_of(self.path)
        at = describe(where, path)
        events = _items(_get(ctx, path, at), at)
        if len(events) > self.size:
            events = events[len(events) - self.size:]
        b = base + self.at + (self.size - len(events)) * self.width
        buf, me, n = w.buf, w.me, w.players
        for seats, entries in w.rows(events):
            for s in seats:
                buf[b + (s - me) % n] = 1.0
            for e in entries:
                buf[b + e] = 1.0
            b += self.width

    def flat(self, where: str) -> tuple[Any, ...]:
        path = path_of(self.path)
        tiles = dict(TILE_INDEX if self.tiles is None else self.tiles)
        return _flat(WINDOW, self.at, path, describe(where, path), ints=(self.size, self.width, self.tile_at),
                     obj=(dict(self.kinds), tiles), key=self.kind_key)


@dataclass(frozen=True)
class Block:
    """One named part of the observation vector: its size, what it means, and the operations that write it."""

    name: str
    size: int
    doc: str
    ops: tuple[Op, ...] = ()


# ----- a whole observation --------------------------------------------------------------------


def check(blocks: Sequence[Block], players: int) -> None:
    """Refuse blocks whose operations could write outside them (``ValueError`` naming the block).

    An operation's extent (one past the last entry it may write, from its base) must
    lie within its block, and no operation, however deep, may write before its base.
    """
    for b in blocks:
        for op in b.ops:
            _check_starts(b.name, op)
            end = op.extent(players)
            if end > b.size:
                raise ValueError(f"block {b.name} has {b.size} entries, but {op!r} may write up to entry {end - 1}")


def _check_starts(name: str, op: Op) -> None:
    if getattr(op, "at", 0) < 0:
        raise ValueError(f"block {name}: {op!r} writes before its base")
    for ops in op.children():
        for inner in ops:
            _check_starts(name, inner)


def _ops(ops: Sequence[Op]) -> list[Op]:
    """Every operation of ``ops``, with those its own run in turn."""
    out: list[Op] = []
    for op in ops:
        out.append(op)
        for inner in op.children():
            out.extend(_ops(inner))
    return out


def _dyadic(step: float) -> bool:
    """Whether ``step`` is k / 256 for an int k, and at most 1 away from zero: float32 sums many exactly."""
    return 0 < abs(step) <= 1 and (step * 256).is_integer()


def exact_in_float32(blocks: Sequence[Block]) -> bool:
    """Whether float32 entries may be written straight, each store rounding as the list's double once packed does.

    True when every block either only sets its entries (a set rounds once either way) or
    only adds steps of k / 256 (at most 1) to them, which float32 sums exactly while they
    are fewer than 65,536 (``_observe.c`` counts them, and goes through doubles past that).
    """
    for b in blocks:
        steps: list[float] = []
        sets = False
        for op in _ops(b.ops):
            if isinstance(op, Tiles) and op.weight is not None:
                steps.extend([*op.weight.steps.values(), op.weight.default])
            elif isinstance(op, Tiles) and op.copies > 1:
                steps.append(1.0 / op.copies)
            elif isinstance(op, OneTile) and op.add:
                steps.append(op.value)
            elif not isinstance(op, If | Match | Each | Seats):
                sets = True
        if steps and (sets or not all(map(_dyadic, steps))):
            return False
    return True


def seat_of(view: Any, key: str, players: int) -> int:
    """The seat a view is seen from: ``view[key]``, an int from 0 to ``players - 1`` (else :class:`ViewError`)."""
    try:
        seat = view[key]
    except (KeyError, IndexError, TypeError):
        raise ViewError(f"view[{key!r}] is missing") from None
    if seat is None:
        raise ViewError("observations are made for a seat, not for a spectator's view")
    if not _int(seat) or not 0 <= seat < players:
        raise ViewError(f"a view's seat is one of 0 to {players - 1}, got {seat!r}")
    return int(seat)


def write(blocks: Sequence[Block], offsets: Sequence[int], buf: Buffer, view: Any, me: int, players: int,
          rows: Rows) -> None:
    """Write every block's operations from ``view`` into ``buf`` (zero where not written): the Python interpreter."""
    w = Writer(buf, me, players, rows)
    for b, at in zip(blocks, offsets, strict=True):
        for op in b.ops:
            op.run(w, view, at, "view")


def flatten(blocks: Sequence[Block], offsets: Sequence[int]) -> tuple[tuple[Any, ...], ...]:
    """The blocks in the flat form ``_observe.program`` compiles: one group per block, at its offset.

    Each operation is ``(code, at, path, where, inner, i1, i2, i3, f1, f2, f3, f4, obj,
    key, detail, extra, branches)``: its code (the constants above), its entry from its
    base, the path it reads, how errors name that path and a list's item, its numbers
    (see each class's ``flat``), the mapping it looks values up in, an item's key, what a
    refused value must be (in words), what else it needs (a :class:`Weight`: its key,
    steps, default and how errors name its field), and the operations it runs in turn,
    branch by branch.
    """
    return tuple(
        _flat(GROUP, at, (), "view", branches=(tuple(op.flat("view") for op in b.ops),))
        for b, at in zip(blocks, offsets, strict=True)
    )
