"""The note listener: teammates' changes arrive within seconds, only for matters the login reads,
and it keeps delivering after the server restarts."""

from __future__ import annotations

import queue
import time
from pathlib import Path
from typing import Any

from pdfdesk.review.records import NewAnnotation
from pdfdesk.review.team_store import TeamAnnotationStore
from pdfdesk.team import matters
from pdfdesk.team.notifications import NoteListener
from tests.team_fixture import shared_pdf


def _next(events: queue.Queue, within: float = 2.0) -> Any:
    return events.get(timeout=within)


def _wait_for(events: queue.Queue, wanted: Any, within: float) -> list[Any]:
    """Events until `wanted` arrives (all of them, to check what came before)."""
    seen: list[Any] = []
    deadline = time.monotonic() + within
    while wanted not in seen:
        seen.append(events.get(timeout=max(0.01, deadline - time.monotonic())))
    return seen


def test_a_teammates_changes_arrive_and_survive_a_server_restart(team_db: Any, pg_cluster: Any,
                                                                 tmp_path: Path) -> None:
    fingerprint = shared_pdf(team_db, tmp_path / "case.pdf", "Case", writers=("alice",), readers=("bob",))
    secret = shared_pdf(team_db, tmp_path / "secret.pdf", "Secret", writers=("alice",), text="Secret {n}.")
    changes: queue.Queue = queue.Queue()
    states: queue.Queue = queue.Queue()
    reconnects: queue.Queue = queue.Queue()
    listener = NoteListener(lambda note, matter: changes.put(note), lambda online, why: states.put(online),
                            lambda: reconnects.put(True), target=team_db.target("bob"))
    alice = TeamAnnotationStore(team_db.target("alice"), folder=tmp_path / "alice")
    try:
        listener.start()
        assert _next(states, 5) is True
        hidden = alice.add(NewAnnotation(secret, "/s.pdf", 1, note="not for bob", kind="note"))
        started = time.monotonic()
        added = alice.add(NewAnnotation(fingerprint, "/c.pdf", 1, note="hello bob", kind="note"))
        assert _next(changes) == added.id
        alice.update(added.id, note="hello again")
        assert _next(changes) == added.id
        assert time.monotonic() - started < 2
        pg_cluster.restart("immediate")
        assert _wait_for(states, True, 20) == [False, True]
        assert _next(reconnects, 5) is True
        again = alice.add(NewAnnotation(fingerprint, "/c.pdf", 2, note="after the restart", kind="note"))
        assert again.id in _wait_for(changes, again.id, 5)
        assert alice.pending() == 0
        assert hidden.id not in [changes.get_nowait() for _ in range(changes.qsize())]
    finally:
        started = time.monotonic()
        listener.stop()
        assert not listener.is_alive() and time.monotonic() - started < 1.5
        alice.close()


def test_a_grant_starts_and_a_revoke_ends_the_delivery(team_db: Any, tmp_path: Path) -> None:
    fingerprint = shared_pdf(team_db, tmp_path / "case.pdf", "Case", writers=("alice",))
    changes: queue.Queue = queue.Queue()
    access: queue.Queue = queue.Queue()
    listener = NoteListener(lambda note, matter: changes.put(note), target=team_db.target("bob"),
                            on_access=lambda: access.put(True))
    alice = TeamAnnotationStore(team_db.target("alice"), folder=tmp_path / "alice")
    try:
        listener.start()
        deadline = time.monotonic() + 5
        while listener.online is not True and time.monotonic() < deadline:
            time.sleep(0.02)
        unseen = alice.add(NewAnnotation(fingerprint, "/c.pdf", 1, note="before the grant", kind="note"))
        with team_db.admin() as admin:
            matters.grant(admin, "Case", "bob")
        assert _next(access) is True and len(listener.matters) == 1
        seen = alice.add(NewAnnotation(fingerprint, "/c.pdf", 1, note="after the grant", kind="note"))
        assert _next(changes) == seen.id
        with team_db.admin() as admin:
            matters.revoke(admin, "Case", "bob")
        assert _next(access) is True and listener.matters == frozenset()
        alice.update(seen.id, note="bob no longer reads this")
        time.sleep(0.5)
        assert changes.empty() and unseen.id != seen.id
    finally:
        listener.stop()
        alice.close()
