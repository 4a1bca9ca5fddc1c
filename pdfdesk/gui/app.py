"""Start the desktop app: QApplication, the qasync event loop, one instance per user, the window.

qasync runs asyncio on Qt's event loop, so the chat pane can await the agent (network streams,
tools in threads) on the UI thread without blocking it. A second `pdfdesk FILE…` finds the first
through a local socket, hands its files over and exits, so a file manager's "Open with" lands in
the window already open.
"""

from __future__ import annotations

import asyncio
import getpass
import hashlib
import json
import logging
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, cast

import qasync
from PySide6.QtCore import QByteArray, QEvent, QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFileOpenEvent, QFont, QIcon, QPainter, QPainterPath, QPixmap
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QApplication

from pdfdesk import __version__
from pdfdesk.core import paths

log = logging.getLogger(__name__)

HANDOVER_TIMEOUT_MS = 2000


def server_name() -> str:
    """One name per user and data folder (PDFDESK_HOME isolates portable installs and tests)."""
    try:
        user = getpass.getuser()
    except Exception:  # no login name in some containers
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    folder = hashlib.blake2b(str(paths.app_data_dir()).encode(), digest_size=6).hexdigest()
    return f"pdfdesk-{user}-{folder}"


class SingleInstance(QObject):
    """The first instance listens; later ones send their files and get an acknowledgement."""

    filesReceived = Signal(list)

    def __init__(self, name: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name or server_name()
        self.server: QLocalServer | None = None

    def hand_over(self, files: Sequence[str], timeout_ms: int = HANDOVER_TIMEOUT_MS) -> bool:
        """Send `files` to a running instance; True when it acknowledged them."""
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(timeout_ms):
            return False
        payload = json.dumps({"open": [os.path.abspath(f) if "://" not in f else f for f in files]}) + "\n"
        socket.write(QByteArray(payload.encode("utf-8")))
        socket.flush()  # may write everything at once; then there is nothing left to wait for
        if socket.bytesToWrite():
            socket.waitForBytesWritten(timeout_ms)
        reply = b""
        while b"\n" not in reply and socket.waitForReadyRead(timeout_ms):
            reply += bytes(socket.readAll().data())
        acknowledged = reply.startswith(b"ok")
        socket.disconnectFromServer()
        return acknowledged

    def listen(self) -> bool:
        """Become the instance others hand files to (a stale socket from a crash is removed)."""
        QLocalServer.removeServer(self.name)
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if not server.listen(self.name):
            log.warning("single instance: cannot listen on %s: %s", self.name, server.errorString())
            return False
        server.newConnection.connect(self._accept)
        self.server = server
        return True

    def _accept(self) -> None:
        assert self.server is not None
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            buffer = bytearray()

            def read(socket: QLocalSocket = socket, buffer: bytearray = buffer) -> None:
                buffer.extend(bytes(socket.readAll().data()))
                if not buffer.endswith(b"\n"):
                    return
                try:
                    files = json.loads(buffer.decode("utf-8")).get("open", [])
                    files = [f for f in files if isinstance(f, str)]
                except (ValueError, AttributeError):
                    files = []
                socket.write(QByteArray(b"ok\n"))
                socket.flush()
                socket.disconnectFromServer()
                self.filesReceived.emit(files)

            socket.readyRead.connect(read)
            socket.disconnected.connect(socket.deleteLater)

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None


def app_icon() -> QIcon:
    """The window icon, drawn (a page with a folded corner and text lines) so it is sharp at any size."""
    icon = QIcon()
    for size in (16, 32, 48, 64, 128, 256):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        s = size / 64
        page = QPainterPath()
        page.moveTo(12 * s, 4 * s)
        page.lineTo(40 * s, 4 * s)
        page.lineTo(52 * s, 16 * s)
        page.lineTo(52 * s, 60 * s)
        page.lineTo(12 * s, 60 * s)
        page.closeSubpath()
        painter.fillPath(page, QColor("#ffffff"))
        painter.setPen(QColor("#2f5fb3"))
        painter.drawPath(page)
        painter.fillRect(QRectF(18 * s, 24 * s, 28 * s, 4 * s), QColor("#2f5fb3"))
        for y in (34, 42, 50):
            painter.fillRect(QRectF(18 * s, y * s, 28 * s, 2.5 * s), QColor("#9fb4d9"))
        if size >= 48:
            painter.setPen(QColor("#c0392b"))
            painter.setFont(QFont("Sans", int(7 * s), QFont.Weight.Bold))
            painter.drawText(QRectF(18 * s, 8 * s, 22 * s, 12 * s), Qt.AlignmentFlag.AlignLeft, "PDF")
        painter.end()
        icon.addPixmap(pixmap)
    return icon


def create_application(argv: Sequence[str] | None = None) -> QApplication:
    # pdfdesk only ever makes a QApplication, so an existing instance is one
    app = cast(QApplication, QApplication.instance() or QApplication(list(argv or sys.argv[:1])))
    app.setApplicationName("pdfdesk")
    app.setApplicationDisplayName("pdfdesk")
    app.setApplicationVersion(__version__)
    app.setOrganizationName("pdfdesk")
    app.setDesktopFileName("pdfdesk")
    app.setWindowIcon(app_icon())
    return app


def _log_uncaught(kind: type[BaseException], value: BaseException, tb: Any) -> None:
    """A bug in a slot is written to crash.log and the app keeps running; when crash.log cannot be
    written (read-only or full disk) one line says so on stderr, never a second traceback."""
    kept, where = paths.write_crash_log("".join(traceback.format_exception(kind, value, tb)))
    log.error("uncaught %s: %s (%s)", kind.__name__, value, where)
    if not kept:
        sys.stderr.write(f"pdfdesk: uncaught {kind.__name__}: {value} ({where})\n")


class FileOpenRequests(QObject):
    """macOS hands a PDF opened from Finder (or dropped on the Dock icon) to the running app as a
    FileOpen event, not as a command-line argument: open it like a second `pdfdesk FILE`."""

    filesReceived = Signal(list)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FileOpen and isinstance(event, QFileOpenEvent) and event.file():
            self.filesReceived.emit([event.file()])
            return True
        return super().eventFilter(watched, event)


def build_window(files: Sequence[str], **factories: Any) -> Any:
    """The main window opened on `files`, as `run` does; without files, on the last session (the
    bundled sample on first start)."""
    from pdfdesk.gui.main_window import MainWindow

    window = MainWindow(**factories)
    window.restore_layout()
    window.session.start(list(files), [str(paths.sample_pdf())])
    return window


SMOKE_TEST_ENV = "PDFDESK_SMOKE_TEST"  # set: open, report the first document, quit (packaging checks)
SMOKE_TEST_TIMEOUT_MS = 30_000


def _arm_smoke_test(window: Any, app: QApplication, status: list[int]) -> None:
    """Quit once the first document shows its pages (status 0) or fails to open (status 1)."""
    def report(text: str, code: int) -> None:
        if status[0] == -1:
            status[0] = code
            sys.stdout.write(f"pdfdesk: smoke test: {text}\n")
            sys.stdout.flush()
            QTimer.singleShot(0, app.quit)

    def opened(reference: str) -> None:
        tab = window.find_tab(reference)
        report(f"opened {tab.name if tab else reference} ({tab.page_count if tab else '?'} pages)", 0)

    window.documentOpened.connect(opened)
    for tab in window.document_tabs():
        tab.documentFailed.connect(lambda details, tab=tab: report(f"{tab.name}: {details.get('message')}", 1))
    QTimer.singleShot(SMOKE_TEST_TIMEOUT_MS, lambda: report("no document opened in time", 1))


def run(files: Sequence[str], single_instance: bool = True,
        window_hook: Callable[[Any], None] | None = None) -> int:
    """Run the app until its window closes; returns the exit status."""
    from pdfdesk.gui import theme

    smoke = bool(os.environ.get(SMOKE_TEST_ENV))
    single_instance = single_instance and not smoke
    status = [-1]
    app = create_application()
    instance = SingleInstance()
    if single_instance and instance.hand_over(files):
        sys.stdout.write("pdfdesk: handed the files to the window already open.\n")
        return 0
    sys.excepthook = _log_uncaught
    theme.follow_system(app)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = build_window(files)
    from pdfdesk.index.owner import default_owner

    default_owner().start()  # this window runs the indexing queue while it is open
    if single_instance and instance.listen():
        instance.filesReceived.connect(window.handle_remote_open)
    file_opens = FileOpenRequests(app)
    file_opens.filesReceived.connect(window.handle_remote_open)
    app.installEventFilter(file_opens)
    window.show()
    if smoke:
        _arm_smoke_test(window, app, status)
    if window_hook is not None:
        window_hook(window)
    try:
        with loop:
            loop.run_forever()
    finally:
        instance.close()
        from pdfdesk.gui import tool_calls, workers
        from pdfdesk.index.owner import default_owner

        workers.wait_idle(3000)
        tool_calls.shutdown()
        default_owner().stop()  # an unfinished index resumes at its last committed batch next time
    return max(status[0], 0)
