"""Page rendering in a helper process, so MuPDF's work never holds up the UI thread.

PyMuPDF keeps Python's GIL for the whole of a render. In the viewer's worker thread that means the
UI thread, whenever it wants the GIL back (every event it handles), waits for the render in
progress: measured, UI stalls equal to render times — 10-40 ms for a text page, hundreds of ms for
a scan or a dense drawing. A separate process has its own GIL. It renders with the same function
as `pdf_render_page` (`pdfdesk.core.render.render_pixmap` under `open_source`), and sends the
pixels back over a pipe; the worker thread waits for them with the GIL released. A page that
crashes MuPDF takes down only the helper, which is restarted.

One helper serves every open document (renders are serialised by MuPDF's lock anyway). It starts
in the background when the first view is created; until it is ready (about half a second), on
Windows and with PDFDESK_RENDER_PROCESS=0, the worker renders in its own thread.

Protocol (multiprocessing.connection messages over two pipes): request (source, password, page
index, scale, clip) -> ("ok", width, height, row bytes) followed by the raw RGB rows, each padded to
a multiple of 4 bytes as a QImage lays them out, so the parent reads them straight into the image's
memory (no extra copy); or ("error", message).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from pdfdesk.core.references import PdfSource

if TYPE_CHECKING:  # the helper process itself never loads Qt
    from PySide6.QtGui import QImage

READY = "ready"
BACKGROUND_NICENESS = 10


class RenderFailed(Exception):
    """The page could not be rendered (damaged page); the message is for the user."""


class HelperUnavailable(Exception):
    """No helper process right now (starting, died, or not supported): render in-thread."""


def _helper_command() -> list[str]:
    """How to start the helper: `python -m` here, the bundle's own executable with a hidden flag
    in a frozen (PyInstaller) build, which has no `-m`."""
    if getattr(sys, "frozen", False):
        from pdfdesk.cli import RENDER_HELPER_FLAG

        return [sys.executable, RENDER_HELPER_FLAG]
    return [sys.executable, "-m", "pdfdesk.gui.viewer.render_process"]


class RenderHelper:
    """The parent's handle on the helper process; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one request/response exchange at a time
        self._process: subprocess.Popen | None = None
        self._to_child: Connection | None = None
        self._from_child: Connection | None = None
        self._ready = False
        # POSIX only (inherited pipe descriptors, os.readv).
        self.enabled = os.name == "posix" and os.environ.get("PDFDESK_RENDER_PROCESS", "1") != "0"
        self.restarts = 0

    # --- lifecycle ------------------------------------------------------------------------------------
    def start(self) -> None:
        """Launch the helper if it is not running (returns at once; it becomes ready later).
        Called on the UI thread: when a worker holds the lock, a render is under way, so the
        helper is running and there is nothing to wait for."""
        if not self._lock.acquire(blocking=False):
            return
        try:
            self._start_locked()
        finally:
            self._lock.release()

    def _start_locked(self) -> None:
        if not self.enabled or (self._process is not None and self._process.poll() is None):
            return
        self._close_locked()
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        try:
            self._process = subprocess.Popen(
                [*_helper_command(), str(request_read), str(reply_write)],
                pass_fds=(request_read, reply_write), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                close_fds=True,
            )
        except (OSError, ValueError):
            self.enabled = False
            for fd in (request_read, request_write, reply_read, reply_write):
                os.close(fd)
            return
        os.close(request_read)
        os.close(reply_write)
        _widen_pipe(reply_read)
        self._to_child = Connection(request_write, readable=False)
        self._from_child = Connection(reply_read, writable=False)
        self._ready = False

    def ready(self) -> bool:
        """True once the helper has announced itself (never blocks)."""
        if self._ready:
            return True
        with self._lock:
            if self._ready or self._from_child is None:
                return self._ready
            try:
                if self._from_child.poll(0):
                    self._ready = self._from_child.recv() == READY
            except (EOFError, OSError):
                self._close_locked()
            return self._ready

    def pid(self) -> int | None:
        return self._process.pid if self._process is not None and self._process.poll() is None else None

    def stop(self) -> None:
        with self._lock:
            self._close_locked()

    def _close_locked(self) -> None:
        for conn in (self._to_child, self._from_child):
            if conn is not None:
                try:
                    conn.close()
                except OSError:
                    pass
        self._to_child = self._from_child = None
        self._ready = False
        if self._process is not None:
            if self._process.poll() is None:
                self._process.terminate()
                try:
                    self._process.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
            self._process = None

    # --- rendering ------------------------------------------------------------------------------------
    def render(self, source: PdfSource, password: str | None, page_index: int, scale: float,
               clip: tuple[float, float, float, float] | None) -> QImage:
        """An RGB888 image of one page or tile; RenderFailed for a bad page, HelperUnavailable
        when the caller should render itself."""
        from PySide6.QtGui import QImage

        if not self.ready():
            raise HelperUnavailable()
        with self._lock:
            if self._to_child is None or self._from_child is None:
                raise HelperUnavailable()
            try:
                self._to_child.send((source, password, page_index, scale, clip))
                reply = self._from_child.recv()
                if reply[0] == "ok":
                    _, width, height, row_bytes = reply
                    image = QImage(width, height, QImage.Format.Format_RGB888)
                    if image.isNull() or image.bytesPerLine() != row_bytes:
                        raise OSError("image layout mismatch")  # cannot happen with Qt's 4-byte rows
                    _read_exactly(self._from_child.fileno(), memoryview(image.bits()))
                    return image
            except (EOFError, OSError, BrokenPipeError):
                # The helper died (MuPDF crashed on this page?): restart it for the next request.
                self.restarts += 1
                self._close_locked()
                self._start_locked()
                raise RenderFailed(f"Page {page_index + 1} crashed the renderer; it cannot be displayed.") from None
        raise RenderFailed(str(reply[1]))


HELPER = RenderHelper()


F_SETPIPE_SZ = 1031  # Linux fcntl: a pipe of 1 MiB moves a page image in a few reads, not dozens


def _widen_pipe(fd: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, F_SETPIPE_SZ, 1 << 20)
    except (ImportError, OSError):  # not Linux, or above /proc/sys/fs/pipe-max-size: keep the default
        pass


def _read_exactly(fd: int, target: memoryview) -> None:
    """Fill `target` from the pipe (os.readv releases the GIL and copies once, kernel to image)."""
    done, size = 0, target.nbytes
    while done < size:
        count = os.readv(fd, [target[done:]])
        if count == 0:
            raise EOFError("render helper closed the pipe")
        done += count


def _write_all(fd: int, data: memoryview) -> None:
    done, size = 0, data.nbytes
    while done < size:
        done += os.write(fd, data[done:])


def _qimage_rows(pixmap) -> tuple[int, memoryview]:
    """The pixmap's rows padded to 4-byte multiples (QImage's layout) and the padded row size."""
    stride = pixmap.stride
    samples = pixmap.samples_mv
    padded = (stride + 3) & ~3
    if padded == stride:
        return stride, samples
    out = bytearray(padded * pixmap.height)
    for row in range(pixmap.height):
        out[row * padded:row * padded + stride] = samples[row * stride:(row + 1) * stride]
    return padded, memoryview(out)


# --- the helper process ---------------------------------------------------------------------------------
def _serve(requests: Connection, replies: Connection) -> None:
    import pymupdf

    from pdfdesk.core.documents import open_source
    from pdfdesk.core.errors import PdfDeskError
    from pdfdesk.core.render import render_pixmap

    replies.send(READY)
    while True:
        try:
            source, password, page_index, scale, clip = requests.recv()
        except (EOFError, OSError):
            return  # the application closed the pipe: exit quietly
        try:
            with open_source(source, password) as opened:
                page = opened.doc.load_page(page_index)
                pixmap = render_pixmap(page, scale, clip=pymupdf.Rect(clip) if clip is not None else None)
        except PdfDeskError as exc:
            replies.send(("error", exc.message))
            continue
        except Exception as exc:  # MuPDF's plain errors on a damaged page
            replies.send(("error", f"Page {page_index + 1} cannot be displayed: {exc}."))
            continue
        row_bytes, rows = _qimage_rows(pixmap)
        replies.send(("ok", pixmap.width, pixmap.height, row_bytes))
        _write_all(replies.fileno(), rows)
        del rows, pixmap


def main(argv: list[str]) -> int:
    try:
        os.nice(BACKGROUND_NICENESS)  # on a busy machine the UI thread, not page rendering, gets the CPU
    except (AttributeError, OSError):
        pass
    requests = Connection(int(argv[0]), writable=False)
    replies = Connection(int(argv[1]), readable=False)
    try:
        _serve(requests, replies)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
