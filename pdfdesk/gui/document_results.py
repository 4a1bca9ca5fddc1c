"""The search panel's "Documents" view: each matching document once, complete, paged, exportable.

It asks `pdf_search` with `group_by: "document"`, which lists every document holding the query's
words (not a top-k of pages) in pages of `PAGE_SIZE`; more come with the "More" button or on
scrolling to the end. A row shows the document, how many pages match and its best pages; a click
opens the best page with the hits highlighted (found by one search of that document), the row's
menu opens any of its best pages. "Export list…" writes the complete list as CSV, loading the
pages not yet shown first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QListWidget, QListWidgetItem, QMenu, QPushButton, QWidget

from pdfdesk.core.references import display_name
from pdfdesk.gui import theme, workers
from pdfdesk.gui.richtext import esc, highlight_terms
from pdfdesk.gui.search_runs import OpenDocument, export_documents, folder_fingerprints, keep_folder, merge_searches
from pdfdesk.gui.tool_calls import call_tool_in_worker
from pdfdesk.tools.contract import ToolResult
from pdfdesk.tools.details import ErrorDetails

HTML_ROLE = Qt.ItemDataRole.UserRole + 2
DOCUMENT_ROLE = Qt.ItemDataRole.UserRole + 4  # one entry of details.documents
CAPTION = "caption"  # the class of a result's "where" line, coloured per row state by the delegate
PAGE_SIZE = 100  # documents per request; the tool takes up to 1000
Status = Callable[[str], None]


def document_html(doc: dict[str, Any], query: str) -> str:
    """One document: its name, how many pages match, its best pages, then the best page's excerpt."""
    count = int(doc.get("pages_matching") or 0)
    best = ", ".join(str(p) for p in doc.get("best_pages") or [])
    name = esc(str(doc.get("name") or display_name(str(doc.get("file", "")))))
    excerpt = highlight_terms(" ".join(str(doc.get("excerpt") or "").split())[:400], query)
    return (f'<div class="{CAPTION}" style="font-size:small"><b>{name}</b> · {count} page{"s" * (count != 1)} '
            f"match · best: p. {esc(best)}</div><div>{excerpt}</div>")


def search_folder(args: dict[str, Any], folder: str, limit: int) -> ToolResult:
    """Worker: a library search `within` the documents under `folder`, at most `limit` hits."""
    result = call_tool_in_worker("pdf_search", {**args, "within": folder_fingerprints(folder)})
    return keep_folder(result, folder, limit)


def locate(query: str, file: str, page: int, password: str | None) -> list[tuple[float, ...]]:
    """Worker: the hit rectangles of `query` on `page` of `file` (one search of that document)."""
    args: dict[str, Any] = {"path": file, "query": query, "mode": "keyword", "max_results": 100}
    if password:
        args["password"] = password
    result = call_tool_in_worker("pdf_search", args)
    for match in [] if result.is_error else result.details.get("matches") or []:
        if match.get("page") == page:
            return [tuple(float(v) for v in rect) for rect in match.get("rects") or []]
    return []


def search_each(owner: QWidget, documents: list[OpenDocument], args: dict[str, Any], limit: int,
                done: Callable[[ToolResult], None]) -> None:
    """One `pdf_search` per open document on the worker pool (the tool takes one path a call);
    `done` gets their answers merged into one ranking once every one has answered."""
    answers: list[tuple[str, ToolResult]] = []

    def one(reference: str, result: ToolResult) -> None:
        answers.append((reference, result))
        if len(answers) == len(documents):
            done(merge_searches(answers, limit))

    def call(reference: str, password: str | None) -> None:
        each = {k: v for k, v in args.items() if k not in ("library", "password")}
        each["path"] = reference
        if password:
            each["password"] = password

        def failed(details: ErrorDetails) -> None:
            one(reference, ToolResult(content=[], details=dict(details), is_error=True))

        workers.submit(call_tool_in_worker, "pdf_search", each, owner=owner,
                       on_done=lambda result: one(reference, result), on_error=failed)

    for reference, password in documents:
        call(reference, password)


class DocumentResults(QWidget):
    """The More and Export buttons under the results list, and the paging behind them."""

    pageRequested = Signal(str, int, list)  # document, page, hit rectangles
    loaded = Signal(dict)  # details after each page arrived, or ErrorDetails (tests)
    exported = Signal(int, str)  # documents written, path

    def __init__(self, results: QListWidget, status: Status, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._results, self._status = results, status
        self._generation = 0
        self._args: dict[str, Any] = {}
        self._folder: str | None = None
        self._passwords: dict[str, str] = {}
        self.documents: list[dict[str, Any]] = []
        self.total = 0
        self.next_offset: int | None = None
        self._loading = False
        self._after_load: Callable[[], None] | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.more_button = QPushButton("More", self)
        self.more_button.setToolTip("Load the next documents (also on scrolling to the end)")
        self.more_button.clicked.connect(self.more)
        self.export_button = QPushButton("Export list…", self)
        self.export_button.setToolTip("Save every matching document as CSV: document, path, pages matching, best pages")
        self.export_button.clicked.connect(self.choose_export)
        row.addStretch(1)
        row.addWidget(self.more_button)
        row.addWidget(self.export_button)
        results.verticalScrollBar().valueChanged.connect(self._scrolled)
        results.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        results.customContextMenuRequested.connect(self._menu)
        self.clear()

    # -- loading -----------------------------------------------------------------------------
    def clear(self) -> None:
        """Forget the list (a new search of any kind began)."""
        self._generation += 1
        self.documents, self.total, self.next_offset, self._loading, self._after_load = [], 0, None, False, None
        self.hide()

    def start(self, args: dict[str, Any], folder: str | None = None,
              open_documents: list[OpenDocument] | None = None) -> None:
        """List the documents matching `args` (a pdf_search call without paging): the library's,
        one document's, those under `folder`, or those of the open tabs (one call each)."""
        self.clear()
        self.show()
        self._args, self._folder = {**args, "group_by": "document"}, folder
        self._passwords = {ref: pw for ref, pw in open_documents or [] if pw}
        if args.get("password"):
            self._passwords[str(args.get("path"))] = str(args["password"])
        self._loading = True
        self._update_buttons()
        generation = self._generation
        if open_documents is not None:
            search_each(self, open_documents, self._args, PAGE_SIZE, lambda result: self._arrived(generation, result))
        elif folder is not None:  # the library's list `within` the documents under the folder
            def within(fingerprints: list[str]) -> None:
                if generation == self._generation:
                    self._args["within"] = fingerprints
                    self._request(0)

            workers.submit(folder_fingerprints, folder, owner=self, on_done=within,
                           on_error=lambda details: self._failed(generation, details))
        else:
            self._request(0)

    def _request(self, offset: int) -> None:
        generation = self._generation
        self._loading = True
        self._update_buttons()
        workers.submit(call_tool_in_worker, "pdf_search", {**self._args, "max_results": PAGE_SIZE, "offset": offset},
                       owner=self, on_done=lambda result: self._arrived(generation, result),
                       on_error=lambda details: self._failed(generation, details))

    def more(self) -> None:
        """The next page of documents, when there is one and none is on its way."""
        if self.next_offset is not None and not self._loading:
            self._request(self.next_offset)

    def _scrolled(self, value: int) -> None:
        if self.isVisible() and value >= self._results.verticalScrollBar().maximum() > 0:
            self.more()

    def _arrived(self, generation: int, result: ToolResult) -> None:
        if generation != self._generation:
            return
        self._loading = False
        if result.is_error:
            self._failed(generation, dict(result.details))
            return
        details = dict(result.details)
        query = str(self._args.get("query", ""))
        for doc in details.get("documents") or []:
            item = QListWidgetItem()
            item.setData(DOCUMENT_ROLE, doc)
            item.setData(HTML_ROLE, document_html(doc, query))
            item.setToolTip(str(doc.get("file", "")))
            self._results.addItem(item)
            self.documents.append(doc)
        self.total = int(details.get("documents_total") or len(self.documents))
        self.next_offset = details.get("next_offset")
        if not self.documents:
            self._results.set_empty_text(f"No document holds every word of “{query}”.")  # type: ignore[attr-defined]
        self._status(self._summary(details))
        self._update_buttons()
        self.loaded.emit(details)
        if self.next_offset is None and self._after_load is not None:
            then, self._after_load = self._after_load, None
            then()
        elif self._after_load is not None:
            self.more()

    def _summary(self, details: dict[str, Any]) -> str:
        where = f" under {esc(self._folder)}" if self._folder else ""
        text = f"<b>{self.total:,}</b> document{'s' * (self.total != 1)}{where} match"
        if self.next_offset is not None:
            text += f" · {len(self.documents):,} shown, more on scrolling"
        muted = theme.colors()["muted"]
        notes = [str(details["note"])] if details.get("note") else []
        if details.get("documents_skipped"):
            notes.append(f"{len(details['documents_skipped'])} document(s) could not be searched.")
        return text + "".join(f'<br><span style="color:{muted}">{esc(n)}</span>' for n in notes)

    def _failed(self, generation: int, details: ErrorDetails | dict[str, Any]) -> None:
        if generation != self._generation:
            return
        self._loading, self._after_load = False, None
        hint = f"<br>{esc(str(details.get('hint')))}" if details.get("hint") else ""
        self._status(f'<span style="color:{theme.colors()["error"]}">'
                     f'{esc(str(details.get("message") or "Search failed."))}</span>{hint}')
        self._update_buttons()
        self.loaded.emit(details)

    def _update_buttons(self) -> None:
        self.more_button.setVisible(self.next_offset is not None)
        self.more_button.setEnabled(not self._loading)
        self.export_button.setEnabled(bool(self.documents) and not self._loading)

    # -- opening -----------------------------------------------------------------------------
    def activate(self, doc: dict[str, Any], page: int | None = None) -> None:
        """Open the document at `page` (its best page by default) with the query's hits highlighted."""
        file, page = str(doc.get("file", "")), int(page or doc.get("page") or (doc.get("best_pages") or [1])[0])
        query = str(self._args.get("query", ""))
        workers.submit(locate, query, file, page, self._passwords.get(file), owner=self,
                       on_done=lambda rects: self.pageRequested.emit(file, page, list(rects)),
                       on_error=lambda _details: self.pageRequested.emit(file, page, []))

    def _menu(self, pos: QPoint) -> None:
        item = self._results.itemAt(pos)
        doc = item.data(DOCUMENT_ROLE) if item is not None else None
        if not doc:
            return
        menu = QMenu(self._results)
        for page in doc.get("best_pages") or []:
            menu.addAction(f"Open p. {page}").triggered.connect(
                lambda _checked=False, page=page: self.activate(doc, int(page)))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self._results.viewport().mapToGlobal(pos))

    # -- export ------------------------------------------------------------------------------
    def choose_export(self) -> None:
        dialog = QFileDialog(self, "Export the list of documents", "documents.csv", "CSV files (*.csv)")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("csv")
        dialog.fileSelected.connect(lambda path: self.export_to(Path(path)))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def export_to(self, path: Path) -> None:
        """Write the complete list to `path` (loading the pages not shown yet first)."""
        def write() -> None:
            documents = list(self.documents)
            workers.submit(export_documents, documents, path, owner=self,
                           on_done=lambda count: self._exported(count, path),
                           on_error=lambda details: self._failed(self._generation, dict(details)))

        if self.next_offset is None and not self._loading:
            write()
            return
        self._after_load = write
        self._status(f"Loading all {self.total:,} documents to export them…")
        self.more()

    def _exported(self, count: int, path: Path) -> None:
        self._status(f"Exported {count:,} document{'s' * (count != 1)} to {esc(str(path))}.")
        self.exported.emit(count, str(path))
