"""ThumbnailPanel: small page images beside a DocumentView; follows and drives its current page.

Images come from the view's preview store: pages the view has rendered leave a small copy there,
and the panel asks the view's worker only for visible rows that have none yet. Rows are uniform
(sized from the first page), so thousands of pages cost nothing until they scroll into sight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QAbstractItemView, QListView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from pdfdesk.gui.viewer import painter as paint
from pdfdesk.gui.viewer.annotation_painting import draw_annotations

if TYPE_CHECKING:
    from pdfdesk.gui.viewer.view import DocumentView

THUMB_WIDTH = 120  # logical pixels
LABEL_HEIGHT = 18
CELL_PADDING = 8
SELECTED_WASH_ALPHA = 40  # of 255: the current page's cell is tinted, not filled
SELECTED_FRAME_PX = 3.0

Index = QModelIndex | QPersistentModelIndex


class _PagesModel(QAbstractListModel):
    def __init__(self, view: DocumentView) -> None:
        super().__init__()
        self._view = view
        self._count = 0

    def reset(self) -> None:
        self.beginResetModel()
        self._count = self._view.page_count
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else self._count

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return str(index.row() + 1)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"Page {index.row() + 1}"
        return None


class _ThumbnailDelegate(QStyledItemDelegate):
    def __init__(self, panel: ThumbnailPanel) -> None:
        super().__init__(panel)
        self._panel = panel

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        return self._panel.cell_size()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        view = self._panel.document_view
        row = index.row()
        cell = QRect(option.rect)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        accent = option.palette.color(QPalette.ColorRole.Highlight)
        if selected:  # a faint wash of the accent: the page itself is what stands out
            wash = QColor(accent)
            wash.setAlpha(SELECTED_WASH_ALPHA)
            painter.fillRect(cell, wash)
        width, height = view.page_size(row + 1)
        box_w = THUMB_WIDTH
        box_h = self._panel.image_height()
        scale = min(box_w / max(width, 1.0), box_h / max(height, 1.0))
        image_w, image_h = width * scale, height * scale
        target = QRectF(cell.x() + (cell.width() - image_w) / 2, cell.y() + CELL_PADDING + (box_h - image_h) / 2,
                        image_w, image_h)
        painter.fillRect(target, paint.PAGE_COLOR)
        image = view.preview_image(row)
        if image is not None:
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(target, image)
            painter.restore()
        else:
            self._panel.want(row)
        items = view.model.annotations.painted_on(row)
        if items:  # highlights show where the notes are while skimming the pages
            draw_annotations(painter, items, lambda rects: view.model.display_rects(row, rects),
                             lambda r: QRectF(target.x() + r[0] * scale, target.y() + r[1] * scale,
                                              (r[2] - r[0]) * scale, (r[3] - r[1]) * scale),
                             (width, height), scale, details=False)
        label = QRect(cell.x(), int(target.bottom()) + 2, cell.width(), LABEL_HEIGHT)
        if not selected:
            painter.setPen(QColor(0, 0, 0, 90))
            painter.drawRect(target.adjusted(-0.5, -0.5, 0.5, 0.5))
            painter.setPen(option.palette.color(QPalette.ColorRole.Text))
            painter.drawText(label, Qt.AlignmentFlag.AlignCenter, str(row + 1))
            return
        # the current page: a frame in the accent colour and its number on an accent pill
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(accent, SELECTED_FRAME_PX))
        painter.drawRect(target.adjusted(-SELECTED_FRAME_PX / 2, -SELECTED_FRAME_PX / 2,
                                         SELECTED_FRAME_PX / 2, SELECTED_FRAME_PX / 2))
        text = str(row + 1)
        pill_w = painter.fontMetrics().horizontalAdvance(text) + 14
        pill = QRectF(label.center().x() - pill_w / 2 + 0.5, label.y() + 1, pill_w, LABEL_HEIGHT - 2)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(accent)
        painter.drawRoundedRect(pill, pill.height() / 2, pill.height() / 2)
        painter.setPen(option.palette.color(QPalette.ColorRole.HighlightedText))
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()


class ThumbnailPanel(QListView):
    """Thumbnails of `view`'s pages; clicking one goes there, the current page is kept selected."""

    def __init__(self, view: DocumentView, parent=None) -> None:
        super().__init__(parent)
        self.document_view = view
        self._model = _PagesModel(view)
        self.setModel(self._model)
        self.setItemDelegate(_ThumbnailDelegate(self))
        self.setUniformItemSizes(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setMinimumWidth(THUMB_WIDTH + 2 * CELL_PADDING + 24)
        self.setSpacing(2)
        self._wanted: set[int] = set()
        self._request_timer = QTimer(self)
        self._request_timer.setSingleShot(True)
        self._request_timer.setInterval(30)
        self._request_timer.timeout.connect(self._send_requests)
        self.clicked.connect(self._on_clicked)
        view.documentOpened.connect(self._on_document_opened)
        view.documentClosed.connect(self._on_document_closed)
        view.currentPageChanged.connect(self._on_current_page)
        view.previewReady.connect(self._on_preview)
        view.pageSizesChanged.connect(self.viewport().update)
        view.model.annotations.changed.connect(self._on_annotations_changed)
        if view.page_count:
            self._on_document_opened(view.page_count)

    def image_height(self) -> int:
        width, height = self.document_view.page_size(1) if self.document_view.page_count else (612.0, 792.0)
        return max(40, min(int(THUMB_WIDTH * 2), round(THUMB_WIDTH * height / max(width, 1.0))))

    def cell_size(self) -> QSize:
        return QSize(THUMB_WIDTH + 2 * CELL_PADDING, self.image_height() + CELL_PADDING + LABEL_HEIGHT + 4)

    def want(self, row: int) -> None:
        """Called while painting a row without an image: batch the ask for the worker."""
        self._wanted.add(row)
        if not self._request_timer.isActive():
            self._request_timer.start()

    def _send_requests(self) -> None:
        visible = [row for row in sorted(self._wanted) if self.document_view.preview_image(row) is None
                   and self.visualRect(self._model.index(row)).intersects(self.viewport().rect())]
        self._wanted.clear()
        if visible:
            width = self.document_view.page_size(visible[0] + 1)[0]
            scale = THUMB_WIDTH * self.devicePixelRatioF() / max(width, 1.0)
            self.document_view.request_previews(visible, scale)

    def _on_document_opened(self, _count: int) -> None:
        self._model.reset()
        self._on_current_page(self.document_view.current_page)

    def _on_document_closed(self) -> None:
        self._model.reset()

    def _on_current_page(self, page: int) -> None:
        if page < 1 or page > self._model.rowCount():
            return
        index = self._model.index(page - 1)
        if self.currentIndex() != index:
            self.setCurrentIndex(index)
        self.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def _on_preview(self, row: int) -> None:
        if 0 <= row < self._model.rowCount():
            rect = self.visualRect(self._model.index(row))
            if rect.intersects(self.viewport().rect()):
                self.viewport().update(rect)

    def _on_annotations_changed(self, pages: set[int] | None) -> None:
        if pages is None:
            self.viewport().update()
            return
        for row in pages:
            if 0 <= row < self._model.rowCount():
                rect = self.visualRect(self._model.index(row))
                if rect.intersects(self.viewport().rect()):
                    self.viewport().update(rect)

    def _on_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.document_view.go_to_page(index.row() + 1)
            self.document_view.setFocus(Qt.FocusReason.OtherFocusReason)
