"""The Notes dock: the current document's annotations by page, with filters, jump, edit and delete.

A thin view of `ReviewController`: it lists what the controller holds for the current tab and
hands every change back to it (which stores it and makes it undoable). A click shows the passage
in the viewer; double-click or F2 edits a note or its tags in place; Delete removes the selected
notes; the undo and redo buttons step through the window's annotation edits.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QPushButton, QTreeView, QVBoxLayout, QWidget)

from pdfdesk.gui.flow_layout import FlowLayout
from pdfdesk.gui.notes_model import ID_ROLE, NotesModel
from pdfdesk.gui.review_controller import ReviewController
from pdfdesk.review.records import PALETTE

_COLOUR_NAMES = {hex_: name for name, hex_ in PALETTE.items()}
TAGS_COLUMN_PX = 70


class NotesTree(QTreeView):
    """Delete (or Backspace) asks to delete the selected notes, unless a note is being edited."""

    def __init__(self, panel: NotesPanel) -> None:
        super().__init__(panel)
        self._panel = panel

    def keyPressEvent(self, event: QKeyEvent) -> None:
        editing = self.state() == QAbstractItemView.State.EditingState
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and not editing:
            self._panel.delete_selected()
            event.accept()
            return
        super().keyPressEvent(event)


class NotesPanel(QWidget):
    def __init__(self, controller: ReviewController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notesPanel")
        self.controller = controller
        self._signature: tuple = ()
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self.refresh)
        self._build()
        controller.itemsChanged.connect(self._refresh_timer.start)
        controller.annotationSelected.connect(self.select)
        stack = controller.undo_stack
        stack.canUndoChanged.connect(self.undo_button.setEnabled)
        stack.canRedoChanged.connect(self.redo_button.setEnabled)
        stack.undoTextChanged.connect(lambda text: self.undo_button.setToolTip(f"Undo {text} (Ctrl+Z)"))
        stack.redoTextChanged.connect(lambda text: self.redo_button.setToolTip(f"Redo {text} (Ctrl+Shift+Z)"))
        self.refresh()

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        filters = QHBoxLayout()
        self.filter_text = QLineEdit(self)
        self.filter_text.setObjectName("notesFilter")
        self.filter_text.setPlaceholderText("Filter notes")
        self.filter_text.setClearButtonEnabled(True)
        self.filter_text.textChanged.connect(self._filter)
        self.color_filter = QComboBox(self)
        self.color_filter.setToolTip("Only notes of this colour")
        self.tag_filter = QComboBox(self)
        self.tag_filter.setToolTip("Only notes with this tag")
        for combo in (self.color_filter, self.tag_filter):
            combo.currentIndexChanged.connect(self._filter)
        filters.addWidget(self.filter_text, 1)
        filters.addWidget(self.color_filter)
        filters.addWidget(self.tag_filter)
        layout.addLayout(filters)
        self.status = QLabel(self)
        self.status.setObjectName("notesStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.model = NotesModel(self)
        self.model.editRequested.connect(lambda key, name, value: self.controller.update(key, **{name: value}))
        self.tree = NotesTree(self)
        self.tree.setObjectName("notesTree")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked |
                                  QAbstractItemView.EditTrigger.EditKeyPressed)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.tree.header()
        header.setStretchLastSection(False)
        # the passage and the note share the width; the status takes what its word needs and the
        # tags a fixed share the reader can drag wider, so a narrow dock shows more of the passage
        # instead of a horizontal scroll bar
        for column, mode in enumerate((QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.Stretch,
                                       QHeaderView.ResizeMode.Interactive,
                                       QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(column, mode)
        header.resizeSection(2, TAGS_COLUMN_PX)
        self.tree.clicked.connect(self._clicked)
        self.tree.activated.connect(self._clicked)
        layout.addWidget(self.tree, 1)
        buttons = FlowLayout()
        self.edit_button = QPushButton("Edit…", self)
        self.edit_button.setToolTip("Edit the selected note and its tags (or double-click a cell)")
        self.edit_button.clicked.connect(self.edit_selected)
        self.delete_button = QPushButton("Delete", self)
        self.delete_button.setToolTip("Delete the selected notes (Delete)")
        self.delete_button.clicked.connect(self.delete_selected)
        self.undo_button = QPushButton("Undo", self)
        self.undo_button.clicked.connect(self.controller.undo_stack.undo)
        self.redo_button = QPushButton("Redo", self)
        self.redo_button.clicked.connect(self.controller.undo_stack.redo)
        self.undo_button.setEnabled(self.controller.undo_stack.canUndo())
        self.redo_button.setEnabled(self.controller.undo_stack.canRedo())
        for button in (self.edit_button, self.delete_button, self.undo_button, self.redo_button):
            buttons.addWidget(button)
        layout.addLayout(buttons)

    # -- contents ----------------------------------------------------------------------------
    def refresh(self) -> None:
        """Relist the current document's notes when they changed (not on a mere selection)."""
        items = self.controller.items()
        signature = (id(self.controller.current),
                     tuple((i.get("id"), i.get("updated"), i.get("page"), i.get("status"), i.get("note"),
                            tuple(i.get("tags") or ()), i.get("color")) for i in items))
        if signature == self._signature:
            return
        self._signature = signature
        current = self.selected_ids()
        scroll = self.tree.verticalScrollBar().value()
        self.model.set_items(items)
        self._fill_filters()
        self._filter()
        if current:
            self.select(current[0])
        self.tree.verticalScrollBar().setValue(scroll)

    def _fill_filters(self) -> None:
        for combo, values, everything in ((self.color_filter, self.model.colors(), "All colours"),
                                          (self.tag_filter, self.model.tags(), "All tags")):
            chosen = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(everything, "")
            for value in values:
                combo.addItem(_COLOUR_NAMES.get(value, value) if combo is self.color_filter else value, value)
            combo.setCurrentIndex(max(0, combo.findData(chosen)))
            combo.blockSignals(False)

    def _filter(self) -> None:
        self.model.set_filter(self.filter_text.text(), self.color_filter.currentData() or "",
                              self.tag_filter.currentData() or "")
        self.tree.expandAll()
        total, shown = self.model.total(), self.model.shown()
        if self.controller.current is None:
            self.status.setText("Open a document to see its notes.")
        elif not total:
            self.status.setText("No notes yet: select text and press Ctrl+Shift+H to highlight, Ctrl+Shift+N to note.")
        else:
            self.status.setText(f"{total} note{'s' * (total != 1)}" + (f", {shown} shown" if shown != total else ""))

    # -- actions -----------------------------------------------------------------------------
    def selected_ids(self) -> list[str]:
        rows = self.tree.selectionModel().selectedRows(0) if self.tree.selectionModel() else []
        return [str(index.data(ID_ROLE)) for index in rows if index.data(ID_ROLE)]

    def select(self, key: str) -> None:
        """Select (and scroll to) a note without moving the viewer."""
        index = self.model.index_of(key)
        if index.isValid():
            self.tree.setCurrentIndex(index)
            self.tree.scrollTo(index)

    def _clicked(self, index: QModelIndex) -> None:
        key = index.data(ID_ROLE)
        if key:
            self.controller.jump(str(key))

    def delete_selected(self) -> None:
        keys = self.selected_ids()
        if keys:
            self.controller.delete(keys)

    def edit_selected(self) -> None:
        keys = self.selected_ids()
        if keys:
            self.controller.edit_note(keys[0])

    def focus_filter(self) -> None:
        self.filter_text.setFocus(Qt.FocusReason.ShortcutFocusReason)
