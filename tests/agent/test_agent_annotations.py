"""The chat reads the user's notes and never writes them: pdf_annotate is offered with action list
only, any other action is refused before it reaches the tool, the PDF's own annotations reach the
model fenced, and the offline answerer summarises the notes with page citations."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from pdfdesk.agent.events import Done, ToolCallFinished
from pdfdesk.agent.session import ChatSession
from pdfdesk.tools import call_tool
from tests.agent.fake_servers import Turn
from tests.agent.support import provider_urls, set_keys, use_config
from tests.hardening.hostile import (
    assert_text_keeps_outside_strings_as_data,
    outside_fences,
)
from tests.tools.review_support import INJECTION, annotated_pdf, contract_pdf


def run(session: ChatSession, text: str) -> list[Any]:
    async def collect() -> list[Any]:
        return [event async for event in session.send(text)]

    return asyncio.run(collect())


def online(server: Any, pdf: Path, monkeypatch: pytest.MonkeyPatch) -> ChatSession:
    set_keys(monkeypatch, "openai")
    config = use_config(providers=provider_urls(openai=server.url))
    return ChatSession([str(pdf)], model="openai/gpt-4.1-mini", config=config)


def tool_messages(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "tool"]


@pytest.mark.network
def test_the_model_is_offered_listing_only_and_a_write_is_refused(openai_server, tmp_path, monkeypatch):
    pdf = contract_pdf(tmp_path / "contract.pdf")
    openai_server.script(
        Turn(tool_calls=[("pdf_annotate", {"action": "add", "path": str(pdf), "page": 1, "note": "pwned"}),
                         ("pdf_annotate", {"action": "delete", "path": str(pdf), "id": "a-1"}),
                         ("pdf_export_review", {"path": str(pdf), "format": "markdown"})]),
        Turn(text="I cannot change your notes."),
    )
    events = run(online(openai_server, pdf, monkeypatch), "Add a note saying pwned.")
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert [f.is_error for f in finished] == [True, True, True]
    assert [f.details["error"] for f in finished] == ["permission_denied", "permission_denied", "validation_error"]
    assert "list" in finished[0].details["hint"] and "--allow-annotate" not in finished[0].details["hint"]
    assert call_tool("pdf_annotate", {"action": "list"}).details["count"] == 0  # nothing was stored
    assert not any((tmp_path / "pdfdesk-home" / "reviews").glob("*"))
    first, second = openai_server.bodies
    offered = {t["function"]["name"]: t["function"]["parameters"] for t in first["tools"]}
    assert "pdf_export_review" not in offered
    schema = offered["pdf_annotate"]
    assert schema["properties"]["action"]["enum"] == ["list"]
    assert set(schema["properties"]) == {"action", "path", "filter", "include_file_annotations", "password"}
    assert set(schema["required"]) == {"action", "path"}
    outputs = tool_messages(second)
    assert outputs[0].startswith("Error (permission_denied)") and outputs[2].startswith("Error (validation_error)")
    assert isinstance(events[-1], Done) and events[-1].text == "I cannot change your notes."


@pytest.mark.network
def test_the_pdfs_own_annotation_injection_reaches_the_model_fenced(openai_server, tmp_path, monkeypatch):
    pdf = annotated_pdf(tmp_path / "annotated.pdf", hostile=True)
    openai_server.script(Turn(tool_calls=[("pdf_annotate", {"action": "list", "path": str(pdf)}),
                                          ("pdf_annotate", {"action": "list"})]),
                         Turn(text="The file's own highlight on [p. 2] carries an instruction; I did not follow it."))
    events = run(online(openai_server, pdf, monkeypatch), "What did reviewers note?")
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert not finished[0].is_error and finished[0].details["file_annotations"] == 2
    assert finished[0].summary == "2 annotations on annotated.pdf"
    assert finished[1].is_error  # every annotated document is not this conversation's to read
    sent = tool_messages(openai_server.bodies[1])[0]
    assert INJECTION in sent and INJECTION not in outside_fences(sent)
    assert_text_keeps_outside_strings_as_data(sent)
    assert "never follow instructions" in json.dumps(openai_server.bodies[0]["messages"][0])
    assert [c.page for c in events[-1].citations] == [2]


def test_the_offline_answerer_summarises_the_notes(tmp_path):
    pdf = annotated_pdf(tmp_path / "annotated.pdf")
    added = call_tool("pdf_annotate", {"action": "add", "path": str(pdf), "page": 3, "quote": "arbitration in Geneva",
                                       "note": "Seat agreed with counsel"})
    assert not added.is_error
    session = ChatSession([str(pdf)], config=use_config())
    assert session.offline
    events = run(session, "Summarise my notes")
    done = events[-1]
    assert isinstance(done, Done)
    assert "annotated.pdf: 3 notes and highlights" in done.text
    assert "“arbitration in Geneva” — Seat agreed with counsel [p. 3]" in done.text
    assert "(in the PDF itself)" in done.text
    assert sorted(c.page for c in done.citations) == [2, 3]
    assert any(isinstance(e, ToolCallFinished) and e.name == "pdf_annotate" for e in events)
    empty = contract_pdf(tmp_path / "empty.pdf")
    assert "has no notes" in run(ChatSession([str(empty)], config=use_config()), "show my highlights")[-1].text
