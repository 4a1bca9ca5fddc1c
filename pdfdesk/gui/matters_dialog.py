"""Team matters: the matters this login sees, and creating one, adding documents, granting and
revoking access.

Every question goes to the database in a worker (a server may take seconds to answer or not answer
at all), and what it refuses is said in the dialog itself: the database decides who may do what,
so the dialog only shows its answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QHeaderView,
    QLabel, QLineEdit, QListWidget, QListWidgetItem, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout,
    QWidget,
)

from pdfdesk.gui import theme, workers
from pdfdesk.gui.workers import describe_failure
from pdfdesk.team.matters import Grant, Matter
from pdfdesk.tools.details import ErrorDetails

COLUMNS = ("Matter", "Documents", "Your access")


def access_words(matter: Matter) -> str:
    return "manage" if matter.can_manage else "read and write" if matter.can_write else "read only"


# -- workers (no Qt) ---------------------------------------------------------------------------
def _list() -> list[Matter]:
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import list_matters

    with connect() as conn:
        return list_matters(conn)


def _grants(matter: str) -> list[Grant]:
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import grants

    with connect() as conn:
        return grants(conn, matter)


def _create(name: str) -> str:
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import create_matter

    with connect() as conn:
        create_matter(conn, name)
    return f"Matter {name.strip()!r} is ready."


def _add_documents(matter: str, paths: Sequence[str]) -> str:
    """Add files through the team library when it is there (it also shares their bytes and text),
    else record each document by its fingerprint and page count. One unreadable file does not
    stop the others; the first failure is raised once all were tried."""
    from pdfdesk.core.errors import PdfDeskError

    try:
        from pdfdesk.index.team_documents import add_to_matter
    except ImportError:
        return _add_by_fingerprint(matter, paths)
    outcomes = list(add_to_matter(matter, list(paths)))
    failed = [(o.path, o.error) for o in outcomes if o.error is not None]
    if failed:
        path, error = failed[0]
        raise PdfDeskError(error.code, f"{len(failed)} of {len(outcomes)} not added; {path}: {error.message}",
                           error.hint)
    return f"Added {len(outcomes)} document{'s' if len(outcomes) != 1 else ''} to {matter!r}."


def _add_by_fingerprint(matter: str, paths: Sequence[str]) -> str:
    import os

    from pdfdesk.core.documents import open_pdf
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import add_document

    added = 0
    with connect() as conn:
        for path in paths:
            with open_pdf(path) as opened:
                fingerprint, pages = opened.fingerprint, opened.page_count
            added += add_document(conn, matter, fingerprint, os.path.basename(path), pages, os.path.getsize(path))
    held = len(paths) - added
    return f"Added {added} document{'s' if added != 1 else ''} to {matter!r}" + (
        f" ({held} {'was' if held == 1 else 'were'} there already)." if held else ".")


def _grant(matter: str, role: str, write: bool) -> str:
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import grant

    with connect() as conn:
        grant(conn, matter, role, write)
    return f"{role} may now {'read and write' if write else 'read'} {matter!r}."


def _revoke(matter: str, role: str) -> str:
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import revoke

    with connect() as conn:
        had = revoke(conn, matter, role)
    return f"{role} {'no longer has' if had else 'had no'} access to {matter!r}."


# -- the small questions -----------------------------------------------------------------------
class AskDialog(QDialog):
    """A name (and, for a grant, a write check box); opened without blocking, `answered` on OK."""

    def __init__(self, title: str, label: str, parent: QWidget, with_write: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        form = QFormLayout(self)
        self.name = QLineEdit(self)
        form.addRow(label, self.name)
        self.write = QCheckBox("May add and edit notes and documents", self)
        self.write.setVisible(with_write)
        if with_write:
            form.addRow("", self.write)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class MattersDialog(QDialog):
    """Lists the matters on open; every button's work runs in a worker and refreshes the list."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Team matters")
        self.setObjectName("mattersDialog")
        self.resize(620, 480)
        self.matters: list[Matter] = []
        self.ask: AskDialog | None = None
        self.file_dialog: QFileDialog | None = None
        layout = QVBoxLayout(self)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        layout.addWidget(self.table, 2)
        layout.addWidget(QLabel("Who has access to the selected matter:", self))
        self.access = QListWidget(self)
        self.access.itemSelectionChanged.connect(self._sync_buttons)
        layout.addWidget(self.access, 1)
        row = QHBoxLayout()
        self.new_button = self._button("New matter…", self.ask_new, row)
        self.add_button = self._button("Add documents…", self.choose_documents, row)
        self.grant_button = self._button("Grant…", self.ask_grant, row)
        self.revoke_button = self._button("Revoke", self.revoke_selected, row)
        row.addStretch(1)
        layout.addLayout(row)
        self.message = QLabel(self)
        self.message.setObjectName("mattersMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        self.busy = 0
        self._sync_buttons()
        self.refresh()

    def _button(self, text: str, slot: Callable[[], object], row: QHBoxLayout) -> QPushButton:
        button = QPushButton(text, self)
        button.clicked.connect(lambda _checked=False: slot())
        row.addWidget(button)
        return button

    # -- running database work ---------------------------------------------------------------
    def _run(self, func: Callable[..., Any], *args: Any, then: Callable[[Any], None]) -> None:
        self.busy += 1

        def done(result: Any) -> None:
            self.busy -= 1
            then(result)

        def failed(details: ErrorDetails) -> None:
            self.busy -= 1
            self.show_message(f"{details.get('error', 'error')}: {describe_failure(details)}", error=True)

        workers.submit(func, *args, owner=self, on_done=done, on_error=failed)

    def show_message(self, text: str, error: bool = False) -> None:
        self.message.setStyleSheet(f"color: {theme.colors()['error']};" if error else "")
        self.message.setText(text)

    def _did(self, text: str) -> None:
        self.show_message(text)
        self.refresh()

    def refresh(self) -> None:
        """List the matters again (the selection is kept by name)."""
        self._run(_list, then=self._listed)

    def _listed(self, found: list[Matter]) -> None:
        keep = self.selected()
        self.matters = found
        self.table.setRowCount(len(found))
        for row, matter in enumerate(found):
            for column, text in enumerate((matter.name, str(matter.documents), access_words(matter))):
                item = QTableWidgetItem(text)
                if column == 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)
        if not found:
            self.show_message("You can see no matter yet: create one, or ask a matter's manager to grant you access.")
        names = [m.name for m in found]
        if keep is not None and keep.name in names:
            self.table.selectRow(names.index(keep.name))
        elif found:
            self.table.selectRow(0)
        self._selection_changed()

    def selected(self) -> Matter | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.matters):
            return None
        return self.matters[rows[0].row()]

    def _selection_changed(self) -> None:
        matter = self.selected()
        self.access.clear()
        self._sync_buttons()
        if matter is not None:
            name = matter.name
            self._run(_grants, name, then=lambda found: self._show_grants(name, found))

    def _show_grants(self, matter: str, found: list[Grant]) -> None:
        current = self.selected()
        if current is None or current.name != matter:
            return  # the selection moved on meanwhile
        self.access.clear()
        for grant in found:
            what = "manage" if grant.can_manage else "read and write" if grant.can_write else "read only"
            item = QListWidgetItem(f"{grant.role}: {what} (granted by {grant.granted_by})")
            item.setData(Qt.ItemDataRole.UserRole, grant.role)
            self.access.addItem(item)
        self._sync_buttons()

    def _sync_buttons(self) -> None:
        matter = self.selected()
        self.add_button.setEnabled(matter is not None and matter.can_write)
        self.grant_button.setEnabled(matter is not None and matter.can_manage)
        self.revoke_button.setEnabled(matter is not None and matter.can_manage and bool(self.access.selectedItems()))

    # -- actions -----------------------------------------------------------------------------
    def _open_ask(self, ask: AskDialog, on_ok: Callable[[AskDialog], None]) -> AskDialog:
        ask.accepted.connect(lambda: on_ok(ask))
        self.ask = ask
        ask.open()
        return ask

    def ask_new(self) -> AskDialog:
        return self._open_ask(AskDialog("New matter", "Name", self), lambda ask: self.create_matter(ask.name.text()))

    def create_matter(self, name: str) -> None:
        if not name.strip():
            self.show_message("A matter needs a name.", error=True)
            return
        self._run(_create, name, then=self._did)

    def choose_documents(self) -> QFileDialog | None:
        matter = self.selected()
        if matter is None:
            return None
        dialog = QFileDialog(self, f"Add PDFs to {matter.name}", "", "PDF files (*.pdf);;All files (*)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.filesSelected.connect(lambda paths, name=matter.name: self.add_documents(name, list(paths)))
        self.file_dialog = dialog
        dialog.open()
        return dialog

    def add_documents(self, matter: str, paths: Sequence[str]) -> None:
        if paths:
            self.show_message(f"Adding {len(paths)} document{'s' if len(paths) != 1 else ''}…")
            self._run(_add_documents, matter, list(paths), then=self._did)

    def ask_grant(self) -> AskDialog | None:
        matter = self.selected()
        if matter is None:
            return None
        return self._open_ask(AskDialog(f"Grant access to {matter.name}", "Database role", self, with_write=True),
                              lambda ask: self.grant(matter.name, ask.name.text().strip(), ask.write.isChecked()))

    def grant(self, matter: str, role: str, write: bool) -> None:
        if not role:
            self.show_message("Name the database role (a login such as bob, or a group).", error=True)
            return
        self._run(_grant, matter, role, write, then=self._did)

    def revoke_selected(self) -> None:
        matter = self.selected()
        items = self.access.selectedItems()
        if matter is not None and items:
            self._run(_revoke, matter.name, str(items[0].data(Qt.ItemDataRole.UserRole)), then=self._did)
