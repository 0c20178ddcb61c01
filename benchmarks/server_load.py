"""Server load: N tables at a realistic pace on boneyard and on boardgame.io, side by side.

Not a test: it prints figures. Per table, one human client acts 1-3 s after its turn comes
(by POST, with ``expected_version``) and presses "Next hand" 1-3 s after a hand ends, three
bots act at the server's default delay (0.6 s) and two spectators watch over WebSocket; a
finished game is replaced by a new table. For each system and number of tables it prints
the human POST's p50/p99 (sent to answered), the server's event-loop lag (p50/p99/max),
its CPU (100% = one core) and memory, the load generator's own CPU, errors, tables whose
play stalled and (boneyard) acknowledged actions lost; then the largest N each system
sustains with p99 under 100 ms, and the ratio to boardgame.io.

The systems, all in one run by default (``--systems``):

- ``sqlite``: one ``boneyard serve`` process on SQLite (fsync on every commit);
- ``pg2``: two ``boneyard serve`` processes on one throwaway PostgreSQL, each table's
  WebSocket on one process and its POSTs on the other (``pgN``: N processes);
- ``noisy``: ``sqlite`` with a noisy neighbour, at the largest number of tables only: one
  more client, from another address (127.0.0.2), keeps trying to open Rummikub tables of
  four ``ismcts`` bots and asks for a hint every two seconds at a practice table of its
  own, so that it always runs as many searches and hints as the server allows it (the
  default ``search`` and ``coach`` limits; the other limits are off, since the humans all
  come from 127.0.0.1). The humans' figures are measured as in ``sqlite``; the row's
  note says what the neighbour got and was refused;
- ``bgio``: boardgame.io (the npm package) running a minimal four-seat game of its own
  (``node/game.js``) on its own server (``node/server.js``, in-memory storage, so it never
  waits on a disk where boneyard fsyncs every action); its bots are clients, since it has no
  server-side bots.

Both servers are driven by load generators in Node (``benchmarks/node``), so that the
clients cost little and the same on both sides: ``load_boneyard.js`` (HTTP and the ``ws``
package) and ``load_bgio.js`` (boardgame.io's own client over socket.io), with the same
pattern and pacing. The packages are installed with npm into ``benchmarks/node/node_modules``
on first use. Once a system misses the target by more than thirty times at some N (p99
over 3 s), its larger levels are skipped: they cannot pass, and an overloaded level takes
longest.

    python benchmarks/server_load.py --write docs/performance.md   # the full run: 8-14 minutes
    python benchmarks/server_load.py --tables 50,200 --measure 15 --systems sqlite
    python benchmarks/server_load.py --systems pg2 --tables 300

The machine has two cores, which the load generators use too, and the load average before
each level is printed: on a shared machine a level's p99 can move by tens of milliseconds
from one run to the next.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from glob import glob
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
NODE = HERE / "node"
TICK = os.sysconf("SC_CLK_TCK")
TARGET_MS = 100.0
PRIORITY = -10  # the nice value of a run's servers and load generators (raise_priority)
PACE = ("The pace, per table: a four-seat game with one human who acts 1-3 s after their turn comes and presses "
        "'Next hand' 1-3 s after a hand ends, three bots at the server's default delay (0.6 s), two spectators "
        "on WebSockets; a finished game is replaced by a new table. That is just under one stored action a second "
        "per table (about 800 a second at 1,000 tables), each pushed to three sockets.")


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile of a list (None if empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Level:
    """What one run at N tables measured."""

    system: str
    tables: int
    posts: int = 0
    p50: float | None = None
    p99: float | None = None
    lag: dict[str, float] = field(default_factory=dict)
    cpu: float = 0.0
    rss: float = 0.0
    errors: int = 0
    lost: int | None = None
    stalled: int = 0  # tables whose human saw no new state in the run's last 15 s
    driver_cpu: float = 0.0  # the load generator's own CPU: near 100%, it and not the server sets the pace

    def line(self) -> str:
        """One printed row."""
        lag = f"{self.lag.get('p50', 0):6.1f} {self.lag.get('p99', 0):6.1f} {self.lag.get('max', 0):7.1f}"
        p50 = f"{self.p50:7.1f}" if self.p50 is not None else "      -"
        p99 = f"{self.p99:7.1f}" if self.p99 is not None else "      -"
        lost = "" if self.lost is None else f"  lost={self.lost}"
        lost += f"  stalled={self.stalled}" if self.stalled else ""
        return (f"{self.system:9} {self.tables:6} {self.posts:6} {p50} {p99}   {lag}  {self.cpu:5.0f}% "
                f"{self.rss:7.0f}  {self.driver_cpu:5.0f}%  errors={self.errors}{lost}")

    @property
    def sustained(self) -> bool:
        """Human p99 under the target, with moves measured and no errors."""
        return (self.p99 is not None and self.p99 < TARGET_MS and self.posts > 0 and self.errors == 0
                and not self.lost and self.stalled == 0)


# ----- boneyard --------------------------------------------------------------------------


class Boneyard:
    """``boneyard serve`` processes (one on SQLite, or several on one PostgreSQL)."""

    def __init__(self, db: str, processes: int, limits: str = "off") -> None:
        self.db = db
        self.limits = limits
        self.ports = [free_port() for _ in range(processes)]
        self.procs: list[subprocess.Popen[bytes]] = []
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - the servers' stderr, read if they fail to start

    def start(self) -> None:
        """Start the processes and wait until each answers."""
        for port in self.ports:
            cmd = [sys.executable, "-m", "boneyard", "serve", "--port", str(port), "--db", self.db,
                   "--limits", self.limits]
            self.procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=self.log))
        for port in self.ports:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    self.stop()
                    self.log.seek(0)
                    raise RuntimeError("boneyard did not start:\n" + self.log.read().decode(errors="replace")[-3000:])
                time.sleep(0.2)

    def stop(self) -> None:
        """Stop every process."""
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


# the noisy neighbour's server: its compute limits as by default, the others off (the humans share 127.0.0.1)
NOISY_LIMITS = "create=off,join=off,act=off,register=off,claim=off,open=off,sockets=off"
NOISY_ADDRESS = "127.0.0.2"


class Neighbour(threading.Thread):
    """One client at another address that orders all the compute it is allowed, and counts what it got."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stop = threading.Event()
        self.opened = self.refused = self.hints = self.hints_refused = self.errors = 0

    def run(self) -> None:
        """Open search-bot tables every second until refused, ask a hint every two seconds, until stopped."""
        transport = httpx.HTTPTransport(local_address=NOISY_ADDRESS)
        with httpx.Client(base_url=self.url, transport=transport, timeout=30) as http:
            practice = http.post("/api/tables", json={"game": "rounce", "players": 3, "practice": True, "seed": 1,
                                                      "seats": ["human", "bot:greedy", "bot:greedy"]}).json()
            token = http.post(f"/api/tables/{practice['id']}/join", json={"seat": 0, "name": "Noisy"}).json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            next_hint = 0.0
            while not self.stop.is_set():
                r = http.post("/api/tables", json={"game": "rummikub", "players": 4, "seats": ["bot:ismcts"] * 4})
                if r.status_code == 201:
                    self.opened += 1
                elif r.status_code == 429:
                    self.refused += 1
                else:
                    self.errors += 1
                if time.monotonic() >= next_hint:
                    next_hint = time.monotonic() + 2.0
                    self._hint(http, practice["id"], auth)
                self.stop.wait(1.0)

    def _hint(self, http: httpx.Client, table_id: str, auth: dict[str, str]) -> None:
        state = http.get(f"/api/tables/{table_id}", headers=auth).json()
        if state.get("is_over") or state.get("current_player") != 0:
            return
        r = http.get(f"/api/tables/{table_id}/hint", headers=auth)
        if r.status_code == 200:
            self.hints += 1
        elif r.status_code == 429:
            self.hints_refused += 1
        elif r.status_code != 409:  # the table moved on while the coach thought: not the server's fault
            self.errors += 1
        legal = state.get("legal_actions") or []
        if legal:
            http.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=auth)

    def note(self, health: dict[str, Any] | None) -> str:
        """What the neighbour got, for the printed table."""
        served = (health or {}).get("compute", {}).get("served", "?")
        return (f"# noisy neighbour: {self.opened} search-bot tables opened, {self.refused} refused (429); "
                f"{self.hints} hints answered, {self.hints_refused} refused (429); {served} compute jobs served; "
                f"{self.errors} errors")


def run_boneyard(tables: int, ramp: float, measure: float, db: str, processes: int,
                 noisy: bool = False) -> tuple[Level, str]:
    """One level on boneyard: start fresh servers, drive them with load_boneyard.js, measure, stop.

    With ``noisy``, a :class:`Neighbour` orders compute from another address all along; the
    second value is its note (empty otherwise).
    """
    server = Boneyard(db, processes, NOISY_LIMITS if noisy else "off")
    server.start()
    neighbour = Neighbour(f"http://127.0.0.1:{server.ports[0]}") if noisy else None
    if neighbour is not None:
        neighbour.start()
    try:
        pids = [p.pid for p in server.procs]
        urls = ",".join(f"http://127.0.0.1:{port}" for port in server.ports)
        load = subprocess.Popen(["node", "load_boneyard.js", urls, str(tables), str(ramp), str(measure)], cwd=NODE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        time.sleep(ramp)
        cpu0, own0, t0 = sum(cpu_seconds(p) for p in pids), cpu_seconds(load.pid), time.monotonic()
        time.sleep(measure * 0.95)
        elapsed = time.monotonic() - t0
        cpu = (sum(cpu_seconds(p) for p in pids) - cpu0) / elapsed * 100
        driver = (cpu_seconds(load.pid) - own0) / elapsed * 100
        health = [_health(port) for port in server.ports]
        rss = sum(rss_mb(p) for p in pids)
        result = _finish(load, measure + 120)
    finally:
        if neighbour is not None:
            neighbour.stop.set()
            neighbour.join(60)
        server.stop()
    lag = {k: max(h["loop_lag_ms"][k] for h in health if h) for k in ("p50", "p99", "max")} if all(health) else {}
    name = "boneyard" if processes == 1 else f"boneyard×{processes}"
    level = Level(name, tables, result["moves"], result["p50"], result["p99"], lag, cpu, rss, result["errors"],
                  result["lost"], stalled=result.get("stalled", 0), driver_cpu=driver)
    return level, neighbour.note(health[0]) if neighbour is not None else ""


# ----- boardgame.io ----------------------------------------------------------------------


def ensure_node() -> None:
    """Install the Node packages with npm into benchmarks/node/node_modules (once)."""
    if (NODE / "node_modules" / "boardgame.io").exists() and (NODE / "node_modules" / "ws").exists():
        return
    if shutil.which("npm") is None or shutil.which("node") is None:
        raise SystemExit("node and npm are needed for the load generators (apt-get install nodejs npm)")
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=NODE, check=True)


class LevelFailed(RuntimeError):
    """A level that could not be run at all (its server did not start): reported, not fatal."""


def _start_bgio() -> tuple[subprocess.Popen[str], int]:
    """boardgame.io's server on two free ports (the game's and its lobby's), ready to serve.

    Two ports are taken between choosing and binding, so a start may lose a race with
    another process: it is tried three times, each on fresh ports, and a failure says what
    node printed.
    """
    said = ""
    for _ in range(3):
        port = free_port()
        while _busy(port + 1):
            port = free_port()
        with tempfile.TemporaryFile(mode="w+") as errors:  # the child keeps its own handle
            server = subprocess.Popen(["node", "server.js", str(port)], cwd=NODE, stdout=subprocess.PIPE,
                                      stderr=errors, text=True)
            assert server.stdout is not None
            line = ""
            for _ in range(10):
                line = server.stdout.readline()
                if "ready" in line or not line:
                    break
            if "ready" in line:
                return server, port
            server.kill()
            server.wait()
            errors.seek(0)
            said = " ".join((line + " " + errors.read()).split())[-300:]
    raise LevelFailed(f"boardgame.io did not start: {said or 'it printed nothing'}")


def run_bgio(tables: int, ramp: float, measure: float) -> Level:
    """One level on boardgame.io's server, driven by benchmarks/node/load_bgio.js."""
    server, port = _start_bgio()
    try:
        load = subprocess.Popen(["node", "load_bgio.js", f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}",
                                 str(tables), str(ramp), str(measure)], cwd=NODE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        time.sleep(ramp)
        cpu0, own0, t0 = cpu_seconds(server.pid), cpu_seconds(load.pid), time.monotonic()
        time.sleep(measure * 0.95)
        cpu = (cpu_seconds(server.pid) - cpu0) / (time.monotonic() - t0) * 100
        driver = (cpu_seconds(load.pid) - own0) / (time.monotonic() - t0) * 100
        rss = rss_mb(server.pid)
        result = _finish(load, measure + 120)
    finally:
        server.terminate()
        lags = [json.loads(x)["lag"] for x in (server.communicate(timeout=10)[0] or "").splitlines() if '"lag"' in x]
    # the histogram's 10 ms resolution is part of every sample: what is left is the lag
    recent = lags[-max(1, int(measure / 5)):] if lags else []
    lag = {k: max(0.0, max(x[k] for x in recent) - 10.0) for k in ("p50", "p99", "max")} if recent else {}
    return Level("bgio", tables, result["moves"], result["p50"], result["p99"], lag, cpu, rss,
                 result.get("errors", 0), None, stalled=result.get("stalled", 0), driver_cpu=driver)


def _finish(load: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    """The load generator's result line; a generator that does not finish in time counts as a failed level."""
    try:
        out, _ = load.communicate(timeout=timeout)
        result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        return result
    except (subprocess.TimeoutExpired, IndexError, json.JSONDecodeError):
        load.kill()
        load.wait()
        return {"moves": 0, "p50": None, "p99": None, "errors": 1, "lost": None}


def _health(port: int) -> dict[str, Any] | None:
    """The server's /healthz, or None if it does not answer within 30 s."""
    try:
        health: dict[str, Any] = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30).json()
        return health
    except httpx.HTTPError:
        return None


def _busy(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


# ----- PostgreSQL ------------------------------------------------------------------------


class Postgres:
    """A throwaway PostgreSQL cluster (Debian's binaries) on a free port."""

    def __init__(self) -> None:
        initdb = shutil.which("initdb") or next(iter(sorted(glob("/usr/lib/postgresql/*/bin/initdb"))), None)
        if initdb is None:
            raise SystemExit("PostgreSQL is not installed (make postgres)")
        self.bin = Path(initdb).resolve().parent
        self.dir = tempfile.mkdtemp(prefix="boneyard-bench-pg-")
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        self.data = os.path.join(self.dir, "data")
        subprocess.run([*self.as_user, str(self.bin / "initdb"), "-D", self.data, "-A", "trust", "-U", "postgres"],
                       check=True, capture_output=True)
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", self.data, "-w", "-l",
                        os.path.join(self.dir, "log"), "-o",
                        f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=300",
                        "start"], check=True, capture_output=True)
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def fresh(self, name: str) -> str:
        """The URL of a new, empty database: a level must not load the live tables of the one before."""
        subprocess.run([*self.as_user, str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                        "-U", "postgres", name], check=True, capture_output=True)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def remove(self) -> None:
        """Stop and delete the cluster."""
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", self.data, "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


# ----- main ------------------------------------------------------------------------------


def raise_priority() -> bool:
    """Run this script, and so every server and load generator it starts, at nice :data:`PRIORITY`.

    (The servers' compute workers lower themselves to the idle class whatever this does.)

    The machine may be shared with other work (tests, builds): at a raised priority the
    operating system gives the measured processes the CPU first, as a dedicated machine
    would, and every system of a run is measured the same way. Needs root; without it the
    run goes on at the usual priority and says so.
    """
    try:
        os.setpriority(os.PRIO_PROCESS, 0, PRIORITY)
    except (PermissionError, OSError, AttributeError):
        return False
    # With Linux's autogroups a nice value weighs only within this session: the session's
    # group as a whole is raised too, else each other session still gets an equal share.
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text(str(PRIORITY), encoding="ascii")
    return True


def parse_systems(text: str) -> list[str]:
    """``sqlite``, ``noisy``, ``pgN`` (N boneyard processes on PostgreSQL) or ``bgio``, comma-separated."""
    systems = [x.strip() for x in text.split(",") if x.strip()]
    for system in systems:
        if system not in ("sqlite", "noisy", "bgio") and not (system.startswith("pg") and system[2:].isdigit()
                                                       and int(system[2:]) >= 1):
            raise SystemExit(f"unknown system {system!r}: use sqlite, noisy, pg1, pg2... or bgio")
    return systems


def main() -> None:
    """Run the levels and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] + " " + PACE,
                                     epilog="The full run (--write) takes 8 to 14 minutes on 2 cores "
                                            "(--budget bounds it).")
    parser.add_argument("--tables", default="100,300,600,1000", help="comma-separated numbers of tables")
    parser.add_argument("--ramp", type=float, default=15.0, help="seconds to open the tables")
    parser.add_argument("--measure", type=float, default=20.0, help="seconds measured after the ramp")
    parser.add_argument("--systems", default="sqlite,noisy,pg2,bgio",
                        help="sqlite, noisy (sqlite with a noisy neighbour, at the largest N), pgN (N processes), bgio")
    parser.add_argument("--budget", type=float, default=14.0,
                        help="minutes the whole run may take: a level that would end later is skipped, and said so")
    parser.add_argument("--write", type=Path, default=None,
                        help="also write the figures as the 'Server load' section of this Markdown file")
    args = parser.parse_args()
    counts = sorted(int(x) for x in args.tables.split(","))
    systems = parse_systems(args.systems)
    started = time.monotonic()
    pg = Postgres() if any(s.startswith("pg") for s in systems) else None
    tmp = tempfile.mkdtemp(prefix="boneyard-bench-")
    ensure_node()
    raised = raise_priority()
    intro = (f"{os.cpu_count()} cores (shared with the load generators); {args.ramp:.0f} s ramp, "
             f"{args.measure:.0f} s measured per level; latencies in ms; "
             + (f"servers and load generators at nice {PRIORITY} (other work on the machine yields to them)"
                if raised else "servers and load generators at the usual priority"))
    heading = (f"{'system':9} {'tables':>6} {'posts':>6} {'p50':>7} {'p99':>7}   {'lag50':>6} {'lag99':>6} "
               f"{'lagmax':>7}  {'cpu':>5} {'rss MB':>7}  {'driver':>6}")
    print(intro)
    print(heading)
    printed: list[str] = [heading]
    levels: list[Level] = []
    failed: set[str] = set()
    try:
        for n in counts:
            note = f"# load average before {n} tables: {os.getloadavg()[0]:.1f}"
            print(note, flush=True)
            printed.append(note)
            for system in systems:
                if system in failed or (system == "noisy" and n != max(counts)):
                    continue
                # a level takes its ramp and measure plus about half a minute to start, finish and stop
                if time.monotonic() - started + args.ramp + args.measure + 30 > args.budget * 60:
                    skipped = f"# {system} at {n} tables skipped: the run would pass its {args.budget:.0f} minutes"
                    print(skipped, flush=True)
                    printed.append(skipped)
                    continue
                note = ""
                try:
                    if system == "bgio":
                        level = run_bgio(n, args.ramp, args.measure)
                    elif system in ("sqlite", "noisy"):
                        level, note = run_boneyard(n, args.ramp, args.measure, f"sqlite:///{tmp}/{system}-{n}.db", 1,
                                                   noisy=system == "noisy")
                    else:
                        assert pg is not None
                        level, _ = run_boneyard(n, args.ramp, args.measure, pg.fresh(f"load_{system}_{n}"),
                                                int(system[2:]))
                except LevelFailed as err:
                    failed.add(system)
                    said = f"# {system} at {n} tables not run: {err}"
                    print(said, flush=True)
                    printed.append(said)
                    continue
                level.system = system if system != "sqlite" else "boneyard"
                print(level.line(), flush=True)
                printed.append(level.line())
                if note:
                    print(note, flush=True)
                    printed.append(note)
                levels.append(level)
                if level.p99 is None or level.p99 > 30 * TARGET_MS or level.errors:
                    failed.add(system)
                    skipped = f"# {level.system}: larger levels skipped (far past the target at {n} tables)"
                    print(skipped, flush=True)
                    printed.append(skipped)
    finally:
        if pg:
            pg.remove()
        shutil.rmtree(tmp, ignore_errors=True)
    best: dict[str, int] = {}
    for level in levels:
        if level.sustained:
            best[level.system] = max(best.get(level.system, 0), level.tables)
    summary = [f"{system}: sustains {best.get(system, 0)} of the tables tried with human p99 < {TARGET_MS:.0f} ms"
               for system in dict.fromkeys(lv.system for lv in levels)]
    for ours in [s for s in dict.fromkeys(lv.system for lv in levels) if s not in ("bgio", "noisy")]:
        if best.get(ours) and best.get("bgio"):
            capped = " (the largest level tried: a lower bound)" if best[ours] == max(counts) else ""
            summary.append(f"ratio {ours}/bgio: {best[ours] / best['bgio']:.2f}{capped}")
        elif best.get(ours) and "bgio" in systems:
            summary.append(f"ratio {ours}/bgio: boardgame.io sustained none of the levels tried")
    summary.append(f"whole run: {(time.monotonic() - started) / 60:.1f} minutes")
    print("\n".join(summary))
    if args.write is not None:
        command = "python benchmarks/server_load.py " + " ".join(sys.argv[1:])
        write_section(args.write, command, intro, printed, summary)


def write_section(path: Path, command: str, intro: str, table: list[str], summary: list[str]) -> None:
    """Put the figures in ``path`` as its last section, "Server load", replacing an older one."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    cut = text.find("\n## Server load")
    kept = (text if cut < 0 else text[:cut]).rstrip("\n")
    section = [
        "## Server load", "",
        f"Written by `{command.replace('--write ' + str(path), '').strip()} --write {path}` "
        "(not a test; see the script's docstring for the client pattern).", "",
        f"- {intro}",
        f"- {PACE}",
        "- per level: human POSTs measured, their p50/p99 (sent to answered), the server's event-loop lag "
        "(p50/p99/max), server CPU (100% = one core; pg2: both processes), resident memory, the load "
        "generator's CPU, errors, acknowledged actions lost and tables whose play stalled",
        "- boneyard (one process) commits every action to SQLite with fsync before answering; pg2 is two "
        "boneyard processes on one PostgreSQL, each table's socket on one and its POSTs on the other; "
        "boardgame.io keeps its matches in memory",
        "- noisy is boneyard on SQLite with a noisy neighbour at the largest level: one more address opening "
        "Rummikub tables of four ismcts bots and asking a hint every 2 s, as far as its limits allow (the "
        "default search=8 and coach=10/minute, every search in the compute pool); its note says what it got",
        "- the machine was shared with other work while measuring (load average per level below): the "
        "figures are noisy", "",
        "```", *table, "```", "", *[f"- {line}" for line in summary], "",
    ]
    path.write_text(kept + "\n\n" + "\n".join(section), encoding="utf-8")


if __name__ == "__main__":
    main()
