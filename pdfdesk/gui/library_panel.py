"""The library panel: the documents of `pdfdesk.index.library.Library`, their index state, and the queue.

Adding files or folders queues them with the indexing owner (restart-safe: the queue lives in the
app data folder), and a worker job follows their progress. The list is re-read from the library
file in a worker, so another process (the MCP server) indexing the same library shows up too. The
rows live in a table model (`library_model`), so a library of 100,000 documents costs the view
only the rows it paints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from pdfdesk.gui import workers
from pdfdesk.gui.flow_layout import FlowLayout
from pdfdesk.gui.library_model import (
    HEADERS,
    NAME,
    PAGES,
    PATH_ROLE,
    R_PATH,
    R_STATUS,
    STATUS,
    STATUS_TEXT,
    UNSORTED,
    LibraryModel,
    summary_text,
)
from pdfdesk.gui.progress_line import ProgressLine, page_counts
from pdfdesk.tools.details import ErrorDetails

REFRESH_MS = 1000
FILTER_DELAY_MS = 150  # typing pauses this long before a large library is filtered again
PENDING = ("queued", "indexing")
FINISHED = ("indexed", "failed")
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




def process_queue(job: workers.Job, progress: Progress) -> int:
    """Worker: put queued documents into the library index (child processes, many documents each),
    then hand them to the indexing owner for their own indices and vectors, which it builds in the
    background; returns files handed over."""
    from pdfdesk.index.library import build_library_index, hand_to_owner, sync_in_child
    from pdfdesk.index.owner import default_owner

    owner = default_owner()
    library = _library()
    handed = library.register()
    build_library_index(handed, library, progress=lambda name, done, total: progress((name, done, total)),
                        cancel=job.cancel_event)
    hand_to_owner(handed, owner.queue)
    owner.start()
    library.settle(owner.queue)
    if not job.cancel_event.is_set():
        sync_in_child(cancel=job.cancel_event)
    return len(handed)


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs of consecutive rows: few selection ranges to restore."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


class LibraryPanel(QWidget):
    documentActivated = Signal(str)
    refreshed = Signal(int)  # number of entries in the library

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("libraryPanel")
        self._job: workers.Job | None = None
        self._again = False
        self._refreshing = False
        self._kept: tuple[set[str], str | None] = (set(), None)
        self._run_paths: set[str] = set()
        self._run_done = 0
        self._last_progress: tuple[str, int, int] | None = None
        self._build()
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        self.refresh()

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self._build_buttons())
        self.progress_caption = QLabel(self)
        self.progress_caption.setObjectName("libraryProgressCaption")
        self.progress_caption.hide()
        layout.addWidget(self.progress_caption)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("libraryProgress")
        self.progress.setMaximumHeight(16)
        self.progress.hide()
        layout.addWidget(self.progress)
        self._progress_line = ProgressLine(self.progress, self.progress_caption)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("libraryFilter")
        self.filter.setPlaceholderText("Filter by name or folder")
        self.filter.setClearButtonEnabled(True)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self.apply_filter)
        self.filter.textChanged.connect(lambda _text: self._filter_timer.start())
        layout.addWidget(self.filter)
        self.summary = QLabel(self)
        self.summary.setObjectName("librarySummary")
        self.summary.setWordWrap(True)
        self.summary.hide()
        layout.addWidget(self.summary)
        self.model = LibraryModel(self)
        self.model.modelAboutToBeReset.connect(self._keep_selection)
        self.view = self._build_view()
        self.model.modelReset.connect(self._restore_selection)  # after the view's own reset, which clears it
        layout.addWidget(self.view, 1)
        self.empty = QLabel("The library is empty. Add PDFs or folders to index them for library-wide search.", self)
        self.empty.setWordWrap(True)
        layout.addWidget(self.empty)
        self._show_summary()

    def _build_buttons(self) -> FlowLayout:
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
        return buttons

    def _build_view(self) -> QTableView:
        """A flat, sortable table: one fixed row height (the view never measures 100,000 rows; a
        tree view lays out every row on each reset, 5x slower at that size), fixed widths for the
        short columns (sizing them to contents would read every row)."""
        view = QTableView(self)
        view.setObjectName("libraryTree")
        view.setModel(self.model)
        view.verticalHeader().hide()
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)
        view.setShowGrid(False)
        view.setWordWrap(False)
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        view.activated.connect(self._activated)
        header = view.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSortIndicatorClearable(True)
        metrics = view.fontMetrics()
        header.resizeSection(NAME, metrics.horizontalAdvance("x" * 22))
        header.resizeSection(STATUS, metrics.horizontalAdvance(f"{STATUS_TEXT['indexing']}  ") + 24)
        header.resizeSection(PAGES, max(metrics.horizontalAdvance("100,000"),
                                        metrics.horizontalAdvance(HEADERS[PAGES])) + 24)
        view.setSortingEnabled(True)
        header.setSortIndicator(UNSORTED, Qt.SortOrder.AscendingOrder)  # newest first until a header is clicked
        return view

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
        """Hand the listing to the model, which tells the view only what changed (a large library
        is re-read every second while indexing)."""
        self._refreshing = False
        self.model.set_entries(entries)
        self._show_summary()
        self.summary.setVisible(bool(entries))  # an empty library has the `empty` label instead
        self.empty.setVisible(not entries)
        self._count_run(entries)
        if not self.processing and not self.model.summary().queued:
            self._timer.stop()
        self.refreshed.emit(len(entries))

    def _show_summary(self) -> None:
        filtered = bool(self.model.filter_text().split())
        self.summary.setText(summary_text(self.model.summary(), self.model.rowCount() if filtered else None))

    def apply_filter(self) -> None:
        """Narrow the rows to names or folders holding every word typed (the summary keeps counting
        the whole library)."""
        self._filter_timer.stop()
        self.model.set_filter(self.filter.text())
        self._show_summary()

    def entries_shown(self) -> list[tuple[str, str]]:
        """(path, status text) of each row as displayed: filtered and sorted (tests)."""
        return [(row[R_PATH], STATUS_TEXT.get(row[R_STATUS], row[R_STATUS])) for row in self.model.rows()]

    def selected_paths(self) -> list[str]:
        """Paths of the selected rows, in display order."""
        rows: set[int] = set()
        # a QItemSelection iterates over its ranges; PySide's stubs do not declare it
        for selected in self.view.selectionModel().selection():  # type: ignore[attr-defined]
            rows.update(range(selected.top(), selected.bottom() + 1))
        return [self.model.path_at(row) for row in sorted(rows)]

    def _activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.documentActivated.emit(index.data(PATH_ROLE))

    def _keep_selection(self) -> None:
        """Before the rows are replaced: which documents were selected and current."""
        current = self.view.selectionModel().currentIndex()
        self._kept = (set(self.selected_paths()), current.data(PATH_ROLE) if current.isValid() else None)

    def _restore_selection(self) -> None:
        """After the rows are replaced: select the same documents wherever they are now."""
        selected, current = self._kept
        self._kept = (set(), None)
        if not selected and current is None:
            return
        rows = self.model.rows()
        model = self.view.selectionModel()
        if current is not None:
            row = self.model.row_of_path(current)
            if row is not None:
                model.setCurrentIndex(self.model.index(row, 0), QItemSelectionModel.SelectionFlag.NoUpdate)
        selection = QItemSelection()
        last = len(HEADERS) - 1
        for first, end in _runs([i for i, row in enumerate(rows) if row[R_PATH] in selected]):
            selection.select(self.model.index(first, 0), self.model.index(end, last))
        if not selection.isEmpty():
            model.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)

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
        self._run_paths, self._run_done, self._last_progress = set(), 0, None
        self._progress_line.busy("Indexing…", "Library index: reading the new documents…")
        self._timer.start()
        self._job = workers.submit(process_queue, owner=self, with_job=True, on_progress=self._progressed,
                                   on_done=self._processed, on_error=lambda _d: self._processed(0))

    def _count_run(self, entries: list[Any]) -> None:
        """The documents of this run: every one seen waiting since it started, and how many of
        them are finished (the progress messages count pages, the listing counts documents)."""
        if not self.processing:
            return
        self._run_paths.update(entry.path for entry in entries if entry.status in PENDING)
        if self._run_paths:
            self._run_done = sum(1 for entry in entries if entry.status in FINISHED and entry.path in self._run_paths)
        if self._last_progress is not None:
            self._show_progress()

    def _progressed(self, value: tuple[str, int, int]) -> None:
        """Pages over the whole run (every document being added), from the library index build."""
        self._last_progress = value
        self._show_progress()

    def _show_progress(self) -> None:
        assert self._last_progress is not None
        name, done, total = self._last_progress
        text = f"Library index: {done:,} of {total:,} pages"
        if self._run_paths:
            text += f" · {self._run_done:,} of {len(self._run_paths):,} documents"
        self._progress_line.report(done, total, page_counts(done, total),
                                   caption=text + ("\nlatest: {name}" if name else ""), name=name,
                                   tooltip=text + (f" · latest: {name}" if name else ""))

    def _processed(self, _count: int) -> None:
        self._job = None
        self._progress_line.hide()
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
