"""How long pdf_tables takes on a 300-page report, against PyMuPDF on its own measured in the same run.

The report (made once, kept in a temp folder): mostly prose pages, some of them dense (ninety lines
of small print), some in two columns, and every fourth page a real-looking page with a table
(annual report statement, paper results, invoice, ruled log, wide table: drawn line by line,
ruled, borderless and booktabs in turn; bench/table_pages.py).

  pdf_tables  the tool through pdfdesk.tools.registry.call_tool, all pages, format markdown,
              following next_page until the whole document is done; the document cache is emptied
              before each run, so every run opens the file as a first call does
  raw         pymupdf.open + page.find_tables() + table.extract() for every page
  words       pymupdf.open + page.get_text("words") for every page: not a table finder, the floor
              under one (printed for scale, not checked)

Runs alternate (raw first, then pdf_tables first, ...) over several repetitions; the minimum and
median of each and their ratio are printed, and the peak resident memory of each, measured in a
fresh process that runs it once. --check exits 1 when the median ratio is above 1.5.

Usage: python bench/table_speed_bench.py [--reps N] [--pages N] [--folder DIR] [--check]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from bench.table_documents import Sheet, draw_page, load_fonts  # noqa: E402
from bench.table_pages import Columns, Heading, PageSpec, Para, annual_report, invoice, log, paper, wide  # noqa: E402
from bench.table_texts import PROSE, paragraph  # noqa: E402

GENERATOR = "table-speed-1"
LIMIT = 1.5
TABLE_EVERY = 4
TABLE_KINDS = (annual_report, log, wide, invoice, paper)


def build_report(path: Path, pages: int, seed: int = 5) -> Path:
    """The report, written once: prose pages (some dense, some in two columns) and a table page every fourth."""
    if path.exists():
        return path
    rng = random.Random(seed)
    fonts = load_fonts()
    doc = pymupdf.open()
    for number in range(1, pages + 1):
        language = ("en", "de", "fr", "ru")[number % 4]
        if number % TABLE_EVERY == 0:
            draw_page(doc, TABLE_KINDS[(number // TABLE_EVERY) % len(TABLE_KINDS)](rng, language), fonts)
            continue
        if number % 7 == 0:
            blocks: list = [Heading(f"{number}. {PROSE[language][0][:40]}", 12),
                            Columns([paragraph(rng, language, 6) for _ in range(8)], 9)]
        elif number % 5 == 0:  # dense small print: about ninety lines
            blocks = [Para(paragraph(rng, language, 10), 6.5) for _ in range(12)]
        else:
            blocks = [Heading(f"{number}. {PROSE[language][1][:50]}", 12),
                      *[Para(paragraph(rng, language, 5)) for _ in range(5)]]
        spec = PageSpec("prose", language, blocks)
        sheet = Sheet(doc.new_page(), fonts)
        for block in spec.blocks:
            {Heading: sheet.heading, Para: sheet.para, Columns: sheet.columns}[type(block)](block)
        sheet.finish()
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path, garbage=3, deflate=True)
    return path


def run_raw(path: Path) -> int:
    """Open, find and extract every page's tables with PyMuPDF alone; the number of tables."""
    count = 0
    with pymupdf.open(path) as doc:
        for page in doc:
            for table in page.find_tables().tables:
                table.extract()
                count += 1
    return count


def run_tool(path: Path) -> int:
    """pdf_tables on every page, as Markdown, through the registry; the number of tables."""
    from pdfdesk.core.documents import close_all
    from pdfdesk.tools.registry import call_tool

    close_all()
    count, args = 0, {"path": str(path), "format": "markdown"}
    while True:
        result = call_tool("pdf_tables", args)
        if result.is_error:
            raise RuntimeError(f"pdf_tables failed: {result.content}")
        count += int(result.details["count"])
        if not result.details.get("truncated"):
            return count
        args = {**args, "pages": f"{result.details['next_page']}-{pymupdf.open(path).page_count}"}


def run_words(path: Path) -> int:
    """Open and read every page's words, nothing more: the floor under any table finder."""
    count = 0
    with pymupdf.open(path) as doc:
        for page in doc:
            count += len(page.get_text("words"))
    return count


RUNNERS = {"raw": run_raw, "pdf_tables": run_tool, "words": run_words}


def own_peak_mb() -> float:
    """This process's peak resident memory: VmHWM, which starts afresh with the program (getrusage's
    maxrss would carry the parent's peak over fork and exec)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def peak_mb(name: str, path: Path) -> float:
    """Peak resident memory of a fresh process that runs `name` once."""
    code = (f"import json, sys; from pathlib import Path; sys.path.insert(0, {str(ROOT)!r}); "
            f"from bench.table_speed_bench import RUNNERS, own_peak_mb; RUNNERS[{name!r}](Path({str(path)!r})); "
            "print(json.dumps(own_peak_mb()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "pdfdesk-table-speed")
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--check", action="store_true", help=f"exit 1 when pdf_tables takes over {LIMIT}x raw")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    path = build_report(args.folder / f"{GENERATOR}-{args.pages}.pdf", args.pages)
    print(f"report: {path} ({args.pages} pages, {args.pages // TABLE_EVERY} with a table; "
          f"ready in {time.perf_counter() - started:.1f} s)")
    times: dict[str, list[float]] = {name: [] for name in RUNNERS}
    counts: dict[str, int] = {}
    for rep in range(args.reps):
        order = list(RUNNERS) if rep % 2 == 0 else list(reversed(RUNNERS))
        for name in order:
            started = time.perf_counter()
            counts[name] = RUNNERS[name](path)
            times[name].append(time.perf_counter() - started)
        print(f"rep {rep + 1}: " + ", ".join(f"{name} {times[name][-1]:.2f} s" for name in RUNNERS))
    summary = {name: (min(values), statistics.median(values)) for name, values in times.items()}
    for name, (low, middle) in summary.items():
        what = "words" if name == "words" else "tables"
        print(f"{name:11} min {low:6.2f} s  median {middle:6.2f} s  {what} {counts[name]}")
    ratio_min = summary["pdf_tables"][0] / summary["raw"][0]
    ratio = summary["pdf_tables"][1] / summary["raw"][1]
    print(f"pdf_tables / raw: {ratio:.2f}x median, {ratio_min:.2f}x min (limit {LIMIT}x); "
          f"pdf_tables / words: {summary['pdf_tables'][1] / summary['words'][1]:.1f}x median")
    print(f"peak RSS (a fresh process each): raw {peak_mb('raw', path):.0f} MB, "
          f"pdf_tables {peak_mb('pdf_tables', path):.0f} MB, words {peak_mb('words', path):.0f} MB; this process "
          f"{own_peak_mb():.0f} MB")
    if args.check and ratio > LIMIT:
        print(f"check FAILED: {ratio:.2f}x > {LIMIT}x")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
