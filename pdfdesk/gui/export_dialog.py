"""File → Export review…: pick a format and where to save, then `pdf_export_review` writes it.

The export runs in a tool worker off the UI thread; the dialog stays open (its button disabled)
until the file is written, and shows a failure in place rather than in another dialog. The
original PDF is never written: the annotated-PDF format saves a copy.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QPushButton, QWidget)

from pdfdesk.core.references import display_name
from pdfdesk.gui import theme, workers
from pdfdesk.gui.richtext import esc
from pdfdesk.gui.tool_calls import call_tool_in_worker
from pdfdesk.gui.workers import describe_failure
from pdfdesk.tools.contract import ToolResult

# (label, tool format, file extension, file dialog filter)
FORMATS = (("Annotated PDF (a copy with the highlights)", "pdf", "pdf", "PDF files (*.pdf)"),
           ("Markdown", "markdown", "md", "Markdown (*.md)"),
           ("HTML", "html", "html", "HTML (*.html *.htm)"),
           ("JSON (W3C Web Annotation)", "json", "json", "JSON (*.json *.jsonld)"))


def default_output(reference: str, ext: str) -> str:
    """`<folder of the document>/<name>-review.<ext>` for a local file, else the home folder."""
    folder = Path(reference).parent if os.path.isabs(reference) and Path(reference).parent.is_dir() else Path.home()
    return str(folder / f"{Path(display_name(reference)).stem}-review.{ext}")


class ExportDialog(QDialog):
    """`exported(path)` once the tool wrote the file (the window says so in its status bar)."""

    exported = Signal(str)

    def __init__(self, reference: str, password: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle(f"Export review of {display_name(reference)}")
        self.reference, self.password = reference, password
        self.file_dialog: QFileDialog | None = None
        form = QFormLayout(self)
        self.format = QComboBox(self)
        for label, fmt, _ext, _filter in FORMATS:
            self.format.addItem(label, fmt)
        self.format.currentIndexChanged.connect(self._format_changed)
        form.addRow("&Format", self.format)
        row = QHBoxLayout()
        self.output = QLineEdit(default_output(reference, FORMATS[0][2]), self)
        self.output.setObjectName("exportOutput")
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self.browse)
        row.addWidget(self.output, 1)
        row.addWidget(browse)
        form.addRow("&Save as", row)
        self.overwrite = QCheckBox("&Replace the file if it exists", self)
        form.addRow(self.overwrite)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        form.addRow(self.status)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.export_button = self.buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.export_button.setDefault(True)
        self.buttons.accepted.connect(self.export)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.resize(560, 160)

    def _spec(self) -> tuple[str, str, str, str]:
        return FORMATS[max(0, self.format.currentIndex())]

    def _format_changed(self) -> None:
        """Keep the file name's extension in step with the format."""
        ext = self._spec()[2]
        text = self.output.text().strip()
        if text:
            self.output.setText(str(Path(text).with_suffix(f".{ext}")))

    def browse(self) -> None:
        dialog = QFileDialog(self, "Save the review as", self.output.text(), self._spec()[3])
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix(self._spec()[2])
        dialog.fileSelected.connect(self._chosen)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.file_dialog = dialog
        dialog.open()

    def _chosen(self, path: str) -> None:
        self.output.setText(path)
        self.overwrite.setChecked(True)  # the save dialog asked before choosing an existing file

    def export(self) -> None:
        output = self.output.text().strip()
        if not output:
            self._show_error({"message": "Choose where to save the review."})
            return
        args: dict[str, Any] = {"path": self.reference, "format": self._spec()[1], "output": output,
                                "overwrite": self.overwrite.isChecked()}
        if self.password:
            args["password"] = self.password
        self.export_button.setEnabled(False)
        self.status.setText("Exporting…")
        workers.submit(call_tool_in_worker, "pdf_export_review", args, owner=self, on_done=self._done,
                       on_error=self._show_error)

    def _done(self, result: ToolResult) -> None:
        if result.is_error:
            self._show_error(dict(result.details))
            return
        self.exported.emit(str(result.details.get("output") or self.output.text()))
        self.accept()

    def _show_error(self, details: Mapping[str, Any]) -> None:
        self.export_button.setEnabled(True)
        colour = theme.colors()["error"]
        self.status.setText(f'<span style="color:{colour}">{esc(describe_failure(details))}</span>')
