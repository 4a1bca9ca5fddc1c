"""What the window, its tabs and the view actions use of a document view.

`DocumentView` is the implementation; tests may give the window a lighter stand-in, so callers
type against this protocol rather than the class. Implementations are QWidgets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import Qt, SignalInstance


class PageView(Protocol):
    documentOpened: SignalInstance  # page count
    openFailed: SignalInstance  # error details
    passwordRequired: SignalInstance  # wrong password given
    currentPageChanged: SignalInstance  # 1-based page
    zoomChanged: SignalInstance  # factor
    historyChanged: SignalInstance  # can go back, can go forward

    @property
    def page_count(self) -> int: ...

    @property
    def current_page(self) -> int: ...

    @property
    def zoom(self) -> float: ...

    @property
    def zoom_mode(self) -> str: ...

    @property
    def can_go_back(self) -> bool: ...

    @property
    def can_go_forward(self) -> bool: ...

    def open_document(self, reference: str, password: str | None = None) -> None: ...

    def close_document(self) -> None: ...

    def go_to_page(self, page: int, rects: Sequence[tuple[float, float, float, float]] = (),
                   record: bool = True) -> None: ...

    def set_zoom(self, factor: float) -> None: ...

    def zoom_in(self) -> None: ...

    def zoom_out(self) -> None: ...

    def fit_width(self) -> None: ...

    def fit_page(self) -> None: ...

    def back(self) -> None: ...

    def forward(self) -> None: ...

    def show_find_bar(self) -> None: ...

    def setFocus(self, reason: Qt.FocusReason) -> None: ...
