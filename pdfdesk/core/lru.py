"""A least-recently-used mapping with a fixed number of entries, for the small caches of parsed
page data, outlines and open documents that would otherwise grow with every page a user visits.

`LRU` has no lock: most caches are already guarded by the MuPDF lock or live on the GUI thread,
and a second lock there would only cost time. `SharedLRU` adds one for caches that several
threads reach without any other lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most `max_size` entries; adding one more drops the least recently used, passing its value
    to `on_evict` (to close a document, say). Reading with `get` counts as use; `peek`, `in` and
    iteration do not. Values are never None: `get` answers None for a key that is not there."""

    def __init__(self, max_size: int, on_evict: Callable[[V], None] | None = None) -> None:
        if max_size < 1:
            raise ValueError("an LRU cache holds at least one entry")
        self.max_size = max_size
        self._on_evict = on_evict
        self._items: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __iter__(self) -> Iterator[K]:
        """The keys, oldest first, as a snapshot: the cache may change while a caller loops."""
        return iter(list(self._items))

    def get(self, key: K) -> V | None:
        """The value, marked as just used; None when absent."""
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def peek(self, key: K) -> V | None:
        """The value without marking it used, for readers that should not keep an entry alive."""
        return self._items.get(key)

    def put(self, key: K, value: V) -> None:
        """Store `value` as the most recently used entry, dropping the oldest beyond `max_size`."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.max_size:
            _, dropped = self._items.popitem(last=False)
            if self._on_evict is not None:
                self._on_evict(dropped)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The cached value, or `make()`'s, stored for next time."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def pop(self, key: K) -> V | None:
        """Remove one entry without `on_evict` (the caller decides what to do with it)."""
        return self._items.pop(key, None)

    def items(self) -> list[tuple[K, V]]:
        """Every entry, oldest first, as a snapshot."""
        return list(self._items.items())

    def clear(self) -> list[V]:
        """Empty the cache and return what it held, oldest first, without `on_evict`."""
        values = list(self._items.values())
        self._items.clear()
        return values


class SharedLRU(LRU[K, V]):
    """An LRU that threads use at once. `get_or_make` builds outside the lock, so a slow build
    never holds up readers of other keys; when two threads build one key, the first stored wins."""

    def __init__(self, max_size: int, on_evict: Callable[[V], None] | None = None) -> None:
        super().__init__(max_size, on_evict)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return super().__len__()

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return super().__contains__(key)

    def __iter__(self) -> Iterator[K]:
        with self._lock:
            return super().__iter__()

    def get(self, key: K) -> V | None:
        with self._lock:
            return super().get(key)

    def peek(self, key: K) -> V | None:
        with self._lock:
            return super().peek(key)

    def put(self, key: K, value: V) -> None:
        with self._lock:
            super().put(key, value)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        value = self.get(key)
        if value is not None:
            return value
        made = make()
        with self._lock:
            value = LRU.get(self, key)
            if value is None:
                LRU.put(self, key, made)
                return made
            return value

    def pop(self, key: K) -> V | None:
        with self._lock:
            return super().pop(key)

    def items(self) -> list[tuple[K, V]]:
        with self._lock:
            return super().items()

    def clear(self) -> list[V]:
        with self._lock:
            return super().clear()
