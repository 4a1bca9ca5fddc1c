"""Replies that are not the provider's API (an HTML page with status 200, an event stream where
JSON was asked for and the reverse, half a JSON body, an empty body or stream, a stream cut off)
become a ProviderError naming the status, the content type and how the body begins, for each
provider through its official SDK (or httpx for Gemini) against a real server on 127.0.0.1; the
agent, the `pdf` tool and `pdfdesk ask` report them as model_error and never as an empty answer."""

from __future__ import annotations

import asyncio
import json

import pytest

from pdfdesk.agent.events import AgentError, Done, TextDelta
from pdfdesk.agent.session import ChatSession
from pdfdesk.models.providers.base import ChatRequest, Message, ProviderError
from pdfdesk.models.providers.replies import BAD_REPLY, PREVIEW_CHARS, body_preview
from pdfdesk.tools import call_tool
from tests.agent.fake_servers import FakeOpenAI, FakeServer, Turn
from tests.agent.support import provider_urls, set_keys, use_config
from tests.agent.test_ask_cli import run_ask, write_config
from tests.models.test_providers import KINDS, KEY, complete, provider, stream_all

pytestmark = pytest.mark.network
NGINX = (b"<html>\r\n<head><title>Welcome to nginx!</title></head>\r\n<body>\r\n<h1>Welcome to nginx!</h1>"
         + b" " * 50 + b"<p>If you see this page, the web server is successfully installed.</p>" * 60
         + b"</body></html>")  # > 4 KB


def request() -> ChatRequest:
    return ChatRequest("model-x", [Message.user("hello")], "be brief")


def fails(kind: str, turn: Turn, streaming: bool, retries: int = 2) -> tuple[ProviderError, int]:
    """The error `turn` causes (streamed or one-shot), and how many requests the server saw."""
    with KINDS[kind][1]() as server:
        server.script(turn, Turn(text="a second answer must never be asked for"))
        run = stream_all if streaming else complete
        with pytest.raises(ProviderError) as caught:
            asyncio.run(run(provider(kind, server, retries=retries), request()))
        return caught.value, len(server.requests)


def server_of(kind: str) -> FakeServer:
    """A fake of `kind` used only for the bytes it would send (its socket is closed at once)."""
    server = KINDS[kind][1]()
    server.httpd.server_close()
    return server


@pytest.mark.parametrize("streaming", [False, True], ids=["complete", "stream"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_an_html_page_with_status_200(kind, streaming):
    error, requests = fails(kind, Turn.reply(NGINX, "text/html; charset=utf-8"), streaming)
    text = error.describe()
    assert text.startswith("HTTP 200: the server answered text/html where ")
    assert ("an event stream" if streaming else "JSON") + " was expected" in text
    assert "<title>Welcome to nginx!</title>" in text  # how the body begins, on one line
    assert "\r" not in text and "\n" not in text and "successfully installed" not in text  # cut short
    assert error.kind == BAD_REPLY and requests == 1  # the same address would answer alike: not retried


@pytest.mark.parametrize("kind", list(KINDS))
def test_an_event_stream_where_json_was_expected(kind):
    body = server_of(kind).sse_bytes(Turn(text="streamed anyway"))
    error, _ = fails(kind, Turn.reply(body, "text/event-stream"), streaming=False)
    assert error.describe().startswith(
        "HTTP 200: the server answered text/event-stream where JSON was expected; it begins")
    assert "data: " in error.describe()


@pytest.mark.parametrize("kind", list(KINDS))
def test_json_where_an_event_stream_was_expected(kind):
    body = server_of(kind).json_bytes(Turn(text="not streamed"))
    error, _ = fails(kind, Turn.reply(body, "application/json"), streaming=True)
    assert error.describe().startswith("HTTP 200: the server answered application/json where an event stream was "
                                       "expected; it begins '{")


@pytest.mark.parametrize("kind", list(KINDS))
def test_truncated_json(kind):
    body = server_of(kind).json_bytes(Turn(text="an answer that breaks off"))
    error, _ = fails(kind, Turn.reply(body[: len(body) // 2], "application/json"), streaming=False)
    assert error.describe().startswith("HTTP 200: the server sent application/json that cannot be read (")
    assert "it begins '{" in error.describe()


@pytest.mark.parametrize("content_type", ["application/json", ""])
@pytest.mark.parametrize("kind", list(KINDS))
def test_an_empty_body(kind, content_type):
    error, _ = fails(kind, Turn.reply(b"", content_type), streaming=False)
    expected = "the server sent an empty application/json reply" if content_type else \
        "the server answered with no content type where JSON was expected; the body is empty"
    assert error.describe() == f"HTTP 200: {expected}"


@pytest.mark.parametrize("kind", list(KINDS))
def test_json_of_another_shape(kind):
    error, _ = fails(kind, Turn.reply(b'{"status": "ok", "message": "proxy healthy"}', "application/json"),
                     streaming=False)
    assert error.describe().startswith("HTTP 200: the server's JSON reply has no ")
    assert "proxy healthy" in error.describe()


@pytest.mark.parametrize("kind", list(KINDS))
def test_an_empty_event_stream(kind):
    error, _ = fails(kind, Turn.reply(b"", "text/event-stream"), streaming=True)
    assert error.describe() == "HTTP 200: the server sent an empty event stream (text/event-stream)"


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_stream_cut_off_before_its_end(kind):
    body = server_of(kind).sse_bytes(Turn(text="The payment terms are forty-five days."), keep=2)
    error, _ = fails(kind, Turn.reply(body, "text/event-stream"), streaming=True)
    assert error.describe() == ("HTTP 200: the event stream (text/event-stream) ended after 2 events, "
                                "before the answer was complete")


@pytest.mark.parametrize("kind", list(KINDS))
def test_an_event_that_is_not_json(kind):
    good = server_of(kind).sse_bytes(Turn(text="fine so far"), keep=1)
    name = b"event: content_block_delta\n" if kind == "anthropic" else b""
    error, _ = fails(kind, Turn.reply(good + name + b"data: {\"truncated\n\n", "text/event-stream"), streaming=True)
    assert error.describe().startswith(
        "HTTP 200: the server sent an event stream (text/event-stream) that cannot be read")
    assert error.kind == BAD_REPLY


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_proxy_error_page_is_shown_short(kind):
    page = b"<html><body><h1>502 Bad Gateway</h1>" + b"<p>upstream</p>" * 300 + b"</body></html>"
    error, _ = fails(kind, Turn.reply(page, "text/html", status=502), streaming=False, retries=0)
    text = error.describe()
    assert text.startswith("HTTP 502: the server answered text/html; it begins '<html><body><h1>502 Bad Gateway</h1>")
    assert len(text) < 250 and error.retryable  # a gateway error is worth another try


@pytest.mark.parametrize("kind", list(KINDS))
def test_valid_replies_still_work(kind):
    """The checks let through what each API really sends, content-type parameters included."""
    server = server_of(kind)
    with KINDS[kind][1]() as live:
        live.script(Turn.reply(server.json_bytes(Turn(text="plain answer")), "application/json; charset=utf-8"),
                    Turn.reply(server.sse_bytes(Turn(text="streamed answer")), "text/event-stream; charset=utf-8"))
        assert asyncio.run(complete(provider(kind, live), request())) == "plain answer"
        events = asyncio.run(stream_all(provider(kind, live), request()))
    assert "".join(e.text for e in events if hasattr(e, "text")) == "streamed answer"


def test_the_preview_is_sanitised():
    body = f"\x1b[31mred\x1b[0m \u202eevil\u202c key={KEY}\x00\n\n  next line {'x' * 400}".encode()
    preview = body_preview(body, KEY)
    assert "\x1b" not in preview and "\u202e" not in preview and "\x00" not in preview and "\n" not in preview
    assert KEY not in preview and preview.startswith("[31mred")
    assert len(preview) == PREVIEW_CHARS + 1 and preview.endswith("…")
    assert body_preview(b"\xff\xfe broken utf-8") == "�� broken utf-8"


# -- what users see ------------------------------------------------------------------------------
async def answer(session: ChatSession, question: str) -> list:
    return [event async for event in session.send(question)]


@pytest.mark.parametrize("kind", ["openai", "anthropic", "google"])
def test_the_chat_shows_model_error_not_a_traceback(kind, monkeypatch, report_pdf):
    set_keys(monkeypatch, kind)
    with KINDS[kind][1]() as server:
        server.script(Turn.reply(NGINX, "text/html"))
        use_config(providers=provider_urls(**{kind: server.url}))
        events = asyncio.run(answer(ChatSession([str(report_pdf)], model=f"{kind}/model-x"), "What are the terms?"))
    errors = [e for e in events if isinstance(e, AgentError)]
    assert [e.code for e in errors] == ["model_error"]
    assert "HTTP 200: the server answered text/html" in errors[0].message and "baseUrl" in errors[0].hint
    assert isinstance(events[-1], Done) and events[-1].text == ""


def test_an_empty_answer_is_a_model_error(monkeypatch, report_pdf, openai_server):
    set_keys(monkeypatch, "openai")
    openai_server.script(Turn(text=""))  # a well-formed stream that says nothing
    use_config(providers=provider_urls(openai=openai_server.url))
    events = asyncio.run(answer(ChatSession([str(report_pdf)], model="openai/model-x"), "Anything?"))
    assert not [e for e in events if isinstance(e, TextDelta) and e.text]
    errors = [e for e in events if isinstance(e, AgentError)]
    assert len(errors) == 1 and errors[0].code == "model_error"
    assert errors[0].message == "openai/model-x returned an empty answer (stop reason: end)."


@pytest.mark.parametrize("kind", ["openai", "anthropic", "google"])
def test_the_pdf_tool_reports_model_error(kind, monkeypatch, report_pdf):
    set_keys(monkeypatch, kind)
    with KINDS[kind][1]() as server:
        server.script(Turn.reply(b'{"id": "x", "cho', "application/json"))
        use_config(providers=provider_urls(**{kind: server.url}), pdf_model=f"{kind}/model-x")
        result = call_tool("pdf", {"pdf": str(report_pdf), "prompt": "Summarise."})
    assert result.is_error and result.details["error"] == "model_error"
    attempt = result.details["attempts"][0]
    assert attempt["error"] == BAD_REPLY
    assert attempt["message"].startswith("HTTP 200: the server sent application/json that cannot be read (")
    assert json.dumps(result.details).count("internal_error") == 0


def test_ask_exits_1_on_a_bad_reply(report_pdf, tmp_path):
    with FakeOpenAI() as server:
        server.script(Turn.reply(NGINX, "text/html"))
        write_config(tmp_path, f'[models]\nagent = "lab/m"\n\n[providers.lab]\nbaseUrl = "{server.url}"\n')
        done = run_ask(tmp_path, "q", "--pdf", str(report_pdf), "--quiet")
    assert done.returncode == 1 and done.stdout.strip() == ""
    assert "pdfdesk: lab/m: HTTP 200: the server answered text/html where an event stream was expected" in done.stderr
    assert "Traceback" not in done.stderr


def test_ask_exits_1_on_an_empty_answer(report_pdf, tmp_path):
    with FakeOpenAI() as server:
        server.script(Turn(text=""))
        write_config(tmp_path, f'[models]\nagent = "lab/m"\n\n[providers.lab]\nbaseUrl = "{server.url}"\n')
        done = run_ask(tmp_path, "q", "--pdf", str(report_pdf), "--quiet")
    assert done.returncode == 1 and "returned an empty answer" in done.stderr
