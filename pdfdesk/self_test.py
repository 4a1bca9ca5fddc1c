"""`pdfdesk --self-test`: prove an installation works end to end, in one line.

Installers (the .deb smoke test, the Windows setup, the macOS build) run it right after
installing, where a missing Qt plugin, a data file PyInstaller left out or a broken MuPDF shows
up as a named failing step instead of a window that never appears. It runs in a throwaway
PDFDESK_HOME with default settings, so the user's files, indices and config are never touched and
no model or network is involved: the answer step always uses the offline answerer.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pdfdesk.core import paths
from pdfdesk.core.config import Config, set_config

T = TypeVar("T")

# Seconds each step may take: generous for a cold start from a slow disk, short enough that a
# hang is reported long before a user gives up.
STEP_TIMEOUTS = {"open": 20.0, "render": 20.0, "search": 30.0, "answer": 30.0, "workers": 60.0, "window": 30.0}
SEARCH_QUERY = "citations"          # a word the bundled sample uses on its agent page
QUESTION = "How do citations work?"
RENDER_DPI = 100
WATCHDOG_MARGIN_S = 15.0            # on top of the steps' own limits, for start-up and clean-up


class SelfTestFailed(Exception):
    """A step failed; `step` names it and the message says what went wrong."""

    def __init__(self, step: str, message: str) -> None:
        super().__init__(f"{step}: {message}")
        self.step = step
        self.message = message


@dataclass
class Report:
    """What a run measured: seconds per step (in order) and one short fact each step established."""

    timings: dict[str, float] = field(default_factory=dict)
    facts: list[str] = field(default_factory=list)
    current: str = ""                 # the step running now (the watchdog names it on a hang)

    def line(self) -> str:
        steps = ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in self.timings.items())
        total = sum(self.timings.values())
        return f"pdfdesk self-test OK: {steps}; total {total:.2f} s ({'; '.join(self.facts)})"


def _bounded(step: str, func: Callable[[], T], timeout: float) -> T:
    """Run `func` in a daemon thread and give up after `timeout` s (a hung MuPDF call cannot block us)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = func()
        except BaseException as exc:  # reported as this step's failure
            box["error"] = exc

    worker = threading.Thread(target=target, name=f"self-test-{step}", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise SelfTestFailed(step, f"did not finish within {timeout:g} s")
    if "error" in box:
        error = box["error"]
        if isinstance(error, SelfTestFailed):
            raise error
        raise SelfTestFailed(step, f"{type(error).__name__}: {error}") from error
    return box["value"]


def _tool(step: str, name: str, args: dict[str, Any]) -> Any:
    from pdfdesk.tools import call_tool

    result = call_tool(name, args)
    if result.is_error:
        details = result.details
        raise SelfTestFailed(step, f"{name} returned {details.get('error')}: {details.get('message')}")
    return result


# -- the steps -----------------------------------------------------------------------------------
def check_open(sample: Path) -> tuple[int, str]:
    result = _tool("open", "pdf_info", {"path": str(sample)})
    pages = int(result.details.get("pages_total") or 0)
    if pages < 1:
        raise SelfTestFailed("open", f"{sample.name} reports {pages} pages")
    return pages, f"{sample.name}: {pages} pages"


def check_render(sample: Path) -> str:
    import pymupdf

    result = _tool("render", "pdf_render_page", {"path": str(sample), "page": 1, "dpi": RENDER_DPI})
    png = Path(result.details["path"])
    if not png.is_file() or png.stat().st_size == 0:
        raise SelfTestFailed("render", f"no image was written at {png}")
    pixmap = pymupdf.Pixmap(str(png))
    if pixmap.is_unicolor:
        raise SelfTestFailed("render", f"page 1 rendered as a single colour ({pixmap.width}x{pixmap.height})")
    return f"page 1 rendered {pixmap.width}x{pixmap.height}"


def check_search(sample: Path, pages: int) -> str:
    result = _tool("search", "pdf_search", {"path": str(sample), "query": SEARCH_QUERY, "mode": "keyword",
                                            "max_results": 5})
    matches = result.details.get("matches") or []
    if not matches:
        raise SelfTestFailed("search", f"no match for {SEARCH_QUERY!r} in {sample.name}")
    bad = [m.get("page") for m in matches if not isinstance(m.get("page"), int) or not 1 <= m["page"] <= pages]
    if bad:
        raise SelfTestFailed("search", f"matches on pages that do not exist: {bad}")
    found = sorted({m["page"] for m in matches})
    return f"{SEARCH_QUERY!r} on p. {', '.join(map(str, found))}"


def check_answer(sample: Path, pages: int, config: Config) -> str:
    from pdfdesk.agent.events import AgentError
    from pdfdesk.agent.loop import TurnState
    from pdfdesk.agent.offline import OfflineAnswerer

    async def answer() -> tuple[TurnState, list[AgentError]]:
        state = TurnState()
        errors = [event async for event in OfflineAnswerer([str(sample)], config).answer(QUESTION, state)
                  if isinstance(event, AgentError)]
        return state, errors

    state, errors = asyncio.run(answer())
    if errors:
        raise SelfTestFailed("answer", errors[0].message)
    cited = sorted({c.page for c in state.citations if 1 <= c.page <= pages})
    if not cited:
        raise SelfTestFailed("answer", f"the offline answer cites no page: {state.answer[:120]!r}")
    if f"[p. {cited[0]}]" not in state.answer:
        raise SelfTestFailed("answer", f"the citation of p. {cited[0]} is missing from the answer text")
    return f"offline answer cites p. {', '.join(map(str, cited))}"


def check_workers(sample: Path) -> str:
    """The processes the window relies on start from this installation (a frozen bundle re-enters
    its own executable for each): a tool worker, an index build, the viewer's render helper; and the
    built-in embedding model is there and intact, so semantic search works offline."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index import embedding
    from pdfdesk.index.builder import Target
    from pdfdesk.index.owner import IndexOwner
    from pdfdesk.index.queue import INTERACTIVE
    from pdfdesk.index.store import DocumentIndex
    from pdfdesk.tools.isolated import call_tool_isolated, shutdown

    try:
        result = call_tool_isolated("pdf_outline", {"path": str(sample)}, STEP_TIMEOUTS["workers"] / 3)
    finally:
        shutdown()
    if result.is_error:
        raise SelfTestFailed("workers", f"tool worker process: {result.details.get('message')}")
    with open_pdf(str(sample)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    owner = IndexOwner()
    owner.submit(target, INTERACTIVE)
    outcomes = owner.drain()
    state = DocumentIndex(target.fingerprint).read_state()
    if not outcomes or outcomes[0].result != "done" or state is None or not state.pages_complete:
        why = outcomes[0].message or outcomes[0].result if outcomes else "nothing was built"
        raise SelfTestFailed("workers", f"index build process: {why}")
    available, reason = embedding.model_status(Config(semantic=True))
    if not available:
        raise SelfTestFailed("workers", f"built-in embedding model: {reason}")
    if os.name == "posix":
        from pdfdesk.gui.viewer.render_process import HELPER

        HELPER.start()
        try:
            while not HELPER.ready():
                if HELPER.pid() is None:
                    raise SelfTestFailed("workers", "the page render helper process exited at start")
                time.sleep(0.05)
        finally:
            HELPER.stop()
    return "tool worker, index build and render helper processes started; built-in embedding model intact"


def check_window(sample: Path, timeout: float) -> str:
    """The main window until the viewer paints the first page (Qt lives in pdfdesk.gui)."""
    from pdfdesk.gui.self_test_window import WindowCheckFailed, check_window as show_and_wait

    try:
        return show_and_wait(sample, timeout)
    except WindowCheckFailed as exc:
        raise SelfTestFailed("window", str(exc)) from None


# -- running ---------------------------------------------------------------------------------------
@contextmanager
def isolated_home() -> Iterator[Config]:
    """A throwaway PDFDESK_HOME and default settings (no embedding model: nothing to download)."""
    previous = os.environ.get("PDFDESK_HOME")
    with tempfile.TemporaryDirectory(prefix="pdfdesk-self-test-", ignore_cleanup_errors=True) as home:
        os.environ["PDFDESK_HOME"] = home
        config = Config(semantic=False)
        set_config(config)
        try:
            yield config
        finally:
            if "pdfdesk.index.owner" in sys.modules:  # index builds write into `home`: let them end
                sys.modules["pdfdesk.index.owner"].default_owner().stop(10)
            from pdfdesk.core.documents import close_all

            close_all()
            set_config(None)
            if previous is None:
                os.environ.pop("PDFDESK_HOME", None)
            else:
                os.environ["PDFDESK_HOME"] = previous


def run_self_test(sample: Path | None = None, window: bool = True, report: Report | None = None,
                  timeouts: dict[str, float] | None = None) -> Report:
    """Run every step in order; raises SelfTestFailed at the first that fails."""
    sample = Path(sample or paths.sample_pdf())
    report = report if report is not None else Report()
    limits = {**STEP_TIMEOUTS, **(timeouts or {})}

    def step(name: str, func: Callable[[], T], in_thread: bool = True) -> T:
        report.current = name
        started = time.perf_counter()
        if in_thread:
            value = _bounded(name, func, limits[name])
        else:
            try:
                value = func()
            except SelfTestFailed:
                raise
            except Exception as exc:  # a missing module or a Qt binding error names the step too
                raise SelfTestFailed(name, f"{type(exc).__name__}: {exc}") from exc
        report.timings[name] = time.perf_counter() - started
        return value

    if not sample.is_file():
        raise SelfTestFailed("open", f"the bundled sample PDF is missing: {sample}")
    with isolated_home() as config:
        pages, fact = step("open", lambda: check_open(sample))
        report.facts.append(fact)
        report.facts.append(step("render", lambda: check_render(sample)))
        report.facts.append(step("search", lambda: check_search(sample, pages)))
        report.facts.append(step("answer", lambda: check_answer(sample, pages, config)))
        report.facts.append(step("workers", lambda: check_workers(sample)))
        if window:  # Qt widgets live on the main thread; the step bounds its own wait
            report.facts.append(step("window", lambda: check_window(sample, limits["window"]), in_thread=False))
    report.current = ""
    return report


def _start_watchdog(report: Report, deadline: float) -> threading.Timer:
    """A hang the steps cannot bound themselves (inside Qt's C++ code) still ends in one line."""
    def expire() -> None:
        sys.stdout.write(f"pdfdesk self-test FAILED at {report.current or 'start'}: "
                         f"no result within {deadline:.0f} s\n")
        sys.stdout.flush()
        os._exit(1)

    timer = threading.Timer(deadline, expire)
    timer.daemon = True
    timer.start()
    return timer


def main(window: bool = True) -> int:
    """The `--self-test` command: one line on stdout, exit status 0 (OK) or 1 (FAILED)."""
    # the window's chat pane looks API keys up; a locked desktop keyring must not prompt or block here
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    report = Report()
    watchdog = _start_watchdog(report, sum(STEP_TIMEOUTS.values()) + WATCHDOG_MARGIN_S)
    try:
        run_self_test(window=window, report=report)
    except SelfTestFailed as exc:
        sys.stdout.write(f"pdfdesk self-test FAILED at {exc.step}: {exc.message}\n")
        sys.stdout.flush()
        return 1
    finally:
        watchdog.cancel()
    sys.stdout.write(report.line() + "\n")
    sys.stdout.flush()
    return 0
