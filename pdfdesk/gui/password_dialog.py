"""Ask for an encrypted document's password, without blocking the event loop (`open()`, not `exec()`)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget


class PasswordDialog(QDialog):
    """Emits `passwordEntered(str)` on OK; `rejected` on Cancel. `wrong=True` says the last try failed."""

    passwordEntered = Signal(str)

    def __init__(self, name: str, wrong: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Password required")
        self.setObjectName("passwordDialog")
        layout = QVBoxLayout(self)
        text = f"<b>{_escape(name)}</b> is encrypted. Enter its password to open it."
        self.message = QLabel(text, self)
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.error = QLabel("The password was not correct. Passwords are case-sensitive.", self)
        self.error.setObjectName("passwordError")
        self.error.setStyleSheet("color: palette(bright-text);")
        self.error.setVisible(wrong)
        layout.addWidget(self.error)
        self.field = QLineEdit(self)
        self.field.setEchoMode(QLineEdit.EchoMode.Password)
        self.field.setPlaceholderText("Password")
        layout.addWidget(self.field)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.field.textChanged.connect(self._update_ok)
        self._update_ok(self.field.text())
        self.field.setFocus()

    def _update_ok(self, text: str) -> None:
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(text))

    def accept(self) -> None:
        password = self.field.text()
        if not password:
            return
        super().accept()
        self.passwordEntered.emit(password)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
