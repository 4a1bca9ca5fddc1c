"""Fixtures for the window tests: the main window built as `pdfdesk FILE…` builds it, a qasync loop,
an in-memory keyring, and helpers to wait for the worker pool.

The viewer (`pdfdesk.gui.viewer`) is built by another helper at the same time; until it can be
imported, `StandInView` below implements its public contract (open in a worker, signals,
go_to_page with highlights) so the shell's own behaviour can be tested meanwhile.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
import shiboken6

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from pdfdesk.gui import workers


class StandInView(QWidget):
    """What the window uses of a DocumentView (PageView and its signals), with the core doing the
    opening; no rendering."""

    documentOpened = Signal(int)
    openFailed = Signal(dict)
    passwordRequired = Signal(bool)
    currentPageChanged = Signal(int)
    zoomChanged = Signal(float)
    historyChanged = Signal(bool, bool)
    firstPagePainted = Signal()
    selectionChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reference: str | None = None
        self.page_count = 0
        self.current_page = 1
        self.zoom = 1.0
        self.zoom_mode = "fit_width"
        self._highlights: tuple[int, list] | None = None
        self._back: list[int] = []
        self._forward: list[int] = []

    def open_document(self, reference: str, password: str | None = None) -> None:
        from pdfdesk.core.documents import open_pdf

        self.reference = reference

        def open_it() -> int:
            with open_pdf(reference, password) as opened:
                return opened.page_count

        def failed(details: dict) -> None:
            if details.get("error") in ("password_required", "wrong_password"):
                self.passwordRequired.emit(details["error"] == "wrong_password")
            else:
                self.openFailed.emit(details)

        def opened(count: int) -> None:
            self.page_count = count
            self.documentOpened.emit(count)
            self.currentPageChanged.emit(1)
            self.firstPagePainted.emit()

        workers.submit(open_it, owner=self, on_done=opened, on_error=failed)

    def go_to_page(self, page: int, rects: Sequence = (), record: bool = True) -> None:
        if record:
            self._back.append(self.current_page)
            self._forward.clear()
        self.current_page = page
        self._highlights = (page, [tuple(r) for r in rects]) if rects else None
        self.currentPageChanged.emit(page)
        self.historyChanged.emit(bool(self._back), bool(self._forward))

    def highlights(self) -> tuple[int, list] | None:
        return self._highlights

    def set_highlights(self, page: int, rects: Sequence) -> None:
        self._highlights = (page, [tuple(r) for r in rects])

    def clear_highlights(self) -> None:
        self._highlights = None

    def set_zoom(self, factor: float) -> None:
        self.zoom, self.zoom_mode = factor, "custom"
        self.zoomChanged.emit(factor)

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom * 1.25)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom / 1.25)

    def fit_width(self) -> None:
        self.zoom_mode = "fit_width"
        self.zoomChanged.emit(self.zoom)

    def fit_page(self) -> None:
        self.zoom_mode = "fit_page"
        self.zoomChanged.emit(self.zoom)

    @property
    def can_go_back(self) -> bool:
        return bool(self._back)

    @property
    def can_go_forward(self) -> bool:
        return bool(self._forward)

    def back(self) -> None:
        if self._back:
            self._forward.append(self.current_page)
            self.go_to_page(self._back.pop(), record=False)

    def forward(self) -> None:
        if self._forward:
            self._back.append(self.current_page)
            self.go_to_page(self._forward.pop(), record=False)

    def selected_text(self) -> str:
        return ""

    def copy_selection(self) -> None:
        pass

    def show_find_bar(self) -> None:
        pass

    def close_document(self) -> None:
        self.reference = None


def _real_viewer() -> tuple[Any, Any] | None:
    try:
        from pdfdesk.gui.viewer import DocumentView, ThumbnailPanel
    except ImportError:
        return None
    return DocumentView, ThumbnailPanel


REAL_VIEWER = _real_viewer()


@pytest.fixture
def factories() -> dict[str, Any]:
    """View and thumbnail factories: the real viewer when it is importable, else the stand-in."""
    if REAL_VIEWER is not None:
        return {}
    return {"view_factory": lambda parent: StandInView(parent), "thumbnail_factory": None}


def view_highlights(view: Any) -> tuple[int, list] | None:
    """(page, rects) the view currently highlights."""
    return view.highlights()


@pytest.fixture
def make_window(qtbot: Any, factories: dict[str, Any]) -> Iterator[Any]:
    """Build the main window the way `pdfdesk FILE…` does (`pdfdesk.gui.app.build_window`)."""
    from pdfdesk.gui.app import build_window

    windows: list[Any] = []

    def make(files: Sequence[str] = (), **extra: Any) -> Any:
        window = build_window([str(f) for f in files], **{**factories, **extra})
        qtbot.addWidget(window)
        window.show()
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()
    workers.wait_idle(10_000)
    from pdfdesk.index.owner import default_owner

    default_owner().stop()  # the window's indexing owner (and its child build) ends with the test


@pytest.fixture
def qasync_loop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """An asyncio loop running on Qt's event loop while pytest-qt processes events (as in the app)."""
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    yield loop
    for task in asyncio.all_tasks(loop):
        task.cancel()
    try:
        qapp.aboutToQuit.disconnect(loop._after_run_forever)
    except (RuntimeError, TypeError):
        pass
    loop._after_run_forever()
    # not loop.stop(): it calls QApplication.exit(), which would end the next test's waits early
    loop._QEventLoop__is_running = False
    asyncio.events._set_running_loop(None)
    loop.close()
    asyncio.set_event_loop(None)
    # qasync's timer object keeps its Qt timers registered after close(); delete it here, on the
    # UI thread, before the garbage collector frees it from another thread (a dangling timer crashes)
    shiboken6.delete(loop._timer)


@pytest.fixture
def memory_keyring() -> Iterator[Any]:
    """keyring backed by a dict: no test touches the real OS keyring."""
    import keyring

    from tests.agent.support import MemoryKeyring

    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def view(qtbot: Any) -> Iterator[Any]:
    """A real DocumentView, 800 x 600, shown; its document closed and its threads joined after."""
    from pdfdesk.gui.viewer import DocumentView, threads

    widget = DocumentView()
    widget.open_external_links = False
    qtbot.addWidget(widget)
    widget.resize(800, 600)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.close_document()
    assert threads.join_all(10_000)  # the render helper process stays for the next test
