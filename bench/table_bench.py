"""Table extraction against known cells (bench/table_corpus.py), with PyMuPDF's find_tables() with
its defaults as the baseline measured in the same run.

For every table of the corpus (ruled, borderless, zebra-striped, merged cells, several-line cells,
decimal-aligned numbers, continued over two pages, a page turned by /Rotate, a scan; drawn line by
line and laid out from HTML; English, German, French and Russian; a "tune" and a "report"
document) the extractor's table on that page that overlaps it most is scored:
  cell P / R / F1  over the table's adjacency relations (each non-empty cell with its nearest
                   non-empty neighbour to the right and below, texts with whitespace collapsed, NFKC):
                   the usual measure of table structure, indifferent to an extra empty row
  exact            the whole grid equal, cell for cell
  found            the share of tables the extractor found at all
printed by style and half. The targets that pdfdesk's own extraction must meet against this
baseline are cell F1 >= 0.95 on ruled and >= 0.85 on borderless tables, and >= baseline + 0.10
overall; this script prints the baseline they are measured against.

Usage: python bench/table_bench.py [--folder DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from bench.table_corpus import TableTruth, build_corpus  # noqa: E402

Grid = list[list[str]]


def normalised(text: str | None) -> str:
    """Whitespace collapsed, and NFKC: a producer that sets "ff" as one ligature glyph says the same."""
    return unicodedata.normalize("NFKC", " ".join((text or "").split()))


def relations(grid: Grid) -> Counter[tuple[str, str, str]]:
    """Each non-empty cell with its nearest non-empty neighbour to the right and below."""
    found: Counter[tuple[str, str, str]] = Counter()
    cells = [[normalised(text) for text in row] for row in grid]
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            if not text:
                continue
            right = next((other for other in row[c + 1:] if other), None)
            if right is not None:
                found[(text, right, "right")] += 1
            below = next((cells[b][c] for b in range(r + 1, len(cells)) if c < len(cells[b]) and cells[b][c]), None)
            if below is not None:
                found[(text, below, "below")] += 1
    return found


def score(truth: Grid, predicted: Grid | None) -> tuple[int, int, int, bool]:
    """(relations right, relations predicted, relations true, exact grid)."""
    wanted = relations(truth)
    got = relations(predicted) if predicted is not None else Counter()
    right = sum((wanted & got).values())
    exact = predicted is not None and [[normalised(t) for t in row] for row in predicted] == \
        [[normalised(t) for t in row] for row in truth]
    return right, sum(got.values()), sum(wanted.values()), exact


def find_tables_baseline(page: pymupdf.Page) -> list[tuple[pymupdf.Rect, Grid]]:
    """PyMuPDF's find_tables() with its defaults: each table's box and its rows of cell texts."""
    return [(pymupdf.Rect(table.bbox), [[cell or "" for cell in row] for row in table.extract()])
            for table in page.find_tables().tables]


def best_match(truth: TableTruth, found: list[tuple[pymupdf.Rect, Grid]], page: pymupdf.Page) -> Grid | None:
    """The found table overlapping the true one most. The truth is drawn in the unrotated page;
    find_tables() answers in the page as shown."""
    box = pymupdf.Rect(truth.bbox) * page.rotation_matrix
    best, overlap = None, 0.0
    for rect, grid in found:
        shared = abs(rect & box) / max(abs(rect | box), 1e-9) if not box.is_empty else 1.0
        if shared > overlap:
            best, overlap = grid, shared
    return best if overlap > 0.2 else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "pdfdesk-table-corpus")
    args = parser.parse_args(argv)
    documents = build_corpus(args.folder)
    # (style, half) -> relations right, predicted, true; exact grids; tables found; tables
    totals: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    seconds = 0.0
    pages = 0
    for document in documents:
        half = document.path.stem.split("-")[-1]
        with pymupdf.open(document.path) as doc:
            by_page: dict[int, list[TableTruth]] = defaultdict(list)
            for truth in document.tables:
                by_page[truth.page].append(truth)
            for number, truths in by_page.items():
                page = doc[number - 1]
                started = time.perf_counter()
                found = find_tables_baseline(page)
                seconds += time.perf_counter() - started
                pages += 1
                for truth in truths:
                    predicted = best_match(truth, found, page)
                    right, got, wanted, exact = score(truth.grid(), predicted)
                    for key in ((truth.style, half), ("all", half), (truth.style, "both"), ("all", "both")):
                        cell = totals[key]
                        cell[0] += right
                        cell[1] += got
                        cell[2] += wanted
                        cell[3] += exact
                        cell[4] += predicted is not None
                        cell[5] += 1
    print(f"PyMuPDF {pymupdf.__version__} find_tables() with its defaults: {pages} pages in {seconds:.2f} s")
    print(f"\n{'style / half':24}{'P':>7}{'R':>7}{'F1':>7}{'exact':>8}{'found':>8}{'tables':>8}")
    styles = [*sorted({style for style, _half in totals if style != "all"}), "all"]
    for style in styles:
        for half in ("tune", "report", "both"):
            right, got, wanted, exact, found, count = totals[(style, half)]
            if not count:
                continue
            precision = right / got if got else 0.0
            recall = right / wanted if wanted else 0.0
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
            print(f"{style + ' / ' + half:24}{precision:7.3f}{recall:7.3f}{f1:7.3f}{exact / count:8.2f}"
                  f"{found / count:8.2f}{count:8d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
