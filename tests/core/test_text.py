"""Where quoted passages sit on a page (citations that arrive without hit rectangles)."""

import pymupdf

from pdfdesk.core.text import passage_rects


def make_page() -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Payment is due within thirty days of the invoice date.", fontsize=11)
    page.insert_text((72, 300), "Termination requires ninety days of written notice.", fontsize=11)
    return page


def test_a_quoted_passage_is_found_where_it_stands():
    page = make_page()
    rects = passage_rects(page, "Termination requires ninety days of written notice.")
    assert rects and all(280 < y0 < 300 for _x0, y0, _x1, _y1 in rects)


def test_a_reflowed_or_cut_quote_falls_back_to_its_opening_words():
    page = make_page()
    rects = passage_rects(page, "Payment   is due\nwithin thirty days, as the contract (cut here) says at length")
    assert rects and all(y0 < 110 for _x0, y0, _x1, _y1 in rects)


def test_a_passage_not_on_the_page_has_no_rectangles():
    assert passage_rects(make_page(), "Nothing like this is written here at all") == []
    assert passage_rects(make_page(), "   ") == []
