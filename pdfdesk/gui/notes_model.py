"""The Notes panel's model: a document's annotations grouped by page, filtered, two levels deep.

A model over plain dicts rather than a widget per row, so a document with thousands of notes is
listed, filtered and scrolled without building thousands of widgets. Orphaned notes (their
passage is gone from this version of the file) get a group of their own at the end and keep the
page they were on; the file's own annotations are listed where they are, read-only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont

from pdfdesk.core.fence import neutralise
from pdfdesk.gui import theme
from pdfdesk.gui.note_editor import parse_tags, tags_text

ID_ROLE = Qt.ItemDataRole.UserRole + 1
COLUMNS = ("Passage", "Note", "Tags", "Status")
NOTE_COLUMN, TAGS_COLUMN = 1, 2
QUOTE_CHARS = 160
ORPHANED = "orphaned"
Index = QModelIndex | QPersistentModelIndex


def searchable(item: dict) -> str:
    """Everything a text filter looks in: passage, note, tags and a pinned answer."""
    answer = item.get("answer") or {}
    return " ".join([str(item.get("quote") or ""), str(item.get("note") or ""), " ".join(item.get("tags") or []),
                     str(answer.get("question") or ""), str(answer.get("text") or "")]).lower()


def passage_text(item: dict) -> str:
    """What the first column says: the quote on one line, or what kind of note it is."""
    quote = " ".join(str(item.get("quote") or "").split())
    if item.get("kind") == "answer":
        question = " ".join(str((item.get("answer") or {}).get("question") or "").split())
        prefix = f"Answer to “{question[:80]}”" if question else "Pinned answer"
        return f"{prefix}: {quote}" if quote else prefix
    if quote:
        return quote
    return {"area": "[area]", "note": "[page note]"}.get(str(item.get("kind")), "[no text]")


def status_text(item: dict) -> str:
    status = str(item.get("status") or "anchored")
    read_only = " · in the file (read-only)" if item.get("source") == "pdf" else ""
    if status == ORPHANED:
        return f"orphaned (was p. {item.get('page')}){read_only}"
    if status == "moved":
        return f"moved{read_only}"
    return read_only.removeprefix(" · ")


class NotesModel(QAbstractItemModel):
    """Groups ("Page 3", …, "Orphaned") holding annotations; `editRequested(id, field, value)` when
    the user edits a note or tags in place (the controller stores it; the model shows the result)."""

    editRequested = Signal(str, str, object)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._all: list[dict] = []
        self._groups: list[tuple[str, list[dict]]] = []
        self._text, self._color, self._tag = "", "", ""

    # -- contents ----------------------------------------------------------------------------
    def set_items(self, items: Iterable[dict]) -> None:
        self._all = list(items)
        self._regroup()

    def set_filter(self, text: str = "", color: str = "", tag: str = "") -> None:
        self._text, self._color, self._tag = text.strip().lower(), color.lower(), tag
        self._regroup()

    def tags(self) -> list[str]:
        return sorted({t for item in self._all for t in item.get("tags") or []}, key=str.lower)

    def colors(self) -> list[str]:
        return sorted({str(item.get("color") or "").lower() for item in self._all if item.get("color")})

    def total(self) -> int:
        return len(self._all)

    def shown(self) -> int:
        return sum(len(items) for _, items in self._groups)

    def _keep(self, item: dict) -> bool:
        if self._color and str(item.get("color") or "").lower() != self._color:
            return False
        if self._tag and self._tag not in (item.get("tags") or []):
            return False
        return not self._text or self._text in searchable(item)

    def _regroup(self) -> None:
        self.beginResetModel()
        pages: dict[int, list[dict]] = {}
        orphaned: list[dict] = []
        for item in self._all:
            if not self._keep(item):
                continue
            if item.get("status") == ORPHANED:
                orphaned.append(item)
            else:
                pages.setdefault(int(item.get("page") or 0), []).append(item)
        self._groups = [(f"Page {page}", items) for page, items in sorted(pages.items())]
        if orphaned:
            orphaned.sort(key=lambda i: int(i.get("page") or 0))
            self._groups.append(("Orphaned: no longer found in this version", orphaned))
        self.endResetModel()

    def item_at(self, index: Index) -> dict | None:
        if not index.isValid() or not index.internalId():
            return None
        return self._groups[index.internalId() - 1][1][index.row()]

    def index_of(self, key: str) -> QModelIndex:
        for group, (_title, items) in enumerate(self._groups):
            for row, item in enumerate(items):
                if item.get("id") == key:
                    return self.createIndex(row, 0, group + 1)
        return QModelIndex()

    # -- the model interface -----------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:
        if not parent.isValid():
            return self.createIndex(row, column, 0) if 0 <= row < len(self._groups) else QModelIndex()
        if parent.internalId() == 0 and 0 <= row < len(self._groups[parent.row()][1]):
            return self.createIndex(row, column, parent.row() + 1)
        return QModelIndex()

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        if not parent.isValid():
            return len(self._groups)
        if parent.internalId() == 0 and parent.column() == 0:
            return len(self._groups[parent.row()][1])
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        item = self.item_at(index)
        base = Qt.ItemFlag.ItemIsEnabled
        if item is None:
            return base
        flags = base | Qt.ItemFlag.ItemIsSelectable
        if index.column() in (NOTE_COLUMN, TAGS_COLUMN) and item.get("source") != "pdf":
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.item_at(index)
        if item is None:
            return self._group_data(index, role)
        column = index.column()
        if role == ID_ROLE:
            return item.get("id")
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            limit = None if role == Qt.ItemDataRole.ToolTipRole else QUOTE_CHARS
            texts = (passage_text(item), " ".join(str(item.get("note") or "").split()),
                     tags_text(item.get("tags") or []), status_text(item))
            return neutralise(texts[column], limit=limit, quotes=False) if texts[column] else ""
        if role == Qt.ItemDataRole.EditRole:
            return str(item.get("note") or "") if column == NOTE_COLUMN else tags_text(item.get("tags") or [])
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            return QColor(str(item.get("color") or "#ffd54f"))
        if role == Qt.ItemDataRole.ForegroundRole and (item.get("status") in ("moved", ORPHANED) or
                                                       item.get("source") == "pdf"):
            colour = theme.colors()["error" if item.get("status") == ORPHANED else "muted"]
            return QBrush(QColor(colour))
        if role == Qt.ItemDataRole.FontRole and item.get("status") == ORPHANED:
            font = QFont()
            font.setItalic(True)
            return font
        return None

    def _group_data(self, index: Index, role: int) -> Any:
        title, items = self._groups[index.row()]
        if role == Qt.ItemDataRole.DisplayRole and index.column() == 0:
            return f"{title} ({len(items)})"
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        item = self.item_at(index)
        if item is None or role != Qt.ItemDataRole.EditRole or not self.flags(index) & Qt.ItemFlag.ItemIsEditable:
            return False
        if index.column() == NOTE_COLUMN:
            self.editRequested.emit(str(item["id"]), "note", str(value))
        else:
            self.editRequested.emit(str(item["id"]), "tags", parse_tags(str(value)))
        return True
