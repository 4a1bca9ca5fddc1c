"""Anthropic messages through the official SDK: streamed turns with tools, native PDF documents.

The SDK is imported where a request is made, not with this module: it takes over a second to load,
and the tools and the model catalog read this class's facts without ever calling Anthropic."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from pdfdesk.models.providers.base import (
    ChatRequest, ImagePart, Message, PdfPart, Provider, ProviderError, StreamEnd, StreamEvent, StreamText,
    TextPart, ToolCall,
)
from pdfdesk.models.providers.replies import (
    json_object, missing, require_event_stream, sdk_error, stream_ended, unreadable_stream,
)

_STOP = {"end_turn": "end", "tool_use": "tool_calls", "max_tokens": "max_tokens", "stop_sequence": "end"}


def _image_block(data: str, mime_type: str = "image/png") -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": mime_type, "data": data}}


def document_block(part: PdfPart) -> dict[str, Any]:
    """A native PDF: base64 bytes in a `document` content block."""
    return {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": part.data},
            "title": part.name}


def _blocks(message: Message) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if message.role == "tool":
        for output in message.tool_outputs:
            content: list[dict[str, Any]] = [{"type": "text", "text": output.text or "(no output)"}]
            content += [_image_block(data) for data in output.images]
            blocks.append({"type": "tool_result", "tool_use_id": output.call_id, "content": content,
                           "is_error": output.is_error})
        return blocks
    for part in message.parts:
        if isinstance(part, TextPart) and part.text:
            blocks.append({"type": "text", "text": part.text})
        elif isinstance(part, ImagePart):
            blocks.append(_image_block(part.data, part.mime_type))
        elif isinstance(part, PdfPart):
            blocks.append(document_block(part))
    blocks += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in message.tool_calls]
    return blocks


def wire_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Tool outputs travel in user turns; consecutive turns of one role are merged."""
    out: list[dict[str, Any]] = []
    for message in messages:
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message)
        if not blocks:
            continue
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    return out


class AnthropicProvider(Provider):
    display_name = "Anthropic"
    reads_pdf = True
    reads_images = True
    key_env_vars = ("ANTHROPIC_API_KEY",)
    needs_key = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        import anthropic

        super().__init__(*args, **kwargs)
        self.client = anthropic.AsyncAnthropic(
            api_key=self.api_key, base_url=self.base_url, timeout=self.timeout_s, max_retries=0,
        )

    async def aclose(self) -> None:
        await self.client.close()

    def _params(self, request: ChatRequest) -> dict[str, Any]:
        params: dict[str, Any] = {"model": request.model, "max_tokens": request.max_tokens,
                                  "messages": wire_messages(request.messages)}
        if request.system:
            params["system"] = request.system
        if request.tools:
            params["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.schema}
                               for t in request.tools]
        return params

    def _error(self, exc: Exception) -> ProviderError:
        import anthropic

        return sdk_error(anthropic, exc, self.provider, self.client.base_url, self.timeout_s, self.api_key)

    # Through `with_streaming_response`: the SDK sends the request and maps HTTP errors as always,
    # and the reply's content type and body are checked before anything is read from them.
    async def _stream_once(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        import anthropic

        blocks: dict[int, dict[str, Any]] = {}
        stop = "end"
        events, ended = 0, False
        try:
            streaming = self.client.messages.with_streaming_response
            async with streaming.create(**self._params(request), stream=True) as reply:
                status = reply.status_code
                await require_event_stream(status, reply.headers, reply.iter_bytes(), self.api_key)
                try:
                    async for event in await reply.parse():
                        events += 1
                        if event.type == "content_block_start":
                            block = event.content_block
                            if block.type == "tool_use":
                                blocks[event.index] = {"id": block.id, "name": block.name, "json": ""}
                            elif block.type == "text" and isinstance(block.text, str) and block.text:
                                yield StreamText(block.text)
                        elif event.type == "content_block_delta":
                            delta = event.delta
                            if delta.type == "text_delta" and isinstance(delta.text, str):
                                yield StreamText(delta.text)
                            elif delta.type == "input_json_delta" and event.index in blocks:
                                blocks[event.index]["json"] += str(delta.partial_json)
                        elif event.type == "message_delta" and event.delta.stop_reason:
                            stop = _STOP.get(event.delta.stop_reason, str(event.delta.stop_reason))
                        elif event.type == "message_stop":
                            ended = True
                except (ValueError, TypeError, AttributeError, KeyError) as exc:
                    raise unreadable_stream(status, exc) from None
        except anthropic.AnthropicError as exc:
            raise self._error(exc) from None
        if not ended:  # every Messages stream closes with message_stop
            raise stream_ended(status, events)
        calls = [_tool_call(b) for _, b in sorted(blocks.items())]
        yield StreamEnd(calls, "tool_calls" if calls else stop)

    async def _complete_once(self, request: ChatRequest) -> str:
        import anthropic

        try:
            async with self.client.messages.with_streaming_response.create(**self._params(request)) as reply:
                status, headers, body = reply.status_code, reply.headers, await reply.read()
        except anthropic.AnthropicError as exc:
            raise self._error(exc) from None
        content = json_object(status, headers, body, self.api_key).get("content")
        if not isinstance(content, list):
            raise missing(status, "'content' list", body, self.api_key)
        return "".join(block["text"] for block in content
                       if isinstance(block, dict) and block.get("type") == "text"
                       and isinstance(block.get("text"), str))


def _tool_call(block: dict[str, Any]) -> ToolCall:
    extra: dict[str, Any] = {}
    try:
        arguments = json.loads(block["json"] or "{}")
        if not isinstance(arguments, dict):
            raise ValueError("not an object")
    except ValueError as exc:
        arguments, extra["arguments_error"] = {}, f"the arguments are not a JSON object ({exc})"
    return ToolCall(block["id"], block["name"], arguments, extra)
