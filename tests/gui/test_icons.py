"""Action icons: the desktop theme's when it has them, pdfdesk's own drawings otherwise, tinted to the
palette; toolbar buttons show icons and keep the text (with the shortcut) as tooltip."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QIcon, QImage, QPalette, QUndoCommand
from PySide6.QtWidgets import QApplication, QToolButton

from pdfdesk.gui import icons, window_chrome

ROOT = Path(__file__).resolve().parents[2]


def make_icons_script():
    spec = importlib.util.spec_from_file_location("_make_icons", ROOT / "scripts" / "make_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def colours_in(icon: QIcon, size: int = 48) -> set[tuple[int, int, int]]:
    """The opaque colours of the icon's pixmap (rounded, so antialiasing does not count)."""
    image = icon.pixmap(size, size).toImage().convertToFormat(QImage.Format.Format_ARGB32)
    found = set()
    for y in range(image.height()):
        for x in range(image.width()):
            pixel = image.pixelColor(x, y)
            if pixel.alpha() == 255:
                found.add((pixel.red(), pixel.green(), pixel.blue()))
    return found


@pytest.fixture
def theme(tmp_path: Path) -> Iterator[Path]:
    """A throwaway icon theme folder; the app's theme settings come back afterwards."""
    name, paths, fallback = QIcon.themeName(), QIcon.themeSearchPaths(), QIcon.fallbackThemeName()
    yield tmp_path / "icons"
    QIcon.setThemeSearchPaths(paths)
    QIcon.setFallbackThemeName(fallback)
    QIcon.setThemeName(name)


def test_the_bundled_files_are_the_scripts_drawings_and_cover_every_name():
    script = make_icons_script()
    folder = icons.bundled_folder()
    assert {p.stem for p in folder.glob("*.svg")} == set(icons.THEME_NAMES) == set(script.ACTION_ICONS)
    for name, body in script.ACTION_ICONS.items():
        assert (folder / f"{name}.svg").read_text(encoding="utf-8") == script.action_svg(body), name


def test_without_a_theme_every_icon_is_the_bundled_drawing(qapp, theme):
    QIcon.setThemeSearchPaths([str(theme)])
    QIcon.setFallbackThemeName("")
    QIcon.setThemeName("pdfdesk-no-such-theme")
    for name in icons.THEME_NAMES:
        icon = icons.icon(name)
        assert not icon.isNull(), name
        assert not icon.pixmap(24, 24).isNull(), name
        assert icon.cacheKey() == icons.bundled_icon(name).cacheKey(), name


def test_a_theme_that_has_the_icon_wins_and_the_rest_fall_back(qapp, theme):
    folder = theme / "pdfdesk-test" / "24x24" / "actions"
    folder.mkdir(parents=True)
    (theme / "pdfdesk-test" / "index.theme").write_text(
        "[Icon Theme]\nName=pdfdesk-test\nDirectories=24x24/actions\n\n"
        "[24x24/actions]\nSize=24\nContext=Actions\nType=Fixed\n", encoding="utf-8")
    red = QImage(24, 24, QImage.Format.Format_ARGB32)
    red.fill(QColor("#ff0000"))
    assert red.save(str(folder / "zoom-in.png"))
    assert red.save(str(folder / "configure.png"))  # the second name tried for settings
    QIcon.setThemeSearchPaths([str(theme)])
    QIcon.setFallbackThemeName("")
    QIcon.setThemeName("pdfdesk-test")
    assert colours_in(icons.icon("zoom-in"), 24) == {(255, 0, 0)}
    assert colours_in(icons.icon("preferences-system"), 24) == {(255, 0, 0)}
    highlight = icons.icon("draw-highlight")
    assert not highlight.isNull() and (255, 0, 0) not in colours_in(highlight)


def test_the_drawings_take_the_palette_text_colour(qapp):
    assert (255, 0, 0) in colours_in(icons.bundled_icon("go-next", QColor("#ff0000")))
    assert (255, 0, 0) not in colours_in(icons.bundled_icon("go-next", QColor("#00ff00")))
    with pytest.raises(KeyError):
        icons.bundled_icon("no-such-icon")


def test_toolbar_shows_icons_with_text_as_tooltip(qtbot, make_window):
    window = make_window([])
    bar = window.toolbar
    actions = [a for a in bar.actions() if not a.isSeparator() and bar.widgetForAction(a) is not None
               and isinstance(bar.widgetForAction(a), QToolButton)]
    assert window.review.highlight in actions and window.fit_width_action in actions
    for action in actions:
        assert not action.icon().isNull(), action.text()
        assert action.toolTip(), action.text()
    assert bar.toolButtonStyle().name == "ToolButtonIconOnly"
    assert bar.widgetForAction(window.ask_action).toolButtonStyle().name == "ToolButtonTextBesideIcon"
    assert window.open_action.toolTip() == "Open PDF files (Ctrl+O)"
    assert window.ask_action.toolTip() == "Ask about the documents (Ctrl+L)"  # named once, not twice
    assert window.fit_width_action.toolTip() == "Fit width"
    for dotted, _name in window_chrome.ACTION_ICONS:
        assert not window_chrome._attribute(window, dotted).icon().isNull(), dotted
    assert all(not a.icon().isNull() for a in window.review.colours)
    assert not window.review.dock.toggleViewAction().icon().isNull()


def test_the_undo_tooltip_names_the_step_and_the_key(qtbot, make_window):
    window = make_window([])
    stack = window.review.controller.undo_stack
    stack.push(QUndoCommand("Add highlight"))
    assert window.review.undo.toolTip() == "Undo Add highlight (Ctrl+Z)"
    stack.undo()
    assert window.review.redo.toolTip() == "Redo Add highlight (Ctrl+Shift+Z)"


def test_icons_are_redrawn_when_the_palette_changes(qtbot, make_window, theme):
    QIcon.setThemeSearchPaths([str(theme)])
    QIcon.setFallbackThemeName("")
    QIcon.setThemeName("pdfdesk-no-such-theme")
    window = make_window([])
    app = QApplication.instance()
    before = app.palette()
    palette = QPalette(before)
    palette.setColor(QPalette.ColorRole.WindowText, QColor("#ff0000"))
    try:
        app.setPalette(palette)
        qtbot.waitUntil(lambda: (255, 0, 0) in colours_in(window.open_action.icon()), timeout=2000)
    finally:
        app.setPalette(before)
    qtbot.waitUntil(lambda: (255, 0, 0) not in colours_in(window.open_action.icon()), timeout=2000)
