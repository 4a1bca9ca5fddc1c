"""Scopes: which documents a conversation may read, resolved by path (never by name), the library
search they allow (a folder's documents only), and the loop keeping to them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pdfdesk.agent.events import ToolCallFinished
from pdfdesk.agent.loop import hidden_parameters, tool_specs
from pdfdesk.agent.prompts import system_prompt
from pdfdesk.agent.scope import ATTACHED, FOLDER, LIBRARY, Scope, is_bare_name, make_scope
from pdfdesk.agent.session import ChatSession
from pdfdesk.core.config import ProviderSettings
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.tools import call_tool
from tests.agent.fake_servers import FakeOpenAI, Turn
from tests.agent.library_case import SpyRunner, converse, local_session
from tests.agent.support import use_config


# -- the scope itself ----------------------------------------------------------------------------
def test_make_scope_checks_what_the_front_end_gives(tmp_path):
    assert make_scope("attached", ["a.pdf", "a.pdf", ""]).documents == ("a.pdf",)
    assert make_scope("folder", folder=f"{tmp_path}/x/").folder == str(tmp_path / "x")
    assert make_scope("library").library and make_scope("folder", folder="/x").library
    assert not make_scope("open", ["a.pdf", "b.pdf"]).library
    for kind, docs, folder, words in [("everything", (), None, "Unknown scope"),
                                      ("document", ("a.pdf", "b.pdf"), None, "holds one document"),
                                      ("folder", (), None, "needs a folder")]:
        with pytest.raises(PdfDeskError, match=words) as raised:
            make_scope(kind, docs, folder)
        assert raised.value.code == "validation_error"


def test_descriptions():
    assert make_scope("document", ["/x/contract-12.pdf"]).describe() == "this document (contract-12.pdf)"
    assert make_scope("open", ["a.pdf", "b.pdf"]).describe() == "the open documents (2 documents)"
    assert make_scope("attached", ["a.pdf"]).describe() == "the attached documents (1 document)"
    assert make_scope("library").describe(500) == "the whole library (500 documents)"
    in_folder = make_scope("folder", folder="/cases/2024").describe(3)
    assert in_folder == "the library's documents under /cases/2024 (3 documents)"


def test_bare_names():
    assert is_bare_name("contract-12.pdf") and is_bare_name("Notes v2.PDF")
    for text in ("/etc/passwd", "a/b.pdf", "~/b.pdf", "https://x/b.pdf", "file:///b.pdf", "C:\\b.pdf", " "):
        assert not is_bare_name(text), text


def test_a_library_collection_resolves_paths_never_names(library_case, tmp_path):
    lib, b = library_case["lib"], library_case["b"]
    collection = make_scope("library").collection()
    assert collection.library_count == 4 and len(collection.fingerprints) == 4
    assert collection.admit(str(b)) == str(b)
    assert collection.admit(f"{lib}/sub/../b.pdf") == str(b)  # the same file, spelled otherwise
    assert collection.admit(b.as_uri()) == str(b)
    link = tmp_path / "link-to-b.pdf"
    link.symlink_to(b)
    assert collection.admit(str(link)) == str(b)  # a symlink to a library document is that document
    # a file of the same name elsewhere is not the library's, however it is spelled
    for other in (str(tmp_path / "b.pdf"), str(library_case["secret"]), "/etc/passwd", "https://evil.example/b.pdf",
                  "b.pdf", "~/b.pdf", ""):
        assert collection.admit(other) is None, other
    assert collection.named("B.PDF") == [str(b)] and collection.named("secret.pdf") == []


def test_a_named_url_is_admitted_only_as_given(library_case):
    url = "https://example.org/annual.pdf"
    collection = make_scope("library", [url]).collection()
    assert collection.admit(url) == url
    assert collection.admit("https://example.org/annual.pdf?x=1") is None


def test_a_folder_collection_holds_only_the_folder(library_case):
    sub, c = library_case["sub"], library_case["c"]
    collection = make_scope("folder", folder=str(sub)).collection()
    assert [e.path for e in collection.entries] == [str(c)] and len(collection.fingerprints) == 1
    assert collection.admit(str(library_case["a"])) is None and collection.admit(str(c)) == str(c)
    assert collection.describe() == f"the library's documents under {sub} (1 document)"
    # a folder whose name starts like the library's is not inside it
    assert make_scope("folder", folder=str(library_case["lib"]) + "-old").collection().entries == []


def test_require_documents(library_case, tmp_path):
    make_scope("library").collection().require_documents()
    with pytest.raises(PdfDeskError, match="No library document is under"):
        make_scope("folder", folder=str(tmp_path)).collection().require_documents()
    make_scope("attached").collection().require_documents()  # nothing is asked of other scopes


def test_the_library_search_keeps_within_the_given_documents(library_case):
    c_only = make_scope("folder", folder=str(library_case["sub"])).collection().fingerprints
    everywhere = call_tool("pdf_search", {"library": True, "query": "shipping line"})
    assert {m["file"] for m in everywhere.details["matches"]} >= {str(library_case["a"]), str(library_case["c"])}
    within = call_tool("pdf_search", {"library": True, "query": "shipping line", "within": c_only})
    assert not within.is_error, within.text
    assert {m["file"] for m in within.details["matches"]} == {str(library_case["c"])}
    assert within.details["documents_searched"] == 1
    nothing = call_tool("pdf_search", {"library": True, "query": "shipping line", "within": []})
    assert nothing.details["matches"] == [] and nothing.details["documents_searched"] == 0


# -- the session and the loop --------------------------------------------------------------------
def test_the_session_scope_adds_the_attached_documents():
    session = ChatSession(["a.pdf"], model="local/x", config=use_config())
    assert session.current_scope() == Scope(ATTACHED, ("a.pdf",))
    session.documents.append("b.pdf")  # the chat pane keeps the list up to date
    assert session.current_scope().documents == ("a.pdf", "b.pdf")
    session.set_scope(make_scope("library"))
    assert session.current_scope() == Scope(LIBRARY, ("a.pdf", "b.pdf"))
    session.set_scope(make_scope("folder", ["c.pdf"], "/cases"))
    assert session.current_scope() == Scope(FOLDER, ("c.pdf", "a.pdf", "b.pdf"), "/cases")
    session.set_scope(make_scope("open", ["t1.pdf", "t2.pdf"]))
    assert session.current_scope().documents == ("t1.pdf", "t2.pdf")  # the tabs', not the attached ones


def test_the_prompt_says_the_scope_and_how_to_cite():
    library = system_prompt([], None, make_scope("library"), 120)
    assert "Scope of this conversation: the whole library (120 documents)" in library
    assert "library=true" in library and "any other file, path or URL is refused" in library
    assert "[file.pdf p. N], e.g. [contract-12.pdf p. 3]" in library and "name the document in every" in library
    assert "Answer questions about the PDFs in scope" in library
    folder = system_prompt(["/x/brief.pdf"], None, make_scope("folder", ["/x/brief.pdf"], "/cases"), 3)
    assert "under /cases (3 documents)" in folder and "Also attached" in folder and "/x/brief.pdf" in folder
    opened = system_prompt(["/x/a.pdf"], None, make_scope("open", ["/x/a.pdf"]))
    assert "the open documents (1 document)" in opened and "library=true" not in opened
    assert system_prompt(["/x/a.pdf"]) == system_prompt(["/x/a.pdf"], None, make_scope("attached", ["/x/a.pdf"]))


def test_the_tools_offered_per_scope():
    def search_properties(hidden_for: Scope) -> set[str]:
        spec = next(s for s in tool_specs(None, hidden_parameters(hidden_for)) if s.name == "pdf_search")
        return set(spec.schema["properties"])

    assert "library" not in search_properties(make_scope("attached"))
    assert "library" not in search_properties(make_scope("open", ["a.pdf"]))
    assert "library" in search_properties(make_scope("library"))
    assert "library" in search_properties(make_scope("folder", folder="/x"))
    assert all("within" not in search_properties(make_scope(kind, folder="/x"))
               for kind in ("attached", "library", "folder"))


def _finished(events: list) -> list[ToolCallFinished]:
    return [e for e in events if isinstance(e, ToolCallFinished)]


def test_a_folder_scope_refuses_library_documents_outside_the_folder(library_case):
    a, b, c, sub = (library_case[k] for k in ("a", "b", "c", "sub"))
    with FakeOpenAI() as server:
        server.script(
            Turn(tool_calls=[("pdf_search", {"library": True, "query": "shipping line"}),
                             ("pdf_search", {"library": True, "query": "demurrage"}),
                             ("pdf_extract_text", {"path": str(b)}), ("pdf_info", {"path": "a.pdf"}),
                             ("pdf_info", {"path": f"{sub}/../a.pdf"}), ("pdf_info", {"path": "c.pdf"})]),
            Turn(text="Tonnage dues are settled yearly [c.pdf p. 1]."),
        )
        config = use_config(providers={"local": ProviderSettings(base_url=server.url)})
        spy = SpyRunner()
        events = converse(local_session(server.url, config, spy, kind="folder", folder=str(sub)), "Which dues?")
        bodies = server.bodies
    finished = _finished(events)
    assert [f.is_error for f in finished] == [False, False, True, True, True, False]
    assert {m["file"] for m in finished[0].details["matches"]} == {str(c)}  # never one outside the folder
    assert finished[1].details["matches"] == []  # demurrage is only in b.pdf, outside the folder
    assert all("may only read the library's documents under" in f.details["message"] for f in finished[2:5])
    fingerprints = make_scope("folder", folder=str(sub)).collection().fingerprints
    assert [args.get("within") for name, args in spy.calls if name == "pdf_search"] == [fingerprints] * 2
    assert [args.get("path") for _, args in spy.calls] == [None, None, str(c)]
    tool_texts = [m["content"] for m in bodies[1]["messages"] if m["role"] == "tool"]
    assert "Demurrage" not in json.dumps(tool_texts) and "a.pdf" not in tool_texts[0]
    assert not any(str(a) == args.get("path") for _, args in spy.calls)


def test_the_attached_scope_is_unchanged(library_case, report_pdf):
    with FakeOpenAI() as server:
        server.script(
            Turn(tool_calls=[("pdf_search", {"library": True, "query": "shipping"}),
                             ("pdf_info", {"path": str(library_case["a"])}), ("pdf_info", {"path": "report.pdf"}),
                             ("pdf_search", {"path": "report.pdf", "query": "x", "within": ["f"]})]),
            Turn(text="ok [p. 1]"),
        )
        config = use_config(providers={"local": ProviderSettings(base_url=server.url)})
        spy = SpyRunner()
        events = converse(local_session(server.url, config, spy, (str(report_pdf),)), "q")
        first = server.bodies[0]
    finished = _finished(events)
    assert [f.is_error for f in finished] == [True, True, False, True]
    assert "searches only the attached documents" in finished[0].details["message"]
    assert "may only read the attached documents" in finished[1].details["message"]
    assert "Unknown parameter 'within'" in finished[3].details["message"]
    assert spy.calls == [("pdf_info", {"path": str(report_pdf)})]
    search = next(t for t in first["tools"] if t["function"]["name"] == "pdf_search")
    assert not {"library", "within"} & set(search["function"]["parameters"]["properties"])
    assert "Documents attached to this conversation" in first["messages"][0]["content"]


def test_an_open_documents_scope_reads_the_tabs_only(library_case, report_pdf):
    a, b = library_case["a"], library_case["b"]
    with FakeOpenAI() as server:
        server.script(
            Turn(tool_calls=[("pdf_info", {"path": str(a)}), ("pdf_info", {"path": "b.pdf"}),
                             ("pdf_info", {"path": str(report_pdf)}),
                             ("pdf_search", {"library": True, "query": "demurrage"})]),
            Turn(text="ok"),
        )
        config = use_config(providers={"local": ProviderSettings(base_url=server.url)})
        spy = SpyRunner()
        session = local_session(server.url, config, spy, (str(report_pdf),), kind="open",
                                documents=[str(a), str(b)])
        events = converse(session, "q")
    finished = _finished(events)
    assert [f.is_error for f in finished] == [False, False, True, True]
    assert "may only read the open documents (2 documents)" in finished[2].details["message"]
    assert [args["path"] for _, args in spy.calls] == [str(a), str(b)]


def test_library_scope_paths_resolve_under_a_moved_working_directory(library_case, monkeypatch):
    """A relative path is the working directory's file: in scope only when that is a library document."""
    monkeypatch.chdir(library_case["lib"])
    collection = make_scope("library").collection()
    assert collection.admit(os.path.join("sub", "c.pdf")) == str(library_case["c"])
    assert collection.admit(os.path.join("..", "outside", "secret.pdf")) is None
    assert Path(library_case["secret"]).is_file()  # it exists: refused for being outside, not for being missing


def test_which_documents_in_a_folder_scope_lists_and_cites_only_the_folder(library_case):
    c, sub = library_case["c"], library_case["sub"]
    with FakeOpenAI() as server:
        server.script(
            Turn(tool_calls=[("pdf_search", {"library": True, "query": "shipping line", "group_by": "document"})]),
            Turn(text="Only one: [c.pdf p. 1]; not [a.pdf p. 1]."),
        )
        config = use_config(providers={"local": ProviderSettings(base_url=server.url)})
        events = converse(local_session(server.url, config, SpyRunner(), kind="folder", folder=str(sub)), "Which?")
    (finished,) = _finished(events)
    assert not finished.is_error, finished.summary
    assert [d["file"] for d in finished.details["documents"]] == [str(c)]
    assert finished.details["documents_total"] == 1
    citations = [e.citation for e in events if type(e).__name__ == "CitationFound"]
    assert [(cited.document, cited.page) for cited in citations] == [(str(c), 1)]
