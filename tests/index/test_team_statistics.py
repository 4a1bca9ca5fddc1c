"""The team library's term statistics on a real PostgreSQL: kept right by the triggers through every
way pages and documents change, summed over the reader's own matters only, never deadlocking two
indexing clients, and the one-query search for pages missing one word finding what one search
per word left out finds."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest

from pdfdesk.index.library_fts import SqliteLibrary
from pdfdesk.index.library_search import parse, rank
from pdfdesk.index.relaxing import near_queries
from pdfdesk.index import team_library_relaxed
from pdfdesk.index.team_library import TeamLibrary
from pdfdesk.index.team_library_query import Leaf, lexeme
from pdfdesk.team import matters

def _library(team_db: Any, user: str) -> TeamLibrary:
    return team_db.library(user)


def _matters(team_db: Any, layout: dict[str, list[str]], grants: dict[str, list[str]]) -> None:
    with psycopg.connect(team_db.conninfo("postgres")) as admin:
        for matter, docs in layout.items():
            matters.create_matter(admin, matter)
            for doc in docs:
                matters.add_document(admin, matter, doc, f"{doc}.pdf", 3)
        for matter, users in grants.items():
            for user in users:
                matters.grant(admin, matter, user, write=True)


def _snapshot(team_db: Any) -> tuple[set[tuple[str, int, int]], set[tuple[int, int, int]]]:
    with psycopg.connect(team_db.conninfo("postgres")) as admin:
        terms = {(str(t), int(m), int(n)) for t, m, n in
                 admin.execute("SELECT term, matter, pages FROM pdfdesk.matter_terms").fetchall()}
        sizes = {(int(m), int(p), int(w)) for m, p, w in
                 admin.execute("SELECT matter, pages, words FROM pdfdesk.matter_sizes").fetchall()}
    return terms, sizes


def _recounted(team_db: Any) -> tuple[set[tuple[str, int, int]], set[tuple[int, int, int]]]:
    with psycopg.connect(team_db.conninfo("postgres")) as admin:
        admin.execute("SELECT pdfdesk.recount_statistics()")
    return _snapshot(team_db)


def _count(library: TeamLibrary, term: str) -> int:
    library.forget_statistics()
    return library.stats.page_counts([Leaf(lexeme(term), (term,))])[0]


def test_the_triggers_keep_every_count_as_a_recount_finds_it(team_db: Any) -> None:
    _matters(team_db, {"Alpha": ["a", "b"], "Beta": ["b"]}, {"Alpha": ["alice"], "Beta": ["alice", "bob"]})
    alice = _library(team_db, "alice")
    alice.add_documents([("a", [(1, "escrow escrow lease"), (2, "lease only"), (3, "nothing here")]),
                         ("b", [(1, "escrow notary"), (2, "notary lease"), (3, "the end")])])
    assert _snapshot(team_db) == _recounted(team_db)
    assert _count(alice, "escrow") == 3  # a.1 and b.1 in Alpha, b.1 again in Beta
    assert _count(_library(team_db, "bob"), "escrow") == 1  # Beta's b.1 only

    # a scanned page recognised again: its old words go, its new ones come, in both matters
    assert alice.replace_page("b", 3, "escrow at the end")
    after_ocr = _snapshot(team_db)
    assert after_ocr == _recounted(team_db)
    assert _count(_library(team_db, "bob"), "escrow") == 2

    # a document already indexed, put into one more matter, and taken out of another
    with psycopg.connect(team_db.conninfo("postgres")) as admin:
        matters.create_matter(admin, "Gamma")
        matters.add_document(admin, "Gamma", "a", "a.pdf", 3)
        matters.grant(admin, "Gamma", "carol")
        admin.execute("DELETE FROM pdfdesk.documents WHERE fingerprint = 'b' AND matter = "
                      "(SELECT id FROM pdfdesk.matters WHERE name = 'Beta')")
        admin.commit()
    assert _snapshot(team_db) == _recounted(team_db)
    assert _count(_library(team_db, "carol"), "escrow") == 1
    assert _count(_library(team_db, "bob"), "escrow") == 0
    # a whole matter deleted: its counts go with it, the others' stay
    with psycopg.connect(team_db.conninfo("postgres")) as admin:
        admin.execute("DELETE FROM pdfdesk.matters WHERE name = 'Gamma'")
    terms, sizes = _snapshot(team_db)
    assert (terms, sizes) == _recounted(team_db)
    assert {m for _, m, _ in terms} == {m for m, _, _ in sizes} and len(sizes) == 1
    assert all(n > 0 for _, _, n in terms)


def test_the_library_size_is_summed_over_the_readers_matters(team_db: Any) -> None:
    _matters(team_db, {"Alpha": ["a"], "Beta": ["b"]}, {"Alpha": ["alice"], "Beta": ["alice", "bob"]})
    alice = _library(team_db, "alice")
    alice.add_documents([("a", [(1, "one two three"), (2, "four")]), ("b", [(1, "five six")])])
    assert alice.stats.size() == (3, 2.0)
    assert _library(team_db, "bob").stats.size() == (1, 2.0)
    with psycopg.connect(team_db.conninfo("bob")) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT count(*) FROM pdfdesk.matter_terms")


def test_a_prefix_and_a_phrase_are_counted(team_db: Any) -> None:
    _matters(team_db, {"Alpha": ["a"]}, {"Alpha": ["alice"]})
    alice = _library(team_db, "alice")
    alice.add_documents([("a", [(1, "gebühren gebührenfrei"), (2, "gebührenordnung"), (3, "notary public"),
                                (4, "public notary")])])
    counts = alice.stats.page_counts([Leaf(lexeme("gebühr") + ":*", ("gebühr",), prefix=True),
                                      Leaf(f"({lexeme('notari')} <-> {lexeme('public')})", ("notari", "public"))])
    assert counts == [3, 1]  # a page holding two of the prefix's words counts twice; the phrase is exact


def test_two_clients_indexing_the_same_words_at_once_neither_deadlock_nor_lose_a_count(team_db: Any) -> None:
    docs = [f"doc-{n}" for n in range(40)]
    _matters(team_db, {"Alpha": docs}, {"Alpha": ["alice", "bob"]})
    words = " ".join(f"word{w}" for w in range(60))
    failures: list[BaseException] = []

    def index(user: str, mine: list[str]) -> None:
        library = _library(team_db, user)
        try:
            for doc in mine:  # one transaction per document, every one upserting the same 60 terms
                library.add_documents([(doc, [(1, words), (2, words[::-1])])])
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=index, args=("alice", docs[0::2])),
               threading.Thread(target=index, args=("bob", docs[1::2]))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures and not any(t.is_alive() for t in threads)
    assert _count(_library(team_db, "alice"), "word7") == 40
    assert _snapshot(team_db) == _recounted(team_db)


def test_pages_missing_one_word_are_found_in_one_search_as_one_search_per_word_finds_them(
        team_db: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _matters(team_db, {"Alpha": [f"d{n}" for n in range(12)]}, {"Alpha": ["alice"]})
    team = _library(team_db, "alice")
    embedded = SqliteLibrary()
    texts = ["alpha bravo charlie delta", "alpha bravo charlie echo", "alpha bravo delta echo", "bravo charlie delta",
             "alpha alpha charlie delta", "alpha bravo", "charlie delta echo", "alpha bravo charlie delta echo",
             "delta echo foxtrot", "bravo bravo bravo charlie delta", "alpha charlie", "echo"]
    documents = [(f"d{n}", [(1, text), (2, "filler words only")]) for n, text in enumerate(texts)]
    team.add_documents(documents)
    embedded.add_documents(documents)
    near = near_queries(parse("alpha bravo charlie delta"))
    one_by_one = {(h.fingerprint, h.page) for q in near for h in team.search(q, 20)}
    together = {(h.fingerprint, h.page) for h in team.search_near(near, 20)}
    assert together == one_by_one == {(h.fingerprint, h.page) for h in embedded.search_near(near, 20)}
    assert ("d1", 1) in together and ("d5", 1) not in together
    monkeypatch.setattr(team_library_relaxed, "NEAR_CANDIDATES", 0)  # the rarest words too common: one OR of ANDs
    assert {(h.fingerprint, h.page) for h in team.search_near(near, 20)} == together
    monkeypatch.undo()
    # the library search puts them after the page holding every word, as the embedded index does
    ranked = [(h.fingerprint, h.page) for h in rank("alpha bravo charlie delta", 10, backend=team).hits]
    assert ranked[:2] in ([("d0", 1), ("d7", 1)], [("d7", 1), ("d0", 1)])
    assert set(ranked[2:7]) == {("d1", 1), ("d2", 1), ("d3", 1), ("d4", 1), ("d9", 1)}


def test_the_whole_library_shortcut_ends_when_a_matter_the_reader_cannot_read_holds_pages(team_db: Any) -> None:
    _matters(team_db, {"Alpha": ["a"], "Secret": ["s"]}, {"Alpha": ["alice"], "Secret": ["bob"]})
    alice, bob = _library(team_db, "alice"), _library(team_db, "bob")
    alice.add_documents([("a", [(1, "the escrow agent")])])
    assert [(h.fingerprint, h.page) for h in alice.search(parse("escrow"), 10)] == [("a", 1)]
    bob.add_documents([("s", [(1, "the secret escrow")])])  # alice no longer sees the whole library
    for library in (alice, bob):
        library.forget_statistics()
    assert [(h.fingerprint, h.page) for h in alice.search(parse("escrow"), 10)] == [("a", 1)]
    assert {h.fingerprint for h in bob.search(parse("escrow"), 10)} == {"s"}
    with psycopg.connect(team_db.conninfo("postgres")) as admin:  # once alice may read it too, she finds it
        matters.grant(admin, "Secret", "alice")
    assert {h.fingerprint for h in alice.search(parse("escrow"), 10)} == {"a", "s"}
