"""The library at the scale users have: indexing, query speed and ranking over 100 to 10,000 documents.

For each library size (documents from bench/library_corpus.py: manuals, invoices and contracts in
English, German, Russian, Chinese, Japanese, Arabic and Persian, mostly 10 pages), in a fresh data
folder:

  raw extraction pages/s      PyMuPDF page.get_text() over the first 2,000 pages (the floor)
  library index pages/s       `pdfdesk index`'s first step: every page read into the page-text record
                              and added to the library index, in child processes (documents/s and the
                              cost per document beside it)
  indexing peak MB            the largest child process's peak resident memory
  query p50 / p95 ms          pdf_search library=true (10 results with excerpts and rectangles), in
                              mode keyword and auto, over the known-item queries
  search process MB           the resident memory of the process that ran the queries
  MRR@10 library / own        the same queries over the library and on their own document (its own
                              index), per script and per half: rankings were tuned on the "tune" half
                              of the documents, the "report" half is the figure
  add / change / remove s     one document added, one changed, one removed, each until search sees it
  kill -9 resume              an indexing run killed half way, then run again: every document in once

Targets (--check): query p95 <= 150 ms in both modes; library MRR@10 >= own - 0.03; add, change and
remove <= 2 s; >= 150 pages/s; indexing and search processes <= 500 MB; the resumed run complete.

Usage: python bench/library_bench.py [--sizes 100,1000,10000] [--root DIR] [--check] [--queries N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.library_corpus import LibraryQuery, build_library  # noqa: E402

TARGET_P95_MS = 150.0
TARGET_MRR_GAP = 0.03
TARGET_INCREMENTAL_S = 2.0
TARGET_PAGES_S = 150.0
TARGET_MB = 500.0


def _queries_json(queries: list[LibraryQuery]) -> str:
    return json.dumps([{"text": q.text, "path": str(q.path), "page": q.page, "script": q.script, "half": q.half}
                       for q in queries])


# -- phases run in fresh processes (their memory is their own) ------------------------------------
def phase_index(folder: str) -> dict[str, float]:
    """Add the folder to the library and put every document into the library index."""
    from pdfdesk.index.library import Library, build_library_index

    library = Library()
    started = time.perf_counter()
    library.add([folder])
    handed = library.register()
    registered = time.perf_counter()
    build = build_library_index(handed, library)
    ended = time.perf_counter()
    return {"documents": build.documents, "pages": build.pages, "failed": build.failed, "children": build.children,
            "register_s": registered - started, "index_s": ended - registered, "child_peak_mb": build.child_peak_mb,
            "parent_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def phase_own_indices(paths: list[str]) -> dict[str, float]:
    """Each query's own document gets its own index, for the single-document figures."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index.builder import Target, build_index

    started = time.perf_counter()
    for path in paths:
        with open_pdf(path) as opened:
            target = Target(opened.source, None, opened.fingerprint)
        build_index(target)
    return {"seconds": time.perf_counter() - started}


def _rank(matches: list[dict[str, object]], path: str, page: int) -> int | None:
    for position, match in enumerate(matches, start=1):
        if match.get("page") == page and (match.get("file") in (None, path) or str(match.get("file")) == path):
            return position
    return None


def phase_queries(queries_file: str) -> dict[str, object]:
    """Every query over the library (keyword, auto), then on its own document; times and ranks.
    The process's peak memory is read after the library queries (what a search process holds)
    and again after the single-document searches (each of which opens that document's index)."""
    from pdfdesk.core.documents import close_all
    from pdfdesk.tools import call_tool

    queries = json.loads(Path(queries_file).read_text(encoding="utf-8"))
    call_tool("pdf_search", {"library": True, "query": "warm up", "mode": "keyword"})
    rows = []
    for query in queries:
        row = dict(query)
        for mode in ("keyword", "auto"):
            started = time.perf_counter()
            result = call_tool("pdf_search", {"library": True, "query": query["text"], "mode": mode})
            row[f"{mode}_ms"] = (time.perf_counter() - started) * 1000
            row[f"{mode}_rank"] = None if result.is_error else _rank(result.details["matches"], query["path"],
                                                                        query["page"])
        rows.append(row)
        close_all()
    library_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for row in rows:
        own = call_tool("pdf_search", {"path": row["path"], "query": row["text"], "mode": "keyword"})
        row["own_rank"] = None if own.is_error else _rank(own.details["matches"], row["path"], row["page"])
        close_all()
    with_own_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"rows": rows, "peak_mb": library_mb, "peak_with_own_mb": with_own_mb}


def phase_incremental(folder: str, scratch: str) -> dict[str, float]:
    """One document added, one changed, one removed: seconds until library search sees each."""
    import pymupdf

    from pdfdesk.index.library import Library, build_library_index, sync_index
    from pdfdesk.tools import call_tool

    library = Library()
    word = "zyxwinkelmeter"

    def make(path: Path, text: str) -> None:
        doc = pymupdf.open()
        for n in range(10):
            doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 760), f"Page {n + 1}. {text}", fontsize=11)
        doc.save(path)

    def found(query: str) -> list[tuple[str, int]]:
        matches = call_tool("pdf_search", {"library": True, "query": query, "mode": "keyword"}).details["matches"]
        return [(Path(m["file"]).name, m["page"]) for m in matches]

    new = Path(scratch) / "added-document.pdf"
    make(new, f"The {word} calibration record.")
    started = time.perf_counter()
    library.add([str(new)])
    build_library_index(library.register(), library)
    assert found(word), "the added document is not found"
    added = time.perf_counter() - started

    make(new, "The recalibrated gauge, renamed.")
    started = time.perf_counter()
    library.add([str(new)])
    build_library_index(library.register(), library)
    sync_index(library=library)
    assert not found(word) and found("recalibrated gauge"), "the changed document is not what search sees"
    changed = time.perf_counter() - started

    started = time.perf_counter()
    library.remove(str(new))
    sync_index(library=library)
    assert not found("recalibrated gauge"), "the removed document is still found"
    removed = time.perf_counter() - started
    return {"add_s": added, "change_s": changed, "remove_s": removed}


def phase_counts() -> dict[str, int]:
    """What the library index holds: documents, rows, and documents the catalogue lists as indexed."""
    from pdfdesk.index.database import collection_database
    from pdfdesk.index.library import Library

    with collection_database().reading() as db:
        documents = db.execute("SELECT COUNT(*) FROM lib_docs").fetchall()[0][0]
        distinct = db.execute("SELECT COUNT(DISTINCT fingerprint) FROM lib_docs").fetchall()[0][0]
        rows = db.execute("SELECT COUNT(*) FROM lib_rows").fetchall()[0][0]
        pages = db.execute("SELECT COALESCE(SUM(pages), 0) FROM lib_docs").fetchall()[0][0]
    return {"documents": documents, "distinct": distinct, "rows": rows, "pages": pages,
            "indexed": len(Library().indexed())}


PHASES = {"index": phase_index, "own": phase_own_indices, "queries": phase_queries,
          "incremental": phase_incremental, "counts": phase_counts}


def run_phase(home: Path, name: str, *args: object, kill_after: float | None = None) -> dict:
    """A phase in a fresh Python process with `home` as its data folder; its JSON result. The
    phase runs from `-c`, not as this file: a child process then starts without importing the
    corpus generator again. Its stderr goes to a file beside the data folder, shown on failure."""
    env = {**os.environ, "PDFDESK_HOME": str(home), "PDFDESK_BACKGROUND_INDEXING": "0"}
    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from bench.library_bench import main; "
            "sys.exit(main())")
    command = [sys.executable, "-c", code, "--phase", name, *(json.dumps(a) for a in args)]
    log = home.parent / f"{home.name}-{name}.log"
    home.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a", encoding="utf-8") as errors:
        if kill_after is None:
            done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=errors, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"phase {name} failed:\n{log.read_text(encoding='utf-8')[-3000:]}")
            return json.loads(done.stdout.strip().splitlines()[-1])
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=errors,
                                   start_new_session=True)
        time.sleep(kill_after)
        os.killpg(process.pid, signal.SIGKILL)  # the phase and its indexing children, at once
        process.wait()
    return {}


# -- figures -----------------------------------------------------------------------------------
def raw_pages_per_second(paths: list[Path], pages: int = 2000) -> float:
    import pymupdf

    done, started = 0, time.perf_counter()
    for path in paths:
        with pymupdf.open(path) as doc:
            for page in doc:
                page.get_text()
                done += 1
        if done >= pages:
            break
    return done / (time.perf_counter() - started)


def mrr(ranks: list[int | None]) -> float:
    return sum(1.0 / r for r in ranks if r is not None and r <= 10) / max(len(ranks), 1)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(size: int, folder: Path, queries: list[LibraryQuery], work: Path, limit: int | None) -> list[str]:
    """Run every phase for one library size; print the figures; return the targets missed."""
    misses: list[str] = []
    home = work / f"home-{size}"
    shutil.rmtree(home, ignore_errors=True)
    pdfs = sorted(folder.rglob("*.pdf"))
    raw = raw_pages_per_second(pdfs)
    indexed = run_phase(home, "index", str(folder))
    pages_s = indexed["pages"] / max(indexed["index_s"], 1e-9)
    docs_s = indexed["documents"] / max(indexed["index_s"], 1e-9)
    per_doc_ms = 1000 * (indexed["index_s"] - indexed["pages"] / raw) / max(indexed["documents"], 1)
    print(f"\n== {size:,} documents, {indexed['pages']:,} pages ({indexed['failed']} failed, "
          f"{indexed['children']} child processes) ==")
    print(f"raw extraction               {raw:8.0f} pages/s")
    print(f"library index                {pages_s:8.0f} pages/s  {docs_s:6.1f} documents/s  "
          f"({indexed['index_s']:.1f} s; {per_doc_ms:.1f} ms a document beyond raw extraction; "
          f"add + fingerprint {indexed['register_s']:.1f} s)")
    print(f"indexing peak                {indexed['child_peak_mb']:8.0f} MB child, "
          f"{indexed['parent_peak_mb']:.0f} MB the process that started it")
    if pages_s < TARGET_PAGES_S:
        misses.append(f"{size}: indexing {pages_s:.0f} pages/s < {TARGET_PAGES_S:.0f}")
    if indexed["child_peak_mb"] > TARGET_MB:
        misses.append(f"{size}: indexing child {indexed['child_peak_mb']:.0f} MB > {TARGET_MB:.0f}")

    chosen = queries[:limit] if limit else queries
    run_phase(home, "own", sorted({str(q.path) for q in chosen}))
    queries_file = work / f"queries-{size}.json"
    queries_file.write_text(_queries_json(chosen), encoding="utf-8")
    answered = run_phase(home, "queries", str(queries_file))
    rows = answered["rows"]
    for mode in ("keyword", "auto"):
        times = [row[f"{mode}_ms"] for row in rows]
        p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
        print(f"query {mode:8}               p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  ({len(times)} queries)")
        if p95 > TARGET_P95_MS:
            misses.append(f"{size}: {mode} p95 {p95:.0f} ms > {TARGET_P95_MS:.0f}")
    print(f"search process               {answered['peak_mb']:8.0f} MB after the library queries, "
          f"{answered['peak_with_own_mb']:.0f} MB after also searching each query's own document")
    if answered["peak_mb"] > TARGET_MB:
        misses.append(f"{size}: search process {answered['peak_mb']:.0f} MB > {TARGET_MB:.0f}")
    print("MRR@10          queries   own doc   library keyword   library auto")
    groups: list[tuple[str, list[dict]]] = [("all", rows)]
    groups += [(f"half {half}", [r for r in rows if r["half"] == half]) for half in ("tune", "report")]
    groups += [(script, [r for r in rows if r["script"] == script])
               for script in ("latin", "cyrillic", "cjk", "arabic")]
    for label, group in groups:
        if not group:
            continue
        own = mrr([r["own_rank"] for r in group])
        keyword = mrr([r["keyword_rank"] for r in group])
        auto = mrr([r["auto_rank"] for r in group])
        print(f"{label:14} {len(group):8}   {own:7.3f}   {keyword:15.3f}   {auto:12.3f}")
        if label in ("all", "half report") and min(keyword, auto) < own - TARGET_MRR_GAP:
            misses.append(f"{size}: {label} library MRR {min(keyword, auto):.3f} < own {own:.3f} - {TARGET_MRR_GAP}")

    scratch = work / f"scratch-{size}"
    scratch.mkdir(exist_ok=True)
    changes = run_phase(home, "incremental", str(folder), str(scratch))
    print(f"one document added / changed / removed: {changes['add_s']:.2f} / {changes['change_s']:.2f} / "
          f"{changes['remove_s']:.2f} s")
    for key, value in changes.items():
        if value > TARGET_INCREMENTAL_S:
            misses.append(f"{size}: {key} {value:.2f} s > {TARGET_INCREMENTAL_S}")

    # killed half way through indexing, then run again: each document in once, none lost
    resumed_home = work / f"home-{size}-killed"
    shutil.rmtree(resumed_home, ignore_errors=True)
    run_phase(resumed_home, "index", str(folder), kill_after=max(2.0, indexed["index_s"] / 2))
    half = run_phase(resumed_home, "counts")
    run_phase(resumed_home, "index", str(folder))
    counts = run_phase(resumed_home, "counts")
    complete = (counts["documents"] == counts["distinct"] == indexed["documents"] and
                counts["pages"] == indexed["pages"] and counts["indexed"] == indexed["documents"])
    print(f"kill -9 half way ({half['documents']:,} documents in), run again: {counts['documents']:,} documents, "
          f"{counts['pages']:,} pages, {counts['rows']:,} rows; {'complete' if complete else 'INCOMPLETE'}")
    if not complete:
        misses.append(f"{size}: the resumed library index is incomplete: {counts}")
    shutil.rmtree(resumed_home, ignore_errors=True)
    return misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "pdfdesk-library-bench",
                        help="where the generated libraries are kept between runs")
    parser.add_argument("--queries", type=int, default=0, help="at most this many queries per size (0: all)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--phase", help=argparse.SUPPRESS)
    parser.add_argument("phase_args", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phase:
        print(json.dumps(PHASES[args.phase](*(json.loads(a) for a in args.phase_args))))
        return 0
    misses: list[str] = []
    work = Path(tempfile.mkdtemp(prefix="pdfdesk-library-bench-"))
    try:
        for size in (int(s) for s in args.sizes.split(",")):
            folder = args.root / f"library-{size}"
            started = time.perf_counter()
            queries = build_library(folder, size)
            print(f"library of {size:,} documents ready in {time.perf_counter() - started:.0f} s: "
                  f"{len(queries)} known-item queries", flush=True)
            misses += report(size, folder, queries, work, args.queries or None)
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\ntargets: " + ("all met" if not misses else "MISSED:\n  " + "\n  ".join(misses)))
    return 1 if misses and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
