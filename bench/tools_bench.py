"""pdfdesk's tool layer next to raw PyMuPDF, measured in the same run (DESIGN.md "Budgets").

For a generated 1,000-page document (and any PDFs named on the command line) it prints:
  extract pages/s    raw:     page.get_text() for every page of a pymupdf.Document opened beforehand
                     pdfdesk: call_tool("pdf_extract_text", {"path", "max_chars": 10_000_000}), i.e.
                              argument validation, path resolution/stat, cache lookup, page loading,
                              text with pdfdesk's flags, page markers, assembly and fencing
  render ms/page     raw:     page.get_pixmap(dpi=dpi).tobytes("png") for each sampled page
                     pdfdesk: call_tool("pdf_render_page", {"path", "page", "dpi"}) for each sampled
                              page, which also writes the PNG under PDFDESK_HOME and base64-encodes it
Both sides are timed warm: the raw Document is opened, and pdfdesk's document cache is filled (and
the file fingerprint computed) by one untimed warm-up call per tool, before any timing. Opening the
file is therefore not timed on either side. Runs are interleaved (raw, pdfdesk, raw, pdfdesk ...)
so machine noise hits both, and the best of --repeat runs is kept for each side.
Targets: extract ratio pdfdesk/raw >= 0.9; render ratio pdfdesk/raw <= 1.2.

Usage: python bench/tools_bench.py [--pages-sample N] [--repeat N] [--dpi N] [--check] [PDF ...]
Exit status is 0 (a measurement, not a test) unless --check is given and a target is missed.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# Before importing pdfdesk: renders and config go to a throwaway folder, not the user's.
os.environ["PDFDESK_HOME"] = tempfile.mkdtemp(prefix="pdfdesk-tools-bench-")

import pymupdf  # noqa: E402

from pdfdesk.core.documents import close_all  # noqa: E402
from pdfdesk.tools import call_tool  # noqa: E402

EXTRACT_MIN_RATIO = 0.9
RENDER_MAX_RATIO = 1.2
GENERATED_PAGES = 1000

WORDS = ("the review of each supplier agreement found that delivery terms were often vague while payment "
         "schedules and invoice dates drifted across quarters; auditors noted warranty clauses, liability "
         "caps, indemnity carve-outs and termination notices that conflicted with the master policy. "
         "committee members asked whether regional offices had approved the amendments, how revenue "
         "forecasts would absorb penalty interest, and which contractor records were missing signatures. "
         "insurance certificates expired before renewal, software licences exceeded the seats purchased, "
         "and service availability fell below the agreed level during maintenance windows in autumn").split()
HEADINGS = ("Findings", "Background", "Scope of review", "Financial exposure", "Contract terms", "Open questions",
            "Recommendations", "Appendix notes", "Risk assessment", "Management response")


@dataclass
class Result:
    """One document's best-of figures; None where the tool returned an error."""

    name: str
    pages: int
    sampled: int
    raw_extract_pps: float
    ours_extract_pps: float | None
    raw_render_ms: float
    ours_render_ms: float | None

    @property
    def extract_ratio(self) -> float | None:
        return None if self.ours_extract_pps is None else self.ours_extract_pps / self.raw_extract_pps

    @property
    def render_ratio(self) -> float | None:
        return None if self.ours_render_ms is None else self.ours_render_ms / self.raw_render_ms


def _sentence(rng: random.Random) -> str:
    words = rng.choices(WORDS, k=rng.randint(9, 24))
    if rng.random() < 0.3:
        words.insert(rng.randint(1, len(words) - 1), f"({rng.randint(2, 97)}%)")
    if rng.random() < 0.2:
        words.insert(rng.randint(1, len(words) - 1), rng.choice(("however,", "in 2023,", "by contrast,", "notably,")))
    text = " ".join(words).rstrip(";,.")
    return text[0].upper() + text[1:] + ("?" if rng.random() < 0.1 else ".")


def make_document(path: Path, pages: int, seed: int = 1) -> Path:
    """Realistic text pages: a heading, 3-5 paragraphs (~2,500-3,500 chars) in two fonts, a footer."""
    rng = random.Random(seed)
    doc = pymupdf.open()
    for number in range(1, pages + 1):
        page = doc.new_page()  # A4
        page.insert_text((72, 70), f"{number}. {rng.choice(HEADINGS)}", fontname="hebo", fontsize=15)
        target = rng.randint(2500, 3400)
        paragraphs: list[str] = []
        while sum(len(p) for p in paragraphs) < target:
            count = rng.randint(3, 7)
            paragraphs.append(" ".join(_sentence(rng) for _ in range(count)))
        font = "tiro" if number % 3 else "helv"
        spare = page.insert_textbox(pymupdf.Rect(72, 90, 523, 790), "\n\n".join(paragraphs),
                                    fontname=font, fontsize=9.5, align=pymupdf.TEXT_ALIGN_JUSTIFY)
        if spare < 0:  # overflow would silently drop the whole box: shrink the text instead
            page.insert_textbox(pymupdf.Rect(72, 90, 523, 790), "\n\n".join(paragraphs[:-1]),
                                fontname=font, fontsize=9.5, align=pymupdf.TEXT_ALIGN_JUSTIFY)
        page.insert_text((280, 815), f"- {number} -", fontname="helv", fontsize=8)
    doc.save(path, garbage=1, deflate=True)
    doc.close()
    return path


def sample_pages(page_count: int, wanted: int) -> list[int]:
    """`wanted` 1-based page numbers spread evenly from first to last page."""
    if wanted >= page_count:
        return list(range(1, page_count + 1))
    if wanted <= 1:
        return [1]
    return sorted({round(i * (page_count - 1) / (wanted - 1)) + 1 for i in range(wanted)})


def timed(func: Callable[[], object]) -> tuple[float, object]:
    """Seconds one call takes (after a collection, so earlier garbage is not charged to it)."""
    gc.collect()
    started = time.perf_counter()
    value = func()
    return time.perf_counter() - started, value


def raw_extract(doc: pymupdf.Document) -> int:
    """Raw PyMuPDF: text of every page; returns the characters extracted (kept alive to be fair)."""
    return sum(len(page.get_text()) for page in doc)


def ours_extract(path: str) -> str | None:
    """pdfdesk: the whole document through the tool; the error text when the tool fails."""
    result = call_tool("pdf_extract_text", {"path": path, "max_chars": 10_000_000})
    return result.text if result.is_error else None


def raw_render(doc: pymupdf.Document, pages: list[int], dpi: int) -> int:
    """Raw PyMuPDF: render + PNG encode each sampled page; returns total PNG bytes."""
    return sum(len(doc.load_page(n - 1).get_pixmap(dpi=dpi).tobytes("png")) for n in pages)


def ours_render(path: str, pages: list[int], dpi: int) -> str | None:
    """pdfdesk: pdf_render_page for each sampled page; the first error text, if any."""
    for number in pages:
        result = call_tool("pdf_render_page", {"path": path, "page": number, "dpi": dpi})
        if result.is_error:
            return result.text
    return None


def measure(path: Path, sample: int, repeat: int, dpi: int) -> Result:
    """Warm both sides, then interleave raw/pdfdesk runs and keep the best of each."""
    name = str(path.resolve())
    doc = pymupdf.open(path)
    pages = sample_pages(doc.page_count, sample)
    raw_extract(doc)  # warm: font and resource caches of the raw Document
    raw_render(doc, pages[:2], dpi)
    extract_error = ours_extract(name)  # warm: pdfdesk's document cache
    render_error = ours_render(name, pages[:2], dpi)  # warm: fingerprint, renders folder
    for label, error in (("pdf_extract_text", extract_error), ("pdf_render_page", render_error)):
        if error:
            print(f"  {path.name}: {label} returned an error, skipped:\n    {error.replace(chr(10), chr(10) + '    ')}")
    best = {"raw_x": float("inf"), "ours_x": float("inf"), "raw_r": float("inf"), "ours_r": float("inf")}
    for _ in range(repeat):
        best["raw_x"] = min(best["raw_x"], timed(lambda: raw_extract(doc))[0])
        if not extract_error:
            best["ours_x"] = min(best["ours_x"], timed(lambda: ours_extract(name))[0])
        best["raw_r"] = min(best["raw_r"], timed(lambda: raw_render(doc, pages, dpi))[0])
        if not render_error:
            best["ours_r"] = min(best["ours_r"], timed(lambda: ours_render(name, pages, dpi))[0])
    count = doc.page_count
    doc.close()
    return Result(
        name=path.name, pages=count, sampled=len(pages),
        raw_extract_pps=count / best["raw_x"],
        ours_extract_pps=None if extract_error else count / best["ours_x"],
        raw_render_ms=best["raw_r"] * 1000 / len(pages),
        ours_render_ms=None if render_error else best["ours_r"] * 1000 / len(pages),
    )


def verdict(ratio: float | None, ok: Callable[[float], bool]) -> str:
    return "SKIP" if ratio is None else ("PASS" if ok(ratio) else "FAIL")


def print_result(r: Result, dpi: int) -> list[str]:
    """One document's table; returns the targets it missed."""
    def fmt(value: float | None, spec: str) -> str:
        return "error" if value is None else format(value, spec)

    x_verdict = verdict(r.extract_ratio, lambda v: v >= EXTRACT_MIN_RATIO)
    r_verdict = verdict(r.render_ratio, lambda v: v <= RENDER_MAX_RATIO)
    print(f"\n{r.name} ({r.pages:,} pages; {r.sampled} rendered at {dpi} dpi)")
    print(f"  {'':22} {'raw':>10} {'pdfdesk':>10} {'ratio':>7} {'target':>8}  result")
    print(f"  {'extract pages/s':22} {r.raw_extract_pps:>10,.0f} {fmt(r.ours_extract_pps, '>10,.0f'):>10} "
          f"{fmt(r.extract_ratio, '>7.2f'):>7} {'>= ' + str(EXTRACT_MIN_RATIO):>8}  {x_verdict}")
    print(f"  {'render ms/page':22} {r.raw_render_ms:>10.1f} {fmt(r.ours_render_ms, '>10.1f'):>10} "
          f"{fmt(r.render_ratio, '>7.2f'):>7} {'<= ' + str(RENDER_MAX_RATIO):>8}  {r_verdict}")
    return [f"{r.name} {what}" for what, v in (("extract", x_verdict), ("render", r_verdict)) if v == "FAIL"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pdfs", nargs="*", type=Path, help="extra PDFs to measure")
    parser.add_argument("--pages-sample", type=int, default=30, help="pages to render per document (default 30)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the best is kept (default 3)")
    parser.add_argument("--dpi", type=int, default=150, help="render resolution (default 150)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    options = parser.parse_args()
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"machine: {platform.machine()} {platform.system()}, {os.cpu_count()} cpus ({cpus} usable), "
          f"python {platform.python_version()}, PyMuPDF {pymupdf.VersionBind} (MuPDF {pymupdf.VersionFitz})")
    print(f"settings: repeat {options.repeat} (best kept), {options.pages_sample} pages rendered per document, "
          f"{options.dpi} dpi; PDFDESK_HOME={os.environ['PDFDESK_HOME']}")

    work = Path(tempfile.mkdtemp(prefix="pdfdesk-tools-bench-docs-"))
    elapsed, generated = timed(lambda: make_document(work / f"generated-{GENERATED_PAGES}.pdf", GENERATED_PAGES))
    assert isinstance(generated, Path)
    print(f"generated {generated.name} ({generated.stat().st_size / 1048576:.1f} MB) in {elapsed:.1f} s")

    missed: list[str] = []
    results: list[Result] = []
    for path in [generated, *options.pdfs]:
        if not path.is_file():
            print(f"\n{path}: no such file, skipped")
            continue
        results.append(measure(path, options.pages_sample, options.repeat, options.dpi))
        missed += print_result(results[-1], options.dpi)
        close_all()  # the next document starts with an empty cache like this one did

    extract = [r.extract_ratio for r in results if r.extract_ratio is not None]
    render = [r.render_ratio for r in results if r.render_ratio is not None]
    summary = (f"extract ratio min {min(extract):.2f} (>= {EXTRACT_MIN_RATIO})" if extract else "extract: no data")
    summary += f", render ratio max {max(render):.2f} (<= {RENDER_MAX_RATIO})" if render else ", render: no data"
    print(f"\nsummary: {len(results)} document(s); {summary}; "
          + ("all targets met" if not missed else f"missed: {', '.join(missed)}"))
    return 1 if missed and options.check else 0


if __name__ == "__main__":
    sys.exit(main())
