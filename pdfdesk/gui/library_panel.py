"""The library panel: the documents of `pdfdesk.index.library.Library`, their index state, and the queue.

Adding files or folders queues them with the indexing owner (restart-safe: the queue lives in the
app data folder), and a worker job follows their progress. The list is re-read from the library
file in a worker, so another process (the MCP server) indexing the same library shows up too.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView, QFileDialog, QLabel, QProgressBar, QPushButton, QTreeWidget,
    QTreeWidgetItem, QVBoxLayout, QWidget,
)

from pdfdesk.gui import workers
from pdfdesk.gui.flow_layout import FlowLayout
from pdfdesk.tools.details import ErrorDetails

REFRESH_MS = 1000
STATUS_TEXT = {"queued": "⏳ queued", "indexing": "⟳ indexing", "indexed": "✓ indexed", "failed": "✗ failed"}
PATH_ROLE = Qt.ItemDataRole.UserRole + 1
Progress = Callable[[Any], None]


def _library() -> Any:
    from pdfdesk.index.library import Library

    return Library()


def list_entries() -> list[Any]:
    """Worker: the library's entries, newest first."""
    return sorted(_library().entries(), key=lambda e: e.added, reverse=True)


def add_to_library(items: list[str]) -> int:
    """Worker: add files/folders (folders walked); returns how many documents were added or kept."""
    return len(_library().add(items))


def remove_from_library(paths: list[str]) -> None:
    library = _library()
    for path in paths:
        library.remove(path)


def reindex(paths: list[str]) -> None:
    """Worker: drop the documents' indices and queue them again."""
    from pdfdesk.index.store import DocumentIndex

    library = _library()
    known = {entry.path: entry for entry in library.entries()}
    for path in paths:
        entry = known.get(path)
        if entry is not None and entry.fingerprint:
            DocumentIndex(entry.fingerprint).delete()
        library.remove(path)
    library.add(paths)


FOLLOW_S = 0.3


def process_queue(job: workers.Job, progress: Progress) -> int:
    """Worker: hand queued documents to the indexing owner (which builds them in child processes)
    and follow them until all are done or the job is cancelled; returns files handed over."""
    from pdfdesk.index.owner import default_owner
    from pdfdesk.index.store import DocumentIndex

    owner = default_owner()
    library = _library()
    handed = library.register(owner.queue)
    owner.start()
    waiting = {entry.fingerprint: entry.name for entry in handed if entry.fingerprint}
    while waiting and not job.cancel_event.is_set():
        for fingerprint, name in list(waiting.items()):
            state = DocumentIndex(fingerprint).read_state()
            job_left = owner.queue.get(fingerprint)
            if (state is not None and state.complete) or job_left is None or job_left.failed:
                waiting.pop(fingerprint)
            elif state is not None:
                progress((name, state.pages_indexed, state.pages_total))
        job.cancel_event.wait(FOLLOW_S)
    library.settle(owner.queue)
    if not job.cancel_event.is_set():
        from pdfdesk.index.library import sync_in_child

        sync_in_child(cancel=job.cancel_event)
    return len(handed)


class LibraryPanel(QWidget):
    documentActivated = Signal(str)
    refreshed = Signal(int)  # number of entries shown

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("libraryPanel")
        self._job: workers.Job | None = None
        self._again = False
        self._refreshing = False
        self._build()
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        self.refresh()

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        buttons = FlowLayout()
        self.add_files_button = QPushButton("Add files…", self)
        self.add_files_button.clicked.connect(self._choose_files)
        self.add_folder_button = QPushButton("Add folder…", self)
        self.add_folder_button.clicked.connect(self._choose_folder)
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.clicked.connect(self.remove_selected)
        self.reindex_button = QPushButton("Reindex", self)
        self.reindex_button.setToolTip("Rebuild the search index of the selected documents")
        self.reindex_button.clicked.connect(self.reindex_selected)
        for button in (self.add_files_button, self.add_folder_button, self.remove_button, self.reindex_button):
            buttons.addWidget(button)
        layout.addLayout(buttons)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("libraryProgress")
        self.progress.setMaximumHeight(16)
        self.progress.hide()
        layout.addWidget(self.progress)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("libraryTree")
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["Document", "Index", "Pages", "Folder"])
        self.tree.setRootIsDecorated(False)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.itemActivated.connect(lambda item, _col: self.documentActivated.emit(item.data(0, PATH_ROLE)))
        self.tree.itemDoubleClicked.connect(lambda item, _col: self.documentActivated.emit(item.data(0, PATH_ROLE)))
        layout.addWidget(self.tree, 1)
        self.empty = QLabel("The library is empty. Add PDFs or folders to index them for library-wide search.", self)
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)

    # -- listing -----------------------------------------------------------------------------
    def refresh(self) -> None:
        if self._refreshing:
            return
        self._refreshing = True
        workers.submit(list_entries, owner=self, on_done=self._show, on_error=self._refresh_failed)

    def _refresh_failed(self, details: ErrorDetails) -> None:
        self._refreshing = False
        self.empty.setText(f"The library could not be read: {details['message']}")
        self.empty.show()

    def _show(self, entries: list[Any]) -> None:
        """Update rows in place (a large library refreshes every second while indexing)."""
        self._refreshing = False
        rows = {self.tree.topLevelItem(i).data(0, PATH_ROLE): self.tree.topLevelItem(i)
                for i in range(self.tree.topLevelItemCount())}
        wanted = {entry.path for entry in entries}
        for path, item in rows.items():
            if path not in wanted:
                self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(item))
        for position, entry in enumerate(entries):
            item = rows.get(entry.path)
            if item is None:
                item = QTreeWidgetItem()
                item.setData(0, PATH_ROLE, entry.path)
                item.setToolTip(0, entry.path)
                item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.tree.insertTopLevelItem(position, item)
            texts = (entry.name, STATUS_TEXT.get(entry.status, entry.status), str(entry.pages or ""),
                     str(Path(entry.path).parent))
            for column, text in enumerate(texts):
                if item.text(column) != text:
                    item.setText(column, text)
            item.setToolTip(1, entry.error or "")
        if len(rows) != len(entries) or not rows:
            for column in range(3):
                self.tree.resizeColumnToContents(column)
        self.empty.setVisible(not entries)
        if not self.processing and not any(e.status in ("queued", "indexing") for e in entries):
            self._timer.stop()
        self.refreshed.emit(len(entries))

    def entries_shown(self) -> list[tuple[str, str]]:
        """(path, status text) of each row: what a user sees (tests)."""
        return [(self.tree.topLevelItem(i).data(0, PATH_ROLE), self.tree.topLevelItem(i).text(1))
                for i in range(self.tree.topLevelItemCount())]

    def selected_paths(self) -> list[str]:
        return [item.data(0, PATH_ROLE) for item in self.tree.selectedItems()]

    # -- changes -----------------------------------------------------------------------------
    def _choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Add PDFs to the library", "", "PDF files (*.pdf);;All files (*)")
        if files:
            self.add(files)

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder of PDFs to the library")
        if folder:
            self.add([folder])

    def add(self, items: list[str]) -> None:
        """Add files or folders and index them in the background."""
        workers.submit(add_to_library, list(items), owner=self, on_done=lambda _n: self._changed(),
                       on_error=self._refresh_failed)

    def remove_selected(self) -> None:
        paths = self.selected_paths()
        if paths:
            workers.submit(remove_from_library, paths, owner=self, on_done=lambda _r: self.refresh())

    def reindex_selected(self) -> None:
        paths = self.selected_paths()
        if paths:
            workers.submit(reindex, paths, owner=self, on_done=lambda _r: self._changed())

    def _changed(self) -> None:
        self.refresh()
        self.start_processing()

    # -- the queue ---------------------------------------------------------------------------
    @property
    def processing(self) -> bool:
        return self._job is not None and not self._job.finished

    def start_processing(self) -> None:
        if self.processing:
            self._again = True
            return
        self._again = False
        self.progress.setRange(0, 0)
        self.progress.setFormat("Indexing…")
        self.progress.show()
        self._timer.start()
        self._job = workers.submit(process_queue, owner=self, with_job=True, on_progress=self._progressed,
                                   on_done=self._processed, on_error=lambda _d: self._processed(0))

    def _progressed(self, value: tuple[str, int, int]) -> None:
        name, done, total = value
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"Indexing {name}: {done} of {total} pages")

    def _processed(self, _count: int) -> None:
        self._job = None
        self.progress.hide()
        self.refresh()
        if self._again:
            self.start_processing()

    def stop_processing(self, wait: bool = False) -> None:
        if self._job is not None:
            self._job.cancel()
            if wait:
                workers.wait_idle(5000)

    def showEvent(self, event: Any) -> None:
        """Another process (`pdfdesk mcp`, `pdfdesk index`) may have changed the library meanwhile."""
        super().showEvent(event)
        self.refresh()

    def closeEvent(self, event: Any) -> None:
        self.stop_processing()
        super().closeEvent(event)

