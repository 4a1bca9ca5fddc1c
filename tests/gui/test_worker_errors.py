"""Background jobs blame the document only for what MuPDF raised; anything else names its cause."""

from __future__ import annotations

import pymupdf
import pytest

from pdfdesk.core.errors import FILE_NOT_FOUND, INTERNAL_ERROR, PDF_ERROR, PdfDeskError
from pdfdesk.gui.workers import error_details


def _raised(func):
    try:
        func()
    except BaseException as exc:  # the exception is what the test looks at
        return exc
    raise AssertionError("did not raise")


@pytest.mark.parametrize(("func", "cause"), [
    (lambda: int("seven"), "ValueError"),
    (lambda: (_ for _ in ()).throw(RuntimeError("index closed")), "RuntimeError"),
    (lambda: {}["missing"], "KeyError"),
])
def test_pdfdesk_failures_are_internal_errors_naming_the_cause(func, cause):
    details = error_details(_raised(func))
    assert details["error"] == INTERNAL_ERROR and details["message"].startswith(f"{cause}: ")
    assert "MuPDF" not in details["message"] and details["hint"]


def test_os_errors_name_their_class_and_hint_at_the_file_system(tmp_path):
    details = error_details(_raised(lambda: (tmp_path / "missing.txt").read_bytes()))
    assert details["error"] == INTERNAL_ERROR and details["message"].startswith("FileNotFoundError: ")
    assert "file or folder" in details["hint"]


@pytest.mark.parametrize("func", [
    lambda: pymupdf.open(stream=b"%PDF-1.7 nothing else", filetype="pdf"),
    lambda: pymupdf.mupdf.fz_open_document("/nonexistent/for-the-test.pdf"),
])
def test_mupdf_failures_are_pdf_errors(func):
    details = error_details(_raised(func))
    assert details["error"] == PDF_ERROR and details["message"].startswith("MuPDF could not process the document: ")
    assert "code=" not in details["message"]


def test_coded_errors_pass_through():
    details = error_details(PdfDeskError(FILE_NOT_FOUND, "No file at x.", "Check the path."))
    assert details == {"error": FILE_NOT_FOUND, "message": "No file at x.", "hint": "Check the path."}
