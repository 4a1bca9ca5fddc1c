"""The offline answerer over a collection: passages from several documents (at most two from one),
each cited `[name.pdf p. N]` and resolving to that document's page, and "which documents …"
questions answered with the complete list, in English, German and French; through ChatSession,
the real pdf_search (group_by document, paged) and a generated library of twelve contracts."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from pdfdesk.agent import offline_collection
from pdfdesk.agent.events import DocumentList, Done, ToolCallStarted
from pdfdesk.agent.offline_collection import documents_question, rank_passages
from pdfdesk.agent.scope import Scope, make_scope
from pdfdesk.agent.session import ChatSession
from pdfdesk.core.config import Config, set_config
from pdfdesk.index.library import INDEXED, Library
from tests.agent.support import use_config
from tests.agent.table_pdfs import fee_schedule_pdf

TERM = "Kaltenbrunn"
HOLDERS = {2: [2], 4: [3], 8: [1], 11: [2], 5: list(range(1, 13))}  # contract number -> pages holding TERM
CROWDED = 5  # holds the term on every one of its twelve pages
ARCHIVED = "letter-2019.pdf"
GOODS = ["timber", "copper cable", "glass panels", "steel beams", "solar modules", "cement", "pumps", "valves",
         "tiles", "insulation", "lighting", "paint"]


def _name(number: int) -> str:
    return f"contract-{number:02d}.pdf"


def _page_text(number: int, page: int) -> str:
    text = (f"Supply contract {number}, clause {page}. The supplier delivers {GOODS[number - 1]} every quarter "
            f"and invoices within {10 + page} days of delivery. ")
    if page in HOLDERS.get(number, []):  # the crowding document says it more often: its pages rank first
        text += (f"The {TERM} warehouse stores the spare {GOODS[number - 1]} for site {number} until the buyer "
                 "collects them. ") * (3 if number == CROWDED else 1)
    return text * 2


def make_contracts(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(1, 13):
        doc = pymupdf.open()
        for page in range(1, (12 if number == CROWDED else 3) + 1):
            doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 700), _page_text(number, page), fontsize=11)
        path = folder / _name(number)
        doc.save(path)
        doc.close()
        paths.append(path)
    return paths


def make_archive(folder: Path) -> Path:
    """A document in another folder of the library: holds the term too (on page 1 of 2)."""
    folder.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    for text in [f"Archived letter about the {TERM} warehouse lease renewal and its spare keys. " * 2,
                 "Archived letter, second page: the renewal is signed by both parties. " * 2]:
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 700), text, fontsize=11)
    path = folder / ARCHIVED
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def library_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path], Path]:
    """One library for the module (indexing it per test would be slow): the twelve contracts in
    one folder, and one archived letter in another."""
    base = tmp_path_factory.mktemp("collection")
    home = base / "home"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PDFDESK_HOME", str(home))
        set_config(Config(semantic=False))
        paths = make_contracts(base / "contracts")
        archived = make_archive(base / "archive")
        library = Library()
        library.add([str(p) for p in [*paths, archived]])
        library.process()
        assert {e.status for e in library.entries()} == {INDEXED}
    return home, paths, archived


@pytest.fixture
def contracts(library_home: tuple[Path, list[Path], Path], pdfdesk_home: Path,
              monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The twelve contracts (the library of the module in use)."""
    monkeypatch.setenv("PDFDESK_HOME", str(library_home[0]))
    return library_home[1]


@pytest.fixture
def archived(library_home: tuple[Path, list[Path], Path]) -> Path:
    return library_home[2]


def ask(question: str, documents: Sequence[Path] = (), scope: Scope | None = None) -> tuple[list[Any], Done]:
    session = ChatSession([str(d) for d in documents], config=use_config(), scope=scope)
    assert session.offline

    async def collect() -> list[Any]:
        return [event async for event in session.send(question)]

    events = asyncio.run(collect())
    assert isinstance(events[-1], Done) and sum(isinstance(e, Done) for e in events) == 1
    return events, events[-1]


def answer_of(done: Done) -> str:
    return done.text.split("\n\nNo language model is set up")[0]


def holding(paths: list[Path], archived: Path | None = None) -> dict[str, list[int]]:
    """The documents holding the term -> their pages holding it (with the archived letter: the library's)."""
    truth = {str(paths[number - 1]): pages for number, pages in HOLDERS.items()}
    return {**truth, str(archived): [1]} if archived else truth


def check_citations_resolve(done: Done, paths: list[Path], archived: Path | None = None) -> None:
    """Each citation names a document of the collection and a page holding the term, and its label
    is what the answer's text wrote."""
    truth = holding(paths, archived)
    assert done.citations
    for citation in done.citations:
        assert citation.page in truth[citation.document], citation
        assert citation.label == f"{Path(citation.document).name} p. {citation.page}"
        assert f"[{citation.label}]" in done.text
        assert citation.excerpt and TERM in citation.excerpt


# -- passages from several documents --------------------------------------------------------------
@pytest.mark.parametrize("where", ["library", "attached"])
def test_passages_come_from_several_documents_two_at_most_from_one(contracts, archived, where):
    scope = make_scope("library") if where == "library" else None
    attached = [] if where == "library" else contracts
    _, done = ask(f"What is stored in the {TERM} warehouse?", attached, scope)
    text = answer_of(done)
    assert text.startswith("The passages that best match your question:\n1. “"), text
    check_citations_resolve(done, contracts, archived if where == "library" else None)
    documents = [c.document for c in done.citations]
    assert len(done.citations) == offline_collection.COLLECTION_PASSAGES
    assert len(set(documents)) >= 4  # not crowded out by the document holding it on twelve pages
    assert documents.count(str(contracts[CROWDED - 1])) <= offline_collection.PER_DOCUMENT
    assert all(documents.count(d) <= offline_collection.PER_DOCUMENT for d in documents)


def test_a_document_filling_the_ranked_pages_leaves_room_for_the_others(contracts, archived, monkeypatch):
    monkeypatch.setattr(offline_collection, "LIBRARY_POOL", 4)  # the four best pages are all the crowding one's
    events, done = ask(f"What is stored in the {TERM} warehouse?", scope=make_scope("library"))
    searches = [e.arguments for e in events if isinstance(e, ToolCallStarted) and e.name == "pdf_search"]
    assert [s.get("group_by") for s in searches] == [None, "document"]
    check_citations_resolve(done, contracts, archived)
    documents = [c.document for c in done.citations]
    assert len(documents) == 5 and len(set(documents)) == 4
    assert documents.count(str(contracts[CROWDED - 1])) == 2


def test_library_citations_highlight_the_hit(contracts):
    _, done = ask(f"Which spare valves does the {TERM} warehouse store?", scope=make_scope("library"))
    first = done.citations[0]
    assert (Path(first.document).name, first.page) == (_name(8), 1), done.text  # valves: contract 8 only
    assert first.rects  # the search hit's rectangles, so the viewer highlights the passage


def test_a_folder_scope_lists_and_quotes_only_documents_under_it(contracts, archived):
    folder = make_scope("folder", folder=str(contracts[0].parent))
    events, done = ask(f"Which contracts mention {TERM}?", scope=folder)
    (listed,) = [e for e in events if isinstance(e, DocumentList)]
    assert {d["file"] for d in listed.documents} == set(holding(contracts))  # not the archived letter
    _, done = ask(f"What is kept in the {TERM} warehouse?", scope=folder)
    check_citations_resolve(done, contracts)
    _, done = ask(f"What is kept in the {TERM} warehouse?", scope=make_scope("folder", folder=str(archived.parent)))
    assert {c.document for c in done.citations} == {str(archived)}


# -- which documents -------------------------------------------------------------------------------
QUESTIONS = [
    f"Which contracts mention {TERM}?",
    f"In which documents does {TERM} appear?",
    f"List all the documents that mention {TERM}.",
    f"Welche Verträge erwähnen {TERM}?",
    f"In welchen Dokumenten kommt {TERM} vor?",
    f"Quels contrats mentionnent {TERM} ?",
    f"Dans quels documents trouve-t-on {TERM} ?",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_which_documents_lists_exactly_the_true_set_paging_to_the_end(contracts, archived, monkeypatch, question):
    monkeypatch.setattr(offline_collection, "DOCUMENTS_PAGE", 2)  # six documents: three pages of the list
    events, done = ask(question, scope=make_scope("library"))
    calls = [e.arguments for e in events if isinstance(e, ToolCallStarted)]
    assert [(c["group_by"], c["offset"], c["query"]) for c in calls] == [
        ("document", 0, TERM.lower()), ("document", 2, TERM.lower()), ("document", 4, TERM.lower())]
    (listed,) = [e for e in events if isinstance(e, DocumentList)]
    truth = holding(contracts, archived)
    assert listed.total == len(truth) and {d["file"] for d in listed.documents} == set(truth)
    assert all(d["pages_matching"] == len(truth[d["file"]]) for d in listed.documents)
    text = answer_of(done)
    assert text.startswith(f"6 documents in the library have pages holding “{TERM.lower()}”:")
    lines = text.splitlines()[1:]
    assert len(lines) == 6 and {line.split(" — ")[0].split(". ", 1)[1] for line in lines} == \
        {Path(f).name for f in truth}
    assert "12 pages" in text
    check_citations_resolve(done, contracts, archived)
    assert {c.document for c in done.citations} == set(truth)


@pytest.mark.parametrize("question", [QUESTIONS[0], QUESTIONS[3], QUESTIONS[5]])
def test_which_documents_among_the_attached_ones(contracts, question):
    attached = contracts[:9]  # contract 11 is not attached
    events, done = ask(question, attached)
    (listed,) = [e for e in events if isinstance(e, DocumentList)]
    expected = {str(contracts[n - 1]) for n in HOLDERS if n <= 9}
    assert {d["file"] for d in listed.documents} == expected and listed.total == 4
    assert answer_of(done).startswith("4 documents in the attached documents have pages holding")
    check_citations_resolve(done, contracts)


def test_with_one_document_a_which_question_gets_its_passages(contracts):
    events, done = ask(f"Which documents mention {TERM}?", [contracts[1]])
    assert not [e for e in events if isinstance(e, DocumentList)]
    assert answer_of(done).startswith("The passages that best match your question:") and "[p. 2]" in done.text
    assert [(c.document, c.page) for c in done.citations] == [(str(contracts[1]), 2)]


def test_documents_of_one_name_in_two_folders_are_each_cited(contracts, tmp_path):
    (tmp_path / "copy").mkdir()
    twin = tmp_path / "copy" / contracts[1].name
    twin.write_bytes(contracts[1].read_bytes())
    events, done = ask(f"Which contracts mention {TERM}?", [contracts[1], contracts[3], twin])
    (listed,) = [e for e in events if isinstance(e, DocumentList)]
    assert listed.total == 3
    assert {(c.document, c.page) for c in done.citations} == {(str(contracts[1]), 2), (str(twin), 2),
                                                              (str(contracts[3]), 3)}


def test_with_the_library_in_scope_an_attached_document_outside_it_is_listed_too(contracts, archived, tmp_path):
    memo = tmp_path / "memo.pdf"
    doc = pymupdf.open()
    doc.new_page()
    doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 700), f"Memo: the {TERM} warehouse moves in May.")
    doc.save(memo)
    doc.close()
    events, done = ask(f"Which documents mention {TERM}?", [memo, contracts[1]], make_scope("library"))
    (listed,) = [e for e in events if isinstance(e, DocumentList)]
    assert {d["file"] for d in listed.documents} == {*holding(contracts, archived), str(memo)}
    assert listed.documents[-1]["file"] == str(memo)  # after the library's ranked documents
    assert answer_of(done).startswith("7 documents in the library and the attached documents have pages")
    assert (str(memo), 2) in {(c.document, c.page) for c in done.citations}
    searches = [e.arguments for e in events if isinstance(e, ToolCallStarted)]
    assert [s.get("path") for s in searches] == [None, str(memo)]  # contract 2 is found by the library search


def test_a_long_list_is_whole_in_the_event_and_summarised_in_the_text(contracts, monkeypatch):
    monkeypatch.setattr(offline_collection, "LISTED", 2)
    events, done = ask(f"Which documents mention {TERM}?", scope=make_scope("library"))
    (listed,) = [e for e in events if isinstance(e, DocumentList)]
    assert len(listed.documents) == 6
    text = answer_of(done)
    assert "… and 4 more (6 in all)" in text and "search panel" in text and "Export (CSV" in text
    assert len([line for line in text.splitlines() if line[:2] in ("1.", "2.", "3.")]) == 2
    assert len(done.citations) == 2


@pytest.mark.parametrize("question", ["Which documents mention Zanzibar?", "Welche Verträge erwähnen Zanzibar?",
                                      "Quels contrats mentionnent Zanzibar ?"])
def test_no_matching_document_is_said(contracts, question):
    events, done = ask(question, scope=make_scope("library"))
    assert answer_of(done) == "No document in the library has a page holding “zanzibar”."
    assert done.citations == ()
    assert [(e.total, e.documents) for e in events if isinstance(e, DocumentList)] == [(0, ())]


# -- tables still answer ---------------------------------------------------------------------------
def test_the_table_cell_answer_still_works_among_several_documents(contracts, tmp_path):
    fees = fee_schedule_pdf(tmp_path / "fees.pdf")
    _, done = ask("What is the Status 4 amount for Xray 5?", [fees, contracts[0], contracts[1]])
    assert answer_of(done) == ("From the table: “48.30” — row “Xray 5”, column “Rates Status 4”, "
                               "in the table on page 1 [fees.pdf p. 1]")
    assert [(c.document, c.page, c.excerpt) for c in done.citations] == [(str(fees), 1, "48.30")]


# -- the parts -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "terms"), [
    ("Which contracts mention Kaltenbrunn?", "kaltenbrunn"),
    ("In which documents does the arbitration clause appear?", "arbitration clause"),
    ("List all the documents that mention force majeure", "force majeure"),
    ("How many reports mention dredging?", "dredging"),
    ("What documents mention the harbour dues?", "harbour dues"),
    ("Which of my files contain the word indemnity?", "indemnity"),
    ("Every contract with a penalty clause", "penalty clause"),
    ("Welche Verträge erwähnen eine Vertragsstrafe?", "vertragsstrafe"),
    ("In welchen Dokumenten kommt Kaltenbrunn vor?", "kaltenbrunn"),
    ("Liste alle Verträge mit Schiedsklausel", "schiedsklausel"),
    ("Quels contrats mentionnent la clause d'arbitrage ?", "clause arbitrage"),
    ("Dans quels documents trouve-t-on Kaltenbrunn ?", "kaltenbrunn"),
    ("Tous les contrats qui parlent de pénalités", "pénalités"),
])
def test_documents_question_keeps_the_words_searched_for(question, terms):
    assert documents_question(question) == terms


@pytest.mark.parametrize("question", ["What are the payment terms?", "Which page mentions the penalty?",
                                      "Summarize all documents", "Which year was the harbour built?",
                                      "What documents do I need to submit?",
                                      "Which documents"])
def test_other_questions_are_not_list_questions(question):
    assert documents_question(question) is None


def test_rank_passages_caps_a_crowding_document_and_keeps_each_documents_order():
    def hits(doc: str, scores: list[float]) -> list[tuple[str, dict[str, Any]]]:
        return [(doc, {"page": n, "score": s}) for n, s in enumerate(scores, 1)]

    crowded, small, partial = hits("a", [9, 8, 7, 6]), hits("b", [5]), [("c", {"page": 1, "score": 99.0,
                                                                               "keyword_match": "partial"})]
    chosen = rank_passages([crowded, small, partial], 5)
    assert [(d, m["page"]) for d, m in chosen] == [("a", 1), ("a", 2), ("b", 1), ("c", 1)]  # partial last
    assert [(d, m["page"]) for d, m in rank_passages([crowded], 3)] == [("a", 1), ("a", 2), ("a", 3)]  # alone
    assert len(rank_passages([crowded, small], 6, cap=None)) == 5


def test_words_no_document_holds_together_are_left_out_and_said(contracts, archived):
    """"Which contracts let the buyer collect spare goods from the Kaltenbrunn warehouse?": no page
    says "goods", so no document holds every word; the list is of the documents holding the rest
    (the five contracts, not the archived letter, which says nothing of a buyer), and says so."""
    events, done = ask(f"Which contracts let the buyer collect spare goods from the {TERM} warehouse?",
                       scope=make_scope("library"))
    (listed,) = [e for e in events if isinstance(e, DocumentList)]
    assert {d["file"] for d in listed.documents} == set(holding(contracts))
    first = answer_of(done).splitlines()[0]
    assert first.startswith("No document holds every word of “buyer collect spare goods kaltenbrunn warehouse”; "
                            "left out: “goods”. 5 documents in the library have pages holding")
    assert [e.arguments["query"] for e in events if isinstance(e, ToolCallStarted)] == \
        ["buyer collect spare kaltenbrunn warehouse"]  # the probes are no cards of the answer


def test_pdfdesk_ask_prints_the_documents_its_answer_left_out(contracts, archived, monkeypatch):
    """A terminal has no Documents view: `pdfdesk ask` writes the rest of a long list under the answer."""
    import io

    from pdfdesk.agent.ask import _ask

    monkeypatch.setattr(offline_collection, "LISTED", 2)
    out, err = io.StringIO(), io.StringIO()
    status = asyncio.run(_ask(f"Which documents mention {TERM}?", [], None, True, out, err, make_scope("library")))
    text = out.getvalue()
    assert status == 0 and "… and 4 more" in text
    rest = text.split("\nThe other 4 documents:\n")[1].split("\n\nSources:")[0].splitlines()
    assert [line.split(". ", 1)[0] for line in rest] == ["3", "4", "5", "6"]
    named = {line.split(". ", 1)[1].split(" — ")[0] for line in rest}
    assert named <= set(holding(contracts, archived)) and len(named) == 4


# -- a kind of thing named with its name -----------------------------------------------------------
@pytest.mark.parametrize(("question", "terms"), [
    ("Which manuals are for Dynamo machines?", "dynamo"),
    ("Which contracts mention Geneva arbitration?", "geneva arbitration"),  # no kind noun: both words
    ("Which manuals are for cleaning machines?", "cleaning machines"),  # no name: the kind is the subject
    ("Which documents mention machines?", "machines"),
    ("Show me every invoice from Lowther Safety Equipment.", "lowther safety equipment"),  # inside a name
    ("Which manuals cover the K12 model?", "k12"),
    ("Quels documents concernent les machines Dynamo ?", "dynamo"),
    ("Quels documents parlent des machines à laver ?", "machines laver"),
    ("Welche Dokumente betreffen Dynamo-Maschinen?", "dynamo"),
    ("Welche Dokumente betreffen Geräte von Dynamo?", "dynamo"),
])
def test_a_kind_noun_beside_a_name_is_not_searched_for(question, terms):
    assert documents_question(question) == terms


WARNING = "This machine contains a lithium battery pack: never puncture it."
MANUALS = {"dynamo-k2.pdf": [f"Dynamo K2 pressure washer: operating manual. {WARNING}",
                             "Maintenance: descale the heating coil."],
           "dynamo-k3.pdf": ["Dynamo K3 dehumidifier: operating manual. Disconnect the mains plug first.",
                             "Maintenance: wash the air filter."],
           "veltra-k4.pdf": [f"Veltra K4 floor scrubber: operating manual. {WARNING}",
                             "Maintenance: turn the squeegee blades."]}


@pytest.fixture
def manuals(pdfdesk_home: Path, tmp_path: Path) -> dict[str, Path]:
    """Three manuals in a library of their own: two of the Dynamo brand, one of whose pages says "machine"."""
    paths = {}
    for name, pages in MANUALS.items():
        doc = pymupdf.open()
        for text in pages:
            doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 700), text, fontsize=11)
        doc.save(tmp_path / name)
        doc.close()
        paths[name] = tmp_path / name
    library = Library()
    library.add([str(p) for p in paths.values()])
    library.process()
    assert {e.status for e in library.entries()} == {INDEXED}
    return paths


@pytest.mark.parametrize(("question", "expected"), [
    ("Which manuals are for Dynamo machines?", ["dynamo-k2.pdf", "dynamo-k3.pdf"]),
    ("Quels documents concernent les machines Dynamo ?", ["dynamo-k2.pdf", "dynamo-k3.pdf"]),
    ("Welche Dokumente betreffen Dynamo-Maschinen?", ["dynamo-k2.pdf", "dynamo-k3.pdf"]),
    ("Which manuals warn about Dynamo lithium batteries?", ["dynamo-k2.pdf"]),  # every word still required
])
def test_the_manuals_of_a_brand_are_listed_though_one_page_does_not_say_machine(manuals, question, expected):
    events, done = ask(question, scope=make_scope("library"))
    (listed,) = [e for e in events if isinstance(e, DocumentList)]
    assert sorted(Path(d["file"]).name for d in listed.documents) == expected
    assert "left out" not in answer_of(done)
