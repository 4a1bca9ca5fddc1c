"""The one OS file lock: exclusive across handles, waits until free or cancelled."""

from __future__ import annotations

import threading

from pdfdesk.core.locks import file_lock


def test_a_held_lock_is_refused_to_a_second_holder_until_released(tmp_path):
    path = tmp_path / "sub" / "x.lock"
    with file_lock(path) as first:
        assert first
        with file_lock(path) as second:
            assert not second
    with file_lock(path) as again:
        assert again


def test_waiting_stops_when_cancelled(tmp_path):
    path = tmp_path / "x.lock"
    cancel = threading.Event()
    waited: list[int] = []

    def report() -> None:
        waited.append(1)
        cancel.set()

    with file_lock(path) as held:
        assert held
        with file_lock(path, wait=True, cancel=cancel, while_waiting=report) as got:
            assert not got and waited == [1]


def test_waiting_gets_the_lock_once_the_holder_lets_go(tmp_path):
    path = tmp_path / "x.lock"
    release = threading.Event()
    taken = threading.Event()

    def holder() -> None:
        with file_lock(path) as held:
            assert held
            taken.set()
            release.wait(5)

    thread = threading.Thread(target=holder)
    thread.start()
    taken.wait(5)
    threading.Timer(0.2, release.set).start()
    with file_lock(path, wait=True) as got:
        assert got
    thread.join()
