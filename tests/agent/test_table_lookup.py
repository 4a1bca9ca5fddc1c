"""Matching a question's words to a table's row and column: table records built by hand, so each
rule of the matching is checked on its own (the PDFs and the answerer are in test_offline_tables)."""

from __future__ import annotations

from typing import Any

import pytest

from pdfdesk.agent.table_lookup import CellAnswer, find_cells, match_label, words


def record(rows: list[list[str | None]], header_rows: int = 1, page: int = 1,
           spans: dict[tuple[int, int], tuple[int, int]] | None = None,
           parts: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A table record as pdf_tables gives it: None marks a slot a merged cell covers."""
    spans = spans or {}
    cells = []
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            if text is None:
                continue
            cell: dict[str, Any] = {"row": r, "col": c, "text": text,
                                    "bbox": [100.0 * c, 20.0 * r, 100.0 * c + 90, 20.0 * r + 18]}
            rowspan, colspan = spans.get((r, c), (1, 1))
            if rowspan > 1:
                cell["rowspan"] = rowspan
            if colspan > 1:
                cell["colspan"] = colspan
            cells.append(cell)
    result: dict[str, Any] = {"page": page, "pages": [page], "rows": len(rows), "cols": len(rows[0]),
                              "header_rows": header_rows, "cells": cells, "continued": False}
    if parts:
        result["parts"] = parts
        result["pages"] = [p["page"] for p in parts]
        result["continued"] = True
    return result


FEES = record([
    ["Code", "Service", "Status 1", "Status 4"],
    ["3010", "Xray 15", "11.10", "44.40"],
    ["3011", "Xray 5", "12.10", "48.30"],
    ["3012", "Xray 5 bilateral", "21.60", "77.20"],
    ["3013", "Xray 50", "13.30", "51.90"],
])


def one(question: str, *tables: dict[str, Any]) -> CellAnswer:
    found = find_cells(question, [("fees.pdf", t) for t in tables])
    assert len(found) == 1, found
    return found[0]


def test_words_fold_case_diacritics_and_punctuation():
    assert words("RÖNTGEN-Thorax, X-ray; Status4 (EUR) 12,50 Ёлка") == [
        "rontgen", "thorax", "xray", "status", "4", "eur", "12.50", "елка"]
    assert words("x-ray") == words("X ray".replace(" ", "")) == ["xray"]


def test_the_issue_question_takes_the_row_it_names_not_a_lookalike():
    cell = one("What is the Status 4 amount for Xray 5?", FEES)
    assert (cell.value, cell.row_label, cell.column_label, cell.page) == ("48.30", "Xray 5", "Status 4", 1)
    assert cell.rects[0] == (300.0, 40.0, 390.0, 58.0)  # the value's cell first, then the row key's
    assert cell.rects[1] == (100.0, 40.0, 190.0, 58.0)


@pytest.mark.parametrize(("question", "value", "row"), [
    ("status 4 for xray 15", "44.40", "Xray 15"),
    ("Status 4 for Xray 50?", "51.90", "Xray 50"),
    ("Status 1 for the Xray 5 bilateral", "21.60", "Xray 5 bilateral"),   # the more specific row
    ("STATUS-1 ... x-ray 5 (bilateral)", "21.60", "Xray 5 bilateral"),
    ("status 1, XRAY 5!", "12.10", "Xray 5"),                               # not "Xray 5 bilateral"
])
def test_the_most_specific_row_wins_and_numbers_must_agree(question, value, row):
    cell = one(question, FEES)
    assert (cell.value, cell.row_label) == (value, row)


def test_a_number_must_stand_with_its_words():
    question = words("What is the Status 4 amount for Xray 5?")
    assert match_label([words("Xray 15")], question) is None
    assert match_label([words("Status 5")], question) is None   # "5" belongs to "Xray 5"
    assert match_label([words("Status 1")], question) is None
    found = match_label([words("Xray 5")], question)
    assert found is not None and found.positions == frozenset({7, 8})
    assert match_label([words("of the")], words("the status of the fee")) is None  # stopwords alone


def test_row_and_column_are_both_required():
    assert find_cells("What is the amount for Xray 5?", [("f.pdf", FEES)]) == []   # no column named
    assert find_cells("What is the Status 4 amount for MRI?", [("f.pdf", FEES)]) == []  # no row named
    assert find_cells("Status 4 and Status 1", [("f.pdf", FEES)]) == []


def test_a_merged_heading_is_part_of_each_column_under_it():
    table = record([
        ["Code", "Service", "Rates", None],
        [None, None, "Status 1", "Status 4"],
        ["3010", "Xray 15", "11.10", "44.40"],
        ["3011", "Xray 5", "12.10", "48.30"],
    ], header_rows=2, spans={(0, 0): (2, 1), (0, 1): (2, 1), (0, 2): (1, 2)})
    cell = one("What is the Status 4 amount for Xray 5?", table)
    assert (cell.value, cell.column_label) == ("48.30", "Rates Status 4")
    assert one("rates status 1 xray 15", table).value == "11.10"


def test_a_row_key_in_any_column_and_a_group_merged_over_rows():
    keyed_last = record([["Status 1", "Status 4", "Service"], ["11.10", "44.40", "Xray 15"],
                         ["12.10", "48.30", "Xray 5"]])
    assert one("Status 4 for Xray 5", keyed_last).value == "48.30"
    grouped = record([
        ["Service", "Size", "Status 4"],
        ["Xray", "15", "44.40"],
        [None, "5", "48.30"],
        ["CT", "5", "310.00"],
    ], spans={(1, 0): (2, 1)})
    cell = one("Status 4 for Xray 5", grouped)
    assert (cell.value, cell.row_label) == ("48.30", "Xray 5")
    assert find_cells("Status 4 for Xray 7", [("f.pdf", grouped)]) == []  # "Xray" alone names a group


def test_a_code_names_its_row_but_an_amount_does_not():
    assert one("Status 1 for code 3012", FEES).value == "21.60"
    assert find_cells("Status 1 for 44.40", [("f.pdf", FEES)]) == []


def test_equal_matches_are_all_returned():
    twice = record([["Service", "Group", "Status 4"], ["Xray 5", "adult", "48.30"], ["Xray 5", "child", "36.70"]])
    found = find_cells("Status 4 for Xray 5", [("f.pdf", twice)])
    assert [(c.value, c.row_cells) for c in found] == [("48.30", ("Xray 5", "adult", "48.30")),
                                                       ("36.70", ("Xray 5", "child", "36.70"))]
    assert one("Status 4 for Xray 5 child", twice).value == "36.70"
    # the same row and column in two tables is ambiguous too
    other = record([["Service", "Status 4"], ["Xray 5", "50.00"]], page=3)
    assert {(c.value, c.page) for c in find_cells("Status 4 for Xray 5", [("f.pdf", FEES), ("f.pdf", other)])} == {
        ("48.30", 1), ("50.00", 3)}


def test_the_best_table_wins_over_a_weaker_match_elsewhere():
    loose = record([["Service", "Amount"], ["Xray 5", "99.99"]], page=2)
    cell = one("What is the Status 4 amount for Xray 5?", loose, FEES)
    assert (cell.value, cell.page) == ("48.30", 1)


def test_a_continued_tables_row_cites_the_page_it_stands_on():
    table = record([["Treatment", "Status 9"], ["Exercise 1", "90.05"], ["Massage 7", "408.65"]],
                   parts=[{"page": 3, "bbox": [0, 0, 1, 1], "first_row": 0, "rows": 2},
                          {"page": 4, "bbox": [0, 0, 1, 1], "first_row": 2, "rows": 1}], page=3)
    cell = one("Status 9 for Massage 7", table)
    assert (cell.value, cell.page, cell.table_page) == ("408.65", 4, 3)


def test_headings_found_without_declared_header_rows():
    bare = record([["Service", "Status 4"], ["Xray 15", "44.40"], ["Xray 5", "48.30"]], header_rows=0)
    assert one("Status 4 for Xray 5", bare).value == "48.30"
    numbers_only = record([["1", "2"], ["3", "4"]], header_rows=0)
    assert find_cells("2 for 3", [("f.pdf", numbers_only)]) == []


@pytest.mark.parametrize(("question", "header", "rows", "value"), [
    ("Wie hoch ist der Betrag nach Satz 4 für Röntgen 5?", ["Leistung", "Satz 1", "Satz 4"],
     [["Röntgen 15", "10,20", "40,80"], ["Röntgen 5", "12,40", "49,60"]], "49,60"),
    ("Quel est le montant du tarif 4 pour l'échographie 5 ?", ["Acte", "Tarif 1", "Tarif 4"],
     [["Echographie 15", "10,50", "41,00"], ["ÉCHOGRAPHIE 5", "12,70", "50,20"]], "50,20"),
    ("Какова сумма по ставке 4 для рентгена 5?", ["Услуга", "Ставка 1", "Ставка 4"],
     [["Рентген 15", "10,90", "42,30"], ["Рентген 5", "13,10", "51,40"]], "51,40"),
])
def test_other_languages(question, header, rows, value):
    assert one(question, record([header, *rows])).value == value
