"""A layout that lines its widgets up left to right and wraps them onto more rows when the space
is narrow, as words wrap in a paragraph.

Rows of buttons and options in the side docks used box layouts, whose minimum width is the sum
of every widget's: a dock could not be narrower than its widest row, and the document in the
middle was left a strip. A flow layout's minimum is its widest single widget, so a dock can be
made narrow and its rows simply take two lines.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    """Items in reading order, wrapped at the layout's width; the height follows the width."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)  # a row inside a panel: the panel has the margins

    # -- QLayout's item list ----------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    # -- sizes --------------------------------------------------------------------------------
    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), place=False)

    def sizeHint(self) -> QSize:
        """All items on one row."""
        width = sum(item.sizeHint().width() for item in self._visible())
        width += self._spacing * max(0, len(self._visible()) - 1)
        height = max((item.sizeHint().height() for item in self._visible()), default=0)
        return QSize(width, height) + self._margin_size()

    def minimumSize(self) -> QSize:
        """The widest single item: every row can wrap down to one item."""
        size = QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        return size + self._margin_size()

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, place=True)

    # -- placing ------------------------------------------------------------------------------
    def _visible(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _margin_size(self) -> QSize:
        margins: QMargins = self.contentsMargins()
        return QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _arrange(self, rect: QRect, place: bool) -> int:
        """Lay the items out in `rect` (or only measure); returns the height they take."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        x, y, row_height = area.x(), area.y(), 0
        row: list[tuple[QLayoutItem, QSize]] = []

        def finish_row() -> None:
            if place:
                for item, size in row:  # centre each item on the row's height
                    item.setGeometry(QRect(item.geometry().topLeft(), size).translated(
                        0, (row_height - size.height()) // 2))

        for item in self._visible():
            size = item.sizeHint().boundedTo(QSize(max(area.width(), item.minimumSize().width()), 1 << 20))
            size = size.expandedTo(item.minimumSize())
            gap = self._spacing
            if row and x + size.width() > area.right() + 1:
                finish_row()
                row = []
                x, y = area.x(), y + row_height + gap
                row_height = 0
            if place:
                item.setGeometry(QRect(QPoint(x, y), size))
            row.append((item, size))
            x += size.width() + gap
            row_height = max(row_height, size.height())
        finish_row()
        return y + row_height - rect.y() + margins.bottom()


def labelled(caption: str, field: QWidget, parent: QWidget) -> QWidget:
    """A caption and its field kept together on one row of a flow layout."""
    pair = QWidget(parent)
    row = QHBoxLayout(pair)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(4)
    label = QLabel(caption, pair)
    label.setBuddy(field)
    row.addWidget(label)
    row.addWidget(field)
    return pair
