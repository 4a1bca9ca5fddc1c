"""The page-text record: read once per document version, then every stage reads it."""

from __future__ import annotations

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.index import builder
from pdfdesk.index.builder import Target, build_index, build_vectors
from pdfdesk.index.database import collection_database, database_path
from pdfdesk.index.page_text import OCR, PageText, PageTextStore, Word, pack_words, unpack_words
from pdfdesk.index.scan import scan_pages
from pdfdesk.index.query_terms import parse_terms
from tests.pdf_factory import text_pdf


def target_of(path) -> Target:
    with open_pdf(str(path)) as opened:
        return Target(opened.source, None, opened.fingerprint)


def test_the_keyword_build_stores_each_page_once_with_its_words_and_boxes(tmp_path, monkeypatch, builtin_model):
    target = target_of(text_pdf(tmp_path / "a.pdf", pages=4, words="Page {n} speaks of turbines."))
    build_index(target)
    store = PageTextStore()
    state = store.state(target.fingerprint)
    assert state is not None and state.complete and state.pages_total == 4
    record = store.pages(target.fingerprint, [3])[3]
    assert "Page 3 speaks of turbines" in record.text and record.source == "text"
    assert [w.text for w in record.words][:3] == ["Page", "3", "speaks"]
    assert all(0 < w.box[0] < w.box[2] and 0 < w.box[1] < w.box[3] for w in record.words)

    # the vectors and any later reader take the text from the record, not from the PDF
    def no_pdf(*args, **kwargs):
        raise AssertionError("a page was read from the PDF again")

    monkeypatch.setattr(builder, "extract_page", no_pdf)
    assert [text for _, text in builder.page_texts(target, 1, 4)][1].startswith("Page 2")
    state_after = build_vectors(target)
    assert state_after is not None and state_after.semantic_complete


def test_the_scan_of_unindexed_pages_reads_the_record_and_the_same_text_as_the_index(tmp_path, monkeypatch):
    target = target_of(text_pdf(tmp_path / "a.pdf", pages=3, words="Page {n} speaks of turbines."))
    PageTextStore().write(target.fingerprint, 3, [PageText(2, "a stored page about windmills")])
    import pdfdesk.index.scan as scan

    found = scan.scan_pages(target, [1, 2, 3], parse_terms("windmills"), 5.0)
    assert [page for page, _ in found.hits] == [2]  # page 2 came from the record, not from the PDF
    found = scan_pages(target, [1, 2, 3], parse_terms("turbines"), 5.0)
    assert sorted(page for page, _ in found.hits) == [1, 3]


def test_a_document_without_text_passes_the_vector_stage_with_nothing_to_embed(tmp_path, builtin_model):
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page().draw_rect(pymupdf.Rect(50, 50, 200, 200), color=(0, 0, 0))
    doc.save(tmp_path / "figures.pdf")
    target = target_of(tmp_path / "figures.pdf")
    assert build_index(target).complete
    state = build_vectors(target)
    assert state is not None and state.semantic_complete


def test_words_pack_and_unpack_with_their_boxes():
    words = (Word("Größe", (10.0, 20.5, 40.2, 30.0)), Word("日本", (0.0, 0.0, 1.5, 2.5)), Word("a\x1fb", (1, 2, 3, 4)))
    unpacked = unpack_words(pack_words(words))
    assert [w.text for w in unpacked] == ["Größe", "日本", "a b"]
    assert unpacked[0].box == pytest.approx((10.0, 20.5, 40.2, 30.0), abs=0.1)
    assert unpack_words(pack_words([])) == () and unpack_words(None) == ()


def test_a_record_of_another_extraction_version_is_read_again(tmp_path, monkeypatch):
    store = PageTextStore()
    store.write("f" * 64, 3, [PageText(1, "old text"), PageText(3, "recognised text", OCR, 91.5)])
    assert store.texts("f" * 64, 1, 3) == {1: "old text", 3: "recognised text"}
    import pdfdesk.index.page_text as page_text

    monkeypatch.setattr(page_text, "RECORD_VERSION", page_text.RECORD_VERSION + 1)
    assert store.state("f" * 64) is None and store.texts("f" * 64, 1, 3) == {}
    store.write("f" * 64, 3, [PageText(2, "new text")])
    # the old extraction's pages are gone; what Tesseract read is kept (it does not change with it)
    assert store.texts("f" * 64, 1, 3) == {2: "new text", 3: "recognised text"}


def test_asking_for_a_record_creates_no_database(tmp_path):
    from pdfdesk.index.page_text import stored_texts

    assert stored_texts("0" * 64, 1, 10) == {}
    with pytest.raises(FileNotFoundError):
        PageTextStore().state("0" * 64)
    assert not database_path().exists() and not database_path().parent.exists()


def test_a_damaged_database_is_set_aside_and_started_afresh(tmp_path):
    store = PageTextStore()
    store.write("a" * 64, 1, [PageText(1, "kept for now")])
    collection_database().close()
    database_path().write_bytes(b"this is not a database at all" * 100)
    for suffix in ("-wal", "-shm"):
        path = database_path().with_name(database_path().name + suffix)
        path.unlink(missing_ok=True)
    with pytest.raises(OSError, match="damaged"):
        store.state("a" * 64)
    assert list(database_path().parent.glob("collection.sqlite.damaged-*"))
    store.write("b" * 64, 1, [PageText(1, "a fresh start")])  # the next use starts afresh
    assert store.texts("b" * 64, 1, 1) == {1: "a fresh start"}


def test_a_schema_registered_after_the_connection_opened_is_created_on_its_next_use(tmp_path, monkeypatch):
    """A module imported late (the catalogue, after a search opened the database) still finds its
    tables on the connection this thread already holds."""
    from pdfdesk.index import database

    db = database.Database(tmp_path / "collection.sqlite")
    with db.writing() as connection:
        connection.execute("CREATE TABLE IF NOT EXISTS early (x)")
    monkeypatch.setitem(database._migrations, "late",
                        lambda connection: connection.execute("CREATE TABLE IF NOT EXISTS late_table (y)"))
    with db.writing() as connection:
        connection.execute("INSERT INTO late_table (y) VALUES (1)")
    with db.reading() as connection:
        assert connection.execute("SELECT y FROM late_table").fetchall() == [(1,)]


def test_arabic_set_in_presentation_forms_is_recorded_with_its_lam_alef_words_intact(tmp_path):
    """MuPDF's plain letters put a lam-alef ligature's letters in the wrong order ("األجور"): the
    record's words are read with their forms kept, so paragraphs, highlights and excerpts see the
    words the page's text has."""
    from pathlib import Path

    from pdfdesk.index.analysis import GRAM_MARK, analyze
    from pdfdesk.index.page_text import extract_page
    from pdfdesk.index.paragraphs import paragraphs_of_words
    from pdfdesk.tools import call_tool
    from tests.prose_pdfs import shape_arabic

    dejavu = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not dejavu.exists():
        pytest.skip("DejaVu Sans is not installed")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_font(fontname="dv", fontfile=str(dejavu))
    # glyphs placed right to left, as a right-to-left typesetter places them
    page.insert_text((72, 100), shape_arabic("جدول سلم الأجور الأساسية للموظفين")[::-1], fontname="dv", fontsize=14)
    path = tmp_path / "arabic.pdf"
    doc.save(path)
    with pymupdf.open(path) as opened:
        record = extract_page(opened[0])
    text_terms = {t for t in analyze(record.text) if not t.startswith(GRAM_MARK)}
    assert text_terms and text_terms <= set().union(*paragraphs_of_words(record.words))
    result = call_tool("pdf_search", {"path": str(path), "query": "الأجور", "mode": "keyword"})
    match = result.details["matches"][0]
    assert match["rects"] and "الأجور" in match["excerpt"] and "األجور" not in match["excerpt"]


def test_a_documents_scanned_and_recognised_pages_are_found_without_reading_its_other_pages(tmp_path):
    """Every search asks which pages wait for recognition: the pages of one source are looked up
    in an index, never by reading each of a 1,000-page document's records for its source (6 ms of
    a warm search's 20 ms)."""
    from pdfdesk.index.page_text import SCANNED
    from pdfdesk.index.recognition import RecognitionLedger

    store = PageTextStore()
    store.write("c" * 64, 4, [PageText(1, "printed"), PageText(2, "", SCANNED), PageText(3, "read", OCR, 90.0),
                              PageText(4, "", SCANNED)])
    assert RecognitionLedger().waiting("c" * 64) == [2, 4]
    assert store.recognised("c" * 64) == {3: ("read", 90.0)} and store.recognised_count("c" * 64) == 1
    with collection_database().reading() as db:
        for sql in ("SELECT page FROM page_text WHERE fingerprint = ? AND source = ? ORDER BY page",
                    "SELECT COUNT(*) FROM page_text WHERE fingerprint = ? AND source = ?"):
            plan = " ".join(str(row[-1]) for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", ("c" * 64, SCANNED)))
            assert "page_text_source" in plan and "TEMP B-TREE" not in plan, plan
