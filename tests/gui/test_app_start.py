"""Starting the app: `pdfdesk` opens the window (smoke test mode), a second `pdfdesk FILE` hands its
file to the running window and exits, themes follow the system scheme."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtCore import Qt

from pdfdesk.gui.app import SingleInstance, app_icon, server_name
from pdfdesk.gui.document_tab import OPEN
from tests.gui.test_app_window import wait_open


@pytest.fixture
def processes():
    """`pdfdesk` subprocesses, killed at the end of the test if still running."""
    started: list[subprocess.Popen] = []

    def start(*args: str) -> subprocess.Popen:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        proc = subprocess.Popen([sys.executable, "-m", "pdfdesk", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


@pytest.fixture
def smoke_env(monkeypatch):
    monkeypatch.setenv("PDFDESK_SMOKE_TEST", "1")


def test_pdfdesk_without_arguments_opens_the_window_on_the_sample(smoke_env, processes):
    proc = processes()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "smoke test: opened sample.pdf (5 pages)" in out


def test_smoke_test_mode_reports_a_damaged_file(smoke_env, processes, garbled_pdf):
    proc = processes(str(garbled_pdf))
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert "smoke test: garbled.pdf:" in out and "damaged beyond repair" in out


def test_a_second_pdfdesk_hands_its_files_to_the_running_window(qtbot, make_window, processes, text_pdf, outline_pdf):
    window = make_window([text_pdf])
    wait_open(qtbot, window, 1)
    instance = SingleInstance()
    assert instance.listen()
    instance.filesReceived.connect(window.handle_remote_open)
    try:
        proc = processes(str(outline_pdf))  # PDFDESK_HOME is this test's: same server name
        qtbot.waitUntil(lambda: proc.poll() is not None, timeout=30_000)
        out, err = proc.communicate()
        assert proc.returncode == 0, err
        assert "handed the files to the window already open" in out
        wait_open(qtbot, window, 2)
        assert window.current_tab().reference == str(outline_pdf) and window.current_tab().state == OPEN
    finally:
        instance.close()


def test_without_a_running_window_the_handover_fails_fast(qapp):
    assert not SingleInstance(server_name() + "-nobody").hand_over(["x.pdf"], timeout_ms=300)


def test_server_name_depends_on_the_data_folder(monkeypatch, tmp_path):
    first = server_name()
    monkeypatch.setenv("PDFDESK_HOME", str(tmp_path / "elsewhere"))
    assert server_name() != first and server_name().startswith("pdfdesk-")


def test_theme_follows_the_scheme(qapp):
    from pdfdesk.gui import theme

    try:
        theme.apply_theme(qapp, Qt.ColorScheme.Dark)
        assert theme.is_dark()
        assert qapp.palette().window().color().lightness() < 80
        assert theme.colors()["card"] != "#f5f6f8"
        theme.apply_theme(qapp, Qt.ColorScheme.Light)
        assert not theme.is_dark() and qapp.palette().window().color().lightness() > 180
    finally:
        theme.apply_theme(qapp)


def test_app_icon_has_every_size(qapp):
    sizes = {(s.width(), s.height()) for s in app_icon().availableSizes()}
    assert {(16, 16), (256, 256)} <= sizes


def test_window_layout_is_restored(qtbot, make_window):
    window = make_window([])
    window.chat_dock.hide()
    window.left_dock.setFloating(True)
    window.save_layout()
    again = make_window([])
    assert not again.chat_dock.isVisible() and again.left_dock.isFloating()
    assert again.search_dock.isVisible()


def test_a_file_opened_from_the_desktop_shell_opens_a_tab(qtbot, qapp, make_window, text_pdf):
    """macOS delivers Finder's "Open With" as a FileOpen event to the running application."""
    from PySide6.QtGui import QFileOpenEvent
    from PySide6.QtWidgets import QApplication

    from pdfdesk.gui.app import FileOpenRequests

    window = make_window([])
    wait_open(qtbot, window, 1)  # the bundled sample
    requests = FileOpenRequests(qapp)
    requests.filesReceived.connect(window.handle_remote_open)
    qapp.installEventFilter(requests)
    try:
        QApplication.sendEvent(qapp, QFileOpenEvent(str(text_pdf)))
        wait_open(qtbot, window, 2)
        assert window.document_tabs()[-1].reference == str(text_pdf)
    finally:
        qapp.removeEventFilter(requests)
