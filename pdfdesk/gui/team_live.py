"""Team mode in the window: other reviewers' notes appear as they are made, and the status bar says
whether this computer is connected to the team database or holding notes back until it is.

The database announces every note change; a listener thread (`pdfdesk.team.notifications`) hears
it and calls back on its own thread. Those calls become queued Qt signals here, so everything that
touches widgets runs on the UI thread. A change reloads the notes of the open documents (listing
them is cheap, and knowing which document a note id belongs to would take a query of its own);
after a dropped connection comes back, notes written meanwhile are sent first, then reloaded.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QChildEvent, QEvent, QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QLabel

from pdfdesk.gui import workers
from pdfdesk.team.settings import TeamTarget, team_target

if TYPE_CHECKING:
    from pdfdesk.gui.main_window import MainWindow
    from pdfdesk.gui.review_controller import ReviewController
    from pdfdesk.review.team_store import TeamAnnotationStore

log = logging.getLogger(__name__)
RELOAD_DELAY_MS = 50  # a burst of changes (a multi-page highlight) becomes one reload
COUNT_DELAY_MS = 300  # after a write: how many notes still wait to be sent
SECOND_LOOK_MS = 4_000  # after a reconnect (longer than the store's pause after a failed contact)


def where_text(target: TeamTarget) -> str:
    """user@host/dbname for the status bar (no password; a local socket shows as localhost)."""
    from psycopg.conninfo import conninfo_to_dict

    from pdfdesk.team.connection import where_of

    try:
        where = where_of(dict(conninfo_to_dict(target.conninfo)))
    except Exception:  # a malformed string: the listener reports why it cannot connect
        return "the team database"
    host = "localhost" if where.host.startswith("/") else where.host
    return f"{where.user}@{host}/{where.dbname}"


def status_text(where: str, online: bool | None, pending: int) -> str:
    waiting = f"{pending} note{'s' if pending != 1 else ''} waiting to be sent"
    if online is None:
        return f"Team: connecting to {where}…"
    if not online:
        return f"Team: offline — {waiting}" if pending else f"Team: offline, cannot reach {where}"
    return f"Team: {where}" + (f" — {waiting}" if pending else "")


def _team_store() -> TeamAnnotationStore | None:
    """This process's team notes store (None when the configuration went local meanwhile)."""
    from pdfdesk.review.store import open_store
    from pdfdesk.review.team_store import TeamAnnotationStore

    store = open_store()
    return store if isinstance(store, TeamAnnotationStore) else None


def pending_notes() -> int:
    """Worker: how many notes this computer holds back until the team database answers."""
    store = _team_store()
    return store.pending() if store is not None else 0


def flush_notes() -> int:
    """Worker: send the notes held back (the store does it in order, each once)."""
    store = _team_store()
    return store.flush() if store is not None else 0


class TeamLive(QObject):
    """The window's team status label and note listener; idle in local mode. Saving Settings with
    another team database (or none) switches over without a restart."""

    # each carries the listener's generation, so a signal an old listener queued is ignored
    noteChanged = Signal(int, str, int)
    stateChanged = Signal(int, bool, str)
    reconnected = Signal(int)

    def __init__(self, window: MainWindow, controller: ReviewController) -> None:
        super().__init__(window)
        self.window = window
        self.controller = controller
        self.target: TeamTarget | None = None
        self.where = ""
        self.online: bool | None = None
        self.pending = 0
        self.detail = ""
        self.listener: Any = None
        self._generation = 0
        self.label = QLabel(window)
        self.label.setObjectName("teamStatus")
        self.label.hide()
        window.statusBar().addPermanentWidget(self.label)
        self._reload_timer = self._timer(RELOAD_DELAY_MS, self.reload_open_documents)
        self._count_timer = self._timer(COUNT_DELAY_MS, self.count_pending)
        self.noteChanged.connect(self._changed)
        self.stateChanged.connect(self._state)
        self.reconnected.connect(self._reconnected)
        controller.itemsChanged.connect(lambda: self._count_timer.start() if self.active else None)
        window.installEventFilter(self)
        self.reconfigure()

    def _timer(self, msecs: int, slot: Any) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(msecs)
        timer.timeout.connect(slot)
        return timer

    @property
    def active(self) -> bool:
        return self.target is not None

    def reconfigure(self) -> None:
        """Follow the team database in force now: start, switch or stop listening."""
        target = team_target()
        if target == self.target:
            return
        self.stop()
        self.target, self.online, self.pending, self.detail = target, None, 0, ""
        self.label.setVisible(target is not None)
        if target is not None:
            self.where = where_text(target)
            self._show()
            self.start()
            self.count_pending()
        self.reload_open_documents()  # the notes of the store now in force

    # -- the listener (its callbacks run on its own thread) ----------------------------------
    def start(self) -> None:
        from pdfdesk.team.notifications import NoteListener

        self._generation += 1
        generation = self._generation

        def current() -> bool:
            return shiboken6.isValid(self) and self._generation == generation

        def heard_change(note_id: str, matter: int) -> None:
            if current():
                self.noteChanged.emit(generation, str(note_id), int(matter))

        def heard_state(online: bool, detail: str) -> None:
            if current():
                self.stateChanged.emit(generation, bool(online), str(detail or ""))

        def heard_reconnect() -> None:
            if current():
                self.reconnected.emit(generation)

        def heard_access() -> None:  # a matter granted or taken away: other notes to show
            if current():
                self.noteChanged.emit(generation, "", 0)

        self.listener = NoteListener(on_change=heard_change, on_state=heard_state, on_reconnect=heard_reconnect,
                                     target=self.target, on_access=heard_access)
        self.listener.start()

    def stop(self) -> None:
        self._generation += 1
        listener, self.listener = self.listener, None
        if listener is not None:
            listener.stop()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window:
            if event.type() == QEvent.Type.Close:
                self.stop()
            elif event.type() == QEvent.Type.ChildPolished and isinstance(event, QChildEvent):
                self._watch_settings(event.child())
        return False

    def _watch_settings(self, child: QObject) -> None:
        """A Settings dialog the window opened: after it saved, follow its Team page."""
        from pdfdesk.gui.settings_dialog import SettingsDialog

        if isinstance(child, SettingsDialog) and not child.property("teamWatched"):
            child.setProperty("teamWatched", True)
            child.saved.connect(lambda _config: self.reconfigure())

    # -- on the UI thread --------------------------------------------------------------------
    @Slot(int, str, int)
    def _changed(self, generation: int, _note_id: str, _matter: int) -> None:
        if generation == self._generation:
            self._reload_timer.start()

    @Slot(int, bool, str)
    def _state(self, generation: int, online: bool, detail: str) -> None:
        if generation != self._generation:
            return
        self.online, self.detail = online, detail
        self._show()
        self.count_pending()

    @Slot(int)
    def _reconnected(self, generation: int) -> None:
        """Send what waited, then show what the others wrote meanwhile."""
        if generation != self._generation:
            return
        self.online = True
        self._show()

        def sent(count: int) -> None:
            if count:
                self.window.statusBar().showMessage(
                    f"Sent {count} note{'s' if count != 1 else ''} that waited for the team database.", 8000)
            self.reload_open_documents()
            self.count_pending()
            # a tool worker that failed to reach the server moments ago reads its local copy for a
            # few seconds more: look once again after that, for what the others wrote meanwhile
            QTimer.singleShot(SECOND_LOOK_MS, self, self.reload_open_documents)

        workers.submit(flush_notes, owner=self, on_done=sent, on_error=self._flush_failed)

    def _flush_failed(self, details: Any) -> None:
        log.info("sending the waiting notes failed: %s", details.get("message"))
        self.reload_open_documents()
        self.count_pending()

    def reload_open_documents(self) -> None:
        """List the notes of every open document again (each in a worker)."""
        self.controller.reload_all()

    def count_pending(self) -> None:
        if self.active:
            workers.submit(pending_notes, owner=self, on_done=self._counted, on_error=lambda _d: None)

    def _counted(self, count: int) -> None:
        self.pending = count
        self._show()

    def _show(self) -> None:
        if not self.active:
            return
        self.label.setText(status_text(self.where, self.online, self.pending))
        self.label.setToolTip(self.detail or f"Notes are shared through the team database {self.where}.")
