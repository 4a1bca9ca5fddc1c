"""The notes database: edits, lists, search, and what it does under concurrency and machine faults."""

from __future__ import annotations

import logging
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pdfdesk.core.errors import PERMISSION_DENIED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.review.records import PALETTE, NewAnnotation
from pdfdesk.review.store import (
    SCHEMA_VERSION,
    AnnotationStore,
    default_path,
    open_store,
)
from tests.machine_faults import read_only, without_override
from tests.review.store_child import note

ROOT = Path(__file__).resolve().parents[2]


def child(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.review.store_child", *args], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, **kwargs)


def test_add_get_update_delete_restore(store: AnnotationStore):
    added = store.add(NewAnnotation("fp1", "/docs/a.pdf", 2, ((10, 20, 110, 32),), "the quote", "before ",
                                    " after", 40, "my note", "green", ("legal", "todo")))
    assert added.id.startswith("a-")
    assert (added.status, added.source, added.kind) == ("anchored", "pdfdesk", "highlight")
    assert added.color == PALETTE["green"] and added.created.endswith("Z") and len(added.created) == 20
    assert store.get(added.id) == added
    changed = store.update(added.id, note="better", color="#ABCDEF", tags=["x", "x", " y "])
    assert (changed.note, changed.color, changed.tags) == ("better", "#abcdef", ("x", "y"))
    assert store.get(added.id) == changed
    gone = store.delete(added.id)
    assert gone.deleted and store.for_document("fp1", "/docs/a.pdf") == [] and store.search("quote") == []
    back = store.restore(added.id)
    assert not back.deleted and [a.id for a in store.for_document("fp1")] == [added.id]
    details = back.to_details()
    assert details["rects"] == [[10, 20, 110, 32]] and details["file"] == "a.pdf" and "answer" not in details
    assert set(details) >= {"id", "page", "quote", "note", "color", "tags", "rects", "status", "source", "kind",
                            "created", "updated", "prefix", "suffix", "file"}


@pytest.mark.parametrize("call", [
    lambda s: s.get("a-missing"),
    lambda s: s.update("a-missing", note="x"),
    lambda s: s.delete("a-missing"),
    lambda s: s.add(NewAnnotation("fp", "/p.pdf", 1, color="mauve")),
    lambda s: s.add(NewAnnotation("fp", "/p.pdf", 0)),
    lambda s: s.add(NewAnnotation("fp", "/p.pdf", 1, kind="scribble")),
    lambda s: s.add(NewAnnotation("fp", "/p.pdf", 1, rects=((1, 2, 3),))),
    lambda s: s.add(NewAnnotation("fp", "/p.pdf", 1, tags="not-a-list")),  # type: ignore[arg-type]
    lambda s: s.update(s.add(NewAnnotation("fp", "/p.pdf", 1)).id, kind="area"),
    lambda s: s.update(s.add(NewAnnotation("fp", "/p.pdf", 1)).id, status="lost"),
    lambda s: s.search("   "),
])
def test_bad_input_is_a_validation_error_not_a_traceback(store, call):
    with pytest.raises(PdfDeskError) as raised:
        call(store)
    assert raised.value.code == VALIDATION_ERROR and raised.value.hint


def test_for_document_lists_this_version_and_older_ones_at_the_same_path_in_reading_order(store):
    low = store.add(NewAnnotation("v2", "/docs/a.pdf", 3, ((0, 500, 10, 510),)))
    high = store.add(NewAnnotation("v2", "/docs/a.pdf", 3, ((0, 100, 10, 110),)))
    first = store.add(NewAnnotation("v2", "/docs/a.pdf", 1, kind="note"))
    older = store.add(NewAnnotation("v1", "/docs/a.pdf", 2))
    moved_copy = store.add(NewAnnotation("v2", "/elsewhere/a-copy.pdf", 5))
    store.add(NewAnnotation("other", "/docs/b.pdf", 1))
    ids = [a.id for a in store.for_document("v2", "/docs/a.pdf")]
    assert ids == [first.id, older.id, high.id, low.id, moved_copy.id]
    assert [a.id for a in store.for_document("v2")] == [first.id, high.id, low.id, moved_copy.id]
    assert sorted(store.all_documents()) == [("other", "/docs/b.pdf", 1), ("v1", "/docs/a.pdf", 1),
                                             ("v2", "/docs/a.pdf", 3), ("v2", "/elsewhere/a-copy.pdf", 1)]


def test_search_is_case_insensitive_over_quote_note_tags_and_answers_but_not_json_keys(store):
    a = store.add(NewAnnotation("fp", "/a.pdf", 1, quote="Die Straße ist lang", note="Check"))
    b = store.add(NewAnnotation("fp", "/a.pdf", 1, note="nothing", tags=("Urgent",)))
    c = store.add(NewAnnotation("fp", "/a.pdf", 1, kind="answer", answer={
        "question": "Who pays?", "text": "The buyer pays shipping.", "citations": [{"file": "a.pdf", "page": 3}]}))
    assert [x.id for x in store.search("STRASSE")] == [a.id]
    assert [x.id for x in store.search("urgent")] == [b.id]
    assert [x.id for x in store.search("buyer PAYS")] == [c.id]
    assert store.search("citations") == [] and store.search("question") == []
    assert len(store.search("a", limit=2)) == 2


def test_the_database_is_wal_versioned_and_indexed(store):
    store.add(NewAnnotation("fp", "/a.pdf", 1))
    assert store.path == default_path() and store.path.parent.name == "review"
    conn = sqlite3.connect(store.path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        plan = " ".join(str(r) for r in conn.execute(
            "EXPLAIN QUERY PLAN SELECT id FROM annotations WHERE fingerprint = 'x' OR path = 'y'"))
        assert "annotations_fingerprint" in plan and "annotations_path" in plan
    finally:
        conn.close()
    assert open_store() is store and open_store(store.path) is store


def test_threads_sharing_one_store_keep_every_note(store):
    errors: list[BaseException] = []

    def work(tag: str) -> None:
        try:
            for number in range(50):
                store.add(note(tag, number))
                if number % 10 == 0:
                    store.for_document("fp-" + tag)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sum(count for _, _, count in store.all_documents()) == 400
    assert all(len(store.for_document(f"fp-t{i}")) == 50 for i in range(8))


def test_two_processes_writing_at_once_keep_all_200_notes(tmp_path):
    db = tmp_path / "shared" / "annotations.sqlite3"
    go = tmp_path / "go"
    procs = [child("burst", str(db), "100", tag, str(go)) for tag in ("alpha", "beta")]
    time.sleep(0.5)  # both started and waiting
    go.touch()
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    store = open_store(db)
    assert len(store.for_document("fp-alpha")) == 100 and len(store.for_document("fp-beta")) == 100
    assert sum(count for _, _, count in store.all_documents()) == 200


def test_processes_creating_the_same_new_database_at_once_all_open_it(tmp_path):
    # SQLite refuses the second switch of a brand-new file to WAL at once, without waiting on
    # the busy timeout; unretried, one process in four failed to start here.
    for round_ in range(4):
        db = tmp_path / f"new{round_}" / "annotations.sqlite3"
        go = tmp_path / f"go{round_}"
        procs = [child("open", str(db), str(go), stderr=subprocess.PIPE, text=True) for _ in range(3)]
        time.sleep(0.4)
        go.touch()
        errors = [p.communicate(timeout=60)[1] for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], errors


def test_a_kill_9_mid_burst_loses_at_most_the_edit_in_flight(tmp_path):
    db = tmp_path / "killed" / "annotations.sqlite3"
    proc = child("loop", str(db), stdout=subprocess.PIPE, text=True)
    committed: list[str] = []
    assert proc.stdout is not None
    while len(committed) < 150:
        line = proc.stdout.readline()
        assert line, "the writer died on its own"
        committed.append(line.strip())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    committed += [line.strip() for line in proc.stdout.read().splitlines() if line.strip()]
    proc.stdout.close()
    store = open_store(db)
    assert store.recovery is None
    stored = {a.id for a in store.for_document("fp-loop")}
    assert set(committed) <= stored and len(stored) - len(committed) <= 1
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_a_read_only_folder_is_a_coded_storage_error(tmp_path):
    folder = tmp_path / "ro"
    with read_only(folder):
        store = open_store(folder / "annotations.sqlite3")
        assert store.for_document("fp", "/a.pdf") == []  # no notes yet, and none can be made
        with pytest.raises(PdfDeskError) as fresh:
            store.add(NewAnnotation("fp", "/a.pdf", 1))
    assert fresh.value.code == PERMISSION_DENIED and str(folder) in fresh.value.message
    assert fresh.value.extra["storage_problem"]


def test_an_existing_database_in_a_folder_turned_read_only_shows_its_notes_and_refuses_writes(tmp_path):
    db = tmp_path / "was-writable" / "annotations.sqlite3"
    kept = open_store(db).add(NewAnnotation("fp", "/a.pdf", 1, note="kept"))
    from pdfdesk.review.store import close_stores
    close_stores()
    script = ("import sys\nfrom pdfdesk.core.errors import PdfDeskError\nfrom pdfdesk.review.store import open_store\n"
              "from pdfdesk.review.records import NewAnnotation\n"
              "store = open_store(sys.argv[1])\n"
              "print('listed', [a.note for a in store.for_document('fp', '/a.pdf')], file=sys.stderr)\n"
              "try:\n    store.add(NewAnnotation('fp', '/a.pdf', 1))\n"
              "except PdfDeskError as e:\n    print(e.code, e.extra.get('storage_problem'))\n")
    with read_only(db.parent):
        result = subprocess.run([sys.executable, "-c", script, str(db)], cwd=ROOT, capture_output=True, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=without_override, timeout=60)
    assert result.stdout.startswith(PERMISSION_DENIED), result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "listed ['kept']" in result.stderr
    assert open_store(db).get(kept.id).note == "kept"


def test_a_full_disk_is_a_coded_storage_error_and_keeps_what_was_stored(store):
    first = store.add(NewAnnotation("fp", "/a.pdf", 1, note="before the disk filled"))
    conn = store._connection()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # SQLite's own "database or disk is full"
    with pytest.raises(PdfDeskError) as full:  # noqa: PT012 - one of these adds fills the disk
        for _ in range(50):
            store.add(NewAnnotation("fp", "/a.pdf", 1, note="x" * 20_000))
    assert full.value.code == PERMISSION_DENIED and full.value.extra["storage_problem"] == "the disk is full"
    assert store.get(first.id).note == "before the disk filled"


def test_a_garbage_database_is_moved_aside_and_a_fresh_one_started(pdfdesk_home, caplog):
    db = default_path()
    db.parent.mkdir(parents=True, exist_ok=True)
    garbage = os.urandom(8192)
    db.write_bytes(b"not a database at all " + garbage)
    with caplog.at_level(logging.WARNING, logger="pdfdesk.review"):
        store = open_store()
    assert store.recovery is not None and store.recovery.salvaged == 0
    moved = store.recovery.moved_to
    assert moved.name.startswith("annotations.sqlite3.corrupt-") and moved.read_bytes().endswith(garbage)
    assert "moved aside" in store.recovery.message() and str(moved) in caplog.text
    added = store.add(NewAnnotation("fp", "/a.pdf", 1, note="fresh"))
    assert store.get(added.id).note == "fresh"


def test_a_damaged_database_keeps_every_note_that_can_still_be_read(tmp_path):
    db = tmp_path / "damaged" / "annotations.sqlite3"
    store = open_store(db)
    ids = {store.add(note("old", n)).id for n in range(300)}
    from pdfdesk.review.store import close_stores
    close_stores()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'annotations_path'").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(db, "r+b") as handle:  # wreck the path index: the table itself stays readable
        handle.seek((root - 1) * size)
        handle.write(b"\xff" * size)
    store = open_store(db)
    assert store.recovery is not None and store.recovery.salvaged == 300
    assert {a.id for a in store.for_document("fp-old", "/docs/old.pdf")} == ids
    assert store.recovery.moved_to.exists()


def test_listing_1000_notes_of_a_document_takes_a_few_milliseconds(store):
    for number in range(1000):
        store.add(note("big", number))
    for number in range(200):
        store.add(note("other", number))
    timings = []
    for _ in range(7):
        began = time.perf_counter()
        listed = store.for_document("fp-big", "/docs/big.pdf")
        timings.append(time.perf_counter() - began)
    timings.sort()
    assert len(listed) == 1000
    print(f"for_document on 1,000 notes: median {timings[3] * 1000:.1f} ms, best {timings[0] * 1000:.1f} ms")
    assert timings[3] < 0.05
