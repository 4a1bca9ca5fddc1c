"""Where the main window's actions and status widgets sit: toolbar, menus and status bar, the
actions' icons and tooltips, and the window's size and dock layout kept between runs.

The actions themselves are made elsewhere (the window's own, the viewer's `ViewActions`, the review
commands); this module only places and dresses them, so rearranging the chrome never touches what
an action does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import shiboken6
from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMessageBox, QProgressBar, QToolBar, QToolButton

from pdfdesk import __version__
from pdfdesk.gui import icons, workers
from pdfdesk.gui.searchable_copy_action import SearchableCopy
from pdfdesk.gui.welcome import fill_recent_menu

if TYPE_CHECKING:
    from pdfdesk.gui.main_window import MainWindow


# window attribute (dotted for the review commands) -> icon name in `icons.THEME_NAMES`
ACTION_ICONS: tuple[tuple[str, str], ...] = (
    ("open_action", "document-open"), ("open_folder_action", "folder-open"), ("close_action", "window-close"),
    ("settings_action", "preferences-system"), ("quit_action", "application-exit"),
    ("back_action", "go-previous"), ("forward_action", "go-next"), ("go_to_action", "go-jump"),
    ("zoom_in_action", "zoom-in"), ("zoom_out_action", "zoom-out"), ("fit_width_action", "zoom-fit-width"),
    ("fit_page_action", "zoom-fit-best"), ("fullscreen_action", "view-fullscreen"), ("find_action", "edit-find"),
    ("search_action", "system-search"), ("ask_action", "pdfdesk-ask"), ("about_action", "help-about"),
    ("review.highlight", "draw-highlight"), ("review.note", "document-edit"), ("review.area", "draw-rectangle"),
    ("review.export", "document-export"), ("review.show_notes", "view-pim-notes"),
    ("review.undo", "edit-undo"), ("review.redo", "edit-redo"),
)
DOCK_LEFT_PX = (200, 280)  # the navigation dock's width: least, most
DOCK_RIGHT_PX = (280, 440)  # the search and ask docks'
MIN_MIDDLE_SHARE = 0.4  # of the window's width, left to the document when the window shrinks
# the docks' show/hide entries in the View menu
DOCK_ICONS: tuple[tuple[str, str], ...] = (
    ("left_dock", "view-sidebar"), ("search_dock", "system-search"), ("chat_dock", "pdfdesk-ask"),
    ("review.dock", "view-pim-notes"),
)
TOOLBAR_ICON_PX = 20  # the bundled drawings sit on a grid that scales cleanly to 20 and 40 px


def _attribute(window: object, dotted: str) -> object:
    for part in dotted.split("."):
        window = getattr(window, part)
    return window


def tooltip_with_shortcut(action: QAction) -> str:
    """The action's description followed by its first shortcut, unless the text already names it."""
    tip = action.statusTip() or action.iconText()
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return f"{tip} ({keys})" if keys and f"({keys})" not in tip else tip


def _keep_tooltip(action: QAction) -> None:
    """Set the tooltip now and whenever the action's text changes (undo/redo name their step)."""
    def update() -> None:
        if not shiboken6.isValid(action):  # a signal from an action that is being torn down
            return
        tip = tooltip_with_shortcut(action)
        if action.toolTip() != tip:
            action.setToolTip(tip)

    update()
    action.changed.connect(update)


def apply_icons(window: MainWindow) -> None:
    """Give every placed action its icon: the desktop theme's, or pdfdesk's own drawing."""
    for dotted, name in ACTION_ICONS:
        action = _attribute(window, dotted)
        if isinstance(action, QAction) and shiboken6.isValid(action):
            action.setIcon(icons.icon(name))
    for dotted, name in DOCK_ICONS:
        cast(QDockWidget, _attribute(window, dotted)).toggleViewAction().setIcon(icons.icon(name))
    from pdfdesk.review.records import PALETTE

    for action, colour in zip(window.review.colours, PALETTE.values(), strict=False):
        action.setIcon(icons.swatch_icon(colour))


class _IconFollower(QObject):
    """Redraws the icons when the palette (light/dark) or the desktop's icon theme changes."""

    EVENTS = (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange, QEvent.Type.ThemeChange)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() in self.EVENTS:
            apply_icons(self._window)
        return False


def build_toolbar(window: MainWindow) -> None:
    """Open, back/forward, the page box, zoom, find, review and ask, in the order a reader uses them;
    icons only (the text is the tooltip, with the shortcut), except Ask, which is the one to find."""
    apply_icons(window)
    for dotted, _name in ACTION_ICONS:
        _keep_tooltip(cast(QAction, _attribute(window, dotted)))
    window._icon_follower = _IconFollower(window)
    window.installEventFilter(window._icon_follower)
    bar = QToolBar("Document", window)
    bar.setObjectName("documentToolbar")
    bar.setIconSize(QSize(TOOLBAR_ICON_PX, TOOLBAR_ICON_PX))
    bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
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
    bar.addActions([window.fit_width_action, window.fit_page_action])
    bar.addSeparator()
    bar.addActions([window.find_action, window.search_action])
    bar.addSeparator()
    bar.addActions([window.review.highlight, window.review.note, window.review.show_notes])
    bar.addSeparator()
    bar.addAction(window.ask_action)
    button = bar.widgetForAction(window.ask_action)
    if isinstance(button, QToolButton):
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
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
    file_menu.addAction(SearchableCopy(window).action)
    file_menu.addActions([window.close_action, window.settings_action])
    file_menu.addSeparator()
    file_menu.addAction(window.quit_action)
    view_menu = menu.addMenu("&View")
    view_menu.addActions([window.zoom_in_action, window.zoom_out_action, window.fit_width_action,
                          window.fit_page_action])
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


def dock_widths(window_width: int) -> tuple[int, int]:
    """The navigation and the search/ask docks' widths on a window `window_width` wide: shares of
    the window within bounds, so the document keeps about half of a small window and most of a
    large one."""
    left = max(DOCK_LEFT_PX[0], min(DOCK_LEFT_PX[1], round(window_width * 0.2)))
    right = max(DOCK_RIGHT_PX[0], min(DOCK_RIGHT_PX[1], round(window_width * 0.3)))
    return left, right


class DockProportions(QObject):
    """Keeps the document the middle of the window. On the first show without a saved layout
    the side docks take shares of the window's width (only then is the real width known); when
    the window is later made so narrow that the document would get less than `MIN_MIDDLE_SHARE`
    of it, docks wider than their share give the difference back (QMainWindow alone takes every
    pixel of a shrink from the document)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self._first_show = True
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window:
            if event.type() == QEvent.Type.Show and self._first_show:
                self._first_show = False
                QTimer.singleShot(0, self.window, self.fit)
            elif (event.type() == QEvent.Type.Resize and isinstance(event, QResizeEvent) and not self._first_show
                  and self.window.isVisible()
                  and event.oldSize().width() > event.size().width()):  # the reader made it narrower
                QTimer.singleShot(0, self.window, self.keep_middle)
        return False

    def fit(self) -> None:
        """The default shares of the window's width."""
        window = self.window
        left, right = dock_widths(window.width())
        window.resizeDocks([window.left_dock, window.search_dock], [left, right], Qt.Orientation.Horizontal)

    def keep_middle(self) -> None:
        """Narrow docks that leave the document too little; a dock already narrower stays as it is."""
        window = self.window
        middle = window.centralWidget()
        if middle is None or middle.width() >= MIN_MIDDLE_SHARE * window.width():
            return
        docks, widths = [], []
        for area, share in zip((Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea),
                               dock_widths(window.width()), strict=False):
            shown = [dock for dock in window.findChildren(QDockWidget) if dock.isVisible()
                     and not dock.isFloating() and window.dockWidgetArea(dock) == area]  # the raised tab
            if shown and shown[0].width() > share:
                docks.append(shown[0])
                widths.append(share)
        if docks:
            window.resizeDocks(docks, widths, Qt.Orientation.Horizontal)

    def restored(self) -> None:
        """The reader's own layout was restored: it is not replaced by the default shares."""
        self._first_show = False


def restore_window_layout(window: MainWindow) -> None:
    """Window size, docks and toolbar as the user left them (config folder, window.ini)."""
    settings = _layout_settings()
    geometry, state = settings.value("geometry"), settings.value("state")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    if isinstance(state, QByteArray) and window.restoreState(state):
        window.dock_sizer.restored()  # the reader's own widths win over the default shares


def save_window_layout(window: QMainWindow) -> None:
    settings = _layout_settings()
    settings.setValue("geometry", window.saveGeometry())
    settings.setValue("state", window.saveState())
    settings.sync()


def show_about(window: MainWindow) -> None:
    """Help → About: the version and the licence."""
    box = QMessageBox(QMessageBox.Icon.Information, "About pdfdesk",
                      f"<b>pdfdesk {__version__}</b><p>Review PDFs with search and an embedded agent.</p>"
                      "<p>Free software under the GNU AGPL v3 or later.</p>", QMessageBox.StandardButton.Ok, window)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
