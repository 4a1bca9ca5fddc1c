"""The Qt binding the viewer runs on: signals delivered to Python must not leak or drop references.

PySide6 6.12.0 under Python 3.11 drops a reference to `True` on every signal delivered to a Python
callable; a viewer delivers thousands (one per rendered tile), and the process aborts with
"bool_dealloc" once the count reaches zero. pyproject.toml excludes that release; this guards it.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    fired = Signal(int, object)

    def __init__(self) -> None:
        super().__init__()
        self.received = 0

    def on_fired(self, _number: int, _payload: object) -> None:
        self.received += 1


def test_signal_delivery_keeps_bool_reference_counts(qapp):
    emitter = _Emitter()
    emitter.fired.connect(emitter.on_fired)
    before = sys.getrefcount(True), sys.getrefcount(False)
    for number in range(500):
        emitter.fired.emit(number, [number])
    after = sys.getrefcount(True), sys.getrefcount(False)
    assert emitter.received == 500
    assert abs(after[0] - before[0]) < 50 and abs(after[1] - before[1]) < 50, (before, after)
