"""The main window: document tabs, side docks, toolbar, menus, shortcuts, drops and the status bar.

Everything here is wiring: documents are `DocumentTab`s (a viewer plus its outline and
thumbnails), the left dock shows the current tab's thumbnails and outline beside the library,
the right docks hold search and chat. Files arrive from the command line, the file dialog, drops
(files or folders, many at once), recent files, the library, search hits and citations; all of
them go through `open_document`, which reuses an open tab for the same file.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragMoveEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (QApplication, QDockWidget, QFileDialog, QLabel, QMainWindow, QMenu, QProgressBar,
                               QStackedWidget, QTabWidget, QToolBar, QWidget)

from pdfdesk.core.references import normalise_reference
from pdfdesk.gui import recent, workers
from pdfdesk.gui.activity import ActivityWatch
from pdfdesk.gui.chat_pane import ChatPane, SessionFactory
from pdfdesk.gui.document_tab import OPEN, DocumentTab, ThumbnailFactory, ViewFactory
from pdfdesk.gui.drops import local_pdf_paths
from pdfdesk.gui.indexing import IndexMonitor, IndexProgress
from pdfdesk.gui.library_panel import LibraryPanel
from pdfdesk.gui.new_action import Shortcut, new_action
from pdfdesk.gui.index_line import show_index_line
from pdfdesk.gui.search_panel import SearchPanel
from pdfdesk.gui.viewer.actions import ViewActions
from pdfdesk.gui.viewer.contract import PageView
from pdfdesk.gui.viewer.zoom import percent
from pdfdesk.gui.welcome import WelcomePage
from pdfdesk.gui.window_chrome import (DockProportions, build_menus, build_status_bar, build_toolbar,
                                       restore_window_layout, save_window_layout, show_about)
from pdfdesk.gui.window_jobs import expand_drop, passage_rects
from pdfdesk.gui.window_review import ReviewActions
from pdfdesk.gui.window_session import WindowSession

if TYPE_CHECKING:
    from pdfdesk.gui.settings_dialog import SettingsDialog
    from pdfdesk.gui.viewer.thumbnails import ThumbnailPanel
    from pdfdesk.gui.viewer.view import DocumentView

log = logging.getLogger(__name__)

MAX_TABS_PER_DROP = 10
Rect = tuple[float, float, float, float]


def default_view_factory(parent: QWidget) -> DocumentView:
    from pdfdesk.gui.viewer import DocumentView

    return DocumentView(parent)


def default_thumbnail_factory(view: PageView, parent: QWidget | None) -> ThumbnailPanel:
    """Thumbnails of a DocumentView (they read its preview images, which only it has)."""
    from pdfdesk.gui.viewer import DocumentView, ThumbnailPanel

    if not isinstance(view, DocumentView):
        raise TypeError(f"the thumbnail panel needs a DocumentView, not {type(view).__name__}")
    return ThumbnailPanel(view, parent) if parent is not None else ThumbnailPanel(view)


class MainWindow(QMainWindow):
    documentOpened = Signal(str)  # reference, once its pages are shown

    # Built by window_chrome (build_toolbar, build_menus, build_status_bar) during __init__.
    toolbar: QToolBar
    recent_menu: QMenu
    index_progress: QProgressBar
    page_status: QLabel
    zoom_status: QLabel
    _icon_follower: QObject  # keeps the toolbar's icons in step with the palette

    def __init__(self, view_factory: ViewFactory | None = None, thumbnail_factory: ThumbnailFactory | None = None,
                 session_factory: SessionFactory | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("pdfdesk")
        self.setAcceptDrops(True)
        self.resize(1400, 900)
        self._view_factory = view_factory or default_view_factory
        self._thumbnail_factory = thumbnail_factory if thumbnail_factory is not None else default_thumbnail_factory
        self.index_monitor = IndexMonitor(self)
        self.index_monitor.progressed.connect(self._index_progressed)
        self._build_central()
        self._build_docks(session_factory)
        self._build_actions()
        self.review = ReviewActions(self)  # notes dock, Review menu, export, undo/redo
        build_toolbar(self)
        build_menus(self)
        build_status_bar(self)
        self.session = WindowSession(self)  # the last session back at start; places kept per document
        self._update_document_actions()
        self.activity = ActivityWatch(self)  # recognition keeps to one core while the user works
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self.activity)

    # -- construction ------------------------------------------------------------------------
    def _build_central(self) -> None:
        self.stack = QStackedWidget(self)
        self.welcome = WelcomePage(self)
        self.welcome_recent = self.welcome.recent_list
        self.welcome.documentChosen.connect(lambda reference: self.open_document(reference))
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("documentTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(self._current_tab_changed)
        self.stack.addWidget(self.welcome)
        self.stack.addWidget(self.tabs)
        self.setCentralWidget(self.stack)

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self, session_factory: SessionFactory | None) -> None:
        self.side_tabs = QTabWidget(self)
        self.side_tabs.setObjectName("sideTabs")
        self.thumbnail_stack = QStackedWidget(self)
        self.outline_stack = QStackedWidget(self)
        for stack, text in ((self.thumbnail_stack, "Open a document to see its pages."),
                            (self.outline_stack, "Open a document to see its outline.")):
            empty = QLabel(text, stack)
            empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
            empty.setWordWrap(True)
            stack.addWidget(empty)
        self.library_panel = LibraryPanel(self)
        self.library_panel.documentActivated.connect(lambda path: self.open_document(path))
        self.side_tabs.addTab(self.thumbnail_stack, "Pages")
        self.side_tabs.addTab(self.outline_stack, "Outline")
        self.side_tabs.addTab(self.library_panel, "Library")
        self.left_dock = self._dock("Navigation", "navigationDock", self.side_tabs,
                                    Qt.DockWidgetArea.LeftDockWidgetArea)
        self.search_panel = SearchPanel(self.current_document_reference, self, self.open_documents)
        self.search_panel.resultActivated.connect(lambda doc, page, rects: self.show_location(doc, page, rects))
        self.search_dock = self._dock("Search", "searchDock", self.search_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.chat_pane = ChatPane(session_factory, self, self.open_documents)
        self.chat_pane.citationActivated.connect(self.show_location)
        self.chat_pane.settingsRequested.connect(self.open_settings)
        self.chat_dock = self._dock("Ask", "chatDock", self.chat_pane, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.search_dock, self.chat_dock)
        self.search_dock.raise_()
        self.dock_sizer = DockProportions(self)

    def _action(self, text: str, slot: Callable[[], object], shortcut: Shortcut = None, tip: str = "",
                icon: str = "") -> QAction:
        action = new_action(self, text, shortcut, tip, icon)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        a = self._action
        self.open_action = a("&Open…", self.choose_files, QKeySequence.StandardKey.Open, "Open PDF files",
                             "document-open")
        self.open_folder_action = a("Open &folder…", self.choose_folder, None, "Open every PDF in a folder")
        self.close_action = a("&Close tab", self.close_current_tab, "Ctrl+W", "Close the current document")
        self.settings_action = a("&Settings…", self.open_settings, QKeySequence.StandardKey.Preferences,
                                 "Models, API keys, limits and file policy")
        self.quit_action = a("&Quit", self.close, QKeySequence.StandardKey.Quit)
        self.next_tab_action = a("Next tab", lambda: self._cycle_tab(1), ["Ctrl+Tab", "Ctrl+PgDown"])
        self.prev_tab_action = a("Previous tab", lambda: self._cycle_tab(-1), ["Ctrl+Shift+Tab", "Ctrl+PgUp"])
        self.ask_action = a("&Ask the agent", self.focus_chat, "Ctrl+L", "Ask about the documents (Ctrl+L)")
        self.search_action = a("&Search documents", self.focus_search, "Ctrl+Shift+F",
                               "Search this document or the library")
        self.fullscreen_action = a("&Full screen", self.toggle_fullscreen, "F11")
        self.fullscreen_action.setCheckable(True)
        self.about_action = a("&About pdfdesk", lambda: show_about(self))
        # the viewer's own commands (zoom, find, go to page, back/forward), on the current tab's view
        self.view_actions = actions = ViewActions(self)
        self.addActions(actions.actions())
        self.back_action, self.forward_action = actions.back, actions.forward
        self.zoom_in_action, self.zoom_out_action = actions.zoom_in, actions.zoom_out
        self.fit_width_action, self.fit_page_action = actions.fit_width, actions.fit_page
        self.find_action, self.go_to_action = actions.find, actions.go_to_page
        self.page_box, self.page_total, self.zoom_box = actions.page_box, actions.page_total, actions.zoom_box
        actions.pageShown.connect(lambda page, total: self.page_status.setText(f"Page {page} of {total}"))
        actions.zoomShown.connect(lambda zoom: self.zoom_status.setText(percent(zoom)))
        actions.cleared.connect(self._clear_status)

    # -- documents ---------------------------------------------------------------------------
    def document_tabs(self) -> list[DocumentTab]:
        return [cast(DocumentTab, self.tabs.widget(i)) for i in range(self.tabs.count())]  # every tab is one

    def current_tab(self) -> DocumentTab | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, DocumentTab) else None

    def current_view(self) -> PageView | None:
        return tab.view if (tab := self.current_tab()) is not None else None

    def current_document_reference(self) -> tuple[str, str | None] | None:
        tab = self.current_tab()
        if tab is None or tab.state != OPEN:
            return None
        return tab.reference, tab.password

    def open_documents(self) -> list[tuple[str, str | None]]:
        return [(tab.reference, tab.password) for tab in self.document_tabs() if tab.state == OPEN]

    def find_tab(self, reference: str) -> DocumentTab | None:
        wanted = normalise_reference(reference)
        return next((tab for tab in self.document_tabs() if tab.reference == wanted), None)

    def open_document(self, reference: str, activate: bool = True) -> DocumentTab:
        """Open `reference` in a tab (or bring its tab forward)."""
        tab = self.find_tab(reference)
        if tab is None:
            tab = DocumentTab(reference, self._view_factory, self._thumbnail_factory, self.tabs)
            tab.titleChanged.connect(lambda _t, tab=tab: self._retitle(tab))
            tab.documentOpened.connect(lambda _n, tab=tab: self._tab_opened(tab))
            tab.documentFailed.connect(lambda details, tab=tab: self._tab_failed(tab, details))
            self.outline_stack.addWidget(tab.outline)
            if tab.thumbnails is not None:
                self.thumbnail_stack.addWidget(tab.thumbnails)
            index = self.tabs.addTab(tab, tab.title())
            self.tabs.setTabToolTip(index, tab.tooltip())
            self.stack.setCurrentWidget(self.tabs)
            self.session.watch(tab)
            tab.open()
        if activate:
            self.tabs.setCurrentWidget(tab)
        return tab

    def open_paths(self, paths: Sequence[str]) -> None:
        """Open files, and every PDF in folders (walked in a worker); see `_open_found`."""
        paths = [str(p) for p in paths]
        if not paths:
            return
        if not any(os.path.isdir(p) for p in paths):
            self._open_found((paths, []))
            return
        workers.submit(expand_drop, paths, owner=self, on_done=self._open_found)

    def _open_found(self, found: tuple[list[str], list[str]]) -> None:
        files, folders = found
        if not files:
            self.statusBar().showMessage("No PDF files there.", 5000)
            return
        for reference in files[:MAX_TABS_PER_DROP]:
            self.open_document(reference, activate=False)
        first = self.find_tab(files[0])
        if first is not None:  # just opened
            self.tabs.setCurrentWidget(first)
        if folders or len(files) > MAX_TABS_PER_DROP:
            self.library_panel.add(folders + [f for f in files if not any(f.startswith(d) for d in folders)])
            shown = min(len(files), MAX_TABS_PER_DROP)
            self.statusBar().showMessage(
                f"Opened {shown} of {len(files)} PDFs; all of them were added to the library for search.", 8000)

    def choose_files(self) -> None:
        dialog = QFileDialog(self, "Open PDFs", "", "PDF files (*.pdf);;All files (*)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.filesSelected.connect(self.open_paths)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def choose_folder(self) -> None:
        dialog = QFileDialog(self, "Open a folder of PDFs")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.filesSelected.connect(self.open_paths)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def close_tab(self, index: int) -> None:
        tab = self.tabs.widget(index)
        if not isinstance(tab, DocumentTab):
            return
        self.session.closing(tab)
        self.tabs.removeTab(index)
        self.index_monitor.untrack(tab.reference)
        for stack, widget in ((self.outline_stack, tab.outline), (self.thumbnail_stack, tab.thumbnails)):
            if widget is not None:
                stack.removeWidget(widget)
        tab.close_document()
        tab.deleteLater()
        if self.tabs.count() == 0:
            self.welcome.refresh()
            self.stack.setCurrentWidget(self.welcome)
            self._current_tab_changed(-1)

    def close_current_tab(self) -> None:
        if self.tabs.currentIndex() >= 0:
            self.close_tab(self.tabs.currentIndex())

    def _cycle_tab(self, step: int) -> None:
        if (count := self.tabs.count()) > 1:
            self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % count)

    def _retitle(self, tab: DocumentTab) -> None:
        index = self.tabs.indexOf(tab)
        if index >= 0:
            self.tabs.setTabText(index, tab.title())
            self.tabs.setTabToolTip(index, tab.tooltip())
        if tab is self.current_tab():
            self._update_document_actions()

    def _tab_opened(self, tab: DocumentTab) -> None:
        recent.add_recent(tab.reference)
        self.index_monitor.track(tab.reference, tab.password)
        if tab is self.current_tab():
            self._current_tab_changed(self.tabs.currentIndex())
        self.documentOpened.emit(tab.reference)

    def _tab_failed(self, tab: DocumentTab, details: dict) -> None:
        self.statusBar().showMessage(details.get("message") or f"{tab.name} could not be opened.", 10000)
        if tab is self.current_tab():
            self._update_document_actions()

    def _current_tab_changed(self, _index: int) -> None:
        tab = self.current_tab()
        if tab is not None:
            self.outline_stack.setCurrentWidget(tab.outline)
            if tab.thumbnails is not None:
                self.thumbnail_stack.setCurrentWidget(tab.thumbnails)
            self.setWindowTitle(f"{tab.name} — pdfdesk")
        else:
            self.outline_stack.setCurrentIndex(0)
            self.thumbnail_stack.setCurrentIndex(0)
            self.setWindowTitle("pdfdesk")
        if tab is not None and tab.state == OPEN:
            self.chat_pane.set_current_document(tab.reference, tab.password)
        else:
            self.chat_pane.set_current_document(None)
        self.search_panel.show_index_progress(self.index_monitor.latest(tab.reference) if tab else None)
        self._update_document_actions()

    def _update_document_actions(self) -> None:
        tab = self.current_tab()
        self.close_action.setEnabled(tab is not None)
        self.view_actions.set_view(tab.view if tab is not None and tab.state == OPEN else None)

    def _clear_status(self) -> None:
        self.page_status.clear()
        self.zoom_status.clear()

    # -- navigation --------------------------------------------------------------------------
    def show_location(self, document: str, page: int, rects: Sequence[Rect] = (), excerpt: str = "") -> None:
        """Open `document` at `page` with `rects` highlighted (or the cited `excerpt`'s place)."""
        tab = self.open_document(document)
        tab.go_to(page, rects)
        tab.view.setFocus(Qt.FocusReason.OtherFocusReason)
        if not rects and excerpt.strip():
            def highlight(found: list[Rect]) -> None:
                if found and tab.state == OPEN:
                    tab.go_to(page, found)

            def when_open() -> None:
                workers.submit(passage_rects, tab.reference, tab.password, page, excerpt, owner=tab,
                               on_done=highlight, on_error=lambda _d: None)

            if tab.state == OPEN:
                when_open()
            else:
                tab.documentOpened.connect(lambda _n: when_open(), Qt.ConnectionType.SingleShotConnection)

    def focus_page_box(self) -> None:
        self.view_actions.focus_page_box()

    # -- panels ------------------------------------------------------------------------------
    def focus_chat(self) -> None:
        self.chat_dock.show()
        self.chat_dock.raise_()
        self.chat_pane.focus_input()

    def focus_search(self) -> None:
        self.search_dock.show()
        self.search_dock.raise_()
        self.search_panel.focus_query()

    def toggle_fullscreen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()
        self.fullscreen_action.setChecked(self.isFullScreen())

    def open_settings(self) -> SettingsDialog:
        from pdfdesk.gui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.saved.connect(lambda _config: self.chat_pane.reload_settings())
        dialog.open()
        self.settings_dialog = dialog
        return dialog

    def _index_progressed(self, progress: IndexProgress) -> None:
        tab = self.current_tab()
        indexed = self.find_tab(progress.reference)
        if indexed is not None:  # its scanned pages: which still wait for recognition
            indexed.show_recognition(progress.waiting, progress.fingerprint or None)
        if tab is not None and tab.reference == progress.reference:
            self.search_panel.show_index_progress(progress)
        latest = [p for p in (self.index_monitor.latest(t.reference) for t in self.document_tabs()) if p is not None]
        shown = show_index_line(self.index_progress, latest, tab.reference if tab is not None else None)
        if not shown and progress.complete and progress.pages_total:
            self.statusBar().showMessage(f"{progress.name} is indexed: search is instant.", 4000)

    # -- drops -------------------------------------------------------------------------------
    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if local_pdf_paths(event.mimeData()):
            event.acceptProposedAction()

    dragEnterEvent = dragMoveEvent  # a drag entering is one moving over the window: the same test

    def dropEvent(self, event: QDropEvent) -> None:
        paths = local_pdf_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.open_paths(paths)

    # -- lifetime ----------------------------------------------------------------------------
    def handle_remote_open(self, paths: list[str]) -> None:
        """Files handed over by a second `pdfdesk FILE` (single instance): open and come forward."""
        self.open_paths(paths)
        if self.isMinimized():
            self.showNormal()
        self.raise_()
        self.activateWindow()

    def restore_layout(self) -> None:
        """Window size, docks and toolbar as the user left them (config folder, window.ini)."""
        restore_window_layout(self)

    def save_layout(self) -> None:
        save_window_layout(self)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.session.quit()
        self.save_layout()
        self.chat_pane.stop()
        self.library_panel.stop_processing()
        for tab in self.document_tabs():
            tab.close_document()
        super().closeEvent(event)
