"""The Settings row that downloads an embedding model: a button, a progress bar, and the outcome
in words in place.

Downloading is the one moment pdfdesk fetches a model, and only because the user pressed this
button; it runs on a worker thread so the dialog stays responsive, and pressing the button again
cancels it. Nothing is half-written: the files appear in the models folder only when complete.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from pdfdesk.core.config import BUILTIN_EMBEDDING_MODEL as BUNDLED_NAME
from pdfdesk.gui import theme, workers
from pdfdesk.tools.details import ErrorDetails

DOWNLOAD, CANCEL = "Download model…", "Cancel download"


def _download(name: str, job: workers.Job, progress: Callable[[Any], None]) -> Path:
    """Worker: fetch the model, reporting (done, total) bytes."""
    from pdfdesk.index.embedding import reset_model
    from pdfdesk.index.model_fetch import fetch_model

    folder = fetch_model(name, lambda done, total: progress((done, total)), job.cancel_event.is_set)
    reset_model()  # a search that failed for want of this model may use it now
    return folder


class ModelDownloadRow(QWidget):
    """`name()` gives the model to fetch; emits `downloaded(folder)` when it is on disk."""

    downloaded = Signal(object)

    def __init__(self, name: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._name = name
        self._job: workers.Job | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.button = QPushButton(DOWNLOAD, self)
        self.button.setObjectName("modelDownload")
        self.button.clicked.connect(self._clicked)
        self.progress = QProgressBar(self)
        self.progress.setVisible(False)
        row.addWidget(self.button)
        row.addWidget(self.progress, 1)
        layout.addLayout(row)
        self.status = QLabel(self)
        self.status.setObjectName("modelDownloadStatus")
        self.status.setWordWrap(True)
        self.status.setVisible(False)
        layout.addWidget(self.status)

    def _clicked(self) -> None:
        if self._job is not None:
            self.cancel()
            self._say("Download cancelled.", error=False)
            return
        name = self._name().strip()
        if not name or name == BUNDLED_NAME:
            self._say(f"{BUNDLED_NAME} is built in: there is nothing to download. Type the name of another "
                      "model (e.g. minishlab/potion-multilingual-128M) first.", error=False)
            return
        self.button.setText(CANCEL)
        self.progress.setRange(0, 0)  # busy until the first bytes tell the size
        self.progress.setVisible(True)
        self._say(f"Downloading {name}…", error=False)
        self._job = workers.submit(_download, name, owner=self, with_job=True, on_progress=self._progressed,
                                   on_done=self._done, on_error=self._failed)

    def cancel(self) -> None:
        """Stop a running download (the dialog closing does this too)."""
        if self._job is not None:
            self._job.cancel()
        self._finish()

    def _progressed(self, value: tuple[int, int]) -> None:
        done, total = value
        if total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * done / total))
            self.progress.setFormat(f"{done / 1e6:.1f} of {total / 1e6:.1f} MB")

    def _done(self, folder: Path) -> None:
        self._finish()
        self._say(f"Downloaded to {folder}. Save to use it.", error=False)
        self.downloaded.emit(folder)

    def _failed(self, details: ErrorDetails) -> None:
        self._finish()
        self._say(" ".join(filter(None, (details.get("message"), details.get("hint")))) or "The download failed.",
                  error=True)

    def _finish(self) -> None:
        self._job = None
        self.button.setText(DOWNLOAD)
        self.progress.setVisible(False)

    def _say(self, text: str, error: bool) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {theme.colors()['error' if error else 'muted']};")
        self.status.setVisible(True)
