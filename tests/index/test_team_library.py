"""The team library on a real PostgreSQL: ranking across matters, row-level security, pages shared
by fingerprint and indexed once, the query language, scripts, the search tool in team mode."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pdfdesk.core.errors import TEAM_UNAVAILABLE, PdfDeskError
from pdfdesk.index.library_backend import close_team_libraries
from pdfdesk.index.library_search import parse, rank
from pdfdesk.index.relaxing import relaxed_query, strict_query
from pdfdesk.index.team_library import TeamLibrary
from pdfdesk.index.team_library_files import fetch_team_file, index_team_documents
from pdfdesk.index.team_library_relaxed import partial_candidates
from pdfdesk.index.team_library_query import leaves, tsquery, words_of
from pdfdesk.team import matters
from pdfdesk.team.settings import TeamTarget
from pdfdesk.tools import call_tool
from tests.pdf_factory import text_pdf

PAGES = {
    "contract-a": ["The tenant pays the rent monthly.", "Arbitration clause: disputes go to arbitration in Vienna.",
                   "Signatures of the parties."],
    "contract-b": ["Arbitration is mentioned once here.", "The landlord repairs the heating system.",
                   "Аренда квартиры оплачивается ежемесячно."],
    "report-c": ["东京的合同规定了付款期限。", "يدفع المستأجر الإيجار شهريا", "A calibration record of the gauges."],
}


def _setup(team_db: Any) -> None:
    with psycopg.connect(team_db.conninfo("postgres")) as admin:
        for matter, docs in (("Alpha", ["contract-a", "report-c"]), ("Beta", ["contract-b", "report-c"])):
            matters.create_matter(admin, matter)
            for doc in docs:
                matters.add_document(admin, matter, doc, f"{doc}.pdf", len(PAGES[doc]))
        matters.grant(admin, "Alpha", "alice", write=True)
        matters.grant(admin, "Alpha", "carol")
        matters.grant(admin, "Beta", "alice", write=True)
        matters.grant(admin, "Beta", "bob", write=True)
        matters.create_matter(admin, "Gamma")
        matters.grant(admin, "Gamma", "outsider", write=True)


@pytest.fixture(autouse=True)
def _closed() -> Iterator[None]:
    """The libraries the tools open are closed at each test's end (the test's own close with its
    database)."""
    yield
    close_team_libraries()


def _library(team_db: Any, user: str) -> TeamLibrary:
    return team_db.library(user)


def _indexed(team_db: Any) -> TeamLibrary:
    _setup(team_db)
    alice = _library(team_db, "alice")
    added = alice.add_documents([(f, list(enumerate(pages, start=1))) for f, pages in PAGES.items()])
    assert added == sum(len(p) for p in PAGES.values())
    return alice


def _found(library: TeamLibrary, query: str) -> list[tuple[str, int]]:
    return [(hit.fingerprint, hit.page) for hit in library.search(strict_query(parse(query)), 10)]


def test_search_ranks_pages_across_documents_of_two_matters(team_db: Any) -> None:
    alice = _indexed(team_db)
    found = _found(alice, "arbitration")
    assert set(found) == {("contract-a", 2), ("contract-b", 1)}
    assert found[0] == ("contract-a", 2)  # the word twice on a page of the same length ranks first
    hits = alice.search(strict_query(parse("arbitration")), 10)
    assert hits[0].score > hits[1].score > 0
    assert _found(alice, "heating landlord") == [("contract-b", 2)]
    assert _found(alice, "nonexistentword") == []
    assert alice.state().documents == 3 and alice.state().pages == 9


def test_a_reviewer_sees_only_pages_of_her_matters(team_db: Any) -> None:
    _indexed(team_db)
    carol = _library(team_db, "carol")  # Alpha only
    assert _found(carol, "arbitration") == [("contract-a", 2)]
    assert carol.fingerprints() == {"contract-a", "report-c"}
    outsider = _library(team_db, "outsider")
    assert _found(outsider, "arbitration") == [] and outsider.fingerprints() == set()
    assert outsider.state().pages == 0
    assert not outsider.holds("arbitr")
    with psycopg.connect(team_db.conninfo("outsider")) as conn:  # the search functions apply the same rule
        assert conn.execute("SELECT count(*) FROM pdfdesk.search_pages('arbitr', '{}', '{}', 1, 'ts_rank', "
                            "NULL, NULL)").fetchone() == (0,)
        assert conn.execute("SELECT pdfdesk.count_pages('arbitr')").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM pdfdesk.pages").fetchone() == (0,)
    with psycopg.connect(team_db.conninfo("carol")) as conn:
        assert conn.execute("SELECT pdfdesk.count_pages('arbitr')").fetchone() == (1,)


def test_a_document_indexed_by_alice_is_found_by_bob_without_indexing_again(team_db: Any) -> None:
    _setup(team_db)
    alice = _library(team_db, "alice")
    assert alice.add_documents([("report-c", list(enumerate(PAGES["report-c"], start=1)))]) == 3
    bob = _library(team_db, "bob")  # Beta holds report-c too
    assert _found(bob, "calibration") == [("report-c", 3)]
    assert bob.add_documents([("report-c", list(enumerate(PAGES["report-c"], start=1)))]) == 0
    assert bob.pages_written == 0 and alice.pages_written == 3
    with team_db.admin() as admin:
        assert admin.execute("SELECT count(*) FROM pdfdesk.pages").fetchone() == (3,)


def test_phrase_prefix_and_not(team_db: Any) -> None:
    alice = _indexed(team_db)
    assert _found(alice, '"heating system"') == [("contract-b", 2)]
    assert _found(alice, '"system heating"') == []
    assert set(_found(alice, "calib*")) == {("report-c", 3)}
    assert set(_found(alice, "arbitr*")) == {("contract-a", 2), ("contract-b", 1)}
    assert _found(alice, "arbitration NOT vienna") == [("contract-b", 1)]


def test_cjk_arabic_and_cyrillic_words_are_found(team_db: Any) -> None:
    alice = _indexed(team_db)
    assert _found(alice, "合同") == [("report-c", 1)]
    assert _found(alice, "المستأجر") == [("report-c", 2)]
    assert _found(alice, "квартира") == [("contract-b", 3)]
    assert _found(alice, "Аренды") == [("contract-b", 3)]


def test_relaxed_ranking_and_grouping_by_document(team_db: Any) -> None:
    alice = _indexed(team_db)
    ranking = rank("arbitration vienna zebra", 10, backend=alice)
    assert ranking.strict_count == 0 and ranking.hits[0].fingerprint == "contract-a"
    documents = alice.search_documents(strict_query(parse("arbitration")))
    assert {(d.fingerprint, d.pages_matching, d.best_pages) for d in documents} == \
        {("contract-a", 1, (2,)), ("contract-b", 1, (1,))}


def test_removal_drops_a_document_from_search(team_db: Any) -> None:
    alice = _indexed(team_db)
    alice.remove_documents(["contract-a"])  # still in Alpha: its pages stay
    assert ("contract-a", 2) in _found(alice, "arbitration")
    with psycopg.connect(team_db.conninfo("alice"), autocommit=True) as conn:
        conn.execute("DELETE FROM pdfdesk.documents WHERE fingerprint = 'contract-a'")
    assert _found(alice, "arbitration") == [("contract-b", 1)]
    alice.remove_documents(["contract-a"])
    with team_db.admin() as admin:
        assert admin.execute("SELECT count(*) FROM pdfdesk.pages WHERE fingerprint = 'contract-a'").fetchone() == (0,)


def test_the_search_tool_searches_the_team_library(team_db: Any, tmp_path: Path) -> None:
    _setup(team_db)
    path = text_pdf(tmp_path / "lease.pdf", pages=2, words="Page {n}: the escrow deposit is held by the notary.")
    done = index_team_documents([str(path)], "Beta", library=_library(team_db, "alice"))
    assert done[0].added_to_matter and done[0].pages_indexed == 2
    # another matter, same file: not indexed again
    again = index_team_documents([str(path)], "Alpha", library=_library(team_db, "alice"))
    assert again[0].pages_indexed == 0
    team_db.login("carol")  # Alpha only, and no copy of the file on this computer
    result = call_tool("pdf_search", {"library": True, "query": "escrow notary", "mode": "keyword"})
    assert not result.is_error, result.text
    matches = result.details["matches"]
    assert [m["page"] for m in matches] == [1, 2] or [m["page"] for m in matches] == [2, 1]
    fetched = fetch_team_file(done[0].fingerprint)
    assert matches[0]["file"] == str(fetched) and fetched.read_bytes() == path.read_bytes()
    listed = call_tool("pdf_search", {"library": True, "query": "escrow", "group_by": "document"})
    assert not listed.is_error, listed.text
    assert [(d["name"], d["pages_matching"]) for d in listed.details["documents"]] == [("lease.pdf", 2)]
    assert "escrow" in listed.details["documents"][0]["excerpt"]
    # a document the team holds no file of: named, with its page's text as the excerpt
    with psycopg.connect(team_db.conninfo("alice")) as conn:
        matters.add_document(conn, "Alpha", "no-file", "minutes.pdf", 1)
    _library(team_db, "alice").add_documents([("no-file", [(1, "Minutes: the escrow was released early.")])])
    result = call_tool("pdf_search", {"library": True, "query": "escrow released", "mode": "keyword"})
    bare = [m for m in result.details["matches"] if "minutes.pdf" in (m.get("file") or "")]
    assert len(bare) == 1 and "released" in bare[0]["excerpt"]


def test_an_unreachable_server_is_a_coded_error(team_db: Any, tmp_path: Path) -> None:
    gone = TeamLibrary(TeamTarget(f"host={tmp_path} dbname=none user=alice connect_timeout=2", "test"))
    with pytest.raises(PdfDeskError) as failed:
        gone.search(strict_query(parse("arbitration")), 10)
    assert failed.value.code == TEAM_UNAVAILABLE
    team_db.monkeypatch.setenv("PDFDESK_TEAM_DATABASE", f"host={tmp_path} dbname=none user=alice")
    result = call_tool("pdf_search", {"library": True, "query": "arbitration", "mode": "keyword"})
    assert result.is_error and result.details["error"] == TEAM_UNAVAILABLE


def test_page_counts_are_of_visible_pages_whoever_sees_the_whole_library(team_db: Any) -> None:
    _indexed(team_db)
    with psycopg.connect(team_db.conninfo("alice")) as conn:  # Alpha and Beta: every document
        assert conn.execute("SELECT pdfdesk.count_each(ARRAY['arbitr', 'the', 'zzz']::tsquery[])").fetchone() \
            == ([2, 4, 0],)
    with psycopg.connect(team_db.conninfo("bob")) as conn:  # Beta only: contract-a's pages are not counted
        assert conn.execute("SELECT pdfdesk.count_each(ARRAY['arbitr', 'the']::tsquery[])").fetchone() == ([1, 2],)
    with psycopg.connect(team_db.conninfo("bob")) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT pdfdesk.sees_whole_library()")


def test_the_relaxed_search_scores_rare_words_first_and_finds_the_same_best_pages(team_db: Any) -> None:
    with psycopg.connect(team_db.conninfo("postgres")) as admin:
        matters.create_matter(admin, "Big")
        for d in range(50):
            matters.add_document(admin, "Big", f"doc-{d}", f"doc-{d}.pdf", 6)
        matters.grant(admin, "Big", "alice", write=True)
    alice = _library(team_db, "alice")
    documents = []
    for d in range(50):
        pages = []
        for n in range(1, 7):
            words = ["filler"] * (n + d % 5)
            if (d, n) in ((3, 2), (17, 5)):
                words += ["escrow"]
            if (d * 6 + n) % 3 == 0:  # 100 of the 300 pages: as many as the candidates
                words += ["notary"]
            elif (d * 6 + n) % 3 == 1:  # as many pages, some holding it often
                words += ["lease"] * (1 + d % 4)
            pages.append((n, " ".join(words)))
        documents.append((f"doc-{d}", pages))
    alice.add_documents(documents)
    relaxed = relaxed_query(parse("escrow notary lease zebra"), lambda _field, term: alice.holds(term))
    assert relaxed is not None
    # pages holding the rarer words (escrow, notary) are scored first; a page holding "lease" many
    # times outranks a page holding "notary" once, so the pages of "lease" must be scored too
    each = words_of(relaxed)
    pruned = partial_candidates(alice, each, None, leaves(relaxed), 100)
    assert pruned == alice.ranked(tsquery(relaxed), leaves(relaxed), 100, None)
    lease_only = {(f"doc-{d}", n) for d in range(50) for n in range(1, 7) if (d * 6 + n) % 3 == 1}
    assert any((f, p) in lease_only for f, p, _ in pruned)
    hits = alice.search_partial(relaxed, 10)
    assert {("doc-3", 2), ("doc-17", 5)} <= {(h.fingerprint, h.page) for h in hits}
