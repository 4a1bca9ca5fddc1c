"""One tab: a document's view plus its side panels, its password prompt and its error banner.

The view (`pdfdesk.gui.viewer.DocumentView`) opens the file in a worker and reports back with
signals; this tab turns `passwordRequired` into a non-blocking password dialog, `openFailed` into
a banner and a warning tab title, and queues navigation asked for before the document is open
(a search hit or a citation in a document that is still loading). It also keeps the place the
document should open at (from the last session or the reader's last visit): shown once it opens,
and reported as the tab's position until then, so a tab that never opened keeps its place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from pdfdesk.core.positions import DocumentPosition
from pdfdesk.core.references import display_name, normalise_reference
from pdfdesk.gui.outline_panel import OutlinePanel
from pdfdesk.gui.password_dialog import PasswordDialog
from pdfdesk.gui.richtext import esc
from pdfdesk.gui.view_position import read_position, same_place, show_position
from pdfdesk.gui.viewer.contract import PageView

LOADING, OPEN, LOCKED, FAILED = "loading", "open", "locked", "failed"
Rect = tuple[float, float, float, float]
ViewFactory = Callable[[QWidget], PageView]  # parent -> DocumentView (a QWidget)
ThumbnailFactory = Callable[[PageView, "QWidget | None"], QWidget]  # (view, parent) -> ThumbnailPanel


def _mark(symbol: str, fallback: str) -> str:
    """`symbol` when the UI font can draw it (minimal systems lack emoji fonts), else `fallback`."""
    return symbol if QFontMetrics(QApplication.font()).inFontUcs4(ord(symbol)) else fallback


class DocumentTab(QWidget):
    titleChanged = Signal(str)
    documentOpened = Signal(int)
    documentFailed = Signal(dict)

    def __init__(self, reference: str, view_factory: ViewFactory,
                 thumbnail_factory: ThumbnailFactory | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reference = normalise_reference(reference)
        self.name = display_name(reference)
        self.password: str | None = None
        self.state = LOADING
        self.error: dict[str, Any] | None = None
        self.page_count = 0
        self.password_dialog: PasswordDialog | None = None
        self._pending: tuple[int, tuple[Rect, ...]] | None = None
        self.start_position: DocumentPosition | None = None  # shown once the document opens
        self.place_given = False  # a place to start at was given (session, or the last visit)
        self.opened_at: DocumentPosition | None = None  # where the view was once opening settled

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.banner = self._build_banner()
        layout.addWidget(self.banner)
        view = view_factory(self)
        if not isinstance(view, QWidget):
            raise TypeError(f"a document view must be a QWidget, not {type(view).__name__}")
        self.view = view
        layout.addWidget(view, 1)
        self.setFocusProxy(self.view)
        self.outline = OutlinePanel()
        self.outline.pageActivated.connect(lambda page: self.go_to(page))
        self.thumbnails = thumbnail_factory(self.view, None) if thumbnail_factory else None

        self.view.documentOpened.connect(self._opened)
        self.view.openFailed.connect(self._failed)
        self.view.passwordRequired.connect(self._password_required)

    def _build_banner(self) -> QFrame:
        banner = QFrame(self)
        banner.setObjectName("documentBanner")
        banner.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(banner)
        row.setContentsMargins(8, 4, 8, 4)
        self.banner_text = QLabel(banner)
        self.banner_text.setWordWrap(True)
        self.banner_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner_button = QPushButton(banner)
        self.banner_button.clicked.connect(self._banner_action)
        row.addWidget(self.banner_text, 1)
        row.addWidget(self.banner_button)
        banner.hide()
        return banner

    # -- opening -----------------------------------------------------------------------------
    def open(self, password: str | None = None) -> None:
        self.state, self.error = LOADING, None
        self.password = password
        self.banner.hide()
        self.titleChanged.emit(self.title())
        self.view.open_document(self.reference, password)

    def title(self) -> str:
        if self.state == LOCKED:
            return f"{_mark('🔒', '[locked]')} {self.name}"
        if self.state == FAILED:
            return f"{_mark('⚠', '[error]')} {self.name}"
        return self.name

    def tooltip(self) -> str:
        if self.state == FAILED and self.error:
            return f"{self.reference}\n{self.error.get('message', '')}"
        return self.reference

    def _opened(self, page_count: int) -> None:
        self.state, self.page_count, self.error = OPEN, page_count, None
        self.banner.hide()
        self.titleChanged.emit(self.title())
        self.outline.load(self.reference, self.password)
        start, self.start_position = self.start_position, None
        if start is not None:
            show_position(self.view, start)
        self.documentOpened.emit(page_count)
        if self._pending is not None:
            page, rects = self._pending
            self._pending = None
            self.go_to(page, rects)
        self.opened_at = read_position(self.view)

    def _failed(self, details: dict) -> None:
        self.state, self.error = FAILED, dict(details)
        # the view paints the message and hint in place; the banner offers the retry
        self._show_banner(f"<b>{esc(self.name)}</b> could not be opened ({esc(details.get('error', 'error'))}).",
                          "Try again")
        self.titleChanged.emit(self.title())
        self.documentFailed.emit(self.error)

    def _password_required(self, wrong: bool) -> None:
        self.state = LOCKED
        self.titleChanged.emit(self.title())
        self._show_banner(f"<b>{esc(self.name)}</b> is encrypted." +
                          (" The password was not correct." if wrong else ""), "Enter password…")
        self.ask_password(wrong)

    def ask_password(self, wrong: bool = False) -> None:
        """Open the password dialog (non-blocking); OK reopens the document with the password."""
        if self.password_dialog is not None:
            self.password_dialog.close()
        dialog = PasswordDialog(self.name, wrong, self.window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.passwordEntered.connect(self.open)
        dialog.destroyed.connect(lambda *_: setattr(self, "password_dialog", None))
        self.password_dialog = dialog
        dialog.open()

    def _show_banner(self, html: str, action: str) -> None:
        self.banner_text.setText(html)
        self.banner_button.setText(action)
        self.banner.show()

    def _banner_action(self) -> None:
        if self.state == LOCKED:
            self.ask_password(False)
        elif self.state == FAILED:
            self.open(self.password)

    # -- navigation --------------------------------------------------------------------------
    def go_to(self, page: int, rects: Sequence[Rect] = ()) -> None:
        """Show `page` (highlighting `rects`); queued until the document has opened."""
        rects = tuple((r[0], r[1], r[2], r[3]) for r in rects)
        if self.state != OPEN:
            self._pending = (page, rects)
            return
        page = max(1, min(page, self.page_count or page))
        self.view.go_to_page(page, rects)

    def show_recognition(self, waiting: Sequence[int], fingerprint: str | None = None) -> None:
        """Indexing's news about the scanned pages (1-based pages still waiting for recognition),
        for a view that marks them and reads the others' recognised words (a stand-in may not)."""
        show = getattr(self.view, "show_recognition", None)
        if show is not None and self.state == OPEN:
            show(waiting, fingerprint)

    def start_at(self, position: DocumentPosition) -> None:
        """Show the document at `position`: now when it is open, else as soon as it opens."""
        self.place_given = True
        if self.state != OPEN:
            self.start_position = position
            return
        show_position(self.view, position)
        self.opened_at = read_position(self.view)

    def position(self) -> DocumentPosition | None:
        """Where the reader is (or, before the document opened, where it will open); None if nowhere."""
        if self.state != OPEN:
            return self.start_position
        return read_position(self.view)

    def moved_since_open(self) -> bool:
        """True when the reader (or a jump) took the view away from where it opened."""
        return self.state == OPEN and not same_place(self.opened_at, read_position(self.view))

    def close_document(self) -> None:
        if self.password_dialog is not None:
            self.password_dialog.close()
        self.view.close_document()
        self.outline.deleteLater()
        if self.thumbnails is not None:
            self.thumbnails.deleteLater()
