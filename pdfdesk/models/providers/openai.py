"""OpenAI chat completions through the official SDK: streamed turns with function tools.

`compatible.py` reuses this for local OpenAI-compatible servers (Ollama, LM Studio, llama.cpp,
vLLM), which speak the same protocol at another base URL. The SDK is imported where a request is
made, not with this module, so reading the class's facts does not load it.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any, ClassVar

from pdfdesk.models.providers.base import (
    IMAGES_NOTE, NO_IMAGES_NOTE, ChatRequest, ImagePart, Message, PdfPart, Provider, ProviderError,
    StreamEnd, StreamEvent, StreamText, TextPart, ToolCall,
)
from pdfdesk.models.providers.replies import (
    json_object, missing, require_event_stream, sdk_error, stream_ended, unreadable_stream,
)

_STOP = {"stop": "end", "tool_calls": "tool_calls", "function_call": "tool_calls", "length": "max_tokens"}


def _image_url(data: str, mime_type: str = "image/png") -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": f"data:{mime_type};base64,{data}"}}


class OpenAIProvider(Provider):
    display_name = "OpenAI"
    reads_images = True
    key_env_vars: ClassVar[tuple[str, ...]] = ("OPENAI_API_KEY",)
    needs_key = True
    uses_max_completion_tokens = True   # the current name; local servers know max_tokens

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        import openai

        super().__init__(*args, **kwargs)
        self.client = openai.AsyncOpenAI(
            api_key=self.api_key or "not-needed", base_url=self.base_url, timeout=self.timeout_s, max_retries=0,
        )

    async def aclose(self) -> None:
        await self.client.close()

    # -- translation ---------------------------------------------------------------------------
    def _user_content(self, message: Message) -> str | list[dict[str, Any]]:
        if all(isinstance(p, TextPart) for p in message.parts):
            return message.text
        content: list[dict[str, Any]] = []
        for part in message.parts:
            if isinstance(part, TextPart):
                content.append({"type": "text", "text": part.text})
            elif isinstance(part, ImagePart):
                if self.images:
                    content.append(_image_url(part.data, part.mime_type))
            elif isinstance(part, PdfPart):
                content.append({"type": "file", "file": {"filename": part.name,
                                                         "file_data": f"data:application/pdf;base64,{part.data}"}})
        return content

    def wire_messages(self, request: ChatRequest) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"role": "system", "content": request.system}] if request.system else []
        for message in request.messages:
            if message.role == "user":
                out.append({"role": "user", "content": self._user_content(message)})
            elif message.role == "assistant":
                entry: dict[str, Any] = {"role": "assistant", "content": message.text or None}
                if message.tool_calls:
                    entry["tool_calls"] = [
                        {"id": call.id, "type": "function",
                         "function": {"name": call.name,
                                      "arguments": call.extra.get("raw_arguments") or json.dumps(call.arguments)}}
                        for call in message.tool_calls
                    ]
                out.append(entry)
            else:
                images: list[dict[str, Any]] = []
                for output in message.tool_outputs:
                    text = output.text
                    if output.images and not self.images:
                        text += NO_IMAGES_NOTE.format(n=len(output.images))
                    out.append({"role": "tool", "tool_call_id": output.call_id, "content": text})
                    if self.images:
                        images += [_image_url(data) for data in output.images]
                if images:  # tool messages carry text only; page images follow as a user message
                    out.append({"role": "user", "content": [{"type": "text", "text": IMAGES_NOTE}, *images]})
        return out

    def _params(self, request: ChatRequest) -> dict[str, Any]:
        params: dict[str, Any] = {"model": request.model, "messages": self.wire_messages(request)}
        params["max_completion_tokens" if self.uses_max_completion_tokens else "max_tokens"] = request.max_tokens
        if request.tools:
            params["tools"] = [
                {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.schema}}
                for t in request.tools
            ]
        return params

    def _error(self, exc: Exception) -> ProviderError:
        import openai

        return sdk_error(openai, exc, self.provider, self.client.base_url, self.timeout_s, self.api_key)

    # -- requests ------------------------------------------------------------------------------
    # Through `with_streaming_response`: the SDK sends the request and maps HTTP errors as always,
    # and the reply's content type and body are checked before anything is read from them.
    async def _stream_once(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        import openai

        calls: dict[int, dict[str, str]] = {}
        finish: str | None = None
        chunks = 0
        try:
            async with self.client.chat.completions.with_streaming_response.create(
                    **self._params(request), stream=True) as reply:
                status = reply.status_code
                await require_event_stream(status, reply.headers, reply.iter_bytes(), self.api_key)
                try:
                    async for chunk in await reply.parse():
                        chunks += 1
                        choice = (getattr(chunk, "choices", None) or [None])[0]
                        if choice is None:
                            continue  # a usage or keep-alive chunk
                        delta = choice.delta
                        if delta is not None and isinstance(delta.content, str) and delta.content:
                            yield StreamText(delta.content)
                        for piece in (delta.tool_calls or []) if delta is not None else []:
                            _add_piece(calls, piece)
                        if choice.finish_reason:
                            finish = _STOP.get(choice.finish_reason, str(choice.finish_reason))
                except (ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:
                    raise unreadable_stream(status, exc) from None
        except openai.OpenAIError as exc:
            raise self._error(exc) from None
        if finish is None:  # every chat completion stream ends with a finish reason
            raise stream_ended(status, chunks)
        tool_calls = [_tool_call(slot, index) for index, slot in sorted(calls.items())]
        yield StreamEnd(tool_calls, "tool_calls" if tool_calls else finish)

    async def _complete_once(self, request: ChatRequest) -> str:
        import openai

        try:
            async with self.client.chat.completions.with_streaming_response.create(**self._params(request)) as reply:
                status, headers, body = reply.status_code, reply.headers, await reply.read()
        except openai.OpenAIError as exc:
            raise self._error(exc) from None
        data = json_object(status, headers, body, self.api_key)
        choices = data.get("choices")
        if not isinstance(choices, list):
            raise missing(status, "'choices' list", body, self.api_key)
        if not choices:
            raise ProviderError(f"{self.provider} returned no answer")
        message = choices[0].get("message") if isinstance(choices[0], dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(message, dict) or not isinstance(content, (str, type(None))):
            raise missing(status, "answer text in choices[0].message.content", body, self.api_key)
        return content or ""


def _add_piece(calls: dict[int, dict[str, str]], piece: Any) -> None:
    """One streamed fragment of a tool call, appended to its slot."""
    slot = calls.setdefault(piece.index if isinstance(piece.index, int) else len(calls),
                            {"id": "", "name": "", "arguments": ""})
    slot["id"] = piece.id if isinstance(piece.id, str) and piece.id else slot["id"]
    if piece.function is not None:
        slot["name"] += piece.function.name if isinstance(piece.function.name, str) else ""
        slot["arguments"] += piece.function.arguments if isinstance(piece.function.arguments, str) else ""


def _tool_call(slot: dict[str, str], index: int) -> ToolCall:
    raw = slot["arguments"] or "{}"
    extra: dict[str, Any] = {"raw_arguments": raw}
    try:
        arguments = json.loads(raw)
        if not isinstance(arguments, dict):
            raise ValueError("not an object")
    except ValueError as exc:
        arguments, extra["arguments_error"] = {}, f"the arguments are not a JSON object ({exc})"
    return ToolCall(slot["id"] or f"call_{index}", slot["name"], arguments, extra)
