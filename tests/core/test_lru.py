"""The shared LRU helper: size bound, recency, eviction callback, and one build per key under threads."""

from __future__ import annotations

import threading

from pdfdesk.core.lru import LRU, SharedLRU


def test_the_least_recently_used_entry_goes_first():
    cache: LRU[str, int] = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the oldest
    cache.put("c", 3)
    assert "b" not in cache and list(cache) == ["a", "c"]


def test_peek_and_membership_do_not_count_as_use():
    cache: LRU[str, int] = LRU(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.peek("a") == 1 and "a" in cache
    cache.put("c", 3)
    assert list(cache) == ["b", "c"]


def test_evicted_values_are_handed_to_on_evict_but_pop_and_clear_are_not():
    closed: list[int] = []
    cache: LRU[str, int] = LRU(1, on_evict=closed.append)
    cache.put("a", 1)
    cache.put("b", 2)
    assert closed == [1]
    assert cache.pop("b") == 2 and cache.pop("b") is None
    cache.put("c", 3)
    assert cache.clear() == [3] and len(cache) == 0 and closed == [1]


def test_get_or_make_builds_once_and_keeps_falsy_values():
    cache: LRU[str, list[int]] = LRU(4)
    calls: list[str] = []
    for _ in range(3):
        assert cache.get_or_make("empty", lambda: calls.append("x") or []) == []
    assert calls == ["x"]


def test_shared_lru_keeps_the_first_value_stored_when_threads_race():
    cache: SharedLRU[str, object] = SharedLRU(8)
    start = threading.Barrier(4)
    got: list[object] = []

    def build() -> object:
        return object()

    def worker() -> None:
        start.wait()
        got.append(cache.get_or_make("k", build))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 4 and len(cache) == 1
    assert cache.get("k") in got  # the first build stored stays; later racers' builds are dropped
