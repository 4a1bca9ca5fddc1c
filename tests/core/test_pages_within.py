"""`pages_within`: one page spec applied to documents of different lengths."""

import pytest

from pdfdesk.core.errors import INVALID_PAGE, INVALID_PAGE_RANGE, PdfDeskError
from pdfdesk.core.pages import pages_within


@pytest.mark.parametrize(
    ("spec", "count", "kept", "past"),
    [
        ("2-5", 10, [2, 3, 4, 5], ""),            # all there: the same as parse_page_spec
        ("2-5", 3, [2, 3], "4-5"),
        ("5-2", 3, [2, 3], "4-5"),                # reversed: the same pages as 2-5
        ("1,4,6-8,20", 5, [1, 4], "6-8,20"),
        ("7-9, 8-12", 6, [], "7-12"),              # overlapping spans past the end merge
        ("1-999999999", 3, [1, 2, 3], "4-999999999"),  # a huge span is never listed page by page
        (9, 4, [], "9"),
        ([2, 9, 7], 4, [2], "7,9"),
        (None, 3, [1, 2, 3], ""),
        ("", 2, [1, 2], ""),
    ],
)
def test_keeps_the_pages_a_document_has_and_names_the_rest(spec, count, kept, past):
    assert pages_within(spec, count) == (kept, past)


@pytest.mark.parametrize(("spec", "code"), [("0-3", INVALID_PAGE), ([0], INVALID_PAGE), ("99, x", INVALID_PAGE_RANGE),
                                            ("1,,2", INVALID_PAGE_RANGE), (True, INVALID_PAGE_RANGE),
                                            (2.5, INVALID_PAGE_RANGE), ([1, "2"], INVALID_PAGE_RANGE)])
def test_page_zero_and_malformed_specs_are_still_errors(spec, code):
    with pytest.raises(PdfDeskError) as err:
        pages_within(spec, 5)
    assert err.value.code == code
