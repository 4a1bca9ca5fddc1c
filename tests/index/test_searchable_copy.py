"""Save a searchable copy: scanned pages (recognised by the real Tesseract) get an invisible text
layer that PyMuPDF extracts and searches where the scan shows each word; the source is never
written, whatever name the output is given; failures are coded errors and a cancel writes nothing."""

from __future__ import annotations

import os
import threading
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import PERMISSION_DENIED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.page_text import OCR, SCANNED, TEXT_LAYER, PageTextStore, extract_page, stored_page
from pdfdesk.index.recognition import RecognitionLedger, build_recognition
from pdfdesk.index.searchable_copy import default_output, save_searchable_copy
from pdfdesk.tools import call_tool
from tests.machine_faults import disk_full, read_only
from tests.pdf_factory import save, scanned_pdf, text_pdf

LEASE = ("The tenant shall keep the premises in good repair and shall not assign this lease without the "
         "prior written consent of the landlord. Rent is payable monthly in advance. ") * 2
RUSSIAN = ("Арендатор обязан содержать помещение в надлежащем состоянии и не вправе передавать договор "
           "без письменного согласия арендодателя. ") * 2


@pytest.fixture(autouse=True)
def english_and_russian() -> None:
    set_config(Config(semantic=False, ocr_languages="eng+rus"))


def target_of(path: Path) -> Target:
    with open_pdf(str(path)) as opened:
        return Target(opened.source, None, opened.fingerprint)


def squeezed(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


def covered(hit: pymupdf.Rect, box: tuple[float, float, float, float]) -> float:
    """Share of the recognised word's box that the search hit covers."""
    word = pymupdf.Rect(box)
    return abs(hit & word) / abs(word)


def assert_copy_gives_back_the_record(copy_path: Path, fingerprint: str, pages: list[int]) -> None:
    """Each page of the copy extracts as recognised, and search finds every word at its box."""
    records = PageTextStore().pages(fingerprint, pages)
    with pymupdf.open(copy_path) as copy:
        for number in pages:
            record, page = records[number], copy[number - 1]
            assert record.source == OCR and len(record.words) > 20
            assert squeezed(page.get_text()) == squeezed(record.text)
            assert page.get_text().split() == [w.text for w in record.words]
            for word in record.words:
                hits = page.search_for(word.text)
                assert hits and max(covered(hit, word.box) for hit in hits) > 0.9, (number, word)
            assert extract_page(page).source == TEXT_LAYER  # a reader now finds a text layer there


def test_an_indexed_scan_gets_its_recognised_words_in_english_russian_and_on_a_turned_page(tmp_path: Path) -> None:
    # page 3 is a sheet scanned sideways whose /Rotate 90 shows it upright
    source = scanned_pdf(tmp_path / "lease.pdf", [LEASE, RUSSIAN, LEASE], turn={3: 90}, rotate={3: 90})
    before = source.read_bytes()
    target = target_of(source)
    build_index(target)
    build_recognition(target, wait=True)
    stages: set[str] = set()
    report = save_searchable_copy(source, tmp_path / "copy.pdf", progress=lambda stage, done, total: stages.add(stage))
    assert report.output == str(tmp_path / "copy.pdf") and not report.cancelled
    assert report.layered == (1, 2, 3) and report.recognised_now == () and not report.left_out
    assert report.words == sum(len(r.words) for r in PageTextStore().pages(target.fingerprint, [1, 2, 3]).values())
    assert stages == {"writing"}  # every page was already in the record: nothing read or recognised again
    assert_copy_gives_back_the_record(tmp_path / "copy.pdf", target.fingerprint, [1, 2, 3])
    with pymupdf.open(tmp_path / "copy.pdf") as copy, pymupdf.open(source) as original:
        assert copy[2].rotation == 90 and "premises" in copy[2].get_text()
        assert copy[1].search_for("помещение")
        # the words are invisible: every page looks exactly as the scan did
        assert all(copy[n].get_pixmap(dpi=40).samples == original[n].get_pixmap(dpi=40).samples for n in range(3))
    assert source.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["copy.pdf", "lease.pdf"]
    # pdfdesk itself reads the copy's layer as a scan's OCR layer, not as hidden text
    details = call_tool("pdf_extract_text", {"path": str(tmp_path / "copy.pdf")}).details
    assert details["ocr_layer_pages"] == "1-3" and "hidden_text" not in details


def test_a_document_never_indexed_is_recognised_now_and_the_work_is_kept(tmp_path: Path) -> None:
    scan = pymupdf.open(scanned_pdf(tmp_path / "scan.pdf", [LEASE, RUSSIAN]))
    born_digital = pymupdf.open(text_pdf(tmp_path / "text.pdf", pages=1))
    scan.insert_pdf(born_digital, from_page=0, to_page=0, start_at=1)  # page 2: a page with its own text
    source = save(scan, tmp_path / "mixed.pdf")
    target = target_of(source)
    assert stored_page(target.fingerprint, 1) is None
    report = save_searchable_copy(source, default_output(source))
    assert report.output == str(tmp_path / "mixed-searchable.pdf")
    assert report.layered == (1, 3) and report.recognised_now == (1, 3) and report.kept == (2,)
    assert "2 pages given a text layer" in report.summary()
    assert_copy_gives_back_the_record(tmp_path / "mixed-searchable.pdf", target.fingerprint, [1, 3])
    with pymupdf.open(tmp_path / "mixed-searchable.pdf") as copy, pymupdf.open(source) as original:
        assert copy[1].get_text() == original[1].get_text()  # the born-digital page is as it was
        assert copy[1].read_contents() == original[1].read_contents()
    # indexing the document later finds its scanned pages read: nothing waits for the OCR stage
    build_index(target)
    assert RecognitionLedger().waiting(target.fingerprint) == []
    found = call_tool("pdf_search", {"path": str(source), "query": "landlord"}).details
    assert [match["page"] for match in found["matches"]][:1] in ([1], [3])


def test_the_copy_is_never_the_source_whatever_it_is_called(tmp_path: Path) -> None:
    source = scanned_pdf(tmp_path / "lease.pdf", [LEASE])
    before = source.read_bytes()
    link = tmp_path / "link.pdf"
    link.symlink_to(source)
    hard = tmp_path / "hard.pdf"
    os.link(source, hard)
    for output, overwrite in ((source, False), (source, True), (link, True), (hard, True),
                              (tmp_path / "sub" / ".." / "lease.pdf", True)):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(PdfDeskError) as refused:
            save_searchable_copy(source, output, overwrite=overwrite)
        assert refused.value.code == VALIDATION_ERROR and "overwrite" in refused.value.message
    # named through the link, the source is still recognised as the output's target
    with pytest.raises(PdfDeskError) as refused:
        save_searchable_copy(link, source, overwrite=True)
    assert refused.value.code == VALIDATION_ERROR
    assert source.read_bytes() == before and link.is_symlink()
    assert stored_page(target_of(source).fingerprint, 1) is None  # refused before any work


def test_an_existing_output_is_replaced_only_when_asked(tmp_path: Path) -> None:
    source = text_pdf(tmp_path / "text.pdf", pages=2)
    output = tmp_path / "out.pdf"
    output.write_bytes(b"keep me")
    with pytest.raises(PdfDeskError) as refused:
        save_searchable_copy(source, output)
    assert refused.value.code == VALIDATION_ERROR and output.read_bytes() == b"keep me"
    report = save_searchable_copy(source, output, overwrite=True)
    assert report.kept == (1, 2) and report.layered == () and report.left_out == {}
    with pymupdf.open(output) as copy, pymupdf.open(source) as original:
        assert [p.get_text() for p in copy] == [p.get_text() for p in original]


def test_an_output_folder_that_is_missing_read_only_or_full_is_a_coded_error(tmp_path: Path, monkeypatch) -> None:
    source = text_pdf(tmp_path / "text.pdf", pages=1)
    with pytest.raises(PdfDeskError) as missing:
        save_searchable_copy(source, tmp_path / "nowhere" / "copy.pdf")
    assert missing.value.code == "file_not_found" and missing.value.hint
    locked = tmp_path / "locked"
    with read_only(locked), pytest.raises(PdfDeskError) as denied:
        save_searchable_copy(source, locked / "copy.pdf")
    assert denied.value.code == PERMISSION_DENIED and denied.value.hint
    full = tmp_path / "full"
    full.mkdir()
    with disk_full(monkeypatch, full), pytest.raises(PdfDeskError) as no_space:
        save_searchable_copy(source, full / "copy.pdf")
    assert no_space.value.code == PERMISSION_DENIED and "full" in no_space.value.message
    assert list(full.iterdir()) == []  # no temporary left behind


def test_a_cancel_during_recognition_writes_nothing(tmp_path: Path) -> None:
    source = scanned_pdf(tmp_path / "lease.pdf", [LEASE] * 9)  # more pages than are read at once
    cancel = threading.Event()

    def stop_at_first_page(stage: str, done: int, total: int) -> None:
        if stage == "recognising":
            cancel.set()

    report = save_searchable_copy(source, tmp_path / "copy.pdf", progress=stop_at_first_page, cancel=cancel)
    assert report.cancelled and report.output is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lease.pdf", "pdfdesk-home"]
    records = PageTextStore().pages(target_of(source).fingerprint, range(1, 10))
    assert records[1].source == OCR and SCANNED in {r.source for r in records.values()}  # what was read is kept


def test_an_encrypted_scan_needs_its_password_and_the_copy_says_it_is_not_encrypted(tmp_path: Path) -> None:
    plain = pymupdf.open(scanned_pdf(tmp_path / "plain.pdf", [LEASE]))
    source = save(plain, tmp_path / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256,
                  owner_pw="owner-secret", user_pw="user-secret")
    with pytest.raises(PdfDeskError) as refused:
        save_searchable_copy(source, tmp_path / "copy.pdf")
    assert refused.value.code == "password_required"
    report = save_searchable_copy(source, tmp_path / "copy.pdf", password="user-secret")
    assert report.decrypted and "not" in report.summary().splitlines()[-1]
    with pymupdf.open(tmp_path / "copy.pdf") as copy:
        assert not copy.needs_pass and "premises" in copy[0].get_text()


def test_a_scanners_unreadable_hidden_text_is_replaced_and_visible_text_kept(tmp_path: Path) -> None:
    scan = pymupdf.open(scanned_pdf(tmp_path / "scan.pdf", [LEASE, LEASE, LEASE]))
    scan[0].insert_text((72, 700), "~~ ## !! ~~ %%", fontsize=11, render_mode=3)   # a failed OCR layer
    scan[1].insert_text((500, 820), "~#", fontsize=9)                              # a visible stamp
    scan[2].insert_text((72, 700), "~~ ## !! ~~ %%", fontsize=11, render_mode=3)   # ... under a note
    scan[2].add_text_annot((300, 300), "checked by the auditor")
    source = save(scan, tmp_path / "garbled.pdf")
    with pymupdf.open(source) as original:
        shown = original[0].get_pixmap(dpi=50).samples
    report = save_searchable_copy(source, tmp_path / "copy.pdf")
    assert report.layered == (1, 2, 3) and report.replaced_layers == (1,)
    with pymupdf.open(tmp_path / "copy.pdf") as copy:
        assert "~~" not in copy[0].get_text() and "premises" in copy[0].get_text()
        assert copy[0].get_pixmap(dpi=50).samples == shown  # the page looks as it did
        assert "~#" in copy[1].get_text()
        # removing the old layer would take the note with it: the page keeps both, and gains the words
        assert [a.info["content"] for a in copy[2].annots()] == ["checked by the auditor"]
        assert "premises" in copy[2].get_text()
