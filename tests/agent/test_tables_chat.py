"""The chat's model and tables, against real HTTP servers speaking the providers' protocols through
the official SDKs: it is offered pdf_tables and told when to use it, its call's result goes back to
it, and the page it cites is the table's; its reading (pdf_extract_text) keeps tables by default."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from pdfdesk.agent.events import CitationFound, Done, ToolCallFinished, ToolCallStarted
from pdfdesk.agent.loop import tool_specs
from pdfdesk.agent.prompts import TABLES_NOTE, chat_tools, system_prompt
from pdfdesk.agent.session import ChatSession
from pdfdesk.tools import ToolResult, call_tool, get_tool
from tests.agent.fake_servers import FakeServer, Turn
from tests.agent.support import provider_urls, set_keys, use_config
from tests.agent.table_pdfs import fee_schedule_pdf, physio_amounts

pytestmark = pytest.mark.network

MODELS = {"openai": "openai/gpt-4.1-mini", "anthropic": "anthropic/claude-sonnet-4-6",
          "google": "google/gemini-2.5-flash"}
SERVERS = {"openai": "openai_server", "anthropic": "anthropic_server", "google": "gemini_server"}
XRAY_5_ROW = "| 3011 | Xray 5 | 12.10 | 48.30 | 101.70 |"


@pytest.fixture(scope="module")
def fees(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fee_schedule_pdf(tmp_path_factory.mktemp("chat-tables") / "fees.pdf")


def chat(provider: str, server: FakeServer, fees: Path, monkeypatch: pytest.MonkeyPatch,
         runner: Any = None) -> ChatSession:
    set_keys(monkeypatch, provider)
    config = use_config(providers=provider_urls(**{provider: server.url}))
    return ChatSession([str(fees)], model=MODELS[provider], config=config, tool_runner=runner)


def run(session: ChatSession, text: str) -> list[Any]:
    async def collect() -> list[Any]:
        return [event async for event in session.send(text)]

    return asyncio.run(collect())


def offered(provider: str, body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Tool name -> its parameters, as the request offered them."""
    if provider == "google":
        return {d["name"]: d["parameters"] for d in body["tools"][0]["functionDeclarations"]}
    if provider == "anthropic":
        return {t["name"]: t["input_schema"] for t in body["tools"]}
    return {t["function"]["name"]: t["function"]["parameters"] for t in body["tools"]}


def system_text(provider: str, body: dict[str, Any]) -> str:
    if provider == "google":
        return body["systemInstruction"]["parts"][0]["text"]
    if provider == "anthropic":
        return body["system"] if isinstance(body["system"], str) else " ".join(b["text"] for b in body["system"])
    return body["messages"][0]["content"]


def test_the_model_is_offered_pdf_tables_and_told_when_to_use_it():
    tables = get_tool("pdf_tables")
    assert tables is not None and tables.chat is not None  # its own ChatUse: the chat offers it
    (spec,) = [s for s in tool_specs() if s.name == "pdf_tables"]
    assert set(spec.schema["properties"]) >= {"path", "pages", "format"} and "library" not in spec.schema["properties"]
    prompt = system_prompt(["fees.pdf"])
    assert TABLES_NOTE in prompt and tables.chat.hint in prompt
    assert "cite the page of the table you used" in TABLES_NOTE
    # no note about a tool the chat is not offered
    assert TABLES_NOTE not in system_prompt(["fees.pdf"], [t for t in chat_tools() if t.name != "pdf_tables"])


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_the_model_reads_a_table_and_cites_its_page(provider, request, fees, monkeypatch):
    server = request.getfixturevalue(SERVERS[provider])
    value = physio_amounts(106)[2]  # Massage 7, Status 9: on page 4, the table's second page
    server.script(
        Turn(text="Let me read the table.", tool_calls=[("pdf_tables", {"path": str(fees), "pages": "3-4"})]),
        Turn(text=f"Massage 7 costs {value} at Status 9 (row Massage 7, column Status 9) [p. 4]."),
    )
    session = chat(provider, server, fees, monkeypatch)

    events = run(session, "What is the Status 9 amount for Massage 7?")

    started = [e for e in events if isinstance(e, ToolCallStarted)]
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert [e.name for e in started] == ["pdf_tables"] and not finished[0].is_error, finished[0].summary
    (table,) = finished[0].details["tables"]
    assert table["pages"] == [3, 4] and table["continued"]
    citations = [e.citation for e in events if isinstance(e, CitationFound)]
    assert [(c.document, c.page, c.label) for c in citations] == [(str(fees), 4, "fees.pdf p. 4")]
    done = events[-1]
    assert isinstance(done, Done) and done.citations == tuple(citations) and value in done.text

    first, second = server.bodies
    assert "pdf_tables" in offered(provider, first) and "library" not in offered(provider, first)["pdf_tables"]
    assert TABLES_NOTE in system_text(provider, first)
    sent_back = json.dumps(second, ensure_ascii=False)
    assert f"| 7106 | Massage 7 | 126.65 | 252.60 | {value} |" in sent_back  # the joined table, as Markdown
    assert "continued, joined into one" in sent_back and "<<<PDF_CONTENT" in sent_back


def recording(calls: list[tuple[str, dict[str, Any]]]) -> Any:
    def runner(name: str, args: dict[str, Any]) -> ToolResult:
        calls.append((name, dict(args)))
        return call_tool(name, args)
    return runner


def test_the_chats_reading_keeps_tables_unless_the_model_says_not(openai_server, fees, monkeypatch):
    calls: list[tuple[str, dict[str, Any]]] = []
    openai_server.script(
        Turn(tool_calls=[("pdf_extract_text", {"path": str(fees), "pages": "1"})]),
        Turn(tool_calls=[("pdf_extract_text", {"path": str(fees), "pages": "1", "tables": False})]),
        Turn(text="48.30 [p. 1]."),
    )
    session = chat("openai", openai_server, fees, monkeypatch, runner=recording(calls))

    events = run(session, "Read page 1")

    assert [(name, args.get("tables")) for name, args in calls] == [("pdf_extract_text", True),
                                                                    ("pdf_extract_text", False)]
    # the tool card shows what the model asked for; the tool ran with the chat's default
    assert "tables" not in next(e for e in events if isinstance(e, ToolCallStarted)).arguments
    tool_texts = [m["content"] for m in openai_server.bodies[2]["messages"] if m["role"] == "tool"]
    assert XRAY_5_ROW in tool_texts[0] and XRAY_5_ROW not in tool_texts[1]
    assert "Xray 5" in tool_texts[1]


def test_the_default_is_the_chats_only(fees):
    """The CLI and MCP call the tool as its schema says: plain text unless asked."""
    tool = get_tool("pdf_extract_text")
    assert tool is not None and tool.schema["properties"]["tables"]["default"] is False
    plain = call_tool("pdf_extract_text", {"path": str(fees), "pages": "1"})
    assert not plain.is_error and XRAY_5_ROW not in plain.text
