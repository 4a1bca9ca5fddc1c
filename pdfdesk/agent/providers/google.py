"""Google Gemini over its REST API with httpx: `streamGenerateContent?alt=sse` for chat turns,
`generateContent` for one-shot calls, `inline_data` for page images and native PDFs."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx

from pdfdesk.agent.keys import redact
from pdfdesk.agent.providers.base import (
    ChatRequest, ImagePart, Message, PdfPart, Provider, ProviderError, StreamEnd, StreamEvent, StreamText,
    TextPart, ToolCall, status_error,
)

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
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
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.root = (self.base_url or DEFAULT_BASE_URL).rstrip("/")
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
            message = json.loads(body)["error"]["message"]
        except (ValueError, KeyError, TypeError):
            message = body.decode("utf-8", "replace")[:300] or response.reason_phrase
        return status_error(response.status_code, message, response.headers, self.api_key)

    async def _stream_once(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        calls: list[ToolCall] = []
        stop = "end"
        try:
            async with self.client.stream("POST", self._url(request.model, "streamGenerateContent"),
                                          params={"alt": "sse"}, json=self._body(request),
                                          headers=self._headers()) as response:
                if response.status_code >= 400:
                    raise self._status_error(response, await response.aread())
                async for line in response.aiter_lines():
                    if not line.startswith("data:"):
                        continue
                    chunk = json.loads(line[5:].strip() or "{}")
                    if "error" in chunk:
                        raise ProviderError(redact(str(chunk["error"].get("message", chunk["error"])), self.api_key))
                    for candidate in chunk.get("candidates", [])[:1]:
                        for part in (candidate.get("content") or {}).get("parts", []):
                            if part.get("text") and not part.get("thought"):
                                yield StreamText(part["text"])
                            elif "functionCall" in part:
                                calls.append(_tool_call(part))
                        if candidate.get("finishReason"):
                            stop = _STOP.get(candidate["finishReason"], candidate["finishReason"].lower())
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from None
        except ValueError as exc:
            raise ProviderError(f"google sent a malformed stream ({exc})") from None
        yield StreamEnd(calls, "tool_calls" if calls else stop)

    async def _complete_once(self, request: ChatRequest) -> str:
        try:
            response = await self.client.post(self._url(request.model, "generateContent"),
                                              json=self._body(request), headers=self._headers())
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from None
        if response.status_code >= 400:
            raise self._status_error(response, response.content)
        try:
            candidates = response.json().get("candidates") or []
        except ValueError:
            raise ProviderError("google sent a response that is not JSON") from None
        if not candidates:
            raise ProviderError("google returned no answer (the prompt may have been blocked)")
        parts = (candidates[0].get("content") or {}).get("parts", [])
        return "".join(p.get("text", "") for p in parts if not p.get("thought"))


def _tool_call(part: dict[str, Any]) -> ToolCall:
    call = part["functionCall"]
    extra = {"part_extra": {k: v for k, v in part.items() if k != "functionCall"}}  # e.g. thoughtSignature
    arguments = call.get("args") or {}
    return ToolCall(call.get("id") or f"pdfdesk-{uuid.uuid4().hex[:12]}", call.get("name", ""),
                    arguments if isinstance(arguments, dict) else {}, extra)
