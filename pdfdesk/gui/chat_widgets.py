"""The chat pane's small widgets: the question box and an attached document's chip."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QToolButton, QWidget

from pdfdesk.core.fence import neutralise
from pdfdesk.core.references import display_name
from pdfdesk.gui.chat_transcript import card_text


class ChatInput(QPlainTextEdit):
    """Enter sends, Shift+Enter starts a new line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class Chip(QFrame):
    """An attached document: its name and a remove button."""

    removed = Signal(str)

    def __init__(self, reference: str, current: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reference = reference
        self.setObjectName("attachmentChip")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 1, 2, 1)
        row.setSpacing(2)
        name = neutralise(display_name(reference))
        self.label = QLabel(name + (" (current tab)" if current else ""), self)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # a file name is never markup
        self.label.setToolTip(f"<p>{card_text(reference)}</p>")
        close = QToolButton(self)
        close.setText("×")
        close.setAutoRaise(True)
        close.setToolTip("Do not send this document to the agent")
        close.clicked.connect(lambda: self.removed.emit(self.reference))
        row.addWidget(self.label)
        row.addWidget(close)
