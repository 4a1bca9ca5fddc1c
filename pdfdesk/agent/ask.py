"""`pdfdesk ask "question" --pdf FILE` (or `--library`, `--in FOLDER`): one chat turn in a terminal,
streamed, with sources.

The answer goes to stdout as it arrives; tool calls and errors go to stderr, so
`pdfdesk ask ... > answer.txt` keeps only the answer and its list of sources.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from typing import TextIO

from pdfdesk.agent.events import (
    AgentError, CitationFound, DocumentList, Done, TextDelta, ToolCallFinished, ToolCallStarted,
)
from pdfdesk.agent.loop import describe_arguments
from pdfdesk.agent.scope import ATTACHED, FOLDER, LIBRARY, Scope, make_scope
from pdfdesk.agent.session import ChatSession
from pdfdesk.core.config import get_config
from pdfdesk.core.errors import PdfDeskError

EXIT_OK, EXIT_AGENT_ERROR, EXIT_USAGE = 0, 1, 2


def ask_scope(documents: Sequence[str], library: bool = False, folder: str | None = None) -> Scope:
    """The scope `pdfdesk ask` answers in: the --pdf files, with --library the whole library as well,
    with --in FOLDER the library's documents under it; a validation_error when that library scope
    holds no document."""
    kind = FOLDER if folder else LIBRARY if library else ATTACHED
    scope = make_scope(kind, documents, folder)
    if scope.library:
        scope.collection().require_documents()
    return scope


async def _ask(question: str, documents: Sequence[str], model: str | None, quiet: bool,
               out: TextIO, err: TextIO, scope: Scope | None = None) -> int:
    session = ChatSession(documents, model=model, config=get_config(), scope=scope)
    if not quiet:
        err.write(f"[{session.model_label}]" + (f" {session.current_scope().collection().describe()}"
                                                 if scope is not None and scope.library else "") + "\n")
    status = EXIT_OK
    done: Done | None = None
    listed: DocumentList | None = None
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
        elif isinstance(event, DocumentList):
            listed = event
        elif isinstance(event, Done):
            done = event
    if status == EXIT_OK and (done is None or not done.text.strip()):  # an empty answer is no answer
        status = EXIT_AGENT_ERROR
        err.write("pdfdesk: the model returned an empty answer\n")
    if done is not None:
        if done.text and not done.text.endswith("\n"):
            out.write("\n")
        if listed is not None:
            _write_rest_of(listed, out)
        if done.citations:
            out.write("\nSources:\n")
            for number, citation in enumerate(done.citations, 1):
                out.write(f"  [{number}] {citation.label} — {citation.document}#page={citation.page}\n")
        out.flush()
    return status


def _write_rest_of(listed: DocumentList, out: TextIO) -> None:
    """The documents of a "which documents" answer that its text left out: a terminal gets the
    whole list, which the chat shows in its Documents view."""
    from pdfdesk.agent.offline_collection import LISTED

    rest = listed.documents[LISTED:]
    if not rest:
        return
    out.write(f"\nThe other {len(rest)} documents:\n")
    for number, entry in enumerate(rest, LISTED + 1):
        pages = int(entry.get("pages_matching") or 1)
        best = ", ".join(str(p) for p in entry.get("best_pages") or [entry.get("page") or 1])
        out.write(f"{number}. {entry.get('file')} — {pages} page{'s' * (pages != 1)} (best: p. {best})\n")


def ask(question: str, documents: Sequence[str], model: str | None = None, quiet: bool = False,
        library: bool = False, folder: str | None = None) -> int:
    """Run one question to completion; 0 when answered, 1 when the model failed or said nothing,
    2 when the library (or the folder) in scope holds no document. Scanned attached documents
    are recognised first (with progress on stderr)."""
    from pdfdesk.index.cli_index import recognise_before_answering

    try:
        scope = ask_scope(documents, library, folder) if library or folder else None
    except PdfDeskError as exc:
        sys.stderr.write(f"pdfdesk ask: {exc.code}: {exc.message}\n" + (f"  hint: {exc.hint}\n" if exc.hint else ""))
        return EXIT_USAGE
    recognise_before_answering(documents)
    return asyncio.run(_ask(question, documents, model, quiet, sys.stdout, sys.stderr, scope))
