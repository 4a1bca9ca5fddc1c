"""call_tool_isolated: tool calls in worker processes that are killed on timeout and replaced
after a crash, so the GUI and the MCP server stay up whatever a PDF does to MuPDF."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.tools.isolated import (
    ToolWorkerPool,
    call_tool_isolated,
    shutdown,
    tool_call_timeout,
)
from tests.hardening.corpus import one_page, slow_render_page


@pytest.fixture
def pool():
    workers = ToolWorkerPool(size=1, timeout=30)
    yield workers
    workers.close()


@pytest.fixture(scope="module")
def slow_pdf(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("slow") / "slow.pdf"
    path.write_bytes(slow_render_page())
    return str(path)


def test_results_come_back_like_call_tool(pool, text_pdf):
    result = pool.call("pdf_extract_text", {"path": str(text_pdf), "pages": "2"})
    assert not result.is_error and "Page 2 says hello" in result.text
    assert "<<<PDF_CONTENT" in result.text and result.details["pages_returned"] == "2"
    error = pool.call("pdf_info", {"path": str(text_pdf) + ".missing"})
    assert error.is_error and error.details["error"] == "file_not_found"


def test_config_and_home_follow_the_caller(pool, text_pdf, tmp_path, pdfdesk_home):
    set_config(Config(workspace_only=True, roots=(str(tmp_path),), semantic=False))
    assert pool.call("pdf_info", {"path": str(text_pdf)}).details["error"] == "outside_workspace"
    set_config(Config(semantic=False))
    rendered = pool.call("pdf_render_page", {"path": str(text_pdf), "page": 1, "dpi": 72})
    assert rendered.details["path"].startswith(str(pdfdesk_home))


def test_a_hang_is_stopped_at_the_timeout_and_the_next_call_works(pool, slow_pdf, text_pdf):
    started = time.monotonic()
    result = pool.call("pdf_render_page", {"path": slow_pdf, "page": 1, "dpi": 300}, timeout=0.5)
    assert time.monotonic() - started < 3
    assert result.is_error and result.details["error"] == "pdf_error"
    assert "did not finish within 0.5 s" in result.details["message"] and result.details["hint"]
    assert pool.stats.timeouts == 1
    assert not pool.call("pdf_info", {"path": str(text_pdf)}).is_error


def test_a_crashed_worker_is_a_coded_error_and_is_replaced(pool, slow_pdf, text_pdf):
    assert not pool.call("pdf_info", {"path": str(text_pdf)}).is_error
    (pid,) = pool.worker_pids()
    killer = threading.Timer(0.3, os.kill, (pid, signal.SIGSEGV))  # what a MuPDF stack overflow looks like
    killer.start()
    result = pool.call("pdf_render_page", {"path": slow_pdf, "page": 1, "dpi": 300}, timeout=20)
    killer.join()
    assert result.is_error and result.details["error"] == "pdf_error"
    assert "crashed the PDF engine" in result.details["message"] and "signal 11" in result.details["message"]
    assert pool.stats.crashes == 1
    after = pool.call("pdf_info", {"path": str(text_pdf)})
    assert not after.is_error and pool.worker_pids() != [pid]


def test_memory_limit_turns_a_memory_hog_into_a_coded_error(text_pdf, tmp_path):
    # A worker needs ~120 MB of address space once its imports are done; a 14400 pt page at 300 dpi
    # is a 40-megapixel (120 MB) pixmap plus its PNG, over a 250 MB limit.
    big = tmp_path / "big-page.pdf"
    big.write_bytes(one_page(media=b"[0 0 14400 14400]"))
    small = ToolWorkerPool(size=1, timeout=30, memory_limit_mb=250)
    try:
        assert not small.call("pdf_info", {"path": str(text_pdf)}).is_error
        result = small.call("pdf_render_page", {"path": str(big), "page": 1, "dpi": 300})
        assert result.is_error and result.details["error"] == "pdf_error", result.details
        assert not small.call("pdf_info", {"path": str(text_pdf)}).is_error  # the pool is still usable
    finally:
        small.close()


def test_concurrent_callers_share_the_pool(text_pdf):
    shared = ToolWorkerPool(size=2, timeout=30)
    try:
        results = []

        def ask(page: int) -> None:
            results.append(shared.call("pdf_extract_text", {"path": str(text_pdf), "pages": str(page)}))

        threads = [threading.Thread(target=ask, args=(1 + i % 3,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert len(results) == 6 and not any(r.is_error for r in results)
        assert len(shared.worker_pids()) <= 2
    finally:
        shared.close()


def test_module_level_helper(text_pdf):
    try:
        assert call_tool_isolated("pdf_outline", {"path": str(text_pdf)}).details["count"] == 0
    finally:
        shutdown()


def test_an_overall_deadline_counts_the_worker_start_up(text_pdf):
    fresh = ToolWorkerPool(size=1, timeout=30)
    try:
        started = time.monotonic()
        result = fresh.call("pdf_info", {"path": str(text_pdf)}, timeout=0.01, overall=True)
        assert time.monotonic() - started < 1.5
        assert result.is_error and result.details["error"] == "pdf_error"
        assert "did not finish within 0.01 s" in result.details["message"]
        assert not fresh.call("pdf_info", {"path": str(text_pdf)}, timeout=30, overall=True).is_error
    finally:
        fresh.close()


def test_the_call_deadline_follows_the_config():
    config = Config(tool_timeout_s=7, model_timeout_s=10)
    assert tool_call_timeout("pdf_render_page", config) == 7
    assert tool_call_timeout("pdf", config) == 30  # three model requests
    assert tool_call_timeout("pdf", config.replace(tool_timeout_s=90)) == 90


def test_a_worker_loads_every_tool_without_numpy():
    """numpy (and the BLAS it brings, about 120 MB of address space) loads only once a search or
    an embedding runs: a worker that renders or extracts text stays within a tight memory limit."""
    import subprocess
    import sys

    code = ("import sys; from pdfdesk.tools.registry import all_tools; all_tools(); "
            "print('numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "False"
