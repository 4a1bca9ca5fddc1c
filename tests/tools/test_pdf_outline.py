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


def test_a_deep_outline_is_listed_to_the_depth_cap_and_says_so(tmp_path):
    import time

    from pdfdesk.core.outline import MAX_DEPTH
    from tests.core.test_outline import deep_outline

    path = deep_outline(tmp_path / "deep.pdf", 100_000)
    started = time.monotonic()
    result = call_tool("pdf_outline", {"path": str(path)})
    assert time.monotonic() - started < 10
    assert not result.is_error and result.details["count"] == MAX_DEPTH
    assert "levels deep" in result.details["outline_cut"] and "Not all of it was read" in result.text
    assert call_tool("pdf_info", {"path": str(path)}).details["outline_entries"] == MAX_DEPTH


def test_a_cyclic_outline_is_listed_once_and_says_so(tmp_path):
    from tests.core.test_outline import cyclic_outline

    result = call_tool("pdf_outline", {"path": str(cyclic_outline(tmp_path / "loop.pdf"))})
    assert [e["title"] for e in result.details["entries"]] == ["A", "B"]
    assert "loop" in result.details["outline_cut"]


def test_destination_tops_are_in_page_coordinates(outline_pdf):
    entries = call_tool("pdf_outline", {"path": str(outline_pdf)}).details["entries"]
    assert all(0 <= e["y"] <= 842 for e in entries)
