"""What a tool is and what it returns: the pieces every tool module builds on.

Tool modules import this module and nothing above it; `registry` imports the tool modules to
collect them. Keeping the two apart is what lets the tools and the registry load without a cycle.

A tool carries its own facts (details type, listing place, card line, pages shown, what the chat
and MCP may do with it), so the registry, the agent and the MCP server read them from the Tool
and a new tool needs no table elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack, cast

import jsonschema

from pdfdesk.core.errors import PdfDeskError
from pdfdesk.core.fence import neutralise
from pdfdesk.core.references import display_name
from pdfdesk.tools.details import ErrorDetails
from pdfdesk.tools.json_schema import json_schema

PATH_PROPERTY: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "The PDF: a file path, ~/path, file:///path or an http(s):// URL.",
}
PASSWORD_PROPERTY: dict[str, Any] = {
    "type": "string",
    "description": "Password for an encrypted PDF (user or owner password).",
}
PAGES_PROPERTY: dict[str, Any] = {
    "type": ["string", "integer"],
    "description": 'Pages to use, 1-based: "3", "1-5" or "1,3,5-7" (a set of pages, not a span). Default: all.',
}


def object_schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """A tool's parameters: exactly these properties, so a misspelt one is an error, not ignored."""
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


@dataclass
class ToolResult:
    """Mirrors MCP's CallToolResult: content items, structured details, error flag.

    `details` is the tool's TypedDict from `pdfdesk.tools.details` (ErrorDetails when `is_error`);
    readers cast it to that type where they take it."""

    content: list[dict[str, Any]] = field(default_factory=list)
    details: Mapping[str, Any] = field(default_factory=dict)
    is_error: bool = False

    @classmethod
    def error(cls, exc: PdfDeskError) -> ToolResult:
        # Messages quote paths, URLs and MuPDF's complaints: each stays on its one line.
        raw = exc.to_details()
        for key in ("message", "hint"):
            if isinstance(raw.get(key), str):
                raw[key] = neutralise(raw[key], limit=None, quotes=False)
        details = cast(ErrorDetails, raw)
        message, hint = details.get("message", ""), details.get("hint", "")
        text = f"Error ({exc.code}): {message}" + (f"\nHint: {hint}" if hint else "")
        return cls(content=[text_item(text)], details=details, is_error=True)

    @property
    def text(self) -> str:
        """All text items joined (what a terminal or a text-only model sees)."""
        return "\n".join(item["text"] for item in self.content if item.get("type") == "text")

    @property
    def images(self) -> list[dict[str, Any]]:
        return [item for item in self.content if item.get("type") == "image"]

    def to_dict(self) -> dict[str, Any]:
        return {"content": self.content, "details": dict(self.details), "isError": self.is_error}


def text_item(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def untrusted_text_item(text: str, source: str) -> dict[str, Any]:
    """A text item holding words from a PDF; the registry fences it before anyone sees it."""
    return {"type": "text", "text": text, "untrusted_source": source}


def image_item(data_b64: str, mime_type: str = "image/png") -> dict[str, Any]:
    return {"type": "image", "data": data_b64, "mimeType": mime_type}


ToolFunction = Callable[[dict[str, Any]], ToolResult]


@dataclass(frozen=True)
class PageShown:
    """One page a successful result showed the caller: what a page citation may point at."""

    page: int
    file: str | None = None    # the document when it is not the result's own (a library search hit)
    excerpt: str | None = None
    rects: tuple[tuple[float, float, float, float], ...] = ()


CardSummary = Callable[[Mapping[str, Any]], str | None]
"""A successful result's `details` -> the one line its chat tool card shows (None: its first text line)."""
PagesShown = Callable[[Mapping[str, Any]], Sequence[PageShown]]
"""A successful result's `details` -> the pages it showed, which the chat may then cite."""


@dataclass(frozen=True)
class ChatUse:
    """How the chat's model may use a tool; a tool without one is never offered to it."""

    hint: str                                  # the system prompt's words for it, starting with its name
    rank: int = 100                            # its place in that list of hints: the tool to try first, first
    actions: tuple[str, ...] | None = None     # a tool that also writes: the reading actions the chat may take
    parameters: tuple[str, ...] | None = None  # the only parameters offered, when not all of them


@dataclass(frozen=True)
class McpText:
    """What the MCP server's instructions say about a tool."""

    reads: str = ""    # its item in "pdfdesk reads PDF files: ..."
    note: str = ""     # a sentence of its own, before the clause about writes
    changes: str = ""  # what it changes, in the clause naming the flag that allows writes


class ToolFacts(TypedDict, total=False):
    """The keyword facts `register` takes; each is a Tool field of the same name."""

    details: type | None
    order: int
    card: CardSummary | None
    pages_shown: PagesShown | None
    about_document: bool
    chat: ChatUse | None
    mcp: McpText
    writes: bool
    idempotent: bool
    needs_model: bool
    reaches_out: bool


LAST_PLACE = 1000  # the listing place of a tool that names none: after the built-in ones


@dataclass(frozen=True)
class Tool:
    """A tool function, its schema, and the facts every front end reads instead of its own table."""

    name: str
    description: str
    schema: dict[str, Any]
    func: ToolFunction
    details: type | None = None              # the TypedDict of a successful result's `details`
    order: int = LAST_PLACE                   # where it is listed (CLI, MCP, model providers): lower first
    card: CardSummary | None = None
    pages_shown: PagesShown | None = None
    # Whether a result is about its document as a whole, so a page cited without a file name next
    # means that document; False for a result about the pages it lists (search hits), which alone count.
    about_document: bool = True
    chat: ChatUse | None = None               # None: the chat never offers or runs it
    mcp: McpText = McpText()
    writes: bool = False                      # changes notes or writes files: read-only over MCP unless allowed
    idempotent: bool = True                   # the same call again changes nothing more (for a tool that writes)
    needs_model: bool = False                 # asks a language model: offered only when one is configured
    reaches_out: bool = False                 # talks to the outside world (a model provider) whatever the sandbox
    validator: jsonschema.Draft202012Validator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:  # built once: a validator per call cost more than a small PDF's text
        object.__setattr__(self, "validator", jsonschema.Draft202012Validator(self.schema))

    def spec(self) -> dict[str, Any]:
        """Name, description and input schema as MCP and model providers expect them."""
        return {"name": self.name, "description": self.description, "inputSchema": self.schema}

    def output_schema(self, closed: bool = False) -> dict[str, Any] | None:
        """The JSON schema of a successful call's `details`; None for a tool that declares no type.
        `closed` also refuses keys the type does not name (how tests catch an undeclared key)."""
        return None if self.details is None else json_schema(self.details, closed=closed)

    def summarize(self, details: Mapping[str, Any]) -> str | None:
        """The card line for a successful result, or None when the tool names none."""
        return None if self.card is None else self.card(details)

    def pages_in(self, details: Mapping[str, Any]) -> Sequence[PageShown]:
        """The pages a successful result showed (none for a tool that names none)."""
        return () if self.pages_shown is None else self.pages_shown(details)


def document_label(details: Mapping[str, Any]) -> str:
    """The display name of the document a result is about, for a card line; "" when it names none."""
    file = details.get("file")
    return display_name(str(file)) if file else ""


TOOLS: dict[str, Tool] = {}  # every registered tool by name; `registry` lists and dispatches them


def register(name: str, description: str, schema: dict[str, Any],
             **facts: Unpack[ToolFacts]) -> Callable[[ToolFunction], ToolFunction]:
    """Decorator: add a tool function with its schema and facts to the registered tools."""
    jsonschema.Draft202012Validator.check_schema(schema)

    def add(func: ToolFunction) -> ToolFunction:
        TOOLS[name] = Tool(name, description, schema, func, **facts)
        return func

    return add


