"""The invisible text layer: words of every script read back from the copy as they were laid, and
search finds each where its box is, whichever way the text runs and however the page is turned."""

from __future__ import annotations

import shutil
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core import glyphless_font
from pdfdesk.core.glyphless_font import GlyphlessFont, glyphless_font_bytes, glyphless_font_file
from pdfdesk.core.text_layer import lay_words, text_direction, visual_order


@dataclass(frozen=True)
class W:
    text: str
    box: tuple[float, float, float, float]
    block: int = 0
    line: int = 0


def _laid(words: list[W], rotation: int = 0, embed: bool = True, cropbox: tuple | None = None,
          width: float = 595, height: float = 842) -> pymupdf.Page:
    """A page with `words` laid on it, saved and opened again as another reader would."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    if cropbox:
        page.set_cropbox(pymupdf.Rect(cropbox))
    page.set_rotation(rotation)
    font = GlyphlessFont(doc, glyphless_font_bytes() if embed else None)
    assert lay_words(page, words, font) == len(words)
    font.finish()
    copy = pymupdf.open(stream=doc.tobytes(garbage=1, deflate=True), filetype="pdf")
    return copy[0]


def _squeezed(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


def _overlap(a: pymupdf.Rect, b: tuple[float, ...]) -> float:
    """Share of box `b` that `a` covers."""
    other = pymupdf.Rect(b)
    return abs(a & other) / abs(other)


def _found_at(page: pymupdf.Page, word: W) -> float:
    """How much of the word's box the union of search_for's hits covers (best matching hit run)."""
    hits = page.search_for(word.text)
    if not hits:
        return 0.0
    union = pymupdf.Rect(hits[0])
    for hit in hits[1:]:  # a right-to-left word comes back one letter at a time
        if _overlap(hit, word.box) > 0:
            union |= hit
    return max(_overlap(union, word.box), *(_overlap(h, word.box) for h in hits))


SCRIPTS = {
    "latin": ["Indemnification", "clause", "survives", "termination."],
    "cyrillic": ["Арендатор", "обязан", "содержать", "помещение"],
    "greek": ["Ο", "μισθωτής", "οφείλει", "να", "διατηρεί"],
    "arabic": ["يجب", "على", "المستأجر", "أن", "يحافظ"],
    "devanagari": ["किरायेदार", "को", "परिसर"],
}


def _line(texts: list[str], rtl: bool = False, y: float = 100.0, size: float = 14.0, block: int = 0) -> list[W]:
    """Words along a line at 7 pt per letter, in reading order (right to left for `rtl`)."""
    words, x = [], 60.0
    for text in texts:
        width = 7.0 * len(text)
        words.append(W(text, (x, y, x + width, y + size), block))
        x += width + 6.0
    if rtl:  # mirror the positions: the first word stands at the right
        words = [W(w.text, (600 - w.box[2], w.box[1], 600 - w.box[0], w.box[3]), block) for w in words]
    return words


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_every_script_reads_back_as_laid_and_is_found_at_its_box(script: str) -> None:
    words = _line(SCRIPTS[script], rtl=script == "arabic")
    page = _laid(words)
    assert _squeezed(page.get_text()) == _squeezed("".join(w.text for w in words))
    assert page.get_text().split() == [w.text for w in words]
    for word in words:
        assert _found_at(page, word) > 0.95, word


def test_chinese_and_japanese_words_join_without_spaces() -> None:
    words = [W("租户", (72, 100, 112, 120)), W("应", (122, 100, 136, 120)), W("保持", (146, 100, 190, 120)),
             W("ひらがな", (200, 100, 260, 120))]
    page = _laid(words)
    assert page.get_text().strip() == "租户应保持ひらがな"
    hit = page.search_for("应保持")
    assert hit and _overlap(hit[0], (122, 100, 190, 120)) > 0.9


def test_a_word_beyond_the_basic_plane_and_mixed_lines_read_back() -> None:
    words = [W("𠀀𠀁", (72, 100, 100, 114)), W("Grüße", (110, 100, 150, 114)), W("ﬁnal", (160, 100, 190, 114))]
    page = _laid(words)
    assert _squeezed(page.get_text()) == _squeezed("𠀀𠀁Grüßefinal")


@pytest.mark.parametrize(("direction", "boxes"), [
    (90, [(300, 100, 312, 140), (300, 146, 312, 170), (300, 176, 312, 210)]),   # a sheet turned clockwise
    (180, [(360, 300, 420, 312), (300, 300, 354, 312), (250, 300, 294, 312)]),  # upside down
    (270, [(300, 400, 312, 440), (300, 360, 312, 394), (300, 320, 312, 354)]),  # turned anticlockwise
])
def test_text_running_any_way_reads_in_order_and_is_found_where_it_stands(direction, boxes) -> None:
    words = [W(text, box) for text, box in zip(["tenant", "shall", "keep"], boxes, strict=True)]
    assert text_direction(words) == direction
    page = _laid(words)
    assert page.get_text().split() == ["tenant", "shall", "keep"]
    for word in words:
        assert _found_at(page, word) > 0.95


def test_boxes_are_in_the_unrotated_page_whatever_its_rotate_and_crop_box() -> None:
    words = _line(["premises", "in", "good", "repair"], y=300)
    for page in (_laid(words, rotation=90), _laid(words, rotation=270),
                 _laid(words, cropbox=(40, 50, 500, 700)), _laid(words, width=842, height=595, rotation=180)):
        assert page.get_text().split() == ["premises", "in", "good", "repair"]
        for word, found in zip(words, page.get_text("words"), strict=True):
            assert _overlap(pymupdf.Rect(found[:4]), word.box) > 0.95


def test_one_word_lines_of_a_page_turned_upright_by_its_rotate_run_up_the_page() -> None:
    tall = [W("Lease", (100, 400, 112, 440), 0, 0), W("Rent", (140, 400, 152, 432), 1, 0)]
    assert text_direction(tall, rotation=90) == 270
    assert text_direction(tall, rotation=0) == 90
    assert text_direction([W("Lease", (100, 400, 140, 412))]) == 0


def test_without_the_embedded_font_the_text_still_reads_back() -> None:
    words = _line(SCRIPTS["cyrillic"]) + _line(SCRIPTS["latin"], y=140, block=1)
    page = _laid(words, embed=False)
    assert _squeezed(page.get_text()) == _squeezed("".join(w.text for w in words))


def test_right_to_left_words_are_set_in_visual_order_with_numbers_kept() -> None:
    assert visual_order("abc") == "abc"
    assert visual_order("مرحبا") == "ابحرم"
    assert visual_order("عام2023") == "2023ماع"
    assert visual_order("שלום-123") == "123-םולש"


def test_the_font_is_found_through_tessdata_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    installed = glyphless_font_file()
    if installed is None:
        pytest.skip("Tesseract's pdf.ttf is not installed here")
    folder = tmp_path / "tessdata"
    folder.mkdir()
    shutil.copy(installed, folder / "pdf.ttf")
    monkeypatch.setenv("TESSDATA_PREFIX", str(folder))
    glyphless_font.glyphless_font_file.cache_clear()
    try:
        assert glyphless_font_file() == folder / "pdf.ttf"
        (folder / "pdf.ttf").write_bytes(b"<html>not a font</html>")  # a file of that name that is no font
        glyphless_font.glyphless_font_file.cache_clear()
        assert glyphless_font_file() != folder / "pdf.ttf"
    finally:
        glyphless_font.glyphless_font_file.cache_clear()


def test_a_page_inheriting_its_resources_and_leaving_its_matrix_scaled_keeps_its_image(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 60, 80), False)
    pixmap.clear_with(90)
    page.insert_image(page.rect, pixmap=pixmap)
    # the image's resources move up to the page tree, and its content leaves the matrix scaled
    _kind, resources = doc.xref_get_key(page.xref, "Resources")
    _kind, parent = doc.xref_get_key(page.xref, "Parent")
    doc.xref_set_key(int(parent.split()[0]), "Resources", resources)
    doc.xref_set_key(page.xref, "Resources", "null")
    name = page.read_contents().split(b"/")[1].split()[0].decode()  # the image's resource name
    page.set_contents(page.get_contents()[0])
    doc.update_stream(page.get_contents()[0], f"595 0 0 842 0 0 cm /{name} Do".encode())
    page = doc.reload_page(page)
    assert doc.xref_get_key(page.xref, "Resources") == ("null", "null") and page.get_images()
    shown = page.get_pixmap(dpi=30).samples
    words = _line(["premises", "in", "good", "repair"], y=300)
    font = GlyphlessFont(doc, glyphless_font_bytes())
    lay_words(page, words, font)
    font.finish()
    copy = pymupdf.open(stream=doc.tobytes(garbage=1), filetype="pdf")[0]
    assert copy.get_pixmap(dpi=30).samples == shown
    assert copy.get_text().split() == ["premises", "in", "good", "repair"]
    for word, found in zip(words, copy.get_text("words"), strict=True):
        assert _overlap(pymupdf.Rect(found[:4]), word.box) > 0.95
