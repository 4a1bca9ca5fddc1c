"""Settings › Search › Download model…: runs off the UI thread with progress (against a hub on
127.0.0.1) and shows the outcome, or the error, in place."""

from __future__ import annotations

import pytest

from pdfdesk.gui.settings_dialog import SettingsDialog
from pdfdesk.index import model_fetch
from tests.index.model_hub import model_hub, tiny_static_model

pytestmark = pytest.mark.network
WAIT_MS = 15_000
NAME = "test-org/tiny-static"


def open_dialog(qtbot) -> SettingsDialog:
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    dialog.open()
    dialog.tabs.setCurrentIndex([dialog.tabs.tabText(i) for i in range(dialog.tabs.count())].index("Search"))
    return dialog


def test_download_button_fetches_the_named_model_with_progress(qtbot, memory_keyring, monkeypatch):
    files = tiny_static_model()
    with model_hub({NAME: files}) as hub:
        monkeypatch.setenv(model_fetch.HUB_ENV, hub.url)
        dialog = open_dialog(qtbot)
        dialog.embedding_model.setText(NAME)
        row = dialog.model_download
        with qtbot.waitSignal(row.downloaded, timeout=WAIT_MS) as got:
            row.button.click()
            assert row.button.text() == "Cancel download" and row.progress.isVisible()
    assert got.args[0] == model_fetch.model_folder(NAME)
    assert (got.args[0] / "model.safetensors").read_bytes() == files["model.safetensors"]
    assert "Downloaded to" in row.status.text() and row.status.isVisible() and not row.progress.isVisible()
    assert row.button.text() == "Download model…"


def test_a_failed_download_shows_its_error_in_place(qtbot, memory_keyring, monkeypatch):
    with model_hub({NAME: tiny_static_model()}, fail_after=100) as hub:
        monkeypatch.setenv(model_fetch.HUB_ENV, hub.url)
        dialog = open_dialog(qtbot)
        dialog.embedding_model.setText(NAME)
        row = dialog.model_download
        row.button.click()
        qtbot.waitUntil(lambda: "failed" in row.status.text(), timeout=WAIT_MS)
    assert row.status.isVisible() and "Check the network connection" in row.status.text()
    assert not model_fetch.model_folder(NAME).exists()
    assert row.button.text() == "Download model…" and row.button.isEnabled()


def test_the_built_in_model_needs_no_download(qtbot, memory_keyring):
    dialog = open_dialog(qtbot)
    assert dialog.embedding_model.text() == "pdfdesk/minilm-static-256"
    dialog.model_download.button.click()
    assert "built in" in dialog.model_download.status.text()
