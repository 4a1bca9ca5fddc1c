"""The library queue (restart-safe, skips unchanged files) and library-wide search."""

import os

import pymupdf

from pdfdesk.index.library import FAILED, INDEXED, QUEUED, Library
from pdfdesk.tools import call_tool
from tests.pdf_factory import field_trial_pdf, text_pdf


def make_doc(path, words):
    doc = pymupdf.open()
    for text in words:
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 700), text, fontsize=11)
    doc.save(path)
    return path


def test_add_queue_process_and_skip_unchanged(tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    text_pdf(folder / "one.pdf")
    text_pdf(folder / "two.pdf", pages=2)
    library = Library()
    added = library.add([str(folder), str(tmp_path / "gone.pdf")])
    statuses = {e.name: e.status for e in library.entries()}
    assert statuses == {"one.pdf": QUEUED, "two.pdf": QUEUED, "gone.pdf": FAILED} and len(added) == 3
    library.process()
    assert {e.name: e.status for e in library.entries()} == {"one.pdf": INDEXED, "two.pdf": INDEXED,
                                                             "gone.pdf": FAILED}
    # adding again changes nothing, and processing does not open or hash unchanged files
    library.add([str(folder)])
    import pdfdesk.index.library as module

    def no_open(*args, **kwargs):
        raise AssertionError("an unchanged file was opened")

    real_open = module.open_pdf
    monkeypatch.setattr(module, "open_pdf", no_open)
    library.process()
    monkeypatch.setattr(module, "open_pdf", real_open)  # not undo(): that would drop PDFDESK_HOME too
    # a changed file is queued again
    text_pdf(folder / "one.pdf", pages=4)
    library.add([str(folder)])
    assert {e.name: e.status for e in library.entries()}["one.pdf"] == QUEUED
    library.process()
    assert {e.name: (e.status, e.pages) for e in library.entries()}["one.pdf"] == (INDEXED, 4)


def test_library_search_spans_documents(tmp_path):
    a = make_doc(tmp_path / "alpha.pdf", ["The lease starts in May.", "Rent is paid monthly by transfer."])
    b = make_doc(tmp_path / "beta.pdf", ["An unrelated memo.", "Rent reviews happen every two years.", "Rent again."])
    Library().add([str(a), str(b)])
    Library().process()
    result = call_tool("pdf_search", {"library": True, "query": "rent"})
    assert not result.is_error, result.text
    found = {(os.path.basename(m["file"]), m["page"]) for m in result.details["matches"]}
    assert found == {("alpha.pdf", 2), ("beta.pdf", 2), ("beta.pdf", 3)}
    assert all(m["rects"] and m["excerpt"] for m in result.details["matches"])
    assert result.details["documents_searched"] == 2
    assert "alpha.pdf, page 2" in result.text


def test_library_or_path_is_required(tmp_path):
    result = call_tool("pdf_search", {"query": "x"})
    assert result.details["error"] == "validation_error" and "library=true" in result.details["message"]
    both = call_tool("pdf_search", {"query": "x", "library": True, "path": str(tmp_path / "a.pdf")})
    assert both.details["error"] == "validation_error"


FILLER = ("Quarterly minutes of the facilities committee record the usual business of the building, "
          "its heating, the cleaning rota and the car park. ")


def test_one_ranking_across_documents_puts_the_page_holding_every_word_first(tmp_path):
    """Documents added first must not win by their place: the page where every word is strongest
    comes first whichever document holds it, and pages holding only some words come after every
    page holding all of them."""
    early = make_doc(tmp_path / "aaa-early.pdf", [
        FILLER * 4 + "The boiler warranty was mentioned once.",
        FILLER * 4 + "A boiler and its warranty came up again, briefly.",
        "Boiler boiler boiler: only the boiler here.",
    ])
    late = make_doc(tmp_path / "zzz-late.pdf", [
        FILLER,
        ("Boiler warranty claim. The boiler warranty covers the boiler for ten years; the warranty "
         "claim for the boiler was filed."),
    ])
    Library().add([str(early), str(late)])
    Library().process()
    result = call_tool("pdf_search", {"library": True, "query": "boiler warranty", "mode": "keyword"})
    assert not result.is_error, result.text
    ranked = [(os.path.basename(m["file"]), m["page"]) for m in result.details["matches"]]
    assert ranked[0] == ("zzz-late.pdf", 2)
    assert set(ranked[:3]) == {("zzz-late.pdf", 2), ("aaa-early.pdf", 1), ("aaa-early.pdf", 2)}
    # auto, the search panel's default, ranks the same pages by their words
    auto = call_tool("pdf_search", {"library": True, "query": "boiler warranty"})
    assert [(os.path.basename(m["file"]), m["page"]) for m in auto.details["matches"]][:3] == ranked[:3]
    assert not any(m.get("low_confidence") for m in auto.details["matches"])


def test_library_search_falls_back_to_pages_holding_some_of_the_words(tmp_path):
    a = make_doc(tmp_path / "a.pdf", ["The invoice from Northwind was paid late.", "Nothing here."])
    b = make_doc(tmp_path / "b.pdf", ["A penalty applies to invoices paid late.",
                                      "Northwind penalty invoice paid late."])
    Library().add([str(a), str(b)])
    Library().process()
    result = call_tool("pdf_search", {"library": True, "query": "northwind invoice penalty dispute"})
    assert not result.is_error, result.text
    matches = result.details["matches"]
    assert (os.path.basename(matches[0]["file"]), matches[0]["page"]) == ("b.pdf", 2)
    assert all(m["keyword_match"] == "partial" for m in matches)
    assert result.details["note"].startswith("No page holds all the words")


def test_a_removed_or_changed_document_leaves_the_library_index(tmp_path):
    from pdfdesk.index.library_fts import SqliteLibrary

    a = make_doc(tmp_path / "a.pdf", ["Zebra crossing near the school."])
    b = make_doc(tmp_path / "b.pdf", ["Zebra stripes in the savanna."])
    library = Library()
    library.add([str(a), str(b)])
    library.process()
    held = SqliteLibrary().fingerprints()
    assert len(held) == 2
    library.remove(str(b))
    make_doc(a, ["Pelican crossing near the school."])  # a changed file is a new version
    library.add([str(a)])
    library.process()
    result = call_tool("pdf_search", {"library": True, "query": "zebra", "mode": "keyword"})
    assert result.details["matches"] == []
    assert len(SqliteLibrary().fingerprints()) == 1 and not (SqliteLibrary().fingerprints() & held)
    found = call_tool("pdf_search", {"library": True, "query": "pelican", "mode": "keyword"}).details["matches"]
    assert [(os.path.basename(m["file"]), m["page"]) for m in found] == [("a.pdf", 1)]


def chaptered(path, chapters):
    """A PDF with one page per (title, text) and an outline entry for each."""
    doc = pymupdf.open()
    for title, text in chapters:
        page = doc.new_page()
        page.insert_text((72, 80), title, fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 100, 520, 700), text, fontsize=11)
    doc.set_toc([[1, title, number] for number, (title, _) in enumerate(chapters, start=1)])
    doc.save(path)
    return path


def test_library_sections_rank_in_one_index_titles_first(tmp_path):
    """A section whose title holds the words comes first whichever document it is in, then
    sections holding them in their text, ranked together across documents."""
    early = chaptered(tmp_path / "aaa-handbook.pdf", [
        ("Introduction", "Welcome. The heating schedule is explained later, in its own chapter."),
        ("Parking", "Bicycles go in the yard."),
    ])
    late = chaptered(tmp_path / "zzz-manual.pdf", [
        ("Overview", "A short overview of the building."),
        ("Heating schedule", "The boilers run from October to April on weekdays."),
    ])
    library = Library()
    library.add([str(early), str(late)])
    library.process()
    result = call_tool("pdf_search", {"library": True, "query": "heating schedule", "granularity": "section"})
    assert not result.is_error, result.text
    matches = result.details["matches"]
    assert [(os.path.basename(m["file"]), m["title"]) for m in matches][:2] == [
        ("zzz-manual.pdf", "Heating schedule"), ("aaa-handbook.pdf", "Introduction")]
    assert matches[0]["granularity"] == "section" and matches[0]["start_page"] == 2 and matches[0]["rects"]
    # removing a document takes its sections out of the library index too
    library.remove(str(late))
    library.process()
    again = call_tool("pdf_search", {"library": True, "query": "heating schedule", "granularity": "section"})
    assert [os.path.basename(m["file"]) for m in again.details["matches"]] == ["aaa-handbook.pdf"]


KILLED_BUILD = """
import sys
from pdfdesk.index.library import Library, build_library_index
library = Library()
build_library_index(library.register(), library, batch_pages=int(sys.argv[1]))
"""


def test_a_build_killed_half_way_resumes_with_every_document_in_once(tmp_path, pdfdesk_home):
    import signal
    import subprocess
    import sys
    import time

    from pdfdesk.index.library_fts import SqliteLibrary

    folder = tmp_path / "case"
    folder.mkdir()
    for n in range(40):
        make_doc(folder / f"doc-{n:02d}.pdf", [f"Exhibit {n} page {p} mentions item{n}x{p}." for p in range(1, 6)])
    Library().add([str(folder)])
    env = {**os.environ, "PDFDESK_HOME": str(pdfdesk_home)}
    builder = subprocess.Popen([sys.executable, "-c", KILLED_BUILD, "10"], env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while SqliteLibrary().state().documents == 0 and builder.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.killpg(builder.pid, signal.SIGKILL)  # the command and its indexing child, at once
    builder.wait()
    first = SqliteLibrary().state()
    assert 0 < first.documents < 40, "the kill did not land half way (the build was too fast to catch)"
    library = Library()
    rest = library.register()  # the documents the killed run had not committed are queued again
    assert len(rest) == 40 - first.documents
    from pdfdesk.index.library import build_library_index

    build_library_index(rest, library)
    state = SqliteLibrary().state()
    assert (state.documents, state.pages) == (40, 200)
    assert {e.status for e in Library().entries()} == {INDEXED}
    hits = call_tool("pdf_search", {"library": True, "query": "item17x3", "mode": "keyword"}).details["matches"]
    assert [(os.path.basename(m["file"]), m["page"]) for m in hits] == [("doc-17.pdf", 3)]


def test_children_that_cannot_start_fail_their_documents_instead_of_looping(tmp_path, monkeypatch):
    from pdfdesk.core import childproc
    from pdfdesk.index import library as library_module
    from pdfdesk.index.library import FAILED, build_library_index

    for n in range(3):
        make_doc(tmp_path / f"d{n}.pdf", [f"Page of document {n}."])
    library = Library()
    library.add([str(tmp_path)])
    started = []

    def refuse(*args, **kwargs):
        started.append(1)
        raise childproc.ChildFailed("pdfdesk-library-index", childproc.START, "could not start: no memory.", "")

    monkeypatch.setattr(library_module.childproc, "run_job", refuse)
    build = build_library_index(library.register(), library, workers=1)
    assert build.failed == 3 and build.documents == 0 and len(started) == library_module.FRUITLESS_CHILDREN
    assert {e.status for e in library.entries()} == {FAILED}
    assert all("could not start" in (e.error or "") for e in library.entries())


def test_a_catalogue_kept_in_library_json_by_an_earlier_version_is_taken_over_once(tmp_path, pdfdesk_home):
    import json

    doc = make_doc(tmp_path / "kept.pdf", ["A lease kept in the old catalogue."])
    info = doc.stat()
    pdfdesk_home.mkdir(parents=True, exist_ok=True)
    (pdfdesk_home / "library.json").write_text(json.dumps({"documents": [
        {"path": str(doc), "name": "kept.pdf", "size": info.st_size, "mtime_ns": info.st_mtime_ns,
         "fingerprint": "old", "status": "indexed", "error": None, "pages": 1, "added": 1.0}]}), encoding="utf-8")
    library = Library()
    assert [(e.name, e.status) for e in library.entries()] == [("kept.pdf", QUEUED)]  # to be added anew
    assert not (pdfdesk_home / "library.json").exists() and (pdfdesk_home / "library.json.adopted").exists()
    library.process()
    found = call_tool("pdf_search", {"library": True, "query": "lease catalogue", "mode": "keyword"})
    assert [os.path.basename(m["file"]) for m in found.details["matches"]] == ["kept.pdf"]


def _library_with_vectors(paths) -> None:
    """The documents in the library index, each with its own index and vectors (auto is hybrid)."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index.builder import Target, build_index, build_vectors

    Library().add([str(path) for path in paths])
    Library().process()
    for path in paths:
        with open_pdf(str(path)) as opened:
            target = Target(opened.source, None, opened.fingerprint)
        build_index(target)
        build_vectors(target)


def test_library_auto_weighs_meaning_where_a_documents_vectors_exist(tmp_path, builtin_model):
    """auto over the library is hybrid once the model loads: pages holding some of the words are
    ordered by their words, paragraphs and meaning, and say which found them; pages holding every
    word keep their keyword order."""
    a = make_doc(tmp_path / "a.pdf", ["The invoice from Northwind was paid late.", "Nothing here at all."])
    b = make_doc(tmp_path / "b.pdf", ["A penalty applies to invoices paid late.",
                                      "Northwind penalty invoice paid late."])
    _library_with_vectors([a, b])
    query = "northwind invoice penalty dispute"
    keyword = call_tool("pdf_search", {"library": True, "query": query, "mode": "keyword"}).details
    auto = call_tool("pdf_search", {"library": True, "query": query}).details
    assert auto["mode_used"] == "hybrid" and "mode_reason" not in auto
    assert keyword["mode_used"] == "keyword"
    pages = {(os.path.basename(m["file"]), m["page"]) for m in auto["matches"]}
    assert pages == {(os.path.basename(m["file"]), m["page"]) for m in keyword["matches"]}
    assert all(m["found_by"] in ("keyword", "both") and m["keyword_match"] == "partial" for m in auto["matches"])
    full = call_tool("pdf_search", {"library": True, "query": "northwind penalty"}).details
    full_keyword = call_tool("pdf_search", {"library": True, "query": "northwind penalty", "mode": "keyword"}).details
    assert [m["page"] for m in full["matches"]] == [m["page"] for m in full_keyword["matches"]]


def test_library_auto_without_a_model_ranks_by_words_and_says_why(tmp_path):
    a = make_doc(tmp_path / "a.pdf", ["The invoice from Northwind was paid late.", "Nothing here at all."])
    Library().add([str(a)])
    Library().process()
    details = call_tool("pdf_search", {"library": True, "query": "northwind invoice dispute"}).details
    assert details["mode_used"] == "keyword" and details["mode_reason"]
    sections = call_tool("pdf_search", {"library": True, "query": "northwind", "granularity": "section"}).details
    assert sections["mode_used"] == "keyword" and "sections rank by their words" in sections["mode_reason"]


def test_library_auto_compares_each_documents_paragraphs_with_the_whole_question(tmp_path):
    """A document holding two of four words of a question, together in one paragraph, holds all
    of what it has of the question, yet only half of the question: it must not rank above a page
    of another document holding two rarer words of it together, as it did when each document's
    paragraphs were measured against the words that document happens to hold."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index.library_backend import library_backend
    from pdfdesk.index.library_search import rank

    filler = ["Nothing of that kind is written on this page at all."] * 3
    a = make_doc(tmp_path / "a.pdf", ["The ledger reconciliation was finished on time.", *filler])
    b = make_doc(tmp_path / "b.pdf", ["The auditor checked the ledger twice.",
                                      "A signature is needed for the reconciliation.", *filler])
    Library().add([str(a), str(b)])
    Library().process()
    query = "ledger reconciliation auditor signature"
    names = {}
    for path in (a, b):
        with open_pdf(str(path)) as opened:
            names[opened.fingerprint] = path.name
    keyword = rank(query, 10, backend=library_backend())
    auto = rank(query, 10, backend=library_backend(), by_evidence=True)
    in_keyword = [(names[h.fingerprint], h.page) for h in keyword.hits]
    in_auto = [(names[h.fingerprint], h.page) for h in auto.hits]
    assert in_keyword[0] == in_auto[0] == ("b.pdf", 1)
    assert set(in_auto) == {("a.pdf", 1), ("b.pdf", 1), ("b.pdf", 2)}


def test_library_auto_weighs_pages_missing_one_word_when_many_do(tmp_path, builtin_model):
    """As in one document: when every page of the trial holds the question's words but the one no
    page uses, those pages are weighed, not kept first in keyword order, and the page about it
    leads; another document's pages lacking both words stay below."""
    trial = field_trial_pdf(tmp_path / "trial.pdf")
    other = make_doc(tmp_path / "other.pdf", ["The greenhouse heating failed in January.", "Plants need light."])
    _library_with_vectors([trial, other])
    question = "how did you measure how thirsty the plants were"
    keyword = call_tool("pdf_search", {"library": True, "query": question, "mode": "keyword"}).details
    first = (os.path.basename(keyword["matches"][0]["file"]), keyword["matches"][0]["page"])
    assert first != ("trial.pdf", 17)
    for shown in (10, 50):
        auto = call_tool("pdf_search", {"library": True, "query": question, "max_results": shown}).details
        assert auto["mode_used"] == "hybrid"
        assert (os.path.basename(auto["matches"][0]["file"]), auto["matches"][0]["page"]) == ("trial.pdf", 17), shown

