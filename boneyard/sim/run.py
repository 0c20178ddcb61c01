"""``boneyard.simulate``: run many games, write ``results.jsonl`` and ``summary.json``, return both.

Batches are played by a backend (:mod:`boneyard.sim.backends`) in any order; their
records are put back in game order before they are written or summarised, so the files
are byte for byte the same whatever the number of workers or the backend.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from .backends import BACKENDS_RUN, Done, ray_module
from .runner import BACKENDS, BotSpec, Plan, SimulationError, batches, make_plan
from .summary import Summary

if TYPE_CHECKING:
    from rich.progress import Progress

ProgressHook = Callable[[int, int], None]


class SimResult(NamedTuple):
    """What a run returns: the summary, the records (if kept), seconds taken, files written."""

    summary: dict[str, Any]
    records: list[dict[str, Any]]
    elapsed: float
    files: list[Path]

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.summary["games"] / self.elapsed if self.elapsed > 0 else float("inf")


def _check_run_options(workers: int, backend: str, address: str | None, plot: bool, out: Path | None) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"workers must be a positive int, got {workers!r}")
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r}; choose from: {', '.join(BACKENDS)}")
    if address and backend != "ray":
        raise SimulationError("an address is used only with the ray backend (--backend ray)")
    if backend == "ray":
        ray_module()
    if plot:
        if out is None:
            raise SimulationError("plots are written to the output folder: give an output folder (--out) to plot")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise SimulationError("plots need matplotlib: pip install 'boneyard[plot]'") from None
    if out is not None and out.exists() and not out.is_dir():
        raise SimulationError(f"the output folder {out} exists and is not a folder")


def in_order(done: Iterator[Done], work: Sequence[tuple[int, int]]) -> Iterator[list[dict[str, Any]]]:
    """Batches as they finish, put back in game order."""
    waiting: dict[int, list[dict[str, Any]]] = {}
    starts = iter([start for start, _ in work])
    want = next(starts, None)
    for start, records in done:
        waiting[start] = records
        while want is not None and want in waiting:
            yield waiting.pop(want)
            want = next(starts, None)


def _progress_bar(total: int, label: str) -> tuple[Progress, ProgressHook]:
    # Rich is imported only when a bar is shown, to keep ``import boneyard`` light.
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    task = bar.add_task(label, total=total)

    def hook(done: int, _total: int) -> None:
        bar.update(task, completed=done)

    return bar, hook


def simulate(
    game: str,
    *,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    bots: str | Sequence[str | BotSpec] = "random",
    games: int = 100,
    seed: int = 0,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    out: str | Path | None = None,
    plot: bool = False,
    batch_size: int | None = None,
    rotate: bool = True,
    keep_records: bool = True,
    progress: bool | ProgressHook = False,
) -> SimResult:
    """Play ``games`` seeded games of ``game`` between ``bots`` and summarise them.

    ``bots`` are dealt round the seats (cycled), starting one bot later each game when
    ``rotate``; a bot is written ``name`` or ``name:key=value``. Game ``i`` is seeded from
    ``seed`` and ``i`` alone, so the records and the summary do not depend on ``workers``,
    ``batch_size`` or ``backend`` (``"local"`` processes or ``"ray"``, which connects to
    ``address`` or ``RAY_ADDRESS`` if given, else starts a local Ray). With ``out`` the
    records go to ``out/results.jsonl`` and the summary to ``out/summary.json`` (and PNG
    charts with ``plot``). ``progress``: ``True`` shows a Rich progress bar with an ETA; a
    callable is called with (games done, total). Every option is checked, by making one
    game and every bot, before any game is played: a bad one raises
    :class:`SimulationError` (a ``ValueError``) naming the problem.
    """
    folder = Path(out) if out is not None else None
    _check_run_options(workers, backend, address, plot, folder)
    plan = make_plan(game, players=players, rules=rules, bots=bots, games=games, seed=seed, rotate=rotate)
    work = batches(plan.games, workers, batch_size)
    summary = Summary(plan)
    kept: list[dict[str, Any]] = []
    files: list[Path] = []
    started = time.perf_counter()
    with ExitStack() as stack:
        sink: IO[str] | None = None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            files.append(folder / "results.jsonl")
            sink = stack.enter_context(files[-1].open("w", encoding="utf-8"))
        hook: ProgressHook | None = progress if callable(progress) else None
        if progress is True:
            bar, hook = _progress_bar(plan.games, f"{game} ({backend}, {workers} worker{'s' * (workers > 1)})")
            stack.enter_context(bar)
        run = BACKENDS_RUN[backend]
        done = 0
        for chunk in in_order(run(plan, work, workers, address), work):
            for record in chunk:
                summary.add(record)
                if sink is not None:
                    sink.write(json.dumps(record, separators=(",", ":")) + "\n")
                if keep_records:
                    kept.append(record)
            done += len(chunk)
            if hook is not None:
                hook(done, plan.games)
    elapsed = time.perf_counter() - started
    result = summary.result()
    if folder is not None:
        files.append(folder / "summary.json")
        files[-1].write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        if plot:
            from .plots import write_plots

            files.extend(write_plots(result, folder))
    return SimResult(result, kept, elapsed, files)


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """The records of a ``results.jsonl`` file."""
    with Path(path).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


__all__ = ["Plan", "SimResult", "SimulationError", "load_records", "simulate"]
