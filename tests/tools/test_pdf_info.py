from pdfdesk.tools import call_tool
from pdfdesk.tools.pdf_info import parse_pdf_date


def info(path, **kw):
    result = call_tool("pdf_info", {"path": str(path), **kw})
    assert not result.is_error, result.text
    return result


def test_metadata_and_structure(text_pdf):
    result = info(text_pdf)
    d = result.details
    assert d["pages"] == 3 and d["bytes"] == text_pdf.stat().st_size
    assert d["title"] == "Test Title" and d["author"] == "Ada Author" and d["subject"] == "Testing"
    assert d["created"] == "2024-01-31T12:00:00+01:00" and d["modified"] == "2025-02-03T04:05:06Z"
    assert d["pdf_version"].startswith("1.")
    assert d["encrypted"] is False and d["encryption"] is None
    assert d["page_size"]["name"] == "A4" and d["page_size"]["orientation"] == "portrait"
    assert d["pages_without_text"] == ""
    assert d["form_fields"]["count"] == 0
    assert "Pages: 3" in result.text and "Every page has a text layer" in result.text
    assert "Ada Author" in result.text and "<<<PDF_CONTENT" in result.text  # metadata is fenced


def test_outline_size(outline_pdf):
    assert info(outline_pdf).details["outline_entries"] == 8


def test_scanned_and_blank_pages(image_only_pdf):
    d = info(image_only_pdf).details
    assert d["pages_without_text"] == "2-3" and d["scanned_pages"] == "2"


def test_encryption_and_permissions(aes_pdf, rc4_pdf, owner_only_pdf):
    d = info(aes_pdf, password="user-secret").details
    assert d["encrypted"] and "256-bit AES" in d["encryption"]
    assert d["permissions"]["print"] and not d["permissions"]["copy"]
    assert "RC4" in info(rc4_pdf, password="owner-secret").details["encryption"]
    assert info(owner_only_pdf).details["encrypted"] is True


def test_form_fields(form_pdf):
    fields = info(form_pdf).details["form_fields"]
    assert fields["count"] == 3
    by_name = {f["name"]: f for f in fields["fields"]}
    assert by_name["full_name"]["value"] == "Grace Hopper" and by_name["full_name"]["type"] == "Text"
    assert by_name["agree"]["type"] == "CheckBox"


def test_repaired_file_is_reported(repairable_pdf):
    result = info(repairable_pdf)
    assert result.details["repaired"] is True and result.details["repair_warnings"]
    assert "repaired" in result.text


def test_long_document(long_pdf):
    d = info(long_pdf).details
    assert d["pages"] == 1500 and d["page_sizes_distinct"] == 1


def test_pdf_dates():
    assert parse_pdf_date("D:2023") == "2023-01-01T00:00:00"
    assert parse_pdf_date("D:20230405") == "2023-04-05T00:00:00"
    assert parse_pdf_date("D:20230405060708-05'30'") == "2023-04-05T06:07:08-05:30"
    assert parse_pdf_date("yesterday") == "yesterday"
    assert parse_pdf_date("D:00000805034056") == "D:00000805034056"  # year 0 is not a date
    assert parse_pdf_date("D:20231399") == "D:20231399"
    assert parse_pdf_date("") is None


def test_wrong_password_on_a_file_that_needs_none_is_ignored(owner_only_pdf):
    d = info(owner_only_pdf, password="not-the-owner-password").details
    assert d["pages"] == 1 and d["encrypted"]


def test_survey_is_deterministic_and_complete(long_pdf):
    first = info(long_pdf).details
    assert first["pages_without_text_count"] == 0
    assert info(long_pdf).details == first
