"""`pdfdesk index PATH...`: add files and folders to the library and index them now, with progress.

The documents go through the indexing owner like everyone else's; this command only waits for
its own documents (a document another process is building is waited for, not built twice) and
says, in one line, why a document has no vectors when no embedding model is available here.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence

from pdfdesk.core.paths import (
    app_data_dir,
    storage_error,
    storage_problem,
    unwritable_reason,
)
from pdfdesk.index import embedding
from pdfdesk.index.library import FAILED, Library, build_library_index, hand_to_owner, sync_index
from pdfdesk.index.owner import KEYWORD, RECOGNITION, default_owner, stage_needed
from pdfdesk.index.queue import INTERACTIVE
from pdfdesk.index.recognition import RecognitionLedger, ocr_wanted, recognition_note


class _Bar:
    """One line per document and stage, redrawn in place; the rate counts from the first report."""

    def __init__(self) -> None:
        self.first: dict[tuple[str, str], tuple[float, int]] = {}

    def __call__(self, name: str, stage: str, done: int, total: int) -> None:
        started, base = self.first.setdefault((name, stage), (time.monotonic(), done))
        width = 30
        filled = int(width * done / max(total, 1))
        elapsed = time.monotonic() - started
        rate = f" {(done - base) / elapsed:,.0f} p/s" if elapsed > 0.2 and done > base else ""
        label = {KEYWORD: "pages", RECOGNITION: "pages recognised"}.get(stage, "pages embedded")
        sys.stderr.write(f"\r{name[:34]:34} {stage[:7]:7} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                         f"{label}{rate}\033[K")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


class _LibraryBar:
    """One line for the library index, redrawn in place: pages of the whole run and the rate."""

    def __init__(self) -> None:
        self.started = time.monotonic()

    def __call__(self, name: str, done: int, total: int) -> None:
        elapsed = time.monotonic() - self.started
        rate = f" {done / elapsed:,.0f} p/s" if elapsed > 0.2 else ""
        sys.stderr.write(f"\rlibrary index [{name[:34]:34}] {done:,}/{total:,} pages{rate}\033[K")
        sys.stderr.flush()


def _library_bar(done: int, total: int) -> None:
    sys.stderr.write(f"\rlibrary index: {done}/{total} documents added\033[K")
    sys.stderr.flush()


def _cannot_write(problem: str) -> int:
    error = storage_error(app_data_dir(), problem, "build search indices")
    sys.stderr.write(f"{error.message}\n  hint: {error.hint}\n")
    return 1


def index_paths(paths: list[str]) -> int:
    """Index each PDF (keyword stage, then vectors); 0 when all succeeded, 1 when any failed or
    the data folder cannot take the indices (read-only, full: said in one line, no traceback)."""
    problem = unwritable_reason(app_data_dir())
    if problem is not None:
        return _cannot_write(problem)
    try:
        return _index_paths(paths)
    except OSError as exc:
        problem = storage_problem(exc)
        if problem is None:
            raise
        return _cannot_write(problem)


def _index_paths(paths: list[str]) -> int:
    library = Library()
    added = library.add(paths)
    if not added:
        sys.stderr.write("pdfdesk index: no PDF files found\n")
        return 1
    started = time.monotonic()
    owner = default_owner()
    handed = library.register()
    if handed:  # every document's pages into the library index first: library search works from here on
        built = build_library_index(handed, library, progress=_LibraryBar())
        sys.stderr.write(f"\rlibrary index: {built.documents} document{'s' * (built.documents != 1)}, "
                         f"{built.pages:,} pages in {time.monotonic() - started:.1f} s\033[K\n")
        hand_to_owner(handed, owner.queue)
    wanted = {entry.fingerprint for entry in handed if entry.fingerprint}
    for entry in library.entries():  # indexed before, but without vectors a model could make now
        if entry.path in {e.path for e in added} and entry.fingerprint and entry.fingerprint not in wanted \
                and stage_needed(entry.fingerprint) is not None:
            owner.queue.add(entry.fingerprint, entry.path, entry.name)
            wanted.add(entry.fingerprint)
    outcomes = owner.drain(only=wanted, progress=_Bar(), wait=True) if wanted else []
    if owner.storage_problem is not None:  # a disk that filled up during the build
        return _cannot_write(owner.storage_problem)
    library.settle(owner.queue)
    synced = sync_index(progress=_library_bar, library=library)
    if synced.added:
        sys.stderr.write("\n")
    failures = indexed = 0
    paths_wanted = {entry.path for entry in added}
    for entry in library.entries():
        if entry.path not in paths_wanted:
            continue
        if entry.status == FAILED:
            failures += 1
            sys.stderr.write(f"{entry.path}: {entry.error}\n")
        else:
            indexed += 1
    sys.stderr.write(f"{indexed} document{'s' * (indexed != 1)} indexed in {time.monotonic() - started:.1f} s"
                     + (f", {failures} failed" if failures else "") + "\n")
    note = recognition_note()
    if note and any(o.stage == RECOGNITION or scanned_waiting(o.fingerprint) for o in outcomes):
        sys.stderr.write(note + ".\n")
    available, reason = embedding.model_status()
    if not available:
        sys.stderr.write(f"No vectors (keyword search only): {reason}.\n")
    elif any(o.result == "no_model" for o in outcomes):
        sys.stderr.write(f"No vectors: {next(o.message for o in outcomes if o.result == 'no_model')}.\n")
    return 1 if failures else 0


def scanned_waiting(fingerprint: str) -> bool:
    """Whether the document has scanned pages no recognition has read (whether or not it can run)."""
    try:
        return bool(RecognitionLedger().pages(fingerprint).waiting)
    except OSError:
        return False


def recognise_before_answering(paths: Sequence[str]) -> None:
    """`pdfdesk ask` about a scanned PDF: its scanned pages are indexed and recognised first, in
    the foreground with a progress line, so the answer can quote them (the window and the MCP
    server answer at once and recognise in the background; a terminal command has no later)."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.core.errors import PdfDeskError
    from pdfdesk.core.text import survey_text_layer
    from pdfdesk.index.builder import Target

    if not ocr_wanted():
        return
    owner = default_owner()
    wanted: set[str] = set()
    for path in paths:
        if not os.path.isfile(path):  # a URL or a missing file: the answer reports it
            continue
        try:
            with open_pdf(path) as opened:
                target = Target(opened.source, None, opened.fingerprint)
                scanned = survey_text_layer(opened.doc).scanned
        except PdfDeskError:
            continue
        if scanned and stage_needed(target.fingerprint) in (KEYWORD, RECOGNITION):
            owner.submit(target, INTERACTIVE)
            wanted.add(target.fingerprint)
    if wanted:
        try:
            owner.drain(only=wanted, progress=_Bar(), wait=True)
        except OSError:  # a data folder that cannot take it: the answer searches what there is
            pass
