"""The review part of the main window: the Notes dock, the Review menu's actions, Export review…,
and the wiring that keeps the notes following the current tab, chat pins and search hits.

Kept apart from `main_window` so the window stays wiring of its panels; the actions act on the
current tab's view (the viewer implements highlighting, notes and the area tool) and on the
window's `ReviewController` (storing, undo/redo).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QMenu, QPushButton

from pdfdesk.gui.document_tab import OPEN
from pdfdesk.gui.new_action import new_action
from pdfdesk.gui.notes_panel import NotesPanel
from pdfdesk.gui.review_controller import MESSAGE_MS, ReviewController
from pdfdesk.gui.team_live import TeamLive
from pdfdesk.review.records import PALETTE
from pdfdesk.team.settings import team_target

if TYPE_CHECKING:
    from pdfdesk.gui.export_dialog import ExportDialog
    from pdfdesk.gui.main_window import MainWindow
    from pdfdesk.gui.matters_dialog import MattersDialog

WRITTEN_MS = 20_000


class ReviewActions:
    """The window's review commands; `menu` is the Review menu (File gets `export` too)."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.controller = ReviewController(window)
        self.controller.message.connect(window.statusBar().showMessage)
        self.panel = NotesPanel(self.controller, window)
        self.dock = window._dock("Notes", "notesDock", self.panel, Qt.DockWidgetArea.RightDockWidgetArea)
        window.tabifyDockWidget(window.chat_dock, self.dock)
        window.search_dock.raise_()
        self.export_dialog: ExportDialog | None = None
        self.matters_dialog: MattersDialog | None = None
        self._open_written: QPushButton | None = None
        self._watched: set[int] = set()  # views whose area tool the menu's check mark follows
        self._build_actions()
        self.team = TeamLive(window, self.controller)  # live notes and the team status; idle when local
        window.tabs.currentChanged.connect(lambda _i: self.follow_current_tab())
        window.documentOpened.connect(lambda _ref: self.follow_current_tab())
        window.chat_pane.pinRequested.connect(self.controller.pin)
        window.search_panel.noteActivated.connect(self.show_note)

    def _action(self, text: str, slot: Any, shortcut: str | QKeySequence.StandardKey, tip: str) -> QAction:
        action = new_action(self.window, text, shortcut, tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.window.addAction(action)
        return action

    def _build_actions(self) -> None:
        a = self._action
        self.highlight = a("&Highlight", lambda: self._on_view("highlight_selection"), "Ctrl+Shift+H",
                           "Highlight the selected text in yellow (Ctrl+Shift+H)")
        self.colours: list[QAction] = []
        for number, (name, colour) in enumerate(PALETTE.items(), start=1):
            self.colours.append(a(name.capitalize(), lambda c=colour: self._on_view("highlight_selection", c),
                                  f"Ctrl+Alt+{number}", f"Highlight the selection in {name}"))
        self.note = a("Add &note…", lambda: self._on_view("note_selection"), "Ctrl+Shift+N",
                      "Highlight the selection and write a note on it (Ctrl+Shift+N)")
        self.area = a("&Area tool", self._toggle_area, "Ctrl+Shift+A",
                      "Drag a rectangle to mark an area (Ctrl+Shift+A)")
        self.area.setCheckable(True)
        self.show_notes = a("&Notes panel", self.focus_notes, "Ctrl+Alt+N", "Show the current document's notes")
        self.export = a("&Export review…", self.open_export, "Ctrl+Shift+E",
                        "Save the notes as an annotated PDF, Markdown, HTML or JSON")
        self.matters = a("Team &matters…", self.open_matters, "", "Matters, their documents and who may see them")
        stack = self.controller.undo_stack
        self.undo = stack.createUndoAction(self.window, "&Undo")
        self.redo = stack.createRedoAction(self.window, "&Redo")
        for action, keys in ((self.undo, ["Ctrl+Z"]), (self.redo, ["Ctrl+Shift+Z", "Ctrl+Y"])):
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            self.window.addAction(action)
        self.menu = QMenu("&Review", self.window)
        self.menu.addAction(self.highlight)
        colours = self.menu.addMenu("Highlight &colour")
        colours.addActions(self.colours)
        self.menu.addActions([self.note, self.area])
        self.menu.addSeparator()
        self.menu.addActions([self.undo, self.redo])
        self.menu.addSeparator()
        self.menu.addActions([self.show_notes, self.export])
        self.menu.addSeparator()
        self.menu.addAction(self.matters)
        self.menu.aboutToShow.connect(self._sync_area)
        self.menu.aboutToShow.connect(lambda: self.matters.setEnabled(team_target() is not None))
        self.matters.setEnabled(team_target() is not None)

    # -- following the window ----------------------------------------------------------------
    def follow_current_tab(self) -> None:
        tab = self.window.current_tab()
        if tab is not None and tab.state == OPEN:
            self.controller.set_document(tab.reference, tab.password, tab.view)
            changed = getattr(tab.view, "areaToolChanged", None)
            if changed is not None and id(tab.view) not in self._watched:
                self._watched.add(id(tab.view))
                changed.connect(lambda on, view=tab.view: self.area.setChecked(on) if view is self._view() else None)
        else:
            self.controller.set_document(None)
        self._sync_area()
        for action in (self.highlight, self.note, self.area, self.export, *self.colours):
            action.setEnabled(tab is not None and tab.state == OPEN)

    def _view(self) -> Any:
        tab = self.window.current_tab()
        return tab.view if tab is not None and tab.state == OPEN else None

    def _on_view(self, method: str, *args: Any) -> None:
        view = self._view()
        command = getattr(view, method, None)
        if command is None:
            return
        if not command(*args):
            self.window.statusBar().showMessage("Select some text first (drag over it in the page).", MESSAGE_MS)

    def _toggle_area(self) -> None:
        view = self._view()
        if view is not None and hasattr(view, "set_area_tool"):
            view.set_area_tool(self.area.isChecked())
            if self.area.isChecked():
                self.window.statusBar().showMessage("Drag a rectangle over the page to mark it; Esc stops.", MESSAGE_MS)
        else:
            self.area.setChecked(False)

    def _sync_area(self) -> None:
        view = self._view()
        self.area.setChecked(bool(view is not None and getattr(view, "area_tool_active", lambda: False)()))

    # -- panels and dialogs ------------------------------------------------------------------
    def focus_notes(self) -> None:
        self.dock.show()
        self.dock.raise_()
        self.panel.focus_filter()

    def show_note(self, document: str, item: dict) -> None:
        """A note found by search: open its document at the passage and select it."""
        rects = ([] if item.get("status") == "orphaned"
                 else [(float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in item.get("rects") or []])
        self.window.show_location(document, int(item.get("page") or 1), rects)
        tab = self.window.find_tab(document)
        layer = getattr(getattr(tab.view, "model", None), "annotations", None) if tab is not None else None
        if layer is not None and layer.item(str(item.get("id"))) is not None:
            layer.set_selected(str(item["id"]))
        self.panel.select(str(item.get("id")))

    def open_export(self) -> ExportDialog | None:
        from pdfdesk.gui.export_dialog import ExportDialog

        tab = self.window.current_tab()
        if tab is None or tab.state != OPEN:
            self.window.statusBar().showMessage("Open a document to export its review.", MESSAGE_MS)
            return None
        dialog = ExportDialog(tab.reference, tab.password, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.exported.connect(self.show_written)
        dialog.open()
        self.export_dialog = dialog
        return dialog

    def open_matters(self) -> MattersDialog | None:
        """The team's matters (team mode only): create, add documents, grant and revoke."""
        from pdfdesk.gui.matters_dialog import MattersDialog

        if team_target() is None:
            self.window.statusBar().showMessage("Set up a team database first (Settings, Team).", MESSAGE_MS)
            return None
        dialog = MattersDialog(self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        self.matters_dialog = dialog
        return dialog

    def show_written(self, path: str) -> None:
        """Say where the export went, with an Open button beside the message while it shows."""
        bar = self.window.statusBar()
        text = f"Review written to {path}"
        if self._open_written is None:
            button = QPushButton("Open", bar)
            button.setObjectName("openWrittenButton")
            bar.insertPermanentWidget(0, button)
            bar.messageChanged.connect(lambda shown: button.setVisible(shown == button.property("message")))
            button.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(button.toolTip())))
            self._open_written = button
        self._open_written.setToolTip(path)
        self._open_written.setProperty("message", text)
        bar.showMessage(text, WRITTEN_MS)
        self._open_written.show()
