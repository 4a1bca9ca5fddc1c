"""A notes database that SQLite calls damaged is moved aside, never deleted, and what can still be
read from it is carried over, so one bad sector or a stray overwrite costs as little as possible
and the user is told what happened.

Only SQLite's own verdicts count as damage (SQLITE_CORRUPT, SQLITE_NOTADB, a failed quick_check);
a locked, read-only or missing file is somebody else's problem and is left alone.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from pdfdesk.core.locks import file_lock

LOG = logging.getLogger("pdfdesk.review")
DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
SIDE_FILES = ("-wal", "-shm")


@dataclass(frozen=True)
class Recovery:
    """The fact a caller shows: the damaged file was kept at `moved_to`; `salvaged` notes came back."""

    moved_to: Path
    salvaged: int
    reason: str

    def message(self) -> str:
        kept = f"{self.salvaged} note(s) could be read back" if self.salvaged else "no notes could be read back"
        return (f"The notes database was damaged ({self.reason}); it was moved aside to {self.moved_to} "
                f"and a new one started ({kept}).")


def is_damage(exc: BaseException) -> bool:
    """Whether SQLite says the file itself is broken (not busy, not read-only)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.DatabaseError) and code is not None and (code & 0xFF) in DAMAGE_CODES


def damage(path: Path) -> str | None:
    """Why the database at `path` is damaged, or None when it is sound or absent. Other errors
    (locked, unreadable folder) propagate: they are not damage."""
    if not path.exists():
        return None
    try:
        conn = sqlite3.connect(path, timeout=10, isolation_level=None)
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            return str(exc)
        raise
    try:
        rows = conn.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            return str(exc)
        raise
    finally:
        conn.close()
    verdict = "; ".join(str(row[0]) for row in rows)
    return None if verdict == "ok" else verdict[:300]


def salvage(path: Path, columns: str) -> list[tuple]:
    """Every row of the damaged file's notes table that can still be read, by a full scan (the
    indices may be the broken part); stops quietly at the first unreadable page."""
    rows: list[tuple] = []
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error:
        return rows
    try:
        rows.extend(tuple(row) for row in conn.execute(f"SELECT {columns} FROM annotations NOT INDEXED"))
    except sqlite3.Error:
        pass
    finally:
        conn.close()
    return rows


@contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold a lock file beside the database so two processes never both move it aside. Waits for
    the other process rather than skipping: the caller re-checks the damage once it holds the lock."""
    with ExitStack() as stack:
        try:
            stack.enter_context(file_lock(path.with_name(path.name + ".lock"), wait=True))
        except OSError:  # a read-only folder: the rename below reports the real problem
            pass
        yield


def recover_if_damaged(path: Path, columns: str) -> tuple[Recovery | None, list[tuple]]:
    """Move a damaged database (and its WAL files) aside to `<name>.corrupt-<time>`; return the
    fact and the rows read back from it, for the caller to insert into the fresh database."""
    if damage(path) is None:
        return None, []
    with _exclusive(path):
        reason = damage(path)  # another process may have recovered it meanwhile
        if reason is None:
            return None, []
        rows = salvage(path, columns)
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + f"-{os.getpid()}"
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        os.replace(path, target)
        for side in SIDE_FILES:
            extra = path.with_name(path.name + side)
            if extra.exists():
                os.replace(extra, target.with_name(target.name + side))
    recovery = Recovery(target, len(rows), reason)
    LOG.warning("%s", recovery.message())
    return recovery, rows
