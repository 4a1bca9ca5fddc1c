"""Light and dark themes that follow the system setting (Qt 6.5+ `styleHints().colorScheme()`).

Fusion is used everywhere so both schemes look the same on every platform; the dark palette is
the only tweak. Panels that render their own HTML ask `is_dark()` / `colors()` for card colours.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

_DARK = {
    QPalette.ColorRole.Window: "#2b2d31",
    QPalette.ColorRole.WindowText: "#e6e6e6",
    QPalette.ColorRole.Base: "#1f2023",
    QPalette.ColorRole.AlternateBase: "#2f3136",
    QPalette.ColorRole.ToolTipBase: "#2b2d31",
    QPalette.ColorRole.ToolTipText: "#e6e6e6",
    QPalette.ColorRole.PlaceholderText: "#8a8d93",
    QPalette.ColorRole.Text: "#e6e6e6",
    QPalette.ColorRole.Button: "#34363b",
    QPalette.ColorRole.ButtonText: "#e6e6e6",
    QPalette.ColorRole.BrightText: "#ff6b6b",
    QPalette.ColorRole.Link: "#7aa7ff",
    QPalette.ColorRole.LinkVisited: "#b49cff",
    QPalette.ColorRole.Highlight: "#3d6fd8",
    QPalette.ColorRole.HighlightedText: "#ffffff",
}
_DARK_DISABLED = "#7a7c80"


def system_scheme() -> Qt.ColorScheme:
    hints = QGuiApplication.styleHints()
    return hints.colorScheme() if hasattr(hints, "colorScheme") else Qt.ColorScheme.Unknown


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in _DARK.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(_DARK_DISABLED))
    return palette


def apply_theme(app: QApplication, scheme: Qt.ColorScheme | None = None) -> Qt.ColorScheme:
    """Style the app for `scheme` (default: the system's); returns the scheme applied."""
    scheme = system_scheme() if scheme is None else scheme
    style = QStyleFactory.create("Fusion")
    if style is not None:
        app.setStyle(style)
    if scheme == Qt.ColorScheme.Dark:
        app.setPalette(dark_palette())
    else:
        app.setPalette(app.style().standardPalette())
    app.setProperty("pdfdesk_dark", scheme == Qt.ColorScheme.Dark)
    return scheme


def follow_system(app: QApplication) -> None:
    """Apply the system scheme now and again whenever the user switches it."""
    apply_theme(app)
    hints = QGuiApplication.styleHints()
    if hasattr(hints, "colorSchemeChanged"):
        hints.colorSchemeChanged.connect(lambda scheme: apply_theme(app, scheme))


def is_dark() -> bool:
    app = QApplication.instance()
    return bool(app is not None and app.property("pdfdesk_dark"))


def colors() -> dict[str, str]:
    """Colours for HTML the panels render (cards, muted text, hit marks)."""
    if is_dark():
        return {"card": "#26282c", "border": "#45484e", "muted": "#9a9da3", "mark": "#6b5a1e",
                "error": "#ff8a80", "user": "#23344f", "banner": "#3a3320"}
    return {"card": "#f5f6f8", "border": "#d6d9de", "muted": "#6b6f76", "mark": "#fff1a8",
            "error": "#b3261e", "user": "#e8f0fe", "banner": "#fff4d6"}
