"""AnnotationLayer: the review annotations of the open document, as the view paints them.

Items are the annotation tool's dicts (1-based `page`, `rects` in unrotated PDF points). They are
kept in per-page buckets so painting a page or hit-testing a click looks at that page's few items
only, however many the document has; every change names the pages it touched so the view repaints
just those. Orphaned annotations (their quote is gone from this version) stay listed for the
panels but are never painted or hit.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QObject, Signal

ORPHANED = "orphaned"


def page_index(item: dict) -> int | None:
    """The 0-based page of an item, None when it has no usable page."""
    page = item.get("page")
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        return None
    return page - 1


def is_painted(item: dict) -> bool:
    return item.get("status") != ORPHANED


class AnnotationLayer(QObject):
    """Annotation dicts by id and by page; `changed` carries the set of 0-based pages, None = all."""

    changed = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._items: dict[str, dict] = {}
        self._pages: dict[int, dict[str, dict]] = {}
        self._selected: str | None = None
        self._pending = 0

    # --- contents ------------------------------------------------------------------------------------
    def set_all(self, items: Iterable[dict]) -> None:
        """Replace everything (a document was opened, or its list was reloaded)."""
        self._items.clear()
        self._pages.clear()
        for item in items:
            self._put(item)
        if self._selected is not None and self._selected not in self._items:
            self._selected = None
        self.changed.emit(None)

    def upsert(self, item: dict) -> None:
        """Add `item` or replace the one with its id (it may have moved to another page)."""
        touched = self._drop(str(item.get("id", "")))
        index = self._put(item)
        if index is not None:
            touched.add(index)
        if touched:
            self.changed.emit(touched)

    def remove(self, id: str) -> None:
        touched = self._drop(id)
        if self._selected == id:
            self._selected = None
        if touched:
            self.changed.emit(touched)

    def clear(self) -> None:
        if self._items or self._selected is not None:
            self._selected = None
            self.set_all(())

    def _put(self, item: dict) -> int | None:
        key = item.get("id")
        if not isinstance(key, str) or not key:
            return None
        self._items[key] = item
        index = page_index(item)
        if index is not None:
            self._pages.setdefault(index, {})[key] = item
        return index

    def _drop(self, id: str) -> set[int]:
        old = self._items.pop(id, None)
        if old is None:
            return set()
        index = page_index(old)
        if index is None:
            return set()
        bucket = self._pages.get(index)
        if bucket is not None:
            bucket.pop(id, None)
            if not bucket:
                del self._pages[index]
        return {index}

    # --- reading -------------------------------------------------------------------------------------
    def item(self, id: str) -> dict | None:
        return self._items.get(id)

    def items(self) -> list[dict]:
        return list(self._items.values())

    def on_page(self, index: int) -> list[dict]:
        """Items on page `index` (0-based), orphaned ones included, in the order they came."""
        bucket = self._pages.get(index)
        return list(bucket.values()) if bucket else []

    def painted_on(self, index: int) -> list[dict]:
        """What is painted on page `index`: its items minus the orphaned ones."""
        bucket = self._pages.get(index)
        return [item for item in bucket.values() if is_painted(item)] if bucket else []

    def pages(self) -> list[int]:
        """0-based pages that have at least one item."""
        return sorted(self._pages)

    def count(self) -> int:
        return len(self._items)

    # --- selection -----------------------------------------------------------------------------------
    def set_selected(self, id: str | None) -> None:
        """Outline `id` (None: nothing); repaints the pages of the old and the new selection."""
        if id == self._selected:
            return
        touched = set()
        for key in (self._selected, id):
            item = self._items.get(key) if key is not None else None
            index = page_index(item) if item is not None else None
            if index is not None:
                touched.add(index)
        self._selected = id
        if touched:
            self.changed.emit(touched)

    def selected(self) -> str | None:
        return self._selected

    def next_pending_id(self) -> str:
        """An id for an item the view shows before the store has given it its real one."""
        self._pending += 1
        return f"pending-{self._pending}"
