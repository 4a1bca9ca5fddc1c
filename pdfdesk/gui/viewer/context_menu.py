"""The right-click menu of a DocumentView: annotate the selection, copy it, mark an area, act on
the annotation under the pointer, and copy, export or read the table under it (`table_tools`).

The menu only emits what the view offers elsewhere (the same methods and signals as the keys), so
the panels need no code of their own for it. Items that cannot act are shown disabled rather than
hidden, so the menu keeps its shape and teaches the shortcuts.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import (
    QAction,
    QColor,
    QContextMenuEvent,
    QIcon,
    QKeySequence,
    QPixmap,
)
from PySide6.QtWidgets import QMenu

from pdfdesk.gui.viewer.annotation_tools import editable
from pdfdesk.gui.viewer.host import ViewHost
from pdfdesk.review.records import PALETTE


def _swatch(color: str) -> QIcon:
    pixmap = QPixmap(14, 14)
    pixmap.fill(QColor(color))
    return QIcon(pixmap)


def _add(menu: QMenu, name: str, text: str, slot, shortcut: str = "", enabled: bool = True) -> QAction:
    action = menu.addAction(text)
    action.setObjectName(name)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)  # shown, not claimed: the view has the keys
        action.setShortcutVisibleInContextMenu(True)
    action.setEnabled(enabled)
    action.triggered.connect(lambda _checked=False: slot())
    return action


class ContextMenu(ViewHost):
    """Mixin of DocumentView."""

    def context_menu(self, pos: QPointF) -> QMenu:
        """The menu for a right click at viewport position `pos` (the caller shows and deletes it);
        an annotation under `pos` becomes the selected one."""
        menu = QMenu(self)
        menu.setObjectName("documentContextMenu")
        has_text = bool(self.selected_text())
        _add(menu, "highlightAction", "&Highlight", self.highlight_selection, "Ctrl+Shift+H", has_text)
        colours = menu.addMenu("Highlight &colour")
        colours.setObjectName("highlightColourMenu")
        colours.setEnabled(has_text)
        for name, value in PALETTE.items():
            action = _add(colours, f"highlight-{name}", name.capitalize(),
                          lambda value=value: self.highlight_selection(value))
            action.setIcon(_swatch(value))
        _add(menu, "noteAction", "Add &note…", self.note_selection, "Ctrl+Shift+N", has_text)
        _add(menu, "copyAction", "&Copy", self.copy_selection, QKeySequence(QKeySequence.StandardKey.Copy).toString(),
             has_text)
        menu.addSeparator()
        area = _add(menu, "areaToolAction", "Mark an &area", lambda: self.set_area_tool(not self.area_tool_active()),
                    "Ctrl+Shift+A", self.model.is_open)
        area.setCheckable(True)
        area.setChecked(self.area_tool_active())
        key = self._annotation_at(self._hit(pos))
        if key is not None:
            self.model.annotations.set_selected(key)
            allowed = editable(self.model.annotations.item(key))
            menu.addSeparator()
            _add(menu, "editNoteAction", "&Edit note…", lambda: self.annotationEditRequested.emit(key),
                 enabled=allowed)
            _add(menu, "deleteAnnotationAction", "&Delete", lambda: self.annotationDeleteRequested.emit(key),
                 "Del", allowed)
        self._add_table_actions(menu, pos)
        return menu

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if not self.model.is_open:
            event.ignore()
            return
        menu = self.context_menu(QPointF(event.pos()))
        menu.exec(event.globalPos())
        menu.deleteLater()
        event.accept()
