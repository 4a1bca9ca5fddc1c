"""Reading a view's place as a `DocumentPosition` and showing a view at one.

The place is the current page, the zoom and the point of that page at the viewport's top-left (in
PDF points, so it survives another window size or zoom). A view without scroll bars (a lighter
stand-in) keeps just the page and the zoom.
"""

from __future__ import annotations

from typing import Any

from pdfdesk.core.positions import DocumentPosition
from pdfdesk.gui.viewer.contract import PageView
from pdfdesk.gui.viewer.zoom import ZOOM_CUSTOM, ZOOM_FIT_PAGE, ZOOM_FIT_WIDTH

SAME_PLACE_PT = 24.0  # two places this close on the same page are the same to a reader


def _page_rect(view: PageView, page: int) -> Any | None:
    rect_of = getattr(view, "page_rect_in_viewport", None)
    return rect_of(page) if callable(rect_of) and hasattr(view, "verticalScrollBar") else None


def read_position(view: PageView) -> DocumentPosition | None:
    """Where `view` is; None when it shows no document."""
    if not view.page_count:
        return None
    page = max(1, min(view.current_page, view.page_count))
    zoom = view.zoom
    rect = _page_rect(view, page)
    if rect is None or zoom <= 0:
        return DocumentPosition(page, zoom, view.zoom_mode)
    return DocumentPosition(page, zoom, view.zoom_mode, -rect.x() / zoom, -rect.y() / zoom)


def show_position(view: PageView, position: DocumentPosition) -> None:
    """Show `view` (an open document) at `position`: the zoom first, then the page, then the spot."""
    if position.zoom_mode == ZOOM_FIT_WIDTH:
        view.fit_width()
    elif position.zoom_mode == ZOOM_FIT_PAGE:
        view.fit_page()
    else:
        view.set_zoom(position.zoom)
    page = max(1, min(position.page, view.page_count))
    view.go_to_page(page, record=False)
    rect = _page_rect(view, page)
    if rect is None:
        return
    zoom = view.zoom
    vbar, hbar = view.verticalScrollBar(), view.horizontalScrollBar()  # type: ignore[attr-defined]
    vbar.setValue(round(vbar.value() + rect.y() + position.y_pt * zoom))
    if position.zoom_mode not in (ZOOM_FIT_WIDTH, ZOOM_FIT_PAGE):
        hbar.setValue(round(hbar.value() + rect.x() + position.x_pt * zoom))


def same_place(a: DocumentPosition | None, b: DocumentPosition | None) -> bool:
    """True when `a` and `b` show a reader the same thing (tiny layout shifts aside)."""
    if a is None or b is None:
        return a is b
    return a.page == b.page and a.zoom_mode == b.zoom_mode and abs(a.y_pt - b.y_pt) < SAME_PLACE_PT and (
        a.zoom_mode != ZOOM_CUSTOM or abs(a.zoom - b.zoom) < 1e-3)
