"""`pdfdesk ask "question" --pdf FILE`: one chat turn in a terminal, streamed, with sources.

The answer goes to stdout as it arrives; tool calls and errors go to stderr, so
`pdfdesk ask ... > answer.txt` keeps only the answer and its list of sources.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from typing import TextIO

from pdfdesk.agent.events import AgentError, CitationFound, Done, TextDelta, ToolCallFinished, ToolCallStarted
from pdfdesk.agent.loop import describe_arguments
from pdfdesk.agent.session import ChatSession
from pdfdesk.core.config import get_config

EXIT_OK, EXIT_AGENT_ERROR = 0, 1


async def _ask(question: str, documents: Sequence[str], model: str | None, quiet: bool,
               out: TextIO, err: TextIO) -> int:
    session = ChatSession(documents, model=model, config=get_config())
    if not quiet:
        err.write(f"[{session.model_label}]\n")
    status = EXIT_OK
    done: Done | None = None
    async for event in session.send(question):
        if isinstance(event, TextDelta):
            out.write(event.text)
            out.flush()
        elif isinstance(event, ToolCallStarted) and not quiet:
            err.write(f"  → {event.name}({describe_arguments(event.arguments)})\n")
        elif isinstance(event, ToolCallFinished) and not quiet:
            err.write(f"  {'✗' if event.is_error else '✓'} {event.summary}\n")
        elif isinstance(event, AgentError):
            status = EXIT_AGENT_ERROR
            err.write(f"pdfdesk: {event.message}" + (f"\n  hint: {event.hint}" if event.hint else "") + "\n")
        elif isinstance(event, CitationFound):
            pass  # listed once, in order, under Sources
        elif isinstance(event, Done):
            done = event
    if status == EXIT_OK and (done is None or not done.text.strip()):  # an empty answer is no answer
        status = EXIT_AGENT_ERROR
        err.write("pdfdesk: the model returned an empty answer\n")
    if done is not None:
        if done.text and not done.text.endswith("\n"):
            out.write("\n")
        if done.citations:
            out.write("\nSources:\n")
            for number, citation in enumerate(done.citations, 1):
                out.write(f"  [{number}] {citation.label} — {citation.document}#page={citation.page}\n")
        out.flush()
    return status


def ask(question: str, documents: Sequence[str], model: str | None = None, quiet: bool = False) -> int:
    """Run one question to completion; 0 when answered, 1 when the model failed or said nothing.
    Scanned documents are recognised first (with progress on stderr)."""
    from pdfdesk.index.cli_index import recognise_before_answering

    recognise_before_answering(documents)
    return asyncio.run(_ask(question, documents, model, quiet, sys.stdout, sys.stderr))
