"""Table extraction against known cells: pdfdesk's own finder beside PyMuPDF's find_tables() with its
defaults (the baseline), both measured in the same run on the same pages.

The corpus: isolated tables, one to a page (bench/table_corpus.py: ruled, borderless, zebra,
merged cells, several-line cells, decimal-aligned, continued over two pages, a page turned by
/Rotate, a scan), and real-looking documents (bench/table_documents.py: an annual report's
statement, a paper's results table, an invoice, a log with empty cells, a wide table in a small
font and a CJK table among prose, headings, lists and footnotes, and pages of two-column prose and
of lists that hold no table), from three producers (drawn with PyMuPDF, HTML laid out by MuPDF's
Story, groff's tbl through gropdf), in a "tune" half (English, German, Chinese) and a "report"
half (French, Russian, Japanese). Only the tune half is for tuning.

Scored (bench/table_scoring.py), per style, document, producer and half:
  P / R / F1   cell adjacency relations of each true table against the found table matched to it
  exact        the whole grid right, cell for cell
  found        the share of true tables matched by a found one (box overlap)
  false        found tables that are no true table (on pages with no table, or extra ones)
  crashes      exceptions the extractor raised (the page then counts as nothing found)
The continued table is also scored whole ("continued (joined)"): pdfdesk's finder.join_continued
over both pages' tables, the baseline's two pieces put one under the other.
A scanned page goes to pdfdesk as the words Tesseract reads on it (pdfdesk.core.ocr); without
Tesseract the scanned style is left out for both and the run says so.

--check exits 1 unless, in each half: pdfdesk's F1 >= 0.95 on style "ruled" and >= 0.85 on
"borderless", its overall F1 >= the baseline's + 0.10, and it crashed on no page.

Usage: python bench/table_bench.py [--folder DIR] [--check] [--no-ocr] [--tables]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import traceback
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from bench.table_corpus import TableDoc, TableTruth, build_corpus  # noqa: E402
from bench.table_documents import build_documents  # noqa: E402
from bench.table_scoring import Box, Grid, Tally, ignored, match, score  # noqa: E402

HALVES = ("tune", "report", "both")
BASELINE, PDFDESK = "baseline", "pdfdesk"
JOINED = "continued (joined)"
NO_TABLE = "no table (pages)"
TARGETS = {"ruled": 0.95, "borderless": 0.85}
MARGIN = 0.10
WordTuple = tuple[float, float, float, float, str, int, int]
Found = tuple[Box, Grid, Any]   # box in unrotated page points, rows of cell texts, the extractor's own table
Extractor = Callable[[pymupdf.Page, int, Sequence[WordTuple] | None, str], list[Found]]


def find_tables_baseline(page: pymupdf.Page, number: int, words: Sequence[WordTuple] | None = None,
                         source: str = "text") -> list[Found]:
    """PyMuPDF's find_tables() with its defaults. It answers in the page as shown; its boxes are
    turned back into the unrotated page the truth (and pdfdesk) use. It cannot take OCR words."""
    found: list[Found] = []
    for table in page.find_tables().tables:
        rect = (pymupdf.Rect(table.bbox) * page.derotation_matrix).normalize()
        found.append(((rect.x0, rect.y0, rect.x1, rect.y1), [[cell or "" for cell in row] for row in table.extract()],
                      None))
    return found


def pdfdesk_extractor() -> Extractor | None:
    """pdfdesk.core.tables.finder.page_tables, or None where it is not there (yet)."""
    try:
        from pdfdesk.core.tables import finder
    except ImportError:
        return None

    def extract(page: pymupdf.Page, number: int, words: Sequence[WordTuple] | None, source: str) -> list[Found]:
        return [(table.bbox, table.grid(), table) for table in finder.page_tables(page, number, words, source)]
    return extract


def pdfdesk_joined(tables: list[Any], heights: dict[int, float], truth: TableTruth) -> Grid | None:
    """pdfdesk's own join over both pages' tables: the joined table that starts where the truth does."""
    from pdfdesk.core.tables import finder

    joined = finder.join_continued(tables, heights)
    candidates = [t for t in joined if t.page == truth.page]
    pairs = match([truth.bbox], [t.bbox for t in candidates])
    return candidates[pairs[0]].grid() if 0 in pairs else None


def needs_ocr(page: pymupdf.Page) -> bool:
    return not page.get_text("words") and bool(page.get_images())


def ocr_words(page: pymupdf.Page) -> list[WordTuple]:
    from pdfdesk.core.ocr import recognise_page

    return [(w.box[0], w.box[1], w.box[2], w.box[3], w.text, w.block, w.line) for w in recognise_page(page).words]


class Run:
    """The sums of one bench run: tallies per (extractor, row, half), time, crashes, notes."""

    def __init__(self, extractors: dict[str, Extractor], ocr: bool, show_tables: bool) -> None:
        self.extractors, self.ocr, self.show_tables = extractors, ocr, show_tables
        self.tallies: dict[tuple[str, str, str], Tally] = defaultdict(Tally)
        self.seconds: dict[tuple[str, str], float] = defaultdict(float)
        self.crashes: dict[tuple[str, str], int] = defaultdict(int)
        self.pages: dict[str, int] = defaultdict(int)
        self.notes: list[str] = []
        self.skipped: list[TableTruth] = []
        self.ocr_seconds = 0.0

    def tally(self, name: str, rows: list[str], half: str) -> list[Tally]:
        return [self.tallies[(name, row, h)] for row in rows for h in (half, "both")]

    def document(self, document: TableDoc) -> None:
        half = document.half or document.path.stem.split("-")[-1]
        if document.note:
            self.notes.append(f"{document.path.name}: {document.note}")
        if not document.path.exists():
            return
        truths: dict[int, list[TableTruth]] = defaultdict(list)
        for truth in document.tables:
            truths[truth.page].append(truth)
        regions: dict[int, list[Box]] = defaultdict(list)
        for number, box in document.ignore:
            regions[number].append(box)
        kept: dict[tuple[str, int], list[Found]] = {}
        matched: dict[tuple[str, int], Grid | None] = {}
        with pymupdf.open(document.path) as pdf:
            heights = {n + 1: (p.rect.height if not p.rotation % 180 else p.rect.width) for n, p in enumerate(pdf)}
            for number in range(1, len(pdf) + 1):
                page = pdf[number - 1]
                words, source = None, "text"
                if needs_ocr(page):
                    if not self.ocr:
                        self.skipped += truths[number]
                        continue
                    started = time.perf_counter()
                    words, source = ocr_words(page), "ocr"
                    self.ocr_seconds += time.perf_counter() - started
                self.pages[half] += 1
                for name, extract in self.extractors.items():
                    found = self.extract(name, extract, page, number, words if name == PDFDESK else None, source, half)
                    kept[(name, number)] = found
                    self.score_page(name, document, half, number, truths[number], regions[number], found, matched)
            for first in document.tables:
                rest = next((t for t in truths[first.page + 1] if t.style == first.style), None)
                if first.continues and rest is not None:
                    self.score_joined(document, half, first, rest, kept, matched, heights)

    def extract(self, name: str, extract: Extractor, page: pymupdf.Page, number: int,
                words: Sequence[WordTuple] | None, source: str, half: str) -> list[Found]:
        started = time.perf_counter()
        try:
            return extract(page, number, words, source)
        except Exception as exc:  # a crash is a figure of the bench, not the end of it
            self.crashes[(name, half)] += 1
            where = traceback.extract_tb(exc.__traceback__)[-1]
            self.notes.append(f"{name} crashed on page {number} ({half}): {type(exc).__name__}: {exc} "
                              f"[{Path(where.filename).name}:{where.lineno}]")
            return []
        finally:
            self.seconds[(name, half)] += time.perf_counter() - started

    def score_page(self, name: str, document: TableDoc, half: str, number: int, truths: list[TableTruth],
                   regions: list[Box], found: list[Found], matched: dict[tuple[str, int], Grid | None]) -> None:
        pairs = match([t.bbox for t in truths], [f[0] for f in found])
        for index, truth in enumerate(truths):
            grid = found[pairs[index]][1] if index in pairs else None
            matched[(name, id(truth))] = grid
            scored = score(truth.grid(), grid)
            rows = [truth.style, "all", f"in {truth.document}", f"by {truth.producer}"]
            for tally in self.tally(name, rows, half):
                tally.add(scored, grid is not None)
            if self.show_tables:
                f1 = 2 * scored[0] / (scored[1] + scored[2]) if scored[1] + scored[2] else 0.0
                print(f"  {name:9} {document.path.name}:{number:<3} {truth.style:11} {truth.document:22} "
                      f"{truth.producer:6} F1 {f1:.3f}{'  exact' if scored[3] else ''}{'' if grid else '  NOT FOUND'}")
        false = [f for i, f in enumerate(found) if i not in pairs.values() and not ignored(f[0], regions)]
        rows = ["all"]
        if number in document.empty_pages:
            kind, producer = document.empty_pages[number]
            rows += [NO_TABLE, f"in {kind}", f"by {producer}"]
            for tally in self.tally(name, [NO_TABLE], half):
                tally.tables += 1  # counted as pages here
        for tally in self.tally(name, rows, half):
            tally.false += len(false)
        if self.show_tables and false:
            print(f"  {name:9} {document.path.name}:{number:<3} {len(false)} false table(s) "
                  f"{[tuple(round(v) for v in f[0]) for f in false]}")

    def score_joined(self, document: TableDoc, half: str, first: TableTruth, rest: TableTruth,
                     kept: dict[tuple[str, int], list[Found]], matched: dict[tuple[str, int], Grid | None],
                     heights: dict[int, float]) -> None:
        whole = first.grid() + rest.grid()[first.header_rows:]
        for name in self.extractors:
            if name == PDFDESK:
                tables = [f[2] for f in kept.get((name, first.page), []) + kept.get((name, rest.page), [])]
                try:
                    grid = pdfdesk_joined(tables, heights, first)
                except Exception as exc:
                    self.crashes[(name, half)] += 1
                    self.notes.append(f"{name} crashed joining pages {first.page}-{rest.page}: {exc!r}")
                    grid = None
            else:  # no join of its own: its two pieces one under the other
                pieces = [g for g in (matched.get((name, id(first))), matched.get((name, id(rest)))) if g]
                grid = [row for piece in pieces for row in piece] or None
            for tally in self.tally(name, [JOINED], half):
                tally.add(score(whole, grid), grid is not None)


def build(folder: Path, groff: bool = True) -> list[TableDoc]:
    return [*build_corpus(folder), *build_documents(folder, groff=groff)]


def _cells(tally: Tally | None, row: str) -> str:
    if tally is None:
        return f"{'-':>7}" * 6
    if row == NO_TABLE:
        return f"{'':35}{tally.false:7d}"
    if not tally.tables:
        return f"{'':35}{tally.false:7d}"
    found = tally.found / tally.tables if tally.tables else 0.0
    exact = tally.exact / tally.tables if tally.tables else 0.0
    false = f"{tally.false:7d}" if row == "all" or row.startswith(("in ", "by ")) else f"{'':7}"
    return f"{tally.precision:7.3f}{tally.recall:7.3f}{tally.f1:7.3f}{exact:7.2f}{found:7.2f}{false}"


def report(run: Run) -> None:
    names = list(run.extractors)
    for name in names:
        parts = [f"{h} {run.seconds[(name, h)]:.2f} s, {run.crashes[(name, h)]} crashes" for h in HALVES[:2]]
        print(f"{name:9} {'; '.join(parts)}")
    print(f"pages: tune {run.pages['tune']}, report {run.pages['report']}; OCR {run.ocr_seconds:.1f} s")
    for note in run.notes:
        print(f"note: {note}")
    if run.skipped:
        print(f"note: {len(run.skipped)} table(s) on scanned pages left out (no OCR)")
    head = "".join(f"{n:>7}" for n in ("P", "R", "F1", "exact", "found", "false"))
    print(f"\n{'':42}{'  '.join(f'{name:-^42}' for name in names)}")
    print(f"{'row / half':34}{'tables':>8}{'  '.join(head for _ in names)}")
    rows = {row for _name, row, _half in run.tallies}
    styles = sorted(r for r in rows if not r.startswith(("in ", "by ")) and r not in ("all", JOINED, NO_TABLE))
    sections = [[*styles, JOINED, NO_TABLE, "all"], sorted(r for r in rows if r.startswith("in ")),
                sorted(r for r in rows if r.startswith("by "))]
    for section in sections:
        print()
        for row in section:
            for half in HALVES if section is sections[0] else HALVES[:2]:
                tallies = [run.tallies.get((name, row, half)) for name in names]
                count = next((t.tables for t in tallies if t is not None), 0)
                if count or any(t is not None and t.false for t in tallies):
                    print(f"{row + ' / ' + half:34}{count:8d}" + "  ".join(_cells(t, row) for t in tallies))


def check(run: Run) -> bool:
    """The targets, half by half; True when all are met."""
    ok = True
    for half in HALVES[:2]:
        mine = {row: run.tallies.get((PDFDESK, row, half), Tally()) for row in (*TARGETS, "all")}
        base = run.tallies.get((BASELINE, "all", half), Tally())
        tests = [(f"{row} F1 {mine[row].f1:.3f} >= {goal:.2f}", mine[row].f1 >= goal) for row, goal in TARGETS.items()]
        tests.append((f"overall F1 {mine['all'].f1:.3f} >= baseline {base.f1:.3f} + {MARGIN:.2f}",
                      mine["all"].f1 >= base.f1 + MARGIN - 1e-9))
        tests.append((f"crashes {run.crashes[(PDFDESK, half)]} == 0", run.crashes[(PDFDESK, half)] == 0))
        for text, passed in tests:
            print(f"check {half:6} {text:52} {'ok' if passed else 'FAILED'}")
            ok &= passed
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "pdfdesk-table-corpus")
    parser.add_argument("--check", action="store_true", help="exit 1 unless pdfdesk meets the targets in both halves")
    parser.add_argument("--no-ocr", action="store_true", help="leave the scanned pages out (no Tesseract run)")
    parser.add_argument("--tables", action="store_true", help="print every table's score and every false table")
    args = parser.parse_args(argv)
    extractors: dict[str, Extractor] = {BASELINE: find_tables_baseline}
    mine = pdfdesk_extractor()
    if mine is not None:
        extractors[PDFDESK] = mine
    ocr = not args.no_ocr and mine is not None and shutil.which("tesseract") is not None
    run = Run(extractors, ocr, args.tables)
    if not ocr:
        run.notes.append("no OCR (Tesseract missing or --no-ocr): the scanned style is left out for both")
    for document in build(args.folder):
        run.document(document)
    print(f"PyMuPDF {pymupdf.__version__} find_tables() with its defaults as the baseline")
    report(run)
    if mine is None:
        print("pdfdesk.core.tables.finder is not there: the baseline alone")
        return 2 if args.check else 0
    if args.check:
        return 0 if check(run) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
