"""Server load: N tables at a realistic pace on boneyard and on boardgame.io, side by side.

Not a test: it prints figures. Per table, one human client over WebSocket acts 1-3 s after
its turn comes (by POST, with ``expected_version``), three bots act at the server's default
delay (0.6 s) and two spectators watch over WebSocket. For each number of tables it prints
the human POST's p50/p99 (sent to answered), the server's event-loop lag (p50/p99/max),
its CPU (100% = one core) and memory, then the largest N each server sustains with p99
under 100 ms and their ratio.

boardgame.io (the npm package, ``benchmarks/bgio``: a minimal four-seat game, its own
server with in-memory storage, and a Node load generator with the same pattern and
pacing; bots are clients there, since boardgame.io has no server-side bots) is installed
with npm into ``benchmarks/bgio/node_modules`` on first use.

    python benchmarks/server_load.py                       # SQLite, 100/300/1000 tables
    python benchmarks/server_load.py --tables 50,200 --measure 15
    python benchmarks/server_load.py --postgres --processes 2 --tables 300 --no-bgio

The machine is shared and has two cores, which the load generators use too: figures are
noisy, and a level's p99 can move by tens of milliseconds from one run to the next.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from glob import glob
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

HERE = Path(__file__).resolve().parent
BGIO = HERE / "bgio"
TICK = os.sysconf("SC_CLK_TCK")
TARGET_MS = 100.0


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
    driver_cpu: float = 0.0  # the load generator's own CPU: near 100% it, not the server, sets the pace

    def line(self) -> str:
        """One printed row."""
        lag = f"{self.lag.get('p50', 0):6.1f} {self.lag.get('p99', 0):6.1f} {self.lag.get('max', 0):7.1f}"
        p50 = f"{self.p50:7.1f}" if self.p50 is not None else "      -"
        p99 = f"{self.p99:7.1f}" if self.p99 is not None else "      -"
        lost = "" if self.lost is None else f"  lost={self.lost}"
        return (f"{self.system:9} {self.tables:6} {self.posts:6} {p50} {p99}   {lag}  {self.cpu:5.0f}% "
                f"{self.rss:7.0f}  {self.driver_cpu:5.0f}%  errors={self.errors}{lost}")

    @property
    def sustained(self) -> bool:
        """Human p99 under the target, with moves measured and no errors."""
        return self.p99 is not None and self.p99 < TARGET_MS and self.posts > 0 and self.errors == 0


# ----- boneyard --------------------------------------------------------------------------


class Boneyard:
    """``boneyard serve`` processes (one on SQLite, or several on one PostgreSQL)."""

    def __init__(self, db: str, processes: int) -> None:
        self.db = db
        self.ports = [free_port() for _ in range(processes)]
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self) -> None:
        """Start the processes and wait until each answers."""
        for port in self.ports:
            cmd = [sys.executable, "-m", "boneyard", "serve", "--port", str(port), "--db", self.db, "--limits", "off"]
            self.procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for port in self.ports:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("boneyard did not start")
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


async def boneyard_load(ports: list[int], tables: int, ramp: float, measure: float) -> tuple[list[float], int, int]:
    """Drive ``tables`` tables; returns the human POST latencies (ms) of the measured window, errors, lost."""
    latencies: list[float] = []
    errors = [0]
    acked: dict[str, int] = {}
    window = {"on": False}
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400)
    clients = [httpx.AsyncClient(base_url=f"http://127.0.0.1:{p}", timeout=30, limits=limits) for p in ports]

    async def spectate(port: int, table_id: str) -> None:
        try:
            async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", max_size=None) as ws:
                while not stop.is_set():
                    await ws.recv()
        except Exception:
            return

    async def act(http: httpx.AsyncClient, table_id: str, token: str, state: dict[str, Any]) -> None:
        await asyncio.sleep(random.uniform(1.0, 3.0))
        body = {"action": random.choice(state["legal_actions"]), "expected_version": state["version"]}
        started = time.perf_counter()
        try:
            r = await http.post(f"/api/tables/{table_id}/actions", json=body,
                                headers={"Authorization": f"Bearer {token}"})
        except httpx.HTTPError:
            errors[0] += 1
            return
        if window["on"]:
            latencies.append((time.perf_counter() - started) * 1000)
        if r.status_code == 200:
            acked[table_id] = max(acked.get(table_id, 0), r.json()["version"])
        elif r.status_code != 409:
            errors[0] += 1

    async def seat(slot: int) -> None:
        # WebSocket on one process, POSTs to the other when there are two: any process serves any table
        ws_port = ports[slot % len(ports)]
        http = clients[(slot + 1) % len(clients)]
        while not stop.is_set():
            body = {"game": "rounce", "players": 4, "seats": ["human", "bot:greedy", "bot:greedy", "bot:greedy"]}
            try:
                table_id = (await http.post("/api/tables", json=body)).json()["id"]
                token = (await http.post(f"/api/tables/{table_id}/join", json={"name": f"h{slot}"})).json()["token"]
            except (httpx.HTTPError, KeyError):
                errors[0] += 1
                await asyncio.sleep(1)
                continue
            watchers = [asyncio.ensure_future(spectate(ws_port, table_id)) for _ in range(2)]
            acted = -1
            pending: asyncio.Task[None] | None = None
            try:
                async with connect(f"ws://127.0.0.1:{ws_port}/ws/tables/{table_id}?token={token}",
                                   max_size=None) as ws:
                    while not stop.is_set():
                        try:
                            state = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                        except TimeoutError:
                            continue
                        if state["is_over"]:
                            break
                        if state["current_player"] == 0 and state["version"] > acted and state["legal_actions"]:
                            acted = state["version"]
                            if pending is None or pending.done():
                                pending = asyncio.ensure_future(act(http, table_id, token, state))
            except Exception:
                errors[0] += 1
            finally:
                for w in watchers:
                    w.cancel()
                if pending is not None:
                    pending.cancel()

    seats = []
    for slot in range(tables):
        seats.append(asyncio.ensure_future(seat(slot)))
        await asyncio.sleep(ramp / tables)
    window["on"] = True
    await asyncio.sleep(measure)
    window["on"] = False
    stop.set()
    await asyncio.wait(seats, timeout=10)
    for task in seats:
        task.cancel()
    lost = 0
    for table_id, version in list(acked.items())[:200]:  # every acknowledged action is stored
        stored = (await clients[0].get(f"/api/tables/{table_id}")).json().get("version", -1)
        lost += stored < version
    for c in clients:
        await c.aclose()
    return latencies, errors[0], lost


def run_boneyard(tables: int, ramp: float, measure: float, db: str, processes: int) -> Level:
    """One level on boneyard: start fresh servers, drive them, measure, stop."""
    server = Boneyard(db, processes)
    server.start()
    try:
        pids = [p.pid for p in server.procs]
        loop = asyncio.new_event_loop()
        task = loop.create_task(boneyard_load(server.ports, tables, ramp, measure))
        loop.run_until_complete(asyncio.sleep(ramp))
        cpu0, own0, t0 = sum(cpu_seconds(p) for p in pids), cpu_seconds(os.getpid()), time.monotonic()
        loop.run_until_complete(asyncio.sleep(measure * 0.95))
        elapsed = time.monotonic() - t0
        cpu = (sum(cpu_seconds(p) for p in pids) - cpu0) / elapsed * 100
        driver = (cpu_seconds(os.getpid()) - own0) / elapsed * 100
        health = [httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).json() for port in server.ports]
        rss = sum(rss_mb(p) for p in pids)
        latencies, errors, lost = loop.run_until_complete(task)
        loop.close()
    finally:
        server.stop()
    lag = {k: max(h["loop_lag_ms"][k] for h in health) for k in ("p50", "p99", "max")}
    name = "boneyard" if processes == 1 else f"boneyard×{processes}"
    return Level(name, tables, len(latencies), percentile(latencies, 0.5), percentile(latencies, 0.99), lag, cpu,
                 rss, errors, lost, driver)


# ----- boardgame.io ----------------------------------------------------------------------


def ensure_bgio() -> bool:
    """Install boardgame.io with npm into benchmarks/bgio/node_modules (once); False without npm."""
    if (BGIO / "node_modules" / "boardgame.io").exists():
        return True
    if shutil.which("npm") is None or shutil.which("node") is None:
        print("boardgame.io: node/npm not found, skipped")
        return False
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=BGIO, check=True)
    return True


def run_bgio(tables: int, ramp: float, measure: float) -> Level:
    """One level on boardgame.io's server, driven by benchmarks/bgio/load.js."""
    port = free_port()
    while _busy(port + 1):
        port = free_port()
    server = subprocess.Popen(["node", "server.js", str(port)], cwd=BGIO, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        for _ in range(10):
            line = server.stdout.readline()
            if "ready" in line or not line:
                break
        if "ready" not in line:
            raise RuntimeError(f"boardgame.io did not start: {line}")
        load = subprocess.Popen(["node", "load.js", f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}",
                                 str(tables), str(ramp), str(measure)], cwd=BGIO, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        time.sleep(ramp)
        cpu0, own0, t0 = cpu_seconds(server.pid), cpu_seconds(load.pid), time.monotonic()
        time.sleep(measure * 0.95)
        cpu = (cpu_seconds(server.pid) - cpu0) / (time.monotonic() - t0) * 100
        driver = (cpu_seconds(load.pid) - own0) / (time.monotonic() - t0) * 100
        rss = rss_mb(server.pid)
        out, _ = load.communicate(timeout=measure + ramp + 120)
        result = json.loads(out.strip().splitlines()[-1])
    finally:
        server.terminate()
        lags = [json.loads(x)["lag"] for x in (server.communicate(timeout=10)[0] or "").splitlines() if '"lag"' in x]
    # the histogram's 10 ms resolution is part of every sample: what is left is the lag
    recent = lags[-max(1, int(measure / 5)):] if lags else []
    lag = {k: max(0.0, max(x[k] for x in recent) - 10.0) for k in ("p50", "p99", "max")} if recent else {}
    return Level("bgio", tables, result["moves"], result["p50"], result["p99"], lag, cpu, rss, 0, None, driver)


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

    def remove(self) -> None:
        """Stop and delete the cluster."""
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", self.data, "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


# ----- main ------------------------------------------------------------------------------


def main() -> None:
    """Run the levels and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="100,300,1000", help="comma-separated numbers of tables")
    parser.add_argument("--ramp", type=float, default=15.0, help="seconds to open the tables")
    parser.add_argument("--measure", type=float, default=20.0, help="seconds measured after the ramp")
    parser.add_argument("--postgres", action="store_true", help="boneyard on a throwaway PostgreSQL")
    parser.add_argument("--processes", type=int, default=1, help="boneyard processes (PostgreSQL only)")
    parser.add_argument("--no-bgio", action="store_true", help="skip boardgame.io")
    args = parser.parse_args()
    counts = [int(x) for x in args.tables.split(",")]
    if args.processes > 1 and not args.postgres:
        raise SystemExit("--processes above 1 needs --postgres")
    pg = Postgres() if args.postgres else None
    tmp = tempfile.mkdtemp(prefix="boneyard-bench-")
    bgio = not args.no_bgio and ensure_bgio()
    print(f"{os.cpu_count()} cores (shared with the load generators); {args.ramp:.0f} s ramp, "
          f"{args.measure:.0f} s measured per level; latencies in ms")
    print(f"{'system':9} {'tables':>6} {'posts':>6} {'p50':>7} {'p99':>7}   {'lag50':>6} {'lag99':>6} "
          f"{'lagmax':>7}  {'cpu':>5} {'rss MB':>7}  {'driver':>6}")
    levels: list[Level] = []
    try:
        for n in counts:
            print(f"# load average before {n} tables: {os.getloadavg()[0]:.1f}", flush=True)
            db = pg.url if pg else f"sqlite:///{tmp}/load-{n}.db"
            level = run_boneyard(n, args.ramp, args.measure, db, args.processes)
            print(level.line(), flush=True)
            levels.append(level)
            if bgio:
                level = run_bgio(n, args.ramp, args.measure)
                print(level.line(), flush=True)
                levels.append(level)
    finally:
        if pg:
            pg.remove()
        shutil.rmtree(tmp, ignore_errors=True)
    best: dict[str, int] = {}
    for level in levels:
        if level.sustained:
            best[level.system] = max(best.get(level.system, 0), level.tables)
    for system in dict.fromkeys(lv.system for lv in levels):
        print(f"{system}: sustains {best.get(system, 0)} of the tables tried with human p99 < {TARGET_MS:.0f} ms")
    ours = next((s for s in best if s.startswith("boneyard")), None)
    if bgio and ours and best.get("bgio"):
        ratio = best[ours] / best["bgio"]
        capped = " (boneyard sustained the largest level tried: a lower bound)" if best[ours] == max(counts) else ""
        print(f"ratio boneyard/boardgame.io: {ratio:.2f}{capped}")


if __name__ == "__main__":
    main()
