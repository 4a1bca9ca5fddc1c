"""The viewer's responsiveness and memory, offscreen, next to raw PyMuPDF measured in the same run.

For a generated 1,000-page document (realistic text pages, the generator of tools_bench.py) and any
PDFs named on the command line, a DocumentView (1000 x 800) is shown offscreen and:
  first page painted  ms from open_document() to the first paint of a rendered page image
                      (target <= 200 ms); reference: raw pymupdf.open + page 1 render at the
                      same scale + conversion to a QImage, in this process
  stall, scrolling    the longest gap between ticks of a 5 ms QTimer heartbeat on the UI thread
                      while the view scrolls from the first page to the last, one screen every
                      16 ms (a fast fling), waiting at the end until the last page is rendered
                      (target <= 50 ms)
  stall, indexing     the same scroll back to the top while the document's search index is built
                      the way the window builds it (handed to the indexing owner, which runs
                      each stage in a child process)
  memory              resident set size (VmRSS) after both scrolls (target <= 300 MB); the view's
                      image caches, the RSS before opening and the whole process tree (render
                      helper, fork server, index builds: sums of RSS and PSS, each one's private memory)
  repaint             mean time of a synchronous repaint of the whole view at the top of the document
Then the same document again with --annotations N review annotations (default 1,000) spread over its
pages — made with the pdf_annotate tool in a child process in the bench's throwaway home, listed
by it and given to the view the way the window's review controller does when a document opens —
and first paint, the scrolling stall, memory and repaint with them are printed beside the plain
figures (that second pass skips the indexing scroll).
Usage: python bench/gui_bench.py [--check] [--pages N] [--step SCREENS] [--annotations N] [PDF ...]
Exit status 0 (a measurement, not a test) unless --check is given and a target is missed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# Before importing pdfdesk: indices and config go to a throwaway folder, not the user's.
# (an index build process re-imports this file: it must find the same folder, not make another)
HOME = os.environ.get("PDFDESK_GUI_BENCH_HOME") or tempfile.mkdtemp(prefix="pdfdesk-gui-bench-")
os.environ["PDFDESK_GUI_BENCH_HOME"] = os.environ["PDFDESK_HOME"] = HOME
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import pymupdf  # noqa: E402
from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bench.process_memory import Member, PeakTracker, private_mb, rss_mb, snapshot, tree_lines  # noqa: E402
from pdfdesk.core.documents import close_all, open_source  # noqa: E402
from pdfdesk.gui.viewer import render_process  # noqa: E402

FIRST_PAINT_TARGET_MS = 200.0
STALL_TARGET_MS = 50.0
RSS_TARGET_MB = 300.0
GENERATED_PAGES = 1000
ANNOTATIONS = 1000
HEARTBEAT_MS = 5
SCROLL_TICK_MS = 16
VIEW_SIZE = (1000, 800)


def generate(path: Path, pages: int) -> Path:
    """Realistic text pages, made by the generator of bench/tools_bench.py in a child process (so
    the memory it took does not count against the viewer measured here)."""
    subprocess.run([sys.executable, __file__, "--make", str(path), str(pages)], check=True)
    return path


def _make(path: Path, pages: int) -> None:
    spec = importlib.util.spec_from_file_location("_tools_bench", REPO / "bench" / "tools_bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    shutil.rmtree(module.HOME, ignore_errors=True)  # it made a home of its own; nothing goes there
    module.make_document(path, pages)


def make_annotations(path: Path, count: int) -> list[dict]:
    """`count` highlights spread over the document, added and listed with the pdf_annotate tool in a
    child process (its memory does not count against the viewer); returns the list's items."""
    out = path.with_suffix(".annotations.json")
    subprocess.run([sys.executable, __file__, "--annotate", str(path), str(count), str(out)], check=True)
    return json.loads(out.read_text(encoding="utf-8"))


def _annotate(path: Path, count: int, out: Path) -> None:
    import pdfdesk.tools.pdf_annotate  # noqa: F401  (registers the tool)
    from pdfdesk.tools.registry import call_tool

    with pymupdf.open(path) as doc:
        pages = doc.page_count
        quotes = []
        for n in range(count):
            page = n * pages // count
            lines: dict[tuple[int, int], list[str]] = {}
            for word in doc[page].get_text("words", sort=False):
                lines.setdefault((word[5], word[6]), []).append(word[4])
            runs = [words for words in lines.values() if len(words) >= 4]
            if runs:
                words = runs[(n * 7) % len(runs)]
                quotes.append((page + 1, " ".join(words[:4])))
    for n, (page, quote) in enumerate(quotes):
        result = call_tool("pdf_annotate", {"action": "add", "path": str(path), "page": page, "quote": quote,
                                            "color": ("yellow", "green", "blue", "pink")[n % 4],
                                            **({"note": f"note {n}"} if n % 5 == 0 else {})})
        if result.is_error:
            raise SystemExit(f"pdf_annotate add failed: {result.details}")
    listed = call_tool("pdf_annotate", {"action": "list", "path": str(path), "include_file_annotations": False})
    if listed.is_error:
        raise SystemExit(f"pdf_annotate list failed: {listed.details}")
    out.write_text(json.dumps(listed.details["annotations"]), encoding="utf-8")


class Heartbeat:
    """A 5 ms timer on the UI thread; the longest gap between its ticks is the longest stall."""

    def __init__(self) -> None:
        self._timer = QTimer()
        self._timer.setInterval(HEARTBEAT_MS)
        self._timer.timeout.connect(self._tick)
        self._clock = QElapsedTimer()
        self._last = 0
        self.max_gap_ms = 0.0

    def start(self) -> None:
        self.max_gap_ms = 0.0
        self._clock.start()
        self._last = self._clock.nsecsElapsed()
        self._timer.start()

    def _tick(self) -> None:
        now = self._clock.nsecsElapsed()
        self.max_gap_ms = max(self.max_gap_ms, (now - self._last) / 1e6)
        self._last = now

    def stop(self) -> float:
        self._tick()
        self._timer.stop()
        return self.max_gap_ms


def spin_until(condition, timeout_s: float) -> bool:
    """Run the event loop until `condition()` holds (checked every 2 ms) or the timeout passes."""
    deadline = time.perf_counter() + timeout_s
    loop = QEventLoop()
    while not condition():
        if time.perf_counter() > deadline:
            return False
        QTimer.singleShot(2, loop.quit)
        loop.exec()
    return True


def scroll(view, direction: int, step_screens: float) -> float:
    """Scroll end to end one step per SCROLL_TICK_MS; seconds taken (until the end page is rendered)."""
    bar = view.verticalScrollBar()
    started = time.perf_counter()
    step = max(1, int(view.viewport().height() * step_screens))
    done = [False]

    def tick() -> None:
        value = bar.value() + direction * step
        bar.setValue(value)
        if (direction > 0 and bar.value() >= bar.maximum()) or (direction < 0 and bar.value() <= 0):
            done[0] = True
            timer.stop()

    timer = QTimer()
    timer.setInterval(SCROLL_TICK_MS)
    timer.timeout.connect(tick)
    timer.start()
    spin_until(lambda: done[0], 600)
    spin_until(lambda: all(view.page_fully_rendered(p) for p in view.visible_pages()), 30)
    return time.perf_counter() - started


def wait_for_build(fingerprint: str) -> None:
    from pdfdesk.index.owner import stage_needed

    spin_until(lambda: stage_needed(fingerprint) is None, 300)


def raw_first_page_ms(path: Path, scale: float) -> float:
    """Raw PyMuPDF: open, load page 1, render at the view's scale, wrap as a QImage."""
    from pdfdesk.gui.viewer.render_jobs import to_qimage

    started = time.perf_counter()
    doc = pymupdf.open(path)
    pixmap = doc.load_page(0).get_pixmap(matrix=pymupdf.Matrix(scale, scale))
    to_qimage(pixmap, 1.0)
    elapsed = (time.perf_counter() - started) * 1000
    doc.close()
    return elapsed


@dataclass
class Figures:
    name: str
    pages: int
    first_paint_ms: float | None
    raw_first_ms: float
    open_stall_ms: float
    scroll_stall_ms: float
    scroll_s: float
    index_stall_ms: float | None
    index_scroll_s: float | None
    indexed_pages: int
    rss_mb: float
    rss_before_mb: float
    cache_mb: float
    error: str | None = None
    helper_rss: float = 0.0
    helper_renders: int = 0
    rss_after_index: float | None = None
    repaint_ms: float = 0.0
    annotations: int = 0
    tree: list[Member] = field(default_factory=list)  # after the scroll
    tree_index: list[Member] = field(default_factory=list)  # each process's peak while indexing


def tree_now() -> list[Member]:
    helper = render_process.HELPER.pid()
    return snapshot(labels={os.getpid(): "this process (the view)", **({helper: "render helper"} if helper else {})})


def repaint_ms(view, times: int = 30) -> float:
    """Mean time of a synchronous repaint of the whole viewport."""
    started = time.perf_counter()
    for _ in range(times):
        view.viewport().repaint()
    return (time.perf_counter() - started) * 1000 / times


def measure(path: Path, step_screens: float, index: bool, annotations: list[dict] | None = None) -> Figures:
    from pdfdesk.gui.viewer import DocumentView, shutdown

    close_all()
    rss_before = rss_mb()
    view = DocumentView()
    view.resize(*VIEW_SIZE)
    view.show()
    spin_until(lambda: view.isVisible(), 5)
    # as in the app, where the helper starts with the window, long before a file is opened
    spin_until(lambda: render_process.HELPER.ready() or not render_process.HELPER.enabled, 10)
    errors: list[dict] = []
    view.openFailed.connect(errors.append)
    view.passwordRequired.connect(lambda _wrong: errors.append({"error": "password_required", "message": ""}))
    if annotations is not None:  # as the review controller does once the document is open
        view.documentOpened.connect(lambda _count: view.model.annotations.set_all(annotations))
    heartbeat = Heartbeat()
    heartbeat.start()
    started = time.perf_counter()
    view.open_document(str(path))
    painted = spin_until(lambda: view.first_painted_at is not None or bool(errors), 30)
    first_ms = (view.first_painted_at - started) * 1000 if painted and view.first_painted_at else None
    open_stall = heartbeat.stop()
    if errors:
        view.close_document()
        shutdown()
        return Figures(path.name, 0, None, 0.0, open_stall, 0.0, 0.0, None, None, 0, rss_mb(), rss_before, 0.0,
                       error=f"{errors[0].get('error')}: {errors[0].get('message')}")
    pages = view.page_count
    scale = view.render_scale()
    spin_until(lambda: view.pending_requests() == 0, 30)  # settle: sizes read, neighbours rendered
    repaint = repaint_ms(view)

    heartbeat.start()
    scroll_s = scroll(view, +1, step_screens)
    scroll_stall = heartbeat.stop()
    helper = render_process.HELPER.pid()
    helper_mb = private_mb(helper) if helper else 0.0
    rss = rss_mb() + helper_mb  # the budget: open and scrolled end to end
    tree = tree_now()
    cache_mb = view.cache_bytes() / 1048576

    index_stall = index_s = None
    indexed, tree_index = 0, []
    if index:
        from pdfdesk.index.builder import Target
        from pdfdesk.index.owner import default_owner
        from pdfdesk.index.queue import INTERACTIVE
        from pdfdesk.index.store import DocumentIndex

        source = view.source
        with open_source(source, None) as opened:  # untimed: the fingerprint hashes the file
            fingerprint = opened.fingerprint
        peaks, sampler = PeakTracker(), QTimer()
        peaks.record(tree)
        peaks.phase = "new while indexing"
        sampler.timeout.connect(lambda: peaks.record(tree_now()))
        sampler.start(250)
        heartbeat.start()
        owner = default_owner()
        owner.submit(Target(source, None, fingerprint), INTERACTIVE)
        owner.start()
        index_s = scroll(view, -1, step_screens)
        index_stall = heartbeat.stop()
        state = DocumentIndex(fingerprint).read_state()
        indexed = state.pages_indexed if state is not None else 0
        wait_for_build(fingerprint)
        sampler.stop()
        peaks.record(tree_now())
        tree_index = peaks.members()

    helper = render_process.HELPER.pid()
    rss_after_index = rss_mb() + (private_mb(helper) if helper else 0.0)
    helper_share = view._worker.helper_renders if view._worker is not None else 0
    raw_ms = min(raw_first_page_ms(path, scale) for _ in range(3))
    shown = view.model.annotations.count()
    view.close_document()
    shutdown()
    view.deleteLater()
    return Figures(path.name, pages, first_ms, raw_ms, open_stall, scroll_stall, scroll_s, index_stall, index_s,
                   indexed, rss, rss_before, cache_mb, helper_rss=helper_mb, helper_renders=helper_share,
                   rss_after_index=rss_after_index if index else None, repaint_ms=repaint,
                   annotations=shown, tree=tree, tree_index=tree_index)


def verdict(value: float | None, target: float) -> str:
    if value is None:
        return "n/a"
    return "ok" if value <= target else "MISSED"


def report(fig: Figures) -> list[str]:
    """Print one document's figures; returns the names of missed targets."""
    print(f"\n{fig.name} ({fig.pages} pages)")
    if fig.error:
        print(f"  could not open: {fig.error}")
        return []
    missed = []
    first = "n/a" if fig.first_paint_ms is None else f"{fig.first_paint_ms:8.1f} ms"
    print(f"  first page painted    {first:>11}   target <= {FIRST_PAINT_TARGET_MS:.0f} ms   "
          f"{verdict(fig.first_paint_ms, FIRST_PAINT_TARGET_MS):6}  raw open+render page 1: {fig.raw_first_ms:.1f} ms"
          f"  (longest stall while opening {fig.open_stall_ms:.1f} ms)")
    print(f"  stall, scrolling      {fig.scroll_stall_ms:8.1f} ms   target <= {STALL_TARGET_MS:.0f} ms    "
          f"{verdict(fig.scroll_stall_ms, STALL_TARGET_MS):6}  end to end in {fig.scroll_s:.1f} s")
    if fig.index_stall_ms is not None:
        print(f"  stall, indexing       {fig.index_stall_ms:8.1f} ms   target <= {STALL_TARGET_MS:.0f} ms    "
              f"{verdict(fig.index_stall_ms, STALL_TARGET_MS):6}  back to the top in {fig.index_scroll_s:.1f} s, "
              f"{fig.indexed_pages} pages indexed meanwhile in a child process")
    print(f"  memory (VmRSS)        {fig.rss_mb:8.1f} MB   target <= {RSS_TARGET_MB:.0f} MB   "
          f"{verdict(fig.rss_mb, RSS_TARGET_MB):6}  app RSS + render helper's private memory ({fig.helper_rss:.1f} MB) "
          f"after the scroll; before opening {fig.rss_before_mb:.1f} MB, image caches {fig.cache_mb:.1f} MB")
    if fig.tree:
        print(f"  window process alone  {fig.tree[0].rss_mb:8.1f} MB   (VmRSS of this process, after the scroll)",
              *tree_lines(fig.tree, "  "), sep="\n")
    if fig.rss_after_index is not None:
        print(f"  memory after indexing {fig.rss_after_index:8.1f} MB   (same measure; an in-process build's memory "
              f"would be in it, a build process's is not); {fig.helper_renders} renders by the helper")
        print("  each process's peak while indexing (sampled every 250 ms):", *tree_lines(fig.tree_index, "  "),
              sep="\n")
    print(f"  repaint               {fig.repaint_ms:8.1f} ms   the whole view, synchronous, at the top")
    for value, target, name in ((fig.first_paint_ms, FIRST_PAINT_TARGET_MS, "first page painted"),
                                (fig.scroll_stall_ms, STALL_TARGET_MS, "stall while scrolling"),
                                (fig.index_stall_ms, STALL_TARGET_MS, "stall while indexing"),
                                (fig.rss_mb, RSS_TARGET_MB, "memory")):
        if (value is not None and value > target) or (name == "first page painted" and value is None):
            missed.append(f"{fig.name}: {name}")
    return missed


def report_annotated(plain: Figures, annotated: Figures, made_s: float) -> list[str]:
    """The figures with annotations beside the plain ones; returns the names of missed targets."""
    print(f"  with {annotated.annotations} annotations (made and listed with pdf_annotate in {made_s:.1f} s; "
          f"a second open of the same file, no indexing scroll):")
    if annotated.error:
        print(f"    could not open: {annotated.error}")
        return []
    def ms(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.1f} ms"

    print(f"    {'':22}{'plain':>12}{'annotated':>12}")
    rows = (("first page painted", ms(plain.first_paint_ms), ms(annotated.first_paint_ms),
             verdict(annotated.first_paint_ms, FIRST_PAINT_TARGET_MS)),
            ("stall, scrolling", ms(plain.scroll_stall_ms), ms(annotated.scroll_stall_ms),
             verdict(annotated.scroll_stall_ms, STALL_TARGET_MS)),
            ("memory (VmRSS)", f"{plain.rss_mb:.1f} MB", f"{annotated.rss_mb:.1f} MB",
             verdict(annotated.rss_mb, RSS_TARGET_MB)),
            ("repaint", ms(plain.repaint_ms), ms(annotated.repaint_ms), ""))
    for name, before, after, mark in rows:
        print(f"    {name:22}{before:>12}{after:>12}  {mark}".rstrip())
    missed = []
    for value, target, name in ((annotated.first_paint_ms, FIRST_PAINT_TARGET_MS, "first page painted"),
                                (annotated.scroll_stall_ms, STALL_TARGET_MS, "stall while scrolling"),
                                (annotated.rss_mb, RSS_TARGET_MB, "memory")):
        if value is None or value > target:
            missed.append(f"{annotated.name} with annotations: {name}")
    return missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--pages", type=int, default=GENERATED_PAGES, help="pages of the generated document")
    parser.add_argument("--step", type=float, default=1.0, help="screens scrolled per 16 ms tick")
    parser.add_argument("--no-index", action="store_true", help="skip the scroll while indexing")
    parser.add_argument("--annotations", type=int, default=ANNOTATIONS, metavar="N",
                        help="review annotations for the second pass (0: no second pass)")
    parser.add_argument("--make", nargs=2, metavar=("PATH", "PAGES"), help=argparse.SUPPRESS)
    parser.add_argument("--annotate", nargs=3, metavar=("PATH", "COUNT", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make:
        _make(Path(args.make[0]), int(args.make[1]))
        return 0
    if args.annotate:
        _annotate(Path(args.annotate[0]), int(args.annotate[1]), Path(args.annotate[2]))
        return 0

    app = QApplication.instance() or QApplication([])
    work = Path(tempfile.mkdtemp(prefix="pdfdesk-gui-bench-docs-"))
    try:
        documents = []
        if args.pages > 0:
            started = time.perf_counter()
            documents.append(generate(work / f"generated-{args.pages}.pdf", args.pages))
            print(f"generated {args.pages} pages in {time.perf_counter() - started:.1f} s")
        documents += [p.resolve() for p in args.pdfs]
        print(f"Qt {__import__('PySide6').__version__}, PyMuPDF {pymupdf.__version__}, "
              f"platform {app.platformName()}, view {VIEW_SIZE[0]}x{VIEW_SIZE[1]}, scroll step {args.step} screen(s), "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
        heartbeat = Heartbeat()
        heartbeat.start()
        spin_until(lambda: False, 3.0)
        print(f"machine noise: longest heartbeat gap over 3 s with nothing to do: {heartbeat.stop():.1f} ms")
        missed: list[str] = []
        for path in documents:
            plain = measure(path, args.step, not args.no_index)
            missed += report(plain)
            if args.annotations > 0 and not plain.error:
                started = time.perf_counter()
                items = make_annotations(path, args.annotations)
                made_s = time.perf_counter() - started
                missed += report_annotated(plain, measure(path, args.step, False, items), made_s)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(HOME, ignore_errors=True)
    if missed:
        print("\nmissed: " + "; ".join(missed))
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
