"""Each provider through its SDK (or httpx for Gemini) against its fake server: retries with
backoff honouring Retry-After, timeouts, refused connections, tool-call parsing, key redaction."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from pdfdesk.models.providers.anthropic import AnthropicProvider
from pdfdesk.models.providers.base import ChatRequest, Message, Provider, ProviderError, StreamEnd, StreamText, ToolSpec
from pdfdesk.models.providers.compatible import CompatibleProvider
from pdfdesk.models.providers.google import GoogleProvider
from pdfdesk.models.providers.openai import OpenAIProvider
from tests.agent.fake_servers import FakeAnthropic, FakeGemini, FakeOpenAI, FakeServer, Turn

pytestmark = pytest.mark.network
KEY = "sk-test-secret-0123456789"
KINDS = {"openai": (OpenAIProvider, FakeOpenAI), "anthropic": (AnthropicProvider, FakeAnthropic),
         "google": (GoogleProvider, FakeGemini), "compatible": (CompatibleProvider, FakeOpenAI)}
TOOLS = [ToolSpec("pdf_search", "Search.", {"type": "object", "properties": {"query": {"type": "string"}},
                                            "required": ["query"], "additionalProperties": False})]


def provider(kind: str, server: FakeServer, timeout: float = 5.0, retries: int = 2) -> Provider:
    cls = KINDS[kind][0]
    return cls(kind, KEY, server.url, timeout, retries, True)


def request(**kwargs) -> ChatRequest:
    return ChatRequest("model-x", [Message.user("hello")], "be brief", **kwargs)


async def stream_all(p: Provider, req: ChatRequest) -> list:
    async with p:
        return [event async for event in p.stream(req)]


async def complete(p: Provider, req: ChatRequest) -> str:
    async with p:
        return await p.complete(req)


@pytest.mark.parametrize("kind", list(KINDS))
def test_stream_text_and_parallel_tool_calls(kind):
    with KINDS[kind][1]() as server:
        server.script(Turn(text="Searching both.",
                           tool_calls=[("pdf_search", {"query": "a"}), ("pdf_search", {"query": "b c"})]))
        events = asyncio.run(stream_all(provider(kind, server), request(tools=TOOLS)))
    assert "".join(e.text for e in events if isinstance(e, StreamText)) == "Searching both."
    end = events[-1]
    assert isinstance(end, StreamEnd) and end.stop_reason == "tool_calls"
    assert [(c.name, c.arguments) for c in end.tool_calls] == [("pdf_search", {"query": "a"}),
                                                               ("pdf_search", {"query": "b c"})]
    assert len({c.id for c in end.tool_calls}) == 2


@pytest.mark.parametrize("kind", list(KINDS))
def test_429_then_503_are_retried_honouring_retry_after(kind):
    with KINDS[kind][1]() as server:
        server.script(Turn.fail(429, "rate limited", retry_after="0.2"), Turn.fail(503, "unavailable"),
                      Turn(text="answer"))
        started = time.monotonic()
        assert asyncio.run(complete(provider(kind, server), request())) == "answer"
        elapsed = time.monotonic() - started
        assert len(server.requests) == 3
    assert elapsed >= 0.2  # waited as the server asked


@pytest.mark.parametrize("kind", list(KINDS))
def test_retries_give_up_and_report_the_status(kind):
    with KINDS[kind][1]() as server:
        server.script(*[Turn.fail(500, f"broken, key {KEY}")] * 3)
        with pytest.raises(ProviderError) as caught:
            asyncio.run(stream_all(provider(kind, server, retries=1), request()))
        assert len(server.requests) == 2
    error = caught.value
    assert error.status == 500 and error.retries == 1 and error.kind == "error"
    assert KEY not in error.describe() and "broken" in error.describe()


@pytest.mark.parametrize("kind", list(KINDS))
def test_client_errors_are_not_retried(kind):
    with KINDS[kind][1]() as server:
        server.script(Turn.fail(400, "bad schema"), Turn(text="never"))
        with pytest.raises(ProviderError) as caught:
            asyncio.run(complete(provider(kind, server), request()))
        assert len(server.requests) == 1
    assert caught.value.status == 400 and not caught.value.retryable


@pytest.mark.parametrize("kind", list(KINDS))
def test_timeout(kind):
    with KINDS[kind][1]() as server:
        server.script(Turn(text="late", delay=3.0))
        started = time.monotonic()
        with pytest.raises(ProviderError) as caught:
            asyncio.run(complete(provider(kind, server, timeout=0.3), request()))
    assert caught.value.kind == "timeout" and time.monotonic() - started < 2.5


@pytest.mark.parametrize("kind", list(KINDS))
def test_connection_refused_is_retried_then_reported(kind):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    class Closed:
        url = f"http://127.0.0.1:{port}" + ("/v1" if kind in ("openai", "compatible") else "")

    with pytest.raises(ProviderError) as caught:
        asyncio.run(complete(provider(kind, Closed(), retries=1), request()))  # type: ignore[arg-type]
    assert caught.value.kind == "connection" and caught.value.retries == 1


def test_cancellation_stops_a_stream_promptly():
    with FakeOpenAI() as server:
        server.script(Turn(text="x" * 2000, chunk_size=1, chunk_delay=0.01))

        async def main() -> tuple[int, float]:
            got = 0
            p = provider("openai", server)

            async def consume() -> None:
                nonlocal got
                async with p:
                    async for _ in p.stream(request()):
                        got += 1

            task = asyncio.ensure_future(consume())
            deadline = time.monotonic() + 15  # the SDK's first import is slow on a busy machine
            while got < 5 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            cancelled_at = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            return got, time.monotonic() - cancelled_at

        got, stop_s = asyncio.run(main())
    assert 5 <= got < 2000 and stop_s < 1.0  # the 20 s stream ended at once


def test_max_tokens_parameter_names():
    with FakeOpenAI() as server:
        server.script(Turn(text="a"), Turn(text="b"))
        asyncio.run(complete(provider("openai", server), request(max_tokens=99)))
        asyncio.run(complete(provider("compatible", server), request(max_tokens=99)))
        first, second = server.bodies
    assert first["max_completion_tokens"] == 99 and "max_tokens" not in first
    assert second["max_tokens"] == 99 and "max_completion_tokens" not in second
