"""Notes follow their words from one version of a PDF to the next, or say they lost them."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import INVALID_PAGE, VALIDATION_ERROR, PdfDeskError
from pdfdesk.review.anchoring import (
    anchor_area,
    anchor_quote,
    document_path,
    normalise,
    reanchor,
    sync,
)
from pdfdesk.review.records import NewAnnotation
from pdfdesk.review.store import AnnotationStore
from tests.review.conftest import box_pdf, lines_pdf, replace_file, words_under

LEDGER = "the cobalt ledger was reconciled"
PAGES = [
    ["Opening remarks about the quarterly audit.", "Nothing of note happens here."],
    ["The auditors met on Tuesday.", f"They confirmed that {LEDGER} on time.", "Then they went home."],
    ["Closing remarks and signatures."],
]
INSERTED = ["A brand new page about something else entirely.", "Its words never mention ledgers."]


def note_on(store: AnnotationStore, path: Path, page: int, quote: str, near=()) -> str:
    """Anchor `quote` in the file as it is now and store a note there; return its id."""
    with open_pdf(str(path)) as opened:
        anchor = anchor_quote(opened.doc, page, quote, near)
        added = store.add(NewAnnotation(
            fingerprint=opened.fingerprint, path=document_path(opened), page=anchor.page, rects=anchor.rects,
            quote=anchor.quote, prefix=anchor.prefix, suffix=anchor.suffix, start=anchor.start, note="check this"))
    return added.id


def synced(store: AnnotationStore, path: Path) -> dict:
    with open_pdf(str(path)) as opened:
        return {ann.id: ann for ann in sync(store, opened)}


def covers(path: Path, page: int, rects, quote: str) -> None:
    under = words_under(path, page, rects)
    for word in quote.split():
        assert word.strip(".,") in under, f"{word!r} is not under the rects: {under!r}"


def test_a_page_inserted_before_the_note_moves_it_to_the_new_page(store, tmp_path):
    path = lines_pdf(tmp_path / "audit.pdf", PAGES)
    note = note_on(store, path, 2, LEDGER)
    replace_file(path, lambda p: lines_pdf(p, [PAGES[0], INSERTED, *PAGES[1:]]))
    ann = synced(store, path)[note]
    assert (ann.page, ann.status) == (3, "moved")
    covers(path, 3, ann.rects, LEDGER)
    with open_pdf(str(path)) as opened:
        assert ann.fingerprint == opened.fingerprint
    assert store.get(note).page == 3  # stored, not just returned


def test_a_removed_sentence_orphans_the_note_but_keeps_it_listed(store, tmp_path):
    path = lines_pdf(tmp_path / "audit.pdf", PAGES)
    note = note_on(store, path, 2, LEDGER)
    before = store.get(note)
    replace_file(path, lambda p: lines_pdf(p, [PAGES[0], ["The auditors met on Tuesday."], PAGES[2]]))
    listed = synced(store, path)
    ann = listed[note]
    assert ann.status == "orphaned"
    assert (ann.page, ann.rects, ann.quote, ann.note) == (before.page, before.rects, before.quote, "check this")
    # the old version still finds it where it was
    replace_file(path, lambda p: lines_pdf(p, PAGES))
    assert synced(store, path)[note].status == "anchored"


def test_reflowed_text_gets_new_rects_on_the_same_page(store, tmp_path):
    text = ("Clause seven. The licensee may not sublicense the software to third parties without "
            "prior written consent of the licensor, which shall not be unreasonably withheld. ") * 2
    quote = "sublicense the software to third parties without prior written consent"
    path = box_pdf(tmp_path / "licence.pdf", text, width=460)
    note = note_on(store, path, 1, quote)
    before = store.get(note)
    replace_file(path, lambda p: box_pdf(p, text, width=170))
    ann = synced(store, path)[note]
    assert (ann.page, ann.status) == (1, "anchored")
    assert ann.rects != before.rects and len(ann.rects) > len(before.rects)  # more, narrower lines
    covers(path, 1, ann.rects, quote)
    replace_file(path, lambda p: box_pdf(p, text, width=300, before=["A cover page."]))
    ann = synced(store, path)[note]
    assert (ann.page, ann.status) == (2, "moved")
    covers(path, 2, ann.rects, quote)


TWICE = ["Invoices are payable net thirty days after delivery.",
         "Credit notes are payable net thirty days after approval."]


def test_near_rects_pick_the_occurrence_the_selection_covers(tmp_path):
    path = lines_pdf(tmp_path / "twice.pdf", [TWICE])
    with open_pdf(str(path)) as opened:
        first = anchor_quote(opened.doc, 1, "net thirty days")
        second_line = opened.load_page(1).search_for("Credit notes are payable net thirty days")[0]
        second = anchor_quote(opened.doc, 1, "net thirty days", near=[tuple(second_line)])
    assert "Invoices are payable" in first.prefix
    assert "Credit notes are payable" in second.prefix and second.suffix.startswith(" after approval")
    assert second.rects[0][1] > first.rects[0][1]
    covers(path, 1, second.rects, "net thirty days")


def test_prefix_and_suffix_find_the_same_occurrence_in_the_next_version(store, tmp_path):
    path = lines_pdf(tmp_path / "twice.pdf", [TWICE])
    with open_pdf(str(path)) as opened:
        selection = opened.load_page(1).search_for("net thirty days")[1]  # what the viewer's selection covers
    note = note_on(store, path, 1, "net thirty days", near=[tuple(selection)])
    # the two sentences swap places and a page comes first: the note follows "Credit notes"
    replace_file(path, lambda p: lines_pdf(p, [INSERTED, list(reversed(TWICE))]))
    ann = synced(store, path)[note]
    assert (ann.page, ann.status) == (2, "moved")
    assert "Credit notes are payable" in ann.prefix
    with open_pdf(str(path)) as opened:
        credit = opened.load_page(2).search_for("Credit notes")[0]
    assert abs(ann.rects[0][1] - credit.y0) < 2  # on the Credit notes line, the first line now


def test_a_quote_across_a_line_break_gets_one_rect_per_line(tmp_path):
    path = lines_pdf(tmp_path / "wrap.pdf", [["the supplier shall deliver the", "goods within thirty days"]])
    with open_pdf(str(path)) as opened:
        anchor = anchor_quote(opened.doc, 1, "deliver the\ngoods  within")
    assert anchor.quote == "deliver the goods within"
    assert len(anchor.rects) == 2 and anchor.rects[1][1] > anchor.rects[0][1]
    covers(path, 1, anchor.rects, "deliver the goods within")


def test_cjk_and_arabic_quotes_are_found(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "中文测试：合同条款与付款期限", fontname="china-s", fontsize=14)
    page.insert_htmlbox(pymupdf.Rect(50, 120, 545, 300), "<p dir='rtl'>شكرا جزيرة كتاب مدرسة جديدة</p>")
    path = tmp_path / "scripts.pdf"
    doc.save(path)
    with open_pdf(str(path)) as opened:
        cjk = anchor_quote(opened.doc, 1, "合同条款")
        arabic = anchor_quote(opened.doc, 1, "كتاب مدرسة")
        spaced = anchor_quote(opened.doc, 1, "合同 条款")  # spacing differs from the page: still found
    assert cjk.quote == "合同条款" and cjk.prefix.endswith("中文测试:") and len(cjk.rects) == 1
    under = words_under(path, 1, cjk.rects)
    assert "合同条款" in under and "测试" not in under and "付款" not in under
    assert arabic.quote == "كتاب مدرسة" and arabic.rects and arabic.rects[0][1] > cjk.rects[0][1]
    assert spaced.quote == "合同条款" and spaced.rects == cjk.rects


def test_ligature_glyphs_match_plain_letters(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("cjk").buffer)  # a font with the ﬁ glyph
    page.insert_text((72, 72), "Please \ufb01le the \ufb02at fee.", fontname="F0", fontsize=12)
    path = tmp_path / "ligature.pdf"
    doc.save(path)
    raw = pymupdf.open(path)[0].get_text(flags=pymupdf.TEXT_PRESERVE_LIGATURES)
    assert "\ufb01" in raw  # the file really draws the ligature
    with open_pdf(str(path)) as opened:
        typed = anchor_quote(opened.doc, 1, "file the flat")
        pasted = anchor_quote(opened.doc, 1, "\ufb01le the \ufb02at")
    assert typed.quote == pasted.quote == "file the flat"
    assert typed.rects == pasted.rects and typed.rects
    assert normalise("\ufb01 \u00a0 x\n") == "fi x"


def test_a_quote_not_on_the_page_is_a_validation_error_with_a_hint(tmp_path):
    path = lines_pdf(tmp_path / "audit.pdf", PAGES)
    with open_pdf(str(path)) as opened:
        with pytest.raises(PdfDeskError) as missing:
            anchor_quote(opened.doc, 1, LEDGER)  # it is on page 2
        with pytest.raises(PdfDeskError) as page:
            anchor_quote(opened.doc, 9, LEDGER)
        with pytest.raises(PdfDeskError) as empty:
            anchor_quote(opened.doc, 1, "  \n ")
    assert missing.value.code == VALIDATION_ERROR and "not on page 1" in missing.value.message
    assert "exactly as it appears" in missing.value.hint
    assert page.value.code == INVALID_PAGE
    assert empty.value.code == VALIDATION_ERROR


def test_an_area_quotes_the_words_inside_and_follows_them(store, tmp_path):
    path = lines_pdf(tmp_path / "audit.pdf", PAGES)
    with open_pdf(str(path)) as opened:
        line = opened.load_page(2).search_for("They confirmed that")[0]
        area = (line.x0 - 2, line.y0 - 2, 400, line.y1 + 2)
        anchor = anchor_area(opened.doc, 2, area)
        blank = anchor_area(opened.doc, 2, (10, 700, 60, 720))
        added = store.add(NewAnnotation(opened.fingerprint, document_path(opened), 2, anchor.rects, anchor.quote,
                                        anchor.prefix, anchor.suffix, anchor.start, kind="area"))
        page_note = store.add(NewAnnotation(opened.fingerprint, document_path(opened), 3, kind="note",
                                            note="sign here"))
    assert anchor.rects == (area,) and anchor.quote.startswith("They confirmed that the cobalt")
    assert blank.quote == "" and blank.start is None
    replace_file(path, lambda p: lines_pdf(p, [PAGES[0], INSERTED, *PAGES[1:]]))
    listed = synced(store, path)
    moved = listed[added.id]
    assert (moved.page, moved.status, len(moved.rects)) == (3, "moved", 1)
    assert "They confirmed" in words_under(path, 3, moved.rects)
    kept = listed[page_note.id]  # a page note has no words to follow: it keeps its page
    assert (kept.page, kept.status) == (3, "anchored")


def test_reanchor_returns_none_for_a_page_note_past_the_end(store, tmp_path):
    path = lines_pdf(tmp_path / "audit.pdf", PAGES)
    with open_pdf(str(path)) as opened:
        ann = store.add(NewAnnotation(opened.fingerprint, str(path), 3, kind="note", note="x"))
    replace_file(path, lambda p: lines_pdf(p, PAGES[:1]))
    with open_pdf(str(path)) as opened:
        assert reanchor(opened.doc, ann) is None
        assert reanchor(opened.doc, ann.__class__(**{**ann.__dict__, "page": 1})) is not None
