"""Scanned documents: how well their recognised text is found, how fast it is read, how soon a page
is searchable and how much memory recognition takes, beside the born-digital original and raw
PyMuPDF + Tesseract measured in the same run.

The corpus (bench/ocr_corpus.py): slices of the hybrid corpus's long documents in English, German,
French and Russian, each written as born (text layer) and as a degraded scan (150-300 dpi grey,
skew, blur, noise, JPEG; every fifth page lying sideways or upside down). Known-item queries come
from the born-digital text. The slices are split into a "tune" half and a "report" half: OCR
settings (resolution, when to ask OSD) may be tuned on the tune half only.

  A  page MRR@10 of pdf_search (mode keyword; auto printed too) on the scan against the born-digital
     copy, per language and half; beside it the share of the born-digital words the OCR read, by
     language, resolution and orientation (where a miss comes from).
  B  OCR pages/s per core: the OCR stage (build_recognition, one worker; then all cores, divided by
     the cores) against MuPDF's own Tesseract bridge (get_textpage_ocr(full=True) then get_text,
     page after page, one core) at the stage's resolution and in the same languages.
  C  seconds from starting `pdfdesk index` on a 200-page scan (fresh data folder) until pdf_search
     returns a recognised page.
  D  peak memory of that indexing process and all its descendants while recognition runs with all
     cores: sum of RSS (what the target is judged on; it counts shared libraries in every process)
     and sum of PSS.

OCR languages: one setting for every document, as a user sets it (default "eng+deu+fra", the
languages of the Latin documents); Russian pages are found by Tesseract's script detection (OSD),
which the stage asks when a first reading is poor. --per-document reads each slice in its own
language plus English instead (what a user who sets the language per document would get).

Targets: A scanned MRR@10 >= 0.9 x born-digital, keyword mode, every language, both halves;
B the stage's pages/s per core >= 0.9 x raw, with one worker and with all cores; C <= 10 s;
D <= 1 GB.

Usage: python bench/ocr_bench.py [--check] [--parts quality,speed,first] [--pages 15] [--languages eng+deu+fra]
                                 [--per-document] [--speed-pages 6] [--memory-seconds 30]
       tuning, on the tune half: [--halves tune] [--only ru] [--min-dpi N] [--max-dpi N] [--osd-below N]
A whole run takes about 12 minutes on two cores (a dense degraded page costs Tesseract 3 to 11
CPU seconds: Cyrillic read twice, a page upside down three times); --pages 10 makes it about 9.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["PDFDESK_HOME"] = tempfile.mkdtemp(prefix="pdfdesk-ocr-bench-")
os.environ["PDFDESK_BACKGROUND_INDEXING"] = "0"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # the raw bridge's Tesseract on one core, as each of the stage's

import pymupdf  # noqa: E402

from bench.hybrid_corpus import build_manifest  # noqa: E402
from bench.indexing import answer_rank, index, mrr  # noqa: E402
from bench.ocr_corpus import (  # noqa: E402
    SLICES,
    TESSERACT,
    ScanSet,
    build_ocr_corpus,
    distinctive_words,
    page_lines,
    repeated_scan,
    scan_copy,
    word_recall,
)
from bench.process_memory import Member, PeakTracker, descendants, snapshot, tree_lines  # noqa: E402
from pdfdesk.core.config import Config, get_config, set_config  # noqa: E402
from pdfdesk.core.documents import close_all, open_pdf  # noqa: E402
from pdfdesk.core import ocr as ocr_settings  # noqa: E402
from pdfdesk.core.ocr import scan_dpi  # noqa: E402
from pdfdesk.index.builder import Target, build_index, build_vectors  # noqa: E402
from pdfdesk.index.page_text import PageTextStore  # noqa: E402
from pdfdesk.index.recognition import build_recognition  # noqa: E402
from pdfdesk.tools import call_tool  # noqa: E402

QUALITY_RATIO = 0.9      # scanned MRR@10 against born-digital
SPEED_RATIO = 0.9        # the stage's pages/s per core against raw MuPDF + Tesseract
FIRST_PAGE_S = 10.0      # opening a 200-page scan until a recognised page is found
MEMORY_MB = 1024.0       # the indexing process tree while recognition runs
LANGUAGES = ("en", "de", "fr", "ru")
HALVES = ("tune", "report")
Workers = Callable[[], int]


@dataclass
class Verdicts:
    """Every target figure printed, and those missed."""

    missed: list[str]

    def judge(self, label: str, value: float, target: float, at_least: bool, unit: str = "") -> None:
        met = value >= target - 1e-9 if at_least else value <= target + 1e-9
        sign = ">=" if at_least else "<="
        print(f"  {label:58} {value:8.3f}{unit}  target {sign} {target:.3f}{unit}  {'MET' if met else 'MISSED'}")
        if not met:
            self.missed.append(f"{label}: {value:.3f}{unit} (target {sign} {target:.3f}{unit})")


def target_of(path: Path) -> Target:
    with open_pdf(str(path)) as opened:
        return Target(opened.source, None, opened.fingerprint)


def languages_for(scan_set: ScanSet, setting: str, per_document: bool) -> str:
    """The OCR languages setting a slice is read with: the one setting, or its own language + English."""
    if per_document and scan_set.lang in TESSERACT:
        own = TESSERACT[scan_set.lang]
        return own if own == "eng" else f"{own}+eng"
    return setting


def recognise(path: Path, languages: str, workers: Workers) -> tuple[Target, float]:
    """The app's stages for a scan, in this process: keyword, recognition (timed), vectors."""
    set_config(replace(get_config(), ocr_languages=languages))
    target = target_of(path)
    build_index(target)
    started = time.perf_counter()
    build_recognition(target, wait=True, workers=workers)
    seconds = time.perf_counter() - started
    build_vectors(target)
    return target, seconds


# -- A: quality -------------------------------------------------------------------------------
def quality(sets: list[ScanSet], setting: str, per_document: bool, modes: list[str], verdicts: Verdicts) -> None:
    started = time.perf_counter()
    ocr_seconds = 0.0
    targets: dict[str, Target] = {}
    cores = os.cpu_count() or 1
    for scan_set in sets:
        index(scan_set.original)
        targets[scan_set.name], seconds = recognise(scan_set.scan, languages_for(scan_set, setting, per_document),
                                                    lambda: cores)
        ocr_seconds += seconds
    pages = sum(len(s.pages) for s in sets)
    print(f"{len(sets)} slices, {pages} scanned pages, indexed in {time.perf_counter() - started:.0f} s "
          f"(recognition {ocr_seconds:.0f} s, {pages / ocr_seconds:.2f} pages/s on {cores} cores)")

    ranks: dict[tuple[str, str, str, str], list[int | None]] = defaultdict(list)   # (copy, mode, lang, half)
    by_page: dict[tuple[str, str], list[int | None]] = defaultdict(list)           # (half, dpi / turn) -> scan ranks
    by_kind: dict[tuple[str, str, str], list[int | None]] = defaultdict(list)      # (copy, kind, half)
    recall: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])         # (group, half) -> read, total
    for scan_set in sets:
        recognised = PageTextStore().recognised(targets[scan_set.name].fingerprint)
        for number, how in enumerate(scan_set.pages, 1):
            read, total = word_recall(scan_set.texts[number - 1], recognised.get(number, ("", None))[0])
            for group in (scan_set.lang, f"{how.dpi} dpi", "turned" if how.turn else "upright", "all"):
                recall[(group, scan_set.half)][0] += read
                recall[(group, scan_set.half)][1] += total
        for query in scan_set.queries:
            how = scan_set.pages[query.page - 1]
            for mode in modes:
                for copy, path in (("born", scan_set.original), ("scan", scan_set.scan)):
                    rank = answer_rank(path, query.text, query.page, mode)
                    ranks[(copy, mode, scan_set.lang, scan_set.half)].append(rank)
                    if mode == "keyword":
                        by_kind[(copy, query.kind, scan_set.half)].append(rank)
                        if copy == "scan":
                            by_page[(scan_set.half, f"{how.dpi} dpi")].append(rank)
                            by_page[(scan_set.half, "turned" if how.turn else "upright")].append(rank)

    def figure(copy: str, mode: str, lang: str | None, half: str) -> tuple[float, int]:
        found = [r for (c, m, g, h), values in ranks.items() if c == copy and m == mode
                 and (lang is None or g == lang) and h == half for r in values]
        return mrr(found), len(found)

    print("\nA. page MRR@10, born-digital copy against scanned copy" + (" (languages per document)" if per_document
                                                                       else f" (OCR languages {setting})"))
    header = "".join(f"{mode + ' born':>14}{mode + ' scan':>14}{'ratio':>7}" for mode in modes)
    print(f"  {'half / language':22}{header}  queries  recall")
    for half in HALVES:
        for lang in (*LANGUAGES, None):
            if not figure("born", modes[0], lang, half)[1]:
                continue
            cells = ""
            for mode in modes:
                born, count = figure("born", mode, lang, half)
                scan, _ = figure("scan", mode, lang, half)
                cells += f"{born:14.3f}{scan:14.3f}{scan / born if born else 0.0:7.2f}"
            read, total = recall[(lang or "all", half)]
            print(f"  {half + ' / ' + (lang or 'all'):22}{cells}  {count:7}  {read / max(total, 1):6.1%}")
    print("  by query kind (keyword)       born    scan  queries")
    for half in HALVES:
        for kind in ("known", "phrase"):
            born_ranks, scan_ranks = by_kind[("born", kind, half)], by_kind[("scan", kind, half)]
            if not scan_ranks:
                continue
            print(f"    {half + ' / ' + kind:26}{mrr(born_ranks):6.3f}  {mrr(scan_ranks):6.3f}  {len(scan_ranks):7}")
    print("  scanned pages by kind (keyword MRR of their queries; share of words read)")
    for half in HALVES:
        for group in ("150 dpi", "200 dpi", "300 dpi", "upright", "turned"):
            read, total = recall[(group, half)]
            found = by_page[(half, group)]
            if not total:
                continue
            share = read / max(total, 1)
            print(f"    {half + ' / ' + group:26}{mrr(found):6.3f}  {len(found):4} queries  {share:6.1%}")
    print()
    for half in HALVES:
        for lang in LANGUAGES:
            born, count = figure("born", "keyword", lang, half)
            if not count:
                continue
            scan, _ = figure("scan", "keyword", lang, half)
            verdicts.judge(f"A scanned / born-digital MRR@10, keyword, {half} / {lang}", scan / born if born else 0.0,
                           QUALITY_RATIO, at_least=True)


# -- B: speed ---------------------------------------------------------------------------------
def speed_sample(sets: list[ScanSet], pages: int, out: Path, title: str) -> Path:
    """`pages` scanned pages spread over the slices (every third slice, so that the languages
    alternate; every seventh page, so that some lie sideways), as one document; `title` makes its
    bytes (and fingerprint) its own."""
    with pymupdf.open() as doc:
        for i in range(pages):
            scan_set = sets[(i * 3) % len(sets)]
            number = (i * 7) % len(scan_set.pages)
            with pymupdf.open(scan_set.scan) as src:
                doc.insert_pdf(src, from_page=number, to_page=number)
        doc.set_metadata({"title": title})
        doc.save(out, garbage=3, deflate=True, no_new_id=True)
    return out


def raw_pages_per_second(path: Path, languages: str) -> tuple[float, float, int]:
    """MuPDF's Tesseract bridge, page after page at the stage's resolution: (pages/s, CPU
    seconds per wall second, words read)."""
    words = pages = 0
    wall, cpu = time.perf_counter(), time.process_time()
    with pymupdf.open(path) as doc:
        for page in doc:
            pages += 1
            textpage = page.get_textpage_ocr(dpi=scan_dpi(page), full=True, language=languages)
            words += len(page.get_text(textpage=textpage).split())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return pages / wall, cpu / wall, words


def speed(sets: list[ScanSet], folder: Path, pages: int, languages: str, verdicts: Verdicts) -> None:
    cores = os.cpu_count() or 1
    one = speed_sample(sets, pages, folder / "speed-one-worker.pdf", "one worker")
    every = speed_sample(sets, pages, folder / "speed-all-cores.pdf", "all cores")
    raw, raw_cores, raw_words = raw_pages_per_second(one, languages)
    target, seconds = recognise(one, languages, lambda: 1)
    single = pages / seconds
    read = PageTextStore().recognised(target.fingerprint)
    stage_words = sum(len(text.split()) for text, _ in read.values())
    _target, seconds = recognise(every, languages, lambda: cores)
    many = pages / seconds
    print(f"\nB. OCR speed on {pages} scanned pages (languages {languages}; resolution: the stage's, "
          f"{', '.join(str(d) for d in sorted(_dpis(one)))} dpi)")
    print(f"  raw MuPDF + Tesseract bridge  {raw:6.3f} pages/s   ({raw_cores:.2f} cores busy, {raw_words} words)")
    print(f"  OCR stage, 1 worker           {single:6.3f} pages/s   ({stage_words} words; {len(read)} of {pages} "
          "pages read)")
    print(f"  OCR stage, {cores} workers           {many:6.3f} pages/s   = {many / cores:.3f} per core")
    verdicts.judge("B stage pages/s per core / raw, 1 worker", single / raw, SPEED_RATIO, at_least=True, unit="x")
    verdicts.judge(f"B stage pages/s per core / raw, {cores} workers", many / cores / raw, SPEED_RATIO,
                   at_least=True, unit="x")


def _dpis(path: Path) -> set[int]:
    with pymupdf.open(path) as doc:
        return {scan_dpi(page) for page in doc}


# -- C and D: first searchable page, memory -----------------------------------------------------
def long_scan(folder: Path, corpus_folder: Path, pages: int) -> tuple[Path, str]:
    """A `pages`-page scan (300 dpi) repeating 20 degraded pages of the English report slice, and
    a query for words only its first page holds ("w1 OR w2 OR w3")."""
    slice_ = next(s for s in SLICES if s.lang == "en" and s.half == "report")
    manifest = build_manifest(corpus_folder)
    entry = next(d for d in manifest["documents"] if d["id"] == slice_.doc)
    source = corpus_folder / entry["file"]
    numbers = list(range(slice_.first, slice_.first + 20))
    distinct = folder / "long-scan-distinct.pdf"
    scan_copy(source, numbers, distinct, "long-scan", dpi=300)
    out = folder / f"long-scan-{pages}.pdf"
    repeated_scan(distinct, out, max(1, pages // len(numbers)))
    with pymupdf.open(source) as doc:
        lines = [page_lines(doc[n - 1]) for n in numbers]
    return out, " OR ".join(distinctive_words(lines, 0, 3))


def condensed(members: list[Member]) -> list[Member]:
    """The tree's processes, every Tesseract run (short-lived, many) folded into one line: the
    largest figures any one of them reached."""
    readers = [m for m in members if m.label.startswith("tesseract")]
    kept = [m for m in members if not m.label.startswith("tesseract")]
    if readers:
        kept.append(Member(0, readers[0].parent, f"{len(readers)} tesseract runs, largest",
                           max(m.rss_mb for m in readers), max(m.private_mb for m in readers),
                           max(m.pss_mb for m in readers)))
    return kept


def _tree(pid: int) -> list[int]:
    return [pid] + [child for child, _parent in descendants(pid)]


def _end_tree(process: subprocess.Popen[bytes]) -> None:
    """Freeze the indexing process and everything it started, then kill each by its id."""
    for _ in range(3):  # a stage may start a Tesseract while the tree is being frozen
        for pid in _tree(process.pid):
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
    for pid in reversed(_tree(process.pid)):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    process.wait(10)


def first_page_and_memory(folder: Path, corpus_folder: Path, pages: int, languages: str, memory_seconds: float,
                          verdicts: Verdicts) -> None:
    scan, query = long_scan(folder, corpus_folder, pages)
    home = Path(tempfile.mkdtemp(prefix="pdfdesk-ocr-bench-fresh-"))
    (home / "config").mkdir()
    (home / "config" / "config.toml").write_text(f'[ocr]\nlanguages = "{languages}"\n', encoding="utf-8")
    previous_home = os.environ["PDFDESK_HOME"]
    previous_config = get_config()
    os.environ["PDFDESK_HOME"] = str(home)
    set_config(Config(ocr_languages=languages))
    log = (folder / "long-scan-index.log").open("wb")
    tracker = PeakTracker()
    peak = {"rss": 0.0, "pss": 0.0}
    stop = threading.Event()
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "pdfdesk", "index", str(scan)], cwd=ROOT, stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               env={**os.environ, "PDFDESK_HOME": str(home)})

    def sample() -> None:
        while not stop.is_set():
            members = snapshot(process.pid, {process.pid: "pdfdesk index"})
            tracker.record(members)
            peak["rss"] = max(peak["rss"], sum(m.rss_mb for m in members))
            peak["pss"] = max(peak["pss"], sum(m.pss_mb for m in members))
            stop.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    first: float | None = None
    hit_page = None
    try:
        deadline = started + 120.0
        while time.perf_counter() < deadline and process.poll() is None:
            result = call_tool("pdf_search", {"path": str(scan), "query": query, "mode": "keyword", "max_results": 1})
            matches = [] if result.is_error else result.details.get("matches", [])
            if matches:
                first = time.perf_counter() - started
                hit_page = matches[0]["page"]
                break
            time.sleep(0.2)
        end = (first or 0.0) + started + memory_seconds
        while time.perf_counter() < end and process.poll() is None:
            time.sleep(0.5)
        ran = time.perf_counter() - started
    finally:
        stop.set()
        sampler.join(5)
        _end_tree(process)
        log.close()
        close_all()
        os.environ["PDFDESK_HOME"] = previous_home
        set_config(previous_config)
    print(f"\nC. first recognised page searchable: {pages}-page scan at 300 dpi, `pdfdesk index` started in a fresh "
          f"data folder; query {query!r}")
    if first is None:
        tail = (folder / "long-scan-index.log").read_bytes().decode("utf-8", "replace")[-600:]
        print(f"  no recognised page was found within {ran:.0f} s; the indexer said:\n{tail}")
    else:
        print(f"  page {hit_page} found after {first:.1f} s (the interpreter's start included)")
    verdicts.judge("C seconds until a recognised page is searchable", first if first is not None else 999.0,
                   FIRST_PAGE_S, at_least=False, unit=" s")
    print(f"\nD. memory of the indexing process tree over {ran:.0f} s, recognition on {os.cpu_count()} cores "
          f"(peak of the sums; peaks per process below)")
    for line in tree_lines(condensed(tracker.members())):
        print(line)
    print(f"  peak sum of PSS {peak['pss']:.0f} MB")
    verdicts.judge("D peak sum of RSS of the indexing tree", peak["rss"], MEMORY_MB, at_least=False, unit=" MB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "pdfdesk-ocr-corpus")
    parser.add_argument("--corpus-folder", type=Path, default=Path(tempfile.gettempdir()) / "pdfdesk-hybrid-corpus",
                        help="the hybrid corpus (cached; the same folder as hybrid_bench.py's)")
    parser.add_argument("--parts", default="quality,speed,first", help="any of quality, speed, first (C and D)")
    parser.add_argument("--pages", type=int, default=15, help="pages per slice")
    parser.add_argument("--languages", default="eng+deu+fra", help="the OCR languages setting")
    parser.add_argument("--per-document", action="store_true", help="read each slice in its own language + English")
    parser.add_argument("--modes", default="keyword,auto")
    parser.add_argument("--speed-pages", type=int, default=6)
    parser.add_argument("--scan-pages", type=int, default=200)
    parser.add_argument("--memory-seconds", type=float, default=30.0)
    parser.add_argument("--halves", default="tune,report", help="the quality part on these halves (tune first)")
    parser.add_argument("--only", default="", help="the quality part on these languages (e.g. ru), for a quick look")
    for name in ("min-dpi", "max-dpi", "osd-below"):
        constant = name.replace("-", "_").upper()
        parser.add_argument(f"--{name}", type=float, help=f"try another pdfdesk.core.ocr.{constant} (in this "
                            "process: the quality and speed parts, not `pdfdesk index` in C and D)")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    tried = {name: getattr(args, name.lower()) for name in ("MIN_DPI", "MAX_DPI", "OSD_BELOW")}
    for name, value in tried.items():
        if value is not None:
            setattr(ocr_settings, name, int(value) if name.endswith("DPI") else value)
            print(f"trying pdfdesk.core.ocr.{name} = {getattr(ocr_settings, name)}")
    set_config(Config(semantic=True, ocr_languages=args.languages))
    verdicts = Verdicts([])
    started = time.perf_counter()
    sets = build_ocr_corpus(args.folder, args.corpus_folder, args.pages)
    print(f"corpus: {len(sets)} slices of {args.pages} pages ready in {time.perf_counter() - started:.0f} s "
          f"({args.folder}); data folder {os.environ['PDFDESK_HOME']}")
    chosen = [s for s in sets if s.half in args.halves.split(",") and (not args.only or s.lang in args.only.split(","))]
    if "quality" in parts:
        quality(chosen, args.languages, args.per_document, args.modes.split(","), verdicts)
    if "speed" in parts:
        speed(sets, args.folder, args.speed_pages, args.languages, verdicts)
    if "first" in parts:
        first_page_and_memory(args.folder, args.corpus_folder, args.scan_pages, args.languages, args.memory_seconds,
                              verdicts)
    print(f"\nwhole run {time.perf_counter() - started:.0f} s")
    print("targets: " + ("all met" if not verdicts.missed else "MISSED:\n  " + "\n  ".join(verdicts.missed)))
    return 1 if verdicts.missed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
