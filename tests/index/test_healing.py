"""Indices heal themselves: whatever file of an index is damaged, the next search answers (from the
pages directly where it must) and the indexing owner rebuilds what is broken."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.builder import Target, build_index, build_vectors
from pdfdesk.index.semantic import SemanticStore
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool
from tests.conftest import run_index_queue

PAGES = 12

# Whoosh leaves open the files of a segment it failed to read; they close when collected, which
# Python reports as a ResourceWarning (ignored outside tests). The damage here is deliberate.
pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning",
                                        "ignore::pytest.PytestUnraisableExceptionWarning")


@pytest.fixture
def indexed(tmp_path: Path, builtin_model: None) -> tuple[Path, Target]:
    """A small outlined report with both stages built (the built-in model makes the vectors)."""
    doc = pymupdf.open()
    toc = []
    for number in range(1, PAGES + 1):
        page = doc.new_page()
        page.insert_text((72, 72), f"Chapter {number}", fontsize=18)
        body = (f"Section {number} explains the marker{number} procedure. The auditor checks every ledger "
                f"entry and the reconciliation of accounts for period {number}. ") * 6
        page.insert_textbox(pymupdf.Rect(72, 100, 520, 760), body, fontsize=10)
        toc.append([1, f"Chapter {number}", number])
    doc.set_toc(toc)
    path = tmp_path / "report.pdf"
    doc.save(path)
    with open_pdf(str(path)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    build_index(target)
    state = build_vectors(target)
    assert state is not None and state.semantic_complete
    return path, target


def _whoosh_file(folder: Path, pattern: str) -> Path:
    found = sorted((folder / "whoosh").glob(pattern))
    assert found, pattern
    return found[0]


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: max(1, path.stat().st_size // 2)])


def _garble(path: Path) -> None:
    path.write_bytes(b"\x00garbage\xff" * 64)


def _chunks(folder: Path, suffix: str) -> list[Path]:
    return sorted((folder / "semantic").glob(f"chunk-*.{suffix}"))


DAMAGE: dict[str, Callable[[Path], None]] = {
    "page segment truncated": lambda f: _truncate(_whoosh_file(f, "pages_*.seg")),
    "page segment deleted": lambda f: _whoosh_file(f, "pages_*.seg").unlink(),
    "page segment garbled": lambda f: _garble(_whoosh_file(f, "pages_*.seg")),
    "page table of contents truncated": lambda f: _truncate(_whoosh_file(f, "_pages_*.toc")),
    "section segment truncated": lambda f: _truncate(_whoosh_file(f, "sections_*.seg")),
    "section table of contents deleted": lambda f: _whoosh_file(f, "_sections_*.toc").unlink(),
    "state file truncated": lambda f: _truncate(f / "state.json"),
    "state file from another version": lambda f: (f / "state.json").write_text(
        (f / "state.json").read_text().replace('"version": ', '"version": 1000')),
    "vector chunk truncated": lambda f: _truncate(_chunks(f, "npy")[0]),
    "passage chunk garbled": lambda f: _garble(_chunks(f, "json")[0]),
    "first vector chunk deleted": lambda f: _chunks(f, "npy")[0].unlink(),
    "last vector chunk deleted": lambda f: _chunks(f, "npy")[-1].unlink(),
}


def _search(path: Path, query: str, **extra: object) -> dict:
    result = call_tool("pdf_search", {"path": str(path), "query": query, **extra})
    assert not result.is_error, result.text
    return result.details


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    import pdfdesk.index.builder as builder
    import pdfdesk.index.semantic as semantic

    monkeypatch.setattr(builder, "LOCK_SLICE", 3)
    monkeypatch.setattr(semantic, "CHUNK_PASSAGES", 4)  # several chunks, so one can go missing


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_next_search_survives_and_the_owner_rebuilds(indexed, kind):
    path, target = indexed
    folder = DocumentIndex(target.fingerprint).folder
    assert len(_chunks(folder, "npy")) >= 3
    DAMAGE[kind](folder)

    for granularity in ("page", "section"):
        details = _search(path, "marker7", granularity=granularity)
        assert details["matches"] and details["matches"][0]["page"] == 7, (kind, granularity, details)
    hybrid = _search(path, "marker7")
    assert hybrid["matches"][0]["page"] == 7

    run_index_queue()  # the search handed the document over; the owner repairs it

    index = DocumentIndex(target.fingerprint)
    state = index.open_existing()
    assert state is not None and state.complete and state.semantic_complete
    assert index.damage() is None and index.verify() is None
    store = SemanticStore(index.folder)
    assert store.check().usable and store.pages_done() == PAGES
    healed = _search(path, "marker7")
    assert healed["mode_used"] == "hybrid" and "note" not in healed
    assert healed["index_complete"] is True and healed["matches"][0]["page"] == 7
    sections = _search(path, "marker7", granularity="section")
    assert sections["matches"][0]["title"] == "Chapter 7" and "sections_pending" not in sections


def test_a_false_alarm_costs_a_check_not_a_rebuild(indexed):
    path, target = indexed
    index = DocumentIndex(target.fingerprint)
    index.report_damage("pages", "a read raced a commit")
    segments_before = sorted(p.name for p in (index.folder / "whoosh").iterdir())
    details = _search(path, "marker3")
    assert details["matches"][0]["page"] == 3  # answered from the pages meanwhile
    run_index_queue()
    assert index.damage() is None
    assert sorted(p.name for p in (index.folder / "whoosh").iterdir()) == segments_before


def test_a_reader_never_deletes_or_rebuilds(indexed):
    path, target = indexed
    folder = DocumentIndex(target.fingerprint).folder
    _truncate(_whoosh_file(folder, "pages_*.seg"))
    before = sorted((p.name, p.stat().st_size) for p in (folder / "whoosh").iterdir())
    for _ in range(3):
        _search(path, "marker5")
    assert sorted((p.name, p.stat().st_size) for p in (folder / "whoosh").iterdir()) == before
    assert DocumentIndex(target.fingerprint).damage() == "pages"
