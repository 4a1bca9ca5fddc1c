"""ChatSession: the conversation a front end (chat pane, `pdfdesk ask`) holds with the agent.

It picks the model (or the offline answerer when none is set up), keeps the history across
turns, and guarantees every `send` ends with exactly one `Done` — also when the consuming task is
cancelled (the stop button): then `Done(cancelled=True)` is yielded and the cancellation goes on
to the consumer at its next step.
"""

from __future__ import annotations

import asyncio
import logging
import re
import traceback
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from typing import Any

from pdfdesk.agent.events import AgentError, AgentEvent, Done
from pdfdesk.agent.loop import AgentLoop, ToolRunner, TurnState
from pdfdesk.agent.offline import OFFLINE_LABEL, OfflineAnswerer
from pdfdesk.agent.scope import ATTACHED, DOCUMENT, OPEN, Scope
from pdfdesk.core.config import Config, get_config
from pdfdesk.models.catalog import ModelNameError, ModelRef, agent_model, make_provider, parse_model
from pdfdesk.models.keys import scrub
from pdfdesk.models.providers.base import Message, ProviderError
from pdfdesk.tools import ToolResult, call_tool

log = logging.getLogger(__name__)


OLD_TOOL_TEXT = 4_000  # characters of an earlier turn's tool output kept in the history


def compact_history(history: list[Message]) -> None:
    """Before a new question: drop earlier page images and trim long tool outputs, so a long
    conversation does not resend megabytes per turn (the model can call the tool again)."""
    for message in history:
        for output in message.tool_outputs:
            if output.images:
                output.text += f"\n[{len(output.images)} page image(s) shown in an earlier turn, no longer attached]"
                output.images = []
            if len(output.text) > OLD_TOOL_TEXT:
                output.text = _trim_fenced(output.text, OLD_TOOL_TEXT)


_OPENING = re.compile(r"<<<PDF_CONTENT (\w+) ")


def _trim_fenced(text: str, limit: int) -> str:
    """Cut `text`, closing any PDF_CONTENT fence the cut left open (with its own nonce), so trimmed
    document text stays marked as untrusted."""
    cut = text[:limit]
    closings = "".join(f"\n<<<END_PDF_CONTENT {nonce}>>>" for nonce in _OPENING.findall(cut)
                       if f"<<<END_PDF_CONTENT {nonce}>>>" not in cut)
    return cut + " [...]" + closings + "\n[trimmed after its turn; call the tool again if needed]"


class ChatSession:
    """One conversation about a set of attached PDFs, or another scope (see `set_scope`)."""

    def __init__(self, documents: Sequence[str] = (), model: str | None = None, config: Config | None = None,
                 tool_runner: ToolRunner | None = None, setup_advice: bool = True, scope: Scope | None = None) -> None:
        self.config = config or get_config()
        # What the model may read; None: the attached documents (`documents`, kept up to date by the
        # front end). A library or folder scope reads the attached documents as well.
        self.scope: Scope | None = scope
        # Whether the first offline answer says how to set up a model: a front end that shows
        # the advice itself (the chat pane's banner) turns it off; it is never repeated.
        self.setup_advice = setup_advice
        self.tool_runner: ToolRunner = tool_runner or call_tool  # e.g. call_tool_isolated in the GUI
        # Passwords of attached encrypted documents: added to the tool calls on those documents,
        # never shown to the model (it sees neither the arguments added nor the values).
        self.passwords: dict[str, str] = {}
        self.documents: list[str] = []
        for reference in documents:
            self.attach(reference)
        self.history: list[Message] = []
        self._model_error: str | None = None
        self._model: ModelRef | None = None
        try:
            self._model = parse_model(model, self.config) if model else agent_model(self.config)
        except ModelNameError as exc:
            self._model_error = str(exc)

    def attach(self, reference: str) -> None:
        """Add a document to the conversation (once)."""
        if reference and reference not in self.documents:
            self.documents.append(reference)

    def set_scope(self, scope: Scope | None) -> None:
        """Change what the next answers may read (the history stays: earlier answers keep what
        they read, and the model is told the new scope with the next question)."""
        self.scope = scope

    def current_scope(self) -> Scope:
        """The scope of the next answer: "document" and "open" read their own documents; the
        others the attached ones (a library scope: those as well as the library)."""
        if self.scope is None:
            return Scope(ATTACHED, tuple(self.documents))
        if self.scope.kind in (DOCUMENT, OPEN):
            return self.scope
        return self.scope.with_documents([*self.scope.documents, *self.documents])

    def _call_with_password(self, name: str, args: dict[str, Any]) -> ToolResult:
        """A tool call with the password the user gave for its document, if any."""
        password = self.passwords.get(args.get("path", "")) if isinstance(args.get("path"), str) else None
        if password:
            args = {**args, "password": password}
        return self.tool_runner(name, args)

    @property
    def offline(self) -> bool:
        """True when no model is configured: the offline extractive answerer replies."""
        return self._model is None

    @property
    def model_label(self) -> str:
        return self._model.label if self._model else OFFLINE_LABEL

    def reset(self) -> None:
        """Forget the conversation (the documents stay attached)."""
        self.history.clear()

    async def send(self, text: str) -> AsyncIterator[AgentEvent]:
        """Answer `text`: text deltas, tool cards, citations, errors, then exactly one Done."""
        state = TurnState()
        label = self._model.label if self._model else None
        events = self._events(text, state)
        try:
            async for event in events:
                yield event
        except asyncio.CancelledError:
            yield Done(state.answer, tuple(state.citations), label, self.offline, cancelled=True)
            raise
        except Exception as exc:  # a bug must reach the user as a message, never end the stream silently
            log.error("chat turn failed\n%s", scrub("".join(traceback.format_exception(exc))).rstrip())
            yield AgentError("internal_error", scrub(f"The agent failed unexpectedly: {type(exc).__name__}: {exc}"),
                             "This is a bug in pdfdesk; please report it.")
        finally:
            await events.aclose()
        yield Done(state.answer, tuple(state.citations), label, self.offline)

    async def _events(self, text: str, state: TurnState) -> AsyncGenerator[AgentEvent, None]:
        if self._model_error:
            yield AgentError("validation_error", self._model_error,
                             "Fix the model name in Settings or config.toml ([models] agent).")
            return
        if self._model is None:
            advise, self.setup_advice = self.setup_advice, False
            scope = self.current_scope()
            answerer = OfflineAnswerer(scope.documents, self.config, self._call_with_password, scope)
            async for event in answerer.answer(text, state, advise=advise):
                yield event
            return
        compact_history(self.history)
        self.history.append(Message.user(text))
        try:
            provider = make_provider(self._model, self.config)
        except ProviderError as exc:
            yield AgentError("model_error", f"{self._model.label}: {exc.message}",
                             "Add the API key in Settings, or set the provider's environment variable.")
            return
        async with provider:
            scope = self.current_scope()
            loop = AgentLoop(provider, self._model.model, self.config, scope.documents, self._call_with_password,
                             scope)
            async for event in loop.run(self.history, state):
                yield event
