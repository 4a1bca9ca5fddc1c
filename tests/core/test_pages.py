import pytest

from pdfdesk.core.errors import INVALID_PAGE, INVALID_PAGE_RANGE, PdfDeskError
from pdfdesk.core.pages import format_page_set, parse_page_spec


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("3", [3]),
        ("1-5", [1, 2, 3, 4, 5]),
        ("1,3,5-7", [1, 3, 5, 6, 7]),  # a set of pages, never the span 1..7
        (" 1 , 3 ,  5 - 7 ", [1, 3, 5, 6, 7]),
        ("3,1,3,2-3", [1, 2, 3]),  # duplicates and overlaps collapse, result is sorted
        ("7-5", [5, 6, 7]),  # reversed range names the same pages
        ("10-10", [10]),
        (4, [4]),
        ([5, 1, 5], [1, 5]),
        (None, list(range(1, 11))),
        ("", list(range(1, 11))),
        ("   ", list(range(1, 11))),
    ],
)
def test_valid_specs(spec, expected):
    assert parse_page_spec(spec, 10) == expected


@pytest.mark.parametrize("spec", ["0", "0-3", 0, [0], "11", "9-11", 11, "1,2,99"])
def test_pages_outside_the_document_are_invalid_page(spec):
    with pytest.raises(PdfDeskError) as err:
        parse_page_spec(spec, 10)
    assert err.value.code == INVALID_PAGE


def test_past_the_end_message_names_page_count():
    with pytest.raises(PdfDeskError) as err:
        parse_page_spec("12", 10)
    assert "10 pages" in err.value.message and "1-10" in err.value.hint


@pytest.mark.parametrize(
    "spec", ["a", "1-", "-3", "1--2", "1,,2", "1,", ",1", "1-2-3", "1.5", "one", "3 4", True, [1, "2"], {"a": 1}, 2.5]
)
def test_malformed_specs_are_invalid_page_range(spec):
    with pytest.raises(PdfDeskError) as err:
        parse_page_spec(spec, 10)
    assert err.value.code == INVALID_PAGE_RANGE
    assert err.value.hint


@pytest.mark.parametrize(
    ("pages", "spec"), [([1, 2, 3, 5], "1-3,5"), ([7], "7"), ([], ""), ([3, 1, 2, 2], "1-3"), ([1, 3, 5], "1,3,5")]
)
def test_format_page_set_round_trips(pages, spec):
    assert format_page_set(pages) == spec
    if spec:
        assert parse_page_spec(spec, 10) == sorted(set(pages))


def test_range_past_the_end_names_the_first_missing_page():
    with pytest.raises(PdfDeskError) as err:
        parse_page_spec("1-3", 1)
    assert err.value.message.startswith("Pages 2-3 of '1-3' are past the end: the document has 1 page.")
    assert err.value.hint == "Ask for page 1."
