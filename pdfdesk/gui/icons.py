"""Icons for the window's actions: the desktop's icon theme when it has the icon, pdfdesk's own
drawing otherwise.

A reader looks at home when it uses the theme's icons, but Windows, macOS, a bare X session and
many small desktops have no freedesktop theme (or one without, say, a highlighter); the bundled
set (resources/icons/actions, drawn by scripts/make_icons.py) stands in for whatever is missing.
Those drawings stroke their lines in `currentColor`, which is painted here in the palette's text
colour, so one set of files stays visible on light and dark themes alike.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QImage, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer

from pdfdesk.core import paths

# bundled drawing -> the freedesktop (or Breeze/Adwaita) names tried first, in order
THEME_NAMES: dict[str, tuple[str, ...]] = {
    "document-open": ("document-open",),
    "folder-open": ("folder-open",),
    "window-close": ("tab-close", "window-close"),
    "application-exit": ("application-exit",),
    "preferences-system": ("preferences-system", "configure"),
    "go-previous": ("go-previous",),
    "go-next": ("go-next",),
    "go-jump": ("go-jump",),
    "zoom-in": ("zoom-in",),
    "zoom-out": ("zoom-out",),
    "zoom-fit-width": ("zoom-fit-width",),
    "zoom-fit-best": ("zoom-fit-best", "zoom-fit-page"),
    "view-fullscreen": ("view-fullscreen",),
    "edit-find": ("edit-find",),
    "system-search": ("system-search",),
    "pdfdesk-ask": ("dialog-messages", "help-faq"),
    "help-about": ("help-about",),
    "draw-highlight": ("draw-highlight", "format-text-highlight"),
    "document-edit": ("document-edit", "accessories-text-editor"),
    "draw-rectangle": ("draw-rectangle", "select-rectangular"),
    "document-export": ("document-export", "document-save-as"),
    "view-pim-notes": ("view-pim-notes", "view-list-text"),
    "view-sidebar": ("view-sidebar", "sidebar-show"),
    "edit-undo": ("edit-undo",),
    "edit-redo": ("edit-redo",),
}
# pixmap sizes made from each drawing: toolbar and menu sizes, and twice them for HiDPI screens
SIZES = (16, 20, 24, 32, 40, 48, 64, 96)


def bundled_folder() -> Path:
    return paths.resources_dir() / "icons" / "actions"


def text_colour() -> QColor:
    """The colour the bundled lines are drawn in: the application palette's text on windows."""
    app = QGuiApplication.instance()
    palette = QGuiApplication.palette() if app is not None else QPalette()
    return palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.WindowText)


@lru_cache(maxsize=256)
def _bundled(name: str, colour: str) -> QIcon:
    svg = (bundled_folder() / f"{name}.svg").read_text(encoding="utf-8").replace("currentColor", colour)
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    icon = QIcon()
    if not renderer.isValid():
        return icon
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
        icon.addPixmap(QPixmap.fromImage(image))
    return icon


def bundled_icon(name: str, colour: QColor | None = None) -> QIcon:
    """pdfdesk's own drawing of `name`, lines in `colour` (default: the palette's text colour)."""
    if name not in THEME_NAMES:
        raise KeyError(f"no bundled icon named {name!r}")
    return _bundled(name, (colour or text_colour()).name())


def icon(name: str) -> QIcon:
    """The desktop theme's icon for `name` when the theme has one of its names, else the bundled one."""
    for candidate in THEME_NAMES[name]:
        if QIcon.hasThemeIcon(candidate):
            return QIcon.fromTheme(candidate)
    return bundled_icon(name)


def swatch_icon(colour: str, size: int = 32) -> QIcon:
    """A rounded square of `colour`, for menu entries that pick a highlight colour."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(text_colour())
    painter.setBrush(QColor(colour))
    inset = size / 8
    painter.drawRoundedRect(QRectF(inset, inset, size - 2 * inset, size - 2 * inset), size / 6, size / 6)
    painter.end()
    return QIcon(pixmap)
