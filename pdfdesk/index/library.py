"""The library: documents the user added, and a restart-safe queue that indexes them.

`<app data>/library.json` lists every document with its size, mtime, fingerprint and status.
Adding marks new or changed files `queued`; `process()` marks a file `indexing` before it starts
and `indexed` when done, saving after each step, so a restart resumes the interrupted file (its
index resumes at the last committed batch) and skips files that did not change since (same size
and mtime, index complete: no hashing). The file is guarded by an OS lock, so the GUI and the MCP
server can share one library.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pdfdesk.core import paths
from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.store import DocumentIndex

LIBRARY_FILE = "library.json"
QUEUED, INDEXING, INDEXED, FAILED = "queued", "indexing", "indexed", "failed"
FileProgress = Callable[[str, int, int], None]  # (file name, pages done, pages total)


@dataclass
class LibraryEntry:
    path: str
    name: str
    size: int = 0
    mtime_ns: int = 0
    fingerprint: str | None = None
    status: str = QUEUED
    error: str | None = None
    pages: int = 0
    added: float = field(default_factory=time.time)


def expand_pdf_paths(items: list[str]) -> list[Path]:
    """Files as given; folders walked recursively for *.pdf (any case), sorted."""
    found: list[Path] = []
    for raw in items:
        path = Path(raw).expanduser()
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file()))
        else:
            found.append(path)
    return [Path(os.path.abspath(p)) for p in found]


_thread_lock = threading.RLock()


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock shared by threads and processes (fcntl; a thread lock where absent)."""
    with _thread_lock:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a+b") as handle:
            try:
                import fcntl
            except ImportError:  # Windows: threads are still serialised
                yield
                return
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class Library:
    def __init__(self, folder: Path | None = None) -> None:
        self.file = (folder or paths.app_data_dir()) / LIBRARY_FILE
        self.lock_file = self.file.with_suffix(".lock")

    # -- storage -----------------------------------------------------------------------------
    def _read(self) -> dict[str, LibraryEntry]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
            return {item["path"]: LibraryEntry(**item) for item in data.get("documents", [])}
        except FileNotFoundError:
            return {}
        except (ValueError, TypeError, KeyError):  # unreadable: keep it aside, start afresh
            self.file.replace(self.file.with_suffix(f".corrupt-{int(time.time())}.json"))
            return {}

    def _write(self, entries: dict[str, LibraryEntry]) -> None:
        temp = self.file.with_name(f".{self.file.name}.{os.getpid()}.tmp")
        temp.write_text(json.dumps({"documents": [asdict(e) for e in entries.values()]}, indent=1), encoding="utf-8")
        os.replace(temp, self.file)

    @contextmanager
    def _editing(self) -> Iterator[dict[str, LibraryEntry]]:
        with _file_lock(self.lock_file):
            entries = self._read()
            yield entries
            self._write(entries)

    # -- queries -----------------------------------------------------------------------------
    def entries(self) -> list[LibraryEntry]:
        with _file_lock(self.lock_file):
            return list(self._read().values())

    def pending(self) -> list[LibraryEntry]:
        return [e for e in self.entries() if e.status in (QUEUED, INDEXING)]

    # -- changes -----------------------------------------------------------------------------
    def add(self, items: list[str]) -> list[LibraryEntry]:
        """Add files and folders; new or changed files are queued, unchanged ones left as they are."""
        added = []
        with self._editing() as entries:
            for path in expand_pdf_paths(items):
                key = str(path)
                try:
                    info = path.stat()
                except OSError as exc:
                    entry = entries.get(key) or LibraryEntry(key, path.name)
                    entry.status, entry.error = FAILED, f"file_not_found: {exc.strerror}"
                    entries[key] = entry
                    added.append(entry)
                    continue
                entry = entries.get(key)
                if entry is None or (entry.size, entry.mtime_ns) != (info.st_size, info.st_mtime_ns) \
                        or entry.status == FAILED:
                    entry = LibraryEntry(key, path.name, info.st_size, info.st_mtime_ns)
                    entries[key] = entry
                added.append(entry)
        return added

    def remove(self, path: str) -> bool:
        with self._editing() as entries:
            return entries.pop(str(Path(os.path.abspath(Path(path).expanduser()))), None) is not None

    def _update(self, key: str, **changes: object) -> None:
        with self._editing() as entries:
            entry = entries.get(key)
            if entry is not None:
                for name, value in changes.items():
                    setattr(entry, name, value)

    def _unchanged_and_indexed(self, entry: LibraryEntry) -> bool:
        try:
            info = Path(entry.path).stat()
        except OSError:
            return False
        if (info.st_size, info.st_mtime_ns) != (entry.size, entry.mtime_ns) or not entry.fingerprint:
            return False
        state = DocumentIndex(entry.fingerprint).read_state()
        return state is not None and state.complete

    def process(self, progress: FileProgress | None = None, cancel: threading.Event | None = None) -> list[LibraryEntry]:
        """Index every queued or interrupted document; returns the entries as they ended."""
        done = []
        for entry in self.pending():
            if cancel is not None and cancel.is_set():
                break
            if self._unchanged_and_indexed(entry):
                self._update(entry.path, status=INDEXED, error=None)
                continue
            self._update(entry.path, status=INDEXING)
            try:
                with open_pdf(entry.path) as opened:
                    target = Target(opened.source, None, opened.fingerprint)
                    info = Path(entry.path).stat()
                    pages = opened.page_count
                self._update(entry.path, fingerprint=target.fingerprint, pages=pages,
                             size=info.st_size, mtime_ns=info.st_mtime_ns)
                state = build_index(target, progress=(lambda d, t, n=entry.name: progress(n, d, t)) if progress else None,
                                    cancel=cancel, wait=True)  # another process's build of it is waited for
                finished = state.complete
                self._update(entry.path, status=INDEXED if finished else INDEXING, error=None)
            except PdfDeskError as exc:
                self._update(entry.path, status=FAILED, error=f"{exc.code}: {exc.message}")
            done.append(entry)
        return done
