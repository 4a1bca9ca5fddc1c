"""Encrypted attachments: the session adds the password the user unlocked the document with to the
agent's tool calls on that document; the model never sees it."""

from __future__ import annotations

import asyncio
import json

from pdfdesk.agent.events import Done, ToolCallFinished, ToolCallStarted
from pdfdesk.agent.session import ChatSession
from tests.agent.support import use_config


def turn(session: ChatSession, question: str) -> list:
    async def collect() -> list:
        return [event async for event in session.send(question)]

    return asyncio.run(collect())


def test_an_unlocked_attachment_is_read_with_its_password(aes_pdf):
    locked = ChatSession([str(aes_pdf)], config=use_config())
    events = turn(locked, "What is on page 1?")
    errors = [e.details.get("error") for e in events if isinstance(e, ToolCallFinished) and e.is_error]
    assert "password_required" in errors and "marmalade" not in events[-1].text

    session = ChatSession([str(aes_pdf)], config=use_config())
    session.passwords[str(aes_pdf)] = "user-secret"
    events = turn(session, "What is on page 1?")
    done = events[-1]
    assert isinstance(done, Done) and "marmalade" in done.text
    assert [c.page for c in done.citations] == [1]
    shown = json.dumps([e.arguments for e in events if isinstance(e, ToolCallStarted)] +
                       [e.details for e in events if isinstance(e, ToolCallFinished)])
    assert "user-secret" not in shown and "user-secret" not in done.text


def test_a_password_is_added_only_for_its_own_document(aes_pdf, text_pdf):
    seen: list[dict] = []

    def runner(name: str, args: dict):
        from pdfdesk.tools import call_tool

        seen.append(dict(args))
        return call_tool(name, args)

    session = ChatSession([str(text_pdf), str(aes_pdf)], config=use_config(), tool_runner=runner)
    session.passwords[str(aes_pdf)] = "user-secret"
    turn(session, "summarize")
    assert any(a.get("path") == str(aes_pdf) and a.get("password") == "user-secret" for a in seen)
    assert all("password" not in a for a in seen if a.get("path") == str(text_pdf))
