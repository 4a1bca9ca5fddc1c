"""The settings dialog writes a valid config.toml (keeping what it does not edit), keys go to the
keyring and never into a file, and invalid values are shown in place without writing anything."""

from __future__ import annotations

import tomllib

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from pdfdesk.core.config import config_path, get_config
from pdfdesk.gui.settings_dialog import SettingsDialog

WAIT_MS = 10_000
KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")


@pytest.fixture
def keyring_only(monkeypatch, memory_keyring):
    for name in KEY_VARS:
        monkeypatch.delenv(name, raising=False)
    return memory_keyring


@pytest.fixture
def user_config():
    path = config_path()
    path.write_text('[limits]\nmaxFileMb = 100\n\n[custom]\nkeep = "me"\n\n[network]\nmaxRedirects = 2\n')
    return path


def open_dialog(qtbot) -> SettingsDialog:
    dialog = SettingsDialog()
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitUntil(lambda: dialog.key_fields["openai"].placeholderText() != "checking the keyring…", timeout=WAIT_MS)
    return dialog


def save(qtbot, dialog: SettingsDialog) -> None:
    with qtbot.waitSignal(dialog.saved, timeout=WAIT_MS):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()


def test_settings_write_a_valid_config_and_keys_go_to_the_keyring(qtbot, keyring_only, user_config, tmp_path):
    dialog = open_dialog(qtbot)
    assert dialog.max_file_mb.value() == 100  # the file's values are shown
    dialog.agent_model.setCurrentText("openai/gpt-4.1-mini")
    dialog.pdf_model.setCurrentText("anthropic/claude-sonnet-4-5")
    dialog.pdf_fallbacks.setText("google/gemini-2.5-flash, openai/gpt-4.1-mini")
    dialog.key_fields["openai"].setText("sk-test-abcdefghijklmnop")
    dialog.custom_name.setText("lab")
    dialog.custom_url.setText("http://127.0.0.1:8000/v1")
    dialog.key_fields["compatible"].setText("lab-secret-key")
    dialog.max_file_mb.setValue(250)
    dialog.workspace_only.setChecked(True)
    dialog.roots.addItem(str(tmp_path))
    dialog.semantic.setChecked(False)
    save(qtbot, dialog)
    text = user_config.read_text()
    data = tomllib.loads(text)
    assert data["models"] == {"agent": "openai/gpt-4.1-mini",
                              "pdfModel": {"primary": "anthropic/claude-sonnet-4-5",
                                           "fallbacks": ["google/gemini-2.5-flash", "openai/gpt-4.1-mini"]}}
    assert data["providers"] == {"lab": {"baseUrl": "http://127.0.0.1:8000/v1"}}
    assert data["limits"] == {"maxFileMb": 250}
    assert data["files"] == {"workspaceOnly": True, "roots": [str(tmp_path)]}
    assert data["search"] == {"semantic": False}
    assert data["custom"] == {"keep": "me"} and data["network"] == {"maxRedirects": 2}  # untouched keys kept
    assert "sk-test" not in text and "lab-secret" not in text  # keys never in the file
    assert keyring_only.store[("pdfdesk", "openai")] == "sk-test-abcdefghijklmnop"
    assert keyring_only.store[("pdfdesk", "lab")] == "lab-secret-key"
    config = get_config()  # the new settings are in force at once
    assert config.agent_model == "openai/gpt-4.1-mini" and config.workspace_only and config.max_file_mb == 250
    assert not dialog.isVisible()


def test_a_stored_key_shows_as_stored_and_can_be_removed(qtbot, keyring_only):
    keyring_only.store[("pdfdesk", "anthropic")] = "sk-ant-stored-key-000000"
    dialog = open_dialog(qtbot)
    assert dialog.key_status["anthropic"].text() == "✓ stored"
    assert dialog.key_fields["anthropic"].text() == ""  # never shown back
    assert not dialog.key_clear["anthropic"].isHidden()
    dialog.key_clear["anthropic"].setChecked(True)
    save(qtbot, dialog)
    assert ("pdfdesk", "anthropic") not in keyring_only.store


def test_a_key_from_the_environment_is_reported(qtbot, keyring_only, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env-123456789")
    dialog = open_dialog(qtbot)
    assert dialog.key_status["openai"].text() == "set by OPENAI_API_KEY"


@pytest.mark.parametrize(("model", "message"), [
    ("gpt-4", "models.agent must be"),
    ("nosuchprovider/model", "unknown provider 'nosuchprovider'"),
])
def test_invalid_values_are_shown_in_place_and_nothing_is_written(qtbot, keyring_only, user_config, model, message):
    before = user_config.read_text()
    dialog = open_dialog(qtbot)
    dialog.agent_model.setCurrentText(model)
    dialog.key_fields["openai"].setText("sk-should-not-be-stored-000")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert dialog.error.isVisible() and message in dialog.error.text()
    assert dialog.isVisible() and user_config.read_text() == before
    assert keyring_only.store == {}


def test_workspace_only_needs_a_folder(qtbot, keyring_only):
    dialog = open_dialog(qtbot)
    dialog.workspace_only.setChecked(True)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert "at least one folder" in dialog.error.text() and not config_path().exists()


def test_defaults_are_not_written(qtbot, keyring_only):
    dialog = open_dialog(qtbot)
    save(qtbot, dialog)
    assert tomllib.loads(config_path().read_text()) == {}


def test_saving_from_the_window_refreshes_the_chat_model(qtbot, make_window, keyring_only):
    window = make_window([])
    qtbot.waitUntil(lambda: window.chat_pane.session is not None, timeout=WAIT_MS)
    assert window.chat_pane.session.offline
    dialog = window.open_settings()
    qtbot.waitUntil(lambda: dialog.key_fields["openai"].placeholderText() != "checking the keyring…", timeout=WAIT_MS)
    dialog.agent_model.setCurrentText("ollama/llama3.1")
    with qtbot.waitSignal(window.chat_pane.sessionReady, timeout=WAIT_MS):
        save(qtbot, dialog)
    assert window.chat_pane.session.model_label == "ollama/llama3.1"
    assert not window.chat_pane.banner.isVisible()


COMMENTED = '''# pdfdesk settings, by hand
[limits]
maxFileMb = 100   # scanned contracts are big
pdfMaxPages = 30

# a section a newer pdfdesk owns
[custom]
keep = "me"  # not pdfdesk's business

[network]
maxRedirects = 2
'''


def test_saving_keeps_comments_layout_and_unknown_keys(qtbot, keyring_only):
    path = config_path()
    path.write_text(COMMENTED)
    dialog = open_dialog(qtbot)
    dialog.max_file_mb.setValue(250)
    dialog.semantic.setChecked(False)
    save(qtbot, dialog)
    text = path.read_text()
    # only the changed line differs; the new section is appended
    assert text.startswith(COMMENTED.replace("maxFileMb = 100 ", "maxFileMb = 250 "))
    assert tomllib.loads(text)["search"] == {"semantic": False}
    assert "# scanned contracts are big" in text and 'keep = "me"  # not pdfdesk\'s business' in text


def test_an_untouched_dialog_leaves_the_file_byte_for_byte(qtbot, keyring_only):
    path = config_path()
    path.write_text(COMMENTED)
    save(qtbot, open_dialog(qtbot))
    assert path.read_text() == COMMENTED


def test_the_dialog_has_a_field_for_every_schema_key(qtbot, keyring_only):
    from pdfdesk.core.config import SCHEMA, Config

    dialog = open_dialog(qtbot)
    assert set(dialog.fields) == {(s.section, s.key) for s in SCHEMA}
    defaults = Config()
    for setting in SCHEMA:
        field = dialog.fields[(setting.section, setting.key)]
        assert getattr(dialog, setting.field) is field.editor
        assert any(dialog.tabs.widget(i).isAncestorOf(field.widget) for i in range(dialog.tabs.count()))
        shown = field.value()
        expected = getattr(defaults, setting.field)
        if setting.kind == "model_chain":
            assert shown == ("", [])
        elif setting.kind == "folders":
            assert shown == list(expected)
        elif setting.kind in ("model", "folder"):
            assert shown == (expected or "")
        else:
            assert shown == expected, setting.key


def test_a_key_changed_in_the_dialog_is_range_checked_by_the_schema(qtbot, keyring_only):
    dialog = open_dialog(qtbot)
    dialog.max_redirects.setValue(7)
    dialog.tool_timeout_s.setValue(90)
    save(qtbot, dialog)
    data = tomllib.loads(config_path().read_text())
    assert data["network"] == {"maxRedirects": 7} and data["limits"] == {"toolTimeoutSeconds": 90}
    assert get_config().max_redirects == 7 and get_config().tool_timeout_s == 90


def test_the_ocr_languages_field_says_what_is_installed_and_what_to_install(qtbot, keyring_only, pdfdesk_home):
    dialog = open_dialog(qtbot)
    note = dialog.ocr_languages_note
    assert "Installed: " in note.text() and "rus" in note.text() and "osd," not in note.text()
    dialog.ocr_languages.setText("deu+xyz")
    assert "install tesseract-ocr-xyz" in note.text()
    save(qtbot, dialog)
    text = (pdfdesk_home / "config" / "config.toml").read_text(encoding="utf-8")
    assert "[ocr]" in text and 'languages = "deu+xyz"' in text
