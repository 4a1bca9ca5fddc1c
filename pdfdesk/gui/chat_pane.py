"""The chat pane: ask the agent about the attached documents, watch it work, click its citations.

A turn runs as an asyncio task on the qasync loop (the agent is async and runs its tools in
threads, so the UI thread only handles events). Text deltas are coalesced and re-rendered at most
every `RENDER_MS`; only the running turn is re-rendered, finished turns stay as they are. Tool
calls become compact cards with page thumbnails (decoded off the UI thread); citations become
`pdfdesk://open` links that open the document at the page with the passage highlighted.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QAction, QDesktopServices, QDragEnterEvent, QDragMoveEvent, QDropEvent, QImage, QTextCursor, QTextDocument,
)
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from pdfdesk.agent.events import AgentError, AgentEvent
from pdfdesk.agent.scope import ATTACHED, Scope
from pdfdesk.gui import theme, workers
from pdfdesk.gui.chat_scope import NAMES_ITS_DOCUMENTS, ScopeSelector, empty_hint
from pdfdesk.gui.chat_session import ChatSessionLike, SessionFactory, default_session_factory
from pdfdesk.gui.chat_transcript import ToolCard, Turn, decode_thumbnail, find_citation, turn_html
from pdfdesk.gui.chat_widgets import ChatInput, Chip, EmptyHint, SetupBanner
from pdfdesk.gui.drops import local_pdf_paths
from pdfdesk.gui.flow_layout import FlowLayout
from pdfdesk.gui.pin import pin_target
from pdfdesk.gui.richtext import esc, parse_citation_href
from pdfdesk.tools.details import ErrorDetails

log = logging.getLogger(__name__)

RENDER_MS = 40
OpenDocuments = Callable[[], "list[tuple[str, str | None]]"]  # every open tab's (reference, password)


# -- the pane ------------------------------------------------------------------------------------
class ChatPane(QWidget):
    citationActivated = Signal(str, int, list, str)  # document, page, rects, excerpt
    settingsRequested = Signal()
    turnFinished = Signal(object)  # the Turn
    sessionReady = Signal(object)  # the ChatSession, once built (model chosen)
    pinRequested = Signal(object, object)  # a finished Turn, the Citation to pin it on (None: its first)

    def __init__(self, session_factory: SessionFactory | None = None, parent: QWidget | None = None,
                 open_documents: OpenDocuments | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatPane")
        self.setAcceptDrops(True)
        self._factory = session_factory or default_session_factory
        self._open_documents = open_documents or list
        self._session: ChatSessionLike | None = None
        self._session_error: str | None = None
        self._session_generation = 0
        self._queued: str | None = None
        self._attached: list[str] = []
        self._current: str | None = None
        self._skip_current: set[str] = set()
        self._passwords: dict[str, str] = {}  # unlocked documents: the agent's tool calls need them
        self._turns: list[Turn] = []
        self._task: asyncio.Task | None = None
        self._turn_start = 0
        self._image_ids = itertools.count(1)
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(RENDER_MS)
        self._render_timer.timeout.connect(self._render_current)
        self._build()
        self._new_session()

    # -- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.banner = SetupBanner(self)
        self.banner_text, self.setup_button = self.banner.text, self.banner.button
        self.banner.setupRequested.connect(self.settingsRequested)
        layout.addWidget(self.banner)

        self.transcript = QTextBrowser(self)
        self.transcript.setObjectName("chatTranscript")
        self.transcript.setOpenLinks(False)
        self.transcript.setOpenExternalLinks(False)
        self.transcript.anchorClicked.connect(self._link_clicked)
        self.transcript.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.transcript.customContextMenuRequested.connect(self._context_menu)
        self.transcript.document().setDefaultStyleSheet(
            "p { margin: 2px 0 6px 0; } pre { font-family: monospace; } h3, h4, h5, h6 { margin: 6px 0 2px 0; }")
        self.empty_hint = EmptyHint(empty_hint(ATTACHED), self.transcript)
        layout.addWidget(self.transcript, 1)

        self.chips = QWidget(self)
        self.chips_row = FlowLayout(self.chips, spacing=4)  # many attachments wrap, never widen the pane
        self.chips.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        layout.addWidget(self.chips)
        self.scope_selector = ScopeSelector(self)  # what the agent may read: attached, tabs, library
        self.scope_selector.changed.connect(self._sync_documents)
        layout.addWidget(self.scope_selector)

        # which model answers, on its own line: beside the buttons it held the pane wide
        self.model_label = QLabel(self)
        self.model_label.setObjectName("chatModel")
        self.model_label.setWordWrap(True)
        self.model_label.setEnabled(False)  # drawn in the palette's quieter text colour
        layout.addWidget(self.model_label)
        self.input = ChatInput(self)
        self.input.setObjectName("chatInput")
        self.input.setPlaceholderText(
            "Ask the agent (Enter to send, Shift+Enter for a new line; drop PDFs here to attach)")
        self.input.setMaximumHeight(90)
        self.input.submitted.connect(self.send)
        layout.addWidget(self.input)
        buttons = QHBoxLayout()
        self.new_button = QPushButton("New chat", self)
        self.new_button.setToolTip("Forget this conversation and start again")
        self.new_button.clicked.connect(self.new_chat)
        self.stop_button = QPushButton("Stop", self)
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.send_button = QPushButton("Send", self)
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.send)
        buttons.addStretch(1)
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.send_button)
        layout.addLayout(buttons)

    # -- session -----------------------------------------------------------------------------
    def _new_session(self, note_change: bool = False) -> None:
        """Build the session in a worker: choosing a model may ask the OS keyring, which can block."""
        self._session_generation += 1
        generation = self._session_generation
        before = getattr(self._session, "model_label", None)
        self._session, self._session_error = None, None
        self.model_label.setText("starting the agent…")

        def built(session: ChatSessionLike) -> None:
            if generation != self._session_generation:
                return
            self._session = session
            self._sync_documents()  # attachments may have changed meanwhile
            self._update_model_display()
            after = getattr(session, "model_label", None)
            if note_change and before is not None and before != after and self._turns and not self.running:
                self._append_note(f"Model changed to {after}; the next question starts a new conversation.")
            self.sessionReady.emit(session)
            if self._queued is not None:
                text, self._queued = self._queued, None
                self._start(text)

        def failed(details: ErrorDetails) -> None:
            if generation != self._session_generation:
                return
            log.warning("chat session could not start: %s", details.get("message"))
            self._session_error = details.get("message") or "unknown error"
            self._update_model_display()
            if self._queued is not None:
                self._queued = None
                self._append_note(f"The agent cannot start: {self._session_error}")

        workers.submit(self._factory, self.documents(), owner=self, on_done=built, on_error=failed)

    def _update_model_display(self) -> None:
        session = self._session
        if session is None and self._session_error is None:
            return
        if session is None:
            self.banner.show_failure(self._session_error or "unknown error")
            self.model_label.setText("")
            return
        self.model_label.setText(f"Model: {esc(str(session.model_label))}")
        self.banner.show_offline(bool(session.offline))

    def reload_settings(self) -> None:
        """The config changed (settings dialog): start a new session with the new model."""
        if self.running:
            self.stop()
        self._new_session(note_change=True)

    def new_chat(self) -> None:
        if self.running:
            self.stop()
        self._turns.clear()
        self.transcript.clear()
        self._new_session()

    @property
    def session(self) -> ChatSessionLike | None:
        return self._session

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    # -- attachments -------------------------------------------------------------------------
    def documents(self) -> list[str]:
        """What the agent reads: the attached documents, then the current tab's (unless removed)."""
        docs = list(self._attached)
        if self._current and self._current not in docs and self._current not in self._skip_current:
            docs.append(self._current)
        return docs

    def attach(self, reference: str) -> None:
        if reference not in self._attached:
            self._attached.append(reference)
        self._skip_current.discard(reference)
        self._sync_documents()

    def detach(self, reference: str) -> None:
        if reference in self._attached:
            self._attached.remove(reference)
        if reference == self._current:
            self._skip_current.add(reference)
        self._sync_documents()

    def set_current_document(self, reference: str | None, password: str | None = None) -> None:
        """The current tab's document (and its password, when the user unlocked it)."""
        self._current = reference
        if reference and password:
            self._passwords[reference] = password
        self._sync_documents()

    def scope(self) -> Scope | None:
        """The chosen scope, with the documents it names now (None: the attached documents)."""
        opened = self._open_documents()
        self._passwords.update((reference, password) for reference, password in opened if password)
        scope = self.scope_selector.scope(self._current, [reference for reference, _ in opened], self.documents())
        return None if scope is None or scope.kind == ATTACHED else scope

    def read_documents(self) -> list[str]:
        """The documents the next answer reads by name (citations resolve against them)."""
        scope = self.scope()
        return list(scope.documents) if scope is not None and scope.kind in NAMES_ITS_DOCUMENTS else self.documents()

    def _sync_documents(self) -> None:
        self.chips.setVisible(self.scope_selector.current_kind() not in NAMES_ITS_DOCUMENTS)
        self.empty_hint.setText(empty_hint(self.scope_selector.current_kind()))
        if self._session is not None and hasattr(self._session, "set_scope"):
            self._session.set_scope(self.scope())
        if self._session is not None and hasattr(self._session, "documents"):
            self._session.documents[:] = self.documents()
            if hasattr(self._session, "passwords"):
                self._session.passwords.update(self._passwords)
        while self.chips_row.count():
            item = self.chips_row.takeAt(0)
            chip = item.widget() if item is not None else None
            if chip:
                chip.deleteLater()
        for reference in self.documents():
            chip = Chip(reference, reference == self._current and reference not in self._attached, self.chips)
            chip.removed.connect(self.detach)
            self.chips_row.addWidget(chip)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if local_pdf_paths(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if local_pdf_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = local_pdf_paths(event.mimeData())
        if not paths:
            return
        event.acceptProposedAction()
        from pdfdesk.index.library import expand_pdf_paths

        def attach_all(found: list[Path]) -> None:
            for path in found:
                if path.suffix.lower() == ".pdf":
                    self.attach(str(path))

        workers.submit(expand_pdf_paths, paths, owner=self, on_done=attach_all)

    # -- a turn ------------------------------------------------------------------------------
    def focus_input(self) -> None:
        self.input.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def ask(self, text: str) -> None:
        self.input.setPlainText(text)
        self.send()

    def send(self) -> None:
        """Send the input box's question (queued until the session is ready)."""
        text = self.input.toPlainText().strip()
        if not text or self.running or self._queued is not None:
            return
        self.input.clear()
        if self._session is None:
            if self._session_error is not None:
                self._append_note(f"The agent cannot start: {self._session_error}")
                return
            self._queued = text  # the session is being built; it starts the turn when ready
            return
        self._start(text)

    def _start(self, text: str) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._append_note("The agent needs the application's event loop; start pdfdesk through `pdfdesk`.")
            return
        self._sync_documents()
        turn = Turn(len(self._turns) + 1, text)
        self._turns.append(turn)
        self._begin_turn()
        self._task = loop.create_task(self._run(turn, text))
        self.stop_button.setEnabled(True)
        self.send_button.setEnabled(False)

    def stop(self) -> None:
        """Cancel the running turn (the agent closes its streams and reports a cancelled Done)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def _run(self, turn: Turn, text: str) -> None:
        stream: AsyncIterator[AgentEvent] | None = None
        try:
            assert self._session is not None  # a turn starts only once the session is built
            sent = self._session.send(text)
            stream = await sent if inspect.isawaitable(sent) else sent
            async for event in stream:
                self._handle(turn, event)
        except asyncio.CancelledError:
            turn.status = "cancelled"
        except Exception as exc:  # the agent reports errors as events; this is the last resort
            log.warning("chat turn failed", exc_info=True)
            turn.errors.append(AgentError("internal_error", f"{type(exc).__name__}: {exc}"))
            turn.status = "failed"
        finally:
            if stream is not None and hasattr(stream, "aclose"):
                try:
                    await stream.aclose()
                except (Exception, asyncio.CancelledError):
                    pass
            self._finish(turn)

    def _handle(self, turn: Turn, event: AgentEvent) -> None:
        for card, data in turn.apply(event):
            self._decode_thumbnail(turn, card, data)
        self._schedule_render()

    def _decode_thumbnail(self, turn: Turn, card: ToolCard, data: str) -> None:
        def show(image: QImage | None) -> None:
            if image is None or image.isNull():
                return
            url = f"thumb://{next(self._image_ids)}"
            self.transcript.document().addResource(QTextDocument.ResourceType.ImageResource, QUrl(url), image)
            card.thumbs.append(url)
            if self._turns and turn is self._turns[-1]:
                self._schedule_render()

        workers.submit(decode_thumbnail, data, owner=self, on_done=show)

    def _finish(self, turn: Turn) -> None:
        if turn.status == "running":
            turn.status = "done"
        self._render_timer.stop()
        self._render_current()
        self._task = None
        self.stop_button.setEnabled(False)
        self.send_button.setEnabled(True)
        self.turnFinished.emit(turn)

    # -- rendering ---------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        cursor = self.transcript.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if not self.transcript.document().isEmpty():
            cursor.insertBlock()
        self._turn_start = cursor.position()
        self._render_current()

    def _schedule_render(self) -> None:
        if not self._render_timer.isActive():
            self._render_timer.start()

    def _render_current(self) -> None:
        if not self._turns:
            return
        bar = self.transcript.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 4
        cursor = QTextCursor(self.transcript.document())
        cursor.setPosition(min(self._turn_start, self.transcript.document().characterCount() - 1))
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertHtml(self.turn_html(self._turns[-1]))
        if at_bottom:
            bar.setValue(bar.maximum())

    def turn_html(self, turn: Turn) -> str:
        return turn_html(turn, self.read_documents(), theme.colors())

    def _append_note(self, text: str) -> None:
        cursor = self.transcript.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertHtml(f'<p style="color:{theme.colors()["muted"]}"><i>{esc(text)}</i></p>')
        self._turn_start = cursor.position()

    # -- links -------------------------------------------------------------------------------
    def _link_clicked(self, url: QUrl) -> None:
        href = url.toString()
        parsed = parse_citation_href(href)
        if href.startswith("pdfdesk://pin"):
            target = pin_target(self._turns, href)
            if target is not None:
                self.pinRequested.emit(*target)
        elif parsed is not None:
            document, page, key = parsed
            citation = find_citation(self._turns, key, document, page)
            rects = [tuple(r) for r in citation.rects] if citation else []
            excerpt = (citation.excerpt or "") if citation else ""
            self.citationActivated.emit(document, page, rects, excerpt)
        elif url.scheme() in ("http", "https"):
            QDesktopServices.openUrl(url)

    def _context_menu(self, pos: QPoint) -> None:
        """The text's usual menu; on a citation of a finished answer, "Pin to notes" first."""
        menu = self.transcript.createStandardContextMenu(pos)
        target = pin_target(self._turns, self.transcript.anchorAt(pos))
        if target is not None:
            pin = QAction("Pin to notes", menu)
            pin.triggered.connect(lambda _checked=False: self.pinRequested.emit(*target))
            if menu.actions():
                menu.insertAction(menu.actions()[0], pin)
            else:
                menu.addAction(pin)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.transcript.viewport().mapToGlobal(pos))

    def turns(self) -> list[Turn]:
        return list(self._turns)

