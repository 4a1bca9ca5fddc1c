"""The keys a DocumentView handles itself (PgUp/PgDn/Home/End, Ctrl +/-, Ctrl+C, Ctrl+F,
F3/Shift+F3, Alt+Left/Right), claimed before window shortcuts so menus binding the same keys do
not make them ambiguous while the view has focus."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence

from pdfdesk.gui.viewer.host import ViewHost
from pdfdesk.gui.viewer.zoom import NATURAL_ZOOM


class KeyboardCommands(ViewHost):
    """Mixin of DocumentView."""

    def event(self, event: QEvent) -> bool:
        # Claim the viewer's keys before window-level shortcuts (the shell's menus may bind the same).
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and self._key_action(event) is not None):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        action = self._key_action(event)
        if action is None:
            super().keyPressEvent(event)
            return
        action()
        event.accept()

    def _key_action(self, event: QKeyEvent):
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ctrl = Qt.KeyboardModifier.ControlModifier
        shift = Qt.KeyboardModifier.ShiftModifier
        alt = Qt.KeyboardModifier.AltModifier
        vbar = self.verticalScrollBar()
        if event.matches(QKeySequence.StandardKey.Copy):
            return self.copy_selection
        if event.matches(QKeySequence.StandardKey.Find) or (mods == ctrl and key == Qt.Key.Key_F):
            return self.show_find_bar
        if event.matches(QKeySequence.StandardKey.SelectAll):
            return self.select_all_on_page
        if mods == ctrl and key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            return self.zoom_in
        if mods == (ctrl | shift) and key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            return self.zoom_in
        if mods == ctrl and key == Qt.Key.Key_Minus:
            return self.zoom_out
        if mods == ctrl and key == Qt.Key.Key_0:
            return lambda: self.set_zoom(NATURAL_ZOOM)
        if key == Qt.Key.Key_F3 and mods == Qt.KeyboardModifier.NoModifier:
            return self._find_next_or_open
        if key == Qt.Key.Key_F3 and mods == shift:
            return self.find_previous
        if mods == alt and key == Qt.Key.Key_Left:
            return self.back
        if mods == alt and key == Qt.Key.Key_Right:
            return self.forward
        if mods != Qt.KeyboardModifier.NoModifier and not (mods == ctrl and key in (Qt.Key.Key_Home, Qt.Key.Key_End)):
            return None
        if key == Qt.Key.Key_PageDown or (key == Qt.Key.Key_Space and mods == Qt.KeyboardModifier.NoModifier):
            return lambda: vbar.setValue(vbar.value() + self._page_step())
        if key == Qt.Key.Key_PageUp:
            return lambda: vbar.setValue(vbar.value() - self._page_step())
        if key == Qt.Key.Key_Home:
            return lambda: vbar.setValue(vbar.minimum())
        if key == Qt.Key.Key_End:
            return lambda: vbar.setValue(vbar.maximum())
        if key == Qt.Key.Key_Down:
            return lambda: vbar.setValue(vbar.value() + vbar.singleStep())
        if key == Qt.Key.Key_Up:
            return lambda: vbar.setValue(vbar.value() - vbar.singleStep())
        if key == Qt.Key.Key_Escape and (self.model.selection.active or self.model.highlights is not None):
            return self._escape
        return None

    def _page_step(self) -> int:
        return max(20, self.viewport().height() - 40)  # keep a little overlap for reading continuity

    def _escape(self) -> None:
        self.clear_selection()
        self.clear_highlights()

    def _find_next_or_open(self) -> None:
        if self.model.find.needle:
            self.find_next()
        else:
            self.show_find_bar()
