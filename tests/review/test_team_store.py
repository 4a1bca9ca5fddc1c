"""Shared notes in the team database: who sees what, edits by several reviewers, refusals, load."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.errors import PERMISSION_DENIED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.review.records import NewAnnotation
from pdfdesk.review.store import AnnotationStore, open_store
from pdfdesk.review.team_store import TeamAnnotationStore
from pdfdesk.team.settings import ENV_VAR
from pdfdesk.tools.pdf_annotate import pdf_annotate
from tests.team_fixture import make_logins, shared_pdf

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def reviewer(team_db: Any, tmp_path: Path) -> Iterator[Callable[[str], TeamAnnotationStore]]:
    """A team store per login (each with its own queue folder), closed at the end."""
    opened: list[TeamAnnotationStore] = []

    def store_as(user: str) -> TeamAnnotationStore:
        opened.append(TeamAnnotationStore(team_db.target(user), folder=tmp_path / "queues" / f"{user}-{len(opened)}"))
        return opened[-1]
    yield store_as
    for store in opened:
        store.close()


def note(fingerprint: str, text: str, page: int = 1) -> NewAnnotation:
    return NewAnnotation(fingerprint=fingerprint, path="/somewhere/case.pdf", page=page, note=text, kind="note")


def test_writers_share_notes_and_roles_without_the_matter_see_none(team_db: Any, reviewer: Any, tmp_path: Path) -> None:
    fingerprint = shared_pdf(team_db, tmp_path / "case.pdf", "Case", writers=("alice", "bob"), readers=("carol",))
    shared_pdf(team_db, tmp_path / "other.pdf", "Other", writers=("outsider",), text="Another document {n}.")
    alice, bob = reviewer("alice"), reviewer("bob")
    mine = alice.add(note(fingerprint, "alice was here"))
    theirs = bob.add(note(fingerprint, "bob was here", page=2))
    assert (mine.author, mine.matter, alice.state, alice.pending()) == ("alice", "Case", "online", 0)
    carol = reviewer("carol")
    seen = carol.for_document(fingerprint)
    assert [(a.id, a.note, a.author, a.matter) for a in seen] == [
        (mine.id, "alice was here", "alice", "Case"), (theirs.id, "bob was here", "bob", "Case")]
    assert seen[0].to_details()["author"] == "alice"
    assert sorted(a.note for a in carol.search("WAS HERE")) == ["alice was here", "bob was here"]
    assert carol.all_documents() == [(fingerprint, "/somewhere/case.pdf", 2)]
    for stranger in ("outsider", "nobody"):
        other = reviewer(stranger)
        assert other.for_document(fingerprint) == [] and other.all_documents() == []
        with pytest.raises(PdfDeskError) as missing:
            other.get(mine.id)
        assert missing.value.code == VALIDATION_ERROR
    local = AnnotationStore(tmp_path / "local" / "annotations.sqlite3")  # the local store is untouched
    assert local.for_document(fingerprint) == [] and local.add(note(fingerprint, "x")).author == ""
    assert "author" not in local.for_document(fingerprint)[0].to_details()


def test_two_reviewers_editing_one_note_the_later_wins_and_the_earlier_is_kept(team_db: Any, reviewer: Any,
                                                                              tmp_path: Path) -> None:
    fingerprint = shared_pdf(team_db, tmp_path / "case.pdf", "Case", writers=("alice", "bob"))
    alice, bob = reviewer("alice"), reviewer("bob")
    first = alice.add(note(fingerprint, "draft"))
    assert bob.get(first.id).note == "draft"
    alice.update(first.id, note="alice's wording")
    later = bob.update(first.id, note="bob's wording")
    assert (later.note, later.revision, later.author) == ("bob's wording", 3, "alice")
    assert alice.get(first.id).note == "bob's wording"
    history = alice.history(first.id)
    assert [(h.revision, h.changed_by, h.annotation.note) for h in history] == [
        (1, "alice", "draft"), (2, "alice", "alice's wording")]
    # different fields: both changes stay, because only the changed field is sent
    stale = alice.get(first.id)
    bob.update(first.id, color="green")
    alice.update(stale.id, tags=["urgent"])
    final = bob.get(first.id)
    assert (final.color, final.tags, final.note) == ("#81c784", ("urgent",), "bob's wording")
    bob.delete(first.id)
    assert alice.for_document(fingerprint) == []
    assert alice.restore(first.id).deleted is False and len(alice.for_document(fingerprint)) == 1


def test_a_reader_cannot_add_or_edit_and_nothing_stays_queued(team_db: Any, reviewer: Any, tmp_path: Path) -> None:
    fingerprint = shared_pdf(team_db, tmp_path / "case.pdf", "Case", writers=("alice",), readers=("carol",))
    alice, carol = reviewer("alice"), reviewer("carol")
    kept = alice.add(note(fingerprint, "alice's"))
    with pytest.raises(PdfDeskError) as refused:
        carol.add(note(fingerprint, "carol's"))
    assert refused.value.code == PERMISSION_DENIED and "Case" in refused.value.message
    assert carol.pending() == 0
    with pytest.raises(PdfDeskError) as refused:
        carol.update(kept.id, note="carol's change")
    assert refused.value.code == PERMISSION_DENIED
    with pytest.raises(PdfDeskError) as refused:
        carol.delete(kept.id)
    assert refused.value.code == PERMISSION_DENIED
    assert carol.pending() == 0 and [r.kind for r in carol.rejected()] == ["update", "update"]
    assert carol.rejected()[0].code == PERMISSION_DENIED
    assert [a.note for a in carol.for_document(fingerprint)] == ["alice's"]
    assert carol.update(kept.id, path="/carol/copy.pdf").path == "/carol/copy.pdf"  # her own place only
    assert alice.get(kept.id).path == "/somewhere/case.pdf"


def test_which_matter_a_new_note_goes_to(team_db: Any, reviewer: Any, tmp_path: Path) -> None:
    alice = reviewer("alice")
    with pytest.raises(PdfDeskError) as nowhere:
        alice.add(note("f" * 32, "lost"))
    assert nowhere.value.code == VALIDATION_ERROR and "pdfdesk team matter NAME --add FILE" in nowhere.value.hint
    fingerprint = shared_pdf(team_db, tmp_path / "case.pdf", "Case A", writers=("alice",))
    shared_pdf(team_db, tmp_path / "case.pdf", "Case B", writers=("alice",))
    alice = reviewer("alice")  # nothing remembered about the document
    with pytest.raises(PdfDeskError) as several:
        alice.add(note(fingerprint, "which?"))
    assert several.value.code == VALIDATION_ERROR and "'Case A', 'Case B'" in several.value.message
    assert "[team] matter" in several.value.hint and alice.pending() == 0
    set_config(Config(semantic=False, team_matter="Case B"))
    assert alice.add(note(fingerprint, "here")).matter == "Case B"


def test_the_tools_use_the_team_store_and_show_authors(team_db: Any, reviewer: Any, tmp_path: Path) -> None:
    pdf = tmp_path / "case.pdf"
    shared_pdf(team_db, pdf, "Case", writers=("alice", "bob"))
    added = pdf_annotate({"action": "add", "path": str(pdf), "page": 1, "quote": "says hello", "note": "mine"})
    assert isinstance(open_store(), TeamAnnotationStore)
    assert added.details["annotation"]["author"] == "alice"
    team_db.login("bob")
    listed = pdf_annotate({"action": "list", "path": str(pdf), "include_file_annotations": False})
    assert [(a["note"], a.get("author")) for a in listed.details["annotations"]] == [("mine", "alice")]
    assert "by alice" in listed.content[1]["text"]


def test_twenty_writers_at_once_each_note_lands_exactly_once(team_db: Any, reviewer: Any, pg_cluster: Any,
                                                            tmp_path: Path) -> None:
    writers, count = [f"writer{n:02d}" for n in range(20)], 500
    make_logins(pg_cluster, writers)
    fingerprint = shared_pdf(team_db, tmp_path / "case.pdf", "Load", writers=tuple(writers), readers=("carol",))
    go = tmp_path / "go"
    started = time.monotonic()
    children = [subprocess.Popen(
        [sys.executable, "-m", "tests.team.team_writer", "burst", fingerprint, str(count), name, str(go)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), ENV_VAR: team_db.conninfo(name),
             "PDFDESK_HOME": str(tmp_path / "homes" / name)}) for name in writers]
    ready = time.monotonic()
    go.touch()
    outputs = [child.communicate(timeout=120)[0] for child in children]
    elapsed = time.monotonic() - started
    assert [child.returncode for child in children] == [0] * len(writers)
    assert [out.strip() for out in outputs] == ["0"] * len(writers)  # nothing left waiting
    with team_db.admin() as admin:
        total, distinct = admin.execute("SELECT count(*), count(DISTINCT id) FROM pdfdesk.notes").fetchone()
        by_author = dict(admin.execute("SELECT author, count(*) FROM pdfdesk.notes GROUP BY author").fetchall())
        ops = admin.execute("SELECT count(*) FROM pdfdesk.applied_ops").fetchone()[0]
    assert (total, distinct, ops) == (len(writers) * count,) * 3
    assert by_author == dict.fromkeys(writers, count)
    carol = reviewer("carol")
    assert len(carol.for_document(fingerprint)) == len(writers) * count
    print(f"\n{len(writers)} writers x {count} notes: {elapsed:.1f} s in all "
          f"({elapsed - (ready - started):.1f} s after the processes were started)")
    assert elapsed < 90
