"""What the DocumentView mixins use of the view they are mixed into.

Geometry, rendering, painting, keys, the pointer, the annotation tools, the area tool, tables and
the context menu are mixins of `DocumentView`, and each reads state, signals and methods that another
part defines. They subclass `ViewHost`, which names all of that: for the type checker it is a
QAbstractScrollArea declaring the shared attributes and the methods one part provides to the
others (so a mixin using something nobody declares, or a part defining it with another signature,
is an error); at run time it is plain `object`, so the mixins' bases are what they always were.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from abc import abstractmethod
    from collections.abc import Callable, Iterable, Sequence

    from PySide6.QtCore import QPointF, QRectF, QTimer, Signal
    from PySide6.QtGui import QImage, QKeyEvent, QPainter
    from PySide6.QtWidgets import QAbstractScrollArea, QMenu

    from pdfdesk.gui.viewer import tiles
    from pdfdesk.gui.viewer.cache import ByteBudgetCache
    from pdfdesk.gui.viewer.find_bar import FindBar
    from pdfdesk.gui.viewer.history import Position
    from pdfdesk.gui.viewer.page_data import Link, Rect
    from pdfdesk.gui.viewer.render_queue import DocumentWorker
    from pdfdesk.gui.viewer.state import DocumentState

    Hit = tuple[int, float, float]  # page index, x_pt, y_pt

    class ViewHost(QAbstractScrollArea):
        # signals DocumentView defines and the mixins emit
        firstPagePainted = Signal()
        annotateRequested = Signal(dict)
        annotationClicked = Signal(str)
        annotationActivated = Signal(str)
        annotationEditRequested = Signal(str)
        annotationDeleteRequested = Signal(str)
        areaToolChanged = Signal(bool)
        previewReady = Signal(int)
        linkActivated = Signal(str)

        # state set up by DocumentView.__init__
        model: DocumentState
        open_external_links: bool
        open_started_at: float | None
        first_painted_at: float | None
        _worker: DocumentWorker | None
        _worker_box: list[DocumentWorker | None]
        _tiles: ByteBudgetCache[tiles.TileKey, QImage]
        _previews: ByteBudgetCache[int, QImage]
        _pending_goto: tuple[int, list[Rect], bool] | None
        _first_painted: bool
        _press: tuple[QPointF, int, float, float] | None  # viewport pos, page, x_pt, y_pt
        _press_link: Link | None
        _dragging: bool
        _find_bar: FindBar | None
        _autoscroll: QTimer
        _autoscroll_delta: int
        # set up by ViewRendering._init_rendering
        _scheduled_scale: int

        # DocumentView's own API
        @property
        @abstractmethod
        def zoom(self) -> float: ...

        @property
        @abstractmethod
        def page_count(self) -> int: ...

        @abstractmethod
        def go_to_page(self, page: int, rects: Sequence[tuple[float, float, float, float]] = (),
                       record: bool = True) -> None: ...

        @abstractmethod
        def set_zoom(self, factor: float) -> None: ...

        @abstractmethod
        def zoom_in(self) -> None: ...

        @abstractmethod
        def zoom_out(self) -> None: ...

        @abstractmethod
        def back(self) -> None: ...

        @abstractmethod
        def forward(self) -> None: ...

        @abstractmethod
        def clear_highlights(self) -> None: ...

        @abstractmethod
        def selected_text(self) -> str: ...

        @abstractmethod
        def copy_selection(self) -> None: ...

        @abstractmethod
        def select_all_on_page(self, page: int | None = None) -> None: ...

        @abstractmethod
        def clear_selection(self) -> None: ...

        @abstractmethod
        def show_find_bar(self) -> None: ...

        @abstractmethod
        def find_next(self) -> None: ...

        @abstractmethod
        def find_previous(self) -> None: ...

        @abstractmethod
        def render_scale(self) -> float: ...

        @abstractmethod
        def page_rect_in_viewport(self, page: int) -> QRectF: ...

        @abstractmethod
        def viewport_point(self, page: int, x_pt: float, y_pt: float) -> QPointF: ...

        # ViewGeometry
        @abstractmethod
        def _visible_band(self) -> tuple[float, float]: ...

        @abstractmethod
        def _position(self) -> Position: ...

        @abstractmethod
        def _scroll_to_position(self, position: Position, keep_x: bool = False) -> None: ...

        @abstractmethod
        def _scroll_to_rect(self, index: int, rect: Rect) -> None: ...

        # ViewRendering
        @abstractmethod
        def _schedule(self) -> None: ...

        @abstractmethod
        def _needed_tiles(self, index: int) -> list[tiles.Tile]: ...

        @abstractmethod
        def _request_page_info(self, indices: list[int]) -> None: ...

        # PagePainting
        @abstractmethod
        def _page_to_viewport(self, target: QRectF, rect: Rect) -> QRectF: ...

        # PointerInteraction
        @abstractmethod
        def _hit(self, pos: QPointF) -> Hit | None: ...

        @abstractmethod
        def _link_at(self, index: int, x_pt: float, y_pt: float) -> Link | None: ...

        # AnnotationTools
        @abstractmethod
        def highlight_selection(self, color: str | None = None) -> bool: ...

        @abstractmethod
        def note_selection(self) -> bool: ...

        @abstractmethod
        def _add_pending(self, kind: str, index: int, quote: str, rects: list[Rect],
                         color: str) -> dict[str, Any]: ...

        @abstractmethod
        def _annotation_at(self, hit: Hit | None) -> str | None: ...

        @abstractmethod
        def _click_annotation(self, hit: Hit | None) -> None: ...

        @abstractmethod
        def _paint_annotations(self, painter: QPainter, index: int, target: QRectF) -> None: ...

        # AreaTool
        @abstractmethod
        def area_tool_active(self) -> bool: ...

        @abstractmethod
        def set_area_tool(self, on: bool) -> None: ...

        @abstractmethod
        def _paint_area_drag(self, painter: QPainter, index: int, target: QRectF) -> None: ...

        # TableTools
        @abstractmethod
        def _paint_tables(self, painter: QPainter, index: int, target: QRectF) -> None: ...

        @abstractmethod
        def _add_table_actions(self, menu: QMenu, pos: QPointF) -> None: ...

        @abstractmethod
        def _show_tables_of(self, indices: Iterable[int]) -> None: ...

        @abstractmethod
        def _reset_tables(self) -> None: ...

        # Hooks several mixins extend, each handing on to the next with super().
        def _update_cursor(self, hit: Hit | None) -> None: ...

        def _key_action(self, event: QKeyEvent) -> Callable[[], object] | None:
            return None
else:
    ViewHost = object
