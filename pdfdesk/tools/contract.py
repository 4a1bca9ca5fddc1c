"""What a tool is and what it returns: the pieces every tool module builds on.

Tool modules import this module and nothing above it; `registry` imports the tool modules to
collect them. Keeping the two apart is what lets the tools and the registry load without a cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import jsonschema

from pdfdesk.core.errors import PdfDeskError
from pdfdesk.core.fence import neutralise
from pdfdesk.tools.details import SUCCESS_DETAILS, ErrorDetails
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
    def error(cls, exc: PdfDeskError) -> "ToolResult":
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
class Tool:
    name: str
    description: str
    schema: dict[str, Any]
    func: ToolFunction
    validator: jsonschema.Draft202012Validator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:  # built once: a validator per call cost more than a small PDF's text
        object.__setattr__(self, "validator", jsonschema.Draft202012Validator(self.schema))

    def spec(self) -> dict[str, Any]:
        """Name, description and input schema as MCP and model providers expect them."""
        return {"name": self.name, "description": self.description, "inputSchema": self.schema}

    def output_schema(self, closed: bool = False) -> dict[str, Any] | None:
        """The JSON schema of a successful call's `details`; None for a tool that declares no type.
        `closed` also refuses keys the type does not name (how tests catch an undeclared key)."""
        details_type = SUCCESS_DETAILS.get(self.name)
        return None if details_type is None else json_schema(details_type, closed=closed)


TOOLS: dict[str, Tool] = {}  # every registered tool by name; `registry` lists and dispatches them


def register(name: str, description: str, schema: dict[str, Any]) -> Callable[[ToolFunction], ToolFunction]:
    """Decorator: add a tool function with its schema to the registered tools."""
    jsonschema.Draft202012Validator.check_schema(schema)

    def add(func: ToolFunction) -> ToolFunction:
        TOOLS[name] = Tool(name, description, schema, func)
        return func

    return add
