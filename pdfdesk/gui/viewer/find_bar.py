"""FindBar: the Ctrl+F box floating at the top right of a DocumentView.

It talks to the document's state model (start a search, step through hits, read the count), not to
the view: the view creates the bar and tells it where its viewport is.

Typing searches as you type (after a short pause, so each keystroke does not restart a search
over a thousand pages); Enter/F3 go to the next hit, Shift+Enter/Shift+F3 to the previous one,
Esc closes the bar and removes the highlights. The count reads "n of m" and "n of m+" while pages
are still being searched.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from pdfdesk.gui.viewer.state import DocumentState

TYPING_PAUSE_MS = 180


class FindBar(QFrame):
    def __init__(self, model: DocumentState, host: QWidget) -> None:
        super().__init__(host)
        self._model = model
        self._host = host
        self._area = QRect()
        self.setObjectName("pdfdeskFindBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText("Find in document")
        self.edit.setClearButtonEnabled(True)
        self.edit.setMinimumWidth(200)
        self.count_label = QLabel("", self)
        self.count_label.setMinimumWidth(90)
        self.previous_button = QToolButton(self)
        self.previous_button.setArrowType(Qt.ArrowType.UpArrow)
        self.previous_button.setToolTip("Previous match (Shift+F3)")
        self.next_button = QToolButton(self)
        self.next_button.setArrowType(Qt.ArrowType.DownArrow)
        self.next_button.setToolTip("Next match (F3)")
        self.close_button = QToolButton(self)
        self.close_button.setText("✕")
        self.close_button.setToolTip("Close (Esc)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        for widget in (self.edit, self.count_label, self.previous_button, self.next_button, self.close_button):
            layout.addWidget(widget)
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(TYPING_PAUSE_MS)
        self._typing.timeout.connect(self._search_now)
        self.edit.textChanged.connect(self._on_text_changed)
        self.edit.returnPressed.connect(self._on_return)
        self.previous_button.clicked.connect(self.previous)
        self.next_button.clicked.connect(self.next)
        self.close_button.clicked.connect(self.close_bar)
        self.edit.installEventFilter(self)
        model.findChanged.connect(self._on_find_changed)
        self.hide()

    # --- public -------------------------------------------------------------------------------------
    def open_bar(self) -> None:
        """Show, focus and select the text (Ctrl+F again re-selects it for a new search)."""
        self.place(self._area)
        self.show()
        self.raise_()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()
        if self.edit.text() and not self._model.find_status()[1] and self._model.is_open:
            self._search_now()

    def close_bar(self) -> None:
        self._typing.stop()
        self.hide()
        self._model.start_find("")
        self._host.setFocus(Qt.FocusReason.OtherFocusReason)

    def next(self) -> None:
        self._flush()
        self._model.find_step(+1)

    def previous(self) -> None:
        self._flush()
        self._model.find_step(-1)

    def place(self, viewport: QRect) -> None:
        """Top right of `viewport` (the host's page area), clear of the vertical scroll bar."""
        self._area = QRect(viewport)
        self.adjustSize()
        width = min(self.sizeHint().width(), max(120, viewport.width() - 16))
        self.resize(width, self.sizeHint().height())
        self.move(viewport.right() - width - 8, viewport.top() + 8)

    # --- internals ----------------------------------------------------------------------------------
    def _flush(self) -> None:
        """A pending (typed, not yet started) search starts before moving to a hit."""
        if self._typing.isActive():
            self._typing.stop()
            self._search_now()

    def _on_text_changed(self, _text: str) -> None:
        self._typing.start()

    def _search_now(self) -> None:
        self._model.start_find(self.edit.text())

    def _on_return(self) -> None:
        if self._typing.isActive():
            self._flush()  # the first Enter starts the search, which jumps to the first hit
            return
        self.next()  # Shift+Enter is caught by the event filter

    def _on_find_changed(self, current: int, total: int, done: bool) -> None:
        if not self.edit.text():
            self.count_label.setText("")
            return
        if total == 0:
            self.count_label.setText("No matches" if done else "Searching…")
        else:
            self.count_label.setText(f"{current} of {total}{'' if done else '+'}")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key, mods = event.key(), event.modifiers()
            if key == Qt.Key.Key_Escape:
                self.close_bar()
                return True
            if key == Qt.Key.Key_F3:
                self.previous() if mods & Qt.KeyboardModifier.ShiftModifier else self.next()
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and mods & Qt.KeyboardModifier.ShiftModifier:
                self.previous()
                return True
        return super().eventFilter(watched, event)
