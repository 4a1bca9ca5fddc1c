"""The small editor for an annotation's note and tags (a new note on a selection, or an edit).

It is window-modal but opened with `open()`, never `exec()`: the window keeps painting the
highlight it is about, and tests drive it like any other widget.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget

MAX_NOTE_CHARS = 20_000


def parse_tags(text: str) -> list[str]:
    """Comma-separated tags, trimmed, without empties or repeats, in the order written."""
    tags: list[str] = []
    for tag in text.split(","):
        tag = " ".join(tag.split())
        if tag and tag not in tags:
            tags.append(tag)
    return tags


def tags_text(tags: Sequence[str]) -> str:
    return ", ".join(tags)


class NoteEditor(QDialog):
    """Note and tags; `submitted(note, tags)` on OK (Ctrl+Enter), nothing on Cancel (Esc)."""

    submitted = Signal(str, list)

    def __init__(self, title: str, quote: str = "", note: str = "", tags: Sequence[str] = (),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noteEditor")
        self.setWindowTitle(title)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        layout = QVBoxLayout(self)
        if quote:
            shown = QLabel(self)
            shown.setTextFormat(Qt.TextFormat.PlainText)  # document text is never markup
            shown.setWordWrap(True)
            shown.setText("“" + " ".join(quote.split())[:300] + ("…" if len(quote) > 300 else "") + "”")
            layout.addWidget(shown)
        self.note = QPlainTextEdit(self)
        self.note.setObjectName("noteText")
        self.note.setPlaceholderText("Your note")
        self.note.setPlainText(note)
        layout.addWidget(self.note, 1)
        self.tags = QLineEdit(tags_text(tags), self)
        self.tags.setObjectName("noteTags")
        self.tags.setPlaceholderText("Tags, separated by commas")
        layout.addWidget(self.tags)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setShortcut("Ctrl+Return")
        ok.setToolTip("Save (Ctrl+Enter)")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(420, 240)
        self.note.setFocus(Qt.FocusReason.OtherFocusReason)

    def accept(self) -> None:
        self.submitted.emit(self.note.toPlainText()[:MAX_NOTE_CHARS], parse_tags(self.tags.text()))
        super().accept()
