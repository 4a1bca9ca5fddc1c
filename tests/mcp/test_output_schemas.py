"""`pdfdesk mcp` advertises each tool's details type as its outputSchema, and real results match it."""

from __future__ import annotations

import jsonschema
import pytest

from pdfdesk.tools import get_tool
from tests.agent.fake_servers import Turn
from tests.agent.support import TEST_KEYS, openai_server  # noqa: F401 - a fixture, found by name
from tests.mcp.client import call_ok, mcp_session

pytestmark = pytest.mark.anyio
GPT = "openai/gpt-4.1-mini"


def closed_schema_errors(name: str, structured: dict) -> list[str]:
    """What the strict form of the tool's schema (no undeclared keys anywhere) finds wrong."""
    schema = get_tool(name).output_schema(closed=True)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in jsonschema.Draft202012Validator(schema).iter_errors(structured)]


@pytest.mark.network
async def test_every_tool_advertises_its_output_schema_and_its_results_match(server_home, text_pdf, outline_pdf,
                                                                             openai_server):
    (server_home / "config" / "config.toml").write_text(
        f'[search]\nsemantic = false\n[models]\npdfModel = "{GPT}"\n'
        f'[providers.openai]\nbaseUrl = "{openai_server.url}"\n', encoding="utf-8")
    openai_server.script(Turn(text="Three short pages [p. 2]."))
    args = {
        "pdf_info": {"path": str(text_pdf)},
        "pdf_extract_text": {"path": str(text_pdf), "pages": "2-3"},
        "pdf_render_page": {"path": str(text_pdf), "page": 1, "dpi": 72},
        "pdf_outline": {"path": str(outline_pdf)},
        "pdf_search": {"path": str(text_pdf), "query": "hello", "mode": "keyword"},
        "pdf": {"pdf": str(text_pdf), "prompt": "Summarise."},
        "pdf_annotate": {"action": "add", "path": str(text_pdf), "page": 2, "quote": "says hello", "note": "n"},
        "pdf_export_review": {"path": str(text_pdf), "format": "json"},
        "pdf_tables": {"path": str(text_pdf)},
    }
    async with mcp_session(server_home, "--allow-annotate", env={"OPENAI_API_KEY": TEST_KEYS["openai"]}) as session:
        listed = (await session.list_tools()).tools
        assert sorted(tool.name for tool in listed) == sorted(args), "a new tool needs a case here"
        # call_ok goes through the SDK client, which also checks each result against the listed schema
        results = {tool.name: await call_ok(session, tool.name, args[tool.name]) for tool in listed}

    for tool in listed:
        assert tool.output_schema is not None, tool.name
        assert tool.output_schema == get_tool(tool.name).output_schema(), tool.name
        assert tool.output_schema["type"] == "object"
        structured = results[tool.name].structured_content
        assert structured, tool.name
        assert not closed_schema_errors(tool.name, structured), (tool.name, closed_schema_errors(tool.name, structured))
    assert results["pdf"].structured_content["model"] == GPT
    assert results["pdf"].structured_content["native"] is False


def test_a_key_missing_from_the_type_fails_the_strict_check(text_pdf):
    from pdfdesk.tools import call_tool

    details = dict(call_tool("pdf_outline", {"path": str(text_pdf)}).details)
    assert not closed_schema_errors("pdf_outline", details)
    assert closed_schema_errors("pdf_outline", {**details, "entries_hidden": 3})
