"""Fair compute: bot searches and the coach run in worker processes, served in turn by address.

A search bot (one that takes a think-time budget, ``ms``: ``ismcts``) can spend seconds
on one move, and the coach as long on a hint. Run in the serving process, such work holds
the GIL against every request and, queued on the tables' threads, puts a human's move
behind a stranger's search. So:

- **Processes.** Every search and every coach job runs in a small pool of worker
  processes (:class:`ComputePool`, ``--compute-workers``), never on the event loop or the
  threads that apply moves, at a lower scheduling priority than the server (``nice``), so
  a search only gets the CPU that requests leave. A human's move goes through those threads only: it is never
  queued behind a search. Cheap bots (``random``, ``greedy``) still decide on the tables'
  threads, where they take well under a millisecond or two.
- **A fair queue.** Jobs wait in one queue per client address (the address that opened
  the table, or that asked for the hint), and within it one per table; the pool takes
  the next job from the next address in turn, then from that address's next table. An
  address with fifty waiting searches delays another address's job by at most one job
  per busy worker.
- **A cap on think time.** Whatever a seat's bot would spend, the server makes every
  search bot with ``ms`` at most ``--bot-ms-cap`` (:func:`capped_params`).

The worker sees only what the serving process already hands a bot: the seat's view, its
legal actions and a seeded random source. A worker that dies is replaced; the job it held
fails, and the table plays a random legal action for that decision as it does for any
failing bot.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import inspect
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from boneyard.bots import Bot, bot, maker

log = logging.getLogger("boneyard.server")

T = TypeVar("T")

BOT_MS_CAP = 1000.0  # the most a search bot may think per move, in milliseconds (--bot-ms-cap)
WORKER_NICE = 10  # how much lower the workers' scheduling priority is than the server's
PARENT_CHECK = 1.0  # seconds between a worker's checks that its server is still there


def default_workers() -> int:
    """Worker processes for searches: half the machine's cores (at least one), the rest serve requests."""
    return max(1, (os.cpu_count() or 2) // 2)


@functools.cache
def searches(name: str) -> bool:
    """Whether the bot ``name`` searches: its maker takes a think-time budget (``ms``).

    That is the bot's own declaration of being costly (``ismcts``); a bot that decides
    from the position alone (``random``, ``greedy``, a policy network) takes no budget.
    An unknown or unloadable bot is not a search bot (it cannot take a seat anyway).
    """
    try:
        factory = maker(name)
    except ValueError:
        return False
    try:
        return "ms" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def capped_params(name: str, cap_ms: float | None) -> tuple[tuple[str, Any], ...]:
    """The settings the server makes bot ``name`` with: ``ms`` at the cap for a search bot, else none."""
    if cap_ms is not None and searches(name):
        return (("ms", float(cap_ms)),)
    return ()


@dataclass(eq=False)
class SeatBot:
    """A seat's bot as the server holds it: its name and settings, so a worker can make the same bot.

    ``choose`` decides here, in this process (a cheap bot, or no pool); the table service
    sends a search bot's decisions to the :class:`ComputePool` instead, by name and
    settings, since a bot object is not sent between processes.
    """

    name: str
    params: tuple[tuple[str, Any], ...] = ()
    _made: Bot | None = field(default=None, repr=False)

    @property
    def searches(self) -> bool:
        """Whether this bot's decisions go to the compute pool."""
        return searches(self.name)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """Decide in this process (see the class's note)."""
        if self._made is None:
            self._made = bot(self.name, **dict(self.params))
        return self._made.choose(view, legal_actions, rng)


def make_seat_bot(name: str, cap_ms: float | None) -> SeatBot:
    """The bot a seat named ``name`` gets on this server (the think-time cap applied); checks it can be made."""
    made = SeatBot(name, capped_params(name, cap_ms))
    made._made = bot(name, **dict(made.params))
    return made


def choose_in_worker(name: str, params: tuple[tuple[str, Any], ...], view: dict[str, Any],
                     legal: Sequence[Any], seed: str) -> str:
    """A worker process's job: bot ``name`` (made with ``params``) decides from the view; the action's text.

    The bot is made afresh for each decision: it sees only the view, as at the table, and
    no state of one table's bot can reach another table's decision.
    """
    return str(bot(name, **dict(params)).choose(view, legal, random.Random(seed)))


def _warm() -> None:
    """A new worker lowers its priority, then imports the bots and engines once, before its first job.

    In Linux's idle scheduling class (elsewhere at :data:`WORKER_NICE`) the operating system
    gives the serving process the CPU first whenever both want it: searches take what the
    requests leave, so a machine full of searches still answers a move at once. A search
    bot's budget is wall-clock time, so on a machine busy with requests it searches less,
    and still moves on time.
    """
    try:  # Linux: the idle class, which runs only on CPU time nothing else wants
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # type: ignore[attr-defined,unused-ignore]
    except (OSError, AttributeError):
        with contextlib.suppress(OSError, AttributeError):  # elsewhere a lower priority, or none
            os.nice(WORKER_NICE)
    parent = os.getppid()
    threading.Thread(target=_orphaned, args=(parent,), name="boneyard-parent-watch", daemon=True).start()
    import boneyard
    import boneyard.bots.ismcts  # noqa: F401


def _orphaned(parent: int) -> None:
    """End this worker once the server that started it is gone (killed, even with -9).

    A pool's workers wait for their next job for ever: without this, every server that
    dies without shutting its pool down would leave its workers behind.
    """
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


@dataclass(eq=False)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any]


class ComputePool:
    """A bounded pool of worker processes fed by a fair queue (round robin by address, then table).

    ``run(address, table, fn, *args)`` waits its turn, runs ``fn(*args)`` in a worker and
    answers its result (or raises its error). The processes start with the first job, so a
    server whose tables never search never starts one.
    """

    def __init__(self, workers: int | None = None, processes: bool = True) -> None:
        self.workers = workers if workers is not None else default_workers()
        if self.workers < 1:
            raise ValueError("the compute pool needs at least one worker process")
        # False: threads of this process run the jobs, in the same fair order (for tests that
        # replace a function of the coach in this process and must see the web use it)
        self.processes = processes
        self._executor: Executor | None = None
        # address -> table -> jobs waiting; both orders are the turn (the first is served next)
        self._waiting: collections.OrderedDict[str, collections.OrderedDict[str, collections.deque[_Job]]] = (
            collections.OrderedDict())
        self.running = 0
        self.served = 0  # jobs finished (figures for /health and the benchmarks)
        self.closed = False

    # ----- the queue -----------------------------------------------------------------

    @property
    def waiting(self) -> int:
        """Jobs queued and not yet handed to a worker."""
        return sum(len(q) for tables in self._waiting.values() for q in tables.values())

    def waiting_for(self, address: str) -> int:
        """Jobs of one address queued and not yet handed to a worker."""
        return sum(len(q) for q in self._waiting.get(address, {}).values())

    async def run(self, address: str, table: str, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in a worker when ``address``'s turn comes; its result, or its error."""
        if self.closed:
            raise RuntimeError("the compute pool is closed")
        job = _Job(fn, args, asyncio.get_running_loop().create_future())
        self._waiting.setdefault(address, collections.OrderedDict()).setdefault(table, collections.deque()).append(
            job)
        self._dispatch()
        try:
            return await job.done
        except asyncio.CancelledError:
            self._forget(address, table, job)  # not yet started: it never will be
            raise

    def _forget(self, address: str, table: str, job: _Job) -> None:
        tables = self._waiting.get(address)
        if tables is None or table not in tables:
            return
        with contextlib.suppress(ValueError):
            tables[table].remove(job)
        if not tables[table]:
            del tables[table]
        if not tables:
            del self._waiting[address]

    def _next(self) -> _Job:
        """The next job in turn: the first address's first table's oldest job; both move to the back."""
        address, tables = next(iter(self._waiting.items()))
        table, queue = next(iter(tables.items()))
        job = queue.popleft()
        del tables[table]
        if queue:
            tables[table] = queue  # this table's next job waits for the address's other tables
        del self._waiting[address]
        if tables:
            self._waiting[address] = tables  # and this address's for the other addresses
        return job

    def _dispatch(self) -> None:
        while self.running < self.workers and self._waiting and not self.closed:
            job = self._next()
            if job.done.done():  # its caller gave up while it waited
                continue
            self.running += 1
            try:
                future = self._pool().submit(job.fn, *job.args)
            except (BrokenProcessPool, RuntimeError) as err:
                self.running -= 1
                self._executor = None
                job.done.set_exception(err)
                continue
            future.add_done_callback(functools.partial(self._hand_back, job))

    def _hand_back(self, job: _Job, future: Future[Any]) -> None:
        """A worker finished ``job`` (called on the pool's thread): the rest is done on the job's loop."""
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits any more
            job.done.get_loop().call_soon_threadsafe(self._finished, job, future)

    def _finished(self, job: _Job, future: Future[Any]) -> None:
        self.running -= 1
        self.served += 1
        if not job.done.done():
            err = future.exception()
            if err is None:
                job.done.set_result(future.result())
            else:
                if isinstance(err, BrokenProcessPool):
                    log.warning("a compute worker died; starting a fresh pool")
                    self._executor = None
                job.done.set_exception(err)
        self._dispatch()

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes:
                # spawn: a fresh interpreter, not a fork of a process that runs threads and a loop
                self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                     initializer=_warm)
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="boneyard-compute")
        return self._executor

    def close(self) -> None:
        """Stop: waiting jobs are refused, running ones are left to end, the workers exit."""
        self.closed = True
        for tables in self._waiting.values():
            for queue in tables.values():
                for job in queue:
                    if not job.done.done():
                        job.done.cancel()
        self._waiting.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
