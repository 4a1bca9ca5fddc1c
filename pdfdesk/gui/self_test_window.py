"""The self-test's window step: the main window as `pdfdesk FILE` opens it, until the viewer has
painted the first page, with Qt's fatal messages turned into the self-test's one-line failure.

The self-test imports this module, never the other way round: a failure here is a WindowCheckFailed,
which the self-test reports as its window step."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any


class WindowCheckFailed(Exception):
    """The window did not show the sample's first page; the message says what happened instead."""


def _needs_offscreen() -> bool:
    """No display to draw on (a console, ssh, a build container): use Qt's offscreen platform."""
    if sys.platform in ("win32", "darwin") or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


# Qt's offscreen platform says this whenever a window is shown; it is not a problem of the install.
_BENIGN_QT_MESSAGES = ("This plugin does not support propagateSizeHints()",)


_qt_warnings: list[str] = []  # the last few, to name the cause of a fatal message


def _qt_message(mode: Any, context: Any, message: str) -> None:
    """Qt aborts the process after a fatal message (e.g. no usable platform plugin): say which step
    failed and why before that, in the self-test's one-line format. Other messages go to stderr."""
    from PySide6.QtCore import QtMsgType

    if mode == QtMsgType.QtFatalMsg:
        first = message.strip().splitlines()[0] if message.strip() else "Qt stopped the program"
        cause = f" ({_qt_warnings[-1]})" if _qt_warnings else ""
        sys.stdout.write(f"pdfdesk self-test FAILED at window: {first}{cause}\n")
        sys.stdout.flush()
        os._exit(1)
    if message in _BENIGN_QT_MESSAGES:
        return
    sys.stderr.write(message + "\n")
    if mode != QtMsgType.QtDebugMsg and message.strip():
        _qt_warnings[:] = [*_qt_warnings[-2:], " ".join(message.split())]


def check_window(sample: Path, timeout: float) -> str:
    """The main window as `pdfdesk FILE` opens it, until the viewer paints the first page."""
    if _needs_offscreen():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import qInstallMessageHandler

    previous_handler = qInstallMessageHandler(_qt_message)
    try:
        return _show_window(sample, timeout)
    finally:
        qInstallMessageHandler(previous_handler)


def _show_window(sample: Path, timeout: float) -> str:
    from PySide6.QtCore import QEventLoop, QTimer

    from pdfdesk.gui import workers
    from pdfdesk.gui.app import build_window, create_application
    from pdfdesk.gui.viewer import shutdown

    app = create_application()  # a platform plugin that cannot load is fatal in here
    window = build_window([str(sample)])
    outcome: dict[str, Any] = {}
    waiting, deadline = QEventLoop(), QTimer()

    def finish(key: str, value: Any) -> None:
        outcome.setdefault(key, value)
        waiting.quit()

    try:
        window.show()
        tab = window.find_tab(str(sample))
        if tab is None:
            raise WindowCheckFailed(f"the window shows no tab for {sample.name}")
        tab.view.firstPagePainted.connect(lambda: finish("painted", True))
        tab.documentFailed.connect(lambda details: finish("failed", details.get("message")))
        deadline.setSingleShot(True)
        deadline.timeout.connect(lambda: finish("timeout", True))
        deadline.start(int(timeout * 1000))
        waiting.exec()
        if "failed" in outcome:
            raise WindowCheckFailed(f"the viewer could not open {sample.name}: {outcome['failed']}")
        if "painted" not in outcome:
            raise WindowCheckFailed(f"no page was painted within {timeout:g} s")
        platform = app.platformName()
    finally:
        deadline.stop()
        window.close()
        window.deleteLater()
        app.processEvents()
        shutdown()
        workers.wait_idle(5000)
    return f"window painted page 1 ({platform})"
