"""Small, safe HTML builders for the panels: escaped text, bold hit words, Markdown-ish answers.

Everything a PDF or a model wrote is escaped first; only the constructs below become markup, so
a document cannot inject HTML (or a `pdfdesk://` link that looks like a citation) into the window.
Citations (every form `core.citations` reads) become links through a resolver: a bracket citing
one page is one link, a bracket citing several has a link on each page number. Brackets in quoted
material (quotations, blockquotes, code, document excerpts) stay text, by the same rule the agent
uses to record citations, so a quoted document cannot make a link.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from urllib.parse import parse_qs, quote, urlparse

from pdfdesk.core.citations import CitationMark, find_citations
from pdfdesk.index.query_terms import parse_terms

CitationResolver = Callable[[str | None, int], str | None]  # (file name or None, page) -> href

_LINK = re.compile(r"\[([^\]\n]{1,300})\]\((https?://[^\s)]{1,2000})\)")
_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])")
_BULLET = re.compile(r"^\s*[-*•]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d{1,3}[.)]\s+(.*)$")
_HEADING = re.compile(r"^(#{1,4})\s+(.*)$")
_QUOTE = re.compile(r"^ {0,3}>\s?(.*)$")


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def citation_href(document: str, page: int, key: str | None = None) -> str:
    """`pdfdesk://open?doc=…&page=N` (+ `&c=key` naming the citation whose rects to highlight)."""
    href = f"pdfdesk://open?doc={quote(document, safe='')}&page={page}"
    return href + (f"&c={quote(key, safe='')}" if key else "")


def parse_citation_href(href: str) -> tuple[str, int, str | None] | None:
    """(document, page, citation key) of a `pdfdesk://open` link, or None for anything else."""
    url = urlparse(href)
    if url.scheme != "pdfdesk" or url.netloc != "open":
        return None
    query = parse_qs(url.query)
    try:
        document, page = query["doc"][0], int(query["page"][0])
    except (KeyError, IndexError, ValueError):
        return None
    if page < 1 or not document:
        return None
    keys = query.get("c")
    return document, page, keys[0] if keys else None


def highlight_terms(text: str, query: str, related: Sequence[str] = ()) -> str:
    """`text` escaped, with the query's words that decide a match (and stems' prefixes) in bold:
    not every "to" and "a" of a question typed in plain words; and the `related` words that
    counted for them (a synonym on the page), which decided the match as well."""
    terms = parse_terms(query)
    needles = [n for n in terms.phrases + terms.deciding_words + terms.prefixes + list(related) if n.strip()]
    if not needles:
        return esc(text)
    parts = []
    for needle in sorted(set(needles), key=len, reverse=True):
        word = re.escape(needle.rstrip("*"))
        stem = re.escape(needle[:max(4, len(needle) - 2)]) if len(needle) > 5 and " " not in needle else None
        # whole word, or a word starting with a stem of it (so "contracts" bolds for "contract")
        parts.append(rf"\b{word}\w*" if needle.endswith("*") or stem is None else rf"\b{stem}\w*")
    pattern = re.compile("|".join(parts), re.IGNORECASE)
    out, last = [], 0
    for match in pattern.finditer(text):
        out.append(esc(text[last:match.start()]))
        out.append(f"<b>{esc(match.group(0))}</b>")
        last = match.end()
    out.append(esc(text[last:]))
    return "".join(out)


def _link(href: str | None, label: str) -> str:
    return f'<a href="{esc(href)}">{esc(label)}</a>' if href else esc(label)


def citation_markup(text: str, mark: CitationMark, resolve: CitationResolver | None) -> str:
    """One citation bracket as HTML: the whole bracket linked when it cites one page, else each
    page number linked to its page (a range to its first page); unresolved pages stay text."""
    def href(index: int) -> str | None:
        cited = mark.pages[index]
        return resolve(cited.file, cited.first) if resolve else None

    if len(mark.pages) == 1:
        return _link(href(0), text[mark.start:mark.end])
    out, last = [], mark.start
    for index, cited in enumerate(mark.pages):
        out.append(esc(text[last:cited.start]))
        out.append(_link(href(index), text[cited.start:cited.end]))
        last = cited.end
    out.append(esc(text[last:mark.end]))
    return "".join(out)


def _inline(text: str, resolve: CitationResolver | None, base: int = 0, linked: AbstractSet[int] = frozenset()) -> str:
    """Escape one line and apply inline Markdown, links and citations. `text` starts at `base` in
    the whole answer; only brackets starting at an offset in `linked` (the answer's own citations,
    as the one parser reads the whole answer) become links, the rest stay text."""
    tokens: list[str] = []

    def stash(markup: str) -> str:
        tokens.append(markup.replace("\x00", ""))
        return f"\x00{len(tokens) - 1}\x00"

    def code(match: re.Match[str]) -> str:
        return stash(f"<code>{esc(match.group(1))}</code>")

    def link(match: re.Match[str]) -> str:
        return stash(f'<a href="{esc(match.group(2))}">{esc(match.group(1))}</a>')

    pieces, last = [], 0
    for mark in find_citations(text):
        cites = resolve if base + mark.start in linked else None
        pieces += [text[last:mark.start].replace("\x00", ""), stash(citation_markup(text, mark, cites))]
        last = mark.end
    text = "".join(pieces) + text[last:].replace("\x00", "")  # the stash's marker never comes from outside
    text = _CODE.sub(code, text)
    text = _LINK.sub(link, text)
    text = esc(text)
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = _ITALIC.sub(lambda m: f"<i>{m.group(1) or m.group(2)}</i>", text)
    return re.sub("\x00(\\d+)\x00", lambda m: tokens[int(m.group(1))], text)


def markdown_html(text: str, resolve: CitationResolver | None = None) -> str:
    """Markdown-ish `text` (paragraphs, headings, lists, blockquotes, code, bold/italic, links) as
    safe HTML. Citations link only where `core.citations` reads the whole answer as citing: never
    inside a blockquote, a quotation, code or a fenced document excerpt."""
    linked = frozenset(mark.start for mark in find_citations(text))
    blocks: list[str] = []
    paragraph: list[str] = []
    quote: list[str] = []
    items: list[str] = []
    list_tag = ""
    code: list[str] | None = None

    def inline(part: str, base: int) -> str:
        return _inline(part, resolve, base, linked)

    def flush() -> None:
        nonlocal list_tag
        if paragraph:
            blocks.append("<p>" + "<br>".join(paragraph) + "</p>")
            paragraph.clear()
        if quote:
            blocks.append("<blockquote>" + "<br>".join(quote) + "</blockquote>")
            quote.clear()
        if items:
            blocks.append(f"<{list_tag}>" + "".join(f"<li>{i}</li>" for i in items) + f"</{list_tag}>")
            items.clear()
            list_tag = ""

    offset = 0
    for raw in text.splitlines(keepends=True):
        base, offset = offset, offset + len(raw)
        line = raw.splitlines()[0]  # without its line break
        if line.strip().startswith("```"):
            if code is None:
                flush()
                code = []
            else:
                blocks.append("<pre>" + esc("\n".join(code)) + "</pre>")
                code = None
            continue
        if code is not None:
            code.append(line)
            continue
        if not line.strip():
            flush()
            continue
        heading, bullet, numbered = _HEADING.match(line), _BULLET.match(line), _NUMBERED.match(line)
        quoted = _QUOTE.match(line)
        if quoted:
            if paragraph or items:
                flush()
            quote.append(inline(quoted.group(1), base + quoted.start(1)))
        elif heading:
            flush()
            level = min(len(heading.group(1)) + 2, 6)
            blocks.append(f"<h{level}>{inline(heading.group(2), base + heading.start(2))}</h{level}>")
        elif found := bullet or numbered:
            tag = "ul" if bullet else "ol"
            if paragraph or quote or (items and list_tag != tag):
                flush()
            list_tag = tag
            items.append(inline(found.group(1), base + found.start(1)))
        elif items and line.startswith(("  ", "\t")):
            items[-1] += " " + inline(line.strip(), base + len(line) - len(line.lstrip()))
        else:
            if items or quote:
                flush()
            paragraph.append(inline(line, base))
    if code is not None:  # an unterminated block while streaming
        blocks.append("<pre>" + esc("\n".join(code)) + "</pre>")
    flush()
    return "\n".join(blocks)


def join_nonempty(parts: Iterable[str], sep: str = " · ") -> str:
    return sep.join(p for p in parts if p)
