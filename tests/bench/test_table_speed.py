"""The table speed bench's report has a table page every fourth page among prose, and both sides of
the comparison read it: pdf_tables through the registry and PyMuPDF on its own."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from bench.table_speed_bench import TABLE_EVERY, build_report, run_raw, run_tool, run_words


def test_the_report_mixes_prose_and_tables_and_both_sides_read_it(tmp_path: Path) -> None:
    path = build_report(tmp_path / "report.pdf", 2 * TABLE_EVERY)
    with pymupdf.open(path) as doc:
        assert len(doc) == 2 * TABLE_EVERY
        drawn = [len(page.get_drawings()) for page in doc]
    assert [n for n, lines in enumerate(drawn, 1) if lines] == [TABLE_EVERY]  # a ruled log; then a borderless table
    assert run_tool(path) >= 2
    assert run_raw(path) >= 1 and run_words(path) > 1000
    assert build_report(path, 2 * TABLE_EVERY) == path  # made once, then kept
