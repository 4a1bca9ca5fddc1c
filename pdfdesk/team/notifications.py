"""Hearing about teammates' notes as they are made: a thread LISTENing on the team database.

The server announces every note change on its matter's channel (the payload is the note's id),
and every change of access on 'pdfdesk_access'. The listener follows the channels of exactly the
matters its login can read, re-reading them when access changes, so it never hears about a
matter it may not see. A dropped connection is reported, retried with a backoff capped at a few
seconds, and reported again once it is back; the caller then sends its queued changes and reloads
(notifications sent while it was away are lost, by the nature of LISTEN).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import psycopg
from psycopg import sql

from pdfdesk.core.errors import PdfDeskError
from pdfdesk.team.connection import close_quietly, connect, is_connection_failure
from pdfdesk.team.schema_notes import NOTES_CHANNEL_PREFIX
from pdfdesk.team.settings import TeamTarget

ACCESS_CHANNEL = "pdfdesk_access"
MAX_BACKOFF_S = 5.0
FIRST_BACKOFF_S = 0.25
POLL_S = 0.25        # how often the thread looks at its stop flag while the server is quiet
HEARTBEAT_S = 10.0   # a statement now and then notices a link that died without a word

OnChange = Callable[[str, int], None]
OnState = Callable[[bool, str], None]
OnEvent = Callable[[], None]


def _ignore_state(online: bool, detail: str) -> None:
    return None


def _nothing() -> None:
    return None


class NoteListener:
    """Calls `on_change(note_id, matter)` for each note a teammate adds or changes in a matter
    this login reads; `on_state(online, detail)` when the connection drops or comes back, and
    `on_reconnect()` after it came back. Callbacks run on the listener's own thread."""

    def __init__(self, on_change: OnChange, on_state: OnState | None = None,
                 on_reconnect: OnEvent | None = None, target: TeamTarget | None = None,
                 on_access: OnEvent | None = None) -> None:
        self.on_change = on_change
        self.on_state = on_state or _ignore_state
        self.on_reconnect = on_reconnect or _nothing
        self.on_access = on_access or _nothing
        self.target = target
        self.online: bool | None = None  # None until the first attempt
        self.matters: frozenset[int] = frozenset()
        self._stopping = threading.Event()
        self._conn: psycopg.Connection | None = None
        self._thread = threading.Thread(target=self._run, name="pdfdesk-note-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """End the thread (it notices within POLL_S) and close its connection."""
        self._stopping.set()
        self._thread.join(timeout)

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    # -- the thread --------------------------------------------------------------------------------
    def _state(self, online: bool, detail: str) -> None:
        if self.online is not online:
            self.online = online
            self._call(lambda: self.on_state(online, detail))

    @staticmethod
    def _call(callback: Callable[[], None]) -> None:
        """A callback's failure must not end the listening."""
        try:
            callback()
        except Exception:  # a caller's bug, not ours to stop on
            pass

    def _run(self) -> None:
        backoff = FIRST_BACKOFF_S
        connected_before = False
        while not self._stopping.is_set():
            try:
                conn = connect(self.target, autocommit=True)
            except PdfDeskError as exc:
                self._state(False, exc.message)
                self._stopping.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_S)
                continue
            try:
                self.matters = frozenset()  # a new connection listens on nothing yet
                self._follow(conn)
                backoff = FIRST_BACKOFF_S
                self._state(True, "listening for teammates' notes")
                if connected_before:
                    self._call(self.on_reconnect)
                connected_before = True
                self._listen(conn)
            except psycopg.Error as exc:
                detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                self._state(False, detail if is_connection_failure(exc) else f"listening failed: {detail}")
                self._stopping.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_S)
            finally:
                close_quietly(conn)

    def _listen(self, conn: psycopg.Connection) -> None:
        quiet_since = time.monotonic()
        while not self._stopping.is_set():
            # Taken out of the generator before acting on them: it holds the connection's lock
            # while it runs, and acting may need the connection (re-reading the matters).
            for notify in list(conn.notifies(timeout=POLL_S, stop_after=1)):
                quiet_since = time.monotonic()
                if notify.channel == ACCESS_CHANNEL:
                    self._follow(conn)
                    self._call(self.on_access)
                elif notify.channel.startswith(NOTES_CHANNEL_PREFIX):
                    matter = int(notify.channel[len(NOTES_CHANNEL_PREFIX):])
                    if matter in self.matters:
                        self._changed(notify.payload, matter)
                if self._stopping.is_set():
                    return
            if time.monotonic() - quiet_since > HEARTBEAT_S:
                conn.execute("SELECT 1")
                quiet_since = time.monotonic()

    def _changed(self, note: str, matter: int) -> None:
        self._call(lambda: self.on_change(note, matter))

    def _follow(self, conn: psycopg.Connection) -> None:
        """LISTEN on the channels of the matters this login reads now, and no others."""
        try:
            rows = conn.execute("SELECT unnest(pdfdesk.readable())").fetchall()
            readable = frozenset(int(r[0]) for r in rows)
        except psycopg.errors.InsufficientPrivilege:
            readable = frozenset()  # a login granted nothing reads nothing
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(ACCESS_CHANNEL)))
        for matter in readable - self.matters:
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(f"{NOTES_CHANNEL_PREFIX}{matter}")))
        for matter in self.matters - readable:
            conn.execute(sql.SQL("UNLISTEN {}").format(sql.Identifier(f"{NOTES_CHANNEL_PREFIX}{matter}")))
        self.matters = readable
