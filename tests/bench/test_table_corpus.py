"""The table benchmark's ground truth says what its pages show, and its scoring can tell right from wrong."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from bench.table_bench import normalised, relations, score
from bench.table_corpus import build_corpus


def test_every_true_cell_is_on_its_page_and_the_scan_has_no_text(tmp_path: Path) -> None:
    documents = build_corpus(tmp_path)
    assert {d.path.name for d in documents} == {"tables-tune.pdf", "tables-report.pdf"}
    for document in documents:
        with pymupdf.open(document.path) as doc:
            for truth in document.tables:
                page = doc[truth.page - 1]
                shown = " ".join(page.get_text().split())
                if truth.style == "scanned":
                    assert shown == ""
                    continue
                for cell in truth.cells:
                    assert normalised(cell.text) in normalised(shown), (truth.style, cell.text)


def test_scoring_rewards_the_truth_and_punishes_a_shifted_or_transposed_grid() -> None:
    truth = [["Service", "Fee"], ["Xray 5", "12.00"], ["Dressing", "3.50"]]
    assert score(truth, truth) == (7, 7, 7, True)  # 3 to the right, 4 below
    transposed = [list(column) for column in zip(*truth, strict=True)]
    right, _got, wanted, exact = score(truth, transposed)
    assert right == 0 and wanted == 7 and not exact
    shifted = [["", *row] for row in truth]  # an empty column found in front changes no relation
    assert score(truth, shifted)[0] == 7 and not score(truth, shifted)[3]
    assert score([["Ziffer", "1"]], [["Zi\ufb00er", "1"]])[3]  # a producer's ligature is the same text
    assert relations([["a", "", "b"]]) == {("a", "b", "right"): 1}
