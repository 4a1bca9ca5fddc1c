"""File → Save Searchable Copy…: write the current document with an invisible text layer over its
scanned pages, so other PDF readers find, select and copy the words too.

A save dialog asks where (the default sits next to the document); the work (recognising pages
not read yet, then writing) runs in the shell's worker pool, and a small window that does not
block the main one shows its progress, its result or what went wrong, with a Cancel that stops
it. The original is never written: the core refuses any output that is the document itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QCoreApplication, QObject, Qt, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QLabel, QProgressBar, QVBoxLayout, QWidget)

from pdfdesk.core.references import display_name
from pdfdesk.gui import theme, workers
from pdfdesk.gui.document_tab import OPEN
from pdfdesk.gui.new_action import new_action
from pdfdesk.gui.richtext import esc
from pdfdesk.gui.workers import Job, describe_failure

if TYPE_CHECKING:
    from pdfdesk.gui.main_window import MainWindow
    from pdfdesk.index.searchable_copy import CopyReport

STAGE_TEXT = {"reading": "Reading pages", "recognising": "Recognising scanned pages", "writing": "Laying the text"}
MESSAGE_MS = 6000


def default_copy_path(reference: str) -> str:
    """`<folder of the document>/<name>-searchable.pdf` for a local file, else in the home folder."""
    from pdfdesk.index.searchable_copy import default_output

    folder = Path(reference).parent if os.path.isabs(reference) and Path(reference).parent.is_dir() else Path.home()
    return str(default_output(folder / display_name(reference)))


COPY_MEMORY_MB = 4096  # the child's address space (Tesseract's processes have caps of their own)


def write_copy(reference: str, output: str, password: str | None, overwrite: bool, job: Job,
               progress: Any) -> CopyReport | None:
    """Worker: the copy, made in a child process (MuPDF holds the interpreter while it renders a
    scan, a tenth of a second a page, which in this process would stall the window), reporting
    (stage, done, total); a cancel kills the child and removes any half-written copy. None when
    cancelled."""
    from pdfdesk.core import childproc
    from pdfdesk.index.searchable_copy import copy_in_child

    try:
        return childproc.run_job(copy_in_child, (reference, output, password, overwrite),
                                 name="pdfdesk-searchable-copy", priority=childproc.Priority.BACKGROUND,
                                 deadline_s=None, memory_mb=COPY_MEMORY_MB, cancel=job.cancel_event,
                                 on_message=lambda step: progress(tuple(step)))
    except childproc.JobCancelled:
        target = Path(output)
        for left in target.parent.glob(f".{target.name}.*.tmp"):  # the copy's own temporary name
            left.unlink(missing_ok=True)
        return None


class CopyDialog(QDialog):
    """Progress of one copy, then its summary or its error, in place; Cancel stops the work."""

    written = Signal(str)   # the copy's path
    failed = Signal(dict)   # the error's details

    def __init__(self, name: str, output: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("searchableCopyDialog")
        self.setWindowTitle(f"Searchable copy of {name}")
        self.output = output
        self.job: Job | None = None
        layout = QVBoxLayout(self)
        self.target = QLabel(f"Writing {output}", self)
        self.target.setWordWrap(True)
        self.target.setTextFormat(Qt.TextFormat.PlainText)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 0)
        self.status = QLabel("Starting…", self)
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.open_button = self.buttons.addButton("Open copy", QDialogButtonBox.ButtonRole.ActionRole)
        self.open_button.hide()
        self.open_button.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(self.output)))
        self.buttons.rejected.connect(self.reject)
        for widget in (self.target, self.bar, self.status, self.buttons):
            layout.addWidget(widget)
        self.resize(520, 170)

    def progressed(self, step: tuple[str, int, int]) -> None:
        stage, done, total = step
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)
        self.status.setText(esc(f"{STAGE_TEXT.get(stage, stage)}: {done:,} of {total:,} pages"))

    def done_with(self, report: CopyReport | None) -> None:
        if report is None:  # cancelled
            return
        self._finished()
        self.status.setText(esc(report.summary()).replace("\n", "<br>"))
        if report.output:
            self.open_button.show()
            self.written.emit(report.output)

    def show_error(self, details: Mapping[str, Any]) -> None:
        self._finished()
        colour = theme.colors()["error"]
        self.status.setText(f'<span style="color:{colour}">{esc(describe_failure(details))}</span>')
        self.failed.emit(dict(details))

    def _finished(self) -> None:
        self.bar.hide()
        self.buttons.setStandardButtons(QDialogButtonBox.StandardButton.Close)
        self.job = None

    def reject(self) -> None:
        """Cancel (or Close, or Esc): a copy still being made stops and writes nothing."""
        if self.job is not None:
            self.job.cancel()
            self.job = None
        super().reject()


class SearchableCopy(QObject):
    """The action and the copies it starts; one per window (`searchable_copy_of(window)`)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("searchableCopy")
        self.window = window
        self.action: QAction = new_action(window, "Save Searchable Cop&y…", None,
                                          "Write a copy whose scanned pages other PDF readers can search")
        self.action.setObjectName("saveSearchableCopyAction")
        self.action.triggered.connect(lambda _checked=False: self.choose_output())
        window.addAction(self.action)
        self.file_dialog: QFileDialog | None = None
        self.dialog: CopyDialog | None = None
        self.jobs: list[Job] = []
        app = QCoreApplication.instance()
        if app is not None:  # a copy still being made stops (leaving no file) rather than holding up the exit
            app.aboutToQuit.connect(partial(_cancel_all, self.jobs))  # not self: the window may be gone by then
        window.tabs.currentChanged.connect(lambda _index: self.update_enabled())
        window.documentOpened.connect(lambda _reference: self.update_enabled())
        self.update_enabled()

    def _open_tab(self) -> Any:
        tab = self.window.current_tab()
        return tab if tab is not None and tab.state == OPEN else None

    def update_enabled(self) -> None:
        self.action.setEnabled(self._open_tab() is not None)

    def choose_output(self) -> QFileDialog | None:
        """Ask where to save (a save dialog that does not block the window)."""
        tab = self._open_tab()
        if tab is None:
            self.window.statusBar().showMessage("Open a document to save a searchable copy of it.", MESSAGE_MS)
            return None
        dialog = QFileDialog(self.window, "Save searchable copy", default_copy_path(tab.reference), "PDF files (*.pdf)")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("pdf")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # the save dialog asks before a chosen file is replaced
        dialog.fileSelected.connect(lambda path: self.start(path, overwrite=True))
        self.file_dialog = dialog
        dialog.open()
        return dialog

    def start(self, output: str, overwrite: bool = False) -> CopyDialog | None:
        """Write the current document's copy to `output` off the UI thread, showing its progress."""
        tab = self._open_tab()
        if tab is None:
            return None
        dialog = CopyDialog(tab.name, output, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.written.connect(lambda path: self.window.statusBar().showMessage(
            f"Searchable copy written to {path}", MESSAGE_MS))
        dialog.job = workers.submit(write_copy, tab.reference, output, tab.password, overwrite, with_job=True,
                                    owner=dialog, on_progress=dialog.progressed, on_done=dialog.done_with,
                                    on_error=dialog.show_error)
        self.jobs[:] = [job for job in self.jobs if not job.finished] + [dialog.job]
        dialog.show()
        self.dialog = dialog
        return dialog


def _cancel_all(jobs: list[Job]) -> None:
    for job in jobs:
        job.cancel()


def searchable_copy_of(window: QObject) -> SearchableCopy:
    """The window's Save Searchable Copy command."""
    return cast(SearchableCopy, window.findChild(SearchableCopy, "searchableCopy"))
