"""A throwaway PostgreSQL cluster for the test session: Debian's server programs, a fresh data
folder, a Unix socket only (no TCP port), trust authentication for the logins tests make.

The server refuses to run as root, so under root (CI) its programs run as the `postgres` user the
Debian package creates, in folders handed to that user. Each test gets a fresh database; the
login roles (alice, bob, carol, ...) are cluster-wide and made once.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

SUPERUSER = "postgres"
REVIEWERS = ("alice", "bob", "carol", "dave", "outsider", "nobody")
_counter = itertools.count(1)


def server_bin() -> Path:
    """The newest installed server's program folder (Debian: /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise RuntimeError("PostgreSQL's server is not installed (Debian: apt-get install postgresql); "
                           "scripts/test.sh installs it")
    return Path(found[-1]).parent


class Cluster:
    """One running server in its own folder; `stop`, `start` and `restart` simulate outages."""

    def __init__(self) -> None:
        self.bin = server_bin()
        self.root = Path(tempfile.mkdtemp(prefix="pdfdesk-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root / "socket"
        self.socket_dir.mkdir()
        self.log = self.root / "server.log"
        self._user: str | None = None
        if os.geteuid() == 0:
            self._user = "postgres"
            shutil.chown(self.root, self._user)
            shutil.chown(self.socket_dir, self._user)
            os.chmod(self.root, 0o755)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync")
        self.start()
        with self.connect() as conn:
            for name in REVIEWERS:
                conn.execute(f"CREATE ROLE {name} LOGIN")

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        subprocess.run(command, check=True, user=self._user, cwd=self.root, timeout=120,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self) -> None:
        options = (f"-k {self.socket_dir} -c listen_addresses='' -c fsync=off -c full_page_writes=off "
                   "-c max_connections=200 -c shared_buffers=64MB")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def restart(self, mode: str = "immediate") -> None:
        """Stop the server (by default as a crash would: no checkpoint, every client cut off) and
        start it again."""
        self.stop(mode)
        self.start()

    def conninfo(self, dbname: str = "postgres", user: str = SUPERUSER) -> str:
        return f"host={self.socket_dir} dbname={dbname} user={user}"

    def connect(self, dbname: str = "postgres", user: str = SUPERUSER) -> psycopg.Connection:
        return psycopg.connect(self.conninfo(dbname, user), autocommit=True)

    def new_database(self) -> str:
        name = f"team_{os.getpid()}_{next(_counter)}"
        with self.connect() as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return name

    def drop_database(self, name: str) -> None:
        deadline = time.monotonic() + 10
        with self.connect() as conn:
            while True:
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
                try:
                    conn.execute(f"DROP DATABASE IF EXISTS {name}")
                    return
                except psycopg.errors.ObjectInUse:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)

    def close(self) -> None:
        try:
            self.stop("immediate")
        except (subprocess.SubprocessError, OSError):
            pass
        shutil.rmtree(self.root, ignore_errors=True)
