"""The window's memory between runs: the last session's tabs come back, and every document opens
where the reader left it.

At start, without files, the last session is restored (tabs in order, each at its place, the
active tab, the panels' choices); files that moved or vanished are skipped with a note in the
status bar. With files, those open instead, as document viewers do when handed a file. While the
window runs, each document's place is written when its tab closes, when the window quits, and
after the reader stops moving for `SAVE_DELAY_MS` (in a worker, so a crash or a kill loses little
and scrolling or closing a tab never waits for the disk). Positions are keyed by content fingerprint once the index
monitor has hashed the file, by path until then (see `pdfdesk.core.positions`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QComboBox, QLabel

from pdfdesk.core import positions
from pdfdesk.core.positions import Remembered
from pdfdesk.core.references import display_name, is_url
from pdfdesk.gui import workers
from pdfdesk.gui.document_tab import OPEN, DocumentTab
from pdfdesk.gui.session_store import Session, SessionTab, SessionWriter, load_session

if TYPE_CHECKING:
    from pdfdesk.gui.main_window import MainWindow

SAVE_DELAY_MS = 1500
NOTE_SHOWN_MS = 60_000
NAMES_IN_NOTE = 3
SEARCH_CHOICES = ("mode", "granularity", "scope")  # the search panel's combo boxes kept between runs


def missing_documents(references: Sequence[str]) -> list[str]:
    """The local files among `references` that are no longer there (URLs are tried when opened)."""
    return [ref for ref in references if not is_url(ref) and not os.path.isfile(ref)]


def missing_note(missing: Sequence[str]) -> str:
    names = ", ".join(display_name(ref) for ref in missing[:NAMES_IN_NOTE])
    more = f" and {len(missing) - NAMES_IN_NOTE} more" if len(missing) > NAMES_IN_NOTE else ""
    count = "1 document" if len(missing) == 1 else f"{len(missing)} documents"
    return f"{count} from the last session could not be found: {names}{more}"


class WindowSession(QObject):
    """Restores the last session into a MainWindow and keeps the session and positions written."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.started = False  # the start-up decision is made: from now on the session is written
        self.finished = False  # the window closed: what its emptied views say is not the session
        self._fingerprints: dict[str, str] = {}
        self._dirty: set[DocumentTab] = set()
        # places of tabs closed in this run: written in a worker (an fsync must not hold the UI
        # thread), read from here when the document is opened again, and written again at quit
        self._closed: dict[str, Remembered] = {}
        self._writer = SessionWriter()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SAVE_DELAY_MS)
        self._timer.timeout.connect(lambda: self.save(wait=False))
        self.note = QLabel(window)
        self.note.setObjectName("sessionNote")
        self.note.hide()
        window.statusBar().addWidget(self.note, 1)  # stays while transient messages come and go
        window.index_monitor.fingerprintKnown.connect(self._fingerprint_known)
        window.tabs.currentChanged.connect(lambda _i: self.schedule())
        window.tabs.tabBar().tabMoved.connect(lambda _a, _b: self.schedule())

    # -- start -------------------------------------------------------------------------------
    def start(self, files: Sequence[str], first_start: Sequence[str]) -> None:
        """Open `files`; without any, the last session, or `first_start` when there is none."""
        if files:
            self.window.open_paths(list(files))
        else:
            session = load_session()
            if session is None:
                self.window.open_paths(list(first_start))
            else:
                self.restore(session)
        self.started = True

    def restore(self, session: Session) -> None:
        """Open the session's tabs that are still there, each at its place, and say which are not."""
        missing = set(missing_documents([tab.reference for tab in session.tabs]))
        opened: list[tuple[int, DocumentTab]] = []
        for index, saved in enumerate(session.tabs):
            if saved.reference in missing:
                continue
            tab = self.window.open_document(saved.reference, activate=False)
            if saved.position is not None and not tab.place_given:
                tab.start_at(saved.position)
            opened.append((index, tab))
        if opened:  # the active tab, or the nearest one still there
            self.window.tabs.setCurrentWidget(min(opened, key=lambda item: abs(item[0] - session.active))[1])
        self.apply_panels(session.panels)
        if missing:
            self.show_note(missing_note([tab.reference for tab in session.tabs if tab.reference in missing]),
                           "\n".join(sorted(missing)))

    def show_note(self, text: str, details: str = "") -> None:
        self.note.setText(text)
        self.note.setToolTip(details)
        self.note.show()
        QTimer.singleShot(NOTE_SHOWN_MS, self.note, self.note.hide)

    # -- panels ------------------------------------------------------------------------------
    def panels(self) -> dict[str, Any]:
        window = self.window
        search = {name: getattr(window.search_panel, name).currentData() for name in SEARCH_CHOICES
                  if isinstance(getattr(window.search_panel, name, None), QComboBox)}
        return {"side_tab": window.side_tabs.currentIndex(), "search": search}

    def apply_panels(self, panels: dict[str, Any]) -> None:
        side = panels.get("side_tab")
        if isinstance(side, int) and not isinstance(side, bool) and 0 <= side < self.window.side_tabs.count():
            self.window.side_tabs.setCurrentIndex(side)
        search = panels.get("search")
        for name, value in (search.items() if isinstance(search, dict) else ()):
            combo = getattr(self.window.search_panel, name, None) if name in SEARCH_CHOICES else None
            if isinstance(combo, QComboBox) and isinstance(value, str):
                index = combo.findData(value)
                if index >= 0:
                    combo.setCurrentIndex(index)

    # -- tabs --------------------------------------------------------------------------------
    def watch(self, tab: DocumentTab) -> None:
        """Follow a new tab: open it where it was left, and note when the reader moves in it."""
        tab.documentOpened.connect(lambda _n, tab=tab: self._opened(tab))
        view: Any = tab.view
        signals = [view.currentPageChanged, view.zoomChanged]
        if hasattr(view, "verticalScrollBar"):
            signals.append(view.verticalScrollBar().valueChanged)
        for signal in signals:
            signal.connect(lambda *_args, tab=tab: self._moved(tab))
        self.schedule()

    def closing(self, tab: DocumentTab) -> None:
        """`tab` is about to close: its place is kept for reopening it and written in a worker."""
        self._dirty.discard(tab)
        item = self._remembered(tab, time.time())
        if item is not None:
            self._closed[tab.reference] = item
            workers.submit(positions.remember, [item], owner=None, on_error=lambda _d: None)
        self.schedule()

    def _opened(self, tab: DocumentTab) -> None:
        if tab.place_given:
            return
        closed = self._closed.get(tab.reference)
        found = closed.position if closed else positions.recall(tab.reference, self._fingerprints.get(tab.reference))
        if found is not None:
            tab.start_at(found)

    def _moved(self, tab: DocumentTab) -> None:
        if tab.state == OPEN:
            self._dirty.add(tab)
            self.schedule()

    def _fingerprint_known(self, reference: str, fingerprint: str) -> None:
        """A file was hashed: its place may be known by content (a moved file), and from now on
        it is stored under the fingerprint."""
        self._fingerprints[reference] = fingerprint
        tab = self.window.find_tab(reference)
        if tab is not None and tab.state == OPEN and not tab.place_given and not tab.moved_since_open():
            found = positions.recall(reference, fingerprint)
            if found is not None:
                tab.start_at(found)
        workers.submit(positions.adopt, reference, fingerprint, owner=None, on_error=lambda _d: None)

    # -- saving ------------------------------------------------------------------------------
    def schedule(self) -> None:
        if not self.finished:
            self._timer.start()

    def _remembered(self, tab: DocumentTab, at: float) -> Remembered | None:
        place = tab.position()
        if place is None:
            return None
        return Remembered(tab.reference, self._fingerprints.get(tab.reference), place, at)

    def snapshot(self) -> Session:
        tabs = self.window.document_tabs()
        current = self.window.current_tab()
        active = tabs.index(current) if current in tabs else 0
        return Session([SessionTab(tab.reference, tab.position()) for tab in tabs], active, self.panels())

    def save(self, wait: bool = True) -> None:
        """Write the moved documents' places and the session (`wait`: here and now, else in a worker)."""
        self._timer.stop()
        now = time.time()
        items = [item for item in (self._remembered(tab, now) for tab in self._dirty if tab.state == OPEN) if item]
        self._dirty.clear()
        if wait:  # the closed tabs' places too, in case their worker has not run (newer entries win)
            items += self._closed.values()
        session, ticket = (self.snapshot(), self._writer.take()) if self.started else (None, 0)

        def write() -> None:
            positions.remember(items)
            if session is not None:
                self._writer.write(session, ticket)

        if wait:
            write()
        else:
            workers.submit(write, owner=None, on_error=lambda _d: None)

    def quit(self) -> None:
        """The window closes: everything is written before the documents go."""
        if self.finished:
            return
        self._dirty.update(tab for tab in self.window.document_tabs() if tab.state == OPEN)
        self.save(wait=True)
        self.finished = True
