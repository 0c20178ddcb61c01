"""A throwaway PostgreSQL cluster that a test can stop and start again (Debian's binaries)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from glob import glob
from pathlib import Path

import pytest

from .conftest import free_port


class PgCluster:
    """``initdb`` in a temporary directory, served on a free 127.0.0.1 port with ``pg_ctl``."""

    def __init__(self) -> None:
        pytest.importorskip("psycopg", reason="psycopg is not installed")
        initdb = shutil.which("initdb") or next(iter(sorted(glob("/usr/lib/postgresql/*/bin/initdb"))), None)
        if initdb is None:
            pytest.skip("PostgreSQL is not installed (make postgres: apt-get install postgresql)")
        self.bindir = Path(initdb).resolve().parent
        self.as_user: list[str] = []
        self.dir = tempfile.mkdtemp(prefix="boneyard-pg-")
        if os.geteuid() == 0:
            runuser = shutil.which("runuser")
            if runuser is None or subprocess.run(["id", "postgres"], capture_output=True).returncode != 0:
                pytest.skip("running as root without a 'postgres' user to run PostgreSQL as")
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_user = [runuser, "-u", "postgres", "--"]
        self.port = free_port()
        self.data = os.path.join(self.dir, "data")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        subprocess.run([*self.as_user, str(self.bindir / "initdb"), "-D", self.data, "-A", "trust", "-U", "postgres"],
                       check=True, capture_output=True)

    def start(self) -> None:
        """Start (or restart) the server and wait until it accepts connections."""
        subprocess.run([*self.as_user, str(self.bindir / "pg_ctl"), "-D", self.data, "-w", "-l",
                        os.path.join(self.dir, "log"), "-o",
                        f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                       check=True, capture_output=True)

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: every connection is cut."""
        subprocess.run([*self.as_user, str(self.bindir / "pg_ctl"), "-D", self.data, "-m", mode, "-w", "stop"],
                       capture_output=True)

    def remove(self) -> None:
        """Stop and delete the cluster."""
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)
