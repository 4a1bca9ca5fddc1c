"""Checking that a provider's reply is what its API sends, before anything is read from it.

A proxy, a captive portal or a wrong base URL answers 200 with an HTML page; a server that breaks
off sends half a JSON body or an empty event stream; one may send JSON where an event stream was
asked for. The SDKs hand such a reply back as a bare string or as an empty answer, so a user saw
"'str' object has no attribute 'choices'" or nothing at all. Here each becomes a ProviderError
naming the status, the content type and how the body begins (shortened, control characters
removed, keys redacted), so the message says what the server really sent.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import AsyncGenerator, Mapping
from contextlib import aclosing
from typing import Any

from pdfdesk.core.redact import redact
from pdfdesk.models.providers.base import ProviderError, body_message, status_error

JSON_BODY = "JSON"
EVENT_STREAM = "an event stream"
PREVIEW_CHARS = 120       # of the body, in a message
PREVIEW_BYTES = 2048      # read at most this much of a body nobody will parse
BAD_REPLY = "bad_reply"   # ProviderError.kind


def media_type(headers: Mapping[str, str]) -> str:
    """The content type without parameters, lower-case ("" when the server sent none)."""
    return (headers.get("content-type") or "").split(";", 1)[0].strip().lower()


def is_json(kind: str) -> bool:
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def is_event_stream(kind: str) -> bool:
    return kind == "text/event-stream"


def body_preview(body: bytes, *secrets: str | None) -> str:
    """How a body begins, safe to show: decoded leniently, control and format characters (escape
    sequences, bidi overrides) dropped, whitespace collapsed, keys redacted, cut short."""
    text = body[:PREVIEW_BYTES].decode("utf-8", "replace")
    text = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in text)
    text = re.sub(r"\s+", " ", text).strip()
    text = redact(text, *secrets)
    return text[:PREVIEW_CHARS] + "…" if len(text) > PREVIEW_CHARS else text


def bad_reply(status: int, problem: str, body: bytes | None = None, *secrets: str | None) -> ProviderError:
    """A reply that is not what the API sends: the problem (naming the content type) and how the
    body begins; `describe()` adds the status. Not retried: the same address answers alike."""
    if body is not None:
        preview = body_preview(body, *secrets)
        problem += f"; it begins {preview!r}" if preview else "; the body is empty"
    return ProviderError(problem, status=status, kind=BAD_REPLY)


def json_object(status: int, headers: Mapping[str, str], body: bytes, *secrets: str | None) -> dict[str, Any]:
    """The reply's JSON object, or a ProviderError saying what came instead."""
    kind = media_type(headers)
    if not is_json(kind):
        raise bad_reply(status, f"the server answered {_named(kind)} where {JSON_BODY} was expected", body, *secrets)
    if not body.strip():
        raise bad_reply(status, f"the server sent an empty {kind} reply")
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise bad_reply(status, f"the server sent {kind} that cannot be read ({_problem(exc)})", body,
                        *secrets) from None
    if not isinstance(data, dict):
        raise bad_reply(status, f"the server sent a JSON {type(data).__name__} ({kind}), not an object", body, *secrets)
    return data


def error_text(response: Any, body: object, fallback: str, *secrets: str | None) -> str:
    """The words of an HTTP error reply: the API's own message when the body is the API's error
    JSON, else the content type and how the body begins (a proxy's 502 page, say), never the
    whole page."""
    if isinstance(body, dict):
        return body_message(body, fallback)
    try:
        raw = bytes(response.content)
    except Exception:  # not read (httpx raises ResponseNotRead): fall back to what the SDK kept
        raw = body.encode("utf-8", "replace") if isinstance(body, str) else b""
    preview = body_preview(raw, *secrets)
    return f"the server answered {_named(media_type(response.headers))}" + (
        f"; it begins {preview!r}" if preview else " with an empty body")


def sdk_error(sdk: Any, exc: Exception, provider: str, base_url: object, timeout_s: float,
              api_key: str | None) -> ProviderError:
    """An exception of the `openai` or `anthropic` SDK (passed as `sdk`; both name their timeout,
    connection and HTTP status errors alike) as a ProviderError with the key redacted."""
    if isinstance(exc, sdk.APITimeoutError):
        return ProviderError(f"{provider} did not answer within {timeout_s:g} s", kind="timeout")
    if isinstance(exc, sdk.APIConnectionError):
        return ProviderError(f"cannot reach {provider} at {base_url}: {redact(str(exc.__cause__ or exc), api_key)}",
                             kind="connection", retryable=True)
    if isinstance(exc, sdk.APIStatusError):
        return status_error(exc.status_code, error_text(exc.response, exc.body, exc.message, api_key),
                            exc.response.headers, api_key)
    return ProviderError(redact(f"{type(exc).__name__}: {exc}", api_key)[:500])


def missing(status: int, what: str, body: bytes, *secrets: str | None) -> ProviderError:
    """A JSON reply without a field the API always sends."""
    return bad_reply(status, f"the server's JSON reply has no {what}", body, *secrets)


async def require_event_stream(status: int, headers: Mapping[str, str], chunks: AsyncGenerator[bytes, None],
                               *secrets: str | None) -> None:
    """Refuse a streamed reply that is not an event stream (reading only its first bytes)."""
    kind = media_type(headers)
    if is_event_stream(kind):
        return
    start = b""
    async with aclosing(chunks) as body:  # a page of any length: only its start is read
        async for chunk in body:
            start += chunk
            if len(start) >= PREVIEW_BYTES:
                break
    raise bad_reply(status, f"the server answered {_named(kind)} where {EVENT_STREAM} was expected", start, *secrets)


def unreadable_stream(status: int, exc: Exception) -> ProviderError:
    """An event in the stream that is not what the API sends."""
    return bad_reply(status,
                     f"the server sent an event stream (text/event-stream) that cannot be read ({_problem(exc)})")


def stream_ended(status: int, events: int) -> ProviderError:
    """A stream that closed before the API's closing event: empty, or cut off half-way."""
    if not events:
        return bad_reply(status, "the server sent an empty event stream (text/event-stream)")
    return bad_reply(status, f"the event stream (text/event-stream) ended after {events} event{'s' * (events != 1)}, "
                             "before the answer was complete")


def _named(kind: str) -> str:
    return kind if kind else "with no content type"


def _problem(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return str(exc)  # "Unterminated string starting at: line 1 column 33 (char 32)"
    return f"{type(exc).__name__}: {str(exc)[:120]}"
