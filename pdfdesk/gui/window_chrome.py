"""Where the main window's actions and status widgets sit: toolbar, menus and status bar, and
the window's size and dock layout kept between runs.

The actions themselves are made elsewhere (the window's own, and the viewer's `ViewActions`); this
module only places them, so rearranging the chrome never touches what an action does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QProgressBar, QToolBar

from pdfdesk.gui import workers
from pdfdesk.gui.welcome import fill_recent_menu

if TYPE_CHECKING:
    from pdfdesk.gui.main_window import MainWindow


def build_toolbar(window: MainWindow) -> None:
    """Open, back/forward, the page box, zoom, find and ask, in the order a reader uses them."""
    bar = QToolBar("Document", window)
    bar.setObjectName("documentToolbar")
    bar.setIconSize(QSize(18, 18))
    bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    bar.addAction(window.open_action)
    bar.addSeparator()
    bar.addAction(window.back_action)
    bar.addAction(window.forward_action)
    bar.addSeparator()
    bar.addWidget(QLabel("Page ", bar))
    bar.addWidget(window.page_box)
    bar.addWidget(window.page_total)
    bar.addSeparator()
    bar.addAction(window.zoom_out_action)
    bar.addWidget(window.zoom_box)
    bar.addAction(window.zoom_in_action)
    bar.addSeparator()
    bar.addAction(window.find_action)
    bar.addAction(window.ask_action)
    window.addToolBar(bar)
    window.toolbar = bar


def build_menus(window: MainWindow) -> None:
    """File, View, Go, Review, Tools and Help; the recent-files menu fills itself when opened."""
    menu = window.menuBar()
    file_menu = menu.addMenu("&File")
    file_menu.addActions([window.open_action, window.open_folder_action])
    window.recent_menu = file_menu.addMenu("Open &recent")
    window.recent_menu.aboutToShow.connect(lambda: fill_recent_menu(window.recent_menu, window.open_document))
    file_menu.addSeparator()
    file_menu.addAction(window.review.export)
    file_menu.addActions([window.close_action, window.settings_action])
    file_menu.addSeparator()
    file_menu.addAction(window.quit_action)
    view_menu = menu.addMenu("&View")
    view_menu.addActions([window.zoom_in_action, window.zoom_out_action, window.fit_width_action, window.fit_page_action])
    view_menu.addSeparator()
    view_menu.addActions([window.next_tab_action, window.prev_tab_action, window.fullscreen_action])
    view_menu.addSeparator()
    for dock in (window.left_dock, window.search_dock, window.chat_dock, window.review.dock):
        view_menu.addAction(dock.toggleViewAction())
    go_menu = menu.addMenu("&Go")
    go_menu.addActions([window.back_action, window.forward_action, window.go_to_action])
    menu.addMenu(window.review.menu)
    tools_menu = menu.addMenu("&Tools")
    tools_menu.addActions([window.find_action, window.search_action, window.ask_action])
    help_menu = menu.addMenu("&Help")
    help_menu.addAction(window.about_action)


def build_status_bar(window: MainWindow) -> None:
    """Index progress, the page and the zoom at the right; messages at the left."""
    bar = window.statusBar()
    window.index_progress = QProgressBar(window)
    window.index_progress.setObjectName("indexProgress")
    window.index_progress.setMaximumWidth(260)
    window.index_progress.setMaximumHeight(16)
    window.index_progress.hide()
    window.page_status = QLabel(window)
    window.zoom_status = QLabel(window)
    bar.addPermanentWidget(window.index_progress)
    bar.addPermanentWidget(window.page_status)
    bar.addPermanentWidget(window.zoom_status)
    workers.failure_notices().failed.connect(bar.showMessage)  # background failures nobody handles


def _layout_settings() -> QSettings:
    from pdfdesk.core import paths

    return QSettings(str(paths.config_dir() / "window.ini"), QSettings.Format.IniFormat)


def restore_window_layout(window: QMainWindow) -> None:
    """Window size, docks and toolbar as the user left them (config folder, window.ini)."""
    settings = _layout_settings()
    geometry, state = settings.value("geometry"), settings.value("state")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    if isinstance(state, QByteArray):
        window.restoreState(state)


def save_window_layout(window: QMainWindow) -> None:
    settings = _layout_settings()
    settings.setValue("geometry", window.saveGeometry())
    settings.setValue("state", window.saveState())
    settings.sync()
