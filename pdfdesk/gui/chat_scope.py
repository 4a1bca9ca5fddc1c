"""The chat pane's scope selector: what the agent may read for the next question.

"Attached documents" (the chips), "This document" (the current tab's), "Open documents" (every
tab's), "Library" (every library document, with the attached ones) or one library folder. The
choice is the conversation's trust boundary (`pdfdesk.agent.scope`): the pane builds a `Scope`
from it before each question, from the tabs open at that moment, and hands it to the session.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QWidget

from pdfdesk.agent.scope import ATTACHED, DOCUMENT, FOLDER, LIBRARY, OPEN, Scope, make_scope
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.gui import workers
from pdfdesk.gui.flow_layout import FlowLayout, labelled
from pdfdesk.gui.search_runs import library_folders

CHOICES = [("Attached documents", ATTACHED), ("This document", DOCUMENT), ("Open documents", OPEN),
           ("Library", LIBRARY), ("Library folder", FOLDER)]
NAMES_ITS_DOCUMENTS = (DOCUMENT, OPEN)  # these read their own documents, not the attached ones
HINTS = {ATTACHED: "Ask about the attached documents.", DOCUMENT: "Ask about this document.",
         OPEN: "Ask about the open documents.",
         LIBRARY: "Ask about the library: what a document says, or which documents mention something.",
         FOLDER: "Ask about the library's documents under the folder."}


def empty_hint(kind: str) -> str:
    """The empty transcript's invitation for a scope."""
    return f"{HINTS.get(kind, HINTS[ATTACHED])} Answers cite pages you can click."


class ScopeSelector(QWidget):
    """A "Scope" combo (and, for a folder, the folder); `changed` when the user picks another."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatScope")
        row = FlowLayout(self, spacing=4)
        row.setContentsMargins(0, 0, 0, 0)
        self.kind = QComboBox(self)
        for label, value in CHOICES:
            self.kind.addItem(label, value)
        self.kind.setToolTip("What the agent may read: it cannot open any other file")
        self.folder = QComboBox(self)
        self.folder.setToolTip("A folder holding library documents (its subfolders included)")
        self.folder.setPlaceholderText("no library folder yet")
        self.folder_box = labelled("Folder", self.folder, self)
        self.folder_box.hide()
        row.addWidget(labelled("Scope", self.kind, self))
        row.addWidget(self.folder_box)
        self.kind.currentIndexChanged.connect(lambda _i: self._kind_changed())
        self.folder.currentIndexChanged.connect(lambda _i: self.changed.emit())

    def current_kind(self) -> str:
        return str(self.kind.currentData())

    def set_kind(self, kind: str, folder: str | None = None) -> None:
        """Choose a scope (and a folder, added to the list when the library has not been read yet)."""
        if folder:
            if self.folder.findData(folder) < 0:
                self.folder.addItem(folder, folder)
            self.folder.setCurrentIndex(self.folder.findData(folder))
        self.kind.setCurrentIndex(self.kind.findData(kind))

    def _kind_changed(self) -> None:
        wanted = self.current_kind() == FOLDER
        self.folder_box.setVisible(wanted)
        if wanted:
            workers.submit(library_folders, owner=self, on_done=self._set_folders, on_error=lambda _d: None)
        self.changed.emit()

    def _set_folders(self, folders: list[str]) -> None:
        chosen = self.folder.currentData()
        self.folder.blockSignals(True)
        self.folder.clear()
        for folder in dict.fromkeys([*folders, *([chosen] if chosen else [])]):
            self.folder.addItem(folder, folder)
        self.folder.setCurrentIndex(self.folder.findData(chosen) if chosen else 0 if self.folder.count() else -1)
        self.folder.blockSignals(False)
        self.changed.emit()

    def scope(self, current: str | None, open_documents: Sequence[str], attached: Sequence[str]) -> Scope | None:
        """The chosen scope with its documents: the current tab's, every tab's, or the attached
        ones; None (the attached documents) when the choice cannot be made yet (no folder)."""
        kind = self.current_kind()
        documents = {DOCUMENT: [current] if current else [], OPEN: list(open_documents)}.get(kind, list(attached))
        try:
            return make_scope(kind, documents, self.folder.currentData() if kind == FOLDER else None)
        except PdfDeskError:
            return None
