"""What a DocumentView does with the tables on its pages: outlines the one under the pointer, offers
it in the context menu (copy as spreadsheet cells, CSV or Markdown; export to a CSV file), and reads
an area the user marked as a table when detection missed it.

The tables come from `tables.PageTables` (the `pdf_tables` tool, off the UI thread). A table
continued over pages is copied whole: opening the menu on it asks the tool for the neighbouring
pages too, so the joined table is usually there by the time an item is chosen (otherwise the copy
happens when it arrives). What went wrong, and what was done, is said in a small notice in the
page beside the table or area, never in a dialog that blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QFileDialog, QMenu

from pdfdesk.core.tables.formats import table_from_record
from pdfdesk.gui import table_clipboard as clip
from pdfdesk.gui.viewer import painter as paint
from pdfdesk.gui.viewer.host import ViewHost
from pdfdesk.gui.viewer.tables import Box, PageTables, Record, Runner, boxes_on, read_area, whole_table

NOTICE_MS = 6_000
OUTLINE_PX = 1.5
OUTSET_PX = 2.0  # the frame stands just outside the table, so its own rules stay visible
FILL_ALPHA = 28  # the light wash inside the outline: the page stays readable
Hit = tuple[int, float, float]
WholeKey = tuple[int, Box]


class _Whole:
    """A table being joined with its parts on other pages, and what waits for it."""

    def __init__(self) -> None:
        self.record: Record | None = None
        self.waiting: list[Callable[[Record], None]] = []


def draw_outline(painter: QPainter, rects: Iterable[QRectF], accent: QColor) -> None:
    """A thin accent-coloured frame just outside each rect, with a light wash of the accent inside."""
    wash = QColor(accent)
    wash.setAlpha(FILL_ALPHA)
    painter.save()
    painter.setPen(QPen(accent, OUTLINE_PX))
    painter.setBrush(wash)
    for rect in rects:
        painter.drawRect(rect.adjusted(-OUTSET_PX, -OUTSET_PX, OUTSET_PX, OUTSET_PX))
    painter.restore()


def draw_notice(painter: QPainter, page: QRectF, near: QRectF | None, text: str) -> None:
    """A dark label under `near` (above it when the page ends first), else at the page's top."""
    painter.save()
    metrics = painter.fontMetrics()
    width = min(metrics.horizontalAdvance(text) + 28.0, max(80.0, page.width() - 16.0))  # slack: no stray wrap
    box = painter.boundingRect(QRectF(0, 0, width - 20, 10_000),
                               int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), text)
    height = box.height() + 10.0
    anchor = near if near is not None else QRectF(page.left(), page.top() + paint.BADGE_MARGIN, page.width(), 0)
    left = min(max(page.left() + 8.0, anchor.center().x() - width / 2), page.right() - 8.0 - width)
    top = anchor.bottom() + 6.0
    if near is not None and top + height > page.bottom():
        top = anchor.top() - 6.0 - height
    label = QRectF(left, top, width, height)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(paint.BADGE)
    painter.drawRoundedRect(label, 6, 6)
    painter.setPen(paint.BADGE_TEXT)
    painter.drawText(label.adjusted(10, 5, -10, -5), int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap),
                     text)
    painter.restore()


def _item(menu: QMenu, name: str, text: str, slot: Callable[[], object]) -> None:
    action = menu.addAction(text)
    action.setObjectName(name)
    action.triggered.connect(lambda _checked=False: slot())


def _key(index: int, record: Record) -> WholeKey:
    boxes = boxes_on(record, index + 1)
    return index, boxes[0] if boxes else (0.0, 0.0, 0.0, 0.0)


class TableTools(ViewHost):
    """Mixin of DocumentView, placed before the annotation tools so it sees every pointer move."""

    def _init_tables(self, runner: Runner | None = None) -> None:
        self.tables = PageTables(runner, self)
        self.tables.changed.connect(self._tables_changed)
        self.tables.failed.connect(lambda index, text: self._say(index, None, text, failure=True))
        self._hovered_table: tuple[int, Record] | None = None
        self._last_hit: Hit | None = None
        self._table_notice: tuple[int, Box | None, str] | None = None  # page, unrotated box, text
        self._whole: dict[WholeKey, _Whole] = {}
        self.table_dialog: QFileDialog | None = None
        self._notice_timer = QTimer(self)
        self._notice_timer.setSingleShot(True)
        self._notice_timer.timeout.connect(lambda: self._say(-1, None, ""))
        self._seen_awaiting: frozenset[int] = frozenset()
        self.model.documentOpened.connect(self._tables_opened)
        self.model.overlaysChanged.connect(self._recognition_news)

    def _tables_opened(self, page_count: int) -> None:
        document = self.model.document
        if document is None:
            return
        source = document.source
        path = str(source.path) if source.path is not None else None
        self.tables.reset(path, document.password, source.identity, page_count)

    def _reset_tables(self) -> None:
        """The document is going: forget its tables and drop answers still on their way."""
        self.tables.reset()
        self._hovered_table = None
        self._last_hit = None
        self._whole.clear()
        self._table_notice = None
        self._notice_timer.stop()

    def _show_tables_of(self, indices: Iterable[int]) -> None:
        """Pages on screen now: their tables are asked for once they stay a moment."""
        self._seen_awaiting = self.model.awaiting
        self.tables.want(indices, self.model.awaiting)

    def _recognition_news(self) -> None:
        """Indexing said which scans still wait for OCR: a page read since is asked again."""
        if self.model.is_open and self.model.awaiting != self._seen_awaiting:
            self._show_tables_of(self.model.layout.pages_between(*self._visible_band()))

    # --- the pointer -------------------------------------------------------------------------------
    def table_under(self, hit: Hit | None) -> tuple[int, Record] | None:
        """(page index, table) under a (page index, displayed x, y) point, else None."""
        if hit is None or not self.model.is_open:
            return None
        index, x, y = hit
        ux, uy = self.model.unrotated_rects(index, [(x, y, x, y)])[0][:2]
        record = self.tables.at(index, ux, uy)
        return (index, record) if record is not None else None

    def hovered_table(self) -> tuple[int, Record] | None:
        return self._hovered_table

    def _set_hovered(self, under: tuple[int, Record] | None) -> None:
        old = self._hovered_table
        if (old is None) != (under is None) or (old is not None and under is not None and
                                                (old[0] != under[0] or old[1] is not under[1])):
            self._hovered_table = under
            self.viewport().update()

    def _update_cursor(self, hit: Hit | None) -> None:
        self._last_hit = hit
        self._set_hovered(self.table_under(hit))
        super()._update_cursor(hit)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Leave:
            self._last_hit = None
            self._set_hovered(None)
        return super().viewportEvent(event)

    def _tables_changed(self, index: int) -> None:
        if self._last_hit is not None and self._last_hit[0] == index:
            self._set_hovered(self.table_under(self._last_hit))
        self.viewport().update()

    # --- painting ----------------------------------------------------------------------------------
    def table_accent(self) -> QColor:
        return self.palette().color(QPalette.ColorRole.Highlight)

    def _paint_tables(self, painter: QPainter, index: int, target: QRectF) -> None:
        hovered = self._hovered_table
        if hovered is not None and hovered[0] == index:
            boxes = self.model.display_rects(index, boxes_on(hovered[1], index + 1))
            draw_outline(painter, [self._page_to_viewport(target, box) for box in boxes], self.table_accent())
        notice = self._table_notice
        if notice is not None and notice[0] == index:
            near = None
            if notice[1] is not None:
                near = self._page_to_viewport(target, self.model.display_rects(index, [notice[1]])[0])
            draw_notice(painter, target, near, notice[2])

    def table_notice(self) -> str | None:
        """The notice shown in the page about a table action, if any."""
        return self._table_notice[2] if self._table_notice is not None else None

    def _say(self, index: int, box: Box | None, text: str, failure: bool = False) -> None:
        """Show `text` in page `index` beside `box` for a while ("" clears); a failure also goes to
        the status line, which outlives the notice."""
        if not text or index < 0:
            self._table_notice = None
            self._notice_timer.stop()
        else:
            self._table_notice = (index, box, text)
            self._notice_timer.start(NOTICE_MS)
            if failure:
                from pdfdesk.gui import workers

                workers.failure_notices().failed.emit(text, workers.NOTICE_MS)
        self.viewport().update()

    # --- the context menu --------------------------------------------------------------------------
    def _add_table_actions(self, menu: QMenu, pos: QPointF) -> None:
        """The table items for a right click at `pos`: on a table, copying and exporting it; on an
        area the user marked, reading it as a table."""
        hit = self._hit(pos)
        under = self.table_under(hit)
        area = self._area_under(hit)
        if under is None and area is None:
            return
        menu.addSeparator()
        if under is not None:
            index, record = under
            self._set_hovered(under)
            self._start_whole(index, record)
            _item(menu, "copyTableAction", "Copy &table", lambda: self.copy_table(index, record, clip.TSV))
            _item(menu, "copyTableCsvAction", "Copy table as CS&V", lambda: self.copy_table(index, record, clip.CSV))
            _item(menu, "copyTableMarkdownAction", "Copy table as &Markdown",
                  lambda: self.copy_table(index, record, clip.MARKDOWN))
            _item(menu, "exportTableAction", "E&xport table to CSV…", lambda: self.export_table(index, record))
        if area is not None:
            page, box = area
            _item(menu, "readAreaTableAction", "&Read area as table", lambda: self.read_area_as_table(page, box))

    def _area_under(self, hit: Hit | None) -> tuple[int, Box] | None:
        """(page index, unrotated box) of a marked area under `hit`."""
        key = self._annotation_at(hit)
        item = self.model.annotations.item(key) if key is not None else None
        if hit is None or item is None or item.get("kind") != "area" or not item.get("rects"):
            return None
        x0, y0, x1, y1 = (float(v) for v in item["rects"][0])
        return hit[0], (x0, y0, x1, y1)

    # --- copying and exporting ---------------------------------------------------------------------
    def copy_table(self, index: int, record: Record, fmt: str = clip.TSV) -> None:
        """Put the table (joined over its pages) on the clipboard as `fmt`."""
        def copy(whole: Record) -> None:
            table = table_from_record(whole)
            clip.copy_table(table, fmt)
            self._say(index, _key(index, record)[1], f"Copied the table ({clip.describe(table)}) as "
                      f"{clip.FORMATS[fmt]}.")

        self._with_whole(index, record, copy)

    def export_table(self, index: int, record: Record) -> QFileDialog:
        """Ask where to save the table as CSV (a save dialog that does not block the window)."""
        source = self.model.document.source if self.model.document is not None else None
        folder = source.path.parent if source is not None and source.path is not None and source.url is None \
            else Path.home()
        name = clip.suggested_name(source.name if source is not None else "document", table_from_record(record))
        dialog = QFileDialog(self, "Export table to CSV", str(folder / name), "CSV files (*.csv);;All files (*)")
        dialog.setObjectName("exportTableDialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("csv")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(lambda path: self.write_table_csv(index, record, path))
        self.table_dialog = dialog
        dialog.open()
        return dialog

    def write_table_csv(self, index: int, record: Record, path: str) -> None:
        """Write the table (joined over its pages) to `path` as CSV, off the UI thread."""
        from pdfdesk.gui import workers

        box = _key(index, record)[1]

        def write(whole: Record) -> None:
            workers.submit(clip.export_csv, table_from_record(whole), Path(path), owner=self,
                           on_done=lambda _none: self._say(index, box, f"Table written to {path}"),
                           on_error=lambda details: self._say(index, box, f"The table was not written: "
                                                              f"{details.get('message', '')}", failure=True))

        self._with_whole(index, record, write)

    def _start_whole(self, index: int, record: Record) -> _Whole | None:
        """Ask for the table joined with its parts on the neighbouring pages (once per table)."""
        if record.get("kind") == "area" or self.page_count <= 1:
            return None
        key = _key(index, record)
        state = self._whole.get(key)
        if state is not None:
            return state
        state = self._whole[key] = _Whole()

        def arrived(whole: Record | None) -> None:
            state.record = whole or record
            waiting, state.waiting = state.waiting, []
            for then in waiting:
                then(state.record)

        def failed(text: str) -> None:
            self._whole.pop(key, None)  # asked again next time
            if state.waiting:  # the part on this page is better than nothing
                arrived(None)
                self._say(index, key[1], f"Only the part on this page was used: {text}", failure=True)

        self.tables.call(whole_table, index + 1, key[1], self.page_count, on_done=arrived, on_error=failed)
        return state

    def _with_whole(self, index: int, record: Record, then: Callable[[Record], Any]) -> None:
        """`then(table)` with the table joined over its pages, now or once it has been read."""
        state = self._start_whole(index, record)
        if state is None:
            then(record)
        elif state.record is not None:
            then(state.record)
        else:
            state.waiting.append(then)

    # --- an area read as a table -------------------------------------------------------------------
    def read_area_as_table(self, index: int, box: Box) -> None:
        """Read the unrotated `box` of page `index` as a table; the result is outlined and can be
        copied like a found one, or a notice says nothing table-like is there."""
        self._say(index, box, "Reading the area as a table…")

        def done(record: Record | None) -> None:
            if record is None or not record.get("cells"):
                self._say(index, box, "Nothing table-like in the marked area: no words lined up in rows and "
                                      "columns there.")
                return
            self.tables.add_area_table(index, record)
            self._set_hovered((index, record))
            self._say(index, box, f"Read a table of {clip.describe(table_from_record(record))}: right-click it to "
                                  "copy or export it.")

        self.tables.call(read_area, index + 1, box, on_done=done,
                         on_error=lambda text: self._say(index, box, text, failure=True))

    # --- inspection (tests) ------------------------------------------------------------------------
    def table_point(self, index: int, record: Record) -> QPointF | None:
        """Viewport position of the middle of `record`'s box on page `index`."""
        boxes = boxes_on(record, index + 1)
        if not boxes:
            return None
        x0, y0, x1, y1 = self.model.display_rects(index, boxes[:1])[0]
        return self.viewport_point(index + 1, (x0 + x1) / 2, (y0 + y1) / 2)

