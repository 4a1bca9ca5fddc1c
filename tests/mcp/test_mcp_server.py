"""`pdfdesk mcp` as a subprocess, driven by the official MCP client over stdio."""

from __future__ import annotations

import base64
import json
import os
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.tools import all_tools, call_tool, get_tool
from pdfdesk.tools.registry import UNTRUSTED_NOTICE
from tests.mcp.client import call_error, call_ok, mcp_session, server_env, server_log, texts
from tests.pdf_factory import text_pdf as make_text_pdf

pytestmark = pytest.mark.anyio


def contract_pdf(path: Path) -> Path:
    """Four pages; only page 3 names the arbitration seat."""
    doc = pymupdf.open()
    lines = {1: "Recitals and definitions of the parties.", 2: "Payment terms: thirty days net.",
             3: "Disputes go to arbitration; the seat of arbitration is Geneva.", 4: "Signatures."}
    for number, line in lines.items():
        page = doc.new_page()
        page.insert_text((72, 72), f"Section {number}", fontsize=16)
        page.insert_text((72, 110), line, fontsize=11)
    doc.set_toc([[1, "Recitals", 1], [1, "Payment", 2], [1, "Disputes", 3], [1, "Signatures", 4]])
    doc.save(path)
    doc.close()
    return path


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def assert_clean_log(home: Path) -> None:
    log = server_log(home)
    assert "Traceback" not in log and "ERROR" not in log, log


async def test_lists_every_registry_tool_with_its_schema_and_the_untrusted_warning(server_home):
    async with mcp_session(server_home) as session:
        listed = (await session.list_tools()).tools
    registry = {tool.name: tool for tool in all_tools()}
    expected = [name for name in registry if name != "pdf"]  # no model configured: no `pdf`
    assert [tool.name for tool in listed] == expected
    assert {"pdf_info", "pdf_extract_text", "pdf_render_page", "pdf_outline", "pdf_search"} <= set(expected)
    for tool in listed:
        assert tool.input_schema == registry[tool.name].schema
        assert tool.description.startswith(registry[tool.name].description.rstrip())
        assert tool.description.endswith(UNTRUSTED_NOTICE)
        assert tool.annotations.read_only_hint is True
    assert_clean_log(server_home)


async def test_pdf_tool_is_listed_only_when_a_model_is_configured(server_home):
    if get_tool("pdf") is None:
        pytest.skip("the pdf analyze tool is not registered in this tree")
    async with mcp_session(server_home, env={"OPENAI_API_KEY": "sk-test-not-a-real-key"}) as session:
        names = [tool.name for tool in (await session.list_tools()).tools]
    assert names == [tool.name for tool in all_tools()]  # and without a key it is absent (the test above)


async def test_calls_each_tool_with_the_same_results_as_the_registry(server_home, text_pdf, outline_pdf):
    args = {
        "pdf_info": {"path": str(text_pdf)},
        "pdf_extract_text": {"path": str(text_pdf), "pages": "2-3"},
        "pdf_render_page": {"path": str(text_pdf), "page": "2", "dpi": 100},
        "pdf_outline": {"path": str(outline_pdf)},
        "pdf_search": {"path": str(text_pdf), "query": "hello", "mode": "keyword"},
        "pdf_annotate": {"action": "list", "path": str(text_pdf)},
        "pdf_export_review": {"path": str(text_pdf), "format": "json"},
        "pdf_tables": {"path": str(text_pdf), "format": "json"},
    }
    async with mcp_session(server_home, "--allow-annotate") as session:
        listed = [tool.name for tool in (await session.list_tools()).tools]
        assert sorted(listed) == sorted(args), "a new tool needs a case here"
        results = {name: await call_ok(session, name, args[name]) for name in listed}

    info = results["pdf_info"].structured_content
    assert info == call_tool("pdf_info", args["pdf_info"]).details
    assert info["pages_total"] == 3 and info["title"] == "Test Title"
    assert "Pages: 3" in texts(results["pdf_info"])

    extracted = results["pdf_extract_text"]
    assert "--- Page 2 ---" in texts(extracted) and "--- Page 1 ---" not in texts(extracted)
    assert "<<<PDF_CONTENT" in texts(extracted) and "Page 3 says hello" in texts(extracted)
    assert extracted.structured_content["untrusted_content"] is True

    rendered = results["pdf_render_page"]
    assert [item.type for item in rendered.content] == ["text", "image"]  # the page comes back as an image
    image = rendered.content[1]
    assert image.mime_type == "image/png"
    png = base64.b64decode(image.data)
    details = rendered.structured_content
    assert png_size(png) == (details["width"], details["height"]) == (827, 1170)  # A4 at 100 dpi
    assert details["bytes"] == len(png) and details["page"] == 2
    assert Path(details["path"]).read_bytes() == png
    assert Path(details["path"]).parent == server_home / "pdf-renders"  # the app data folder the app uses

    outline = results["pdf_outline"].structured_content
    assert outline == call_tool("pdf_outline", args["pdf_outline"]).details
    assert "Methods" in texts(results["pdf_outline"])

    search = results["pdf_search"].structured_content
    assert search["count"] == 3 and sorted(m["page"] for m in search["matches"]) == [1, 2, 3]
    assert all(m["rects"] for m in search["matches"])
    assert results["pdf_annotate"].structured_content["count"] == 0
    exported = results["pdf_export_review"].structured_content
    assert Path(exported["output"]).parent == server_home / "reviews" and Path(exported["output"]).exists()
    assert_clean_log(server_home)


async def test_search_a_document_then_from_its_index(server_home, tmp_path):
    pdf = contract_pdf(tmp_path / "contract.pdf")
    async with mcp_session(server_home) as session:
        first = await call_ok(session, "pdf_search", {"path": str(pdf), "query": "arbitration Geneva"})
        assert [m["page"] for m in first.structured_content["matches"]] == [3]
        match = first.structured_content["matches"][0]
        assert "Geneva" in match["excerpt"] and match["rects"] and match["section"] == "Disputes"
        assert "<<<PDF_CONTENT" in texts(first)
        # the server builds the index in the background after answering; it lands in the app data folder
        state = await wait_for_complete_index(server_home)
        again = await call_ok(session, "pdf_search", {"path": str(pdf), "query": "arbitration Geneva"})
        sections = await call_ok(session, "pdf_search", {"path": str(pdf), "query": "Geneva",
                                                         "granularity": "section"})
    assert state["pages_total"] == 4
    assert again.structured_content["index_complete"] is True and "note" not in again.structured_content
    assert [m["page"] for m in again.structured_content["matches"]] == [3]
    assert [m["title"] for m in sections.structured_content["matches"]] == ["Disputes"]
    assert_clean_log(server_home)


async def wait_for_complete_index(home: Path, timeout: float = 30.0) -> dict:
    import anyio

    with anyio.fail_after(timeout):
        while True:
            states = [json.loads(p.read_text()) for p in (home / "indices").glob("*/state.json")]
            done = [s for s in states if s["pages_indexed"] >= s["pages_total"] > 0 and s["sections_indexed"]]
            if done:
                return done[0]
            await anyio.sleep(0.1)


async def test_tool_errors_are_coded_results_not_protocol_errors(server_home, tmp_path, not_pdf, text_pdf):
    async with mcp_session(server_home) as session:
        await call_error(session, "pdf_info", {"path": str(tmp_path / "missing.pdf")}, "file_not_found")
        await call_error(session, "pdf_extract_text", {"path": str(not_pdf)}, "not_a_pdf")
        await call_error(session, "pdf_render_page", {"path": str(text_pdf), "page": 9}, "invalid_page")
        await call_error(session, "pdf_info", {"path": str(text_pdf), "colour": "red"}, "validation_error")
        await call_error(session, "pdf_outline", {}, "validation_error")
        unknown = await call_error(session, "pdf_summon", {"path": str(text_pdf)}, "validation_error")
        assert "pdf_info" in unknown.structured_content["hint"]
        if get_tool("pdf") is not None:  # registered, but no model is configured for this server
            refused = await call_error(session, "pdf", {"pdf": str(text_pdf), "prompt": "Summarise."}, "model_error")
            assert refused.structured_content["attempts"] == []
        # the session is still healthy after the errors
        await call_ok(session, "pdf_info", {"path": str(text_pdf)})
    assert_clean_log(server_home)


async def test_root_and_no_remote_confine_the_server(server_home, tmp_path):
    docs = tmp_path / "work" / "docs"
    docs.mkdir(parents=True)
    inside = make_text_pdf(docs / "inside.pdf")
    outside = make_text_pdf(tmp_path / "outside.pdf")
    (docs / "link.pdf").symlink_to(outside)
    other = tmp_path / "other"
    other.mkdir()
    second = make_text_pdf(other / "second.pdf")
    # relative roots mean the folder the client starts the server in
    async with mcp_session(server_home, "--root", "docs", "--root", str(other), "--no-remote",
                           cwd=tmp_path / "work") as session:
        tools = (await session.list_tools()).tools
        assert all(tool.annotations.open_world_hint is False for tool in tools if tool.name != "pdf")
        refused = await call_error(session, "pdf_info", {"path": "https://example.org/paper.pdf"}, "remote_disabled")
        assert "example.org" in refused.structured_content["message"]
        await call_ok(session, "pdf_info", {"path": str(inside)})
        await call_ok(session, "pdf_outline", {"path": str(second)})
        denied = await call_error(session, "pdf_info", {"path": str(outside)}, "outside_workspace")
        assert str(docs) in denied.structured_content["hint"]
        await call_error(session, "pdf_extract_text", {"path": str(docs / "link.pdf")}, "outside_workspace")
        await call_error(session, "pdf_render_page", {"path": f"{docs}/../../outside.pdf", "page": 1},
                         "outside_workspace")
        await call_error(session, "pdf_search", {"path": f"file://{outside}", "query": "hello"}, "outside_workspace")


async def test_reads_the_apps_config_file(server_home, tmp_path):
    allowed = tmp_path / "cases"
    allowed.mkdir()
    inside = make_text_pdf(allowed / "case.pdf")
    outside = make_text_pdf(tmp_path / "elsewhere.pdf")
    (server_home / "config" / "config.toml").write_text(
        f'[search]\nsemantic = false\n[files]\nworkspaceOnly = true\nroots = ["{allowed}"]\n'
        "[network]\nallowRemote = false\n", encoding="utf-8")
    async with mcp_session(server_home) as session:
        await call_ok(session, "pdf_info", {"path": str(inside)})
        await call_error(session, "pdf_info", {"path": str(outside)}, "outside_workspace")
        await call_error(session, "pdf_info", {"path": "http://example.org/a.pdf"}, "remote_disabled")


def run_server(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **server_env(home)}
    return subprocess.run([sys.executable, "-m", "pdfdesk", "mcp", *args], input="", capture_output=True,
                          text=True, timeout=60, env=env)


def test_bad_options_exit_2_with_a_message_and_nothing_on_stdout(server_home, tmp_path):
    missing = run_server(server_home, "--root", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "no such folder" in missing.stderr and missing.stdout == ""
    (server_home / "config" / "config.toml").write_text("[limits]\nmaxFileMb = -1\n", encoding="utf-8")
    bad_config = run_server(server_home)
    assert bad_config.returncode == 2 and "maxFileMb" in bad_config.stderr and bad_config.stdout == ""


def test_stdout_carries_only_protocol_messages(server_home, repairable_pdf, garbled_pdf):
    """Raw JSON-RPC over the pipe: damaged files make MuPDF complain, and none of it may reach stdout."""
    from mcp.types.version import LATEST_HANDSHAKE_VERSION

    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
                    "clientInfo": {"name": "raw-test", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "pdf_extract_text", "arguments": {"path": str(repairable_pdf)}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "pdf_info", "arguments": {"path": str(garbled_pdf)}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "pdf_info", "arguments": {}}},
    ]
    proc = subprocess.Popen([sys.executable, "-m", "pdfdesk", "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **server_env(server_home)})
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        proc.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
        proc.stdin.flush()
        replies = []
        while len(replies) < 4:  # stdin stays open until every answer is in: EOF cancels what is in flight
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            replies.append(json.loads(line))  # every line is JSON
        proc.stdin.close()
        rest, stderr = proc.stdout.read(), proc.stderr.read()
        assert proc.wait() == 0, stderr
    finally:
        watchdog.cancel()
        proc.stdout.close()
        proc.stderr.close()
    assert rest == ""
    by_id = {reply["id"]: reply for reply in replies}
    assert set(by_id) == {1, 2, 3, 4} and all(reply["jsonrpc"] == "2.0" for reply in replies)
    assert all("error" not in by_id[n] for n in (2, 3, 4))  # tool failures are results, not protocol errors
    assert by_id[2]["result"]["structuredContent"].get("repaired") is True
    assert by_id[4]["result"]["isError"] is True
    assert by_id[4]["result"]["structuredContent"]["error"] == "validation_error"
    assert "serving on stdio" in stderr and "Traceback" not in stderr


async def test_pdf_asks_the_configured_model_over_mcp(server_home, tmp_path):
    if get_tool("pdf") is None:
        pytest.skip("the pdf analyze tool is not registered in this tree")
    from tests.agent.fake_servers import FakeOpenAI, Turn

    pdf = contract_pdf(tmp_path / "contract.pdf")
    with FakeOpenAI(Turn(text="The seat of arbitration is Geneva [p. 3].")) as provider:
        (server_home / "config" / "config.toml").write_text(
            f'[search]\nsemantic = false\n[models]\npdfModel = "lab/qwen2.5-7b"\n'
            f'[providers.lab]\nbaseUrl = "{provider.url}"\n', encoding="utf-8")
        async with mcp_session(server_home) as session:
            assert "pdf" in [tool.name for tool in (await session.list_tools()).tools]
            result = await call_ok(session, "pdf", {"pdf": str(pdf), "prompt": "Where is the seat?"})
    assert "Geneva [p. 3]" in texts(result)
    details = result.structured_content
    assert details["model"] == "lab/qwen2.5-7b" and details["native"] is False
    sent = json.dumps(provider.bodies[0])
    assert "Where is the seat?" in sent and "seat of arbitration is Geneva" in sent  # the page text went along


async def test_auto_turns_hybrid_once_the_servers_owner_has_built_the_vectors(server_home, tmp_path):
    import anyio

    pdf = contract_pdf(tmp_path / "contract.pdf")
    (server_home / "config" / "config.toml").write_text("[search]\nsemantic = true\n", encoding="utf-8")
    async with mcp_session(server_home) as session:  # the built-in model: nothing is downloaded
        first = await call_ok(session, "pdf_search", {"path": str(pdf), "query": "arbitration"})
        assert first.structured_content["mode_used"] == "keyword"  # nothing indexed yet: answered at once
        assert first.structured_content["mode_requested"] == "auto" and first.structured_content["mode_reason"]
        with anyio.fail_after(90):  # the server's indexing owner builds both stages meanwhile
            while (found := await call_ok(session, "pdf_search", {"path": str(pdf), "query": "arbitration"})
                   ).structured_content["mode_used"] != "hybrid":
                await anyio.sleep(0.2)
    details = found.structured_content
    assert details["matches"][0]["page"] == 3 and details["matches"][0]["found_by"] == "both"
    assert "mode_reason" not in details
    assert_clean_log(server_home)
