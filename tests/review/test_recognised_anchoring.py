"""Notes on scanned pages: anchored on the words OCR recognised, and found again by them after the
page is read again or the file changes. Tesseract runs for real; the expected words and boxes are
read back from the page-text record."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import VALIDATION_ERROR, PdfDeskError
from pdfdesk.review.anchoring import PageTexts, anchor_area, anchor_quote, reanchor
from pdfdesk.review.store import AnnotationStore
from pdfdesk.tools import call_tool
from pdfdesk.tools.recognised_words import recognised_words
from tests.review.conftest import replace_file
from tests.pdf_factory import scanned_pdf
from tests.review.scans import (
    harbour_scan,
    indexed,
    recognised,
    record_words,
    rerecognise_shifted,
    word_box,
)


def line_text(fingerprint: str, line: int = 0) -> str:
    """The recognised words of one line of the page, as a reader would quote them."""
    words = record_words(fingerprint)
    first = (words[0][5], line)
    return " ".join(w[4] for w in words if (w[5], w[6]) == first)


def union(boxes) -> tuple[float, ...]:
    rect = pymupdf.Rect(boxes[0])
    for box in boxes[1:]:
        rect |= pymupdf.Rect(box)
    return tuple(rect)


@pytest.fixture
def scan(tmp_path: Path) -> Path:
    return harbour_scan(tmp_path / "harbour-scan.pdf")


def test_a_quote_on_a_scanned_page_is_anchored_on_its_recognised_words(scan: Path) -> None:
    fingerprint = recognised(scan).fingerprint
    quote = "committee approved the budget"
    assert quote in " ".join(w[4] for w in record_words(fingerprint))
    with open_pdf(str(scan)) as opened:
        with pytest.raises(PdfDeskError) as missing:  # the page's own text layer has nothing to anchor on
            anchor_quote(opened.doc, 1, quote)
        assert missing.value.code == VALIDATION_ERROR
        anchor = anchor_quote(opened.doc, 1, quote, words_of=recognised_words(fingerprint))
    assert anchor.quote == quote and anchor.page == 1
    assert "harbour office" in anchor.prefix and anchor.suffix.startswith(" for")
    expected = union([word_box(fingerprint, w) for w in ("committee", "budget")])
    (rect,) = anchor.rects  # one line
    assert tuple(rect) == pytest.approx(expected, abs=0.2)


def test_an_area_on_a_scanned_page_quotes_the_recognised_words_inside(scan: Path) -> None:
    fingerprint = recognised(scan).fingerprint
    first_line = line_text(fingerprint)
    words = [w for w in record_words(fingerprint) if (w[5], w[6]) == (record_words(fingerprint)[0][5], 0)]
    x0, y0, x1, y1 = union([w[:4] for w in words])
    area = (x0 - 3, y0 - 3, x1 + 3, y1 + 3)
    with open_pdf(str(scan)) as opened:
        bare = anchor_area(opened.doc, 1, area)
        anchor = anchor_area(opened.doc, 1, area, words_of=recognised_words(fingerprint))
    assert bare.quote == ""
    assert anchor.quote == first_line and anchor.rects == (area,)


def test_a_note_is_found_again_after_the_page_is_recognised_again(scan: Path, store: AnnotationStore) -> None:
    fingerprint = recognised(scan).fingerprint
    added = call_tool("pdf_annotate", {"action": "add", "path": str(scan), "page": 1,
                                       "quote": "approved the budget", "note": "Check the figure"})
    assert not added.is_error, added.text
    note = added.details["annotation"]
    assert note["quote"] == "approved the budget" and note["rects"] and note["status"] == "anchored"
    ann = store.get(note["id"])
    rerecognise_shifted(fingerprint, 4.0, 2.5)  # a new reading: the same words, boxes a little apart
    with open_pdf(str(scan)) as opened:
        found = reanchor(PageTexts(opened.doc, recognised_words(fingerprint)), ann)
    assert found is not None and (found.page, found.quote) == (1, "approved the budget")
    (old,), (new,) = ann.rects, found.rects
    assert new[0] == pytest.approx(old[0] + 4.0, abs=0.15) and new[1] == pytest.approx(old[1] + 2.5, abs=0.15)
    assert tuple(new) == pytest.approx(union([word_box(fingerprint, w) for w in ("approved", "budget")]),
                                              abs=0.2)


def test_notes_follow_their_recognised_words_into_a_new_version_of_the_scan(scan: Path, tmp_path: Path) -> None:
    recognised(scan)
    added = call_tool("pdf_annotate", {"action": "add", "path": str(scan), "page": 1, "quote": "northern basin"})
    assert not added.is_error, added.text
    before = added.details["annotation"]
    cover = scanned_pdf(tmp_path / "cover.pdf", ["A cover sheet listing the members of the board."])

    def new_version(path: Path) -> None:  # the cover scanned in front of the page
        with pymupdf.open(cover) as first, pymupdf.open(tmp_path / "old.pdf") as old:
            merged = pymupdf.open()
            merged.insert_pdf(first)
            merged.insert_pdf(old)
            merged.save(path)

    (tmp_path / "old.pdf").write_bytes(scan.read_bytes())
    replace_file(scan, new_version)
    target = indexed(scan)

    def listed() -> dict:
        result = call_tool("pdf_annotate", {"action": "list", "path": str(scan)})
        assert not result.is_error, result.text
        (ann,) = [a for a in result.details["annotations"] if a["id"] == before["id"]]
        return ann

    # both pages wait for recognition: the note is not called orphaned meanwhile, and a new one
    # on a page not read yet says why it cannot be anchored
    assert listed()["status"] == "anchored" and listed()["page"] == 1
    waiting = call_tool("pdf_annotate", {"action": "add", "path": str(scan), "page": 2, "quote": "harbour office"})
    assert waiting.is_error and waiting.details["error"] == VALIDATION_ERROR
    assert "still being recognised" in waiting.details["message"]
    recognised(scan)
    ann = listed()
    assert (ann["page"], ann["status"], ann["quote"]) == (2, "moved", "northern basin")
    northern, basin = (word_box(target.fingerprint, w, 2) for w in ("northern", "basin"))
    # "basin." was read with its full stop: the quote covers the letters' share of its box
    letters = (basin[2] - basin[0]) * 5 / 6 if "basin." in [w[4] for w in record_words(target.fingerprint, 2)] \
        else basin[2] - basin[0]
    expected = union([northern, (basin[0], basin[1], basin[0] + letters, basin[3])])
    assert tuple(ann["rects"][0]) == pytest.approx(expected, abs=0.2)
