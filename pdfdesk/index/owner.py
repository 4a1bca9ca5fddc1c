"""The one indexing owner: works through the shared queue, a stage at a time, in child processes.

Front ends never build an index themselves; they hand documents to `request_indexing` (or to a
running owner's `submit`) and carry on. One process at a time per app data folder runs the queue
— the window or the MCP server while they are open, otherwise a short-lived background
`pdfdesk index --drain` that a one-shot command starts and that exits when the queue is empty.
`pdfdesk index` works through its own documents in the foreground (a document another process is
building is waited for, never built twice: each build holds the document's build lock).

Each document goes through up to three stages: keyword (page text, page and section indices),
recognition of its scanned pages (OCR), then vectors. Every document's keyword stage comes before
any other stage, then vectors (of documents with nothing to recognise), then recognition; the
last two run at the lowest CPU and I/O priority. Both run in a child process (`core.childproc`): the
parent keeps its interpreter to itself (the window's UI thread), a hostile PDF that hangs or
crashes MuPDF costs only that child, and a killed child leaves its last committed batch usable.
When no embedding model is available locally the vector stage is skipped at once, with the reason
recorded; a later search after the model arrives queues the document again.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pdfdesk.core import childproc, paths
from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import FILE_NOT_FOUND, PERMISSION_DENIED, PdfDeskError
from pdfdesk.core.ocr_languages import OcrUnavailable
from pdfdesk.index import embedding
from pdfdesk.index.builder import Target, build_index, build_vectors, vectors_pending
from pdfdesk.index.locks import file_lock
from pdfdesk.index.queue import INTERACTIVE, LIBRARY, IndexQueue, Job, queue_dir
from pdfdesk.index.recognition import RecognitionLedger, build_recognition, recognition_pending
from pdfdesk.index.semantic import SEMANTIC_DIR
from pdfdesk.index.store import PAGES, SECTIONS, DocumentIndex, IndexState

log = logging.getLogger(__name__)

KEYWORD, VECTORS, RECOGNITION = "keyword", "vectors", "ocr"
# Cheap work first: every keyword stage, then vectors, then recognition (seconds a page); a
# scanned document's vectors wait for its recognition, which would make them again.
STAGE_ORDER = {KEYWORD: 0, VECTORS: 1, RECOGNITION: 2}
# Recognition goes in turns of about this long: a document opened meanwhile gets its keyword stage
# (seconds) and its own recognition before a long scan from the library carries on.
RECOGNITION_TURN_S = 45.0
RUNNER_LOCK = ".runner.lock"
IDLE_POLL_S = 1.0
STORAGE_RETRY_S = 30.0  # a read-only or full data folder is looked at again this often, not every second
BACKGROUND_ENV = "PDFDESK_BACKGROUND_INDEXING"  # "0": one-shot commands start no background owner
# Address-space caps (what the OS can enforce): generous, since every thread reserves address
# space; they stop a runaway page or model from taking the machine, not honest work.
MEMORY_CAP_MB = {KEYWORD: 2048, VECTORS: 4096, RECOGNITION: 2048}  # Tesseract's processes have caps of their own
StageProgress = Callable[[str, str, int, int], None]  # (document name, stage, pages done, pages total)


def stage_needed(fingerprint: str) -> str | None:
    """What a document's index still lacks: KEYWORD, RECOGNITION, VECTORS, or None when it is
    complete (recognition and vectors only count when Tesseract or a model can run here and now)."""
    index = DocumentIndex(fingerprint)
    state = index.read_state()
    damage = index.damage()
    if state is None or not state.complete or damage in (PAGES, SECTIONS):
        return KEYWORD
    if recognition_pending(fingerprint):
        return RECOGNITION
    if (vectors_pending(state) or damage == SEMANTIC_DIR) and embedding.model_status()[0]:
        return VECTORS
    return None


def _deadline(stage: str, pages: int) -> float:
    """Generous for honest documents (a 2,500-page book takes well under a minute a stage), yet a
    file that keeps MuPDF busy forever is stopped."""
    if stage == RECOGNITION:  # each page is bounded on its own (ocr.PAGE_DEADLINE_S); this stops a hang
        return 300.0 + 60.0 * pages
    return (120.0 + 1.0 * pages) if stage == KEYWORD else (300.0 + 2.0 * pages)


def _open_target(job: Job) -> Target | None:
    """The job's document as it is on disk now; None when it changed since it was queued."""
    with open_pdf(job.path) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    return target if target.fingerprint == job.fingerprint else None


def _stage_child(send: Callable[[Any], None], job: Job | None, target: Target | None, stage: str,
                 wait: bool, turn_s: float | None = None) -> dict[str, Any]:
    """In the child: reopen the document, run one stage, and say how it ended. A write the disk
    refuses (read-only, full) becomes a coded error naming the data folder, not a pdf_error."""
    try:
        return _run_stage(send, job, target, stage, wait, turn_s)
    except OSError as exc:
        problem = paths.storage_problem(exc)
        if problem is None:
            raise
        raise paths.storage_error(paths.app_data_dir(), problem, "build the search index") from None


def _run_stage(send: Callable[[Any], None], job: Job | None, target: Target | None, stage: str,
               wait: bool, turn_s: float | None) -> dict[str, Any]:
    if target is None:
        assert job is not None
        target = _open_target(job)
        if target is None:
            return {"outcome": "changed"}

    def progress(done: int, total: int) -> None:
        send(("progress", done, total))

    if stage == KEYWORD:
        state: IndexState | None = build_index(target, progress=progress, wait=wait)
        finished = state is not None and state.complete
    elif stage == RECOGNITION:
        try:
            build_recognition(target, progress=progress, wait=wait, budget_s=turn_s)
        except OcrUnavailable as exc:
            return {"outcome": "no_ocr", "reason": str(exc)}
        if RecognitionLedger().waiting(target.fingerprint):
            return {"outcome": "partial"}  # its turn is over; the queue comes back to it
        finished = True
    else:
        try:
            state = build_vectors(target, progress=progress, wait=wait)
        except embedding.EmbeddingUnavailable as exc:
            return {"outcome": "no_model", "reason": str(exc)}
        finished = state is not None and state.semantic_complete
    return {"outcome": "done" if finished else "busy"}


@dataclass
class Outcome:
    """How one document's turn ended, for front ends to show."""

    fingerprint: str
    name: str
    stage: str
    result: str            # done, partial (its turn ended first), busy (another process builds it), changed,
    #                        gone, failed, no_model, no_ocr, cancelled
    message: str = ""


class IndexOwner:
    """Runs the queue: one stage of one document at a time, in a child process."""

    def __init__(self, queue: IndexQueue | None = None, recognition_turn_s: float = RECOGNITION_TURN_S) -> None:
        self.queue = queue or IndexQueue()
        self.recognition_turn_s = recognition_turn_s
        self._private: dict[str, tuple[Target, int]] = {}  # documents only this process can reopen
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.outcomes: dict[str, Outcome] = {}       # the latest outcome per document
        self.vectors_skipped: str | None = None      # why the last vector stage was skipped
        self.recognition_skipped: str | None = None  # why the last recognition stage could not run
        self.current: tuple[str, str] | None = None  # (fingerprint, stage) being built now
        self.storage_problem: str | None = None      # why the data folder cannot be written, if it cannot

    # -- handing documents over ---------------------------------------------------------------
    def submit(self, target: Target, priority: int = INTERACTIVE) -> None:
        """Queue a document; one with a password or held only in memory stays in this process."""
        if target.password or target.source.path is None:
            with self._lock:
                self._private[target.fingerprint] = (target, priority)
        else:
            self.queue.add(target.fingerprint, str(target.source.path), target.source.name, priority)

    # -- running in the background ------------------------------------------------------------
    def start(self) -> None:
        """Run the queue in a thread for as long as this process lives (the window, the MCP server)."""
        global _serving
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="pdfdesk-index-owner", daemon=True)
        self._thread.start()
        _serving = self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after killing the running stage's child (its committed batches stay usable)."""
        global _serving
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if _serving is self:
            _serving = None

    def _serve(self) -> None:
        reported: str | None = None
        while not self._stop.is_set():
            self.storage_problem = None
            try:
                with self.runner_lock() as held:
                    while held and not self._stop.is_set() and self.storage_problem is None:
                        self.drain(cancel=self._stop)
                        self._stop.wait(IDLE_POLL_S)  # documents handed over meanwhile are picked up next
            except OSError as exc:  # the thread lives on: searches answer from the pages meanwhile
                self.storage_problem = paths.write_failure(exc)
            if self.storage_problem is not None:
                if self.storage_problem != reported:  # once, not every STORAGE_RETRY_S
                    log.warning("indexing paused: the data folder %s cannot be written (%s)", paths.app_data_dir(),
                                self.storage_problem)
                reported = self.storage_problem
                self._stop.wait(STORAGE_RETRY_S)
                continue
            reported = None
            self._stop.wait(IDLE_POLL_S * 3)  # another process runs the queue; take over if it ends

    @contextmanager
    def runner_lock(self) -> Iterator[bool]:
        with file_lock(self.queue.folder / RUNNER_LOCK) as held:
            yield held

    # -- the work -----------------------------------------------------------------------------
    def _next(self, only: set[str] | None, skip: set[str]) -> tuple[Job | None, Target | None, str] | None:
        """The next (job, private target, stage): every keyword stage first (and the recognition
        of documents open in the window), then vectors, then recognition (STAGE_ORDER), each in
        the queue's order."""
        candidates: list[tuple[int, float, Job | None, Target | None]] = [
            (job.priority, job.enqueued, job, None) for job in self.queue.jobs()]
        with self._lock:
            candidates.extend((priority, 0.0, None, target) for target, priority in self._private.values())
        later: tuple[Job | None, Target | None, str] | None = None
        later_rank = len(STAGE_ORDER)
        for priority, _when, job, target in sorted(candidates, key=lambda c: (c[0], c[1])):
            fingerprint = job.fingerprint if job is not None else target.fingerprint  # type: ignore[union-attr]
            if fingerprint in skip or (only is not None and fingerprint not in only):
                continue
            stage = stage_needed(fingerprint)
            if stage is None:
                self._finish(job, target)
                continue
            # a scan open in the window is read before the library's backlog: its reader waits for it
            rank = 0 if stage == RECOGNITION and priority == INTERACTIVE else STAGE_ORDER[stage]
            if rank == 0:
                return job, target, stage
            if rank < later_rank:
                later, later_rank = (job, target, stage), rank
        if later is None:
            self._note_vectors_skipped()
        return later

    def _note_vectors_skipped(self) -> None:
        available, reason = embedding.model_status()
        self.vectors_skipped = None if available else reason

    def _finish(self, job: Job | None, target: Target | None) -> None:
        if job is not None:
            self.queue.done(job.fingerprint)
        elif target is not None:
            with self._lock:
                self._private.pop(target.fingerprint, None)

    def drain(self, only: set[str] | None = None, progress: StageProgress | None = None,
              cancel: threading.Event | None = None, wait: bool = False, once: bool = False) -> list[Outcome]:
        """Run stages until nothing (of `only`) is left, `cancel` is set, or after one stage with
        `once`, or at the first stage the data folder cannot take (`storage_problem` says why).
        Documents another process is building are skipped, or waited for with `wait`."""
        outcomes: list[Outcome] = []
        skip: set[str] = set()
        self.storage_problem = None
        while not (cancel is not None and cancel.is_set()):
            picked = self._next(only, skip)
            if picked is None:
                break
            job, target, stage = picked
            outcome = self._run(job, target, stage, progress, cancel, wait)
            outcomes.append(outcome)
            self.outcomes[outcome.fingerprint] = outcome
            if outcome.result in ("busy", "failed", "cancelled", "no_model", "no_ocr"):
                skip.add(outcome.fingerprint)
            if once or self.storage_problem is not None:  # the next document would fail alike
                break
        return outcomes

    def _run(self, job: Job | None, target: Target | None, stage: str, progress: StageProgress | None,
             cancel: threading.Event | None, wait: bool) -> Outcome:
        fingerprint = job.fingerprint if job is not None else target.fingerprint  # type: ignore[union-attr]
        name = job.name if job is not None else target.source.name  # type: ignore[union-attr]
        index = DocumentIndex(fingerprint)
        if not wait:
            try:
                with index.build_lock() as free:  # another process is building it: no child for nothing
                    if not free:
                        return Outcome(fingerprint, name, stage, "busy")
            except OSError as exc:
                problem = paths.write_failure(exc)
                return self._unwritable(fingerprint, name, stage, problem)
        state = index.read_state()
        pages = state.pages_total if state is not None else 1000

        def relay(message: Any) -> None:
            if progress is not None and isinstance(message, tuple) and message[0] == "progress":
                progress(name, stage, message[1], message[2])

        self.current = (fingerprint, stage)
        try:
            result = childproc.run_job(
                _stage_child, (job, target, stage, wait, self.recognition_turn_s), name=f"pdfdesk-index-{stage}",
                priority=childproc.Priority.BACKGROUND if stage == KEYWORD else childproc.Priority.IDLE,
                deadline_s=_deadline(stage, pages), memory_mb=MEMORY_CAP_MB[stage], cancel=cancel, on_message=relay)
        except childproc.JobCancelled:
            return Outcome(fingerprint, name, stage, "cancelled")
        except PdfDeskError as exc:
            if exc.extra.get("storage_problem"):  # the machine's fault: the job waits, uncounted
                return self._unwritable(fingerprint, name, stage, str(exc.extra["storage_problem"]))
            if exc.code in (FILE_NOT_FOUND, PERMISSION_DENIED):
                self._finish(job, target)
                return Outcome(fingerprint, name, stage, "gone", exc.message)
            if job is not None:
                try:
                    self.queue.failed(fingerprint, f"{exc.code}: {exc.message}")
                except OSError:  # not recorded: the next round tries it again
                    pass
            else:
                self._finish(job, target)
            return Outcome(fingerprint, name, stage, "failed", exc.message)
        finally:
            self.current = None
        if result["outcome"] == "changed":
            self._finish(job, target)
            return Outcome(fingerprint, name, stage, "changed", "the file changed since it was queued")
        if result["outcome"] == "no_ocr":
            self.recognition_skipped = result["reason"]
            self._finish(job, target)
            return Outcome(fingerprint, name, stage, "no_ocr", result["reason"])
        if result["outcome"] == "no_model":
            self.vectors_skipped = result["reason"]
            self._finish(job, target)
            return Outcome(fingerprint, name, stage, "no_model", result["reason"])
        if result["outcome"] == "done" and stage_needed(fingerprint) is None:
            self._finish(job, target)
        return Outcome(fingerprint, name, stage, result["outcome"])


    def _unwritable(self, fingerprint: str, name: str, stage: str, problem: str) -> Outcome:
        """A stage the data folder cannot take: reported, and not counted against the document."""
        self.storage_problem = problem
        message = paths.storage_error(paths.app_data_dir(), problem, "build the search index").message
        return Outcome(fingerprint, name, stage, "failed", message)


_serving: IndexOwner | None = None  # this process's running owner, if it has one
_default: IndexOwner | None = None
_default_lock = threading.Lock()


def default_owner() -> IndexOwner:
    """This process's owner (the window and the MCP server start it; others only hand over work)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = IndexOwner()
        return _default


def request_indexing(target: Target, priority: int = LIBRARY) -> str | None:
    """Queue a document and make sure some process will work on it; returns at once. None when
    it is queued, else why it cannot be (a read-only or full data folder): search still answers
    from the pages, and says so."""
    try:
        default_owner().submit(target, priority)
    except OSError as exc:
        return paths.write_failure(exc)
    if _serving is None:
        start_background_owner()
    return None


def start_background_owner() -> bool:
    """Start `pdfdesk index --drain` detached, unless some process already runs the queue (or
    background indexing is turned off); True when one was started."""
    if os.environ.get(BACKGROUND_ENV, "1") == "0":
        return False
    try:
        with file_lock(queue_dir() / RUNNER_LOCK) as free:
            if not free:
                return False
    except OSError:  # no lock file can be made: nor can an index, so no owner is started for nothing
        return False
    return childproc.start_detached_pdfdesk("index", "--drain")


def drain_in_background() -> int:
    """`pdfdesk index --drain`: run the queue until it is empty, then exit (0), unless another
    process already runs it (also 0)."""
    childproc.lower_priority(childproc.Priority.BACKGROUND)
    owner = default_owner()
    try:
        with owner.runner_lock() as held:
            if not held:
                return 0
            # Documents queued while a round ran are picked up by the next; a round in which every
            # document was being built by another process ends the run (that process finishes
            # them), and so does a data folder that cannot take the index.
            while any(outcome.result != "busy" for outcome in owner.drain()) and owner.storage_problem is None:
                time.sleep(0.1)
    except OSError as exc:
        owner.storage_problem = paths.write_failure(exc)
    if owner.storage_problem is not None:
        sys.stderr.write(paths.storage_error(paths.app_data_dir(), owner.storage_problem,
                                             "build the search index").message + "\n")
        return 1
    return 0
