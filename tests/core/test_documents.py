import shutil
from pathlib import Path

import pytest

import pdfdesk.core.documents as documents
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

    monkeypatch.setattr(documents, "open", refuse, raising=False)
    documents.close_all()
    assert open_code(text_pdf) == PERMISSION_DENIED


def test_damaged_page_inside_a_document_is_pdf_error(text_pdf):
    with open_pdf(str(text_pdf)) as opened:
        with pytest.raises(PdfDeskError) as err:
            opened.load_page(99)
    assert err.value.code == PDF_ERROR and "Page 99" in err.value.message
