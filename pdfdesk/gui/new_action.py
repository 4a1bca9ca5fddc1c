"""One way to make a window action, so every menu and toolbar entry gets its shortcuts, tooltip
and themed icon the same way, whichever panel owns it."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence

Shortcut = QKeySequence.StandardKey | str | list[str] | None


def new_action(owner: QObject, text: str, shortcut: Shortcut = None, tip: str = "", icon: str = "") -> QAction:
    """An action whose shortcuts work anywhere in the window (not only in the focused widget)."""
    action = QAction(text, owner)
    if icon:
        action.setIcon(QIcon.fromTheme(icon))
    if shortcut is not None:
        keys = shortcut if isinstance(shortcut, list) else [shortcut]
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    return action
