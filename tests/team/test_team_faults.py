"""The team store when the server or the client fails: stopped and restarted servers, dropped
connections, a client killed mid-write. Nothing a reviewer was told is saved may be lost, and
nothing may arrive twice."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pdfdesk.review import team_wire
from pdfdesk.review.records import NewAnnotation
from pdfdesk.review.team_store import TeamAnnotationStore
from pdfdesk.team.connection import connect
from pdfdesk.team.settings import ENV_VAR
from tests.team_fixture import shared_pdf

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def case(team_db: Any, tmp_path: Path) -> str:
    return shared_pdf(team_db, tmp_path / "case.pdf", "Case", writers=("alice", "bob"), readers=("carol",))


@pytest.fixture
def alice(team_db: Any, tmp_path: Path) -> Iterator[TeamAnnotationStore]:
    store = TeamAnnotationStore(team_db.target("alice"), folder=tmp_path / "alice-queue")
    yield store
    store.close()


@pytest.fixture
def server(pg_cluster: Any) -> Iterator[Any]:
    """The cluster, running again after the test whatever the test did to it."""
    yield pg_cluster
    try:
        with pg_cluster.connect():
            pass
    except Exception:
        pg_cluster.start()


def note(fingerprint: str, text: str) -> NewAnnotation:
    return NewAnnotation(fingerprint=fingerprint, path="/docs/case.pdf", page=1, note=text, kind="note")


def on_server(team_db: Any) -> dict[str, tuple[str, int, str]]:
    """id -> (note, revision, author) of every note, as the superuser sees them; also checks
    that every note arrived once (one recorded op per add and per change)."""
    with team_db.admin() as admin:
        rows = admin.execute("SELECT id, note, revision, author FROM pdfdesk.notes").fetchall()
        ops = admin.execute("SELECT count(*) FROM pdfdesk.applied_ops").fetchone()[0]
    assert ops == sum(revision for _, _, revision, _ in rows)
    return {i: (n, r, a) for i, n, r, a in rows}


def flush_all(store: TeamAnnotationStore, within: float = 30) -> None:
    deadline = time.monotonic() + within
    while store.pending() and time.monotonic() < deadline:
        store.flush()
        time.sleep(0.1)
    assert store.pending() == 0 and store.rejected() == []


def test_offline_changes_wait_and_are_sent_in_order(team_db: Any, case: str, alice: TeamAnnotationStore,
                                                     server: Any, tmp_path: Path) -> None:
    kept = alice.add(note(case, "made online"))
    bob = TeamAnnotationStore(team_db.target("bob"), folder=tmp_path / "bob-queue")  # never in contact
    assert alice.for_document(case)[0].id == kept.id  # remembered for offline reading
    server.stop()
    first = alice.add(note(case, "offline 1"))
    second = alice.add(note(case, "offline 2"))
    changed = alice.update(first.id, note="offline 1, edited")
    alice.update(kept.id, color="green")
    alice.delete(second.id)
    bobs = bob.add(note(case, "bob, offline from the start"))
    assert (bob.state, bobs.matter, bob.pending()) == ("offline", "", 1)
    assert (alice.state, alice.online, alice.pending()) == ("offline", False, 5)
    assert alice.last_error and changed.note == "offline 1, edited"
    assert {a.note for a in alice.for_document(case)} == {"made online", "offline 1, edited"}
    assert alice.get(kept.id).color == "#81c784" and alice.flush() == 0
    server.start()
    assert alice.flush() == 5 and alice.pending() == 0 and alice.state == "online"
    seen = on_server(team_db)
    assert seen == {kept.id: ("made online", 2, "alice"), first.id: ("offline 1, edited", 2, "alice"),
                    second.id: ("offline 2", 2, "alice")}
    assert [h.annotation.note for h in alice.history(first.id)] == ["offline 1"]
    assert alice.flush() == 0 and on_server(team_db) == seen
    assert bob.flush() == 1 and bob.get(bobs.id).matter == "Case"  # its matter chosen when sent
    bob.close()


def test_a_server_crash_mid_burst_loses_and_duplicates_nothing(team_db: Any, case: str,
                                                                alice: TeamAnnotationStore, server: Any) -> None:
    added: list[str] = []
    failures: list[BaseException] = []
    waiting: list[int] = []

    def burst() -> None:
        try:
            for number in range(300):
                added.append(alice.add(note(case, f"burst {number}")).id)
                waiting.append(alice.pending())
        except BaseException as exc:  # the test fails below with it
            failures.append(exc)

    writer = threading.Thread(target=burst)
    writer.start()
    while len(added) < 50:
        time.sleep(0.01)
    server.restart("immediate")
    writer.join(120)
    assert failures == [] and len(added) == 300
    assert max(waiting) > 0  # the crash did catch writes: some had to wait
    flush_all(alice)
    seen = on_server(team_db)
    assert sorted(seen) == sorted(added) and len(set(added)) == 300
    assert {note_ for note_, _, _ in seen.values()} == {f"burst {n}" for n in range(300)}


def test_dropped_connections_between_and_during_writes(team_db: Any, case: str, alice: TeamAnnotationStore) -> None:
    dropped: list[int] = []

    def drop() -> None:
        with team_db.admin() as admin:
            dropped.append(len(admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                             "WHERE usename = 'alice'").fetchall()))

    first = alice.add(note(case, "before"))
    drop()
    second = alice.add(note(case, "after a drop"))  # reconnects at once: nothing waits
    assert alice.pending() == 0 and alice.state == "online"
    alice.update(first.id, note="before, edited")
    added: list[str] = []
    done = threading.Event()

    def burst() -> None:
        for number in range(200):
            added.append(alice.add(note(case, f"burst {number}")).id)
            if number % 20 == 0:
                alice.update(added[-1], tags=["touched"])
        done.set()

    writer = threading.Thread(target=burst)
    writer.start()
    while not done.is_set():
        drop()
        time.sleep(random.uniform(0.005, 0.05))
    writer.join(60)
    assert sum(dropped) > 10
    flush_all(alice)
    seen = on_server(team_db)
    assert sorted(seen) == sorted([first.id, second.id, *added])
    assert seen[first.id][0] == "before, edited"
    assert all(seen[i][1] == (2 if n % 20 == 0 else 1) for n, i in enumerate(added))


def test_a_change_the_server_has_already_is_not_applied_again(team_db: Any, case: str,
                                                              alice: TeamAnnotationStore, server: Any) -> None:
    """The server committed, then the client died before clearing its queue: sent again, the
    change finds its op id and is skipped."""
    earlier = alice.add(note(case, "online"))  # the matter is known from here on
    server.stop()
    added = alice.add(note(case, "sent twice"))
    alice.update(added.id, note="changed once")
    server.start()
    queued = alice.outbox.queued()
    with connect(team_db.target("alice"), autocommit=True) as conn, conn.transaction():
        for op in queued:
            assert team_wire.apply(conn, op) is True
    assert alice.flush() == 0 and alice.pending() == 0 and alice.rejected() == []
    assert on_server(team_db) == {earlier.id: ("online", 1, "alice"), added.id: ("changed once", 2, "alice")}


def _child(team_db: Any, home: Path, *args: str, **kwargs: Any) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), ENV_VAR: team_db.conninfo("bob"), "PDFDESK_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-m", "tests.team.team_writer", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, text=True, **kwargs)


def test_a_client_killed_mid_write_loses_and_duplicates_nothing(team_db: Any, case: str, tmp_path: Path) -> None:
    home = tmp_path / "bob-home"
    printed: list[str] = []
    for round_ in range(3):
        writer = _child(team_db, home, "loop", case, f"round{round_}")
        assert writer.stdout is not None
        printed.append(writer.stdout.readline().strip())  # running, one note in
        time.sleep(random.uniform(0.2, 1.0))
        writer.send_signal(signal.SIGKILL)
        out, _ = writer.communicate(timeout=30)
        printed += out.split()
    flusher = _child(team_db, home, "flush")
    out, _ = flusher.communicate(timeout=60)
    assert flusher.returncode == 0 and out.split()[1] == "0"  # nothing left waiting
    seen = on_server(team_db)
    assert set(printed) <= set(seen) and len(printed) == len(set(printed))
    assert len(seen) <= len(printed) + 3  # at most the add each kill interrupted, queued but not printed
    assert {author for _, _, author in seen.values()} == {"bob"}


def test_an_offline_edit_the_server_refuses_is_set_aside_not_retried(team_db: Any, case: str,
                                                                      alice: TeamAnnotationStore, server: Any,
                                                                      tmp_path: Path) -> None:
    kept = alice.add(note(case, "alice's words"))
    carol = TeamAnnotationStore(team_db.target("carol"), folder=tmp_path / "carol-queue")
    try:
        assert [a.note for a in carol.for_document(case)] == ["alice's words"]
        server.stop()
        assert carol.update(kept.id, note="carol's words").note == "carol's words"  # a reader, offline
        assert carol.pending() == 1
        server.start()
        assert carol.flush() == 0 and carol.pending() == 0
        [refused] = carol.rejected()
        assert (refused.note, refused.kind, refused.code) == (kept.id, "update", "permission_denied")
        assert refused.payload["fields"] == {"note": "carol's words"}
        assert carol.flush() == 0 and carol.rejected() == [refused]
        assert [a.note for a in carol.for_document(case)] == ["alice's words"]
        assert on_server(team_db) == {kept.id: ("alice's words", 1, "alice")}
    finally:
        carol.close()
