"""Index folders shared by several processes: readers never rebuild, one builder per document,
searchers see each commit exactly once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path


from pdfdesk.core.documents import open_pdf
from pdfdesk.index import semantic, store
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.search import search_document
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool
from tests.pdf_factory import many_pages_pdf


def target_of(path: Path) -> Target:
    with open_pdf(str(path)) as opened:
        return Target(opened.source, None, opened.fingerprint)


def folder_snapshot(folder: Path) -> list[tuple[str, int]]:
    return sorted((str(p.relative_to(folder)), p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file())


def pages_found(index: DocumentIndex, query: str) -> list[int]:
    return sorted(hit["page"] for hit in index.search(index.parse(query, "page"), "page", 1000))


def test_a_searcher_sees_each_commit_once_through_merges_and_re_added_pages(pdfdesk_home):
    index = DocumentIndex("f" * 32)
    with index.build_lock() as held:
        assert held
        index.open(pages_total=120)
        for first in range(1, 121, 10):  # twelve commits: Whoosh merges small segments along the way
            writer = index.try_writer()
            index.add_pages(writer, [(n, f"page {n} says common words") for n in range(first, first + 10)])
            writer.commit()
            assert pages_found(index, "common") == list(range(1, first + 10))  # the cached searcher, refreshed
        writer = index.try_writer()
        index.add_pages(writer, [(7, "page 7 was replaced by a newer reading")])
        writer.commit()
    assert pages_found(index, "replaced") == [7]
    assert 7 not in pages_found(index, "common") and len(pages_found(index, "common")) == 119


def test_a_reader_retries_an_index_being_committed_and_never_rebuilds_it(pdfdesk_home, monkeypatch, text_pdf):
    target = target_of(text_pdf)
    assert build_index(target).complete
    folder = DocumentIndex(target.fingerprint).folder
    before = folder_snapshot(folder)
    real_open_dir = store.whoosh_index.open_dir
    failures = {"left": 2}

    def racing_open_dir(*args, **kwargs):  # another process's commit just replaced the table of contents
        if failures["left"]:
            failures["left"] -= 1
            raise FileNotFoundError("_pages_3.toc")
        return real_open_dir(*args, **kwargs)

    monkeypatch.setattr(store.whoosh_index, "open_dir", racing_open_dir)
    result = call_tool("pdf_search", {"path": str(text_pdf), "query": "hello"})
    assert not result.is_error and result.details["index_complete"] is True
    assert sorted(m["page"] for m in result.details["matches"]) == [1, 2, 3]
    assert failures["left"] == 0 and folder_snapshot(folder) == before


def test_a_reader_that_cannot_open_an_index_reads_the_pages_and_leaves_the_folder_alone(pdfdesk_home, monkeypatch,
                                                                                        text_pdf):
    target = target_of(text_pdf)
    build_index(target)
    folder = DocumentIndex(target.fingerprint).folder
    before = folder_snapshot(folder)
    monkeypatch.setattr(store.whoosh_index, "open_dir", lambda *a, **k: (_ for _ in ()).throw(OSError("gone")))
    found = search_document(target, 3, "hello", "keyword", "page", 10, "paragraph", 200)
    assert sorted(m.page for m in found.matches) == [1, 2, 3]
    assert found.details["index_complete"] is False and found.details["pages_scanned"] == 3
    # only a note for the builder (which checks the index before touching it) is added
    assert DocumentIndex(target.fingerprint).damage() == store.PAGES
    (folder / store.DAMAGE_FILE).unlink()
    assert folder_snapshot(folder) == before


HOLD_BUILD_LOCK = textwrap.dedent("""
    import sys
    from pdfdesk.index.store import DocumentIndex

    with DocumentIndex(sys.argv[1]).build_lock() as held:
        print("held" if held else "busy", flush=True)
        sys.stdin.readline()
""")


def test_one_builder_per_document_across_processes(pdfdesk_home, tmp_path):
    pdf = many_pages_pdf(tmp_path / "long.pdf", 120)
    target = target_of(pdf)
    other = subprocess.Popen([sys.executable, "-c", HOLD_BUILD_LOCK, target.fingerprint], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env={**os.environ, "PDFDESK_HOME": str(pdfdesk_home)})
    try:
        assert other.stdout.readline().strip() == "held"
        started = time.monotonic()
        state = build_index(target)  # the background-build way: leave the work to the other builder
        assert time.monotonic() - started < 2.0
        assert not state.complete and DocumentIndex(target.fingerprint).read_state() is None

        finished: list = []
        waiting = threading.Thread(target=lambda: finished.append(build_index(target, wait=True)))
        waiting.start()  # the library-queue way: wait for the other builder, then finish what it left
        waiting.join(0.5)
        assert waiting.is_alive()
        other.kill()  # the other builder dies mid-build: the OS releases its lock
        other.wait()
        waiting.join(30)
        assert not waiting.is_alive() and finished[0].complete
    finally:
        if other.poll() is None:
            other.kill()
            other.wait()
        other.stdout.close()
        other.stdin.close()
    assert build_index(target).complete  # and the lock is free again


def test_a_build_in_another_thread_is_waited_for_with_progress(pdfdesk_home, tmp_path):
    pdf = many_pages_pdf(tmp_path / "long.pdf", 60)
    target = target_of(pdf)
    index = DocumentIndex(target.fingerprint)
    progress: list[tuple[int, int]] = []
    release = threading.Event()

    def slow_builder() -> None:
        with index.build_lock() as held:
            assert held
            state = index.open(60)
            writer = index.try_writer()
            index.add_pages(writer, [(n, f"page {n}") for n in range(1, 31)])
            writer.commit()
            state.pages_indexed = 30
            index.write_state(state)
            release.wait(10)

    thread = threading.Thread(target=slow_builder)
    thread.start()
    time.sleep(0.2)
    threading.Timer(0.4, release.set).start()
    state = build_index(target, progress=lambda done, total: progress.append((done, total)), wait=True)
    thread.join()
    assert state.complete and state.pages_indexed == 60
    assert progress[0] == (30, 60) and progress[-1] == (60, 60)  # the other build's progress, then ours


def test_semantic_progress_counts_only_committed_chunks(tmp_path):
    import numpy as np

    store_ = semantic.SemanticStore(tmp_path)
    store_.write_chunk([semantic.Passage(1, "a")], np.ones((1, 4), dtype=np.float32), first_page=1, through_page=10)
    assert store_.pages_done() == 10
    # a writer stopped between the two renames: the passages are in place, the vectors are not
    (store_.folder / "chunk-00002.json").write_text('{"first_page": 11, "through_page": 20, "passages": []}',
                                                    encoding="utf-8")
    assert store_.pages_done() == 10
