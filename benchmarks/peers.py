"""Random-play speed of boneyard beside its peers, the analysis figures, and simulate throughput.

Prints one Markdown report (and writes it with ``--write docs/performance.md``):

1. every boneyard game: random-play moves per second, engine only (``legal_actions()`` and
   ``apply()``) and as bots see it (plus ``view(seat)`` every move);
2. the peers, each beside the boneyard game most like it, as a ratio to ours: abw333's
   ``dominoes``, OpenSpiel's Python ``block_dominoes`` and ``team_dominoes`` and its C++
   ``hearts`` and ``gin_rummy`` (``pyspiel.load_game``), and RLCard's ``mahjong``. A peer
   that is not installed is reported as such, not an error (``make bench`` installs them);
3. the Montana hand-analysis and Rummikub solver figures, by running
   ``benchmarks/montana_analysis.py`` and ``benchmarks/rummikub_solver.py`` when present;
4. ``boneyard.simulate``: its gain from the compiled engines beside random play's gain, per
   game in the same rounds (``benchmarks/sim_speed.py``), and its throughput with 1 and 2
   local workers;
5. with ``--base REV``: this checkout against that revision of the repository, engines,
   views, RL adapters and searches, measured in the same run (``benchmarks/before_after.py``,
   which builds the revision in a temporary directory), so that a change shows whether it
   made anything slower. ``make bench`` passes ``--base $(BASE)``, by default ``HEAD~1``.

A *move* is one decision by a player; chance events (deals) are not counted, but their
time is. Run: ``python benchmarks/peers.py [--base REV] [--seconds S] [--sim-seconds S]
[--write PATH]``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import boneyard

HERE = Path(__file__).resolve().parent
MarkdownLines = list[str]


# ----- boneyard -------------------------------------------------------------------------


def boneyard_moves(game_id: str, seconds: float, players: int | None = None, views: bool = False) -> float:
    """Random-play moves per second of a boneyard game (optionally building the mover's view)."""
    rng = random.Random(1)
    moves = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = boneyard.new_game(game_id, players=players, seed=seed)
        seed += 1
        while not game.is_over:
            if views:
                game.view(game.current_player)
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            moves += 1
    return moves / (time.perf_counter() - start)


# ----- the peers ------------------------------------------------------------------------


def abw333_dominoes(seconds: float) -> float:
    """abw333's ``dominoes``: four-player partnership block dominoes, one hand per game."""
    import dominoes

    rng = random.Random(1)
    moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = dominoes.Game.new()
        while game.result is None:
            valid = game.valid_moves
            game.make_move(*valid[rng.randrange(len(valid))])
            moves += 1
    return moves / (time.perf_counter() - start)


def openspiel(name: str) -> Callable[[float], float]:
    """Random play of an OpenSpiel game loaded with ``pyspiel.load_game``."""

    def run(seconds: float) -> float:
        import pyspiel

        if name.startswith("python_"):
            from open_spiel.python import games  # noqa: F401  (registers the Python games)
        game = pyspiel.load_game(name)
        rng = random.Random(1)
        moves = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, weights)[0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    moves += 1
        return moves / (time.perf_counter() - start)

    return run


def rlcard_mahjong(seconds: float) -> float:
    """RLCard's ``mahjong`` environment driven step by step with random legal actions."""
    import rlcard

    env = rlcard.make("mahjong", config={"seed": 1})
    rng = random.Random(1)
    moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            moves += 1
    return moves / (time.perf_counter() - start)


@dataclass(frozen=True)
class Peer:
    """A peer engine, its language, the boneyard game it is compared with, and its runner."""

    name: str
    package: str
    language: str
    ours: str
    ours_players: int | None
    run: Callable[[float], float]


PEERS = (
    Peer("abw333 dominoes (block, 4p teams)", "dominoes", "Python", "twobox", 4, abw333_dominoes),
    Peer("OpenSpiel block_dominoes (2p)", "open_spiel", "Python", "twobox", 2, openspiel("python_block_dominoes")),
    Peer("OpenSpiel team_dominoes (4p)", "open_spiel", "Python", "twobox", 4, openspiel("python_team_dominoes")),
    Peer("OpenSpiel hearts", "open_spiel", "C++", "eighty", 4, openspiel("hearts")),
    Peer("OpenSpiel gin_rummy", "open_spiel", "C++", "montana", 2, openspiel("gin_rummy")),
    Peer("RLCard mahjong", "rlcard", "Python", "montana", 4, rlcard_mahjong),
)


# ----- interleaved ratios to abw333's dominoes -------------------------------------------

# The games held against abw333's ``dominoes`` (each at its default player count), and the
# ratio to it each must reach.
TARGETS = {"rounce": 1.5, "eighty": 1.5, "twobox": 1.5, "montana": 1.0}


def pure_python_moves(game_id: str, seconds: float) -> float:
    """``boneyard_moves`` in a fresh interpreter running the pure-Python engines (the fallback)."""
    code = (
        f"import sys; sys.path.insert(0, {str(HERE)!r}); import peers; "
        f"peers.boneyard_moves({game_id!r}, {min(seconds, 0.3)!r}); "  # warm up, as this process is
        f"print(peers.boneyard_moves({game_id!r}, {seconds!r}))"
    )
    env = dict(os.environ, BONEYARD_PURE_PYTHON="1")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return float(done.stdout.strip().splitlines()[-1])


Pairs = dict[tuple[str, str], list[tuple[float, float]]]


def interleaved_ratios(rounds: int, seconds: float, engines: list[str]) -> Pairs:
    """(ours, dominoes) moves/s pairs per (game, engines), measured back to back, ``rounds`` times.

    ``engines`` holds ``"compiled"`` (this process, when it runs the compiled engines)
    and/or ``"pure Python"`` (a subprocess with ``BONEYARD_PURE_PYTHON=1``). Each pair is
    measured adjacently in time, in alternating order from one round to the next, so that
    the load of a shared machine weighs on both sides of a ratio alike; this is why the
    ratios are steadier than the absolute figures.
    """
    pairs: Pairs = {(g, e): [] for g in TARGETS if g in boneyard.games() for e in engines}
    for r in range(rounds):
        for game_id, kind in pairs:
            print(f"  round {r + 1}/{rounds}: {game_id} ({kind}) against abw333 dominoes...", file=sys.stderr)

            def ours(game_id: str = game_id, kind: str = kind) -> float:
                if kind == "pure Python":
                    return pure_python_moves(game_id, seconds)
                return boneyard_moves(game_id, seconds)

            if r % 2:
                mine = ours()
                peer = abw333_dominoes(seconds)
            else:
                peer = abw333_dominoes(seconds)
                mine = ours()
            pairs[(game_id, kind)].append((mine, peer))
    return pairs


def interleaved_section(rounds: int, seconds: float) -> MarkdownLines:
    """The interleaved ratios of random play to abw333's ``dominoes``, their min and median."""
    from boneyard import compiled

    engines = ["compiled", "pure Python"] if compiled.is_compiled() else ["pure Python"]
    lines = [
        "## Random play against abw333's `dominoes`, interleaved",
        "",
        f"Each game (default player count, through the public API: `legal_actions()` and `apply()`) "
        f"and abw333's `dominoes` (four-player block game) run back to back for {seconds:g} s each, "
        f"{rounds} rounds, alternating which goes first; a ratio is ours ÷ theirs within one round. "
        "*compiled*: the engines as installed (mypyc); *pure Python*: the same source run by the "
        "interpreter (`BONEYARD_PURE_PYTHON=1`, the fallback when no compiler is present), in a "
        "subprocess. The target is the issue's: 1.5× for rounce, eighty and two-box, 1.0× for montana.",
        "",
    ]
    try:
        import dominoes  # noqa: F401
    except ImportError as err:
        return [*lines, f"abw333's `dominoes` is not installed (`pip install dominoes`: {err}): no ratio."]
    lines += [
        "| game | engines | ours moves/s (median) | dominoes moves/s (median) | ratio min | ratio median "
        "| target | met (min) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for (game_id, kind), pairs in interleaved_ratios(rounds, seconds, engines).items():
        ratios = [ours / peer for ours, peer in pairs]
        low, mid = min(ratios), statistics.median(ratios)
        target = TARGETS[game_id]
        lines.append(
            f"| {game_id} | {kind} | {statistics.median(o for o, _ in pairs):,.0f} | "
            f"{statistics.median(p for _, p in pairs):,.0f} | {low:.2f}× | {mid:.2f}× | {target:.1f}× | "
            f"{'yes' if low >= target else 'median only' if mid >= target else 'no'} |"
        )
    return lines


# ----- the report ------------------------------------------------------------------------


def engines_section(seconds: float) -> tuple[MarkdownLines, dict[tuple[str, int], float]]:
    """The boneyard table, and the moves/s of each (game, players) for the ratios."""
    lines = [
        "## boneyard engines, random play",
        "",
        "| game | players | moves/s (engine) | moves/s (with a view per move) |",
        "| --- | ---: | ---: | ---: |",
    ]
    ours: dict[tuple[str, int], float] = {}
    wanted = {(g, boneyard.game_info(g)["players"]["default"]) for g in boneyard.games()}
    wanted |= {(p.ours, p.ours_players) for p in PEERS if p.ours in boneyard.games() and p.ours_players}
    for game_id, players in sorted(wanted, key=lambda gp: (boneyard.games().index(gp[0]), gp[1])):
        print(f"  boneyard {game_id} ({players}p)...", file=sys.stderr)
        engine = boneyard_moves(game_id, seconds, players)
        viewed = boneyard_moves(game_id, seconds, players, views=True)
        ours[(game_id, players)] = engine
        lines.append(f"| {game_id} | {players} | {engine:,.0f} | {viewed:,.0f} |")
    return lines, ours


def peers_section(seconds: float, ours: dict[tuple[str, int], float]) -> MarkdownLines:
    """Each peer beside the boneyard game most like it, as a ratio to ours."""
    lines = [
        "## Peers, random play, as a ratio to the boneyard game most like each",
        "",
        "| peer | language | moves/s | compared with | ours moves/s | peer ÷ ours |",
        "| --- | --- | ---: | --- | ---: | ---: |",
    ]
    for peer in PEERS:
        print(f"  {peer.name}...", file=sys.stderr)
        key = (peer.ours, peer.ours_players or 0)
        base = ours.get(key)
        label = f"{peer.ours} ({peer.ours_players}p)"
        base_text = f"{base:,.0f}" if base else "not registered"
        try:
            speed = peer.run(seconds)
        except ImportError as err:
            lines.append(
                f"| {peer.name} | {peer.language} | not installed (`pip install {peer.package}`: {err}) "
                f"| {label} | {base_text} | - |"
            )
            continue
        except Exception as err:  # a peer's own failure is reported, not fatal to the report
            lines.append(f"| {peer.name} | {peer.language} | failed: {type(err).__name__}: {err} | {label} | "
                         f"{base_text} | - |")
            continue
        ratio = f"{speed / base:.2f}×" if base else "-"
        lines.append(f"| {peer.name} | {peer.language} | {speed:,.0f} | {label} | {base_text} | {ratio} |")
    return lines


def script_section(title: str, script: str, timeout: float, args: Sequence[str] = ()) -> MarkdownLines:
    """Run another benchmark script (with ``args``) and quote its output: one report for ``make bench``."""
    path = HERE / script
    lines = [f"## {title}", ""]
    if not path.exists():
        return [*lines, f"`benchmarks/{script}` is not in the repository yet: no figure."]
    print(f"  {script}...", file=sys.stderr)
    try:
        done = subprocess.run(
            [sys.executable, str(path), *args], capture_output=True, text=True, timeout=timeout, cwd=HERE.parent
        )
    except subprocess.TimeoutExpired:
        return [*lines, f"`benchmarks/{script}` did not finish within {timeout:.0f} s."]
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        return [*lines, f"`benchmarks/{script}` failed (exit {done.returncode}):", "", "```", *tail, "```"]
    command = " ".join(["python", f"benchmarks/{script}", *args])
    return [*lines, f"Output of `{command}`:", "", "```", done.stdout.rstrip(), "```"]


def search_section(timeout: float, before: Path | None = None) -> MarkdownLines:
    """The bots' speed, with the ismcts playouts a 200 ms decision affords through the engines.

    With ``before`` (the built base tree of ``make bench BASE=REV``) the iterations a 200 ms
    decision affords are also shown for that tree beside this checkout, measured in the same
    run (``bots_speed.py --before``).

    The last column is the figure behind two-box's whole-hand playouts on the engine's fast
    path (``bots/playouts/twobox.py``) and Eighty's and Rounce's ``finish``
    (``bots/tricks/<id>.py``), greedy's play compiled with the engines: through the engine
    one view and one greedy call a move, the same search affords fewer.
    """
    title = "Search speed: playouts through the engines"
    lines = script_section(title, "bots_speed.py", timeout, ("--decisions", "10"))
    if before is not None:
        compared = script_section("", "bots_speed.py", 6 * timeout, ("--before", str(before), "--decisions", "10"))
        lines += ["", "The same search in the base tree and in this checkout, interleaved in one run:", "",
                  *compared[2:]]
    note = (
        "*engine playouts in 200 ms*: the `ismcts` bot's playouts a 200 ms decision affords when every "
        "playout goes through `legal_actions()` and `apply()` of the engines as installed. For two-box "
        "the *iterations* column counts the bot's own whole-hand playouts instead (`bots/playouts/twobox.py`: "
        "greedy's heuristic, compiled by mypyc with the engines, on the engine's fast path `FastHand`, one hand "
        "on tile keys and integer actions with no view or event built), which is what lifts its search above "
        "greedy; for Eighty and Rounce it counts iterations whose tricks greedy plays in one compiled call "
        "(`bots/tricks/<id>.py`: greedy's own play-phase rule, compiled by mypyc with the engines, played "
        "and scored by the engine, no view built). "
        "The two columns side by side are what the compiled playouts "
        "buy (in Rounce the default search spends most of its time in the exact endgame solver, "
        "so the columns are close there)."
    )
    return [*lines, "", note]


def rl_section(timeout: float) -> MarkdownLines:
    """The RL adapters' steps per second beside the bare engine and the peers (``benchmarks/rl_speed.py``)."""
    lines = script_section("RL adapters: steps per second", "rl_speed.py", timeout, ("--seconds", "1", "--rounds", "5"))
    note = (
        "*cost*: the bare engine's decisions per second over the adapter's, the median of five interleaved "
        "rounds (the target: at most 2). What each adapter step includes, and why OpenSpiel is shown per "
        "decision and per step, is in `docs/rl.md` (Speed). PettingZoo's hold'em peers need `rlcard` and "
        "`pygame`, which `make bench` installs."
    )
    return [*lines, "", note]


def rl_vector_section(timeout: float) -> MarkdownLines:
    """The batched environment beside Gymnasium's ``SyncVectorEnv`` of the same N (``benchmarks/rl_vector.py``)."""
    lines = script_section("RL: the batched environment", "rl_vector.py", timeout, ("--seconds", "1", "--rounds", "3"))
    note = (
        "Both measured in the same run, interleaved: `boneyard.rl.vector.BoneyardVectorEnv` (what "
        "`gymnasium.make_vec` gives for a boneyard id) and `gymnasium.vector.SyncVectorEnv` of N single "
        "environments, stepping random legal actions from the masks. A step's time is mostly the tables' "
        "own play (the learner's move, the bots' answers, the observation); the batch saves Gymnasium's "
        "per-table wrappers and info dicts."
    )
    return [*lines, "", note]


def simulate_moves(game_id: str, games: int, workers: int) -> tuple[float, float, float, float]:
    """One ``boneyard.simulate`` run: (games/s, moves/s, hands/s, elapsed s)."""
    result = boneyard.simulate(game_id, games=games, seed=1, workers=workers)
    moves = sum(r["decisions"] for r in result.records)
    hands = sum(r["hands_played"] for r in result.records)
    return result.games_per_second, moves / result.elapsed, hands / result.elapsed, result.elapsed


def simulate_section(seconds: float, rounds: int) -> MarkdownLines:
    """``boneyard.simulate``: its compiled-over-pure gain beside random play's, then 1 and 2 workers.

    The first table comes from ``benchmarks/sim_speed.py``: per game, a simulation's gain
    from the compiled engines beside the gain of random play through the public API,
    measured in the same rounds, so that the reader sees whether the whole gain is passed
    on. The second: each game's run sized (from a short pilot) to take about ``seconds`` on
    one worker, then with two, so that starting the worker processes is a small part of it.
    """
    import sim_speed

    lines = [
        "## `boneyard simulate` throughput (random bots, local backend)",
        "",
        "### Compiled engines' gain: simulate beside random play",
        "",
        *sim_speed.intro(rounds, seconds / 2, 1.0),
        *sim_speed.gains_table(boneyard.games(), rounds, seconds / 2, 1.0),
        "",
        "### Workers",
        "",
        f"Each run sized to about {seconds:g} s on one worker; each game's default player count. With 2 "
        "workers the two processes start from scratch (forkserver), so a speed-up needs two idle cores, "
        "which this shared machine did not have.",
        "",
        "| game | games | workers | games/s | moves/s | hands/s | speed-up |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for game_id in boneyard.games():
        pilot = boneyard.simulate(game_id, games=20, seed=1)
        games = max(20, int(pilot.games_per_second * seconds))
        base = None
        for workers in (1, 2):
            print(f"  simulate {game_id}: {games} games with {workers} worker(s)...", file=sys.stderr)
            gps, mps, hps, _ = simulate_moves(game_id, games, workers)
            base = base or gps
            row = f"| {game_id} | {games} | {workers} | {gps:,.1f} | {mps:,.0f} | {hps:,.1f} | {gps / base:.2f}× |"
            lines.append(row)
    return lines


def before_after_section(base: str, tree: Path, timeout: float) -> MarkdownLines:
    """This checkout against revision ``base`` (built in ``tree``), by ``benchmarks/before_after.py --before``.

    Run in its own process, its Markdown report quoted as it is. Asked for by the rule that
    a change must leave no engine, adapter or search slower than the commit before it: the
    two trees are measured in one run, so that the figures are comparable.
    """
    script = "before_after.py"
    lines = [f"## Before and after: this checkout against {base}", ""]
    command = [sys.executable, str(HERE / script), "--before", str(tree)]
    print(f"  {script} --before {tree} ({base})...", file=sys.stderr)
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=HERE.parent)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
        return [*lines, f"`benchmarks/{script} --before` ({base}) did not finish within {timeout:.0f} s."]
    if proc.returncode != 0:
        tail = out.strip().splitlines()[-5:]
        return [*lines, f"`benchmarks/{script} --before` ({base}) failed (exit {proc.returncode}; its messages went "
                "to stderr):", "", "```", *tail, "```"]
    return [
        *lines,
        f"Output of `python benchmarks/{script}` against {base}: each figure in a fresh subprocess importing one "
        "tree or the other, in CPU time; the revision built in a temporary directory by its own "
        "`hatch_build.py`. The script's docstring says what each measure plays.",
        "",
        out.rstrip(),
    ]


def build_time() -> str:
    """The mypyc build's duration as the install recorded it (``boneyard/_compiled.json``) and its size."""
    from boneyard import compiled

    try:
        manifest = json.loads(compiled.MANIFEST.read_text(encoding="utf-8"))
        seconds = manifest["build_seconds"]
        names = [entry["binary"] for entry in manifest["modules"].values()] + [manifest["shared"]]
        size = sum((compiled.PACKAGE_DIR / name).stat().st_size for name in names)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return ""
    return (
        f"; the install compiled them in {seconds:.0f} s of wall time on this machine, into "
        f"{size / 1e6:.1f} MB of compiled modules (mypy, about 26 MB, is needed only to build)"
    )


def header(seconds: float, base: str | None = None) -> MarkdownLines:
    """What was measured, where and when."""
    from boneyard import compiled

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    against = f" --base {base}" if base else ""
    return [
        "# Performance",
        "",
        f"Written by `make bench` (`python benchmarks/peers.py{against} --write docs/performance.md`).",
        "",
        f"- measured {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPU cores, load average {load:.2f} at the start",
        f"- engines: {compiled.describe()}{build_time()}",
        f"- {seconds:g} s of random play per figure; a move is one player decision (deals and other chance "
        "events are not counted, but their time is)",
        "- the machine was shared with other work while measuring: treat the figures as rough, the ratios "
        "as better than the absolute numbers",
        "",
    ]


def main() -> None:
    """Measure everything and print (and optionally write) the report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of play per figure (default 3)")
    parser.add_argument("--sim-seconds", type=float, default=8.0, help="seconds per simulate run (default 8)")
    parser.add_argument("--script-timeout", type=float, default=300.0, help="limit for each analysis script (s)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds against dominoes (default 5)")
    parser.add_argument("--ratio-seconds", type=float, default=1.0, help="seconds per side of a round (default 1)")
    parser.add_argument("--sim-rounds", type=int, default=3, help="rounds of the simulate gain table (default 3)")
    parser.add_argument("--only-ratios", action="store_true", help="measure only the interleaved ratios")
    parser.add_argument("--only-simulate", action="store_true", help="measure only the simulate tables")
    parser.add_argument("--write", type=Path, default=None, help="also write the report here (Markdown)")
    parser.add_argument("--base", metavar="REV", default=None,
                        help="also measure this checkout against revision REV (benchmarks/before_after.py)")
    parser.add_argument("--base-timeout", type=float, default=3600.0,
                        help="limit for the --base comparison, its build included (s, default 3600)")
    args = parser.parse_args()
    if args.seconds <= 0 or args.sim_seconds <= 0 or args.ratio_seconds <= 0 or args.rounds < 1 or args.sim_rounds < 1:
        parser.error("--seconds, --sim-seconds and --ratio-seconds must be positive, --rounds and --sim-rounds "
                     "at least 1")
    with contextlib.ExitStack() as stack:
        before: Path | None = None
        if args.base is not None:
            # built once, for before_after.py and bots_speed.py both; removed at the end
            from before_after import base_tree, stop_on_sigterm

            stop_on_sigterm()
            before, _label = stack.enter_context(base_tree(args.base, keep=False))
        measure_all(args, before)


def measure_all(args: argparse.Namespace, before: Path | None) -> None:
    """Every section of the report, printed and (with ``--write``) written; ``before`` is the built base tree."""
    lines = header(args.seconds, args.base)
    if args.base is not None and before is not None:
        lines += [*before_after_section(args.base, before, args.base_timeout), ""]
    if args.only_simulate:
        print("\n".join([*lines, *simulate_section(args.sim_seconds, args.sim_rounds)]))
        return
    lines += [*interleaved_section(args.rounds, args.ratio_seconds), ""]
    if args.only_ratios:
        print("\n".join(lines))
        return
    engine_lines, ours = engines_section(args.seconds)
    lines += [*engine_lines, ""]
    lines += [*peers_section(args.seconds, ours), ""]
    lines += [*script_section("Montana hand analysis", "montana_analysis.py", args.script_timeout), ""]
    lines += [*script_section("Rummikub solver", "rummikub_solver.py", args.script_timeout), ""]
    lines += [*search_section(args.script_timeout, before), ""]
    lines += [*rl_section(args.script_timeout), ""]
    lines += [*rl_vector_section(args.script_timeout), ""]
    lines += simulate_section(args.sim_seconds, args.sim_rounds)
    report = "\n".join(lines) + "\n"
    print(report)
    if args.write is not None:
        old = args.write.read_text(encoding="utf-8") if args.write.exists() else ""
        cut = old.find("\n## Server load")  # written by server_load.py: kept as it is
        args.write.write_text(report + (old[cut:] if cut >= 0 else ""), encoding="utf-8")
        print(f"wrote {args.write}", file=sys.stderr)


if __name__ == "__main__":
    main()
