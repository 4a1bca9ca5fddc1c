"""The outline (bookmarks) of one document as a tree; clicking an entry goes to its page.

Loaded through the `pdf_outline` tool (isolated, off the UI thread), like every other tool call.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QLabel, QTreeView, QVBoxLayout, QWidget

from pdfdesk.gui import workers
from pdfdesk.gui.tool_calls import call_tool_in_worker

PAGE_ROLE = Qt.ItemDataRole.UserRole + 1


def build_model(entries: list[dict[str, Any]], model: QStandardItemModel) -> int:
    """Fill `model` from pdf_outline entries (level, title, page); returns the number of items."""
    model.clear()
    model.setHorizontalHeaderLabels(["Title", "Page"])
    parents: list[QStandardItem] = [model.invisibleRootItem()]
    for entry in entries:
        level = max(1, int(entry.get("level", 1)))
        del parents[min(level, len(parents)):]  # a jump of several levels attaches to the deepest parent
        title = QStandardItem(entry.get("title") or "(untitled)")
        page = entry.get("page")
        title.setData(page, PAGE_ROLE)
        title.setEditable(False)
        title.setToolTip(entry.get("title") or "")
        number = QStandardItem("" if page is None else str(page))
        number.setData(page, PAGE_ROLE)
        number.setEditable(False)
        number.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if page is None:
            for item in (title, number):
                item.setEnabled(False)
        parents[-1].appendRow([title, number])
        parents.append(title)
    return len(entries)


class OutlinePanel(QWidget):
    pageActivated = Signal(int)
    loaded = Signal(int)  # number of entries

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.model = QStandardItemModel(self)
        self.tree = QTreeView(self)
        self.tree.setObjectName("outlineTree")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setHeaderHidden(True)
        self.tree.clicked.connect(self._activate)
        self.tree.activated.connect(self._activate)
        self.placeholder = QLabel("Loading the outline…", self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        layout.addWidget(self.placeholder)
        layout.addWidget(self.tree, 1)
        self.tree.hide()

    def load(self, reference: str, password: str | None = None) -> None:
        args = {"path": reference, **({"password": password} if password else {})}
        workers.submit(call_tool_in_worker, "pdf_outline", args, owner=self, on_done=self._show,
                       on_error=lambda d: self._message(d.get("message", "The outline could not be read.")))

    def _show(self, result: Any) -> None:
        if result.is_error:
            self._message(result.details.get("message", "The outline could not be read."))
            return
        count = build_model(result.details.get("entries", []), self.model)
        if not count:
            self._message("This document has no outline (bookmarks).")
        else:
            self.tree.header().setStretchLastSection(False)
            self.tree.header().setSectionResizeMode(0, self.tree.header().ResizeMode.Stretch)
            self.tree.header().setSectionResizeMode(1, self.tree.header().ResizeMode.ResizeToContents)
            self.tree.expandToDepth(0)
            self.placeholder.hide()
            self.tree.show()
        self.loaded.emit(count)

    def _message(self, text: str) -> None:
        self.placeholder.setText(text)
        self.placeholder.show()
        self.tree.hide()

    def _activate(self, index: QModelIndex) -> None:
        page = index.data(PAGE_ROLE)
        if page:
            self.pageActivated.emit(int(page))
