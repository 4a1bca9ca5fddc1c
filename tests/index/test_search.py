"""pdf_search over the Whoosh index, the direct scan while indexing, and sections."""

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool
from tests.conftest import run_index_queue


def index_now(path: Path, password: str | None = None):
    with open_pdf(str(path), password) as opened:
        target = Target(opened.source, password, opened.fingerprint)
    return build_index(target), target.fingerprint


def search(path, query, **kw):
    result = call_tool("pdf_search", {"path": str(path), "query": query, **kw})
    assert not result.is_error, result.text
    return result


def pages_of(result):
    return [m["page"] for m in result.details["matches"]]


@pytest.fixture
def contract_pdf(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    texts = [
        "The supplier agreed to deliver 1,000 units by 2024. Termination notice must be given in writing.",
        "Payment is due within 30 days. Late payment incurs interest at 4.2 percent.",
        "Warranty: the goods are warranted free of defects. Warranties are limited.",
        "Indemnity and liability are capped. A notice of termination is not required here.",
        "合同条款：付款期限为三十天。",
    ]
    for text in texts:
        page = doc.new_page()
        page.insert_font(fontname="cjk", fontbuffer=pymupdf.Font("cjk").buffer)
        page.insert_textbox(pymupdf.Rect(72, 72, 520, 400), text + " " + "Filler sentence for paragraph length. " * 3,
                            fontname="cjk", fontsize=11)
    path = tmp_path / "contract.pdf"
    doc.save(path)
    return path


def test_keyword_modes_of_query(contract_pdf):
    index_now(contract_pdf)
    assert pages_of(search(contract_pdf, "payment")) == [2]
    assert pages_of(search(contract_pdf, "agree")) == [1]            # stemming: agreed ~ agree
    assert pages_of(search(contract_pdf, '"termination notice"')) == [1]  # phrase
    assert sorted(pages_of(search(contract_pdf, "termination notice"))) == [1, 4]  # both words
    assert sorted(pages_of(search(contract_pdf, "indemnity OR warranty"))) == [3, 4]
    assert pages_of(search(contract_pdf, "termination NOT writing")) == [4]
    assert pages_of(search(contract_pdf, "warrant*")) == [3]
    assert pages_of(search(contract_pdf, "4.2")) == [2]                # numbers stay searchable
    assert pages_of(search(contract_pdf, "30")) == [2]                 # short words too
    assert pages_of(search(contract_pdf, "付款期限")) == [5]            # CJK
    assert search(contract_pdf, "nonexistentword").details["count"] == 0


def test_matches_carry_excerpt_and_rects(contract_pdf):
    index_now(contract_pdf)
    match = search(contract_pdf, "payment").details["matches"][0]
    assert match["rects"] and all(len(r) == 4 for r in match["rects"])
    page = pymupdf.open(contract_pdf)[1]
    words = {page.get_textbox(pymupdf.Rect(r)).strip(" .").lower() for r in match["rects"]}
    assert words <= {"payment"} and words
    assert "Payment is due" in match["excerpt"] and match["excerpt_style"] == "paragraph"
    snippet = search(contract_pdf, "interest", excerpt_style="snippet", context_chars=20).details["matches"][0]
    assert snippet["excerpt_style"] == "snippet" and len(snippet["excerpt"]) <= 2 * 20 + 2
    assert "interest" in snippet["excerpt"]


def test_search_while_indexing_scans_the_rest(long_pdf):
    result = search(long_pdf, "Keyword42")
    # the first answer comes before the index is complete: scanned pages answer too
    assert result.details["count"] >= 1
    assert all((m["page"] % 97) == 42 for m in result.details["matches"])
    run_index_queue()  # the search handed the document to the indexing owner
    full = search(long_pdf, "Keyword42", max_results=100)
    assert full.details["index_complete"] is True
    assert sorted(pages_of(full)) == [n for n in range(1, 1501) if n % 97 == 42]


def test_sections_from_outline(outline_pdf):
    state, _ = index_now(outline_pdf)
    assert state.sections_source == "outline"
    result = search(outline_pdf, "page 6", granularity="section")
    top = result.details["matches"][0]
    assert top["title"] == "Sources" and top["path"] == "Methods › Data › Sources"
    assert (top["start_page"], top["end_page"]) == (6, 7)


def test_sections_from_headings(tmp_path):
    doc = pymupdf.open()
    for title, body in [("1 Introduction", "alpha " * 60), ("2 Budget", "money " * 60), ("3 Risks", "danger " * 60)]:
        page = doc.new_page()
        page.insert_text((72, 80), title, fontsize=20, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, 100, 520, 500), body, fontsize=10)
    path = tmp_path / "headings.pdf"
    doc.save(path)
    state, _ = index_now(path)
    assert state.sections_source == "headings" and state.section_count == 3
    top = search(path, "money", granularity="section").details["matches"][0]
    assert top["title"] == "2 Budget" and top["start_page"] == 2


def test_stale_index_is_not_served(contract_pdf, tmp_path):
    _, old_fingerprint = index_now(contract_pdf)
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Completely different words: zebra crossing.")
    doc.save(contract_pdf.with_suffix(".new"))
    shutil.move(contract_pdf.with_suffix(".new"), contract_pdf)
    assert search(contract_pdf, "payment").details["count"] == 0
    assert pages_of(search(contract_pdf, "zebra")) == [1]
    with open_pdf(str(contract_pdf)) as opened:
        assert opened.fingerprint != old_fingerprint


def test_version_change_rebuilds(contract_pdf, monkeypatch):
    _state, fingerprint = index_now(contract_pdf)
    import pdfdesk.index.store as store

    monkeypatch.setattr(store, "INDEX_VERSION", store.INDEX_VERSION + 1)
    assert DocumentIndex(fingerprint).read_state() is None  # old stamp: treated as absent


def test_kill_during_build_leaves_a_usable_index(long_pdf, pdfdesk_home):
    script = textwrap.dedent(f"""
        import os, signal
        import pdfdesk.index.builder as b
        from pdfdesk.core.documents import open_pdf
        real = b.DocumentIndex.write_state
        calls = []
        def write_state(self, state):
            real(self, state)
            calls.append(1)
            if state.pages_indexed >= 500:
                os.kill(os.getpid(), signal.SIGKILL)
        b.DocumentIndex.write_state = write_state
        with open_pdf({str(long_pdf)!r}) as o:
            t = b.Target(o.source, None, o.fingerprint)
        b.build_index(t)
    """)
    proc = subprocess.run([sys.executable, "-c", script], env={**__import__("os").environ,
                          "PDFDESK_HOME": str(pdfdesk_home)}, capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr.decode()
    with open_pdf(str(long_pdf)) as opened:
        fingerprint = opened.fingerprint
    state = DocumentIndex(fingerprint).read_state()
    assert state is not None and 0 < state.pages_indexed < 1500
    search(long_pdf, "Keyword7")  # answers from what is there, and queues the rest
    run_index_queue()
    full = search(long_pdf, "Keyword7", max_results=100)
    assert sorted(pages_of(full)) == [n for n in range(1, 1501) if n % 97 == 7]


def test_semantic_mode_without_model_is_an_error(contract_pdf):
    result = call_tool("pdf_search", {"path": str(contract_pdf), "query": "x", "mode": "semantic"})
    assert result.details["error"] == "semantic_unavailable"
    auto = search(contract_pdf, "payment")
    assert auto.details["mode"] == "keyword" and auto.details["semantic_unavailable"]


def test_a_hundred_results_stay_under_64_kb(tmp_path):
    """Long paragraphs in several scripts on every page: the response is cut to fit, each match's
    excerpt appears once in the text, and the cut is counted."""
    import json

    doc = pymupdf.open()
    font = pymupdf.Font("cjk")
    for number in range(1, 161):
        page = doc.new_page()
        page.insert_font(fontname="cjk", fontbuffer=font.buffer)
        text = (f"Clause {number}: the licensee shall indemnify the licensor against every claim. "
                "Лицензиат возмещает лицензиару любые убытки. 被许可方应赔偿许可方的一切损失。 ") * 6
        page.insert_textbox(pymupdf.Rect(40, 40, 560, 800), text, fontname="cjk", fontsize=9)
    path = tmp_path / "licence.pdf"
    doc.save(path)
    index_now(path)
    result = search(path, "indemnify", max_results=100, mode="keyword", context_chars=2000)
    details = result.details
    text = "".join(item["text"] for item in result.to_dict()["content"] if item["type"] == "text")
    assert len(text.encode()) <= 64_000
    assert len(json.dumps(details, ensure_ascii=False).encode()) <= 64_000
    assert details["matches_omitted"] > 0 and details["count"] + details["matches_omitted"] == 100
    for match in details["matches"]:
        assert text.count(match["excerpt"]) == 1
    assert "omitted" in text


def test_first_section_search_keeps_every_note(outline_pdf):
    details = search(outline_pdf, "chapter", granularity="section").details
    assert details["sections_pending"] is True
    assert "Sections are still being indexed" in details["note"]
    assert "pages not yet indexed were read directly" in details["note"]


@pytest.mark.parametrize(("asked", "used"), [({"max_results": 500}, {"max_results": 100}),
                                             ({"max_results": 0}, {"max_results": 1}),
                                             ({"context_chars": 3}, {"context_chars": 10}),
                                             ({"context_chars": 10**6}, {"context_chars": 2000})])
def test_numbers_out_of_range_are_brought_within_with_a_note(contract_pdf, asked, used):
    result = search(contract_pdf, "interest", mode="keyword", excerpt_style="snippet", **asked)
    assert not result.is_error, result.text
    ((key, value),) = used.items()
    allowed = "1-100" if key == "max_results" else "10-2000"
    assert result.details["notes"] == [f"{key}={asked[key]} is outside {allowed}; {value} was used."]
    assert f"Note: {key}={asked[key]}" in result.text
    if key == "max_results" and value == 1:
        assert result.details["count"] == 1


def test_numbers_in_range_get_no_note(contract_pdf):
    result = search(contract_pdf, "interest", mode="keyword", max_results=100, context_chars=10)
    assert "notes" not in result.details


def test_a_document_built_in_many_batches_ends_as_one_segment(tmp_path, pdfdesk_home, monkeypatch):
    # each batch commits a segment; a query on an index of many sets up a matcher per word and
    # segment, so the last batch merges them (relaxed queries three times faster on 2,500 pages)
    import pdfdesk.index.builder as builder
    from pdfdesk.index.store import PAGES

    monkeypatch.setattr(builder, "BATCH_PAGES", 100)  # batches this big are never merged on the way
    doc = pymupdf.open()
    for number in range(1, 601):
        doc.new_page().insert_text((72, 72), f"Page {number} holds the word marker{number} and common text.")
    path = tmp_path / "batches.pdf"
    doc.save(path)
    state, fingerprint = index_now(path)
    assert state.pages_indexed == 600
    index = DocumentIndex(fingerprint)
    index.open(600)
    assert len(index.whoosh(PAGES)._segments()) == 1
    assert pages_of(search(path, "marker17", mode="keyword")) == [17]
    assert sorted(pages_of(search(path, "marker599 OR marker1", mode="keyword"))) == [1, 599]


def test_asking_for_an_index_that_does_not_exist_leaves_no_folder(pdfdesk_home):
    # a progress poll still running when the data folder changes must not litter the new one
    assert DocumentIndex("0" * 64).read_state() is None
    assert not (pdfdesk_home / "indices").exists()


def test_a_process_keeps_only_the_most_recently_used_searchers_open(tmp_path, monkeypatch):
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index import store
    from pdfdesk.index.builder import Target, build_index
    from pdfdesk.tools import call_tool
    from tests.pdf_factory import text_pdf as make_pdf

    monkeypatch.setattr(store, "MAX_OPEN_SEARCHERS", 2)
    paths = [make_pdf(tmp_path / f"d{n}.pdf", pages=2, words=f"Page {{n}} of report{n}.") for n in range(4)]
    for path in paths:
        with open_pdf(str(path)) as opened:
            build_index(Target(opened.source, None, opened.fingerprint))
    for round_ in range(2):
        for n, path in enumerate(paths):
            result = call_tool("pdf_search", {"path": str(path), "query": f"report{n}", "mode": "keyword"})
            assert sorted(m["page"] for m in result.details["matches"]) == [1, 2], (round_, n)
            assert len(store._searchers) <= 2
