"""The Team tab's extras beyond its two config keys: the password, a connection test, and what is
shared.

The password goes to the system keyring (under the login and server the connection string names),
never into config.toml. Keyring calls and the connection test may block (a locked keyring, a
server that does not answer for seconds), so both run in workers and report in place.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from pdfdesk.core.errors import VALIDATION_ERROR, PdfDeskError
from pdfdesk.gui import theme, workers
from pdfdesk.gui.workers import describe_failure
from pdfdesk.team.settings import ENV_VAR
from pdfdesk.tools.details import ErrorDetails

SHARED_NOTE = ("Shared with your team: the notes on documents in your matters, the matters' documents and "
               "their text. Kept on this computer: settings, API keys, chats, and notes on documents in no "
               "matter.")
TESTING = "Connecting…"


def _keyring_login(conninfo: str) -> tuple[str, str, str, str]:
    """(user, host, port, dbname) a password for this connection string is kept under."""
    from psycopg import ProgrammingError
    from psycopg.conninfo import conninfo_to_dict

    from pdfdesk.team.connection import where_of

    try:
        where = where_of(dict(conninfo_to_dict(conninfo)))
    except ProgrammingError as exc:
        raise PdfDeskError(VALIDATION_ERROR, f"The team database's connection string is not valid: {exc}",
                           'Write it as libpq does, e.g. "postgresql://alice@server/review".') from None
    return where.user, where.host, where.port, where.dbname


def _with_password(conninfo: str, password: str) -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo(conninfo, password=password) if password else conninfo


def _status_lines(conninfo: str) -> list[str]:
    """Worker: connect once with what was typed and describe the connection."""
    from pdfdesk.team.settings import TeamTarget
    from pdfdesk.team.status import team_status

    return team_status(TeamTarget(conninfo, "the Settings dialog")).lines()


class TeamSettings(QObject):
    """Adds the password row, the test button and the sharing note under the Team tab's fields."""

    def __init__(self, database: QLineEdit, form: QFormLayout, parent: QWidget) -> None:
        super().__init__(parent)
        self.database = database
        page = cast(QWidget, form.parentWidget())
        if os.environ.get(ENV_VAR, "").strip():
            overridden = QLabel(f"{ENV_VAR} is set in the environment: pdfdesk connects with it, not with the "
                                "connection string here.", page)
            overridden.setWordWrap(True)
            form.addRow(overridden)
        self.password = QLineEdit(page)
        self.password.setObjectName("teamPassword")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("kept in the system keyring (type to set or replace)")
        form.addRow("Password", self.password)
        row = QWidget(page)
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        self.test_button = QPushButton("Test connection", row)
        self.test_button.setObjectName("teamTestButton")
        self.test_button.clicked.connect(self.test)
        line.addWidget(self.test_button)
        line.addStretch(1)
        form.addRow("", row)
        self.result = QLabel(page)
        self.result.setObjectName("teamTestResult")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.result)
        shared = QLabel(SHARED_NOTE, page)
        shared.setWordWrap(True)
        shared.setStyleSheet(f"color: {theme.colors()['muted']};")
        form.addRow(shared)

    def conninfo(self) -> str:
        """The connection string in force for this tab: the typed one, else the environment's."""
        typed = self.database.text().strip()
        if typed:
            return typed
        from pdfdesk.team.settings import team_target

        target = team_target()
        return target.conninfo if target is not None else ""

    # -- test --------------------------------------------------------------------------------
    def test(self) -> None:
        """Connect with what is typed (password included, saved or not) and say what happened."""
        conninfo = self.conninfo()
        if not conninfo:
            self._show("Type the team database's connection string first, e.g. postgresql://you@server/review.",
                       error=True)
            return
        try:
            target = _with_password(conninfo, self.password.text())
        except Exception as exc:  # psycopg's ProgrammingError on a malformed string
            self._show(f"{VALIDATION_ERROR}: The connection string is not valid: {exc}", error=True)
            return
        self.test_button.setEnabled(False)
        self._show(TESTING)
        workers.submit(_status_lines, target, owner=self, on_done=self._tested, on_error=self._test_failed)

    def _tested(self, lines: list[str]) -> None:
        self.test_button.setEnabled(True)
        self._show("\n".join(lines))

    def _test_failed(self, details: ErrorDetails) -> None:
        self.test_button.setEnabled(True)
        self._show(f"{details.get('error', 'error')}: {describe_failure(details)}", error=True)

    def _show(self, text: str, error: bool = False) -> None:
        self.result.setStyleSheet(f"color: {theme.colors()['error']};" if error else "")
        self.result.setText(text)

    # -- saving ------------------------------------------------------------------------------
    def password_saver(self) -> Callable[[], None]:
        """What Save runs in its worker: store the typed password (nothing when none was typed).
        A malformed connection string raises here, on the UI thread, before anything is written."""
        password = self.password.text()
        if not password:
            return lambda: None
        conninfo = self.conninfo()
        if not conninfo:
            raise PdfDeskError(VALIDATION_ERROR, "A team password needs the team database's connection string.",
                               "Type the connection string above the password.")
        login = _keyring_login(conninfo)

        def store() -> None:
            from pdfdesk.team.settings import store_password

            store_password(*login, password)

        return store

    def saved(self) -> None:
        self.password.clear()
