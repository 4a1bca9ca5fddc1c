"""`pdfdesk index PATH...`: add files and folders to the library and index them, with progress."""

from __future__ import annotations

import sys
import time

from pdfdesk.index.library import FAILED, Library


class _Bar:
    def __init__(self) -> None:
        self.started: dict[str, float] = {}

    def __call__(self, name: str, done: int, total: int) -> None:
        started = self.started.setdefault(name, time.monotonic())
        width = 30
        filled = int(width * done / max(total, 1))
        rate = done / max(time.monotonic() - started, 1e-6)
        sys.stderr.write(f"\r{name[:40]:40} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} pages "
                         f"{rate:,.0f} p/s")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def index_paths(paths: list[str]) -> int:
    """Index each PDF; 0 when all succeeded, 1 when any failed (each failure is reported)."""
    library = Library()
    added = library.add(paths)
    if not added:
        sys.stderr.write("pdfdesk index: no PDF files found\n")
        return 1
    started = time.monotonic()
    library.process(progress=_Bar())
    wanted = {entry.path for entry in added}
    failures = 0
    indexed = 0
    for entry in library.entries():
        if entry.path not in wanted:
            continue
        if entry.status == FAILED:
            failures += 1
            sys.stderr.write(f"{entry.path}: {entry.error}\n")
        else:
            indexed += 1
    sys.stderr.write(f"{indexed} document{'s' * (indexed != 1)} indexed in {time.monotonic() - started:.1f} s"
                     + (f", {failures} failed" if failures else "") + "\n")
    return 1 if failures else 0
