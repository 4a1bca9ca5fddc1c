"""The chat pane: ask the agent about the attached documents, watch it work, click its citations.

A turn runs as an asyncio task on the qasync loop (the agent is async and runs its tools in
threads, so the UI thread only handles events). Text deltas are coalesced and re-rendered at most
every `RENDER_MS`; only the running turn is re-rendered, finished turns stay as they are. Tool
calls become compact cards with page thumbnails (decoded off the UI thread); citations become
`pdfdesk://open` links that open the document at the page with the passage highlighted.
"""

from __future__ import annotations

import asyncio
import base64
import inspect
import itertools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QImage, QKeyEvent, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSizePolicy, QTextBrowser, QToolButton,
    QVBoxLayout, QWidget,
)

from pdfdesk.agent.events import (
    AgentError, Citation, CitationFound, Done, TextDelta, ToolCallFinished, ToolCallStarted,
)
from pdfdesk.core.fence import neutralise
from pdfdesk.gui import theme, workers
from pdfdesk.gui.drops import local_pdf_paths
from pdfdesk.gui.richtext import citation_href, esc, markdown_html, parse_citation_href

log = logging.getLogger(__name__)

RENDER_MS = 40
THUMB_WIDTH = 110
SessionFactory = Callable[[Sequence[str]], Any]  # documents -> ChatSession


def default_session_factory(documents: Sequence[str]) -> Any:
    """The agent's session; its tool calls run in killable worker processes, like the panels'."""
    from pdfdesk.agent.session import ChatSession
    from pdfdesk.gui.tool_calls import run_tool

    return ChatSession(documents=list(documents), tool_runner=run_tool)


# -- what a turn holds ---------------------------------------------------------------------------
@dataclass
class TextPart:
    text: str = ""


@dataclass
class ToolCard:
    call_id: str
    name: str
    arguments: dict[str, Any]
    finished: bool = False
    is_error: bool = False
    summary: str = ""
    thumbs: list[str] = field(default_factory=list)  # resource URLs of decoded thumbnails


@dataclass
class Turn:
    number: int
    question: str
    parts: list[TextPart | ToolCard] = field(default_factory=list)
    citations: dict[str, Citation] = field(default_factory=dict)  # key -> citation
    errors: list[AgentError] = field(default_factory=list)
    status: str = "running"  # running | done | cancelled | failed
    model: str | None = None
    offline: bool = False

    def text_part(self) -> TextPart:
        if not self.parts or not isinstance(self.parts[-1], TextPart):
            self.parts.append(TextPart())
        return self.parts[-1]  # type: ignore[return-value]

    def card(self, call_id: str) -> ToolCard | None:
        return next((p for p in self.parts if isinstance(p, ToolCard) and p.call_id == call_id), None)


def short_arguments(arguments: dict[str, Any], limit: int = 60) -> str:
    """`path=report.pdf, query="fees"`: file names instead of paths, long values cut, and every
    key and value one inert line (a model or a document chose them)."""
    shown = []
    for key, value in arguments.items():
        if key == "password":
            value = "•••"
        elif key in ("path", "pdf") and isinstance(value, str):
            value = Path(value.split("?", 1)[0]).name or value
        text = neutralise(value, limit=limit)
        if isinstance(value, str) and key not in ("path", "pdf"):
            text = f'"{text}"'
        shown.append(f"{neutralise(key, limit=limit)}={text}")
    return ", ".join(shown)


def card_text(text: str) -> str:
    """Outside text for rich text on one line: neutralised (line breaks, markers), then HTML-escaped."""
    return esc(neutralise(text, limit=None, quotes=False))


def decode_thumbnail(data_b64: str, width: int = THUMB_WIDTH) -> QImage | None:
    """Worker: a base64 PNG scaled to a thumbnail (QImage is safe to build off the UI thread)."""
    try:
        raw = base64.b64decode(data_b64, validate=False)
    except (ValueError, TypeError):
        return None
    image = QImage()
    if not image.loadFromData(QByteArray(raw)):
        return None
    return image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)


# -- the pane ------------------------------------------------------------------------------------
class ChatInput(QPlainTextEdit):
    """Enter sends, Shift+Enter starts a new line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class Chip(QFrame):
    """An attached document: its name and a remove button."""

    removed = Signal(str)

    def __init__(self, reference: str, current: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reference = reference
        self.setObjectName("attachmentChip")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 1, 2, 1)
        row.setSpacing(2)
        name = neutralise(Path(reference.split("?", 1)[0]).name or reference)
        self.label = QLabel(name + (" (current tab)" if current else ""), self)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # a file name is never markup
        self.label.setToolTip(f"<p>{card_text(reference)}</p>")
        close = QToolButton(self)
        close.setText("×")
        close.setAutoRaise(True)
        close.setToolTip("Do not send this document to the agent")
        close.clicked.connect(lambda: self.removed.emit(self.reference))
        row.addWidget(self.label)
        row.addWidget(close)


class ChatPane(QWidget):
    citationActivated = Signal(str, int, list, str)  # document, page, rects, excerpt
    settingsRequested = Signal()
    turnFinished = Signal(object)  # the Turn
    sessionReady = Signal(object)  # the ChatSession, once built (model chosen)

    def __init__(self, session_factory: SessionFactory | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatPane")
        self.setAcceptDrops(True)
        self._factory = session_factory or default_session_factory
        self._session: Any | None = None
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
        self.banner = QFrame(self)
        self.banner.setObjectName("offlineBanner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.setStyleSheet(f"#offlineBanner {{ background: {theme.colors()['banner']}; }}")
        banner_row = QHBoxLayout(self.banner)
        banner_row.setContentsMargins(8, 4, 8, 4)
        self.banner_text = QLabel(self.banner)
        self.banner_text.setWordWrap(True)
        self.setup_button = QPushButton("Set up a model…", self.banner)
        self.setup_button.clicked.connect(self.settingsRequested)
        banner_row.addWidget(self.banner_text, 1)
        banner_row.addWidget(self.setup_button)
        self.banner.hide()  # shown once the session says whether a model is set up
        layout.addWidget(self.banner)

        self.transcript = QTextBrowser(self)
        self.transcript.setObjectName("chatTranscript")
        self.transcript.setOpenLinks(False)
        self.transcript.setOpenExternalLinks(False)
        self.transcript.anchorClicked.connect(self._link_clicked)
        self.transcript.document().setDefaultStyleSheet(
            "p { margin: 2px 0 6px 0; } pre { font-family: monospace; } h3, h4, h5, h6 { margin: 6px 0 2px 0; }")
        self.transcript.setPlaceholderText("Ask about the attached documents. Answers cite pages you can click.")
        layout.addWidget(self.transcript, 1)

        self.chips = QWidget(self)
        self.chips_row = QHBoxLayout(self.chips)
        self.chips_row.setContentsMargins(0, 0, 0, 0)
        self.chips_row.setSpacing(4)
        self.chips.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.chips)

        self.input = ChatInput(self)
        self.input.setObjectName("chatInput")
        self.input.setPlaceholderText("Ask the agent (Enter to send, Shift+Enter for a new line; drop PDFs here to attach)")
        self.input.setMaximumHeight(90)
        self.input.submitted.connect(self.send)
        layout.addWidget(self.input)
        buttons = QHBoxLayout()
        self.model_label = QLabel(self)
        self.model_label.setObjectName("chatModel")
        self.new_button = QPushButton("New chat", self)
        self.new_button.setToolTip("Forget this conversation and start again")
        self.new_button.clicked.connect(self.new_chat)
        self.stop_button = QPushButton("Stop", self)
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.send_button = QPushButton("Send", self)
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.send)
        buttons.addWidget(self.model_label, 1)
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

        def built(session: Any) -> None:
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

        def failed(details: dict) -> None:
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
            self.banner_text.setText(f"The agent cannot start: {esc(self._session_error or 'unknown error')}")
            self.banner.show()
            self.model_label.setText("")
            return
        offline = bool(getattr(session, "offline", False))
        self.model_label.setText(esc(str(getattr(session, "model_label", ""))))
        self.banner_text.setText(
            "<b>No model is set up.</b> Answers come from the offline answerer: passages found in the "
            "documents, with page citations. Add an API key or a local model to get written answers.")
        self.banner.setVisible(offline)

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
    def session(self) -> Any | None:
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

    def _sync_documents(self) -> None:
        if self._session is not None and hasattr(self._session, "documents"):
            self._session.documents[:] = self.documents()
            if hasattr(self._session, "passwords"):
                self._session.passwords.update(self._passwords)
        while self.chips_row.count():
            item = self.chips_row.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        for reference in self.documents():
            chip = Chip(reference, reference == self._current and reference not in self._attached, self.chips)
            chip.removed.connect(self.detach)
            self.chips_row.addWidget(chip)
        self.chips_row.addStretch(1)

    def dragEnterEvent(self, event: Any) -> None:
        if local_pdf_paths(event.mimeData()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event: Any) -> None:
        if local_pdf_paths(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: Any) -> None:
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
        stream: Any = None
        try:
            stream = self._session.send(text)
            if inspect.isawaitable(stream):
                stream = await stream
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

    def _handle(self, turn: Turn, event: Any) -> None:
        if isinstance(event, TextDelta):
            turn.text_part().text += event.text
        elif isinstance(event, ToolCallStarted):
            turn.parts.append(ToolCard(event.call_id, event.name, dict(event.arguments)))
        elif isinstance(event, ToolCallFinished):
            card = turn.card(event.call_id) or ToolCard(event.call_id, event.name, {})
            if card not in turn.parts:
                turn.parts.append(card)
            card.finished, card.is_error, card.summary = True, event.is_error, event.summary
            for data in event.images[:4]:
                self._decode_thumbnail(turn, card, data)
        elif isinstance(event, CitationFound):
            self._add_citation(turn, event.citation)
        elif isinstance(event, AgentError):
            turn.errors.append(event)
        elif isinstance(event, Done):
            for citation in event.citations:
                self._add_citation(turn, citation)
            turn.model, turn.offline = event.model, event.offline
            turn.status = "cancelled" if event.cancelled else ("failed" if turn.errors and not event.text else "done")
            if event.text and not any(isinstance(p, TextPart) and p.text.strip() for p in turn.parts):
                turn.text_part().text = event.text
        self._schedule_render()

    def _add_citation(self, turn: Turn, citation: Citation) -> None:
        for existing in turn.citations.values():
            if (existing.document, existing.page) == (citation.document, citation.page):
                if citation.rects and not existing.rects or citation.excerpt and not existing.excerpt:
                    key = next(k for k, v in turn.citations.items() if v is existing)
                    turn.citations[key] = citation
                return
        turn.citations[f"{turn.number}-{len(turn.citations) + 1}"] = citation

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
        colours = theme.colors()
        out = [f'<table width="100%" cellpadding="6" style="background:{colours["user"]}; margin-top:6px">'
               f"<tr><td><b>You:</b> {esc(turn.question)}</td></tr></table>"]
        resolve = self._resolver(turn)
        for part in turn.parts:
            if isinstance(part, TextPart):
                out.append(markdown_html(part.text, resolve))
            else:
                out.append(self._card_html(part, colours))
        for error in turn.errors:
            hint = f"<br>{card_text(error.hint)}" if error.hint else ""
            out.append(f'<p style="color:{colours["error"]}"><b>{card_text(error.message)}</b>{hint}</p>')
        if turn.citations:
            links = " &nbsp; ".join(
                f'<a href="{esc(citation_href(c.document, c.page, key))}">{card_text(c.label or _label(c))}</a>'
                for key, c in turn.citations.items())
            out.append(f'<p style="color:{colours["muted"]}">Sources: {links}</p>')
        footer = {"running": "Thinking…", "cancelled": "Stopped.", "failed": "", "done": ""}[turn.status]
        if turn.status != "running" and (turn.model or turn.offline):
            footer = (footer + " " if footer else "") + ("offline answerer" if turn.offline else esc(turn.model or ""))
        if footer:
            out.append(f'<p style="color:{colours["muted"]}; font-size:small"><i>{footer}</i></p>')
        return "\n".join(out)

    def _card_html(self, card: ToolCard, colours: dict[str, str]) -> str:
        state = "…" if not card.finished else ("✗" if card.is_error else "✓")
        summary_colour = colours["error"] if card.is_error else colours["muted"]
        summary = f'<br><span style="color:{summary_colour}">{card_text(card.summary)}</span>' if card.summary else ""
        thumbs = "".join(f'<img src="{url}" width="{THUMB_WIDTH}"> ' for url in card.thumbs)
        thumbs = f"<br>{thumbs}" if thumbs else ""
        return (f'<table width="100%" cellpadding="4" border="1" cellspacing="0" '
                f'style="border-color:{colours["border"]}; background:{colours["card"]}; margin:4px 0">'
                f"<tr><td>{state} <b>{card_text(card.name)}</b> "
                f'<span style="font-family:monospace; font-size:small">{esc(short_arguments(card.arguments))}</span>'
                f"{summary}{thumbs}</td></tr></table>")

    def _resolver(self, turn: Turn) -> Callable[[str | None, int], str | None]:
        def resolve(name: str | None, page: int) -> str | None:
            for key, citation in turn.citations.items():
                if citation.page == page and (name is None or _same_name(citation.document, name)):
                    return citation_href(citation.document, page, key)
            candidates = [d for d in self.documents() if name is None or _same_name(d, name)]
            return citation_href(candidates[0], page) if len(candidates) == 1 else None

        return resolve

    def _append_note(self, text: str) -> None:
        cursor = self.transcript.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertHtml(f'<p style="color:{theme.colors()["muted"]}"><i>{esc(text)}</i></p>')
        self._turn_start = cursor.position()

    # -- links -------------------------------------------------------------------------------
    def _link_clicked(self, url: QUrl) -> None:
        href = url.toString()
        parsed = parse_citation_href(href)
        if parsed is not None:
            document, page, key = parsed
            citation = self._find_citation(key, document, page)
            rects = [tuple(r) for r in citation.rects] if citation else []
            excerpt = (citation.excerpt or "") if citation else ""
            self.citationActivated.emit(document, page, rects, excerpt)
        elif url.scheme() in ("http", "https"):
            QDesktopServices.openUrl(url)

    def _find_citation(self, key: str | None, document: str, page: int) -> Citation | None:
        for turn in reversed(self._turns):
            if key and key in turn.citations:
                return turn.citations[key]
        for turn in reversed(self._turns):
            for citation in turn.citations.values():
                if citation.document == document and citation.page == page:
                    return citation
        return None

    def turns(self) -> list[Turn]:
        return list(self._turns)


def _label(citation: Citation) -> str:
    return f"{neutralise(Path(citation.document.split('?', 1)[0]).name)} p. {citation.page}"


def _same_name(reference: str, name: str) -> bool:
    return Path(reference.split("?", 1)[0]).name.lower() == Path(name.strip()).name.lower()
