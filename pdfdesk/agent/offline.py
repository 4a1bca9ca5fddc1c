"""The offline answerer: with no model set up, the chat still answers, extractively.

It searches the attached documents with `pdf_search` (hybrid when an embedding model is present)
and quotes the best passages with page citations; it also handles "summarize", "what is on page
N", "find X" and "summarise my notes" (the user's annotations, from `pdf_annotate` list). Over
several documents or the library it ranks passages across documents and lists every document for
"which documents …" questions (`offline_collection`).

Everything taken from a document (passages, titles, the PDF's own notes, pinned answers) is put in
“quotation marks”, its own curly double quotes turned into ‘single’ ones, so the citation parser
reads all of it as quoted text: a page reference written in the document is shown, never linked
or recorded as a citation.
How to set up a model is said once per conversation, by the front end (the chat pane's banner) or,
without one, in the first answer (`advise=True`), not repeated in every answer.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from pdfdesk.agent.citations import CitationTracker
from pdfdesk.agent.events import AgentEvent, CitationFound, TextDelta, ToolCallFinished, ToolCallStarted
from pdfdesk.agent.loop import ToolRunner, TurnState, summarize_result
from pdfdesk.agent.offline_collection import (
    COLLECTION_PASSAGES, Ranked, documents_question, library_hits, list_documents, outside_library, rank_passages,
)
from pdfdesk.agent.prompts import display_name
from pdfdesk.agent.scope import Scope
from pdfdesk.agent.table_lookup import CellAnswer, find_cells
from pdfdesk.core.config import Config, config_path
from pdfdesk.core.pages import format_page_set
from pdfdesk.tools import ToolResult, call_tool

OFFLINE_LABEL = "offline answerer"
SUMMARY_PAGES = 30           # pages read for a summary
SUMMARY_SENTENCES = 6
PASSAGES = 3                 # passages quoted for a question
EXCERPT_CHARS = 360

_STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below between both but
by can could did do does doing down during each few for from further had has have having he her here hers him his
how i if in into is it its itself just me more most my no nor not now of off on once only or other our out over own
please same she should so some such tell than that the their them then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you your yours document
documents pdf file say says said mention mentions show give list explain describe find does do
""".split())
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])")
_PAGE = re.compile(r"\bpages?\s+(\d{1,6})\b", re.IGNORECASE)
_PAGE_INTENT = re.compile(r"\b(what(?:'s| is| does it say)?\s+(?:on|in)|show|read|summari[sz]e|text of|contents? of|"
                          r"look at|open|go to)\b", re.IGNORECASE)
_SUMMARY = re.compile(r"\b(summari[sz]e|summary|overview|outline|tl;?dr|gist|main points|what(?:'s| is) (?:this|it|"
                      r"the \w+) about)\b", re.IGNORECASE)
_NOTES = re.compile(r"\b(?:my|our|the|all|review)\s+(?:own\s+)?(?:notes|annotations|highlights|comments)\b",
                    re.IGNORECASE)
NOTES_LISTED = 30            # per document
TABLE_PAGES = 12             # pages of one document read for tables when a question may name a cell
TABLE_DOCUMENTS = 2          # documents read for tables, of those a question's passages come from
_FIND = re.compile(r"^\s*(?:please\s+)?(?:find|search(?:\s+for)?|look\s+for|locate|where\s+(?:is|are|does\s+it\s+"
                   r"(?:say|mention|talk\s+about|discuss)|do(?:es)?\s+(?:they|it)\s+(?:mention|say|discuss))|"
                   r"which\s+pages?\s+(?:mentions?|says?|discuss(?:es)?|contains?))\s+(?P<what>.+?)\s*[?.!]*\s*$",
                   re.IGNORECASE | re.DOTALL)


def setup_note(config_file: str) -> str:
    """How to get written answers: the Settings dialog, the config file, or a local server."""
    return (
        "No language model is set up, so this is an extractive answer: passages quoted from the documents, "
        "not a written reply. To get written answers with citations, choose a model in Settings → Models and "
        "add its API key there, or put `agent = \"openai/gpt-4.1-mini\"` under `[models]` in "
        f"{config_file} and set OPENAI_API_KEY (ANTHROPIC_API_KEY or GEMINI_API_KEY work the same way). "
        "A local server needs no key: `agent = \"ollama/llama3.2\"`."
    )


def content_words(text: str) -> list[str]:
    """The words of a question worth searching for, in order, without repeats."""
    words = [w.lower() for w in _WORD.findall(text)]
    return list(dict.fromkeys(w for w in words if w not in _STOPWORDS and (len(w) > 1 or w.isdigit())))


_INNER_QUOTES = str.maketrans({"“": "‘", "”": "’"})


def quoted(text: str) -> str:
    """Document text on one line as a quotation the citation parser cannot leave early: only a
    closing ” ends it, so the text's own curly double quotes become single ones (the usual way to
    nest quotations)."""
    return f"“{' '.join(text.split()).translate(_INNER_QUOTES)}”"


def _squash(text: str, limit: int = EXCERPT_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    return cut[: cut.rfind(" ")] + " …" if " " in cut else cut + "…"


def sentences(text: str) -> list[str]:
    flat = " ".join(text.split())
    return [s.strip() for s in _SENTENCE.split(flat) if len(s.strip()) >= 25]


@dataclass
class _Intent:
    kind: str                 # summary, page, find, question
    subject: str = ""
    page: int = 0


def classify(text: str) -> _Intent:
    """What the user asks for: their notes, a summary, one page, a search, or a question."""
    if _NOTES.search(text):
        return _Intent("notes")
    page = _PAGE.search(text)
    if page and (_PAGE_INTENT.search(text) or len(content_words(text)) <= 2):
        return _Intent("page", page=int(page.group(1)))
    found = _FIND.match(text)
    if found:
        return _Intent("find", subject=found.group("what").strip(" \"'“”‘’"))
    if _SUMMARY.search(text):
        return _Intent("summary")
    return _Intent("question", subject=text)


class OfflineAnswerer:
    """Extractive answers over the attached documents (and the library, when the scope holds it),
    streamed as agent events."""

    def __init__(self, documents: Sequence[str], config: Config, tool_runner: ToolRunner = call_tool,
                 scope: Scope | None = None) -> None:
        self.documents = list(documents)
        self.tool_runner = tool_runner
        self.config = config
        self.library = scope is not None and scope.library
        self.collection = scope.with_documents(self.documents).collection() if scope and self.library else None
        self.tracker = CitationTracker(self.documents, self.collection.admit if self.collection else None)
        self._calls = 0

    def library_args(self) -> dict[str, Any]:
        """pdf_search's arguments for the library in scope: all of it, or the documents under a folder."""
        if self.collection is not None and self.collection.scope.folder:
            return {"library": True, "within": self.collection.fingerprints}
        return {"library": True}

    def _cite(self, document: str, page: int) -> str:
        alone = len(self.documents) == 1 and not self.library
        return f"[p. {page}]" if alone else f"[{display_name(document)} p. {page}]"

    async def tool(self, name: str, args: dict[str, Any], events: list[AgentEvent]) -> ToolResult:
        self._calls += 1
        call_id = f"offline-{self._calls}"
        # as the loop shows a call: without the scope's own `within` (a folder's fingerprints)
        events.append(ToolCallStarted(call_id, name, {k: v for k, v in args.items() if k != "within"}))
        result = await asyncio.to_thread(self.tool_runner, name, args)
        if not result.is_error:
            self.tracker.record(name, args, result.details)
        events.append(ToolCallFinished(call_id, name, result.is_error, summarize_result(name, result),
                                       dict(result.details), tuple(i["data"] for i in result.images)))
        return result

    async def answer(self, text: str, state: TurnState, advise: bool = False) -> AsyncIterator[AgentEvent]:
        """Answer `text`; with `advise`, end with how to set up a model (where no banner says it)."""
        events: list[AgentEvent] = []
        intent = classify(text)
        several = self.library or len(self.documents) > 1  # "which documents" of one document asks for passages
        terms = documents_question(text) if several and intent.kind not in ("page", "notes") else None
        if terms:
            body = await list_documents(self, terms, events)
        elif self.library and not self.documents and intent.kind in ("summary", "page", "notes"):
            body = ("That needs one document: attach or open it (the library is searched for questions, "
                    "“find …” and “which documents …”).")
        elif not self.documents and not self.library:
            body = ("There is no document to answer from yet: attach a PDF (drag it into the window or open it) "
                    "and ask again.")
        else:
            handler = {"summary": self._summary, "page": self._page, "find": self._find, "question": self._question,
                       "notes": self._notes}
            body = await handler[intent.kind](intent, events)
        for event in events:
            yield event
        if advise:
            body += "\n\n" + setup_note(str(config_path()))
        for line in body.splitlines(keepends=True):
            state.text.append(line)
            yield TextDelta(line)
            for citation in self.tracker.feed(line):
                state.citations.append(citation)
                yield CitationFound(citation)

    # -- intents -------------------------------------------------------------------------------
    def _error_line(self, document: str, result: ToolResult) -> str:
        return f"{display_name(document)}: {result.details.get('message', 'could not be read')}"

    async def _search(self, query: str, events: list[AgentEvent], limit: int) -> tuple[list[Ranked], list[str]]:
        """Matches from every document (the library's, and each attached document's), best first per document."""
        per_doc, problems = await library_hits(self, query, events, limit) if self.library else ([], [])
        for document in outside_library(self):
            result = await self.tool("pdf_search", {"path": document, "query": query, "max_results": limit,
                                                    "mode": "auto"}, events)
            if result.is_error:
                problems.append(self._error_line(document, result))
                continue
            per_doc.append([(document, m) for m in result.details.get("matches", [])])
        return per_doc, problems

    def _passages(self, matches: Ranked) -> list[str]:
        return [f"{n}. {quoted(_squash(match.get('excerpt') or ''))} {self._cite(document, match['page'])}"
                for n, (document, match) in enumerate(matches, 1)]

    async def _find(self, intent: _Intent, events: list[AgentEvent]) -> str:
        words = " ".join(content_words(intent.subject)) or intent.subject
        query = f'"{intent.subject}"' if len(intent.subject.split()) > 1 and '"' not in intent.subject else words
        groups, problems = await self._search(query, events, 10)
        if not any(groups) and query != words:
            groups, problems = await self._search(words, events, 10)
        if not any(groups):
            where = "the library" if self.library else "the attached documents"
            return "\n".join([f"{quoted(intent.subject)} does not appear in {where}.", *problems])
        pages = {(d, m["page"]) for group in groups for d, m in group}
        head = f"{quoted(intent.subject)} appears on {len(pages)} page{'s' * (len(pages) != 1)}; the best matches:"
        return "\n".join([head, *self._passages(rank_passages(groups, 10, cap=None)), *problems])

    async def _question(self, intent: _Intent, events: list[AgentEvent]) -> str:
        words = content_words(intent.subject)
        if not words:
            return "Ask about something in the documents, e.g. “find payment terms” or “summarize”."
        # pdf_search itself falls back on pages holding some of the words when none holds all
        several = self.library or len(self.documents) > 1
        count = COLLECTION_PASSAGES if several else PASSAGES
        groups, problems = await self._search(" ".join(words), events, count)
        if not any(groups):
            where = "the library" if self.library else "the attached documents"
            return "\n".join([f"Nothing in {where} matches that question.", *problems])
        chosen = rank_passages(groups, count)
        # tables are read on the hit pages (up to 5 each) of the first two documents quoted
        quoted_docs = list(dict.fromkeys(d for d, _ in chosen))[:TABLE_DOCUMENTS]
        cells = await self._table_cells(intent.subject, [hit for group in groups if group and group[0][0] in quoted_docs
                                                         for hit in group[:5]], events)
        if cells:
            return "\n".join([*self._cell_lines(cells), *problems])
        return "\n".join(["The passages that best match your question:", *self._passages(chosen), *problems])

    async def _table_cells(self, question: str, matches: list[tuple[str, dict[str, Any]]],
                           events: list[AgentEvent]) -> list[CellAnswer]:
        """The table cells the question names, in the tables on its search hits' pages. The page before
        each hit is read too, so a table continued onto a hit page keeps its headings; a table that
        does not reach a hit page is not used."""
        hits: dict[str, set[int]] = {}
        for document, match in matches:
            hits.setdefault(document, set()).add(int(match["page"]))
        tables: list[tuple[str, dict[str, Any]]] = []
        for document, pages in hits.items():
            wanted = sorted(pages | {page - 1 for page in pages if page > 1})[:TABLE_PAGES]
            result = await self.tool("pdf_tables", {"path": document, "pages": format_page_set(wanted),
                                                    "format": "json"}, events)
            if result.is_error:
                continue
            tables += [(document, record) for record in result.details.get("tables", [])
                       if pages & set(record.get("pages") or [record.get("page")])]
        return find_cells(question, tables)

    def _cell_lines(self, cells: list[CellAnswer]) -> list[str]:
        """Each cell quoted with its row and column headings and its cited page (highlighting the cell)."""
        pointed: set[tuple[str, int]] = set()
        lines = []
        alike = Counter(cell.row_label for cell in cells)
        for cell in cells:
            if (cell.document, cell.page) not in pointed and cell.rects:
                pointed.add((cell.document, cell.page))
                self.tracker.point_at(cell.document, cell.page, cell.value, cell.rects)
            value = quoted(cell.value) if cell.value.strip() else "an empty cell"
            where = f"on page {cell.page}" + (f" (the table begins on page {cell.table_page})"
                                              if cell.table_page != cell.page else "")
            row = quoted(cell.row_label)
            if alike[cell.row_label] > 1 and cell.row_cells:  # rows whose keys read the same: the whole row
                row += f" (the row reads {quoted(' | '.join(cell.row_cells))})"
            lines.append(f"{value} — row {row}, column {quoted(cell.column_label)}, in the table "
                         f"{where} {self._cite(cell.document, cell.page)}")
        if len(lines) == 1:
            return ["From the table: " + lines[0]]
        return [(f"{len(lines)} table cells match your question equally well, so it is ambiguous which one you "
                 "mean; each is quoted:"), *(f"{n}. {line}" for n, line in enumerate(lines, 1))]

    def _pick_document(self, page: int, totals: dict[str, int]) -> str | None:
        return next((d for d in self.documents if totals.get(d, 0) >= page), None)

    async def _page(self, intent: _Intent, events: list[AgentEvent]) -> str:
        totals: dict[str, int] = {}
        for name in self.documents:
            info = await self.tool("pdf_info", {"path": name}, events)
            if not info.is_error:
                totals[name] = int(info.details.get("pages_total") or info.details.get("pages") or 0)
        document = self._pick_document(intent.page, totals)
        if document is None:
            sizes = ", ".join(f"{display_name(d)} has {n} page{'s' * (n != 1)}" for d, n in totals.items())
            return f"There is no page {intent.page}" + (f": {sizes}." if sizes else ".")
        result = await self.tool("pdf_extract_text",
                                 {"path": document, "pages": str(intent.page), "max_chars": 20000}, events)
        if result.is_error:
            return self._error_line(document, result)
        page_text = _page_body(result.text)
        if not page_text.strip():
            return (f"Page {intent.page} of {display_name(document)} has no text layer (a scan or a picture) "
                    f"{self._cite(document, intent.page)}; look at it in the viewer.")
        lead = sentences(page_text)[:4]
        excerpt = " ".join(lead) if lead else _squash(page_text, 900)
        return (f"Page {intent.page} of {display_name(document)} begins: {quoted(_squash(excerpt, 900))} "
                f"{self._cite(document, intent.page)}")

    async def _notes(self, intent: _Intent, events: list[AgentEvent]) -> str:
        """The user's highlights and notes on each document, in page order, each cited."""
        parts: list[str] = []
        for document in self.documents:
            result = await self.tool("pdf_annotate", {"action": "list", "path": document}, events)
            if result.is_error:
                parts.append(self._error_line(document, result))
                continue
            items = result.details.get("annotations", [])
            if not items:
                parts.append(f"{display_name(document)} has no notes or highlights yet.")
                continue
            lines = [(f"{display_name(document)}: {len(items)} note{'s' * (len(items) != 1)} and highlight"
                      f"{'s' * (len(items) != 1)}:")]
            for item in items[:NOTES_LISTED]:
                said = [quoted(_squash(item["quote"], 200))] if item.get("quote") else []
                if item.get("note"):  # the user's own words as they are; a note the PDF carries is quoted
                    note = _squash(item["note"], 300)
                    said.append(quoted(note) if item.get("source") == "pdf" else note)
                if item.get("answer"):
                    said.append("pinned answer: " + quoted(_squash(str(item["answer"].get("text", "")), 300)))
                flag = " (orphaned: its text is gone from this version)" if item.get("status") == "orphaned" else ""
                source = " (in the PDF itself)" if item.get("source") == "pdf" else ""
                lines.append(f"- {' — '.join(said) or item.get('kind', 'note')}{flag}{source} "
                             f"{self._cite(document, item['page'])}")
            if len(items) > NOTES_LISTED:
                lines.append(f"(The first {NOTES_LISTED} of {len(items)}; the Notes panel lists them all.)")
            parts.append("\n".join(lines))
        return "\n\n".join(parts)

    async def _summary(self, intent: _Intent, events: list[AgentEvent]) -> str:
        parts: list[str] = []
        for document in self.documents:
            info = await self.tool("pdf_info", {"path": document}, events)
            if info.is_error:
                parts.append(self._error_line(document, info))
                continue
            total = int(info.details.get("pages_total") or 0)
            title = info.details.get("title") or display_name(document)
            head = f"{display_name(document)} — {quoted(str(title))}, {total} page{'s' * (total != 1)}."
            outline = await self.tool("pdf_outline", {"path": document}, events)
            entries = ([e for e in outline.details.get("entries", []) if e.get("level", 1) == 1]
                       if not outline.is_error else [])
            lines = [head]
            if entries:
                lines.append("Sections: " + "; ".join(f"{quoted(str(e['title']))} {self._cite(document, e['page'])}"
                                                     for e in entries[:12]
                                                     if isinstance(e.get("page"), int) and e["page"] > 0))
            last = min(total, SUMMARY_PAGES)
            text = await self.tool("pdf_extract_text",
                                   {"path": document, "pages": f"1-{last}", "max_chars": 300_000}, events)
            picked = key_sentences(_pages_of(text.text)) if not text.is_error else []
            if picked:
                lines.append("Key sentences:")
                lines += [f"- {quoted(_squash(s, 300))} {self._cite(document, page)}" for page, s in picked]
            elif not text.is_error:
                lines.append("The pages read have no text layer; look at them in the viewer.")
            if total > SUMMARY_PAGES:
                lines.append(f"(Read the first {SUMMARY_PAGES} pages of {total}; ask “find …” to reach the rest.)")
            parts.append("\n".join(lines))
        return "\n\n".join(parts)


_FENCE = re.compile(r"<<<(?:END_)?PDF_CONTENT[^\n]*>>>")
_MARKER = re.compile(r"^--- Page (\d+) ---$", re.MULTILINE)


def _page_body(tool_text: str) -> str:
    """The document text inside a pdf_extract_text result, without fences and page markers."""
    inside = tool_text.split(">>>\n", 1)[-1] if "<<<PDF_CONTENT" in tool_text else tool_text
    return _MARKER.sub("", _FENCE.sub("", inside)).strip()


def _pages_of(tool_text: str) -> dict[int, str]:
    """Page number -> text from a pdf_extract_text result with several pages."""
    body = _FENCE.sub("", tool_text)
    pieces = _MARKER.split(body)
    return {int(pieces[i]): pieces[i + 1] for i in range(1, len(pieces) - 1, 2)}


def strip_running_lines(pages: dict[int, str]) -> dict[int, str]:
    """Drop running headers and footers: short lines (digits ignored) found on at least half the pages."""
    if len(pages) < 3:
        return pages
    def shape(line: str) -> str:
        return re.sub(r"\d+", "#", " ".join(line.split()).lower())
    counts = Counter(s for text in pages.values()
                     for s in {shape(line) for line in text.splitlines() if 0 < len(line.strip()) <= 100})
    running = {s for s, n in counts.items() if n >= max(3, len(pages) / 2)}
    return {page: "\n".join(line for line in text.splitlines() if shape(line) not in running)
            for page, text in pages.items()}


def key_sentences(pages: dict[int, str], count: int = SUMMARY_SENTENCES) -> list[tuple[int, str]]:
    """The sentences carrying the document's most frequent content words, in reading order."""
    pages = strip_running_lines(pages)
    found = [(page, s) for page, text in sorted(pages.items()) for s in sentences(text)]
    unique: dict[str, tuple[int, str]] = {}
    for page, sentence in found:
        unique.setdefault(sentence.lower(), (page, sentence))
    frequency = Counter(w for _, s in unique.values() for w in content_words(s))
    if not frequency:
        return []

    def score(item: tuple[int, tuple[int, str]]) -> float:
        position, (_, sentence) = item
        words = content_words(sentence)
        return sum(frequency[w] for w in words) / (len(words) + 4) ** 0.5 + (1.0 if position < 2 else 0.0)

    ranked = sorted(enumerate(unique.values()), key=score, reverse=True)
    chosen: list[tuple[int, tuple[int, str]]] = []
    for position, item in ranked:
        words = set(content_words(item[1]))
        if any(len(words & set(content_words(other[1]))) > 0.7 * max(len(words), 1) for _, other in chosen):
            continue  # near-duplicate of a sentence already chosen
        chosen.append((position, item))
        if len(chosen) >= count:
            break
    return [item for _, item in sorted(chosen)]
