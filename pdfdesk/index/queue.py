"""The indexing queue: which documents still need their index built, kept in the app data folder.

Every front end (the window, the library, `pdfdesk index`, the CLI's tool calls, the MCP server)
hands documents here instead of building them itself; the owner (`pdfdesk.index.owner`) works
through it. One small JSON file per document, written atomically, so the queue survives a crash
or a kill at any moment, two processes can add to it at once, and a document added twice is one
job. A job names the document by its resolved local path and the content fingerprint seen when it
was added: a file that changed since is skipped (its new version is queued by whoever opens it).

Documents that cannot be reopened from a path alone (a downloaded URL held in memory, an
encrypted file whose password only the user's session knows) are not written here: the owner of
the process that has them keeps them in memory (`IndexOwner.submit`).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pdfdesk.core import paths
from pdfdesk.core.atomic import write_json_atomically

QUEUE_DIR = "index-queue"
MAX_ATTEMPTS = 3            # a document whose build keeps failing is parked, not retried forever
INTERACTIVE, LIBRARY = 0, 1  # documents open in the window come before the library's backlog


@dataclass
class Job:
    """A document waiting for its index (keyword stage, then vectors)."""

    fingerprint: str
    path: str
    name: str
    priority: int = LIBRARY
    enqueued: float = field(default_factory=time.time)
    attempts: int = 0
    error: str | None = None    # why the last attempt failed
    failed: bool = False        # parked after MAX_ATTEMPTS failures

    @property
    def order(self) -> tuple[int, float]:
        return (self.priority, self.enqueued)


def queue_dir() -> Path:
    """The queue's folder, created when the disk allows (adding a job reports it when not)."""
    return paths.ensure_dir(paths.app_data_dir() / QUEUE_DIR)


def _job_file(folder: Path, fingerprint: str) -> Path:
    return folder / f"{fingerprint}.json"


def _forget(path: Path) -> None:
    """Delete a job file. On a read-only data folder it stays; whoever reads it next finds the
    document complete (or the file damaged) again, so nothing is lost by leaving it."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def _read_job(path: Path) -> Job | None:
    try:
        return Job(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


class IndexQueue:
    """The shared, restart-safe list of documents to index."""

    def __init__(self, folder: Path | None = None) -> None:
        self._folder = folder

    @property
    def folder(self) -> Path:
        """The given folder, else the app data folder's queue as PDFDESK_HOME says now."""
        return self._folder or queue_dir()

    def add(self, fingerprint: str, path: str, name: str, priority: int = LIBRARY) -> Job:
        """Queue a document (once); a second add can only raise its priority or revive a parked job
        (the user asked again, so it gets another round of attempts)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = _job_file(self.folder, fingerprint)
        job = _read_job(target)
        if job is None or job.path != path:
            job = Job(fingerprint, path, name, priority)
        elif job.priority <= priority and not job.failed:
            return job
        else:
            job.priority = min(job.priority, priority)
            if job.failed:
                job.failed, job.attempts = False, 0
        write_json_atomically(target, asdict(job))
        return job

    def jobs(self, include_failed: bool = False) -> list[Job]:
        """Waiting jobs, in the order they should run (a damaged job file is dropped)."""
        found = []
        try:
            names = os.listdir(self.folder)
        except OSError:
            return []
        for name in names:
            if not name.endswith(".json") or name.startswith("."):
                continue
            path = self.folder / name
            job = _read_job(path)
            if job is None:
                _forget(path)
                continue
            if include_failed or not job.failed:
                found.append(job)
        return sorted(found, key=lambda j: j.order)

    def get(self, fingerprint: str) -> Job | None:
        return _read_job(_job_file(self.folder, fingerprint))

    def done(self, fingerprint: str) -> None:
        """The document's index is complete (or the document is gone): forget the job."""
        _forget(_job_file(self.folder, fingerprint))

    def failed(self, fingerprint: str, error: str) -> Job | None:
        """Record a failed attempt; after MAX_ATTEMPTS the job is parked with its reason."""
        job = self.get(fingerprint)
        if job is None:
            return None
        job.attempts += 1
        job.error = error
        job.failed = job.attempts >= MAX_ATTEMPTS
        write_json_atomically(_job_file(self.folder, fingerprint), asdict(job))
        return job
