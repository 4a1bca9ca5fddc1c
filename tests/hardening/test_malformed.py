"""Every tool on every damaged or hostile PDF returns a result or a coded error, quickly and small.

The corpus (tests/hardening/corpus.py) holds ~270 files in families; each test runs the five PDF
tools on one family in this process and lists every file that broke a rule, so one run shows all
failures. The rules:
  - a ToolResult, never an exception; an error carries a known code (never internal_error), a
    message and a hint;
  - the result serialises to UTF-8 JSON (MCP, the GUI and model APIs need that);
  - a call takes at most CALL_BOUND_S (the documented in-process bound for this corpus; the
    isolated path in pdfdesk/tools/isolated.py stops any call at its timeout);
  - responses stay within RESPONSE_BOUND_BYTES (renders within the pixel and PNG budgets).
The process surviving the whole module is the "never crashes" check; bench/robustness.py runs the
full-size corpus (and mutated copies of any folder of PDFs) in worker processes.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pdfdesk.core.errors import ERROR_CODES, INTERNAL_ERROR
from pdfdesk.core.render import MAX_PIXELS, MAX_PNG_BYTES, MAX_SIDE
from pdfdesk.tools import call_tool
from pdfdesk.tools.pdf_outline import MAX_ENTRIES
from tests.hardening.corpus import build_corpus

CALL_BOUND_S = 15.0
RESPONSE_BOUND_BYTES = 2_000_000
CALLS: list[tuple[str, dict]] = [
    ("pdf_info", {}),
    ("pdf_extract_text", {}),
    ("pdf_render_page", {"page": 1, "dpi": 72}),
    ("pdf_outline", {}),
    ("pdf_search", {"query": "text", "mode": "keyword"}),
]
FAMILIES = ["truncated", "byte_flips", "broken_xref", "cyclic", "huge", "bombs", "nesting", "fonts", "encryption"]


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    return build_corpus(tmp_path_factory.mktemp("hostile"), scale=0.1)


def problems_of(path: Path, tool: str, extra: dict) -> list[str]:
    started = time.monotonic()
    result = call_tool(tool, {"path": str(path), **extra})
    elapsed = time.monotonic() - started
    found = []
    where = f"{path.name} {tool}"
    if elapsed > CALL_BOUND_S:
        found.append(f"{where}: took {elapsed:.1f} s")
    try:
        size = len(json.dumps(result.to_dict(), ensure_ascii=False).encode("utf-8"))
    except (TypeError, ValueError) as exc:
        return [*found, f"{where}: result is not UTF-8 JSON ({exc})"]
    if result.is_error:
        code = result.details.get("error")
        if code not in ERROR_CODES or code == INTERNAL_ERROR:
            found.append(f"{where}: {code}: {result.details.get('message')}")
        elif not (result.details.get("message") and result.details.get("hint")):
            found.append(f"{where}: error {code} without message or hint")
    elif tool == "pdf_render_page":
        d = result.details
        if d["width"] * d["height"] > MAX_PIXELS or d["bytes"] > MAX_PNG_BYTES:
            found.append(f"{where}: {d['width']}x{d['height']} px, {d['bytes']} bytes")
    bound = MAX_PNG_BYTES * 1.4 + 10_000 if tool == "pdf_render_page" else RESPONSE_BOUND_BYTES
    if size > bound:
        found.append(f"{where}: response of {size:,} bytes")
    return found


@pytest.mark.parametrize("family", FAMILIES)
def test_every_tool_on_every_hostile_file(corpus, family):
    files = corpus[family]
    assert len(files) >= 5
    problems = [p for path in files for tool, extra in CALLS for p in problems_of(path, tool, extra)]
    assert not problems, "\n".join(problems)


def test_corpus_has_hundreds_of_files(corpus):
    assert sum(len(files) for files in corpus.values()) >= 250


def by_name(corpus: dict[str, list[Path]], name: str) -> Path:
    return next(p for files in corpus.values() for p in files if p.stem == name)


@pytest.mark.parametrize("name", ["size-mediabox-1e9", "size-userunit-huge", "size-mediabox-14400", "size-rotate-90",
                                  "size-mediabox-line"])
def test_hostile_page_sizes_render_within_the_pixel_budget(corpus, name):
    result = call_tool("pdf_render_page", {"path": str(by_name(corpus, name)), "page": 1, "dpi": 300})
    assert not result.is_error, result.text
    d = result.details
    assert d["width"] * d["height"] <= MAX_PIXELS and max(d["width"], d["height"]) <= MAX_SIDE
    assert d["effective_dpi"] <= 300


def test_broken_page_trees_are_pdf_errors_not_empty_documents(corpus):
    for name in ("tree-kids-not-array", "tree-kids-self"):
        result = call_tool("pdf_render_page", {"path": str(by_name(corpus, name)), "page": 1})
        assert result.details["error"] == "pdf_error", result.details
        assert "page tree" in result.details["message"] or "cannot be read" in result.details["message"]


def test_huge_outline_is_listed_in_part(corpus):
    result = call_tool("pdf_outline", {"path": str(by_name(corpus, "bomb-outline"))})
    d = result.details
    assert d["count"] == MAX_ENTRIES and d["entries_total"] == 6000 and d["truncated"]
    assert all(len(e["title"]) <= 301 for e in d["entries"])
    assert "listed of 6000" in result.text


def test_huge_metadata_is_capped(corpus):
    d = call_tool("pdf_info", {"path": str(by_name(corpus, "bomb-metadata-title"))}).details
    assert 1000 < len(d["title"]) <= 2001 and d["title"].endswith("…")


def test_a_damaged_page_does_not_hide_the_others(tmp_path):
    from tests.hardening.corpus import TEXT, assemble, stream

    page = b"<</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources <</Font <</F1 5 0 R>>>> /Contents %d 0 R>>"
    data = assemble([
        b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids [3 0 R 4 0 R] /Count 2>>",
        page % 6, page % 7, b"<</Type /Font /Subtype /Type1 /BaseFont /Helvetica>>",
        stream(b"q " * 100_000 + TEXT), stream(TEXT.replace(b"Hostile corpus page text", b"Second page survives")),
    ])
    path = tmp_path / "one-bad-page.pdf"
    path.write_bytes(data)
    result = call_tool("pdf_extract_text", {"path": str(path)})
    assert not result.is_error, result.text
    assert "Second page survives" in result.text
    assert result.details["damaged_pages"] == "1"
    assert "Page 1 could not be read" in result.text
