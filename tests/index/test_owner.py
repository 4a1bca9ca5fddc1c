"""The indexing owner: one queue in the app data folder that every front end hands documents to,
stages run in child processes (keyword first, vectors last), restart-safe, shared by processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import open_pdf
from pdfdesk.index import embedding
from pdfdesk.index.builder import Target
from pdfdesk.index.owner import KEYWORD, VECTORS, IndexOwner, stage_needed
from pdfdesk.index.queue import INTERACTIVE, LIBRARY, MAX_ATTEMPTS, IndexQueue
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool
from tests import pdf_factory as make
from tests.machine_faults import disk_full, read_only

ROOT = Path(__file__).resolve().parents[2]


def target_of(path: Path, password: str | None = None) -> Target:
    with open_pdf(str(path), password) as opened:
        return Target(opened.source, password, opened.fingerprint)


@pytest.fixture
def no_vectors():
    set_config(Config(semantic=False))


def test_search_queues_instead_of_building(outline_pdf, no_vectors):
    result = call_tool("pdf_search", {"path": str(outline_pdf), "query": "chapter"})
    assert not result.is_error and result.details["index_complete"] is False
    target = target_of(outline_pdf)
    assert DocumentIndex(target.fingerprint).read_state() is None  # nothing built as a side effect
    assert [job.fingerprint for job in IndexQueue().jobs()] == [target.fingerprint]
    call_tool("pdf_search", {"path": str(outline_pdf), "query": "page"})
    assert len(IndexQueue().jobs()) == 1  # handed over twice: one job


def test_owner_builds_in_a_child_and_relays_progress(outline_pdf, no_vectors):
    target = target_of(outline_pdf)
    owner = IndexOwner()
    owner.submit(target, LIBRARY)
    seen: list[tuple[str, str, int, int]] = []
    outcomes = owner.drain(progress=lambda *report: seen.append(report))
    assert [(o.stage, o.result) for o in outcomes] == [(KEYWORD, "done")]
    assert seen and seen[-1][1:] == (KEYWORD, 10, 10)  # the outline fixture has 10 pages
    state = DocumentIndex(target.fingerprint).read_state()
    assert state is not None and state.complete and IndexQueue().jobs() == []
    result = call_tool("pdf_search", {"path": str(outline_pdf), "query": "chapter page 7"})
    assert "pages_scanned" not in result.details and 7 in [m["page"] for m in result.details["matches"]]


def test_keyword_stages_come_before_any_vectors(tmp_path, builtin_model, monkeypatch):
    first, second = make.text_pdf(tmp_path / "a.pdf"), make.outline_pdf(tmp_path / "b.pdf")
    owner = IndexOwner()
    owner.submit(target_of(first), LIBRARY)
    owner.submit(target_of(second), INTERACTIVE)  # an open document goes first
    stages = [(o.name, o.stage, o.result) for o in owner.drain()]
    assert stages == [("b.pdf", KEYWORD, "done"), ("a.pdf", KEYWORD, "done"),
                      ("b.pdf", VECTORS, "done"), ("a.pdf", VECTORS, "done")]
    assert stage_needed(target_of(first).fingerprint) is None and IndexQueue().jobs() == []


def test_no_local_model_skips_vectors_at_once_with_a_reason(outline_pdf, monkeypatch, tmp_path):
    monkeypatch.setenv(embedding.MODEL_PATH_ENV, str(tmp_path / "no-model-here"))
    set_config(Config(semantic=True))
    embedding.reset_model()
    owner = IndexOwner()
    owner.submit(target_of(outline_pdf), LIBRARY)
    started = time.monotonic()
    outcomes = owner.drain()
    assert [o.stage for o in outcomes] == [KEYWORD] and time.monotonic() - started < 30
    assert owner.vectors_skipped and "no-model-here" in owner.vectors_skipped
    assert IndexQueue().jobs() == []
    embedding.reset_model()


def test_a_failing_document_is_parked_after_a_few_attempts(tmp_path, no_vectors, monkeypatch):
    import pdfdesk.index.owner as owner_module

    path = make.many_pages_pdf(tmp_path / "slow.pdf", 400)
    monkeypatch.setattr(owner_module, "_deadline", lambda stage, pages: 0.05)  # every attempt overruns
    owner = IndexOwner()
    owner.submit(target_of(path), LIBRARY)
    for _ in range(MAX_ATTEMPTS):
        outcome = owner.drain()[0]
        assert outcome.result == "failed" and "0.05" in outcome.message
    job = IndexQueue().jobs(include_failed=True)[0]
    assert job.failed and job.attempts == MAX_ATTEMPTS and owner.drain() == []
    IndexQueue().add(job.fingerprint, job.path, job.name, INTERACTIVE)  # asked for again: a new chance
    assert not IndexQueue().get(job.fingerprint).failed


def test_a_changed_file_is_dropped_from_the_queue(tmp_path, no_vectors):
    path = make.text_pdf(tmp_path / "draft.pdf")
    owner = IndexOwner()
    owner.submit(target_of(path), LIBRARY)
    make.outline_pdf(path)  # a new version under the same name, before the owner got to it
    assert [o.result for o in owner.drain()] == ["changed"] and IndexQueue().jobs() == []


def test_cancelled_stage_leaves_a_usable_index_that_resumes(tmp_path, no_vectors):
    path = make.many_pages_pdf(tmp_path / "long.pdf", 2000)
    target = target_of(path)
    index = DocumentIndex(target.fingerprint)
    owner = IndexOwner()
    owner.submit(target, LIBRARY)
    cancel = threading.Event()

    def cancel_after_first_batch() -> None:
        deadline = time.monotonic() + 120
        while not ((state := index.read_state()) and state.pages_indexed > 0) and time.monotonic() < deadline:
            time.sleep(0.02)
        cancel.set()

    threading.Thread(target=cancel_after_first_batch, daemon=True).start()
    assert [o.result for o in owner.drain(cancel=cancel)] == ["cancelled"]
    stopped_at = index.read_state().pages_indexed
    assert 0 < stopped_at < 2000 and len(IndexQueue().jobs()) == 1  # still queued
    found = call_tool("pdf_search", {"path": str(path), "query": "Keyword13", "max_results": 100})
    assert not found.is_error and found.details["count"] > 0
    assert [o.result for o in owner.drain()] == ["done"] and index.read_state().pages_complete


def test_documents_with_a_password_stay_in_this_process(aes_pdf, no_vectors):
    target = target_of(aes_pdf, "user-secret")
    owner = IndexOwner()
    owner.submit(target, INTERACTIVE)
    assert IndexQueue().jobs() == []  # never written to disk with its password
    assert [o.result for o in owner.drain()] == ["done"]
    assert DocumentIndex(target.fingerprint).read_state().complete


def test_the_queue_survives_damage_and_concurrent_adds(tmp_path, no_vectors):
    queue = IndexQueue()
    (queue.folder / "junk.json").write_text("{not json")
    threads = [threading.Thread(target=queue.add, args=(f"fp{i % 3}", f"/x/{i % 3}.pdf", "x.pdf")) for i in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(job.fingerprint for job in queue.jobs()) == ["fp0", "fp1", "fp2"]
    assert not (queue.folder / "junk.json").exists()


def _cli(*args: str, home: Path, background: bool = False, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PDFDESK_HOME": str(home), "PDFDESK_BACKGROUND_INDEXING": "1" if background else "0",
           "HF_HUB_OFFLINE": "1", "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"}
    return subprocess.run([sys.executable, "-m", "pdfdesk", *args], env=env, capture_output=True, text=True,
                          cwd=ROOT, **kw)


def test_one_shot_search_hands_over_to_a_background_owner(tmp_path, pdfdesk_home):
    path = make.many_pages_pdf(tmp_path / "manual.pdf", 300)
    started = time.monotonic()
    proc = _cli("tool", "pdf_search", f'{{"path": "{path}", "query": "Keyword42", "mode": "keyword"}}',
                home=pdfdesk_home, background=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < 5.0  # answered from the pages, offline, without waiting
    fingerprint = target_of(path).fingerprint
    deadline = time.monotonic() + 120
    while IndexQueue().jobs() or not ((s := DocumentIndex(fingerprint).read_state()) and s.complete):
        assert time.monotonic() < deadline, "the background owner did not index the document"
        time.sleep(0.1)
    # the background owner exits once the queue is empty
    while (pdfdesk_home / "index-queue" / ".runner.lock").exists() and _runner_held(pdfdesk_home):
        assert time.monotonic() < deadline, "the background owner did not exit"
        time.sleep(0.1)


def _runner_held(home: Path) -> bool:
    from pdfdesk.index.locks import file_lock

    with file_lock(home / "index-queue" / ".runner.lock") as free:
        return not free


def test_pdfdesk_index_says_why_there_are_no_vectors(tmp_path, pdfdesk_home):
    path = make.outline_pdf(tmp_path / "guide.pdf")
    config = pdfdesk_home / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[search]\nsemantic = false\n")
    proc = _cli("index", str(path), home=pdfdesk_home, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("No vectors")]
    assert len(lines) == 1 and "turned off" in lines[0]
    assert DocumentIndex(target_of(path).fingerprint).read_state().complete


def test_pdfdesk_index_builds_vectors_with_the_builtin_model(tmp_path, pdfdesk_home):
    path = make.outline_pdf(tmp_path / "guide.pdf")
    proc = _cli("index", str(path), home=pdfdesk_home, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "No vectors" not in proc.stderr
    set_config(Config(semantic=True))
    embedding.reset_model()
    state = DocumentIndex(target_of(path).fingerprint).read_state()
    assert state.complete and state.semantic_complete
    found = _cli("tool", "pdf_search", f'{{"path": "{path}", "query": "chapter"}}', home=pdfdesk_home, timeout=60)
    assert '"mode_used": "hybrid"' in found.stdout  # auto is hybrid from a one-shot command


def test_kill_9_of_the_indexer_loses_nothing(tmp_path, pdfdesk_home, no_vectors):
    big = make.many_pages_pdf(tmp_path / "big.pdf", 1500)
    small = make.text_pdf(tmp_path / "small.pdf")
    env = {**os.environ, "PDFDESK_HOME": str(pdfdesk_home)}
    proc = subprocess.Popen([sys.executable, "-m", "pdfdesk", "index", str(big), str(small)], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    index = DocumentIndex(target_of(big).fingerprint)
    deadline = time.monotonic() + 120
    while not ((state := index.read_state()) and state.pages_indexed >= 250):
        assert time.monotonic() < deadline and proc.poll() is None, "no batch was committed"
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # the command and its build child, mid-build
    proc.wait(10)
    assert not index.read_state().complete
    from pdfdesk.index.library import INDEXED, Library

    library = Library()  # a restart: whatever was queued is still there
    assert {job.name for job in IndexQueue().jobs()} == {"big.pdf", "small.pdf"}
    library.process()
    assert {e.name: e.status for e in library.entries()} == {"big.pdf": INDEXED, "small.pdf": INDEXED}
    result = call_tool("pdf_search", {"library": True, "query": "Keyword5", "max_results": 100})
    assert sorted(m["page"] for m in result.details["matches"]) == [n for n in range(1, 1501) if n % 97 == 5]


# -- a data folder that cannot be written (read-only, full) --------------------------------------
def test_request_indexing_on_a_read_only_folder_says_why(outline_pdf, pdfdesk_home, no_vectors):
    from pdfdesk.index.owner import request_indexing

    target = target_of(outline_pdf)
    with read_only(pdfdesk_home):
        assert request_indexing(target, INTERACTIVE) == "permission to write there is denied"
    assert IndexQueue().jobs() == []
    assert request_indexing(target, INTERACTIVE) is None and len(IndexQueue().jobs()) == 1


def test_request_indexing_on_a_full_disk_says_why(outline_pdf, pdfdesk_home, no_vectors, monkeypatch):
    from pdfdesk.index.owner import request_indexing

    with disk_full(monkeypatch, pdfdesk_home):
        assert request_indexing(target_of(outline_pdf), INTERACTIVE) == "the disk is full"


def test_the_owner_thread_waits_out_a_read_only_folder(pdfdesk_home, no_vectors, monkeypatch):
    import pdfdesk.index.owner as owner_module

    monkeypatch.setattr(owner_module, "STORAGE_RETRY_S", 0.2)
    owner = IndexOwner()
    with read_only(pdfdesk_home):
        owner.start()
        deadline = time.monotonic() + 10
        while owner.storage_problem is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert owner.storage_problem == "permission to write there is denied"
        time.sleep(0.5)  # a few retries: the thread lives on through them
        assert owner._thread is not None and owner._thread.is_alive()
    stopped = time.monotonic()
    owner.stop()
    assert time.monotonic() - stopped < 2 and not owner._thread.is_alive()


def test_a_queued_document_waits_uncounted_while_the_folder_is_read_only(outline_pdf, pdfdesk_home, no_vectors):
    target = target_of(outline_pdf)
    owner = IndexOwner()
    owner.submit(target, LIBRARY)
    with read_only(pdfdesk_home):
        outcomes = owner.drain()
    assert [(o.stage, o.result) for o in outcomes] == [(KEYWORD, "failed")]
    assert outcomes[0].message == (f"pdfdesk cannot build the search index: its data folder {pdfdesk_home} cannot be "
                                   "written (permission to write there is denied).")
    assert owner.storage_problem == "permission to write there is denied"
    job = IndexQueue().get(target.fingerprint)
    assert job is not None and job.attempts == 0 and not job.failed  # the machine's fault, not the document's
    assert [o.result for o in owner.drain()] == ["done"]  # writable again: built at the next round


def test_a_disk_that_fills_during_a_build_is_not_the_documents_fault(outline_pdf, pdfdesk_home, no_vectors,
                                                                      monkeypatch):
    """A child whose writes fail with ENOSPC sends a coded error naming the data folder; the owner
    stops the round and keeps the job uncounted (the child's own conversion is tested below)."""
    import pdfdesk.index.owner as owner_module
    from pdfdesk.core import paths

    def full_child(*args, **kwargs):
        raise paths.storage_error(pdfdesk_home, "the disk is full", "build the search index")

    target = target_of(outline_pdf)
    second = target_of(make.text_pdf(pdfdesk_home.parent / "second.pdf"))
    owner = IndexOwner()
    owner.submit(target, INTERACTIVE)
    owner.submit(second, LIBRARY)
    monkeypatch.setattr(owner_module.childproc, "run_job", full_child)
    outcomes = owner.drain()
    assert [o.result for o in outcomes] == ["failed"]  # the second would fail alike: not tried
    assert "cannot be written (the disk is full)" in outcomes[0].message
    assert {job.attempts for job in IndexQueue().jobs()} == {0}


def test_the_stage_child_turns_a_refused_write_into_a_coded_error(outline_pdf, pdfdesk_home, no_vectors):
    from pdfdesk.core.errors import PdfDeskError
    from pdfdesk.index.owner import _stage_child

    target = target_of(outline_pdf)
    with read_only(pdfdesk_home), pytest.raises(PdfDeskError) as caught:
        _stage_child(lambda message: None, None, target, KEYWORD, False)
    assert caught.value.code == "permission_denied"
    assert caught.value.extra == {"folder": str(pdfdesk_home), "storage_problem": "permission to write there is denied"}


def test_the_queue_and_locks_on_a_read_only_folder(pdfdesk_home, no_vectors):
    from pdfdesk.index.locks import file_lock

    queue = IndexQueue()
    queue.add("fp1", "/x/1.pdf", "1.pdf")
    (queue.folder / "junk.json").write_text("{not json")
    existing = queue.folder / ".existing.lock"
    existing.touch()
    with read_only(pdfdesk_home):
        assert [job.fingerprint for job in queue.jobs()] == ["fp1"]  # the damaged file stays, unread
        queue.done("fp1")  # cannot forget it now: no exception, it is looked at again later
        with pytest.raises(OSError):  # noqa: PT011 - whichever refusal the file system gives
            queue.add("fp2", "/x/2.pdf", "2.pdf")
        with file_lock(existing) as held:  # another user's or a read-only lock file still locks
            assert held
            with file_lock(existing) as again:
                assert not again
        with pytest.raises(OSError), file_lock(queue.folder / ".missing.lock"):  # noqa: PT011 - likewise
            pass
    assert [job.fingerprint for job in queue.jobs()] == ["fp1"]


def test_drain_in_background_on_a_read_only_folder(pdfdesk_home, no_vectors, capsys, monkeypatch):
    import pdfdesk.index.owner as owner_module
    from pdfdesk.index.owner import drain_in_background

    monkeypatch.setattr(owner_module.childproc, "lower_priority", lambda priority: None)  # not the test runner's
    with read_only(pdfdesk_home):
        assert drain_in_background() == 1
    assert capsys.readouterr().err == (f"pdfdesk cannot build the search index: its data folder {pdfdesk_home} "
                                       "cannot be written (permission to write there is denied).\n")
