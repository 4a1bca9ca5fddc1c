"""Page rendering in a helper process, so MuPDF's work never holds up the UI thread.

PyMuPDF keeps Python's GIL for the whole of a render. In the viewer's worker thread that means the
UI thread, whenever it wants the GIL back (every event it handles), waits for the render in
progress: measured, UI stalls equal to render times — 10-40 ms for a text page, hundreds of ms for
a scan or a dense drawing. A separate process has its own GIL. It renders with the same function
as `pdf_render_page` (`pdfdesk.core.render.render_pixmap` under `open_source`), and sends the
pixels back over a pipe; the worker thread waits for them with the GIL released. A page that
crashes MuPDF, overruns RENDER_DEADLINE_S or passes RENDER_MEMORY_MB takes down only the helper,
which is restarted; the page shows an error.

The helper is a `core.childproc.ChildWorker` at background priority (on a busy machine the UI
thread, not page rendering, gets the CPU), so it starts the way every pdfdesk child does, in a
frozen bundle too. One helper serves every open document (renders are serialised by MuPDF's lock
anyway). It starts in the background when the first view is created; until it is ready (about
half a second), on Windows and with PDFDESK_RENDER_PROCESS=0, the worker renders in its own thread.

Protocol: request (source, password, page index, scale, clip) -> RawReply(("ok", width, height,
row bytes), rows), the raw RGB rows padded to a multiple of 4 bytes as a QImage lays them out, so
the parent reads them straight into the image's memory (no extra copy); or ("error", message).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pdfdesk.core.childproc import DEADLINE, OUT_OF_MEMORY, ChildFailed, ChildWorker, Priority, RawReply
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.core.references import PdfSource

if TYPE_CHECKING:  # the helper process itself never loads Qt
    from PySide6.QtGui import QImage

READY = "ready"
RENDER_DEADLINE_S = 30.0   # a page still rendering after this is hostile; the viewer shows an error instead
RENDER_MEMORY_MB = 4096    # address space of the helper, as for the tool workers
LAUNCH_WAIT_S = 60.0       # pid() waits this long for a launch under way


class RenderFailed(Exception):
    """The page could not be rendered (damaged page); the message is for the user."""


class HelperUnavailable(Exception):
    """No helper process right now (starting, died, or not supported): render in-thread."""


class RenderHelper:
    """The parent's handle on the helper process; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one request/response exchange (or launch) at a time
        self._worker = ChildWorker(_renderer, name="pdfdesk-render-helper", priority=Priority.BACKGROUND,
                                   memory_mb=RENDER_MEMORY_MB)
        self._ready = False
        self._launched = threading.Event()  # clear while a launch is under way
        self._launched.set()
        # POSIX only (os.readv into the image).
        self.enabled = os.name == "posix" and os.environ.get("PDFDESK_RENDER_PROCESS", "1") != "0"
        self.restarts = 0

    # --- lifecycle ------------------------------------------------------------------------------------
    def start(self) -> None:
        """Launch the helper if it is not running; returns at once (it becomes ready later).
        Called on the UI thread, so the launch itself runs on a short-lived thread: the first child
        of a process also starts multiprocessing's fork server, tens of milliseconds."""
        if not self.enabled or not self._launched.is_set() or self._worker.alive():
            return
        self._launched.clear()
        try:
            threading.Thread(target=self._launch, name="pdfdesk-render-helper-start", daemon=True).start()
        except RuntimeError:  # no new threads (the interpreter is shutting down)
            self._launched.set()

    def _launch(self) -> None:
        try:
            with self._lock:
                self._start_locked()
        finally:
            self._launched.set()

    def _start_locked(self) -> None:
        if not self.enabled or self._worker.alive():
            return
        self._ready = False
        try:
            self._worker.start()
        except (OSError, RuntimeError, ValueError):
            self.enabled = False  # cannot start processes here: render in-thread from now on

    def ready(self) -> bool:
        """True once the helper has announced itself (never blocks: False while a launch or a
        restart is under way)."""
        if self._ready:
            return True
        if not self._lock.acquire(blocking=False):
            return False
        try:
            self._ready = self._worker.wait_ready(0)
            return self._ready
        finally:
            self._lock.release()

    def pid(self) -> int | None:
        """The helper's process id; None when it is not running (a launch under way is waited for)."""
        self._launched.wait(LAUNCH_WAIT_S)
        return self._worker.pid

    def stop(self) -> None:
        self._launched.wait(LAUNCH_WAIT_S)
        with self._lock:
            self._ready = False
            self._worker.kill()

    # --- rendering ------------------------------------------------------------------------------------
    def render(self, source: PdfSource, password: str | None, page_index: int, scale: float,
               clip: tuple[float, float, float, float] | None) -> QImage:
        """An RGB888 image of one page or tile; RenderFailed for a bad page, HelperUnavailable
        when the caller should render itself."""
        from PySide6.QtGui import QImage

        if not self.ready():
            raise HelperUnavailable()
        images: list[QImage] = []

        def into(header: tuple[Any, ...]) -> memoryview | None:
            _, width, height, row_bytes = header
            image = QImage(width, height, QImage.Format.Format_RGB888)
            if image.isNull() or image.bytesPerLine() != row_bytes:
                return None  # cannot happen with Qt's 4-byte rows; the toolkit then raises ValueError
            images.append(image)
            return memoryview(image.bits())

        with self._lock:
            if not self._ready:
                raise HelperUnavailable()  # stopped meanwhile
            try:
                reply = self._worker.call((source, password, page_index, scale, clip), RENDER_DEADLINE_S, into=into)
            except ChildFailed as exc:
                # The helper died (MuPDF crashed on this page?) or was stopped: restart it for the next request.
                self._ready = False
                self.restarts += 1
                self._start_locked()
                raise RenderFailed(_failure_message(page_index, exc)) from None
            except (PdfDeskError, ValueError) as exc:  # the helper is fine; this page is not
                raise RenderFailed(f"Page {page_index + 1} cannot be displayed: {exc}.") from None
        if reply[0] == "ok":
            return images[0]
        raise RenderFailed(str(reply[1]))


def _failure_message(page_index: int, exc: Exception) -> str:
    page = f"Page {page_index + 1}"
    if isinstance(exc, ChildFailed) and exc.reason == DEADLINE:
        return f"{page} took longer than {RENDER_DEADLINE_S:g} s to render and was stopped; it cannot be displayed."
    if isinstance(exc, ChildFailed) and exc.reason == OUT_OF_MEMORY:
        return f"{page} needs more memory than the renderer may use; it cannot be displayed."
    return f"{page} crashed the renderer; it cannot be displayed."


def _qimage_rows(pixmap: Any) -> tuple[int, memoryview]:
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
def _renderer() -> Callable[[tuple[Any, ...]], Any]:
    """Runs once in the helper: MuPDF imported before the first request is timed; returns the
    handler that renders one request."""
    import pymupdf

    from pdfdesk.core.documents import open_source
    from pdfdesk.core.render import render_pixmap

    def render(request: tuple[Any, ...]) -> Any:
        source, password, page_index, scale, clip = request
        try:
            with open_source(source, password) as opened:
                page = opened.doc.load_page(page_index)
                pixmap = render_pixmap(page, scale, clip=pymupdf.Rect(clip) if clip is not None else None)
        except PdfDeskError as exc:
            return ("error", exc.message)
        except MemoryError:
            raise  # the toolkit reports it and replaces the helper
        except Exception as exc:  # MuPDF's plain errors on a damaged page
            return ("error", f"Page {page_index + 1} cannot be displayed: {exc}.")
        row_bytes, rows = _qimage_rows(pixmap)
        return RawReply(("ok", pixmap.width, pixmap.height, row_bytes), rows, owner=pixmap)

    return render


HELPER = RenderHelper()

