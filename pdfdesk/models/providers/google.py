"""Google Gemini over its REST API with httpx: `streamGenerateContent?alt=sse` for chat turns,
`generateContent` for one-shot calls, `inline_data` for page images and native PDFs."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, cast

import httpx

from pdfdesk.core.redact import redact
from pdfdesk.models.providers.base import (
    ChatRequest, ImagePart, Message, PdfPart, Provider, ProviderError, StreamEnd, StreamEvent, StreamText,
    TextPart, ToolCall, status_error,
)
from pdfdesk.models.providers.replies import (
    error_text, json_object, missing, require_event_stream, stream_ended, unreadable_stream,
)

_STOP = {"STOP": "end", "MAX_TOKENS": "max_tokens"}
# The OpenAPI subset Gemini accepts in function declarations.
_SCHEMA_KEYS = {"type", "description", "enum", "properties", "required", "items", "minimum", "maximum",
                "minItems", "maxItems", "minLength", "maxLength", "format", "nullable", "title"}


def gemini_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A JSON schema reduced to what Gemini takes: one type per value, no additionalProperties."""
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key not in _SCHEMA_KEYS:
            continue
        if key == "type" and isinstance(value, list):
            value = next((t for t in value if t != "null"), "string")
        elif key == "properties":
            value = {name: gemini_schema(sub) for name, sub in value.items()}
        elif key == "items" and isinstance(value, dict):
            value = gemini_schema(value)
        out[key] = value
    if out.get("type") == "integer" and "enum" in out:  # Gemini enums are strings only
        out.pop("enum")
    return out


def _inline(mime_type: str, data: str) -> dict[str, Any]:
    return {"inline_data": {"mime_type": mime_type, "data": data}}


def _parts(message: Message) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = []
    if message.role == "tool":
        images: list[dict[str, Any]] = []
        for output in message.tool_outputs:
            response: dict[str, Any] = {"name": output.name,
                                        "response": {"error" if output.is_error else "content": output.text}}
            if not output.call_id.startswith("pdfdesk-"):
                response["id"] = output.call_id
            parts.append({"functionResponse": response})
            images += [_inline("image/png", data) for data in output.images]
        return parts + images
    for part in message.parts:
        if isinstance(part, TextPart) and part.text:
            parts.append({"text": part.text})
        elif isinstance(part, ImagePart):
            parts.append(_inline(part.mime_type, part.data))
        elif isinstance(part, PdfPart):
            parts.append(_inline("application/pdf", part.data))
    for call in message.tool_calls:
        function_call: dict[str, Any] = {"name": call.name, "args": call.arguments}
        if not call.id.startswith("pdfdesk-"):
            function_call["id"] = call.id
        parts.append({"functionCall": function_call, **call.extra.get("part_extra", {})})
    return parts


def wire_contents(messages: list[Message]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for message in messages:
        role = "model" if message.role == "assistant" else "user"
        parts = _parts(message)
        if not parts:
            continue
        if out and out[-1]["role"] == role:
            out[-1]["parts"].extend(parts)
        else:
            out.append({"role": role, "parts": parts})
    return out


class GoogleProvider(Provider):
    display_name = "Google Gemini"
    reads_pdf = True
    reads_images = True
    default_base_url = "https://generativelanguage.googleapis.com"
    key_env_vars = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    needs_key = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.root = (self.base_url or self.default_base_url or "").rstrip("/")
        if self.root.endswith("/v1beta"):
            self.root = self.root[: -len("/v1beta")]
        self.client = httpx.AsyncClient(timeout=httpx.Timeout(self.timeout_s, connect=min(10.0, self.timeout_s)))

    async def aclose(self) -> None:
        await self.client.aclose()

    def _body(self, request: ChatRequest) -> dict[str, Any]:
        body: dict[str, Any] = {"contents": wire_contents(request.messages),
                                "generationConfig": {"maxOutputTokens": request.max_tokens}}
        if request.system:
            body["systemInstruction"] = {"parts": [{"text": request.system}]}
        if request.tools:
            body["tools"] = [{"functionDeclarations": [
                {"name": t.name, "description": t.description, "parameters": gemini_schema(t.schema)}
                for t in request.tools]}]
        return body

    def _url(self, model: str, method: str) -> str:
        return f"{self.root}/v1beta/models/{model}:{method}"

    def _headers(self) -> dict[str, str]:
        return {"x-goog-api-key": self.api_key or "", "content-type": "application/json"}

    def _transport_error(self, exc: httpx.HTTPError) -> ProviderError:
        if isinstance(exc, httpx.TimeoutException):
            return ProviderError(f"google did not answer within {self.timeout_s:g} s", kind="timeout")
        return ProviderError(f"cannot reach google at {self.root}: {redact(str(exc), self.api_key)}",
                             kind="connection", retryable=True)

    def _status_error(self, response: httpx.Response, body: bytes) -> ProviderError:
        try:
            parsed: object = json.loads(body)
        except ValueError:
            parsed = None
        message = error_text(response, parsed, response.reason_phrase, self.api_key)
        return status_error(response.status_code, message, response.headers, self.api_key)

    async def _stream_once(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        calls: list[ToolCall] = []
        stop: str | None = None
        events = 0
        try:
            async with self.client.stream("POST", self._url(request.model, "streamGenerateContent"),
                                          params={"alt": "sse"}, json=self._body(request),
                                          headers=self._headers()) as response:
                status = response.status_code
                if status >= 400:
                    raise self._status_error(response, await response.aread())
                # httpx declares an iterator; what it returns is an async generator, which can be closed
                chunks = cast(AsyncGenerator[bytes, None], response.aiter_bytes())
                await require_event_stream(status, response.headers, chunks, self.api_key)
                async for line in response.aiter_lines():
                    if not line.startswith("data:"):
                        continue
                    events += 1
                    try:
                        chunk = json.loads(line[5:].strip())
                        if not isinstance(chunk, dict):
                            raise ValueError(f"an event holds a JSON {type(chunk).__name__}, not an object")
                        pieces, finish = self._read_chunk(chunk)
                    except (ValueError, TypeError, AttributeError, KeyError) as exc:
                        raise unreadable_stream(status, exc) from None
                    for piece in pieces:
                        if isinstance(piece, ToolCall):
                            calls.append(piece)
                        else:
                            yield piece
                    stop = finish or stop
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from None
        if stop is None:  # Gemini's last chunk always carries a finishReason
            raise stream_ended(status, events)
        yield StreamEnd(calls, "tool_calls" if calls else stop)

    def _read_chunk(self, chunk: dict[str, Any]) -> tuple[list[StreamText | ToolCall], str | None]:
        """One streamed chunk: its text pieces and tool calls, and its finish reason, if any."""
        if "error" in chunk:
            error = chunk["error"]
            raise ProviderError(redact(str(error.get("message", error) if isinstance(error, dict) else error),
                                       self.api_key))
        blocked = (chunk.get("promptFeedback") or {}).get("blockReason")
        if blocked:
            raise ProviderError(f"google refused the prompt (blockReason {blocked})")
        pieces: list[StreamText | ToolCall] = []
        finish = None
        for candidate in chunk.get("candidates", [])[:1]:
            for part in (candidate.get("content") or {}).get("parts", []):
                if isinstance(part.get("text"), str) and part["text"] and not part.get("thought"):
                    pieces.append(StreamText(part["text"]))
                elif "functionCall" in part:
                    pieces.append(_tool_call(part))
            if candidate.get("finishReason"):
                finish = _STOP.get(candidate["finishReason"], str(candidate["finishReason"]).lower())
        return pieces, finish

    async def _complete_once(self, request: ChatRequest) -> str:
        try:
            response = await self.client.post(self._url(request.model, "generateContent"),
                                              json=self._body(request), headers=self._headers())
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from None
        if response.status_code >= 400:
            raise self._status_error(response, response.content)
        status, body = response.status_code, response.content
        data = json_object(status, response.headers, body, self.api_key)
        candidates, feedback = data.get("candidates"), data.get("promptFeedback")
        if not isinstance(candidates, (list, type(None))) or (candidates is None and not isinstance(feedback, dict)):
            raise missing(status, "'candidates' list", body, self.api_key)
        if not candidates:  # a refused prompt comes back with promptFeedback and no candidates
            blocked = feedback.get("blockReason") if isinstance(feedback, dict) else None
            raise ProviderError(f"google refused the prompt (blockReason {blocked})" if blocked else
                                "google returned no answer (the prompt may have been blocked)")
        content = candidates[0].get("content") if isinstance(candidates[0], dict) else None
        parts = content.get("parts", []) if isinstance(content, dict) else None
        if not isinstance(parts, list):
            raise missing(status, "answer parts in candidates[0].content", body, self.api_key)
        return "".join(p["text"] for p in parts
                       if isinstance(p, dict) and isinstance(p.get("text"), str) and not p.get("thought"))


def _tool_call(part: dict[str, Any]) -> ToolCall:
    call = part["functionCall"]
    extra = {"part_extra": {k: v for k, v in part.items() if k != "functionCall"}}  # e.g. thoughtSignature
    arguments = call.get("args") or {}
    return ToolCall(call.get("id") or f"pdfdesk-{uuid.uuid4().hex[:12]}", call.get("name", ""),
                    arguments if isinstance(arguments, dict) else {}, extra)
