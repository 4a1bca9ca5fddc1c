"""Index builds in child processes (the window's builds): complete, failing, and stopped half-way."""

from __future__ import annotations

import time
from pathlib import Path

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.build_process import BuildProcesses
from pdfdesk.index.builder import Target
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool
from tests import pdf_factory as make


def target_of(path: Path) -> Target:
    with open_pdf(str(path)) as opened:
        return Target(opened.source, None, opened.fingerprint)


def wait_until_done(builds: BuildProcesses, fingerprint: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while builds.running(fingerprint):
        assert time.monotonic() < deadline, "the child build did not finish"
        time.sleep(0.05)


def test_child_build_completes_and_is_searchable(outline_pdf):
    builds = BuildProcesses()
    target = target_of(outline_pdf)
    assert builds.start(target)
    assert not builds.start(target)  # one child per document
    wait_until_done(builds, target.fingerprint)
    assert builds.error(target.fingerprint) is None
    state = DocumentIndex(target.fingerprint).read_state()
    assert state is not None and state.pages_complete and state.sections_indexed
    result = call_tool("pdf_search", {"path": str(outline_pdf), "query": "chapter page 7"})
    assert not result.is_error and "pages_scanned" not in result.details  # answered by the index alone
    assert 7 in [m["page"] for m in result.details["matches"]]


def test_child_build_failure_is_reported(tmp_path):
    path = make.text_pdf(tmp_path / "gone.pdf")
    target = target_of(path)
    path.unlink()  # the child cannot read the file any more
    builds = BuildProcesses()
    builds.start(target)
    wait_until_done(builds, target.fingerprint)
    error = builds.error(target.fingerprint)
    assert error and "gone.pdf" in error


def test_stopped_build_leaves_a_usable_index_that_resumes(tmp_path):
    path = make.many_pages_pdf(tmp_path / "long.pdf", 2000)
    target = target_of(path)
    builds = BuildProcesses()
    builds.start(target)
    index = DocumentIndex(target.fingerprint)
    deadline = time.monotonic() + 120
    while not ((state := index.read_state()) and state.pages_indexed > 0):
        assert time.monotonic() < deadline, "no batch was committed"
        time.sleep(0.02)
    builds.stop_all()
    assert not builds.running(target.fingerprint)
    stopped_at = index.read_state().pages_indexed
    assert stopped_at < 2000, "the build finished before it could be stopped; use a longer document"
    # the committed batches answer at once; the rest is scanned directly
    found = call_tool("pdf_search", {"path": str(path), "query": "Keyword13", "max_results": 100})
    assert not found.is_error and found.details["count"] > 0
    builds.start(target)  # the next build resumes and completes
    wait_until_done(builds, target.fingerprint)
    assert index.read_state().pages_complete


def test_library_queue_runs_in_a_child_and_relays_progress(tmp_path):
    from pdfdesk.index.build_process import process_library_queue
    from pdfdesk.index.library import INDEXED, Library

    folder = tmp_path / "cases"
    folder.mkdir()
    make.text_pdf(folder / "a.pdf")
    make.outline_pdf(folder / "b.pdf")
    Library().add([str(folder)])
    seen: list[tuple[str, int, int]] = []
    assert process_library_queue(lambda name, done, total: seen.append((name, done, total))) == 2
    assert {name for name, _done, _total in seen} == {"a.pdf", "b.pdf"}
    assert all(entry.status == INDEXED for entry in Library().entries())
    found = call_tool("pdf_search", {"library": True, "query": "chapter"})
    assert not found.is_error and found.details["count"] > 0


def test_library_queue_stops_when_cancelled(tmp_path):
    import threading

    from pdfdesk.index.build_process import process_library_queue
    from pdfdesk.index.library import INDEXED, Library

    make.many_pages_pdf(tmp_path / "long.pdf", 1500)
    Library().add([str(tmp_path / "long.pdf")])
    cancel = threading.Event()

    def progress(_name: str, done: int, _total: int) -> None:
        if done > 0:
            cancel.set()

    started = time.monotonic()
    process_library_queue(progress, cancel)
    assert time.monotonic() - started < 30  # the child stopped at a batch boundary, not at the end
    process_library_queue()  # the next run resumes whatever the stopped one left
    entry = Library().entries()[0]
    assert entry.status == INDEXED and DocumentIndex(entry.fingerprint).read_state().pages_complete
