"""The OCR stage: scanned pages recognised page by page into the record, searchable as each is
done, restart-safe, never twice, bounded per page, and read by every reader of the record."""

from __future__ import annotations

import functools
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
from pdfdesk.index import recognition
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.library import INDEXED, Library
from pdfdesk.index.owner import KEYWORD, RECOGNITION, VECTORS, IndexOwner, stage_needed
from pdfdesk.index.page_text import OCR, SCANNED, TEXT_LAYER, PageTextStore
from pdfdesk.index.queue import IndexQueue
from pdfdesk.index.recognition import RecognitionLedger, build_recognition
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool
from tests.pdf_factory import scanned_pdf, text_pdf

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    "Either party may terminate this agreement for convenience by giving ninety days written notice.",
    "Rent is payable monthly in advance on the first day of each month by bank transfer.",
    "The tenant shall keep the premises in good repair and shall not sublet without consent.",
    "Disputes are settled by arbitration in Geneva under the rules of the chamber of commerce.",
]


def target_of(path: Path) -> Target:
    with open_pdf(str(path)) as opened:
        return Target(opened.source, None, opened.fingerprint)


@pytest.fixture
def scan(tmp_path: Path) -> Path:
    return scanned_pdf(tmp_path / "lease-scan.pdf", [text * 3 for text in PAGES])


def pages_found(path: Path, query: str) -> list[int]:
    result = call_tool("pdf_search", {"path": str(path), "query": query, "mode": "keyword"})
    assert not result.is_error, result.text
    return [m["page"] for m in result.details["matches"]]


def test_the_keyword_stage_marks_scanned_pages_and_the_ocr_stage_reads_them(scan: Path) -> None:
    target = target_of(scan)
    build_index(target)
    store = PageTextStore()
    assert {r.source for r in store.pages(target.fingerprint, [1, 2, 3, 4]).values()} == {SCANNED}
    assert stage_needed(target.fingerprint) == RECOGNITION
    assert pages_found(scan, "arbitration Geneva") == []

    build_recognition(target)
    records = store.pages(target.fingerprint, [1, 2, 3, 4])
    assert {r.source for r in records.values()} == {OCR}
    assert all(r.confidence is not None and r.confidence > 80 for r in records.values())
    assert "arbitration in Geneva" in " ".join(records[4].text.split())
    assert pages_found(scan, "arbitration Geneva") == [4]
    assert stage_needed(target.fingerprint) is None  # semantic search is off in tests: nothing left


def test_each_page_is_searchable_as_soon_as_it_is_recognised(scan: Path) -> None:
    target = target_of(scan)
    build_index(target)
    seen: list[tuple[int, list[int]]] = []

    def progress(done: int, total: int) -> None:  # called after each page is published
        seen.append((done, pages_found(scan, "terminate convenience") + pages_found(scan, "arbitration Geneva")))

    build_recognition(target, progress=progress, workers=lambda: 1)
    assert [done for done, _ in seen] == [1, 2, 3, 4]
    assert seen[0][1] == [1]          # page 1 answered before the others were read
    assert seen[-1][1] == [1, 4]


def test_a_stopped_stage_resumes_where_it_stopped_and_no_page_is_read_twice(scan: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    target = target_of(scan)
    build_index(target)
    cancel = threading.Event()
    build_recognition(target, progress=lambda done, total: cancel.set(), cancel=cancel, workers=lambda: 1)
    ledger = RecognitionLedger()
    assert ledger.waiting(target.fingerprint) == [2, 3, 4]

    read: list[int] = []
    original = recognition.PageReader.render

    def counting(self, page, dpi=None):
        read.append(page.number + 1)
        return original(self, page, dpi)

    monkeypatch.setattr(recognition.PageReader, "render", counting)
    build_recognition(target)
    assert sorted(read) == [2, 3, 4]
    build_recognition(target)  # a document is never recognised twice
    assert sorted(read) == [2, 3, 4]


def test_a_page_that_stopped_the_stage_twice_is_given_up_with_a_note(scan: Path) -> None:
    target = target_of(scan)
    build_index(target)
    ledger = RecognitionLedger()
    for _ in range(recognition.MAX_ATTEMPTS):  # two runs killed while Tesseract read page 2
        ledger.attempt(target.fingerprint, 2)
    pages = ledger.pages(target.fingerprint)
    assert pages.waiting == [1, 3, 4] and "given up" in pages.failed[2]
    build_recognition(target)
    assert ledger.pages(target.fingerprint).waiting == []
    assert PageTextStore().pages(target.fingerprint, [2])[2].source == SCANNED


def test_a_page_over_its_deadline_gets_a_coded_note_and_the_queue_moves_on(scan: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    target = target_of(scan)
    build_index(target)
    monkeypatch.setattr(recognition, "PageReader", functools.partial(recognition.PageReader, deadline_s=0.01))
    started = time.monotonic()
    build_recognition(target)
    assert time.monotonic() - started < 60
    failed = RecognitionLedger().pages(target.fingerprint).failed
    assert sorted(failed) == [1, 2, 3, 4] and all(note.startswith("ocr_timeout") for note in failed.values())
    assert stage_needed(target.fingerprint) is None  # nothing waits: the queue is not held up
    result = call_tool("pdf_extract_text", {"path": str(scan), "pages": "2"})
    assert "Recognition gave up on page 2: ocr_timeout" in result.text


def test_pdf_extract_text_gives_recognised_text_marked_as_ocr(scan: Path) -> None:
    target = target_of(scan)
    build_index(target)
    build_recognition(target)
    result = call_tool("pdf_extract_text", {"path": str(scan), "pages": "1-2"})
    assert not result.is_error
    assert "(recognised by OCR" in result.text and "terminate this agreement" in result.text
    assert result.details["ocr_pages"] == "1-2" and result.details["scanned_pages"] == ""
    assert float(result.details["ocr_confidence"]["1"]) > 80
    assert "recognised by OCR and may hold misread words" in result.text


def test_search_and_info_say_which_pages_still_wait_for_recognition(scan: Path) -> None:
    target = target_of(scan)
    build_index(target)
    result = call_tool("pdf_search", {"path": str(scan), "query": "rent"})
    assert result.details["pages_awaiting_ocr"] == "1-4"
    assert "still being recognised" in result.text
    info = call_tool("pdf_info", {"path": str(scan)})
    assert info.details["pages_awaiting_ocr"] == "1-4" and info.details["ocr_pages"] == ""
    build_recognition(target, budget_s=0.0, workers=lambda: 1)  # one turn: one page
    info = call_tool("pdf_info", {"path": str(scan)})
    assert info.details["ocr_pages"] == "1" and info.details["pages_awaiting_ocr"] == "2-4"
    assert "Recognised by OCR: 1" in info.text and "Waiting for recognition (OCR): 2-4" in info.text


def test_hit_boxes_and_excerpts_come_from_the_recognised_words(scan: Path) -> None:
    target = target_of(scan)
    build_index(target)
    build_recognition(target)
    result = call_tool("pdf_search", {"path": str(scan), "query": "arbitration", "mode": "keyword"})
    match = result.details["matches"][0]
    assert match["page"] == 4 and "arbitration" in match["excerpt"]
    word = next(w for w in PageTextStore().pages(target.fingerprint, [4])[4].words if w.text == "arbitration")
    assert any(abs(rect[0] - word.box[0]) < 1 and abs(rect[1] - word.box[1]) < 1 for rect in match["rects"])


def test_sections_of_a_scan_come_from_its_recognised_headings(tmp_path: Path) -> None:
    titles = ["Termination", "Payment", "Repairs", "Disputes"]
    path = scanned_pdf(tmp_path / "headed.pdf", [t * 2 for t in PAGES], titles=titles)
    target = target_of(path)
    build_index(target)
    build_recognition(target)
    sections = PageTextStore().sections(target.fingerprint)
    assert [s.title for s in sections if s.title in titles] == titles


def test_vectors_made_before_recognition_are_made_again(scan: Path, builtin_model: None) -> None:
    from pdfdesk.index.builder import build_vectors

    target = target_of(scan)
    build_index(target)
    build_vectors(target)  # an index from before pdfdesk recognised scans: vectors of empty pages
    assert DocumentIndex(target.fingerprint).read_state().semantic_complete
    build_recognition(target)
    assert stage_needed(target.fingerprint) == VECTORS
    state = build_vectors(target)
    assert state is not None and state.semantic_complete
    result = call_tool("pdf_search", {"path": str(scan), "query": "arbitration Geneva", "mode": "semantic"})
    assert result.details["matches"][0]["page"] == 4


def test_the_library_finds_recognised_pages(scan: Path) -> None:
    library = Library()
    library.add([str(scan)])
    library.process()
    assert {e.name: e.status for e in library.entries()} == {"lease-scan.pdf": INDEXED}
    IndexOwner().drain(wait=True)  # the owner's stages: keyword, then recognition
    result = call_tool("pdf_search", {"library": True, "query": "arbitration Geneva", "mode": "keyword"})
    assert [(Path(m["file"]).name, m["page"]) for m in result.details["matches"]] == [("lease-scan.pdf", 4)]


def test_the_owner_runs_recognition_after_the_keyword_stage_in_a_child(scan: Path) -> None:
    owner = IndexOwner()
    owner.submit(target_of(scan))
    stages: list[str] = []
    outcomes = owner.drain(progress=lambda name, stage, done, total: stages.append(stage), wait=True)
    assert [(o.stage, o.result) for o in outcomes] == [(KEYWORD, "done"), (RECOGNITION, "done")]
    assert stages.index(RECOGNITION) > stages.index(KEYWORD)
    assert pages_found(scan, "sublet consent") == [3]
    assert IndexQueue().jobs() == []


def test_with_ocr_turned_off_scans_wait_and_say_so(scan: Path) -> None:
    set_config(Config(semantic=False, ocr=False))
    target = target_of(scan)
    build_index(target)
    assert stage_needed(target.fingerprint) is None
    result = call_tool("pdf_extract_text", {"path": str(scan), "pages": "1"})
    assert result.details["scanned_pages"] == "1"


def test_text_pages_are_never_sent_to_recognition(tmp_path: Path) -> None:
    path = text_pdf(tmp_path / "text.pdf")
    target = target_of(path)
    build_index(target)
    assert {r.source for r in PageTextStore().pages(target.fingerprint, [1, 2, 3]).values()} == {TEXT_LAYER}
    assert stage_needed(target.fingerprint) is None


def test_kill_9_during_recognition_loses_no_recognised_page(scan: Path, pdfdesk_home: Path) -> None:
    env = {**os.environ, "PDFDESK_HOME": str(pdfdesk_home)}
    target = target_of(scan)
    proc = subprocess.Popen([sys.executable, "-m", "pdfdesk", "index", str(scan)], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120

    def recognised() -> dict:
        try:
            return PageTextStore().recognised(target.fingerprint)
        except OSError:  # no database yet
            return {}

    while not recognised():
        assert time.monotonic() < deadline and proc.poll() is None, "no page was recognised"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the command, its stage child and Tesseract, mid-document
    proc.wait(10)
    kept = set(PageTextStore().recognised(target.fingerprint))
    assert kept
    phrases = {1: "terminate convenience", 2: "payable monthly", 3: "sublet consent", 4: "arbitration Geneva"}
    assert all(pages_found(scan, phrases[page]) == [page] for page in kept)  # each kept page is searchable
    IndexOwner().drain(wait=True)  # a restart: the queue still holds it, and the rest is read
    assert set(PageTextStore().recognised(target.fingerprint)) == {1, 2, 3, 4}
    assert pages_found(scan, "arbitration Geneva") == [4]


def test_recognised_pages_outlive_a_new_way_of_reading_text_layers(scan: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pdfdesk.index import page_text

    target = target_of(scan)
    build_index(target)
    build_recognition(target)
    before = PageTextStore().recognised(target.fingerprint)
    monkeypatch.setattr(page_text, "RECORD_VERSION", page_text.RECORD_VERSION + 1)
    DocumentIndex(target.fingerprint).delete()  # the index is built again, from a new record
    build_index(target)
    assert PageTextStore().recognised(target.fingerprint) == before  # no page waits to be read again
    assert stage_needed(target.fingerprint) is None
    assert pages_found(scan, "arbitration Geneva") == [4]


def _index_command(home: Path, path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pdfdesk", "index", str(path)], capture_output=True, text=True,
                          env={**os.environ, "PDFDESK_HOME": str(home), **env}, cwd=ROOT, timeout=300)


def test_pdfdesk_index_names_the_language_data_to_install(scan: Path, pdfdesk_home: Path) -> None:
    (pdfdesk_home / "config").mkdir(parents=True)
    (pdfdesk_home / "config" / "config.toml").write_text('[ocr]\nlanguages = "eng+xyz"\n', encoding="utf-8")
    done = _index_command(pdfdesk_home, scan)
    assert done.returncode == 0, done.stderr
    assert "OCR language data missing: xyz (install tesseract-ocr-xyz" in done.stderr
    assert pages_found(scan, "arbitration Geneva") == [4]  # read with the languages there are


def test_pdfdesk_index_without_tesseract_says_so_and_indexes_the_rest(scan: Path, pdfdesk_home: Path,
                                                                     tmp_path: Path) -> None:
    done = _index_command(pdfdesk_home, scan, PDFDESK_TESSERACT=str(tmp_path / "missing"))
    assert done.returncode == 0, done.stderr
    assert "Scanned pages are not recognised: Tesseract is not installed" in done.stderr
    assert RecognitionLedger().waiting(target_of(scan).fingerprint) == [1, 2, 3, 4]  # read once it is installed


def test_a_long_scan_takes_turns_so_a_document_added_meanwhile_is_indexed_first(scan: Path, tmp_path: Path) -> None:
    from pdfdesk.index.queue import INTERACTIVE, LIBRARY

    owner = IndexOwner(recognition_turn_s=0.0)  # one page a turn
    owner.submit(target_of(scan), LIBRARY)
    later = text_pdf(tmp_path / "later.pdf")
    order: list[tuple[str, str]] = []

    def progress(name: str, stage: str, done: int, total: int) -> None:
        order.append((name, stage))
        first_page_read = name == "lease-scan.pdf" and stage == RECOGNITION and done == 1
        if first_page_read and not any(n == "later.pdf" for n, _ in order):
            owner.submit(target_of(later), LIBRARY)  # added while the scan is being read

    outcomes = owner.drain(progress=progress, wait=True)
    results = [(o.name, o.stage, o.result) for o in outcomes]
    assert results[:2] == [("lease-scan.pdf", KEYWORD, "done"), ("lease-scan.pdf", RECOGNITION, "partial")]
    assert results[2] == ("later.pdf", KEYWORD, "done")  # before the scan's next turn
    assert results[-1] == ("lease-scan.pdf", RECOGNITION, "done")
    assert set(PageTextStore().recognised(target_of(scan).fingerprint)) == {1, 2, 3, 4}

    # a scan open in the window is read before the library's backlog of keyword stages
    second = scanned_pdf(tmp_path / "opened-scan.pdf", [PAGES[0]])
    backlog = text_pdf(tmp_path / "backlog.pdf")
    owner.submit(target_of(second), INTERACTIVE)
    owner.submit(target_of(backlog), LIBRARY)
    first_two = [(o.name, o.stage) for o in owner.drain(wait=True)][:2]
    assert first_two == [("opened-scan.pdf", KEYWORD), ("opened-scan.pdf", RECOGNITION)]


def test_the_turn_that_ends_the_waiting_hands_the_text_on_even_when_it_read_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    titles = ["Termination", "Payment", "Repairs", "Disputes"]
    path = scanned_pdf(tmp_path / "headed.pdf", [t * 2 for t in PAGES], titles=titles)
    target = target_of(path)
    build_index(target)
    build_recognition(target, budget_s=0.0, workers=lambda: 1)  # a first turn reads page 1
    assert RecognitionLedger().waiting(target.fingerprint) == [2, 3, 4]
    assert not any(s.title == "Termination" for s in PageTextStore().sections(target.fingerprint))
    monkeypatch.setattr(recognition, "PageReader", functools.partial(recognition.PageReader, deadline_s=0.01))
    build_recognition(target)  # the last turn: every other page overruns its deadline
    assert RecognitionLedger().waiting(target.fingerprint) == []
    assert [s.title for s in PageTextStore().sections(target.fingerprint) if s.title in titles] == ["Termination"]
