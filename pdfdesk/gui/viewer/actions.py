"""ViewActions: the viewer's commands as QActions, plus its page and zoom boxes.

Zoom in/out, fit width/page, go to page, find, back and forward act on one view at a time — the
one given to `set_view` (the current tab's, in the window). The window only places these actions
and widgets in its menus and toolbar; what they do, their shortcuts and when they are enabled is
decided here, next to the view.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QIntValidator, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QWidget

from pdfdesk.gui.new_action import Shortcut, new_action
from pdfdesk.gui.viewer.contract import PageView
from pdfdesk.gui.viewer.zoom import (
    ZOOM_FIT_PAGE,
    ZOOM_FIT_WIDTH,
    parse_zoom,
    zoom_choices,
    zoom_label,
)


class ViewActions(QObject):
    """The actions and boxes that drive the current document view."""

    pageShown = Signal(int, int)  # current page, page count of the view (for a status bar)
    zoomShown = Signal(float)  # the view's zoom factor
    cleared = Signal()  # no view: nothing to show

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._view: PageView | None = None
        a = self._action
        # The view claims these keys itself when it has focus (ShortcutOverride); from anywhere else
        # in the window they act on the current document.
        self.back = a("&Back", lambda v: v.back(), "Alt+Left", "Back", "go-previous")
        self.forward = a("&Forward", lambda v: v.forward(), "Alt+Right", "Forward", "go-next")
        self.zoom_in = a("Zoom &in", lambda v: v.zoom_in(), ["Ctrl++", "Ctrl+="], "Zoom in", "zoom-in")
        self.zoom_out = a("Zoom &out", lambda v: v.zoom_out(), "Ctrl+-", "Zoom out", "zoom-out")
        self.fit_width = a("Fit &width", lambda v: v.fit_width(), None, "", "zoom-fit-width")
        self.fit_page = a("Fit &page", lambda v: v.fit_page(), None, "", "zoom-fit-best")
        self.find = a("&Find in document…", lambda v: v.show_find_bar(), QKeySequence.StandardKey.Find,
                      "Find text in the current document", "edit-find")
        self.go_to_page = a("&Go to page…", lambda _v: self.focus_page_box(), "Ctrl+G", "Type a page number")
        self.page_box = self._build_page_box(parent)
        self.page_total = QLabel(" / –", parent)
        self.zoom_box = self._build_zoom_box(parent)
        self.set_view(None)

    def _action(self, text: str, command: Callable[[PageView], None], shortcut: Shortcut, tip: str,
                icon: str = "") -> QAction:
        action = new_action(self, text, shortcut, tip, icon)
        action.triggered.connect(lambda _checked=False: self._with_view(command))
        return action

    def _build_page_box(self, parent: QWidget) -> QLineEdit:
        box = QLineEdit(parent)
        box.setObjectName("pageBox")
        box.setMaximumWidth(60)
        box.setAlignment(Qt.AlignmentFlag.AlignRight)
        box.setValidator(QIntValidator(1, 1_000_000, box))
        box.setToolTip("Go to page (Ctrl+G)")
        box.returnPressed.connect(self._page_entered)
        return box

    def _build_zoom_box(self, parent: QWidget) -> QComboBox:
        box = QComboBox(parent)
        box.setObjectName("zoomBox")
        box.setEditable(True)
        box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for label, value in zoom_choices():
            box.addItem(label, value)
        box.setMinimumContentsLength(8)
        box.activated.connect(self._zoom_chosen)
        line = box.lineEdit()  # there is one: the box is editable
        if line is not None:
            line.returnPressed.connect(self._zoom_typed)
        return box

    # --- the view they act on -----------------------------------------------------------------------
    def actions(self) -> list[QAction]:
        return [self.back, self.forward, self.zoom_in, self.zoom_out, self.fit_width, self.fit_page,
                self.find, self.go_to_page]

    def view(self) -> PageView | None:
        return self._view

    def set_view(self, view: PageView | None) -> None:
        """Act on `view` from now on (None: no document is showing, everything is disabled)."""
        old, self._view = self._view, view
        if old is not None and old is not view:
            self._disconnect(old)
        if view is not None and old is not view:
            view.currentPageChanged.connect(self._page_changed)
            view.zoomChanged.connect(self._zoom_changed)
            view.historyChanged.connect(self._history_changed)
        enabled = view is not None
        for action in (self.find, self.zoom_in, self.zoom_out, self.fit_width, self.fit_page, self.go_to_page):
            action.setEnabled(enabled)
        self.page_box.setEnabled(enabled)
        self.zoom_box.setEnabled(enabled)
        if view is None:
            self._history_changed(False, False)
            self.page_total.setText(" / –")
            self.page_box.clear()
            self.cleared.emit()
            return
        self._history_changed(view.can_go_back, view.can_go_forward)
        self._page_changed(view.current_page)
        self._zoom_changed(view.zoom)

    def _disconnect(self, view: PageView) -> None:
        for signal, slot in ((view.currentPageChanged, self._page_changed), (view.zoomChanged, self._zoom_changed),
                             (view.historyChanged, self._history_changed)):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):  # the view is already deleted (its tab was closed)
                pass

    def _with_view(self, command: Callable[[PageView], None]) -> None:
        if self._view is not None:
            command(self._view)

    # --- following the view -----------------------------------------------------------------------------
    def _page_changed(self, page: int) -> None:
        total = self._view.page_count if self._view is not None else 0
        if not self.page_box.hasFocus():
            self.page_box.setText(str(page))
        self.page_total.setText(f" / {total}")
        self.pageShown.emit(page, total)

    def _zoom_changed(self, zoom: float) -> None:
        mode = self._view.zoom_mode if self._view is not None else ""
        self.zoom_box.setEditText(zoom_label(zoom, mode))
        self.zoomShown.emit(zoom)

    def _history_changed(self, can_back: bool, can_forward: bool) -> None:
        self.back.setEnabled(can_back)
        self.forward.setEnabled(can_forward)

    # --- the boxes --------------------------------------------------------------------------------------
    def focus_page_box(self) -> None:
        self.page_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.page_box.selectAll()

    def _page_entered(self) -> None:
        text = self.page_box.text().strip()
        view = self._view
        if text.isdigit() and view is not None:
            view.go_to_page(max(1, min(int(text), view.page_count or int(text))))
            view.setFocus(Qt.FocusReason.OtherFocusReason)

    def _zoom_chosen(self, index: int) -> None:
        value = self.zoom_box.itemData(index)
        if value == ZOOM_FIT_WIDTH:
            self._with_view(lambda v: v.fit_width())
        elif value == ZOOM_FIT_PAGE:
            self._with_view(lambda v: v.fit_page())
        else:
            self._with_view(lambda v: v.set_zoom(float(value)))

    def _zoom_typed(self) -> None:
        factor = parse_zoom(self.zoom_box.currentText())
        if factor is not None:
            self._with_view(lambda v: v.set_zoom(factor))
