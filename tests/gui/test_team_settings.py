"""Settings' Team tab: the connection string and matter go to config.toml, the password only to the
keyring, and "Test connection" reports what a real server says (or why it could not be reached)."""

from __future__ import annotations

import tomllib

import psycopg
import pytest
from PySide6.QtWidgets import QDialogButtonBox

from pdfdesk.core.config import config_path, get_config
from pdfdesk.gui.settings_dialog import SettingsDialog
from pdfdesk.gui.team_settings import TESTING
from pdfdesk.team import matters
from pdfdesk.team.settings import ENV_VAR, KEYRING_SERVICE

WAIT_MS = 10_000


@pytest.fixture
def dialog(qtbot, memory_keyring, monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    for name in ("PGPASSWORD", "PGUSER", "PGHOST", "PGPORT", "PGDATABASE"):
        monkeypatch.delenv(name, raising=False)
    shown = SettingsDialog()
    qtbot.addWidget(shown)
    shown.open()
    qtbot.waitUntil(lambda: shown.key_fields["openai"].placeholderText() != "checking the keyring…", timeout=WAIT_MS)
    return shown


def team_tab(dialog: SettingsDialog) -> int:
    titles = [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
    return titles.index("Team")


def test_the_team_tab_saves_the_database_and_matter_and_the_password_goes_to_the_keyring(
        qtbot, dialog, memory_keyring):
    page = dialog.tabs.widget(team_tab(dialog))
    assert page.isAncestorOf(dialog.team_database) and page.isAncestorOf(dialog.team.password)
    assert page.isAncestorOf(dialog.team.test_button)
    dialog.team_database.setText("postgresql://alice@db.example:5433/review")
    dialog.team_matter.setText("Smith v Jones")
    dialog.team.password.setText("s3cret-team-pass")
    with qtbot.waitSignal(dialog.saved, timeout=WAIT_MS):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    text = config_path().read_text()
    assert tomllib.loads(text)["team"] == {"database": "postgresql://alice@db.example:5433/review",
                                           "matter": "Smith v Jones"}
    assert "s3cret" not in text
    assert memory_keyring.store[(KEYRING_SERVICE, "alice@db.example:5433/review")] == "s3cret-team-pass"
    assert get_config().team_database == "postgresql://alice@db.example:5433/review"
    assert dialog.team.password.text() == ""


def test_a_password_in_the_connection_string_is_refused_in_place(qtbot, dialog, memory_keyring):
    before = config_path().read_text() if config_path().exists() else None
    dialog.team_database.setText("postgresql://alice:hunter2@db.example/review")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert dialog.error.isVisible() and "team" in dialog.error.text().lower()
    assert (config_path().read_text() if config_path().exists() else None) == before
    assert memory_keyring.store == {}


def test_no_password_typed_leaves_the_keyring_alone(qtbot, dialog, memory_keyring):
    dialog.team_database.setText("host=db.example dbname=review user=bob")
    with qtbot.waitSignal(dialog.saved, timeout=WAIT_MS):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert memory_keyring.store == {}


def test_test_connection_shows_the_servers_status(qtbot, dialog, team_db, monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    with psycopg.connect(team_db.conninfo("postgres")) as admin:
        matters.create_matter(admin, "Smith v Jones")
        matters.grant(admin, "Smith v Jones", "alice", write=True)
    dialog.team_database.setText(team_db.conninfo("alice"))
    dialog.team.test_button.click()
    qtbot.waitUntil(lambda: dialog.team.result.text() not in ("", TESTING), timeout=WAIT_MS)
    text = dialog.team.result.text()
    assert text.startswith("Connected to alice@"), text
    assert "As database role alice" in text and "Schema: version" in text
    assert "Smith v Jones: 0 documents, read and write" in text
    assert dialog.team.test_button.isEnabled()


def test_test_connection_shows_a_refused_login_as_a_coded_error(qtbot, dialog, team_db, pg_cluster):
    dialog.team_database.setText(pg_cluster.conninfo(team_db.name, "no_such_login"))
    dialog.team.test_button.click()
    qtbot.waitUntil(lambda: dialog.team.result.text() not in ("", TESTING), timeout=WAIT_MS)
    text = dialog.team.result.text()
    assert text.startswith("team_unavailable: "), text
    assert "no_such_login" in text and "Traceback" not in text


def test_test_connection_with_nothing_typed_says_what_to_type(qtbot, dialog):
    dialog.team.test_button.click()
    assert "connection string" in dialog.team.result.text()


def test_the_tab_says_when_the_environment_overrides_the_connection_string(qtbot, memory_keyring, monkeypatch):
    from PySide6.QtWidgets import QLabel

    monkeypatch.setenv(ENV_VAR, "host=db.example dbname=review user=carol")
    shown = SettingsDialog()
    qtbot.addWidget(shown)
    page = shown.tabs.widget(team_tab(shown))
    assert any(label.text().startswith(f"{ENV_VAR} is set") for label in page.findChildren(QLabel))
