"""The library's documents as a table model: one plain tuple per document, no widget per row.

A library may hold 100,000 documents and is re-read every second while it is being indexed, so
a refresh must cost little more than copying five fields per document: rows are plain tuples
(built by `attrgetter`, compared in C), and what only some rows ever need (the folder, the
lower-case text the filter matches) is derived lazily and cached by path. The view asks only for
the cells it paints. Filtering and sorting are done here over those tuples: a sort proxy would
call back into Python for every comparison, hundreds of thousands of calls per refresh. A refresh
that only changes some rows' state emits one `dataChanged` over the changed span; the same rows in
a new order are a layout change that keeps the selection; anything else is a single model reset.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import attrgetter, eq, itemgetter
from typing import Any, Final, NamedTuple

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

NAME, STATUS, PAGES, FOLDER = range(4)  # columns
HEADERS = ("Document", "Index", "Pages", "Folder")
# Signs from the fonts every desktop has (an emoji hourglass showed as an empty box without one).
STATUS_TEXT = {"queued": "○ queued", "indexing": "⟳ indexing", "indexed": "✓ indexed", "failed": "✗ failed"}
STATUS_RANK = {"queued": 0, "indexing": 1, "indexed": 2, "failed": 3}  # the order a document moves in
PATH_ROLE = Qt.ItemDataRole.UserRole + 1
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
UNSORTED = -1  # the listing's own order (newest first)
HINTED = "QList<QPersistentModelIndex>,QAbstractItemModel::LayoutChangeHint"  # the layout signals' overload
CACHED_FOLDERS = 4096  # folders remembered for painting (a screenful of rows needs a few dozen)

# A row: (path, name, status, pages, error), the fields of a `LibraryEntry` the list shows.
Row = tuple[str, str, str, int, "str | None"]
# Final, so a row indexed by one of these has that field's type, not the union of all five.
R_PATH: Final = 0
R_NAME: Final = 1
R_STATUS: Final = 2
R_PAGES: Final = 3
R_ERROR: Final = 4
row_of: Callable[[Any], Row] = attrgetter("path", "name", "status", "pages", "error")
_paths = itemgetter(R_PATH)
_statuses = itemgetter(R_STATUS)

AnyIndex = QModelIndex | QPersistentModelIndex
TOP = QModelIndex()  # the invisible root: a table's rows have no other parent


class Summary(NamedTuple):
    documents: int
    indexed: int
    queued: int  # waiting or being indexed now
    failed: int


@lru_cache(maxsize=CACHED_FOLDERS)
def folder_of(path: str) -> str:
    return os.path.dirname(path)


def filter_key(path: str, name: str) -> str:
    """What the filter looks in, any case: the folder, then the name. The newline sorts before
    every character of a name, so ordering by this key orders by folder, then by name."""
    return f"{path.rpartition(os.sep)[0]}\n{name}".lower()


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'s' * (count != 1)}"


def summary_text(summary: Summary, shown: int | None = None) -> str:
    """The line above the list: the whole library's counts, and how many a filter leaves."""
    text = (f"{_plural(summary.documents, 'document')} · {summary.indexed:,} indexed · "
            f"{summary.queued:,} queued · {summary.failed:,} failed")
    return text if shown is None else f"{text} · {shown:,} shown"


def summarise(rows: list[Row]) -> Summary:
    counts = Counter(map(_statuses, rows))
    return Summary(len(rows), counts["indexed"], counts["queued"] + counts["indexing"], counts["failed"])


def _sort_key(column: int, keys: dict[str, str]) -> Callable[[Row], Any] | None:
    """How rows compare in a column: pages as numbers, names without case, folders by their
    filter keys, states in the order a document goes through them; None keeps the listing's order."""
    if column == NAME:
        return lambda row: row[R_NAME].lower()
    if column == STATUS:
        return lambda row: STATUS_RANK.get(row[R_STATUS], len(STATUS_RANK))
    if column == PAGES:
        return lambda row: row[R_PAGES] or 0
    if column == FOLDER:
        return lambda row: keys[row[R_PATH]]
    return None


def filter_rows(rows: list[Row], text: str, keys: dict[str, str]) -> list[Row]:
    """Rows whose name or folder holds every word of `text` (any case); `keys` maps each row's path
    to its `filter_key`."""
    for term in text.lower().split():  # each word narrows the rows the next one has to look at
        rows = [row for row in rows if term in keys[row[R_PATH]]]
    return rows


class LibraryModel(QAbstractTableModel):
    """The documents shown: the listing, narrowed by the filter, in the chosen order."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._all: list[Row] = []
        self._rows: list[Row] = []
        self._filter = ""
        self._sort_column = UNSORTED
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._summary = Summary(0, 0, 0, 0)
        self._keys: dict[str, str] = {}  # path -> filter_key, kept across refreshes

    # -- contents ----------------------------------------------------------------------------
    def set_entries(self, entries: Iterable[Any]) -> None:
        """Replace the listing (`LibraryEntry` objects, newest first) and update the view."""
        rows = list(map(row_of, entries))
        if rows == self._all:
            return
        self._all = rows
        self._summary = summarise(rows)
        self._arrange()

    def set_filter(self, text: str) -> None:
        if text != self._filter:
            self._filter = text
            self._arrange()

    def filter_text(self) -> str:
        return self._filter

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Called by the view when a header is clicked (-1: back to the listing's order)."""
        self._sort_column, self._sort_order = column, order
        self._arrange()

    def summary(self) -> Summary:
        """Counts of the whole library, whatever the filter shows."""
        return self._summary

    def rows(self) -> list[Row]:
        """The rows as shown, in display order."""
        return self._rows

    def path_at(self, row: int) -> str:
        return self._rows[row][R_PATH]

    def row_of_path(self, path: str) -> int | None:
        for position, row in enumerate(self._rows):
            if row[R_PATH] == path:
                return position
        return None

    def _arrange(self) -> None:
        if self._filter.strip() or self._sort_column == FOLDER:
            self._learn_keys()
        rows = filter_rows(self._all, self._filter, self._keys)
        key = _sort_key(self._sort_column, self._keys)
        if key is not None:
            rows = sorted(rows, key=key, reverse=self._sort_order == Qt.SortOrder.DescendingOrder)
        self._replace(rows)

    def _learn_keys(self) -> None:
        """Filter keys for paths not seen before (each is computed once, then only looked up);
        forgotten once most of them belong to removed documents."""
        keys = self._keys
        if len(keys) > 2 * len(self._all) + 1000:
            keys.clear()
        for row in [row for row in self._all if row[R_PATH] not in keys]:
            keys[row[R_PATH]] = filter_key(row[R_PATH], row[R_NAME])

    def _replace(self, rows: list[Row]) -> None:
        """Tell the view as little as it needs: changed cells, a reorder, or (rows came or went) a reset."""
        old = self._rows
        if rows == old:
            return
        same_length = len(rows) == len(old)
        if same_length and all(map(eq, map(_paths, rows), map(_paths, old))):
            first = next(i for i, (a, b) in enumerate(zip(old, rows, strict=True)) if a != b)
            last = len(rows) - 1 - next(i for i, (a, b) in enumerate(zip(reversed(old), reversed(rows), strict=True))
                                        if a != b)
            self._rows = rows
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(HEADERS) - 1))
        elif same_length and set(map(_paths, rows)) == set(map(_paths, old)):
            self._reorder(rows)
        else:
            self.beginResetModel()
            self._rows = rows
            self.endResetModel()

    def _reorder(self, rows: list[Row]) -> None:
        """Same rows in another order: persistent indices (the selection, the current row) follow them."""
        hint = QAbstractItemModel.LayoutChangeHint.VerticalSortHint
        # PySide picks a signal's overload by its signature string, which its stubs do not model
        self.layoutAboutToBeChanged[HINTED].emit([], hint)  # type: ignore[index]
        old = self._rows
        self._rows = rows
        before = self.persistentIndexList()
        if before:
            position = {row[R_PATH]: i for i, row in enumerate(rows)}
            after = [self.index(position[old[index.row()][R_PATH]], index.column()) for index in before]
            self.changePersistentIndexList(before, after)
        self.layoutChanged[HINTED].emit([], hint)  # type: ignore[index]

    # -- QAbstractTableModel -----------------------------------------------------------------
    def rowCount(self, parent: AnyIndex = TOP) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = TOP) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == NAME:
                return row[R_NAME]
            if column == STATUS:
                return STATUS_TEXT.get(row[R_STATUS], row[R_STATUS])
            if column == PAGES:
                return f"{row[R_PAGES]:,}" if row[R_PAGES] else ""
            return folder_of(row[R_PATH])
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column == PAGES:
            return RIGHT
        if role == PATH_ROLE:
            return row[R_PATH]
        return None

    @staticmethod
    def _tooltip(row: Row, column: int) -> str | None:
        """The whole path on the name, the reason on a failed state, the whole folder on the folder
        (the view elides long ones in the middle)."""
        if column == NAME:
            return row[R_PATH]
        if column == STATUS:
            return row[R_ERROR] or None
        if column == FOLDER:
            return folder_of(row[R_PATH])
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        if role == Qt.ItemDataRole.TextAlignmentRole and section == PAGES:
            return RIGHT
        return None
