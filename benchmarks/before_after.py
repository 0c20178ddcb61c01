"""Before and after: the speed of two trees of boneyard, measured in one interleaved run.

A change to the engines, their views, the RL adapters or the bots must leave nothing
slower than the commit before it. Figures taken on different days of a shared machine
cannot show that; this script measures both trees in the same run, measure by measure,
alternating which goes first, so that the machine's load weighs on both sides alike.

Run::

    python benchmarks/before_after.py --base HEAD~1 [--after PATH] [--games a,b] [--measures m,n]
                                      [--rounds N] [--seconds S] [--keep-base]
    python benchmarks/before_after.py --before PATH [...]

``--base REV`` exports that revision of this repository (``git archive REV``) into a
temporary directory, builds its compiled parts in place there with that tree's own
``hatch_build.py`` run by this interpreter (the mypyc engines and the C modules: several
minutes on a two-core machine), measures it as *before* and deletes it at the end
(``--keep-base`` keeps it, to pass as ``--before`` to later runs). ``--before PATH``
measures a tree already built in place. ``--after`` defaults to this checkout, as it is
(built by ``make``; an engine source edited since its build runs as pure Python).

The measures, per game (default player count and rules), each in CPU seconds
(``time.process_time()``, so that other work on the machine counts less than in wall
time):

- ``engine``: random play through ``legal_actions()`` and ``apply()``, moves per CPU s;
- ``views``: the same plus ``game.view(game.current_player)`` every move;
- ``pettingzoo``: the AEC environment (``boneyard.rl.pettingzoo_env``): ``env.last()``
  and ``env.step`` of a random legal index, decisions per CPU s;
- ``gymnasium``: the registered environment (``boneyard/<Game>-v0``, unwrapped, random
  opponents): ``env.step`` of a random legal index from ``info["action_mask"]``, the
  learner's steps per CPU s (the opponents' moves are inside each step);
- ``openspiel``: ``python_boneyard_<game>``: ``legal_actions()``,
  ``observation_tensor()`` and ``apply_action`` of a random legal action, decisions per
  CPU s (chance nodes sampled and applied, their time counted);
- ``ismcts``: decisions per CPU s of ``boneyard.bot("ismcts", iterations=K)`` on a fixed
  set of positions from seeded random play (a fixed amount of search per decision, which
  any tree can run: the iterations a time budget affords would need the bot's
  internals);
- ``greedy``: ``boneyard.bot("greedy")``'s CPU ms per decision on the same positions.

Each measurement is a fresh subprocess (this script again, with ``--probe``) whose
``PYTHONPATH`` is the tree measured, and which uses only the public API both trees share;
a measure that fails in one tree (an API it lacks) is reported in its cell. The table
shows each tree's median over the rounds and the median of the per-round speed ratios
after ÷ before with their range (above 1: after is faster). Each subprocess reports which
engines it ran (``boneyard.compiled.describe()``): a comparison is fair only between two
builds of the same kind, which the report checks.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GAMES = ("montana", "twobox", "rummikub", "eighty", "rounce")
TREES = ("before", "after")


@dataclass(frozen=True)
class Measure:
    """One row of the table: what is counted, in which unit, and which way is faster."""

    name: str
    label: str
    unit: str
    higher_is_faster: bool = True


MEASURES = {
    m.name: m
    for m in (
        Measure("engine", "engine, random play", "moves/CPU s"),
        Measure("views", "engine + a view per move", "moves/CPU s"),
        Measure("pettingzoo", "PettingZoo AEC env", "decisions/CPU s"),
        Measure("gymnasium", "Gymnasium env", "learner steps/CPU s"),
        Measure("openspiel", "OpenSpiel game", "decisions/CPU s"),
        Measure("ismcts", "ismcts search (K iterations)", "decisions/CPU s"),
        Measure("greedy", "greedy bot", "CPU ms/decision", higher_is_faster=False),
    )
}


# ----- the probe: runs in a subprocess, against the tree on PYTHONPATH -------------------


def timed_games(play_one: Callable[[int], int], seconds: float) -> tuple[int, float]:
    """Play whole games (``play_one(seed) -> counted steps``) for ``seconds`` of CPU time.

    Returns (steps, CPU seconds). Whole games only, seeded 0, 1, 2, ... in both trees,
    so that both play the same games as long as their rules agree.
    """
    steps = seed = 0
    start = time.process_time()
    while True:
        steps += play_one(seed)
        seed += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return steps, spent


def engine_player(game_id: str, views: bool) -> Callable[[int], int]:
    """One game of random play on the bare engine, optionally building the mover's view."""
    import boneyard

    def play(seed: int) -> int:
        game = boneyard.new_game(game_id, seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not game.is_over:
            if views:
                game.view(game.current_player)
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    return play


def pettingzoo_player(game_id: str) -> Callable[[int], int]:
    """One game on the PettingZoo AEC environment, random legal indices from the mask."""
    from boneyard.rl import pettingzoo_env

    env = pettingzoo_env(game_id)

    def play(seed: int) -> int:
        env.reset(seed=seed)
        rng = random.Random(seed)
        decisions = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
        return decisions

    return play


def gymnasium_player(game_id: str) -> Callable[[int], int]:
    """One episode of the Gymnasium environment (unwrapped: the adapter, not gymnasium's checks)."""
    import gymnasium

    import boneyard.rl  # noqa: F401  (registers the environments)

    env = gymnasium.make(f"boneyard/{game_id.capitalize()}-v0", opponents="random").unwrapped

    def play(seed: int) -> int:
        _, info = env.reset(seed=seed)
        rng = random.Random(seed)
        steps = 0
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
            steps += 1
        return steps

    return play


def openspiel_player(game_id: str) -> Callable[[int], int]:
    """One game of the OpenSpiel registration: decisions counted, chance steps' time included."""
    import pyspiel

    import boneyard.rl.openspiel  # noqa: F401  (registers python_boneyard_<id>)

    game = pyspiel.load_game(f"python_boneyard_{game_id}")

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            legal = state.legal_actions()
            state.observation_tensor(state.current_player())
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        return decisions

    return play


Position = tuple[dict[str, Any], list[Any]]


def positions(game_id: str, count: int) -> tuple[list[Position], str]:
    """Views and legal actions of ``count`` decisions with a choice, from seeded random play.

    Random play, not a bot's, so that the positions depend only on the rules: the same in
    both trees unless the rules changed, which the digest of their legal actions shows.
    """
    import boneyard

    out: list[Position] = []
    seed = 0
    rng = random.Random(0)
    while len(out) < count:
        game = boneyard.new_game(game_id, seed=seed)
        seed += 1
        while not game.is_over and len(out) < count:
            legal = list(game.legal_actions())
            if len(legal) > 1 and rng.random() < 0.3:
                out.append((game.view(game.current_player), legal))
            game.apply(legal[rng.randrange(len(legal))])
    digest = hashlib.sha256(repr([[str(a) for a in legal] for _, legal in out]).encode()).hexdigest()[:12]
    return out, digest


def bot_decisions(game_id: str, bot: Any, spots: list[Position], seconds: float) -> tuple[int, float]:
    """Whole passes of ``bot.choose`` over the positions for ``seconds`` of CPU time: (decisions, CPU s).

    Each decision gets its own seeded generator, so every pass does the same work.
    """
    decisions = 0
    start = time.process_time()
    while True:
        for i, (view, legal) in enumerate(spots):
            bot.choose(view, legal, random.Random(i))
        decisions += len(spots)
        spent = time.process_time() - start
        if spent >= seconds:
            return decisions, spent


def probe(spec: dict[str, Any]) -> dict[str, Any]:
    """Measure one thing in this process, against the boneyard that ``import boneyard`` finds.

    Returns the figure (a rate, or ms per decision for greedy), the engines that ran, where
    boneyard came from and, for the bots, a digest of the positions; a failure of the
    measure itself is returned as ``error`` so that the table can show it.
    """
    import boneyard
    from boneyard import compiled

    name, game_id, seconds = spec["measure"], spec["game"], float(spec["seconds"])
    out: dict[str, Any] = {"engines": compiled.describe(), "from": boneyard.__file__}
    warm = min(0.2, seconds / 5)
    try:
        if name in ("ismcts", "greedy"):
            spots, out["positions"] = positions(game_id, int(spec["positions"]))
            params = {"iterations": int(spec["iterations"])} if name == "ismcts" else {}
            bot = boneyard.bot(name, **params)
            bot.choose(spots[0][0], spots[0][1], random.Random(0))  # warm up: imports, tables
            count, spent = bot_decisions(game_id, bot, spots, seconds)
            out["value"] = spent * 1000 / count if name == "greedy" else count / spent
        else:
            makers: dict[str, Callable[[], Callable[[int], int]]] = {
                "engine": lambda: engine_player(game_id, views=False),
                "views": lambda: engine_player(game_id, views=True),
                "pettingzoo": lambda: pettingzoo_player(game_id),
                "gymnasium": lambda: gymnasium_player(game_id),
                "openspiel": lambda: openspiel_player(game_id),
            }
            play = makers[name]()
            timed_games(play, warm)
            count, spent = timed_games(play, seconds)
            out["value"] = count / spent
    except Exception as err:  # an API this tree lacks, or a bug: reported in the table's cell
        out["error"] = f"{type(err).__name__}: {err}"
    return out


# ----- preparing the base ----------------------------------------------------------------


def git(*args: str) -> str:
    """Run git in this repository and return its output, stripped."""
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True).stdout.strip()


def export_revision(rev: str, target: Path) -> str:
    """Write the files of ``rev`` into ``target`` (``git archive | tar -x``); returns how to name it.

    An export rather than ``git worktree add``: it leaves this repository's own state
    (its list of worktrees) alone, which matters when others work in it meanwhile.
    """
    try:
        sha = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    except subprocess.CalledProcessError as err:
        raise SystemExit(f"--base {rev}: not a revision of {REPO} ({err.stderr.strip()})") from None
    title = git("log", "-1", "--format=%h %s", sha)
    title = title if len(title) <= 70 else title[:69] + "…"
    print(f"exporting {rev} ({title}) into {target}...", file=sys.stderr)
    archive = subprocess.Popen(["git", "-C", str(REPO), "archive", "--format=tar", sha], stdout=subprocess.PIPE)
    try:
        subprocess.run(["tar", "-x", "-C", str(target)], stdin=archive.stdout, check=True)
    finally:
        if archive.stdout is not None:
            archive.stdout.close()
        if archive.wait() != 0:
            raise SystemExit(f"git archive {sha} failed (exit {archive.returncode})")
    return f"{rev} ({title})"


def build_tree(tree: Path, heartbeat: float = 30.0) -> bool:
    """Build a tree's compiled parts in place with its own ``hatch_build.py``; whether the engines compiled.

    The build takes minutes, so its output is passed on as it comes (to stderr) and a
    line says every ``heartbeat`` seconds that it is still going. A tree whose engines
    did not compile is still measured (as pure Python); the table then says the
    comparison is not between builds of the same kind.
    """
    if not (tree / "hatch_build.py").exists():
        print(f"{tree} has no hatch_build.py: measured as it is", file=sys.stderr)
        return False
    print(
        f"building {tree}: python hatch_build.py (mypyc compiles the engines, then the C modules; "
        f"several minutes on {os.cpu_count()} cores)...",
        file=sys.stderr,
    )
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "hatch_build.py"], cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )

    def relay() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            print(f"  [build] {line.rstrip()[:200]}", file=sys.stderr)

    reader = threading.Thread(target=relay, daemon=True)
    reader.start()
    try:
        while True:
            try:
                proc.wait(timeout=heartbeat)
                break
            except subprocess.TimeoutExpired:
                print(f"  ... still building ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    finally:
        if proc.poll() is None:  # stopped meanwhile: SIGINT lets the build remove its own temporary files
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        reader.join(timeout=5)
    ok = proc.returncode == 0
    verdict = "done" if ok else f"the engines did not compile (exit {proc.returncode}): measured as pure Python"
    print(f"build {verdict} after {time.monotonic() - started:.0f} s", file=sys.stderr)
    return ok


@contextlib.contextmanager
def base_tree(rev: str, keep: bool) -> Iterator[tuple[Path, str]]:
    """A built export of ``rev`` in a temporary directory, removed afterwards unless ``keep``."""
    tmp = Path(tempfile.mkdtemp(prefix="boneyard-base-"))
    try:
        label = export_revision(rev, tmp)
        build_tree(tmp)
        yield tmp, label
    finally:
        if keep:
            print(f"kept the built base in {tmp} (pass it as --before)", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
            print(f"removed {tmp}", file=sys.stderr)


def tree_label(tree: Path) -> str:
    """A tree's commit (and whether it has uncommitted changes), or just its path outside git."""
    try:
        head = subprocess.run(
            ["git", "-C", str(tree), "log", "-1", "--format=%h %s"], capture_output=True, text=True, check=True
        ).stdout.strip()
        head = head if len(head) <= 70 else head[:69] + "…"
        dirty = subprocess.run(
            ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return str(tree)
    return f"{tree} at {head}" + (", with uncommitted changes" if dirty else "")


def c_modules(tree: Path) -> str:
    """How many of a tree's C modules (``boneyard/**/_*.c``) have their compiled file beside them."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    sources = sorted((tree / "boneyard").rglob("_*.c"))
    missing = [s.name for s in sources if not s.with_name(s.stem + suffix).exists()]
    text = f"{len(sources) - len(missing)} of {len(sources)} C modules built"
    return text + (f" (missing: {', '.join(missing)})" if missing else "")


# ----- measuring both trees --------------------------------------------------------------


@dataclass
class Outcome:
    """One subprocess's answer: its figure or why there is none, and what it ran."""

    value: float | None
    error: str | None
    engines: str
    positions: str | None = None


@dataclass
class Row:
    """A game's measure in both trees, round by round."""

    game: str
    measure: Measure
    outcomes: dict[str, list[Outcome]] = field(default_factory=lambda: {t: [] for t in TREES})


def run_probe(tree: Path, spec: dict[str, Any], timeout: float) -> Outcome:
    """One measurement in a fresh interpreter whose ``PYTHONPATH`` is ``tree``.

    ``-P`` keeps this script's folder off ``sys.path``, so that ``import boneyard`` finds
    the tree's and nothing of this checkout's ``benchmarks/`` can shadow a module.
    """
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, "-P", str(Path(__file__).resolve()), "--probe", json.dumps(spec)]
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=tree, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome(None, f"did not finish within {timeout:.0f} s", "unknown")
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Outcome(None, f"exit {done.returncode}: {tail}", "unknown")
    result = json.loads(lines[-1])
    if not str(result["from"]).startswith(str(tree)):
        raise SystemExit(f"{tree}: the subprocess imported boneyard from {result['from']}, not from this tree")
    value = result.get("value")
    return Outcome(
        None if value is None else float(value), result.get("error"), str(result["engines"]), result.get("positions")
    )


def measure_all(
    trees: dict[str, Path], games: list[str], measures: list[Measure], rounds: int, spec: dict[str, Any]
) -> list[Row]:
    """Every (game, measure) in both trees, ``rounds`` times, alternating which tree goes first.

    The two sides of a ratio are measured one right after the other, so that a change in
    the machine's load between them is as small as it can be.
    """
    rows = [Row(game, m) for game in games for m in measures]
    timeout = 300 + 20 * float(spec["seconds"])
    for r in range(rounds):
        order = TREES if r % 2 == 0 else TREES[::-1]
        for row in rows:
            for name in order:
                print(f"  round {r + 1}/{rounds}: {row.game} {row.measure.name}, {name}...", file=sys.stderr)
                probe_spec = dict(spec, measure=row.measure.name, game=row.game)
                row.outcomes[name].append(run_probe(trees[name], probe_spec, timeout))
    return rows


def figure(value: float) -> str:
    """A rate or a time, to three significant figures or whole units."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def cell(outcomes: list[Outcome]) -> str:
    """A tree's median over the rounds, or what went wrong (a pipe would break the table)."""
    values = [o.value for o in outcomes if o.value is not None]
    errors = [o.error or "no figure" for o in outcomes if o.value is None]
    if not values:
        return f"failed: {errors[0][:120]}".replace("|", "/")
    text = figure(statistics.median(values))
    return text + (f" ({len(errors)} of {len(outcomes)} rounds failed)" if errors else "")


def speed_ratios(row: Row) -> list[float]:
    """Per round, after's speed over before's (above 1: after is faster), where both have a figure."""
    out = []
    for b, a in zip(row.outcomes["before"], row.outcomes["after"], strict=True):
        if b.value and a.value:
            out.append(a.value / b.value if row.measure.higher_is_faster else b.value / a.value)
    return out


def kind(engines: str) -> str:
    """``compiled`` or ``pure Python``, from a ``describe()`` line."""
    return "compiled" if engines.startswith("compiled") else "pure Python"


def report(rows: list[Row], labels: dict[str, str], trees: dict[str, Path], intro: list[str]) -> list[str]:
    """The Markdown report: what was measured, the table, and whether the comparison is fair."""
    lines = [*intro, ""]
    lines += [
        "| game | measure | unit | before | after | after ÷ before (speed, median) | per-round range |",
        "| --- | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        ratios = speed_ratios(row)
        median = f"{statistics.median(ratios):.2f}×" if ratios else "-"
        spread = f"{min(ratios):.2f}–{max(ratios):.2f}×" if len(ratios) > 1 else ("one round" if ratios else "-")
        lines.append(
            f"| {row.game} | {row.measure.label} | {row.measure.unit} | {cell(row.outcomes['before'])} "
            f"| {cell(row.outcomes['after'])} | {median} | {spread} |"
        )
    lines.append("")
    kinds: dict[str, set[str]] = {}
    for name in TREES:
        seen: dict[str, int] = {}
        for row in rows:
            for o in row.outcomes[name]:
                if o.engines != "unknown":
                    seen[o.engines] = seen.get(o.engines, 0) + 1
        kinds[name] = {kind(e) for e in seen}
        ran = "; ".join(f"{e} ({n} subprocesses)" for e, n in seen.items()) or "no subprocess answered"
        lines.append(f"- {name}: {labels[name]}; engines: {ran}; {c_modules(trees[name])}")
    if len(kinds["before"] | kinds["after"]) > 1:
        lines.append(
            f"- **not a fair comparison**: before ran {', '.join(sorted(kinds['before']))} engines, after "
            f"{', '.join(sorted(kinds['after']))} (rebuild the pure-Python side: `make build` in this checkout)"
        )
    differ = []
    for row in rows:
        digests = {o.positions for name in TREES for o in row.outcomes[name] if o.positions}
        if len(digests) > 1:
            differ.append(f"{row.game} {row.measure.name}")
    if differ:
        lines.append(f"- the bots' positions differ between the trees (their rules changed): {', '.join(differ)}")
    return lines


def stop_on_sigterm() -> None:
    """Turn SIGTERM into ``SystemExit`` so that a stopped run still removes its temporary tree."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(f"stopped by signal {signum}")

    signal.signal(signal.SIGTERM, stop)


def main() -> None:
    """Prepare the trees, measure them round by round, and print the Markdown report."""
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        print(json.dumps(probe(json.loads(sys.argv[2]))))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    side = parser.add_mutually_exclusive_group(required=True)
    side.add_argument("--base", metavar="REV", help="a revision of this repository: exported, built and measured")
    side.add_argument("--before", type=Path, help="a tree already built in place, measured as 'before'")
    parser.add_argument("--after", type=Path, default=REPO, help="the tree measured as 'after' (this checkout)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids (default: all five)")
    parser.add_argument("--measures", default=",".join(MEASURES), help=f"comma-separated, of {', '.join(MEASURES)}")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; medians are shown (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement (default 1)")
    parser.add_argument("--iterations", type=int, default=20, help="ismcts iterations per decision (default 20)")
    parser.add_argument("--positions", type=int, default=8, help="positions the bots decide (default 8)")
    parser.add_argument("--keep-base", action="store_true", help="keep the built --base tree (its path is printed)")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0 or args.iterations < 1 or args.positions < 1:
        parser.error("--rounds, --iterations and --positions must be at least 1, --seconds positive")
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    names = [m.strip() for m in args.measures.split(",") if m.strip()]
    if unknown := sorted(set(games) - set(GAMES)):
        parser.error(f"unknown game(s) {', '.join(unknown)}; choose from {', '.join(GAMES)}")
    if unknown := sorted(set(names) - set(MEASURES)):
        parser.error(f"unknown measure(s) {', '.join(unknown)}; choose from {', '.join(MEASURES)}")
    after = args.after.resolve()
    if not (after / "boneyard" / "__init__.py").exists():
        parser.error(f"--after {after}: not a boneyard source tree")
    spec = {"seconds": args.seconds, "iterations": args.iterations, "positions": args.positions}
    measures = [MEASURES[n] for n in names]
    stop_on_sigterm()
    with contextlib.ExitStack() as stack:
        if args.base is not None:
            before, before_label = stack.enter_context(base_tree(args.base, args.keep_base))
        else:
            before = args.before.resolve()
            before_label = tree_label(before)
        if not (before / "boneyard" / "__init__.py").exists():
            parser.error(f"before tree {before}: not a boneyard source tree")
        trees = {"before": before, "after": after}
        labels = {"before": before_label, "after": tree_label(after)}
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        intro = [
            f"- {args.rounds} round(s) of {args.seconds:g} CPU s per figure, each a fresh subprocess per tree, "
            f"alternating which tree goes first; {os.cpu_count()} CPU cores, load average {load:.2f} at the start",
            f"- bots: {args.positions} positions from seeded random play; ismcts with "
            f"iterations={args.iterations} (K)",
            "- *after ÷ before* is a speed ratio: above 1, after is faster (for ms/decision, before ÷ after)",
        ]
        rows = measure_all(trees, games, measures, args.rounds, spec)
        print("\n".join(report(rows, labels, trees, intro)))


if __name__ == "__main__":
    main()
