import re


from pdfdesk.tools import call_tool


def extract(path, **kw):
    result = call_tool("pdf_extract_text", {"path": str(path), **kw})
    assert not result.is_error, result.text
    return result


def test_all_pages_with_markers(text_pdf, aes_pdf):
    result = extract(text_pdf)
    text = result.text
    assert "(3 pages)" in text
    assert "(1 page)" in extract(aes_pdf, password="user-secret").text
    markers = re.findall(r"--- Page (\d+) ---", text)
    assert markers == ["1", "2", "3"]
    assert text.index("Page 1 says hello") < text.index("--- Page 2 ---") < text.index("Page 2 says hello")
    d = result.details
    assert d["pages_returned"] == "1-3" and not d["truncated"] and d["next_page"] is None
    assert d["untrusted_content"] is True and "<<<PDF_CONTENT" in text


def test_page_set_not_span(text_pdf, outline_pdf):
    result = extract(outline_pdf, pages="1,3,5-7")
    assert re.findall(r"--- Page (\d+) ---", result.text) == ["1", "3", "5", "6", "7"]
    assert "page 2" not in result.text and "page 4" not in result.text
    assert result.details["pages_requested"] == "1,3,5-7"


def test_bad_page_specs(text_pdf):
    assert call_tool("pdf_extract_text", {"path": str(text_pdf), "pages": "4"}).details["error"] == "invalid_page"
    assert call_tool("pdf_extract_text", {"path": str(text_pdf), "pages": "0"}).details["error"] == "invalid_page"
    result = call_tool("pdf_extract_text", {"path": str(text_pdf), "pages": "1-x"})
    assert result.details["error"] == "invalid_page_range"


def test_truncation_names_total_and_next_page(long_pdf):
    result = extract(long_pdf, pages="1-50", max_chars=5000)
    d = result.details
    assert d["truncated"] and d["chars_returned"] <= 5000
    assert d["chars_total"] > 5000
    next_page = d["next_page"]
    assert 1 < next_page < 50
    notice = result.content[-1]["text"]
    assert f"Next page to ask for: {next_page}" in notice and f"{d['chars_total']:,}" in notice
    assert f'pages="{next_page}-50"' in notice
    # following the notice continues exactly where the first call stopped
    follow = extract(long_pdf, pages=f"{next_page}-50", max_chars=5000)
    assert re.findall(r"--- Page (\d+) ---", follow.text)[0] == str(next_page)
    # every returned page before next_page is complete
    assert d["pages_returned"] == (f"1-{next_page - 1}" if next_page > 2 else "1")


def test_default_max_chars_is_50000(long_pdf):
    d = extract(long_pdf).details
    assert d["truncated"] and 49_000 < d["chars_returned"] <= 50_000
    assert d["chars_total"] > 500_000


def test_scanned_hint(image_only_pdf):
    result = extract(image_only_pdf)
    d = result.details
    assert d["pages_without_text"] == "2-3" and d["scanned_pages"] == "2" and d["blank_pages"] == "3"
    hint = result.content[-1]["text"]
    assert "Page 2 has no text layer but shows an image (probably a scan)" in hint and "pdf_render_page" in hint
    assert "Page 3 is blank" in hint


def test_cjk_and_rtl(cjk_pdf, rtl_pdf):
    text = extract(cjk_pdf).text
    assert "中文测试" in text and "契約書" in text and "계약" in text
    rtl = extract(rtl_pdf).text
    assert "שלום" in rtl or "םולש" in rtl


def test_encrypted_with_password(aes_pdf):
    assert "marmalade" in extract(aes_pdf, password="user-secret").text


def test_repaired_file_still_extracts(truncated_pdf):
    result = extract(truncated_pdf)
    assert result.details["repaired"] and "Chapter text on page 1" in result.text


def test_ocr_reads_scanned_pages(tmp_path):
    import pymupdf

    source = pymupdf.open()
    source.new_page().insert_text((72, 100), "INVOICE NUMBER 4711", fontsize=28)
    pix = source[0].get_pixmap(dpi=200)
    scan = pymupdf.open()
    page = scan.new_page()
    page.insert_image(page.rect, stream=pix.tobytes("png"))
    path = tmp_path / "scan.pdf"
    scan.save(path)
    result = extract(path, ocr=True)
    assert "4711" in result.text and result.details["ocr_pages"] == "1"
