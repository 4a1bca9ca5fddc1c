import shutil
from pathlib import Path

import pymupdf
import pytest

import pdfdesk.core.documents as documents
from pdfdesk.core import localfile
from pdfdesk.core.errors import (
    EMPTY_FILE, NO_PAGES, NOT_A_PDF, PASSWORD_REQUIRED, PDF_ERROR, PERMISSION_DENIED, WRONG_PASSWORD,
    PdfDeskError,
)
from pdfdesk.core.documents import open_pdf


def open_code(path: Path, password: str | None = None) -> str:
    with pytest.raises(PdfDeskError) as err, open_pdf(str(path), password):
        pass
    assert err.value.message and err.value.hint
    return err.value.code


def test_opens_and_caches(text_pdf):
    with open_pdf(str(text_pdf)) as first:
        assert first.page_count == 3 and not first.repaired
    with open_pdf(str(text_pdf)) as second:
        assert second is first  # the cached handle is reused


def test_a_changed_file_is_reopened(text_pdf, tmp_path):
    copy = tmp_path / "copy.pdf"
    shutil.copy(text_pdf, copy)
    with open_pdf(str(copy)) as first:
        fingerprint = first.fingerprint
    from tests.pdf_factory import text_pdf as make_text

    make_text(copy, pages=5)
    with open_pdf(str(copy)) as second:
        assert second.page_count == 5 and second.fingerprint != fingerprint


def test_fingerprint_follows_content_not_path(text_pdf, tmp_path):
    moved = tmp_path / "moved.pdf"
    shutil.copy(text_pdf, moved)
    with open_pdf(str(text_pdf)) as a:
        fa = a.fingerprint
    with open_pdf(str(moved)) as b:
        assert b.fingerprint == fa
        assert b.fingerprint.startswith(f"{moved.stat().st_size:x}-")


@pytest.mark.parametrize("fixture", ["aes_pdf", "rc4_pdf"])
def test_encrypted_needs_password(fixture, request):
    path = request.getfixturevalue(fixture)
    assert open_code(path) == PASSWORD_REQUIRED
    assert open_code(path, "") == PASSWORD_REQUIRED
    assert open_code(path, "nope") == WRONG_PASSWORD
    for password in ("user-secret", "owner-secret"):
        with open_pdf(str(path), password) as opened:
            assert opened.page_count == 1
            assert opened.encryption and ("AES" in opened.encryption or "RC4" in opened.encryption)
            assert "marmalade" in opened.doc.load_page(0).get_text()


def test_cache_does_not_leak_authentication(aes_pdf):
    with open_pdf(str(aes_pdf), "user-secret"):
        pass
    assert open_code(aes_pdf) == PASSWORD_REQUIRED
    assert open_code(aes_pdf, "wrong") == WRONG_PASSWORD


def test_owner_password_only_opens_without_password(owner_only_pdf):
    with open_pdf(str(owner_only_pdf)) as opened:
        assert "AES" in (opened.encryption or "")


def test_not_a_pdf(not_pdf):
    assert open_code(not_pdf) == NOT_A_PDF


def test_empty(empty_pdf):
    assert open_code(empty_pdf) == EMPTY_FILE


def test_zero_pages(zero_pages_pdf):
    assert open_code(zero_pages_pdf) == NO_PAGES


def test_garbled_is_pdf_error_with_cause(garbled_pdf):
    with pytest.raises(PdfDeskError) as err, open_pdf(str(garbled_pdf)):
        pass
    assert err.value.code == PDF_ERROR
    assert "damaged beyond repair (" in err.value.message
    assert err.value.extra["mupdf_messages"]


def test_repaired_files_say_so(repairable_pdf, truncated_pdf):
    for path in (repairable_pdf, truncated_pdf):
        with open_pdf(str(path)) as opened:
            assert opened.repaired
            assert any("repair" in w for w in opened.warnings)


def test_header_only_pdf_is_pdf_error(tmp_path):
    stub = tmp_path / "stub.pdf"
    stub.write_bytes(b"%PDF-1.7\n%%EOF\n")
    assert open_code(stub) in (PDF_ERROR, NO_PAGES)


def test_permission_denied_while_reading(text_pdf, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(localfile, "open_no_follow", refuse)
    documents.close_all()
    assert open_code(text_pdf) == PERMISSION_DENIED


# --- what is a PDF is MuPDF's call ----------------------------------------------------------------

def _one_page(words: str = "Readable words") -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), words)
    data = doc.tobytes()
    doc.close()
    return data


@pytest.mark.parametrize("prefix", [b"\xef\xbb\xbfjunk\n", b"Content-Type: application/pdf\r\n\r\n", b"x" * 2048,
                                    b"\x00" * 70_000])
def test_bytes_before_the_header_are_repaired_not_refused(tmp_path, prefix):
    """A mail header, a BOM or padding before %PDF (even past the first KiB): MuPDF reads it."""
    path = tmp_path / "prefixed.pdf"
    path.write_bytes(prefix + _one_page())
    with open_pdf(str(path)) as opened:
        assert opened.page_count == 1 and "Readable words" in opened.doc.load_page(0).get_text()
        assert opened.repaired
        assert any("%PDF header" in w for w in opened.warnings)


def test_a_pdf_without_a_header_line_is_repaired(tmp_path):
    data = _one_page()
    path = tmp_path / "headless.pdf"
    path.write_bytes(data[data.index(b"\n") + 1:])
    with open_pdf(str(path)) as opened:
        assert opened.repaired and "Readable words" in opened.doc.load_page(0).get_text()


@pytest.mark.parametrize(("data", "looks_like"), [
    (b"<!DOCTYPE html>\n<html><body><p>Your download will start shortly</p></body></html>\n", "an HTML page"),
    (b"\n  <html><head><title>Report</title></head><body>PDF 1.7 is a version</body></html>", "an HTML page"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 3000, "Word .doc"),
    (b"PK\x03\x04\x14\x00\x06\x00[Content_Types].xml word/document.xml" + b"\x00" * 200, "Word document (.docx)"),
    (b"Dear reviewer,\nthis is a plain text file with a .pdf name.\n", "a plain text file"),
])
def test_not_a_pdf_says_what_the_file_looks_like(tmp_path, data, looks_like):
    path = tmp_path / "named.pdf"
    path.write_bytes(data)
    with pytest.raises(PdfDeskError) as err, open_pdf(str(path)):
        pass
    assert err.value.code == NOT_A_PDF and looks_like in err.value.message and err.value.hint


def test_unknown_bytes_without_a_header_are_not_a_pdf(tmp_path):
    path = tmp_path / "noise.pdf"
    path.write_bytes(bytes(range(1, 256)) * 20)
    with pytest.raises(PdfDeskError) as err, open_pdf(str(path)):
        pass
    assert err.value.code == NOT_A_PDF and "no %PDF header" in err.value.message


def test_damage_after_a_header_stays_pdf_error(tmp_path):
    """Bytes MuPDF cannot open but that hold %PDF are a damaged PDF, not something else."""
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"some text first\n%PDF-1.7\n" + b"garbage " * 300)
    assert open_code(path) == PDF_ERROR


def test_damaged_page_inside_a_document_is_pdf_error(text_pdf):
    with open_pdf(str(text_pdf)) as opened, pytest.raises(PdfDeskError) as err:
        opened.load_page(99)
    assert err.value.code == PDF_ERROR and "Page 99" in err.value.message
