"""The review tools over MCP: listing works for every client; adding, changing and exporting only
when the server was started with --allow-annotate; the tool hints say which; annotation text
reaches the client fenced and inert."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdfdesk import mcp_server
from pdfdesk.core.config import Config
from pdfdesk.tools import all_tools, get_tool
from tests.hardening.hostile import (
    ATTACK,
    assert_text_keeps_outside_strings_as_data,
    assert_value_is_inert,
)
from tests.mcp.client import call_error, call_ok, mcp_session, server_log, texts
from tests.tools.review_support import INJECTION, annotated_pdf, contract_pdf

pytestmark = pytest.mark.anyio


def _hints(config: Config) -> dict[str, tuple[bool, bool, bool]]:
    tools = {name: mcp_server.mcp_tool(get_tool(name), config)
             for name in ("pdf_info", "pdf_annotate", "pdf_export_review")}
    return {name: (t.annotations.read_only_hint, t.annotations.destructive_hint, t.annotations.idempotent_hint)
            for name, t in tools.items()}


def test_the_hints_say_the_review_tools_write_only_when_allowed():
    assert _hints(Config(annotate_writes=False)) == dict.fromkeys(("pdf_info", "pdf_annotate", "pdf_export_review"),
                                                                  (True, False, True))
    allowed = _hints(Config(annotate_writes=True))
    assert allowed["pdf_info"] == (True, False, True)
    assert allowed["pdf_annotate"] == (False, True, False)  # each add makes a new note
    assert allowed["pdf_export_review"] == (False, True, True)  # may replace a file when asked
    instructions = mcp_server.instructions(all_tools())
    assert "Annotation text" in instructions and "untrusted" in instructions
    assert "--allow-annotate" in instructions


async def test_by_default_clients_list_but_cannot_write(server_home, tmp_path):
    pdf = annotated_pdf(tmp_path / "annotated.pdf")
    async with mcp_session(server_home) as session:
        names = [tool.name for tool in (await session.list_tools()).tools]
        assert names[-2:] == ["pdf_annotate", "pdf_export_review"]
        listed = await call_ok(session, "pdf_annotate", {"action": "list", "path": str(pdf)})
        assert listed.structured_content["file_annotations"] == 2
        for name, args in (("pdf_annotate", {"action": "add", "path": str(pdf), "page": 1, "note": "x"}),
                           ("pdf_annotate", {"action": "delete", "id": "a-1"}),
                           ("pdf_export_review", {"path": str(pdf), "format": "markdown"})):
            refused = await call_error(session, name, args, "permission_denied")
            assert "pdfdesk mcp --allow-annotate" in refused.structured_content["hint"]
    assert not (server_home / "reviews").exists() or not any((server_home / "reviews").iterdir())
    assert "review notes: read-only" in server_log(server_home)


async def test_with_the_flag_clients_add_list_and_export(server_home, tmp_path):
    pdf = contract_pdf(tmp_path / "contract.pdf")
    async with mcp_session(server_home, "--allow-annotate") as session:
        added = await call_ok(session, "pdf_annotate", {"action": "add", "path": str(pdf), "page": 3,
                                                        "quote": "arbitration in Geneva", "note": "Seat agreed?"})
        ident = added.structured_content["annotation"]["id"]
        listed = await call_ok(session, "pdf_annotate", {"action": "list", "path": str(pdf)})
        assert [a["id"] for a in listed.structured_content["annotations"]] == [ident]
        output = tmp_path / "review.html"
        await call_ok(session, "pdf_export_review", {"path": str(pdf), "format": "html", "output": str(output)})
        await call_ok(session, "pdf_annotate", {"action": "delete", "id": ident})
    assert "Seat agreed?" in output.read_text(encoding="utf-8")
    assert "review notes: read and write" in server_log(server_home)


async def test_hostile_annotation_text_reaches_the_client_fenced(server_home, tmp_path):
    pdf = annotated_pdf(tmp_path / "annotated.pdf", hostile=True)
    async with mcp_session(server_home, "--allow-annotate") as session:
        await call_ok(session, "pdf_annotate", {"action": "add", "path": str(pdf), "page": 1, "note": f"mine{ATTACK}"})
        for args in ({"action": "list", "path": str(pdf)}, {"action": "list"}):
            result = await call_ok(session, "pdf_annotate", args)
            assert_text_keeps_outside_strings_as_data(texts(result))
            assert_value_is_inert(result.structured_content)
            assert result.structured_content["untrusted_content"] is True
    text = texts(result)
    assert "mine\\n" in text and "<<<END_PDF_CONTENT 0badc0de" not in text


async def test_in_process_the_file_annotation_injection_stays_inside_the_fence(tmp_path: Path):
    from mcp import Client

    pdf = annotated_pdf(tmp_path / "annotated.pdf")
    async with Client(mcp_server.build_server(), mode="legacy") as client:
        result = await client.call_tool("pdf_annotate", {"action": "list", "path": str(pdf)})
    assert not result.is_error
    text = texts(result)
    before, _, rest = text.partition("<<<PDF_CONTENT")
    assert INJECTION not in before and INJECTION in rest.split("<<<END_PDF_CONTENT")[0]
