"""The chat pane's small widgets: the question box, an attached document's chip, the set-up banner
and the empty transcript's hint.

The hint is a word-wrapped label over the transcript rather than the text box's placeholder: Qt
draws a placeholder on one line, so a narrow pane cut the sentence off.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTextEdit, QToolButton, QWidget

from pdfdesk.agent.offline import setup_note
from pdfdesk.core.config import config_path
from pdfdesk.core.fence import neutralise
from pdfdesk.core.references import display_name
from pdfdesk.gui import theme
from pdfdesk.gui.chat_transcript import card_text
from pdfdesk.gui.richtext import esc

OFFLINE_ADVICE = (
    "<b>No model is set up.</b> Answers are passages quoted from the documents, with page citations. "
    "For written answers, add an API key in Settings → Models, or use a local server such as Ollama "
    "(no key needed).")


class ChatInput(QPlainTextEdit):
    """Enter sends, Shift+Enter starts a new line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        shifted = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not shifted:
            self.submitted.emit()
            return
        super().keyPressEvent(event)


CHIP_TEXT_PX = 200


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
        text = name + (" (current tab)" if current else "")
        # a long name is shortened in the middle (its start and extension say most), whole in the tooltip
        self.label = QLabel(self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideMiddle, CHIP_TEXT_PX), self)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # a file name is never markup
        self.label.setToolTip(f"<p>{card_text(reference)}</p>")
        close = QToolButton(self)
        close.setText("×")
        close.setAutoRaise(True)
        close.setToolTip("Do not send this document to the agent")
        close.clicked.connect(lambda: self.removed.emit(self.reference))
        row.addWidget(self.label)
        row.addWidget(close)


class SetupBanner(QFrame):
    """Above the transcript: that no model is set up and how to set one up (said here once, so the
    answers need not repeat it), or why the agent cannot start."""

    setupRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("offlineBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(f"#offlineBanner {{ background: {theme.colors()['banner']}; }}")
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.button = QPushButton("Set up a model…", self)
        self.button.clicked.connect(self.setupRequested)
        row.addWidget(self.text, 1)
        row.addWidget(self.button)
        self.hide()  # shown once the session says whether a model is set up

    def show_offline(self, offline: bool) -> None:
        self.text.setText(OFFLINE_ADVICE)
        self.text.setToolTip(f"<p>{esc(setup_note(str(config_path())))}</p>")
        self.setVisible(offline)

    def show_failure(self, message: str) -> None:
        self.text.setText(f"The agent cannot start: {esc(message)}")
        self.text.setToolTip("")
        self.show()


class EmptyHint(QLabel):
    """A wrapped hint shown over an empty text box (its viewport), hidden once it holds text."""

    def __init__(self, text: str, box: QTextEdit) -> None:
        super().__init__(text, box.viewport())
        self.setObjectName("emptyHint")
        self._box = box
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        box.viewport().installEventFilter(self)
        box.document().contentsChanged.connect(self.refresh)
        self.refresh()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._place()
        return False

    def _place(self) -> None:
        margin = int(self._box.document().documentMargin())
        self.setGeometry(self._box.viewport().rect().adjusted(margin, margin, -margin, -margin))

    def refresh(self) -> None:
        self._place()
        self.setVisible(self._box.document().isEmpty())
