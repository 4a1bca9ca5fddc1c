"""The search panel: query, mode, granularity and scope; ranked results with excerpts; click → page.

It is a thin client of the `pdf_search` tool (in a killable tool process, off the UI thread), so
the window stays live while indexing holds MuPDF. Results carry hit rectangles; activating one emits
`resultActivated(document, page, rects)` and the window opens the page with the hits highlighted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QAbstractTextDocumentLayout, QColor, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractScrollArea, QApplication, QComboBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
    QProgressBar, QPushButton, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QVBoxLayout, QWidget,
)

from pdfdesk.core.references import display_name
from pdfdesk.gui import theme, workers
from pdfdesk.gui.document_results import CAPTION, DOCUMENT_ROLE, HTML_ROLE, DocumentResults, search_each, search_folder
from pdfdesk.gui.flow_layout import FlowLayout, labelled
from pdfdesk.gui.indexing import IndexProgress
from pdfdesk.gui.progress_line import ProgressLine, page_counts
from pdfdesk.gui.richtext import esc, highlight_terms, join_nonempty
from pdfdesk.gui.search_runs import OpenDocument, library_folders
from pdfdesk.gui.tool_calls import call_tool_in_worker
from pdfdesk.tools.contract import ToolResult
from pdfdesk.tools.details import ErrorDetails, SearchDetails, SearchMatch

MATCH_ROLE = Qt.ItemDataRole.UserRole + 1
NOTE_ROLE = Qt.ItemDataRole.UserRole + 3  # (document, annotation dict) of a matching note
MAX_RESULTS = 50
MAX_NOTES = 50
FIRST_HINT = 'Type words, a "phrase", OR, NOT or prefix* above and press Enter.'

CurrentDocument = Callable[[], "tuple[str, str | None] | None"]  # (reference, password) of the active tab
OpenDocuments = Callable[[], "list[OpenDocument]"]  # every open tab's, in tab order
Rect = tuple[float, float, float, float]


def result_colours(palette: QPalette, selected: bool, active: bool = True) -> dict[str, QColor]:
    """Background, text and caption colours of a result row, from the palette's roles (so a
    selected row reads as the selection's own text colour on it, in light and dark themes alike)."""
    group = QPalette.ColorGroup.Active if active else QPalette.ColorGroup.Inactive
    roles = (QPalette.ColorRole.Highlight, QPalette.ColorRole.HighlightedText) if selected else \
        (QPalette.ColorRole.Base, QPalette.ColorRole.Text)
    background, text = palette.color(group, roles[0]), palette.color(group, roles[1])
    caption = theme.secondary_text(text, background, None if selected else QColor(theme.colors()["muted"]))
    return {"background": background, "text": text, "caption": caption}


class ResultDelegate(QStyledItemDelegate):
    """Paints a result's rich text (file, page, section, excerpt with bold hits), wrapped to the width.
    The caption line's colour comes from a style sheet chosen per row state, not from the HTML."""

    MARGIN = 6

    def _document(self, index: QModelIndex | QPersistentModelIndex, width: int,
                  caption: QColor | None = None) -> QTextDocument:
        doc = QTextDocument()
        doc.setDocumentMargin(self.MARGIN)
        if caption is not None:
            doc.setDefaultStyleSheet(f".{CAPTION} {{ color: {caption.name()}; }}")
        doc.setHtml(index.data(HTML_ROLE) or "")
        doc.setTextWidth(max(width, 80))
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        colours = result_colours(opt.palette, bool(opt.state & QStyle.StateFlag.State_Selected),
                                 bool(opt.state & QStyle.StateFlag.State_Active))
        doc = self._document(index, opt.rect.width(), colours["caption"])
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(QPalette.ColorRole.Text, colours["text"])
        painter.save()
        painter.translate(opt.rect.topLeft())
        painter.setClipRect(QRectF(0, 0, opt.rect.width(), opt.rect.height()))
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        view = option.widget  # the results list
        width = view.viewport().width() if isinstance(view, QAbstractScrollArea) else option.rect.width()
        doc = self._document(index, width)
        return QSize(int(doc.idealWidth()), int(doc.size().height()) + 2)


class ResultList(QListWidget):
    """Re-lays out wrapped items when the panel is resized; while empty, shows a wrapped hint."""

    HINT_MARGIN = 8

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._empty_text = ""

    def set_empty_text(self, text: str) -> None:
        self._empty_text = text
        self.viewport().update()

    def empty_text(self) -> str:
        return self._empty_text

    def hint_rect(self) -> QRect:
        return self.viewport().rect().adjusted(self.HINT_MARGIN, self.HINT_MARGIN, -self.HINT_MARGIN, -self.HINT_MARGIN)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.scheduleDelayedItemsLayout()

    def paintEvent(self, event: Any) -> None:
        super().paintEvent(event)
        if self.count() or not self._empty_text:
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        flags = Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap
        painter.drawText(self.hint_rect(), int(flags), self._empty_text)
        painter.end()


def result_html(match: SearchMatch, query: str, library: bool) -> str:
    """One result as HTML: where it is (a caption line), then its excerpt with the query's words in bold."""
    if match["granularity"] == "section":
        where = (f"§ {esc(match.get('path') or match.get('title') or '')} · "
                 f"pp. {match.get('start_page')}–{match.get('end_page')} · hit on p. {match['page']}")
    else:
        where = join_nonempty([f"p. {match['page']}", esc(match.get("section") or "")])
    name = f"<b>{esc(display_name(match['file']))}</b> · " if library else ""
    flags = " · <i>related in meaning, no keyword match</i>" if match.get("low_confidence") else ""
    excerpt = highlight_terms(" ".join(match["excerpt"].split()), query, match.get("related_words", []))
    return f'<div class="{CAPTION}" style="font-size:small">{name}{where}{flags}</div><div>{excerpt}</div>'


def note_html(item: dict[str, Any], query: str, library: bool) -> str:
    """One matching note: a colour mark, where it is, its passage and note with the query in bold."""
    name = f"<b>{esc(display_name(str(item.get('path') or item.get('file') or '')))}</b> · " if library else ""
    status = f" · {esc(str(item['status']))}" if item.get("status") not in (None, "anchored") else ""
    quote = " ".join(str(item.get("quote") or "").split())[:300]
    note = " ".join(str(item.get("note") or (item.get("answer") or {}).get("text") or "").split())[:300]
    tags = ", ".join(str(t) for t in item.get("tags") or [])
    body = join_nonempty([f"“{highlight_terms(quote, query)}”" if quote else "", highlight_terms(note, query),
                          f"<i>{esc(tags)}</i>" if tags else ""], " — ")
    return (f'<div class="{CAPTION}" style="font-size:small"><span style="color:{esc(str(item.get("color") or ""))}">'
            f"■</span> {name}p. {esc(str(item.get('page')))}{status}</div><div>{body}</div>")


def _header(text: str) -> QListWidgetItem:
    item = QListWidgetItem()
    item.setData(HTML_ROLE, f"<b>{esc(text)}</b>")
    item.setFlags(Qt.ItemFlag.NoItemFlags)
    return item


class SearchPanel(QWidget):
    """Query box, options, indexing progress, results; emits `resultActivated(document, page, rects)`."""

    resultActivated = Signal(str, int, list)
    noteActivated = Signal(str, dict)  # document, annotation: a matching note was clicked
    notesFound = Signal(int)  # how many notes matched the last query (tests)
    searchFinished = Signal(dict)  # SearchDetails, or ErrorDetails on failure (tests and status bar)

    def __init__(self, current_document: CurrentDocument, parent: QWidget | None = None,
                 open_documents: OpenDocuments | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("searchPanel")
        self._current_document = current_document
        self._open_documents = open_documents or list
        self._generation = 0
        self._library_search = False
        self._last_query = ""
        self._build()

    # -- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        row = QHBoxLayout()
        self.query = QLineEdit(self)
        self.query.setPlaceholderText('Search: words, "exact phrase", OR, NOT, prefix*')
        self.query.setClearButtonEnabled(True)
        self.query.returnPressed.connect(self.search)
        self.button = QPushButton("Search", self)
        self.button.clicked.connect(self.search)
        row.addWidget(self.query, 1)
        row.addWidget(self.button)
        layout.addLayout(row)
        options = FlowLayout()
        self.mode = self._combo([("Auto", "auto"), ("Keyword", "keyword"), ("Semantic", "semantic")],
                                "auto: keyword + meaning when an embedding model is available")
        self.granularity = self._combo([("Pages", "page"), ("Sections", "section"), ("Documents", "document")],
                                       "Rank whole pages, outline sections / detected headings, or list every "
                                       "document holding all the words once")
        self.scope = self._combo([("This document", "document"), ("Open documents", "open"),
                                  ("Whole library", "library"), ("Library folder", "folder")],
                                 "Search the current tab's document, every open tab, every indexed library "
                                 "document, or the library documents under one folder")
        self.folder = QComboBox(self)
        self.folder.setToolTip("A folder holding library documents (its subfolders included)")
        self.scope.currentIndexChanged.connect(lambda _i: self._scope_changed())
        for label, combo in (("Mode", self.mode), ("By", self.granularity), ("In", self.scope)):
            options.addWidget(labelled(label, combo, self))
        self.folder_box = labelled("Folder", self.folder, self)
        self.folder_box.hide()
        options.addWidget(self.folder_box)
        layout.addLayout(options)
        self.progress_caption = QLabel(self)
        self.progress_caption.setObjectName("searchIndexCaption")
        self.progress_caption.hide()
        layout.addWidget(self.progress_caption)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("searchIndexProgress")
        self.progress.setTextVisible(True)
        self.progress.setMaximumHeight(16)
        self.progress.hide()
        layout.addWidget(self.progress)
        self._progress_line = ProgressLine(self.progress, self.progress_caption)
        self.status = QLabel(self)
        self.status.setObjectName("searchStatus")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.status)
        self.results = ResultList(self)
        self.results.setObjectName("searchResults")
        self.results.setItemDelegate(ResultDelegate(self.results))
        self.results.setWordWrap(True)
        self.results.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
        self.results.itemClicked.connect(self._activate)
        self.results.itemActivated.connect(self._activate)
        self.results.set_empty_text(FIRST_HINT)
        layout.addWidget(self.results, 1)
        self.documents_view = DocumentResults(self.results, self._set_status, self)
        self.documents_view.pageRequested.connect(self.resultActivated)
        layout.addWidget(self.documents_view)

    def _combo(self, items: list[tuple[str, str]], tip: str) -> QComboBox:
        combo = QComboBox(self)
        for label, value in items:
            combo.addItem(label, value)
        combo.setToolTip(tip)
        return combo

    # -- searching ---------------------------------------------------------------------------
    def focus_query(self) -> None:
        self.query.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.query.selectAll()

    def search(self) -> None:
        """Run the query off the UI thread; a newer search makes older answers stale."""
        query = self.query.text().strip()
        if not query:
            self._set_status("Type what to look for.")
            return
        scope, by = self.scope.currentData(), self.granularity.currentData()
        args: dict[str, Any] = {"query": query, "mode": self.mode.currentData()}
        if by != "document":
            args.update(granularity=by, max_results=MAX_RESULTS)
        opened = self._open_documents() if scope == "open" else []
        current = self._current_document() if scope == "document" else None
        folder = self.folder.currentData() if scope == "folder" else None
        if scope in ("library", "folder"):
            args["library"] = True
        elif scope == "document" and current is None:
            self._set_status("Open a document first, or search the whole library.")
            return
        elif scope == "open" and not opened:
            self._set_status("Open some documents first, or search the whole library.")
            return
        if scope == "folder" and not folder:
            self._set_status("Choose a folder of the library (add folders in the Library panel).")
            return
        if current is not None:
            args["path"] = current[0]
            if current[1]:
                args["password"] = current[1]
        self._generation += 1
        generation = self._generation
        self._library_search, self._last_query = scope != "document", query
        self._document = current[0] if current else None
        self.results.clear()
        self.results.set_empty_text("")
        self.documents_view.clear()
        self._set_status("Searching…")
        if by == "document":
            self.documents_view.start(args, folder, opened if scope == "open" else None)
            return
        show = lambda result: self._show(generation, result)  # noqa: E731
        failed = lambda details: self._show_error(generation, details)  # noqa: E731
        if scope == "open":
            search_each(self, opened, args, MAX_RESULTS, show)
        elif folder:
            workers.submit(search_folder, args, folder, MAX_RESULTS, owner=self, on_done=show, on_error=failed)
        else:
            workers.submit(call_tool_in_worker, "pdf_search", args, owner=self, on_done=show, on_error=failed)
        if scope in ("document", "library"):
            notes: dict[str, Any] = {"action": "list", "filter": {"text": query},
                                     **{k: args[k] for k in ("path", "password") if k in args}}
            workers.submit(call_tool_in_worker, "pdf_annotate", notes, owner=self,
                           on_done=lambda result: self._show_notes(generation, result), on_error=lambda _d: None)

    def _scope_changed(self) -> None:
        """Show the folder chooser for the folder scope, filled from the library (in a worker)."""
        wanted = self.scope.currentData() == "folder"
        self.folder_box.setVisible(wanted)
        if wanted:
            workers.submit(library_folders, owner=self, on_done=self._set_folders, on_error=lambda _d: None)

    def _set_folders(self, folders: list[str]) -> None:
        chosen = self.folder.currentData()
        self.folder.clear()
        for folder in folders:
            self.folder.addItem(folder, folder)
        if chosen in folders:
            self.folder.setCurrentIndex(folders.index(chosen))

    def _show_notes(self, generation: int, result: ToolResult) -> None:
        """Notes matching the query, as a group above the page hits (nothing when none match)."""
        if generation != self._generation:
            return
        items = [] if result.is_error else list(result.details.get("annotations") or [])[:MAX_NOTES]
        self.notesFound.emit(len(items))
        if not items:
            return
        rows = [_header(f"Notes ({len(items)})")]
        for note in items:
            document = str(note.get("path") or self._document or "")
            row = QListWidgetItem()
            row.setData(NOTE_ROLE, (document, note))
            row.setData(HTML_ROLE, note_html(note, self._last_query, self._library_search))
            row.setToolTip(document)
            rows.append(row)
        rows.append(_header("Pages"))
        for position, row in enumerate(rows):
            self.results.insertItem(position, row)

    def _show(self, generation: int, result: ToolResult) -> None:
        if generation != self._generation:
            return
        if result.is_error:
            self._show_error(generation, cast(ErrorDetails, dict(result.details)))
            return
        details = cast(SearchDetails, dict(result.details))
        for match in details["matches"]:
            item = QListWidgetItem()
            item.setData(MATCH_ROLE, match)
            item.setData(HTML_ROLE, result_html(match, self._last_query, self._library_search))
            item.setToolTip(match["file"])
            self.results.addItem(item)
        if not details["matches"]:
            wider = "" if self._library_search else ", or search the whole library"
            self.results.set_empty_text(f"Nothing matches “{self._last_query}”. Try other or fewer words{wider}.")
        self._set_status(self._summary(details))
        self.searchFinished.emit(details)

    def _summary(self, details: SearchDetails) -> str:
        count = details["count"]
        where = "the library" if details.get("library") else display_name(details.get("file", ""))
        if details.get("folder"):
            where = f"the library's documents under {details.get('folder')}"
        elif details.get("open_documents"):
            where = f"{details.get('documents_searched')} open document(s)"
        parts = [f"<b>{count}</b> result{'s' * (count != 1)} in {esc(where)} ({esc(details['mode'])})"]
        if details.get("library") and details.get("documents_searched") is not None:
            parts[0] += f" across {details['documents_searched']} indexed document(s)"
        if details.get("documents_skipped") and details.get("open_documents"):
            parts.append(f"{len(details['documents_skipped'])} could not be searched")
        if details.get("matches_omitted"):
            parts.append(f"{details['matches_omitted']} more omitted")
        muted = theme.colors()["muted"]
        notes = [note for note in (details.get("note"), details.get("semantic_note")) if note]
        if details.get("semantic_unavailable"):
            notes.append(f"Meaning-based search is off: {details['semantic_unavailable']}. Keyword results shown.")
        if details.get("library") and not details.get("documents_searched"):
            notes.append("No indexed documents in the library yet: add some in the Library panel.")
        text = " · ".join(parts)
        if notes:
            text += "".join(f'<br><span style="color:{muted}">{esc(str(n))}</span>' for n in notes)
        return text

    def _show_error(self, generation: int, details: ErrorDetails) -> None:
        if generation != self._generation:
            return
        colour = theme.colors()["error"]
        hint = f"<br>{esc(details.get('hint', ''))}" if details.get("hint") else ""
        self._set_status(f'<span style="color:{colour}">{esc(details.get("message", "Search failed."))}</span>{hint}')
        self.searchFinished.emit(details)

    def _set_status(self, html: str) -> None:
        self.status.setText(html)

    # -- results -----------------------------------------------------------------------------
    def _activate(self, item: QListWidgetItem) -> None:
        if item.data(DOCUMENT_ROLE):
            self.documents_view.activate(item.data(DOCUMENT_ROLE))
            return
        note = item.data(NOTE_ROLE)
        if note is not None:
            if note[0]:
                self.noteActivated.emit(note[0], note[1])
            return
        match = cast("SearchMatch | None", item.data(MATCH_ROLE))
        if match is None:
            return
        document = match["file"] if self._library_search else (self._document or match["file"])
        if not document:
            return
        rects = [tuple(float(v) for v in rect) for rect in match["rects"]]
        self.resultActivated.emit(str(document), int(match["page"]), rects)

    # -- indexing progress -------------------------------------------------------------------
    def show_index_progress(self, progress: IndexProgress | None) -> None:
        """The current document's build: a bar while it runs, hidden when complete. The dock is
        narrow, so the bar only counts pages; the file name and the reassurance that search works
        meanwhile are in a wrapped caption above it (and the whole sentence in the tooltips)."""
        if progress is None or progress.complete or progress.error or not progress.pages_total:
            self._progress_line.hide()
            return
        done, total = progress.pages_done, progress.pages_total
        self._progress_line.report(
            done, total, page_counts(done, total), caption="Indexing {name} · search works meanwhile",
            name=progress.name,
            tooltip=f"Indexing {progress.name}: {done:,} of {total:,} pages (search works meanwhile)")
