"""Light and dark themes that follow the system setting (Qt 6.5+ `styleHints().colorScheme()`).

Fusion is used everywhere so both schemes look the same on every platform; the dark palette and
a deeper selection blue in the light one (Fusion's own gives white text only 3.7:1) are the only
tweaks. Panels that render their own HTML ask `is_dark()` / `colors()` for card colours, and
`secondary_text()` for smaller grey text that stays readable on whatever background it sits on,
the selection colour included (WCAG's 4.5:1 for body text).
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
_LIGHT_HIGHLIGHT = "#2a6db0"  # white on it: 5.4:1
READABLE = 4.5  # WCAG AA contrast for normal-size text


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
        palette = app.style().standardPalette()
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            palette.setColor(group, QPalette.ColorRole.Highlight, QColor(_LIGHT_HIGHLIGHT))
            palette.setColor(group, QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
        app.setPalette(palette)
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


def _luminance(colour: QColor) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) + 0.0722 * channel(colour.blue())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two opaque colours, 1 (same) to 21 (black on white)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _mix(a: QColor, b: QColor, share_b: float) -> QColor:
    return QColor(*(round(x * (1 - share_b) + y * share_b) for x, y in
                    ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue()))))


def secondary_text(text: QColor, background: QColor, preferred: QColor | None = None) -> QColor:
    """A quieter colour than `text` for captions on `background`: `preferred` (the theme's grey)
    when it is readable there, else `text` faded towards the background only as far as it stays
    readable, else `text` itself."""
    if preferred is not None and contrast(preferred, background) >= READABLE:
        return preferred
    for share in (0.35, 0.25, 0.15):
        faded = _mix(text, background, share)
        if contrast(faded, background) >= READABLE:
            return faded
    return QColor(text)
