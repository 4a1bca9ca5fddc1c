"""The MCP server's pieces in-process: tool definitions, result mapping, options, model gating,
and requests running off the event loop (through the SDK's in-process client)."""

from __future__ import annotations

import sys
import threading
import types as pytypes
from pathlib import Path

import anyio
import pytest
from mcp import Client

from pdfdesk import mcp_server
from pdfdesk.core.config import Config
from pdfdesk.tools import registry
from pdfdesk.tools.contract import Tool, ToolResult, image_item, text_item
from pdfdesk.tools.registry import UNTRUSTED_NOTICE


def fake_tool(name: str, func) -> Tool:
    return Tool(name, f"{name} for tests.", {"type": "object", "properties": {}, "additionalProperties": False}, func)


@pytest.fixture
def agent_models(monkeypatch):
    """Stand in for `pdfdesk.models.catalog` and make sure a `pdf` tool is registered."""
    registry.all_tools()  # load the built-in tools (the real `pdf` imports the real module) first
    module = pytypes.ModuleType("pdfdesk.models.catalog")
    module.model_configured = lambda config: True
    monkeypatch.setitem(sys.modules, "pdfdesk.models.catalog", module)
    if "pdf" not in registry.TOOLS:
        monkeypatch.setitem(registry.TOOLS, "pdf", fake_tool("pdf", lambda args: ToolResult([text_item("ok")])))
    return module


def test_descriptions_end_with_the_untrusted_notice_once():
    tool = fake_tool("probe", lambda args: ToolResult())
    assert mcp_server.describe(tool) == f"probe for tests.\n\n{UNTRUSTED_NOTICE}"
    already = Tool("probe", f"Reads PDFs. {UNTRUSTED_NOTICE}", tool.schema, tool.func)
    assert mcp_server.describe(already).count(UNTRUSTED_NOTICE) == 1


def test_results_map_to_text_image_structured_content_and_error_flag():
    result = ToolResult(content=[text_item("Rendered."), image_item("iVBORw0KGgo=", "image/png")],
                        details={"size": (10, 20), "path": Path("/tmp/x.png")})
    mapped = mcp_server.to_mcp_result(result)
    assert [c.type for c in mapped.content] == ["text", "image"]
    assert mapped.content[1].data == "iVBORw0KGgo=" and mapped.content[1].mime_type == "image/png"
    assert mapped.structured_content == {"size": [10, 20], "path": "/tmp/x.png"} and mapped.is_error is False
    wire = mapped.model_dump(by_alias=True, exclude_none=True)
    assert wire["structuredContent"] and wire["isError"] is False and wire["content"][1]["mimeType"] == "image/png"


def test_options_make_workspace_roots_and_the_sandbox(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path)
    base = Config(max_file_mb=7.0)
    config = mcp_server.server_config(base, ["a", str(tmp_path / "b"), "./a"], no_remote=True)
    assert config.workspace_only is True and config.allow_remote is False and config.max_file_mb == 7.0
    assert config.roots == (str(tmp_path / "a"), str(tmp_path / "b"))
    # no flags: the config file as it is, with review notes read-only for clients
    assert mcp_server.server_config(base) == base.replace(annotate_writes=False)
    assert mcp_server.server_config(base, allow_annotate=True) == base
    with pytest.raises(mcp_server.ServerOptionError, match="no such folder"):
        mcp_server.server_config(base, ["missing"])
    (tmp_path / "file.pdf").write_bytes(b"%PDF-1.4")
    with pytest.raises(mcp_server.ServerOptionError, match="not a folder"):
        mcp_server.server_config(base, ["file.pdf"])


def test_pdf_is_offered_only_when_the_agent_says_a_model_is_configured(agent_models, monkeypatch):
    config = Config()
    assert "pdf" in [tool.name for tool in mcp_server.exposed_tools(config)]
    agent_models.model_configured = lambda config: False
    assert "pdf" not in [tool.name for tool in mcp_server.exposed_tools(config)]
    refused = mcp_server.answer_tool_call("pdf", {"pdf": "x.pdf"}, config)
    assert refused.is_error and refused.details["error"] == "model_error"

    def broken(config):
        raise RuntimeError("keyring locked")

    agent_models.model_configured = broken
    assert not mcp_server.model_configured(config)
    monkeypatch.setitem(sys.modules, "pdfdesk.models.catalog", None)  # the agent package is absent
    assert not mcp_server.model_configured(config)
    monkeypatch.setitem(sys.modules, "pdfdesk.models.catalog", pytypes.ModuleType("pdfdesk.models.catalog"))
    assert not mcp_server.model_configured(config)  # present, but without model_configured


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "auto"])  # the initialize handshake and the 2026 per-request era
async def test_a_slow_tool_does_not_stall_other_requests(monkeypatch, text_pdf, mode):
    registry.all_tools()
    entered, release = threading.Event(), threading.Event()

    def slow(args):
        entered.set()
        release.wait(20)
        return ToolResult([text_item("slow done")], {"slow": True})

    monkeypatch.setitem(registry.TOOLS, "slow_probe", fake_tool("slow_probe", slow))
    monkeypatch.setattr(mcp_server, "tool_runner", lambda name, args, timeout: registry.call_tool(name, args))
    finished: list[str] = []

    async def call_slow(client: Client) -> None:
        result = await client.call_tool("slow_probe", {})
        assert result.structured_content == {"slow": True}
        finished.append("slow")

    async with Client(mcp_server.build_server(), mode=mode) as client:
        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(call_slow, client)
                await anyio.to_thread.run_sync(entered.wait, 10)
                info = await client.call_tool("pdf_info", {"path": str(text_pdf)})  # answered meanwhile
                assert not info.is_error and info.structured_content["pages_total"] == 3
                finished.append("info")
                release.set()
    assert finished == ["info", "slow"]


@pytest.mark.anyio
async def test_an_unexpected_failure_is_still_a_coded_tool_result(monkeypatch, text_pdf):
    def explode(name, args, timeout):
        raise KeyError("boom")

    monkeypatch.setattr(mcp_server, "tool_runner", explode)
    async with Client(mcp_server.build_server(), mode="legacy") as client:
        result = await client.call_tool("pdf_info", {"path": str(text_pdf)})
    assert result.is_error and result.structured_content["error"] == "internal_error"
    assert "KeyError" in result.structured_content["message"]
