import base64
import math
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.tools import call_tool


def render(path, **kw):
    result = call_tool("pdf_render_page", {"path": str(path), **kw})
    assert not result.is_error, result.text
    return result


def test_renders_png_into_app_data(text_pdf, pdfdesk_home):
    result = render(text_pdf, page=2)
    d = result.details
    png = Path(d["path"])
    assert png.parent == pdfdesk_home / "pdf-renders" and png.suffix == ".png"
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG") and d["bytes"] == len(data)
    assert d["dpi"] == 150 and d["page"] == 2
    pix = pymupdf.Pixmap(data)
    assert (pix.width, pix.height) == (d["width"], d["height"]) == (1240, 1755)  # A4 at 150 dpi, rounded up
    image = result.images[0]
    assert image["mimeType"] == "image/png" and base64.b64decode(image["data"]) == data


def test_page_content_is_drawn(text_pdf):
    data = Path(render(text_pdf, page=1, dpi=72).details["path"]).read_bytes()
    samples = pymupdf.Pixmap(data).samples
    dark = sum(1 for i in range(0, len(samples), 3) if samples[i] < 100)
    assert dark > 200  # text pixels, not a blank page


@pytest.mark.parametrize(("asked", "used"), [(10, 72), (72, 72), (100.4, 100), (300, 300), (1200, 300)])
def test_dpi_is_clamped(text_pdf, asked, used):
    d = render(text_pdf, page=1, dpi=asked).details
    assert d["dpi"] == used and d["dpi_clamped"] == (asked != used)
    assert d["width"] == math.ceil(595 * used / 72)  # MuPDF rounds pixel sizes up


def test_page_as_string_and_errors(text_pdf):
    assert render(text_pdf, page="3").details["page"] == 3
    assert call_tool("pdf_render_page", {"path": str(text_pdf), "page": 4}).details["error"] == "invalid_page"
    assert call_tool("pdf_render_page", {"path": str(text_pdf), "page": 0}).details["error"] == "invalid_page"
    assert call_tool("pdf_render_page", {"path": str(text_pdf), "page": "1-2"}).details["error"] == "invalid_page_range"


def test_huge_page_stays_within_pixel_budget(tmp_path):
    doc = pymupdf.open()
    doc.new_page(width=14400, height=14400).insert_text((72, 72), "huge")  # 200 x 200 inches
    path = tmp_path / "huge.pdf"
    doc.save(path)
    d = render(path, page=1, dpi=300).details
    assert d["width"] * d["height"] <= 40_000_000
    assert d["effective_dpi"] < 300 and "pixel budget" in call_tool(
        "pdf_render_page", {"path": str(path), "page": 1, "dpi": 300}).text


def test_scanned_page_renders(image_only_pdf):
    assert render(image_only_pdf, page=2, dpi=72).details["width"] == 595
