"""The agent loop: stream a model turn, run the tools it asks for, repeat, cite pages.

It is front-end neutral: it yields `events` (text, tool cards, citations, errors) and keeps the
answer's text and citations in a `TurnState`; ChatSession adds the one closing `Done`. Tool calls
run in a worker thread so an event loop (qasync in the GUI) never blocks on MuPDF.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pdfdesk.agent.citations import CitationTracker
from pdfdesk.agent.events import (
    AgentError, AgentEvent, Citation, CitationFound, TextDelta, ToolCallFinished, ToolCallStarted,
)
from pdfdesk.agent.prompts import LAST_TURN_NOTE, chat_tools, system_prompt
from pdfdesk.agent.scope import ATTACHED, FOLDER, Collection, Scope, is_bare_name
from pdfdesk.core.config import Config
from pdfdesk.core.errors import PERMISSION_DENIED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.fence import neutralise
from pdfdesk.models.providers.base import (
    ChatRequest, Message, Provider, ProviderError, StreamEnd, StreamText, TextPart, ToolCall, ToolOutput, ToolSpec,
)
from pdfdesk.tools import Tool, ToolResult, call_tool, get_tool
from pdfdesk.tools.contract import ChatUse

log = logging.getLogger(__name__)

ToolRunner = Callable[[str, dict[str, Any]], ToolResult]
"""Runs one registry tool: `call_tool`, or `pdfdesk.tools.isolated.call_tool_isolated` in a front end
that wants hostile PDFs kept in a killable worker process."""

MAX_TOOL_TEXT = 60_000       # characters of one tool result sent back to the model
_HINTS = {
    "timeout": "The model took too long; try again, or raise [agent] timeoutSeconds in config.toml.",
    "connection": "Check the network, or that the local model server is running at its base URL.",
    "auth": "The API key was refused; check it in Settings (or the environment variable).",
    "no_key": "Add the API key in Settings, or set the provider's environment variable.",
    "bad_reply": ("The server at the model's address did not answer like the provider's API (a proxy, a login "
                  "page or a wrong base URL?); check the provider's baseUrl, or try again."),
}


@dataclass
class TurnState:
    """What one answer has produced so far (ChatSession builds `Done` from it)."""

    text: list[str] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)

    @property
    def answer(self) -> str:
        return "".join(self.text)


# Set by the loop from the scope (a folder's documents for a library search), never by the model.
LOOP_PARAMETERS = ("within",)
CHAT_HIDDEN_PARAMETERS = ("library", *LOOP_PARAMETERS)  # a chat without the library in scope
# What the chat's calls get when the model does not say: its reading keeps tables as Markdown where
# they stand (the CLI and MCP keep the tool's own default, plain text). Applied only where the tool
# takes the parameter.
CHAT_DEFAULTS: dict[str, dict[str, Any]] = {"pdf_extract_text": {"tables": True}}


def hidden_parameters(scope: Scope) -> tuple[str, ...]:
    """The parameters a chat in `scope` is not offered: library=true only with the library in scope."""
    return LOOP_PARAMETERS if scope.library else CHAT_HIDDEN_PARAMETERS


def _chat_properties(chat: ChatUse, properties: dict[str, Any],
                     hidden: Sequence[str] = CHAT_HIDDEN_PARAMETERS) -> dict[str, Any]:
    """The parameters the chat is offered: not the `hidden` ones, and for a tool that also writes,
    only its reading actions and their parameters (with the document required: one in scope)."""
    kept = {k: v for k, v in properties.items() if k not in hidden}
    if chat.parameters is not None:
        kept = {k: v for k, v in kept.items() if k in chat.parameters}
    if chat.actions is not None and "action" in kept:
        kept["action"] = {**kept["action"], "enum": list(chat.actions),
                          "description": f"Only {', '.join(chat.actions)} here."}
    return kept


def chat_spec(tool: Tool, chat: ChatUse, hidden: Sequence[str] = CHAT_HIDDEN_PARAMETERS) -> ToolSpec:
    """`tool` as the chat's model is offered it: its schema cut to what `chat` allows."""
    schema = dict(tool.schema)
    properties = _chat_properties(chat, schema.get("properties", {}), hidden)
    if chat.actions is not None and "path" in properties:
        schema["required"] = [*schema.get("required", []), "path"]
    if "properties" in schema:
        schema["properties"] = properties
        schema["required"] = [r for r in schema.get("required", []) if r in properties]
        if not schema["required"]:
            schema.pop("required")
    return ToolSpec(tool.name, tool.description, schema)


def tool_specs(tools: Sequence[Tool] | None = None, hidden: Sequence[str] = CHAT_HIDDEN_PARAMETERS) -> list[ToolSpec]:
    """The chat tools (default: every one) as the chat's model is offered them."""
    return [chat_spec(tool, tool.chat, hidden) for tool in (chat_tools() if tools is None else tools)
            if tool.chat is not None]


def summarize_result(name: str, result: ToolResult) -> str:
    """One line for a compact tool card: an error's code and message, else what the tool's facts
    say about its result, else its first line of text."""
    details = result.details
    if result.is_error:
        return f"Error ({details.get('error', 'error')}): {details.get('message', result.text)}"[:200]
    tool = get_tool(name)
    line = tool.summarize(details) if tool is not None else None
    return line if line is not None else (result.text.splitlines() or [""])[0][:160]


class AgentLoop:
    """One answer: model turns and tool calls within the configured limits."""

    def __init__(self, provider: Provider, model: str, config: Config, documents: Sequence[str],
                 tool_runner: ToolRunner = call_tool, scope: Scope | None = None) -> None:
        """`scope` is what the model may read (default: the attached `documents`; a given scope
        names its own documents)."""
        self.provider = provider
        self.tool_runner = tool_runner
        self.model = model
        self.config = config
        self.scope = scope if scope is not None else Scope(ATTACHED, tuple(documents))
        self.documents = list(self.scope.documents)
        # The library documents in scope, as the catalogue lists them when the answer starts.
        self.collection: Collection | None = self.scope.collection() if self.scope.library else None
        self.tracker = CitationTracker(self.documents, self.collection.admit if self.collection else None)
        self.chat_tools = {tool.name: tool for tool in chat_tools()}
        self.tools = tool_specs(list(self.chat_tools.values()), hidden_parameters(self.scope))

    # -- tools ---------------------------------------------------------------------------------
    def _check_call(self, call: ToolCall) -> dict[str, Any]:
        """The arguments to run with; a validation_error when the call is refused (only the read
        tools, only the documents in scope: a document asking the model for more gets nothing)."""
        tool = self.chat_tools.get(call.name)
        if tool is None or tool.chat is None:
            raise PdfDeskError(VALIDATION_ERROR, f"There is no tool named {call.name!r} here.",
                               f"Use one of: {', '.join(self.chat_tools)}.")
        if "arguments_error" in call.extra:
            raise PdfDeskError(VALIDATION_ERROR, f"The call could not be read: {call.extra['arguments_error']}.",
                               "Send the arguments as a JSON object.")
        args = dict(call.arguments)
        allowed = tool.chat.actions
        if allowed is not None and args.get("action") not in allowed:
            raise PdfDeskError(PERMISSION_DENIED, f"In this chat {call.name} may only {' or '.join(allowed)}; "
                               f"action {str(args.get('action'))[:40]!r} is for the user to do.",
                               f"Call {call.name} with action {allowed[0]!r}, or suggest the change to the user.")
        for key in LOOP_PARAMETERS:
            if key in args:
                raise PdfDeskError(VALIDATION_ERROR, f"Unknown parameter {key!r}.", "Leave it out.")
        if args.get("library"):
            self._library_call(args)
        else:
            path = args.get("path")
            document = self._in_scope(path) if isinstance(path, str) else None
            if document is None:
                raise self._outside(path)
            args["path"] = document
        offered = tool.schema.get("properties", {})
        for key, value in CHAT_DEFAULTS.get(call.name, {}).items():
            if key in offered:
                args.setdefault(key, value)
        return args

    def _library_call(self, args: dict[str, Any]) -> None:
        """A library search: only with the library in scope, and for a folder only its documents."""
        if self.collection is None:  # the library holds documents the user did not put in scope
            raise PdfDeskError(VALIDATION_ERROR, f"This conversation searches only {self.scope.describe()}, "
                               "not the whole library.", "Search each document in scope with path.")
        if args.get("path") is not None:
            raise PdfDeskError(VALIDATION_ERROR, "Give either path or library=true, not both.",
                               "Search one document with path, or the library in scope with library=true.")
        if self.scope.kind == FOLDER:
            args["within"] = self.collection.fingerprints

    def _in_scope(self, path: str) -> str | None:
        """The document in scope `path` stands for. Attached scopes keep matching a name to an
        attached document; a library scope resolves paths (never by name) and looks a bare file
        name up among the documents in scope, refusing one that names several."""
        if self.collection is None:
            return self.tracker.document_for(path)
        if not is_bare_name(path):
            return self.collection.admit(path)
        found = self.tracker.document_for(path)
        if found is not None:
            return found
        named = self.collection.named(path)
        if len(named) > 1:
            listing = "; ".join(neutralise(name, limit=200) for name in named[:10])
            raise PdfDeskError(VALIDATION_ERROR, f"{len(named)} documents in scope are named {neutralise(path)}: "
                               f"{listing}.", "Pass the full path of the one you mean.")
        return named[0] if named else None

    def _outside(self, path: object) -> PdfDeskError:
        """The refusal of a path outside the scope (a document asking the model for more gets nothing)."""
        shown = repr(path)[:300]
        if self.scope.kind == ATTACHED:
            attached = "; ".join(self.documents) or "none"
            return PdfDeskError(VALIDATION_ERROR, f"This conversation may only read the attached documents "
                                f"({attached}); {shown} is not one of them.",
                                "Use one of those paths, or ask the user to attach the file.")
        described = self.collection.describe() if self.collection is not None else self.scope.describe()
        hint = ("Search with pdf_search library=true and pass a file name or path it shows; files elsewhere "
                "need the user to widen the scope." if self.scope.library else
                "Use one of the paths in the system prompt, or ask the user to widen the scope.")
        return PdfDeskError(VALIDATION_ERROR, f"This conversation may only read {described}; {shown} is not "
                            "one of them.", hint)

    async def _answer_call(self, call: ToolCall) -> tuple[ToolOutput, ToolCallFinished]:
        """Run one call the model made (a refused call never reaches the tool runner) and say how it went."""
        try:
            args = self._check_call(call)
        except PdfDeskError as refusal:  # never reaches the tool runner
            result = ToolResult.error(refusal)
            return (ToolOutput(call.id, call.name, result.text, is_error=True),
                    ToolCallFinished(call.id, call.name, True, summarize_result(call.name, result),
                                     dict(result.details)))
        result = await asyncio.to_thread(self.tool_runner, call.name, args)
        if not result.is_error:
            self.tracker.record(call.name, args, result.details)
        text = result.text
        if len(text) > MAX_TOOL_TEXT:
            text = text[:MAX_TOOL_TEXT] + f"\n[... cut at {MAX_TOOL_TEXT:,} characters; ask for fewer pages]"
        images = [item["data"] for item in result.images]
        output = ToolOutput(call.id, call.name, text, images, result.is_error)
        return output, ToolCallFinished(call.id, call.name, result.is_error, summarize_result(call.name, result),
                                        dict(result.details), tuple(images))

    # -- the loop ------------------------------------------------------------------------------
    async def run(self, history: list[Message], state: TurnState) -> AsyncIterator[AgentEvent]:
        """Answer the last user message in `history`; appends what the model said and did to it."""
        system = system_prompt(self.documents, list(self.chat_tools.values()), self.scope,
                               self.collection.library_count if self.collection is not None else None)
        calls_left = self.config.agent_max_tool_calls
        max_turns = self.config.agent_max_turns
        for turn in range(1, max_turns + 1):
            last = turn == max_turns or calls_left <= 0
            messages = history + ([Message.user(LAST_TURN_NOTE)] if last and turn > 1 else [])
            request = ChatRequest(self.model, messages, system, [] if last else self.tools)
            turn_text: list[str] = []
            end: StreamEnd | None = None
            try:
                async for piece in self.provider.stream(request):
                    if isinstance(piece, StreamText):
                        if not turn_text and state.text and not state.answer[-1:].isspace():
                            state.text.append("\n\n")  # keep "Let me search." apart from the answer
                            yield TextDelta("\n\n")
                        turn_text.append(piece.text)
                        state.text.append(piece.text)
                        yield TextDelta(piece.text)
                        for citation in self.tracker.feed(piece.text):
                            state.citations.append(citation)
                            yield CitationFound(citation)
                    else:
                        end = piece
            except ProviderError as exc:
                if turn_text:
                    history.append(Message("assistant", [TextPart("".join(turn_text))]))
                yield AgentError("model_error", f"{self.provider.provider}/{self.model}: {exc.describe()}",
                                 _HINTS.get(exc.kind, "Try again in a moment."))
                return
            except BaseException:
                if turn_text:  # cancelled mid-answer: keep what the user saw
                    history.append(Message("assistant", [TextPart("".join(turn_text) + " [stopped]")]))
                raise
            calls = end.tool_calls if end else []
            history.append(Message("assistant", [TextPart("".join(turn_text))] if turn_text else [], tool_calls=calls))
            if not calls:
                if end and end.stop_reason == "max_tokens":
                    yield AgentError("model_error", "The answer was cut off at the model's output limit.",
                                     "Ask for a shorter answer or a narrower question.")
                elif not state.answer.strip():  # nothing to show: say so rather than end in silence
                    stop = f" (stop reason: {end.stop_reason})" if end else ""
                    yield AgentError("model_error",
                                     f"{self.provider.provider}/{self.model} returned an empty answer{stop}.",
                                     "Try again, or ask another model.")
                return
            outputs: list[ToolOutput] = []
            try:
                for call in calls:
                    if calls_left <= 0:
                        outputs.append(ToolOutput(call.id, call.name, "Not run: the tool-call limit for this answer "
                                                  "is reached. Answer with what you have.", is_error=True))
                        continue
                    calls_left -= 1
                    yield ToolCallStarted(call.id, call.name, dict(call.arguments))
                    output, finished = await self._answer_call(call)
                    outputs.append(output)
                    yield finished
            finally:  # every tool call gets an output, or the next request would be refused
                done = {o.call_id for o in outputs}
                outputs += [ToolOutput(c.id, c.name, "Not run: the user stopped the answer.", is_error=True)
                            for c in calls if c.id not in done]
                history.append(Message("tool", tool_outputs=outputs))


def describe_arguments(arguments: dict[str, Any]) -> str:
    """Compact `key=value` text of a tool call's arguments (for terminals)."""
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in arguments.items())
