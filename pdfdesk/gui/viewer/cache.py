"""A least-recently-used store of rendered images with a byte budget.

Memory, not a count, is what runs out: a page at 400 % costs sixteen times a page at 100 %, so the
budget is in bytes. A per-page index lets the view find any image of a page (at another zoom) to
paint scaled while the right one renders.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# ~20 full-width pages at 1080p; the visible tiles at 800 % on a 4K screen fit too
DEFAULT_BUDGET_BYTES = 80 * 1024 * 1024


class ByteBudgetCache(Generic[K, V]):
    """LRU mapping whose total `size_of(value)` stays within `budget` bytes.

    `page_of(key)` groups keys by page for `for_page`. One value larger than the whole budget is
    still kept (alone), and `pinned` keys are never evicted, so the visible page is never dropped
    right after it was rendered.
    """

    def __init__(self, size_of: Callable[[V], int], page_of: Callable[[K], int],
                 budget: int = DEFAULT_BUDGET_BYTES) -> None:
        self._size_of = size_of
        self._page_of = page_of
        self.budget = budget
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._by_page: dict[int, set[K]] = {}
        self.bytes_used = 0
        # Keys never evicted (what is on screen): a neighbour rendered ahead must not push out the
        # visible page. The budget may be exceeded by the pinned entries alone, never by others.
        self.pinned: set[K] = set()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: K, touch: bool = True) -> V | None:
        entry = self._items.get(key)
        if entry is None:
            return None
        if touch:
            self._items.move_to_end(key)
        return entry[0]

    def put(self, key: K, value: V) -> None:
        size = max(0, int(self._size_of(value)))
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes_used -= old[1]
        self._items[key] = (value, size)
        self._by_page.setdefault(self._page_of(key), set()).add(key)
        self.bytes_used += size
        self._evict()

    def discard(self, key: K) -> None:
        entry = self._items.pop(key, None)
        if entry is not None:
            self.bytes_used -= entry[1]
            self._unindex(key)

    def _unindex(self, key: K) -> None:
        page = self._page_of(key)
        keys = self._by_page.get(page)
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._by_page[page]

    def _evict(self) -> None:
        if self.bytes_used <= self.budget:
            return
        for key in list(self._items):  # oldest first; pinned entries (on screen) are skipped
            if self.bytes_used <= self.budget or len(self._items) <= 1:
                break
            if key in self.pinned:
                continue
            _, size = self._items.pop(key)
            self.bytes_used -= size
            self._unindex(key)

    def set_budget(self, budget: int) -> None:
        self.budget = budget
        self._evict()

    def for_page(self, page: int) -> list[K]:
        """Keys of every image of `page` (any zoom), without touching them."""
        return list(self._by_page.get(page, ()))

    def pages(self) -> set[int]:
        return set(self._by_page)

    def keys(self) -> Iterator[K]:
        return iter(list(self._items))

    def clear(self) -> None:
        self._items.clear()
        self._by_page.clear()
        self.bytes_used = 0
