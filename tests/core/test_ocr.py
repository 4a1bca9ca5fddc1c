"""Recognising scanned pages with the real Tesseract: words, their boxes, orientation, script and bounds."""

from __future__ import annotations

import time
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core import ocr, ocr_languages
from tests.pdf_factory import born_digital_page, save, scanned_pdf

LEASE = ("The tenant shall keep the premises in good repair and shall not assign this lease without the "
         "prior written consent of the landlord. Rent is payable monthly in advance. ") * 3
RUSSIAN = ("Арендатор обязан содержать помещение в надлежащем состоянии и не вправе передавать договор "
           "без письменного согласия арендодателя. ") * 3


def _original_words(text: str) -> list[tuple[float, float, float, float, str]]:
    doc = pymupdf.open()
    page = born_digital_page(doc, text)
    return [w[:5] for w in page.get_text("words")]


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    box, other = pymupdf.Rect(a[:4]), pymupdf.Rect(b[:4])
    return abs(box & other) / max(abs(box | other), 1e-9)


def _boxes_match(recognition: ocr.Recognition, text: str) -> float:
    """Share of the original page's words whose box a recognised word of the same text overlaps."""
    original = _original_words(text)
    recognised: dict[str, list[tuple[float, float, float, float]]] = {}
    for word in recognition.words:
        recognised.setdefault(word.text, []).append(word.box)
    hits = sum(1 for w in original if any(_overlap(w, box) > 0.4 for box in recognised.get(w[4], [])))
    return hits / len(original)


def test_an_upright_scan_is_read_with_words_where_the_page_shows_them(tmp_path: Path) -> None:
    path = scanned_pdf(tmp_path / "lease.pdf", [LEASE])
    with pymupdf.open(path) as doc:
        page = doc[0]
        assert ocr.needs_recognition(page, page.get_text())
        recognition = ocr.recognise_page(page, ["eng"])
    assert "tenant shall keep the premises" in " ".join(recognition.text.split())
    assert recognition.confidence is not None and recognition.confidence > 85
    assert recognition.turned == 0
    assert _boxes_match(recognition, LEASE) > 0.9


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_a_sheet_fed_sideways_or_upside_down_is_turned_and_mapped_back(tmp_path: Path, degrees: int) -> None:
    path = scanned_pdf(tmp_path / "turned.pdf", [LEASE], turn={1: degrees})
    with pymupdf.open(path) as doc:
        page = doc[0]
        recognition = ocr.recognise_page(page, ["eng"])
        # every recognised word lies where the page shows ink: inside the drawn image
        image = pymupdf.Rect(page.get_image_info()[0]["bbox"])
    assert "tenant shall keep the premises" in " ".join(recognition.text.split())
    # Tesseract reads lines running up or down by itself; upside down it needs OSD's turn
    assert recognition.turned == 180 if degrees == 180 else recognition.confidence > 85
    assert all(image.contains(pymupdf.Rect(w.box)) for w in recognition.words)
    # the words run along the turned lines: a long word is tall and thin when the sheet lies sideways
    premises = next(w for w in recognition.words if w.text == "premises")
    width, height = premises.box[2] - premises.box[0], premises.box[3] - premises.box[1]
    assert (height > width) if degrees in (90, 270) else (width > height)


def test_a_page_with_a_rotate_entry_keeps_boxes_in_the_unrotated_page(tmp_path: Path) -> None:
    path = scanned_pdf(tmp_path / "rotated.pdf", [LEASE], rotate={1: 90})
    with pymupdf.open(path) as doc:
        recognition = ocr.recognise_page(doc[0], ["eng"])
    assert _boxes_match(recognition, LEASE) > 0.9  # the same space as page.get_text("words")


def test_a_cyrillic_page_is_found_by_its_script_and_read_in_russian(tmp_path: Path) -> None:
    path = scanned_pdf(tmp_path / "ru.pdf", [RUSSIAN])
    with pymupdf.open(path) as doc:
        recognition = ocr.recognise_page(doc[0], ["eng"])  # the user set English only
    assert recognition.script == "Cyrillic" and recognition.languages == ("rus", "eng")
    assert "Арендатор обязан содержать помещение" in " ".join(recognition.text.split())


def test_latin_words_on_a_cyrillic_page_stay_latin(tmp_path: Path) -> None:
    text = RUSSIAN + "Команда systemctl restart zenit-agent перезапускает службу warning-monitor. " * 2
    path = scanned_pdf(tmp_path / "ru-manual.pdf", [text])
    with pymupdf.open(path) as doc:
        recognition = ocr.recognise_page(doc[0], ["eng", "deu"])
    read = " ".join(recognition.text.split())
    assert "systemctl restart zenit-agent" in read and "warning-monitor" in read
    assert "Команда" in read


def test_a_scan_one_pixel_wide_ends_at_once_with_a_note(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=0.5, height=14_400)  # a 1 x 100,000 pixel strip, drawn at its size
    strip = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 1, 100_000), False)
    strip.clear_with(0)
    page.insert_image(page.rect, pixmap=strip)
    path = save(doc, tmp_path / "strip.pdf")
    started = time.monotonic()
    with pymupdf.open(path) as opened:
        recognition = ocr.recognise_page(opened[0], ["eng"])
    assert time.monotonic() - started < 30
    assert recognition.words == () and recognition.note


def test_a_huge_page_is_read_within_the_pixel_cap(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=14_400, height=14_400)  # 200 x 200 inches: 1.9 gigapixels at 300 dpi
    page.insert_image(pymupdf.Rect(0, 0, 200, 200), stream=pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 50, 50),
                                                                           False).tobytes("png"))
    path = save(doc, tmp_path / "huge.pdf")
    reader = ocr.PageReader(("eng",))
    try:
        with pymupdf.open(path) as opened:
            image = reader.render(opened[0])
        assert image is not None and image.width * image.height <= ocr.MAX_PIXELS
        assert max(image.width, image.height) <= ocr.MAX_SIDE
        reader.read(image)
    finally:
        reader.close()


def test_a_page_tesseract_cannot_finish_in_time_raises_rather_than_hangs(tmp_path: Path) -> None:
    path = scanned_pdf(tmp_path / "lease.pdf", [LEASE * 3], dpi=300)
    reader = ocr.PageReader(("eng",), deadline_s=0.05)
    try:
        with pymupdf.open(path) as doc:
            image = reader.render(doc[0], dpi=300)
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            reader.read(image)
        assert time.monotonic() - started < 10
    finally:
        reader.close()
    assert not any(reader.folder.glob("*")) if reader.folder.exists() else True


def test_a_page_over_its_memory_cap_raises_memory_error(tmp_path: Path) -> None:
    path = scanned_pdf(tmp_path / "lease.pdf", [LEASE])
    reader = ocr.PageReader(("eng",), memory_mb=20)  # Tesseract cannot even load its model in 20 MB
    try:
        with pymupdf.open(path) as doc:
            image = reader.render(doc[0])
        with pytest.raises((MemoryError, ocr_languages.OcrUnavailable)):
            reader.read(image)
    finally:
        reader.close()


@pytest.mark.parametrize(("text", "usable"), [
    ("", False), ("  \n ", False), ("ab", False),
    ("\ufffd\ufffd\ufffd\ufffd word", False),           # a font without a Unicode map
    ("\ue000\ue001\ue002\ue003\ue004 x", False),         # private-use codes
    (".,:;|!il' ,.;:|", False),                          # a scanner's garbage layer: strokes
    ("Invoice 4711 due 2024-01-31", True), ("Счёт 4711", True), ("請求書 4711", True),
])
def test_usable_text(text: str, usable: bool) -> None:
    assert ocr.usable_text(text) is usable


def test_a_page_with_text_and_a_photo_is_not_recognised(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = born_digital_page(doc, LEASE)
    photo = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 20, 20), False)
    page.insert_image(pymupdf.Rect(300, 600, 500, 780), pixmap=photo)
    assert not ocr.needs_recognition(page, page.get_text())


def test_the_scan_resolution_is_read_from_the_image(tmp_path: Path) -> None:
    with pymupdf.open(scanned_pdf(tmp_path / "a.pdf", ["x " * 20], dpi=100)) as doc:
        assert ocr.scan_dpi(doc[0]) == ocr.MIN_DPI == 150  # raised: a fax's letters are too small
    with pymupdf.open(scanned_pdf(tmp_path / "d.pdf", ["x " * 20], dpi=150)) as doc:
        assert ocr.scan_dpi(doc[0]) == 150
    with pymupdf.open(scanned_pdf(tmp_path / "b.pdf", ["x " * 20], dpi=250)) as doc:
        assert ocr.scan_dpi(doc[0]) == 250
    with pymupdf.open(scanned_pdf(tmp_path / "c.pdf", ["x " * 20], dpi=600)) as doc:
        assert ocr.scan_dpi(doc[0]) == ocr.MAX_DPI


@pytest.mark.parametrize(("locale_name", "languages"), [
    ("de_DE.UTF-8", ("deu", "eng")), ("en_GB.UTF-8", ("eng",)), ("C", ("eng",)), ("POSIX", ("eng",)),
    ("zh_CN.UTF-8", ("chi_sim", "eng")), ("ru_RU", ("rus", "eng")), ("", ("eng",)),
])
def test_default_languages_follow_the_locale(locale_name: str, languages: tuple[str, ...]) -> None:
    assert ocr_languages.default_languages(locale_name) == languages


def test_a_missing_language_is_named_with_its_package() -> None:
    have, note = ocr_languages.usable_languages(("eng", "xyz", "chi_tra_vert"))
    assert have == ("eng",)
    assert note is not None and "tesseract-ocr-xyz" in note and "tesseract-ocr-chi-tra-vert" in note
    assert "\n" not in note


def test_every_common_language_is_installed() -> None:
    """What scripts/bootstrap.sh brings, so a Cyrillic, Chinese or Arabic scan is read right."""
    common = {"eng", "deu", "fra", "spa", "ita", "por", "rus", "chi_sim", "jpn", "ara"}
    assert common <= ocr_languages.installed_languages()
    assert ocr_languages.has_osd()


def test_without_tesseract_a_reader_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PDFDESK_TESSERACT", str(tmp_path / "no-such-program"))
    with pytest.raises(ocr_languages.OcrUnavailable, match="apt install tesseract-ocr"):
        ocr.PageReader(("eng",))
