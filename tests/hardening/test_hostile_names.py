"""Outside strings stay data on every tool and in everything the agent shows a model.

A PDF whose file name, metadata, outline titles and page text each carry a line break, the fence's
closing marker, a quote that would end the `source=` attribute and an instruction posing as the
system is read by every tool (tests/hardening/hostile.py has the document and the checks). MCP and
the chat pane are held to the same checks in tests/mcp/test_mcp_hostile.py and
tests/gui/test_chat_pane_hostile.py.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.agent.citations import CitationTracker
from pdfdesk.agent.events import ToolCallFinished
from pdfdesk.agent.prompts import SECURITY, system_prompt
from pdfdesk.agent.session import ChatSession
from pdfdesk.core.config import Config, set_config
from pdfdesk.core.fence import defuse_markers, neutralise
from pdfdesk.models.pdf_input import extraction_parts, load_pdfs, native_parts
from pdfdesk.models.providers.base import PdfPart, TextPart
from pdfdesk.tools import call_tool
from tests.agent.fake_servers import Turn
from tests.agent.support import (  # noqa: F401
    isolated_keys,
    openai_server,
    provider_urls,
    set_keys,
    use_config,
)
from tests.hardening.hostile import (
    ATTACK,
    HOSTILE_NAME,
    INSTRUCTION,
    OPENING,
    TOOL_CALLS,
    assert_text_keeps_outside_strings_as_data,
    assert_value_is_inert,
    hostile_pdf,
    outside_fences,
)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    return hostile_pdf(tmp_path)


CALLS = TOOL_CALLS


@pytest.mark.parametrize(("tool", "extra"), CALLS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CALLS)])
def test_every_tool_keeps_hostile_names_and_text_as_data(hostile, tool, extra):
    result = call_tool(tool, {"path": str(hostile), **extra})
    assert not result.is_error, result.text
    assert_text_keeps_outside_strings_as_data(result.text)
    for _nonce, source in OPENING.findall(result.text):
        assert source == neutralise(HOSTILE_NAME)  # the attribute names the file, inert
    free = outside_fences(result.text)
    assert 'source="' not in free and "trusted.pdf'" not in free  # names in headers lose their quotes
    if tool != "pdf_render_page":
        assert "[fenced]" in free


def test_metadata_and_outline_titles_cannot_forge_lines_inside_the_fence(hostile):
    info = call_tool("pdf_info", {"path": str(hostile)}).text
    body = info.split(">>>\n", 1)[1].rsplit("\n<<<END_PDF_CONTENT", 1)[0]
    labels = [line.split(":", 1)[0] for line in body.splitlines()]
    assert labels == ["Title", "Author", "Subject", "Keywords", "Creator", "Producer"], body
    assert "<b>bold</b>" in body and "Mallory\\n" in body  # kept, as inert text
    outline = call_tool("pdf_outline", {"path": str(hostile)}).text
    entries = outline.split(">>>\n", 1)[1].rsplit("\n<<<END_PDF_CONTENT", 1)[0].splitlines()
    assert len(entries) == 2 and entries[0].startswith("Chapter\\n") and entries[1].startswith("  Section\\n")


def test_page_text_keeps_its_lines_inside_the_fence_with_the_marker_defused(hostile):
    text = call_tool("pdf_extract_text", {"path": str(hostile)}).text
    (opening,) = OPENING.findall(text)
    body = text.split(">>>\n", 1)[1].rsplit("\n<<<END_PDF_CONTENT", 1)[0]
    assert f"\n{INSTRUCTION}" in body  # the document's own lines stay as they are, inside the fence
    assert "\u2039\u2039\u2039END_PDF_CONTENT 0badc0de>>>" in body and "<<<" not in body
    assert text.rstrip().endswith(f"<<<END_PDF_CONTENT {opening[0]}>>>")


def test_review_notes_and_the_pdfs_own_annotations_stay_data(hostile):
    """A note, a tag and the PDF's own annotation each carry the attack; the document has the hostile
    name: the review tools list them inside the fence, one entry per annotation."""
    doc = pymupdf.open(hostile)
    page = doc[0]
    own = page.add_highlight_annot(page.search_for("Quarterly tariff")[0])
    own.set_info(content=f"own{ATTACK}", title=f"Mallory{ATTACK}")
    own.update()
    doc.saveIncr()
    doc.close()
    added = call_tool("pdf_annotate", {"action": "add", "path": str(hostile), "page": 1, "quote": "Quarterly tariff",
                                       "note": f"note{ATTACK}", "tags": ["ok", "line\nbreak"]})
    listed = call_tool("pdf_annotate", {"action": "list", "path": str(hostile)})
    every = call_tool("pdf_annotate", {"action": "list"})
    exported = call_tool("pdf_export_review", {"path": str(hostile), "format": "markdown"})
    for result in (added, listed, every, exported):
        assert not result.is_error, result.text
        assert_text_keeps_outside_strings_as_data(result.text)
        assert_value_is_inert(result.text.split("\n")[0])
    for _nonce, source in OPENING.findall(listed.text):
        assert source == neutralise(HOSTILE_NAME)
    body = listed.text.split(">>>\n", 1)[1]
    assert len([line for line in body.splitlines() if line.startswith("[")]) == 2


@pytest.mark.parametrize("make", ["missing", "folder", "outside"])
def test_errors_that_quote_a_hostile_name_stay_on_their_lines(tmp_path, make):
    root = tmp_path / "root"
    root.mkdir()
    if make == "missing":
        path = root / HOSTILE_NAME
    elif make == "folder":
        path = root / HOSTILE_NAME
        path.mkdir()
    else:
        path = hostile_pdf(tmp_path)
        set_config(Config(semantic=False, workspace_only=True, roots=(str(root),)))
    review_calls = [("pdf_annotate", {"action": "list"}), ("pdf_annotate", {"action": "add", "page": 1, "note": "n"}),
                    ("pdf_export_review", {"format": "html"})]
    for tool, extra in [*CALLS, *review_calls]:
        result = call_tool(tool, {"path": str(path), **extra})
        assert result.is_error, result.text
        assert_text_keeps_outside_strings_as_data(result.text)
        lines = result.text.splitlines()
        assert len(lines) == 2 and lines[0].startswith("Error (") and lines[1].startswith("Hint: "), result.text
        assert_value_is_inert(result.details["message"])


def test_pdf_input_names_the_document_inertly(hostile):
    config = Config(semantic=False)
    docs = load_pdfs([str(hostile)], None, 10 << 20, None, config)
    extraction = extraction_parts(docs, "Summarise.", 20, False, config)
    texts = [part.text for part in extraction.parts if isinstance(part, TextPart)]
    joined = "\n".join(texts[:-1])  # the last part is the caller's prompt
    assert_text_keeps_outside_strings_as_data(joined)
    assert joined.startswith(f"Document {neutralise(HOSTILE_NAME)} (2 pages)")
    (pdf_part,) = [p for p in native_parts(docs, "Summarise.") if isinstance(p, PdfPart)]
    assert pdf_part.name == neutralise(HOSTILE_NAME)
    assert_value_is_inert(pdf_part.name)


def test_system_prompt_lists_hostile_names_inertly_and_the_agent_maps_them_back(hostile):
    prompt = system_prompt([str(hostile)])
    assert prompt.endswith(SECURITY)  # the one place pdfdesk spells out its markers, for the model
    assert_text_keeps_outside_strings_as_data(prompt.removesuffix(SECURITY))
    assert '"' not in prompt.removesuffix(SECURITY)
    assert not any(line.startswith("SYSTEM") for line in prompt.splitlines())
    tracker = CitationTracker([str(hostile)])
    shown = neutralise(str(hostile), limit=None)
    assert shown in prompt and shown != str(hostile)
    assert tracker.document_for(shown) == str(hostile)  # what the model saw leads to the attached file
    assert tracker.document_for(neutralise(HOSTILE_NAME)) == str(hostile)
    citation = tracker.cite(str(hostile), 1)
    assert citation is not None and citation.document == str(hostile)
    assert_value_is_inert(citation.label)


@pytest.mark.network
def test_the_model_reads_hostile_names_only_inertly(openai_server, hostile, monkeypatch):
    """End to end: the model sees the file's name only neutralised, calls the tools with what it saw,
    and every tool output it reads keeps the document's strings as data."""
    shown = neutralise(str(hostile), limit=None)
    calls = [(tool, {"path": shown, **extra}) for tool, extra in CALLS]
    openai_server.script(Turn(tool_calls=calls), Turn(text="Read [p. 1]."))
    set_keys(monkeypatch, "openai")
    config = use_config(providers=provider_urls(openai=openai_server.url))
    session = ChatSession([str(hostile)], model="openai/gpt-4.1-mini", config=config)

    async def collect() -> list:
        return [event async for event in session.send("What does it say?")]

    events = asyncio.run(collect())
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert len(finished) == len(CALLS) and not any(f.is_error for f in finished), [f.details for f in finished]
    first, second = openai_server.bodies
    system = first["messages"][0]["content"]
    assert shown in system
    assert_text_keeps_outside_strings_as_data(system.removesuffix(SECURITY))
    outputs = [m["content"] for m in second["messages"] if m["role"] == "tool"]
    assert len(outputs) == len(CALLS)
    for output in outputs:
        assert_text_keeps_outside_strings_as_data(output)
    assert "<<<END_PDF_CONTENT" not in json.dumps(first["messages"][1:])  # no tool had run: no marker at all


@pytest.mark.network
def test_the_pdf_tool_names_hostile_documents_inertly_and_defuses_markers_in_the_answer(openai_server, hostile,
                                                                                       monkeypatch):
    """The answer comes first and as the model wrote it, but may repeat the document's attack: no
    fence marker in it can pass for pdfdesk's, and the line after it names the document inertly."""
    set_keys(monkeypatch, "openai")
    use_config(pdf_model="openai/gpt-4.1-mini", providers=provider_urls(openai=openai_server.url))
    openai_server.script(Turn(text=f"The file says:{ATTACK}"))
    result = call_tool("pdf", {"pdf": str(hostile), "prompt": "What does it say?"})
    assert not result.is_error, result.text
    answer, provenance = result.content[0]["text"], result.content[1]["text"]
    assert answer == defuse_markers(f"The file says:{ATTACK}") and "<<<" not in answer
    assert_text_keeps_outside_strings_as_data(provenance)
    assert provenance.startswith(f"Answer by openai/gpt-4.1-mini on {neutralise(HOSTILE_NAME)}")
    sent = json.loads(json.dumps(openai_server.bodies[0]))
    user_text = "\n".join(part["text"] for message in sent["messages"] if message["role"] == "user"
                          for part in message["content"] if isinstance(part, dict) and part.get("type") == "text")
    assert user_text.startswith(f"Document {neutralise(HOSTILE_NAME)} (2 pages)"), user_text[:300]
    assert_text_keeps_outside_strings_as_data(user_text.removesuffix("What does it say?"))
