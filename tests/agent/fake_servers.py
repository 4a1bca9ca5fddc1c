"""Real HTTP servers on 127.0.0.1 that speak the model providers' wire protocols.

Each test scripts a server with a queue of `Turn`s (text, tool calls, an HTTP error, a delay, or
raw bytes with any status and content type: an HTML page, half a JSON body, an empty stream) and
afterwards reads `server.requests` to check exactly what the client sent. The official SDKs talk
to them through `base_url`, so the same code paths run as against the real services:

- `FakeOpenAI`: POST /v1/chat/completions, JSON or `stream: true` SSE chunks with `tool_calls` deltas
  (also serves any OpenAI-compatible local server: Ollama, LM Studio, llama.cpp, vLLM).
- `FakeAnthropic`: POST /v1/messages, JSON or SSE (message_start, content_block_start/delta/stop,
  message_delta, message_stop) with `tool_use` blocks and `input_json_delta`.
- `FakeGemini`: POST /v1beta/models/{model}:generateContent and :streamGenerateContent?alt=sse with
  `functionCall` parts.
"""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Turn:
    """One scripted response: text and/or tool calls, or an HTTP error, optionally after a delay."""

    text: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    status: int = 200
    error: str = ""                       # message of an error body (status >= 400)
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0                    # seconds before answering (timeouts)
    chunk_delay: float = 0.0              # seconds between streamed chunks (cancellation)
    chunk_size: int = 12                  # characters per streamed text piece
    raw: bytes | None = None              # sent as it is, whatever the request asked for
    content_type: str = ""                # of `raw` ("" sends no content-type header)

    @classmethod
    def fail(cls, status: int, error: str = "scripted failure", **headers: str) -> Turn:
        return cls(status=status, error=error, headers={k.replace("_", "-"): v for k, v in headers.items()})

    @classmethod
    def reply(cls, raw: bytes, content_type: str, status: int = 200) -> Turn:
        """Exactly these bytes: what a proxy, a login page or a broken server sends."""
        return cls(status=status, raw=raw, content_type=content_type)


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


def pieces(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or []


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 10  # idle keep-alive connections end on their own
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # keeps test output clean
        pass

    def handle(self) -> None:
        try:
            super().handle()
        except OSError:
            pass  # the client went away (timeout test, cancellation)

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        parts = urlsplit(self.path)
        self.server.fake.requests.append(Recorded("POST", parts.path, parse_qs(parts.query),
                                                  {k.lower(): v for k, v in self.headers.items()}, body))
        self.server.fake.respond(self, parts.path, body)

    def send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def send_raw(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def send_sse(self, events: list[tuple[str | None, Any]], chunk_delay: float, stop: threading.Event) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
        for name, data in events:
            payload = data if isinstance(data, str) else json.dumps(data)
            frame = (f"event: {name}\n" if name else "") + f"data: {payload}\n\n"
            self.wfile.write(frame.encode())
            self.wfile.flush()
            if chunk_delay and stop.wait(chunk_delay):
                return


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    fake: FakeServer


class FakeServer:
    """A scripted provider endpoint on 127.0.0.1 with a random port; use as a context manager."""

    def __init__(self, *turns: Turn) -> None:
        self.turns: queue.Queue[Turn] = queue.Queue()
        self.requests: list[Recorded] = []
        self.stop_event = threading.Event()
        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        self.httpd.fake = self
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.script(*turns)

    # -- lifecycle -----------------------------------------------------------------------------
    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_event.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)

    @property
    def origin(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def url(self) -> str:
        """The base URL an SDK is given."""
        return self.origin

    def script(self, *turns: Turn) -> None:
        for turn in turns:
            self.turns.put(turn)

    @property
    def bodies(self) -> list[Any]:
        return [r.body for r in self.requests]

    # -- responding ----------------------------------------------------------------------------
    def respond(self, handler: _Handler, path: str, body: Any) -> None:
        try:
            turn = self.turns.get_nowait()
        except queue.Empty:
            turn = Turn.fail(500, "the fake server has no scripted response left")
        if turn.delay and self.stop_event.wait(turn.delay):
            return
        if turn.raw is not None:
            handler.send_raw(turn.status, turn.content_type, turn.raw)
            return
        if turn.status >= 400:
            handler.send_json(turn.status, self.error_body(turn), turn.headers)
            return
        streaming = self.is_streaming(path, body)
        if streaming:
            handler.send_sse(self.stream_events(turn, self.model_of(path, body)), turn.chunk_delay, self.stop_event)
        else:
            handler.send_json(200, self.complete_body(turn, self.model_of(path, body)), turn.headers)

    def sse_bytes(self, turn: Turn, keep: int | None = None) -> bytes:
        """The event stream this server sends for `turn`, only its first `keep` events when given
        (a stream cut off half-way), for `Turn.reply`."""
        events = self.stream_events(turn, "model-x")[:keep]
        return b"".join(((f"event: {name}\n" if name else "") +
                         f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n").encode()
                        for name, data in events)

    def json_bytes(self, turn: Turn) -> bytes:
        """The JSON body this server sends for `turn` when not streaming, for `Turn.reply`."""
        return json.dumps(self.complete_body(turn, "model-x")).encode()

    def model_of(self, path: str, body: Any) -> str:
        return body.get("model", "") if isinstance(body, dict) else ""

    def is_streaming(self, path: str, body: Any) -> bool:
        return isinstance(body, dict) and bool(body.get("stream"))

    def error_body(self, turn: Turn) -> Any:
        raise NotImplementedError

    def stream_events(self, turn: Turn, model: str) -> list[tuple[str | None, Any]]:
        raise NotImplementedError

    def complete_body(self, turn: Turn, model: str) -> Any:
        raise NotImplementedError


class FakeOpenAI(FakeServer):
    """OpenAI chat completions (and every OpenAI-compatible local server)."""

    @property
    def url(self) -> str:
        return self.origin + "/v1"

    def error_body(self, turn: Turn) -> Any:
        kind = "server_error" if turn.status >= 500 else "invalid_request_error"
        return {"error": {"message": turn.error, "type": kind, "code": None}}

    def _chunk(self, model: str, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1700000000, "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    def stream_events(self, turn: Turn, model: str) -> list[tuple[str | None, Any]]:
        events: list[tuple[str | None, Any]] = [(None, self._chunk(model, {"role": "assistant", "content": ""}))]
        events += [(None, self._chunk(model, {"content": piece})) for piece in pieces(turn.text, turn.chunk_size)]
        for index, (name, args) in enumerate(turn.tool_calls):
            events.append((None, self._chunk(model, {"tool_calls": [
                {"index": index, "id": f"call_{len(self.requests)}_{index}", "type": "function",
                 "function": {"name": name, "arguments": ""}}]})))
            for piece in pieces(json.dumps(args), 9):
                delta = {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}
                events.append((None, self._chunk(model, delta)))
        events.append((None, self._chunk(model, {}, "tool_calls" if turn.tool_calls else "stop")))
        events.append((None, "[DONE]"))
        return events

    def complete_body(self, turn: Turn, model: str) -> Any:
        return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000, "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": turn.text},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


class FakeAnthropic(FakeServer):
    """Anthropic messages."""

    def error_body(self, turn: Turn) -> Any:
        kind = ("overloaded_error" if turn.status == 529
                else "api_error" if turn.status >= 500 else "invalid_request_error")
        return {"type": "error", "error": {"type": kind, "message": turn.error}}

    def stream_events(self, turn: Turn, model: str) -> list[tuple[str | None, Any]]:
        events: list[tuple[str | None, Any]] = [("message_start", {"type": "message_start", "message": {
            "id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}})]
        index = 0
        if turn.text:
            events.append(("content_block_start", {"type": "content_block_start", "index": 0,
                                                   "content_block": {"type": "text", "text": ""}}))
            events += [("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                "delta": {"type": "text_delta", "text": piece}})
                       for piece in pieces(turn.text, turn.chunk_size)]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
            index = 1
        for offset, (name, args) in enumerate(turn.tool_calls):
            at = index + offset
            events.append(("content_block_start", {"type": "content_block_start", "index": at, "content_block": {
                "type": "tool_use", "id": f"toolu_{len(self.requests)}_{offset}", "name": name, "input": {}}}))
            events += [("content_block_delta", {"type": "content_block_delta", "index": at,
                                                "delta": {"type": "input_json_delta", "partial_json": piece}})
                       for piece in pieces(json.dumps(args), 9)]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": at}))
        events.append(("message_delta", {"type": "message_delta", "delta": {
            "stop_reason": "tool_use" if turn.tool_calls else "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 5}}))
        events.append(("message_stop", {"type": "message_stop"}))
        return events

    def complete_body(self, turn: Turn, model: str) -> Any:
        return {"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
                "content": [{"type": "text", "text": turn.text}], "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 5}}


class FakeGemini(FakeServer):
    """Gemini generateContent / streamGenerateContent?alt=sse."""

    def model_of(self, path: str, body: Any) -> str:
        return path.rsplit("/", 1)[-1].split(":", 1)[0]

    def is_streaming(self, path: str, body: Any) -> bool:
        return path.endswith(":streamGenerateContent")

    def error_body(self, turn: Turn) -> Any:
        return {"error": {"code": turn.status, "message": turn.error,
                          "status": "INTERNAL" if turn.status >= 500 else "INVALID_ARGUMENT"}}

    def _chunk(self, parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {"content": {"parts": parts, "role": "model"}, "index": 0}
        chunk: dict[str, Any] = {"candidates": [candidate], "modelVersion": "fake"}
        if finish:
            candidate["finishReason"] = finish
            chunk["usageMetadata"] = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
        return chunk

    def stream_events(self, turn: Turn, model: str) -> list[tuple[str | None, Any]]:
        texts = pieces(turn.text, turn.chunk_size)
        events: list[tuple[str | None, Any]] = [(None, self._chunk([{"text": piece}])) for piece in texts]
        calls = [{"functionCall": {"name": name, "args": args}, "thoughtSignature": f"sig-{i}"}
                 for i, (name, args) in enumerate(turn.tool_calls)]
        events.append((None, self._chunk(calls or [{"text": ""}], "STOP")))
        return events

    def complete_body(self, turn: Turn, model: str) -> Any:
        return self._chunk([{"text": turn.text}], "STOP")
