"""Two MCP clients search a document while a third process (the app's library queue) indexes it.

The builder runs the real build path in small, slowed-down batches so that dozens of Whoosh
commits land while the servers search: every answer must be correct for the pages it covers
(indexed pages from the index, the rest read directly or reported as not searched), none may be
an error, and the build must finish undisturbed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import anyio
import pymupdf
import pytest

from pdfdesk.core.pages import parse_page_spec
from tests.mcp.client import call_ok, mcp_session, server_env, server_log

pytestmark = pytest.mark.anyio

PAGES = 1500
EXPECTED = [n for n in range(1, PAGES + 1) if n % 97 == 42]  # where many_pages_pdf writes "Keyword42"

GUI_SIDE_BUILDER = textwrap.dedent("""
    import os, sys, time
    from pdfdesk.index import builder
    from pdfdesk.index.library import Library

    builder.BATCH_PAGES = 50          # 30 commits: many chances to catch a reader mid-commit
    real_extract = builder.page_texts
    searched = sys.argv[2]            # exists once both clients have had an answer

    def slow_extract(target, first, last):
        time.sleep(0.04)
        if first > 200:  # a few batches are in: the rest waits for the searches, however slow the machine
            deadline = time.monotonic() + 60
            while not os.path.exists(searched) and time.monotonic() < deadline:
                time.sleep(0.02)
        return real_extract(target, first, last)

    builder.page_texts = slow_extract
    library = Library()
    library.add([sys.argv[1]])
    library.process()
    print(" ".join(entry.status for entry in library.entries()), flush=True)
""")


@pytest.fixture(scope="module")
def chaptered_pdf(long_pdf: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 1,500-page document with an outline: its sections come from the outline, so the build's
    time goes to the page batches the searches overlap, not to heading detection."""
    path = tmp_path_factory.mktemp("chaptered") / "chaptered-1500.pdf"
    doc = pymupdf.open(long_pdf)
    doc.set_toc([[1, f"Part {n // 150 + 1}", n + 1] for n in range(0, PAGES, 150)])
    doc.save(path)
    doc.close()
    return path


def index_state(home: Path) -> dict | None:
    found = list((home / "indices").glob("*/state.json"))
    return json.loads(found[0].read_text()) if found else None


def check_answer(details: dict) -> None:
    """Every expected page is either in the matches or reported as not searched; nothing else is."""
    pages = sorted(m["page"] for m in details["matches"])
    assert set(pages) <= set(EXPECTED), pages
    skipped = details.get("pages_not_searched")
    not_searched = set(parse_page_spec(skipped, PAGES)) if skipped else set()
    assert set(EXPECTED) - set(pages) <= not_searched, (pages, details.get("pages_not_searched"))
    if details["index_complete"]:
        assert pages == EXPECTED


async def search_until(session, pdf: Path, builder: subprocess.Popen, seen: dict[str, list[dict]], name: str,
                       searched: Path) -> None:
    while True:
        finished = builder.poll() is not None
        result = await call_ok(session, "pdf_search", {"path": str(pdf), "query": "Keyword42", "max_results": 100})
        details = result.structured_content
        check_answer(details)
        seen[name].append(details)
        if all(any(d.get("pages_indexed", 0) > 0 and not d["index_complete"] for d in answers)
               for answers in seen.values()):
            searched.touch()  # lets the build go on: both clients have searched it half done
        if finished:
            return
        await anyio.sleep(0.15)


async def test_two_clients_search_while_the_app_builds_the_index(server_home, chaptered_pdf):
    env = {**os.environ, **server_env(server_home)}
    seen: dict[str, list[dict]] = {"a": [], "b": []}
    async with mcp_session(server_home) as first, mcp_session(server_home) as second:
        searched = server_home / "both-searched"
        builder = subprocess.Popen([sys.executable, "-c", GUI_SIDE_BUILDER, str(chaptered_pdf), str(searched)], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            with anyio.fail_after(60):  # the build has begun and committed its first batch
                while not (index_state(server_home) or {}).get("pages_indexed"):
                    assert builder.poll() is None, builder.communicate()
                    await anyio.sleep(0.02)
            async with anyio.create_task_group() as group:
                group.start_soon(search_until, first, chaptered_pdf, builder, seen, "a", searched)
                group.start_soon(search_until, second, chaptered_pdf, builder, seen, "b", searched)
            out, err = builder.communicate(timeout=60)
        finally:
            if builder.poll() is None:
                builder.kill()
                builder.communicate()
    assert builder.returncode == 0 and out.strip() == "indexed", err
    for answers in seen.values():
        during = [d for d in answers if not d["index_complete"]]
        assert any(d["pages_indexed"] > 0 for d in during), "no search overlapped the build"
        assert answers[-1]["index_complete"] is True
    state = index_state(server_home)
    assert state["pages_indexed"] == PAGES and state["sections_indexed"] is True
    log = server_log(server_home)
    assert "Traceback" not in log and "ERROR" not in log, log


async def test_an_index_built_by_the_app_is_searched_at_once(server_home, tmp_path):
    from pdfdesk.index.library import Library
    from tests.pdf_factory import many_pages_pdf

    pdf = many_pages_pdf(tmp_path / "report.pdf", 300)
    Library().add([str(pdf)])
    Library().process()  # the app's library queue
    assert [entry.status for entry in Library().entries()] == ["indexed"]
    state_file = next((server_home / "indices").glob("*/state.json"))
    before = (state_file.read_text(), sorted((p.name, p.stat().st_mtime_ns) for p in state_file.parent.rglob("*")))
    async with mcp_session(server_home) as session:
        started = time.perf_counter()
        result = await call_ok(session, "pdf_search", {"path": str(pdf), "query": "Keyword42", "max_results": 100})
        elapsed = time.perf_counter() - started
        library = await call_ok(session, "pdf_search", {"library": True, "query": "Keyword42", "max_results": 100})
    details = result.structured_content
    assert details["index_complete"] is True and "pages_scanned" not in details and "note" not in details
    assert sorted(m["page"] for m in details["matches"]) == [n for n in range(1, 301) if n % 97 == 42]
    assert library.structured_content["documents_searched"] == 1
    assert {m["page"] for m in library.structured_content["matches"]} == {42, 139, 236}
    after = (state_file.read_text(), sorted((p.name, p.stat().st_mtime_ns) for p in state_file.parent.rglob("*")))
    assert after == before  # read, not rebuilt
    assert elapsed < 5.0


async def test_an_index_built_by_the_server_serves_the_app(server_home, tmp_path):
    from pdfdesk.index.queue import IndexQueue
    from pdfdesk.tools import call_tool
    from tests.pdf_factory import many_pages_pdf

    pdf = many_pages_pdf(tmp_path / "minutes.pdf", 200)
    async with mcp_session(server_home) as session:
        first = await call_ok(session, "pdf_search", {"path": str(pdf), "query": "Keyword42"})
        assert first.structured_content["index_complete"] is False  # answered before the index existed
        with anyio.fail_after(30):
            while not ((state := index_state(server_home)) and state["sections_indexed"]):
                await anyio.sleep(0.05)
    in_app = call_tool("pdf_search", {"path": str(pdf), "query": "Keyword42", "max_results": 100})
    assert not in_app.is_error and in_app.details["index_complete"] is True and "note" not in in_app.details
    assert sorted(m["page"] for m in in_app.details["matches"]) == [42, 139]
    assert IndexQueue(server_home / "index-queue").jobs() == []  # the server's owner finished the job
