"""What the window shows with no document open, and its list of recent files.

The welcome page and the File > Open recent menu both list the recently opened files; choosing one
asks the window to open it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QVBoxLayout,
    QWidget,
)

from pdfdesk.core.references import display_name
from pdfdesk.gui import recent


class WelcomePage(QWidget):
    """An introduction and the recent files (double-click or Enter opens one)."""

    documentChosen = Signal(str)  # reference

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcome")
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        intro = QLabel("<h2>pdfdesk</h2><p>Drop PDFs or folders here, or press Ctrl+O to open a file.</p>", self)
        intro.setAlignment(Qt.AlignmentFlag.AlignCenter)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.recent_list = QListWidget(self)
        self.recent_list.setObjectName("welcomeRecent")
        self.recent_list.setMaximumWidth(560)
        self.recent_list.setMaximumHeight(260)
        self.recent_list.itemActivated.connect(lambda item: self.documentChosen.emit(item.toolTip()))
        self.recent_list.itemDoubleClicked.connect(lambda item: self.documentChosen.emit(item.toolTip()))
        layout.addWidget(self.recent_list, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
        self.refresh()

    def refresh(self) -> None:
        """Read the recent files again (after a tab was closed, say)."""
        self.recent_list.clear()
        for reference in recent.load_recent():
            item = QListWidgetItem(f"{Path(reference).name}    —    {Path(reference).parent}"
                                   if "://" not in reference else reference)
            item.setToolTip(reference)
            self.recent_list.addItem(item)
        self.recent_list.setVisible(self.recent_list.count() > 0)


def fill_recent_menu(menu: QMenu, open_document: Callable[[str], object]) -> None:
    """Fill `menu` with the recent files, each opening through `open_document`."""
    menu.clear()
    items = recent.load_recent()
    for reference in items:
        action = menu.addAction(display_name(reference))
        action.setToolTip(reference)
        action.setStatusTip(reference)
        action.triggered.connect(lambda _c=False, r=reference: open_document(r))
    if not items:
        menu.addAction("No recent files").setEnabled(False)
    else:
        menu.addSeparator()
        menu.addAction("Clear the list", recent.clear_recent)
