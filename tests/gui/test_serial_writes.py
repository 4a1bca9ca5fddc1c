"""Writes to the notes store start one at a time, in order, and a failing one stops nothing."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QObject

from pdfdesk.gui.serial_writes import SerialWrites

WAIT_MS = 10_000


def test_writes_run_in_order_one_at_a_time_and_a_failure_lets_the_next_start(qtbot):
    owner = QObject()
    failures: list[str] = []
    writes = SerialWrites(owner, lambda details: failures.append(str(details)))
    running = threading.Lock()
    started: list[int] = []
    answered: list[int] = []

    def work(number: int):
        def run() -> int:
            assert running.acquire(blocking=False), "two writes ran at once"
            try:
                started.append(number)
                time.sleep(0.05 if number == 0 else 0.0)  # the first is the slowest
                if number == 1:
                    raise OSError("disk full")
                return number
            finally:
                running.release()
        return run

    for number in range(4):
        writes.add(work(number), answered.append)
    assert writes.busy
    qtbot.waitUntil(lambda: not writes.busy, timeout=WAIT_MS)
    assert started == [0, 1, 2, 3] and answered == [0, 2, 3]
    assert len(failures) == 1 and "disk full" in failures[0]
