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
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QIcon, QIntValidator, QKeySequence
from PySide6.QtWidgets import (
    QComboBox, QDockWidget, QFileDialog, QLabel, QLineEdit, QListWidget, QListWidgetItem, QMainWindow, QMessageBox,
    QProgressBar, QStackedWidget, QTabWidget, QToolBar, QVBoxLayout, QWidget,
)

from pdfdesk import __version__
from pdfdesk.gui import recent, workers
from pdfdesk.gui.drops import local_pdf_paths
from pdfdesk.gui.chat_pane import ChatPane, SessionFactory
from pdfdesk.gui.document_tab import OPEN, DocumentTab, ThumbnailFactory, ViewFactory, normalise_reference
from pdfdesk.gui.indexing import IndexMonitor, IndexProgress
from pdfdesk.gui.library_panel import LibraryPanel
from pdfdesk.gui.search_panel import SearchPanel

log = logging.getLogger(__name__)

MAX_TABS_PER_DROP = 10
ZOOM_PRESETS = (("Fit width", "fit_width"), ("Fit page", "fit_page"), ("50%", 0.5), ("75%", 0.75), ("100%", 1.0),
                ("125%", 1.25), ("150%", 1.5), ("200%", 2.0), ("300%", 3.0), ("400%", 4.0))
Rect = tuple[float, float, float, float]


def default_view_factory(parent: QWidget) -> Any:
    from pdfdesk.gui.viewer import DocumentView

    return DocumentView(parent)


def default_thumbnail_factory(view: Any, parent: QWidget | None) -> QWidget:
    from pdfdesk.gui.viewer import ThumbnailPanel

    return ThumbnailPanel(view, parent) if parent is not None else ThumbnailPanel(view)


def passage_rects(reference: str, password: str | None, page: int, excerpt: str) -> list[Rect]:
    """Worker: rectangles of a cited passage on its page (for a citation that came without them)."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.core.text import passage_rects as rects_on_page

    with open_pdf(reference, password) as opened:
        if not excerpt.strip() or not 1 <= page <= opened.page_count:
            return []
        return rects_on_page(opened.load_page(page), excerpt)


def expand_drop(paths: list[str]) -> tuple[list[str], list[str]]:
    """Worker: (PDF files to open, folders given); folders are walked recursively."""
    from pdfdesk.index.library import expand_pdf_paths

    folders = [p for p in paths if os.path.isdir(p)]
    files = [str(p) for p in expand_pdf_paths(paths)]
    return files, folders


class MainWindow(QMainWindow):
    documentOpened = Signal(str)  # reference, once its pages are shown

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
        self._build_toolbar()
        self._build_menus()
        self._build_status_bar()
        self._update_document_actions()

    # -- construction ------------------------------------------------------------------------
    def _build_central(self) -> None:
        self.stack = QStackedWidget(self)
        self.welcome = QWidget(self)
        self.welcome.setObjectName("welcome")
        layout = QVBoxLayout(self.welcome)
        layout.addStretch(1)
        intro = QLabel("<h2>pdfdesk</h2><p>Drop PDFs or folders here, or press Ctrl+O to open a file.</p>",
                       self.welcome)
        intro.setAlignment(Qt.AlignmentFlag.AlignCenter)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.welcome_recent = QListWidget(self.welcome)
        self.welcome_recent.setObjectName("welcomeRecent")
        self.welcome_recent.setMaximumWidth(560)
        self.welcome_recent.setMaximumHeight(260)
        self.welcome_recent.itemActivated.connect(lambda item: self.open_document(item.toolTip()))
        self.welcome_recent.itemDoubleClicked.connect(lambda item: self.open_document(item.toolTip()))
        layout.addWidget(self.welcome_recent, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
        self._fill_welcome_recent()
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
        self.left_dock = self._dock("Navigation", "navigationDock", self.side_tabs, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.search_panel = SearchPanel(self.current_document_reference, self)
        self.search_panel.resultActivated.connect(lambda doc, page, rects: self.show_location(doc, page, rects))
        self.search_dock = self._dock("Search", "searchDock", self.search_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.chat_pane = ChatPane(session_factory, self)
        self.chat_pane.citationActivated.connect(self.show_location)
        self.chat_pane.settingsRequested.connect(self.open_settings)
        self.chat_dock = self._dock("Ask", "chatDock", self.chat_pane, Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.search_dock, self.chat_dock)
        self.search_dock.raise_()
        self.resizeDocks([self.left_dock, self.search_dock], [240, 420], Qt.Orientation.Horizontal)

    def _action(self, text: str, slot: Callable[..., Any], shortcut: Any = None, tip: str = "",
                icon: str = "") -> QAction:
        action = QAction(text, self)
        if icon:
            action.setIcon(QIcon.fromTheme(icon))
        if shortcut is not None:
            shortcuts = shortcut if isinstance(shortcut, list) else [shortcut]
            action.setShortcuts([QKeySequence(s) for s in shortcuts])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        a = self._action
        self.open_action = a("&Open…", self.choose_files, QKeySequence.StandardKey.Open, "Open PDF files", "document-open")
        self.open_folder_action = a("Open &folder…", self.choose_folder, None, "Open every PDF in a folder")
        self.close_action = a("&Close tab", self.close_current_tab, "Ctrl+W", "Close the current document")
        self.settings_action = a("&Settings…", self.open_settings, QKeySequence.StandardKey.Preferences,
                                 "Models, API keys, limits and file policy")
        self.quit_action = a("&Quit", self.close, QKeySequence.StandardKey.Quit)
        self.next_tab_action = a("Next tab", lambda: self._cycle_tab(1), ["Ctrl+Tab", "Ctrl+PgDown"])
        self.prev_tab_action = a("Previous tab", lambda: self._cycle_tab(-1), ["Ctrl+Shift+Tab", "Ctrl+PgUp"])
        self.ask_action = a("&Ask the agent", self.focus_chat, "Ctrl+L", "Ask about the documents (Ctrl+L)")
        self.search_action = a("&Search documents", self.focus_search, "Ctrl+Shift+F", "Search this document or the library")
        self.find_action = a("&Find in document…", lambda: self._with_view(lambda v: v.show_find_bar()),
                              QKeySequence.StandardKey.Find, "Find text in the current document", "edit-find")
        self.fullscreen_action = a("&Full screen", self.toggle_fullscreen, "F11")
        self.fullscreen_action.setCheckable(True)
        # The view claims these keys itself when it has focus (ShortcutOverride); from anywhere else
        # in the window they act on the current document.
        self.back_action = a("&Back", lambda: self._with_view(lambda v: v.back()), "Alt+Left", "Back", "go-previous")
        self.forward_action = a("&Forward", lambda: self._with_view(lambda v: v.forward()), "Alt+Right", "Forward",
                                "go-next")
        self.zoom_in_action = a("Zoom &in", lambda: self._with_view(lambda v: v.zoom_in()), ["Ctrl++", "Ctrl+="],
                                "Zoom in", "zoom-in")
        self.zoom_out_action = a("Zoom &out", lambda: self._with_view(lambda v: v.zoom_out()), "Ctrl+-", "Zoom out",
                                 "zoom-out")
        self.fit_width_action = a("Fit &width", lambda: self._with_view(lambda v: v.fit_width()), None, "", "zoom-fit-width")
        self.fit_page_action = a("Fit &page", lambda: self._with_view(lambda v: v.fit_page()), None, "", "zoom-fit-best")
        self.go_to_action = a("&Go to page…", self.focus_page_box, "Ctrl+G", "Type a page number")
        self.about_action = a("&About pdfdesk", self._about)

    def _build_toolbar(self) -> None:
        bar = QToolBar("Document", self)
        bar.setObjectName("documentToolbar")
        bar.setIconSize(QSize(18, 18))
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        bar.addAction(self.open_action)
        bar.addSeparator()
        bar.addAction(self.back_action)
        bar.addAction(self.forward_action)
        bar.addSeparator()
        self.page_box = QLineEdit(bar)
        self.page_box.setObjectName("pageBox")
        self.page_box.setMaximumWidth(60)
        self.page_box.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.page_box.setValidator(QIntValidator(1, 1_000_000, self.page_box))
        self.page_box.setToolTip("Go to page (Ctrl+G)")
        self.page_box.returnPressed.connect(self._page_box_entered)
        self.page_total = QLabel(" / –", bar)
        bar.addWidget(QLabel("Page ", bar))
        bar.addWidget(self.page_box)
        bar.addWidget(self.page_total)
        bar.addSeparator()
        bar.addAction(self.zoom_out_action)
        self.zoom_box = QComboBox(bar)
        self.zoom_box.setObjectName("zoomBox")
        self.zoom_box.setEditable(True)
        self.zoom_box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for label, value in ZOOM_PRESETS:
            self.zoom_box.addItem(label, value)
        self.zoom_box.setMinimumContentsLength(8)
        self.zoom_box.activated.connect(self._zoom_chosen)
        self.zoom_box.lineEdit().returnPressed.connect(self._zoom_typed)
        bar.addWidget(self.zoom_box)
        bar.addAction(self.zoom_in_action)
        bar.addSeparator()
        bar.addAction(self.find_action)
        bar.addAction(self.ask_action)
        self.addToolBar(bar)
        self.toolbar = bar

    def _build_menus(self) -> None:
        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        file_menu.addActions([self.open_action, self.open_folder_action])
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        file_menu.addActions([self.close_action, self.settings_action])
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        view_menu = menu.addMenu("&View")
        view_menu.addActions([self.zoom_in_action, self.zoom_out_action, self.fit_width_action, self.fit_page_action])
        view_menu.addSeparator()
        view_menu.addActions([self.next_tab_action, self.prev_tab_action, self.fullscreen_action])
        view_menu.addSeparator()
        for dock in (self.left_dock, self.search_dock, self.chat_dock):
            view_menu.addAction(dock.toggleViewAction())
        go_menu = menu.addMenu("&Go")
        go_menu.addActions([self.back_action, self.forward_action, self.go_to_action])
        tools_menu = menu.addMenu("&Tools")
        tools_menu.addActions([self.find_action, self.search_action, self.ask_action])
        help_menu = menu.addMenu("&Help")
        help_menu.addAction(self.about_action)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.index_progress = QProgressBar(self)
        self.index_progress.setObjectName("indexProgress")
        self.index_progress.setMaximumWidth(260)
        self.index_progress.setMaximumHeight(16)
        self.index_progress.hide()
        self.page_status = QLabel(self)
        self.zoom_status = QLabel(self)
        bar.addPermanentWidget(self.index_progress)
        bar.addPermanentWidget(self.page_status)
        bar.addPermanentWidget(self.zoom_status)

    # -- documents ---------------------------------------------------------------------------
    def document_tabs(self) -> list[DocumentTab]:
        return [self.tabs.widget(i) for i in range(self.tabs.count())]  # type: ignore[misc]

    def current_tab(self) -> DocumentTab | None:
        widget = self.tabs.currentWidget()
        return widget if isinstance(widget, DocumentTab) else None

    def current_view(self) -> Any | None:
        tab = self.current_tab()
        return tab.view if tab is not None else None

    def current_document_reference(self) -> tuple[str, str | None] | None:
        tab = self.current_tab()
        if tab is None or tab.state != OPEN:
            return None
        return tab.reference, tab.password

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
            self._wire_view(tab)
            self.outline_stack.addWidget(tab.outline)
            if tab.thumbnails is not None:
                self.thumbnail_stack.addWidget(tab.thumbnails)
            index = self.tabs.addTab(tab, tab.title())
            self.tabs.setTabToolTip(index, tab.tooltip())
            self.stack.setCurrentWidget(self.tabs)
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
        self.tabs.setCurrentWidget(self.find_tab(files[0]))
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
        self.tabs.removeTab(index)
        self.index_monitor.untrack(tab.reference)
        for stack, widget in ((self.outline_stack, tab.outline), (self.thumbnail_stack, tab.thumbnails)):
            if widget is not None:
                stack.removeWidget(widget)
        tab.close_document()
        tab.deleteLater()
        if self.tabs.count() == 0:
            self._fill_welcome_recent()
            self.stack.setCurrentWidget(self.welcome)
            self._current_tab_changed(-1)

    def close_current_tab(self) -> None:
        if self.tabs.currentIndex() >= 0:
            self.close_tab(self.tabs.currentIndex())

    def _cycle_tab(self, step: int) -> None:
        count = self.tabs.count()
        if count > 1:
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

    def _wire_view(self, tab: DocumentTab) -> None:
        view = tab.view

        def if_current(func: Callable[..., None]) -> Callable[..., None]:
            return lambda *args: func(*args) if tab is self.current_tab() else None

        view.currentPageChanged.connect(if_current(self._page_changed))
        view.zoomChanged.connect(if_current(self._zoom_changed))
        view.historyChanged.connect(if_current(self._history_changed))

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
        view = tab.view if tab is not None and tab.state == OPEN else None
        for action in (self.find_action, self.zoom_in_action, self.zoom_out_action, self.fit_width_action,
                       self.fit_page_action, self.go_to_action):
            action.setEnabled(view is not None)
        self.close_action.setEnabled(tab is not None)
        self.page_box.setEnabled(view is not None)
        self.zoom_box.setEnabled(view is not None)
        if view is None:
            self.back_action.setEnabled(False)
            self.forward_action.setEnabled(False)
            self.page_total.setText(" / –")
            self.page_box.clear()
            self.page_status.clear()
            self.zoom_status.clear()
            return
        self._page_changed(view.current_page)
        self._zoom_changed(view.zoom)

    def _with_view(self, func: Callable[[Any], None]) -> None:
        tab = self.current_tab()
        if tab is not None and tab.state == OPEN:
            func(tab.view)

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

    def _page_changed(self, page: int) -> None:
        view = self.current_view()
        total = getattr(view, "page_count", 0) if view is not None else 0
        if not self.page_box.hasFocus():
            self.page_box.setText(str(page))
        self.page_total.setText(f" / {total}")
        self.page_status.setText(f"Page {page} of {total}")

    def _zoom_changed(self, zoom: float) -> None:
        view = self.current_view()
        mode = getattr(view, "zoom_mode", "custom")
        label = {"fit_width": "Fit width", "fit_page": "Fit page"}.get(mode, f"{round(zoom * 100)}%")
        self.zoom_box.setEditText(label)
        self.zoom_status.setText(f"{round(zoom * 100)}%")

    def _history_changed(self, can_back: bool, can_forward: bool) -> None:
        self.back_action.setEnabled(can_back)
        self.forward_action.setEnabled(can_forward)

    def _page_box_entered(self) -> None:
        text = self.page_box.text().strip()
        view = self.current_view()
        if text.isdigit() and view is not None:
            page = max(1, min(int(text), view.page_count or int(text)))
            view.go_to_page(page)
            view.setFocus(Qt.FocusReason.OtherFocusReason)

    def focus_page_box(self) -> None:
        self.page_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.page_box.selectAll()

    def _zoom_chosen(self, index: int) -> None:
        value = self.zoom_box.itemData(index)
        self._with_view(lambda v: v.fit_width() if value == "fit_width" else
                        v.fit_page() if value == "fit_page" else v.set_zoom(float(value)))

    def _zoom_typed(self) -> None:
        text = self.zoom_box.currentText().strip().rstrip("%").strip()
        try:
            factor = float(text) / 100
        except ValueError:
            return
        self._with_view(lambda v: v.set_zoom(min(8.0, max(0.25, factor))))

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

    def open_settings(self) -> Any:
        from pdfdesk.gui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.saved.connect(lambda _config: self.chat_pane.reload_settings())
        dialog.open()
        self.settings_dialog = dialog
        return dialog

    def _fill_welcome_recent(self) -> None:
        """The welcome page lists recent files (double-click or Enter opens one)."""
        self.welcome_recent.clear()
        for reference in recent.load_recent():
            item = QListWidgetItem(f"{Path(reference).name}    —    {Path(reference).parent}"
                                   if "://" not in reference else reference)
            item.setToolTip(reference)
            self.welcome_recent.addItem(item)
        self.welcome_recent.setVisible(self.welcome_recent.count() > 0)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        items = recent.load_recent()
        for reference in items:
            action = self.recent_menu.addAction(Path(reference).name or reference)
            action.setToolTip(reference)
            action.setStatusTip(reference)
            action.triggered.connect(lambda _c=False, r=reference: self.open_document(r))
        if not items:
            self.recent_menu.addAction("No recent files").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear the list", recent.clear_recent)

    def _index_progressed(self, progress: IndexProgress) -> None:
        tab = self.current_tab()
        if tab is not None and tab.reference == progress.reference:
            self.search_panel.show_index_progress(progress)
        running = [p for p in (self.index_monitor.latest(t.reference) for t in self.document_tabs())
                   if p is not None and not p.complete and not p.error and p.pages_total]
        if not running:
            self.index_progress.hide()
            if progress.complete and progress.pages_total:
                self.statusBar().showMessage(f"{progress.name} is indexed: search is instant.", 4000)
            return
        shown = next((p for p in running if tab is not None and p.reference == tab.reference), running[0])
        self.index_progress.setRange(0, shown.pages_total)
        self.index_progress.setValue(shown.pages_done)
        more = f" (+{len(running) - 1})" if len(running) > 1 else ""
        self.index_progress.setFormat(f"Indexing {shown.name}: {shown.pages_done}/{shown.pages_total}{more}")
        self.index_progress.show()

    def _about(self) -> None:
        box = QMessageBox(QMessageBox.Icon.Information, "About pdfdesk",
                          f"<b>pdfdesk {__version__}</b><p>Review PDFs with search and an embedded agent.</p>"
                          "<p>Free software under the GNU AGPL v3 or later.</p>", QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # -- drops -------------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if local_pdf_paths(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: Any) -> None:
        if local_pdf_paths(event.mimeData()):
            event.acceptProposedAction()

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

    def _layout_settings(self) -> QSettings:
        from pdfdesk.core import paths

        return QSettings(str(paths.config_dir() / "window.ini"), QSettings.Format.IniFormat)

    def restore_layout(self) -> None:
        """Window size, docks and toolbar as the user left them (config folder, window.ini)."""
        settings = self._layout_settings()
        geometry, state = settings.value("geometry"), settings.value("state")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        if isinstance(state, QByteArray):
            self.restoreState(state)

    def save_layout(self) -> None:
        settings = self._layout_settings()
        settings.setValue("geometry", self.saveGeometry())
        settings.setValue("state", self.saveState())
        settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_layout()
        self.chat_pane.stop()
        self.library_panel.stop_processing()
        for tab in self.document_tabs():
            tab.close_document()
        super().closeEvent(event)
