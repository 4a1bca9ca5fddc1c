"""The window's last session on disk: its tabs in order, each with its place, the active tab and
the panels' choices (the window's size and dock layout are Qt's own state, in window.ini).

A plain JSON file in the app data folder, so it follows `PDFDESK_HOME` like every other piece of
state and deleting it starts clean. No password is ever written: an encrypted document comes back
as a tab asking for it. A damaged, unreadable or odd file (a FIFO, a folder) reads as "no
session", which starts like a first start.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdfdesk.core import paths
from pdfdesk.core.positions import DocumentPosition
from pdfdesk.core.state_file import read_state, write_state

SESSION_FILE = "session.json"
MAX_SESSION_TABS = 100


@dataclass(frozen=True)
class SessionTab:
    reference: str
    position: DocumentPosition | None = None


@dataclass
class Session:
    tabs: list[SessionTab] = field(default_factory=list)
    active: int = 0  # index into `tabs`
    panels: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"version": 1, "active": self.active, "panels": self.panels,
                "tabs": [{"reference": tab.reference,
                          "position": tab.position.to_json() if tab.position else None} for tab in self.tabs]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Session:
        """What can be used of `data`: malformed tabs are dropped, the rest kept."""
        tabs = []
        raw_tabs = data.get("tabs")
        for raw in raw_tabs if isinstance(raw_tabs, list) else []:
            reference = raw.get("reference") if isinstance(raw, dict) else None
            if isinstance(reference, str) and reference and "\0" not in reference:
                tabs.append(SessionTab(reference, DocumentPosition.from_json(raw.get("position"))))
        tabs = tabs[:MAX_SESSION_TABS]
        active = data.get("active")
        active = active if isinstance(active, int) and not isinstance(active, bool) and 0 <= active < len(tabs) else 0
        panels = data.get("panels")
        return cls(tabs, active, panels if isinstance(panels, dict) else {})


def session_file() -> Path:
    return paths.app_data_dir() / SESSION_FILE


def load_session() -> Session | None:
    """The last session, or None when there is none to restore (first start, damaged file)."""
    data = read_state(session_file())
    return Session.from_json(data) if data is not None else None


def save_session(session: Session) -> bool:
    """Write `session`; False when the disk refused (the next start then opens as before)."""
    return write_state(session_file(), session.to_json())


class SessionWriter:
    """Writes sessions in the order they were taken, whichever thread gets to the disk first: a
    save queued to a worker just before the window quit must not land over the quit's own."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._taken = 0
        self._written = 0

    def take(self) -> int:
        """A ticket for the session being taken now (on the UI thread)."""
        self._taken += 1
        return self._taken

    def write(self, session: Session, ticket: int) -> bool:
        """Write `session` unless a later one was written already; False when it was not written."""
        with self._lock:
            if ticket <= self._written:
                return False
            self._written = ticket
            return save_session(session)
