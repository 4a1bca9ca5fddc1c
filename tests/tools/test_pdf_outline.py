from pdfdesk.tools import call_tool


def test_outline_entries(outline_pdf):
    result = call_tool("pdf_outline", {"path": str(outline_pdf)})
    assert not result.is_error
    entries = result.details["entries"]
    assert [(e["level"], e["title"], e["page"]) for e in entries] == [
        (1, "Introduction", 1), (2, "Background", 2), (2, "Scope", 3), (1, "Methods", 4),
        (2, "Data", 5), (3, "Sources", 6), (1, "Results", 8), (1, "Appendix", 10),
    ]
    assert result.details["count"] == 8
    assert "    Sources — p. 6" in result.text


def test_no_outline_is_not_an_error(text_pdf):
    result = call_tool("pdf_outline", {"path": str(text_pdf)})
    assert not result.is_error and result.details["entries"] == []
    assert "has no outline" in result.text


def test_outline_of_encrypted_document(aes_pdf):
    assert call_tool("pdf_outline", {"path": str(aes_pdf), "password": "owner-secret"}).details["count"] == 0
