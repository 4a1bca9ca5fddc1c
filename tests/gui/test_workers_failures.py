"""A background job that fails with nobody handling it reaches the user, not only the log."""

from __future__ import annotations

import threading

from PySide6.QtWidgets import QWidget

from pdfdesk.core.errors import FILE_NOT_FOUND, PdfDeskError
from pdfdesk.gui import workers

WAIT_MS = 10_000


def _fails() -> None:
    raise PdfDeskError(FILE_NOT_FOUND, "No file at /tmp/gone.pdf.", "Check the path.")


def _bug() -> None:
    raise KeyError("lost")


def test_an_unhandled_failure_is_announced_with_its_message_and_hint(qtbot):
    with qtbot.waitSignal(workers.failure_notices().failed, timeout=WAIT_MS) as announced:
        workers.submit(_fails)
    text, msecs = announced.args
    assert text == "No file at /tmp/gone.pdf. Check the path." and msecs == workers.NOTICE_MS


def test_a_bug_is_announced_by_its_cause(qtbot):
    with qtbot.waitSignal(workers.failure_notices().failed, timeout=WAIT_MS) as announced:
        workers.submit(_bug)
    assert announced.args[0].startswith("KeyError: ") and "report it" in announced.args[0]


def test_a_handled_failure_goes_to_its_handler_only(qtbot):
    handled: list[dict] = []
    with qtbot.assertNotEmitted(workers.failure_notices().failed, wait=200):
        workers.submit(_fails, on_error=handled.append)
        qtbot.waitUntil(lambda: bool(handled), timeout=WAIT_MS)
    assert handled[0]["error"] == FILE_NOT_FOUND and handled[0]["hint"] == "Check the path."


def test_a_failure_after_its_owner_is_gone_is_not_announced(qtbot):
    owner = QWidget()
    owner_gone = threading.Event()

    def fails_once_the_owner_is_gone() -> None:
        owner_gone.wait(WAIT_MS / 1000)
        _fails()

    job_started = workers.submit(fails_once_the_owner_is_gone, owner=owner)
    owner.destroyed.connect(lambda: owner_gone.set())
    owner.deleteLater()
    with qtbot.assertNotEmitted(workers.failure_notices().failed, wait=300):
        qtbot.waitUntil(lambda: job_started.finished, timeout=WAIT_MS)
    assert owner_gone.is_set()


def test_the_main_window_shows_the_failure_in_its_status_bar(qtbot, make_window):
    window = make_window([])
    workers.submit(_fails)
    qtbot.waitUntil(lambda: "No file at /tmp/gone.pdf." in window.statusBar().currentMessage(), timeout=WAIT_MS)
    assert "Check the path." in window.statusBar().currentMessage()


def test_describe_failure_without_a_hint():
    assert workers.describe_failure({"error": "pdf_error", "message": "Broken.", "hint": ""}) == "Broken."
