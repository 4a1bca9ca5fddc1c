"""The table bench's scoring is right on hand-made grids and pages: a perfect grid scores 1, a
transposed one low, a missing row costs recall only, a table found where there is none is false
(but not in a key-value block), matching is one to one, the baseline's boxes are turned back into
the unrotated page, and a crash counts and fails the check."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from bench.table_bench import (
    BASELINE,
    NO_TABLE,
    PDFDESK,
    Run,
    check,
    find_tables_baseline,
)
from bench.table_corpus import Cell, TableDoc, TableTruth
from bench.table_scoring import Tally, ignored, iou, match, normalised, relations, score

TRUTH = [["Service", "Code", "Fee"], ["Xray 5", "3410", "12.00"], ["Dressing", "200", "3.50"],
         ["Consultation", "1", "45.10"]]


def _f1(truth: list[list[str]], predicted: list[list[str]] | None) -> float:
    tally = Tally()
    tally.add(score(truth, predicted), predicted is not None)
    return tally.f1


def test_a_perfect_grid_scores_one_and_is_exact() -> None:
    assert score(TRUTH, TRUTH) == (17, 17, 17, True)  # 8 to the right, 9 below
    assert _f1(TRUTH, [row[:] for row in TRUTH]) == 1.0


def test_a_transposed_grid_scores_low() -> None:
    transposed = [list(column) for column in zip(*TRUTH, strict=True)]
    assert _f1(TRUTH, transposed) < 0.2
    assert not score(TRUTH, transposed)[3]


def test_a_missing_row_lowers_recall_and_keeps_precision() -> None:
    tally = Tally()
    tally.add(score(TRUTH, TRUTH[:-1]), True)
    assert tally.precision == 1.0 and tally.recall == pytest.approx(12 / 17)


def test_an_empty_column_in_front_or_a_ligature_changes_no_relation() -> None:
    shifted = [["", *row] for row in TRUTH]
    assert score(TRUTH, shifted)[0] == 17 and not score(TRUTH, shifted)[3]
    assert score([["Ziffer", "1"]], [["Zi\ufb00er", "1"]])[3]
    assert normalised(" 12\u00a0345 ") == "12 345"
    assert relations([["a", "", "b"]]) == {("a", "b", "right"): 1}


def test_matching_is_one_to_one_best_overlap_first_and_needs_a_real_overlap() -> None:
    truths = [(0, 0, 100, 50), (0, 100, 100, 150)]
    found = [(0, 0, 100, 160), (0, 98, 100, 150), (300, 300, 400, 400)]  # one swallowing both, one good
    assert match(truths, found) == {1: 1, 0: 0}
    assert match([(0, 0, 100, 100)], [(0, 0, 100, 15)]) == {}  # iou 0.15: not the same table
    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert ignored((10, 10, 50, 20), [(0, 0, 45, 40)]) and not ignored((10, 10, 50, 20), [(0, 0, 20, 40)])


def _empty_page_doc(tmp_path: Path) -> TableDoc:
    return TableDoc(tmp_path / "x.pdf", [], "tune", ignore=[(1, (300, 50, 500, 120))],
                    empty_pages={1: ("two-column prose", "drawn")})


def test_a_table_found_on_a_page_without_one_is_false_unless_it_is_a_key_value_block(tmp_path: Path) -> None:
    run = Run({PDFDESK: lambda *a: []}, ocr=False, show_tables=False)
    document = _empty_page_doc(tmp_path)
    invented = ((56, 100, 290, 400), [["left column", "right column"]] * 4, None)
    key_values = ((310, 55, 480, 110), [["Invoice no.:", "123"], ["Date:", "1.2.2024"]], None)
    run.score_page(PDFDESK, document, "tune", 1, [], [document.ignore[0][1]],
                   [invented, key_values], {})
    for half in ("tune", "both"):
        assert run.tallies[(PDFDESK, "all", half)].false == 1
        assert run.tallies[(PDFDESK, NO_TABLE, half)].false == 1
        assert run.tallies[(PDFDESK, "in two-column prose", half)].false == 1
    assert run.tallies[(PDFDESK, NO_TABLE, "tune")].tables == 1  # the page counted


def test_a_second_table_beside_the_true_one_is_false_and_the_true_one_scores(tmp_path: Path) -> None:
    run = Run({BASELINE: lambda *a: []}, ocr=False, show_tables=False)
    truth = TableTruth(1, "ruled", 4, 3, [Cell(r, c, t) for r, row in enumerate(TRUTH) for c, t in enumerate(row)],
                       bbox=(50, 50, 300, 150))
    document = TableDoc(tmp_path / "y.pdf", [truth], "report")
    found = [((52, 48, 301, 152), TRUTH, None), ((50, 400, 300, 500), [["a", "b"], ["c", "d"]], None)]
    run.score_page(BASELINE, document, "report", 1, [truth], [], found, {})
    tally = run.tallies[(BASELINE, "ruled", "report")]
    assert (tally.f1, tally.exact, tally.found, tally.tables) == (1.0, 1, 1, 1)
    assert run.tallies[(BASELINE, "all", "report")].false == 1


def test_a_crash_is_counted_and_fails_the_check(tmp_path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Nothing tabular here at all.")
    path = tmp_path / "crash.pdf"
    doc.save(path)

    def broken(*_args: object) -> list:
        raise RuntimeError("boom")
    run = Run({BASELINE: lambda *a: [], PDFDESK: broken}, ocr=False, show_tables=False)
    run.document(TableDoc(path, [], "tune", empty_pages={1: ("two-column prose", "drawn")}))
    assert run.crashes[(PDFDESK, "tune")] == 1 and run.crashes[(BASELINE, "tune")] == 0
    assert any("boom" in note for note in run.notes)
    assert check(run) is False


def test_the_baselines_box_on_a_turned_page_comes_back_in_unrotated_points() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    for row in range(5):
        for col in range(3):
            cell = pymupdf.Rect(60 + 80 * col, 80 + 20 * row, 140 + 80 * col, 100 + 20 * row)
            page.draw_rect(cell, color=(0, 0, 0), width=0.6)
            page.insert_text((cell.x0 + 3, cell.y1 - 6), f"r{row}c{col}", fontsize=9)
    page.set_rotation(90)
    found = find_tables_baseline(page, 1)
    assert len(found) == 1
    assert iou(found[0][0], (60, 80, 300, 180)) > 0.9
