"""What a page asks MuPDF to interpret, read within limits: its content streams and the form
XObjects they draw.

A few MB of Flate inflate to gigabytes; a form can draw another a thousand times, a dozen levels
deep; resources can point back at themselves. MuPDF interprets all of it, and holds the GIL while
it does, so nothing interrupts it once started. So before MuPDF runs a page (text extraction,
rendering, OCR) `check_page` weighs it, and refuses it with a pdf_error naming the reason when

* its streams inflate past PAGE_BYTES (read a chunk at a time, never further), or the forms it
  draws, counted once for every time they are drawn, add up to more. MuPDF spends 20-45 ns a byte
  on the cheapest operators ("Q", "n", "q Q"), so 32 MB cost it 1-1.5 s a pass, and a search may
  run a page three times (at 128 MB, a search took 16 s);
* its strings hold more than MAX_TEXT_BYTES (each byte can be a character, and MuPDF keeps some
  80-170 bytes for each character it extracts or draws);
* it draws more than MAX_FORMS different forms, or nests them more than MAX_FORM_DEPTH deep
  (MuPDF itself gives up somewhere below 100).

Forms are followed without recursion, each once (a form that draws itself, directly or through
others, is drawn once by MuPDF too). The streams' bytes are kept for the hidden-text check; sizes,
what each stream draws and each page's verdict are kept per document, so a page is weighed once.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from dataclasses import dataclass, field

import pymupdf
from pymupdf import mupdf

from pdfdesk.core.errors import PDF_ERROR, PdfDeskError

PAGE_BYTES = 32 << 20      # content MuPDF may interpret for one page, forms counted per drawing
MAX_TEXT_BYTES = 3 << 20   # bytes of strings (characters, at most) one page may show
MAX_FORMS = 4096           # distinct forms one page may draw
MAX_FORM_DEPTH = 64        # forms inside forms
_CHUNK = 1 << 20
_FIRST_ROOM = 1 << 17      # a typical page's content fits at once: growing a buffer from nothing costs as much again
_HUGE = 1 << 62            # draw counts stop growing here (a billion-laughs tree of forms)
_NESTING = 8               # string nesting unpicked level by level; deeper counts whole
_STASH_BYTES = 1 << 20     # a walked page's bytes kept for the check that follows, up to this

_CONTENTS, _RESOURCES = mupdf.PDF_ENUM_NAME_Contents, mupdf.PDF_ENUM_NAME_Resources
_XOBJECT = mupdf.PDF_ENUM_NAME_XObject
_SUBTYPE = mupdf.PDF_ENUM_NAME_Subtype
_DELIMITER = rb"\0\t\n\x0c\r ()<>\[\]{}/%"
_DRAW = re.compile(rb"/([^" + _DELIMITER + rb"]*)[\0\t\n\x0c\r ]*Do(?![^" + _DELIMITER + rb"])")
_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_LITERAL = re.compile(rb"\([^()\\]*(?:\\.[^()\\]*)*\)", re.DOTALL)  # a string holding no other
_HEX = re.compile(rb"<[0-9A-Fa-f\0\t\n\x0c\r ]*>")
_SPACE_BYTES = frozenset(b"\0\t\n\x0c\r ")
_NO_DRAWS: Counter[str] = Counter()  # shared, never written to
_ENDS_TOKEN = frozenset(b"\0\t\n\x0c\r ()<>[]{}/%")


@dataclass
class StreamInfo:
    """One decompressed stream."""

    size: int                 # bytes, counted to PAGE_BYTES + 1 at most
    draws: Counter[str]       # XObject name -> times drawn
    text: int | None = None   # bytes in its strings, when counted (it never exceeds `size`)
    error: str | None = None  # MuPDF could not decode it all (what it read still counts)


@dataclass
class Form:
    """A form XObject the page draws, directly or through other forms."""

    xref: int
    resources: mupdf.PdfObj  # what its names refer to (its own, or its parent's when it has none)
    draws: int               # times drawn for one rendering of the page
    depth: int               # forms between the page and it, itself included
    data: bytes | None       # its bytes, when this walk read them (None: read when needed)


@dataclass
class PageStreams:
    content: bytes                   # the page's content streams, joined
    complete: bool                   # content is the whole of them (False: damaged, or refused)
    resources: mupdf.PdfObj | None   # the page's resources (looked up when the page draws forms)
    forms: list[Form] = field(default_factory=list)
    interpreted: int = 0             # content bytes MuPDF interprets, forms counted per drawing
    refused: str | None = None       # why MuPDF must not run the page; None when it may


@dataclass
class _DocumentStreams:
    streams: dict[int, StreamInfo] = field(default_factory=dict)
    verdicts: dict[int, str | None] = field(default_factory=dict)  # page index -> refusal
    last: tuple[int, PageStreams] | None = None  # the page walked last, with its bytes, until used


def _streams_of(doc: pymupdf.Document) -> _DocumentStreams:
    """The per-document memory, kept on the Document itself: it lives and dies with the handle
    (the document cache reuses handles across calls; Document objects take no weak references)."""
    found = doc.__dict__.get("_pdfdesk_streams")
    if found is None:
        found = doc.__dict__["_pdfdesk_streams"] = _DocumentStreams()
    return found


def _megabytes(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MB"


def _draws_something(data: bytes) -> bool:
    """Whether a "Do" stands as an operator somewhere (not inside a word such as "(Document)"):
    the common page has none, and then the names need no search. (A one-byte search runs at
    memchr's speed, a two-byte one some ten times slower: the "D" goes first.)"""
    if b"D" not in data:
        return False
    at = data.find(b"Do")
    while at >= 0:
        end = at + 2
        if (end == len(data) or data[end] in _ENDS_TOKEN) and (at == 0 or data[at - 1] in _SPACE_BYTES):
            return True
        at = data.find(b"Do", end)
    return False


def _names(data: bytes) -> Counter[str]:
    """How many times a stream draws each XObject name."""
    if not _draws_something(data):
        return _NO_DRAWS
    found: Counter[str] = Counter()
    for raw in _DRAW.findall(data):
        if b"#" in raw:
            raw = _ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), raw)
        found[raw.decode("latin-1")] += 1
    return found


def string_bytes(data: bytes) -> int:
    """At least as many bytes as a stream's strings hold (hex strings count half). Strings inside
    strings are unpicked innermost first, _NESTING levels; past that, or where a string is left
    open, everything from the first parenthesis left to the end counts. Each string holds
    at least its two delimiters, so a stream with more openers than MAX_TEXT_BYTES holds too much
    text whatever they enclose: it is not searched (millions of matches cost Python ~100 bytes each)."""
    openers = data.count(b"(") + data.count(b"<")
    if openers > MAX_TEXT_BYTES:
        return 2 * openers
    total = sum(map(len, _HEX.findall(data))) // 2 if b"<" in data else 0
    rest = data
    for _ in range(_NESTING):
        if b"(" not in rest and b")" not in rest:
            return total
        stripped = _LITERAL.sub(b"", rest)
        total += len(rest) - len(stripped)
        if len(stripped) == len(rest):
            break
        rest = stripped
    opened = rest.find(b"(")
    return total if opened < 0 else total + len(rest) - opened  # MuPDF reads an open string to the end


def _read(obj: mupdf.PdfObj) -> tuple[bytes, StreamInfo]:
    """A stream's decompressed bytes, read a chunk at a time and never past PAGE_BYTES + 1."""
    chunks: list[bytes] = []
    size = 0
    error = None
    try:
        stream = mupdf.pdf_open_stream(obj)
        while size <= PAGE_BYTES:
            want = min(_CHUNK, PAGE_BYTES + 1 - size)
            buffer = mupdf.fz_read_all(mupdf.fz_open_null_filter(stream, want, size),
                                       want if size else min(want, _FIRST_ROOM))
            chunks.append(bytes(buffer.fz_buffer_storage_memoryview()))
            size += len(chunks[-1])
            if len(chunks[-1]) < want:
                break
    except mupdf.FzErrorBase as exc:
        error = str(exc)
    data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    return data, StreamInfo(len(data), _names(data) if len(data) <= PAGE_BYTES else _NO_DRAWS, error=error)


def _content_streams(page_obj: mupdf.PdfObj) -> list[mupdf.PdfObj]:
    contents = mupdf.pdf_dict_get(page_obj, _CONTENTS)
    if mupdf.pdf_is_stream(contents):  # the common case first: each binding call costs a microsecond
        return [contents]
    if mupdf.pdf_is_array(contents):
        return [item for item in (mupdf.pdf_array_get(contents, i) for i in range(mupdf.pdf_array_len(contents)))
                if mupdf.pdf_is_stream(item)]
    return []


class _Walk:
    """One page's streams and forms: read, then weighed."""

    def __init__(self, memory: _DocumentStreams) -> None:
        self.memory = memory
        self.read = 0            # decompressed bytes seen, each stream once
        self.refused: str | None = None
        self.objects: dict[int, mupdf.PdfObj] = {}

    def form(self, obj: mupdf.PdfObj) -> tuple[bytes | None, StreamInfo]:
        """A form's info (remembered per document by object number), and its bytes when it had
        to be read (it was not known yet)."""
        number = mupdf.pdf_to_num(obj)
        info = self.memory.streams.get(number)
        data = None
        if info is None:
            data, info = _read(obj)
            self.memory.streams[number] = info
        self.count(info.size)
        return data, info

    def count(self, size: int) -> None:
        """Add a stream's size to the bytes seen; past PAGE_BYTES the page is refused."""
        self.read += size
        if self.read > PAGE_BYTES and self.refused is None:
            self.refused = f"its streams hold more than {_megabytes(PAGE_BYTES)} of drawing instructions"

    def page(self, pdf_page: mupdf.PdfPage) -> PageStreams:
        parts: list[bytes] = []
        total = StreamInfo(0, Counter(), 0)
        for obj in _content_streams(pdf_page.obj()):
            if self.refused:
                break
            data, info = _read(obj)  # a page's own streams are read each time: the checks want the bytes
            self.count(info.size)
            parts.append(data)
            total.size += info.size
            if info.draws:
                total.draws.update(info.draws)
        streams = PageStreams(parts[0] if len(parts) == 1 else b"\n".join(parts), self.refused is None, None,
                              interpreted=total.size)
        infos: dict[int, StreamInfo] = {0: total}
        if self.refused is None and total.draws:
            streams.resources = mupdf.pdf_page_resources(pdf_page)
            self._forms(streams, infos)
        if self.refused is None and streams.interpreted > MAX_TEXT_BYTES:
            self._count_text(streams, infos)
        streams.refused = self.refused
        streams.complete &= self.refused is None
        return streams

    def _forms(self, streams: PageStreams, infos: dict[int, StreamInfo]) -> None:
        """Find every form the page draws (breadth first), then count drawings down the graph."""
        edges: dict[int, Counter[int]] = {}
        forms: dict[int, Form] = {}
        queue: deque[tuple[int, mupdf.PdfObj]] = deque([(0, streams.resources)])
        while queue and self.refused is None:
            node, resources = queue.popleft()
            children: Counter[int] = Counter()
            edges[node] = children
            for xref, obj, count in _targets(resources, infos[node]):
                children[xref] += count
                if xref in forms or xref == 0:
                    continue
                if len(forms) >= MAX_FORMS:
                    self.refused = f"it draws more than {MAX_FORMS:,} different forms"
                    break
                own = mupdf.pdf_dict_get(obj, _RESOURCES)
                data, infos[xref] = self.form(obj)
                self.objects[xref] = obj
                forms[xref] = Form(xref, own if mupdf.pdf_is_dict(own) else resources, 0, 0, data)
                queue.append((xref, forms[xref].resources))
        streams.forms = list(forms.values())
        if self.refused is None:
            self._weigh(streams, infos, edges, forms)

    def _weigh(self, streams: PageStreams, infos: dict[int, StreamInfo], edges: dict[int, Counter[int]],
               forms: dict[int, Form]) -> None:
        """Times each form is drawn and how deep it sits, in topological order; an edge back to a
        form still being drawn (a cycle) draws nothing, as MuPDF refuses to recurse into it."""
        order: list[int] = []
        state: dict[int, int] = {0: 1}  # 1: on the path, 2: done
        kept: dict[int, list[tuple[int, int]]] = {node: [] for node in edges}
        stack: list[tuple[int, list[int]]] = [(0, list(edges.get(0, ())))]
        while stack:
            node, pending = stack[-1]
            if not pending:
                stack.pop()
                state[node] = 2
                order.append(node)
                continue
            child = pending.pop()
            if state.get(child) == 1:
                continue  # a cycle: MuPDF skips a form it is already inside
            kept.setdefault(node, []).append((child, edges[node][child]))
            if child not in state:
                state[child] = 1
                stack.append((child, list(edges.get(child, ()))))
        draws: dict[int, int] = {0: 1}
        depth: dict[int, int] = {0: 0}
        for node in reversed(order):
            for child, count in kept.get(node, ()):
                draws[child] = min(draws.get(child, 0) + draws[node] * count, _HUGE)
                depth[child] = max(depth.get(child, 0), depth[node] + 1)
        for xref, form in forms.items():
            form.draws, form.depth = draws.get(xref, 0), depth.get(xref, 0)
        streams.interpreted = min(sum(infos[node].size * times for node, times in draws.items()), _HUGE)
        deepest = max(depth.values())
        if deepest > MAX_FORM_DEPTH:
            self.refused = f"it nests forms {deepest} deep, more than the {MAX_FORM_DEPTH} pdfdesk follows"
        elif streams.interpreted > PAGE_BYTES:
            self.refused = (f"the forms it draws, counted each time they are drawn, add up to "
                            f"{_megabytes(streams.interpreted)} of drawing instructions, more than the "
                            f"{_megabytes(PAGE_BYTES)} pdfdesk allows for one page")

    def _count_text(self, streams: PageStreams, infos: dict[int, StreamInfo]) -> None:
        """Refuse a page whose strings, forms counted per drawing, pass MAX_TEXT_BYTES (counted
        only for pages with more content than that)."""
        total = infos[0].text = string_bytes(streams.content)
        for form in streams.forms:
            info = infos[form.xref]
            if info.text is None:
                data = form.data if form.data is not None else _read(self.objects[form.xref])[0]
                info.text = string_bytes(data)
            total = min(total + info.text * form.draws, _HUGE)
        if total > MAX_TEXT_BYTES:
            self.refused = (f"its strings hold {_megabytes(total)} of text (forms counted each time they "
                            f"are drawn), more than the {_megabytes(MAX_TEXT_BYTES)} pdfdesk reads on one page")


def _targets(resources: mupdf.PdfObj | None, info: StreamInfo) -> list[tuple[int, mupdf.PdfObj, int]]:
    """The forms a stream draws: (object number, object, times)."""
    xobjects = mupdf.pdf_dict_get(resources, _XOBJECT) if resources is not None else None
    if xobjects is None or not mupdf.pdf_is_dict(xobjects):
        return []
    found: list[tuple[int, mupdf.PdfObj, int]] = []
    for name, count in info.draws.items():
        obj = mupdf.pdf_dict_gets(xobjects, name)
        if obj.m_internal is not None and mupdf.pdf_is_stream(obj) and (
                mupdf.pdf_to_name(mupdf.pdf_dict_get(obj, _SUBTYPE)) == "Form"):
            found.append((mupdf.pdf_to_num(obj), obj, count))
    return found


def read_form(obj_number: int, doc: pymupdf.Document) -> tuple[bytes, bool]:
    """A form's decompressed bytes (at most PAGE_BYTES), and whether they are all of it."""
    pdf = mupdf.pdf_document_from_fz_document(doc.this)
    data, info = _read(mupdf.pdf_load_object(pdf, obj_number))
    return data, info.size <= PAGE_BYTES and info.error is None


def page_streams(page: pymupdf.Page) -> PageStreams:
    """The page's streams as read for the checks (the walk `check_page` just made, when it was
    this page's)."""
    memory = _streams_of(page.parent)
    last, memory.last = memory.last, None
    if last is not None and last[0] == page.number:
        return last[1]
    streams = _walk(page, memory)
    memory.verdicts[page.number] = streams.refused
    memory.last = None
    return streams


def _walk(page: pymupdf.Page, memory: _DocumentStreams) -> PageStreams:
    pdf_page = mupdf.pdf_page_from_fz_page(page.this)
    if pdf_page.m_internal is None:  # not a PDF: nothing of ours to weigh
        return PageStreams(b"", True, None)
    try:
        streams = _Walk(memory).page(pdf_page)
    except mupdf.FzErrorBase:
        # Damage the walk trips over is MuPDF's to report when it runs the page; the checks that
        # needed the bytes say the page was not checked.
        streams = PageStreams(b"", False, None)
    # Kept for the hidden-text check that usually follows (a cached document keeps one page's
    # worth, and only of an ordinary size; a larger page is read again if the check comes).
    held = len(streams.content) + sum(len(form.data or b"") for form in streams.forms)
    memory.last = (page.number, streams) if held <= _STASH_BYTES else None
    return streams


def refusal(page: pymupdf.Page) -> str | None:
    """Why MuPDF must not run the page (None: it may); remembered per page, so a page already
    weighed costs a dictionary lookup."""
    memory = _streams_of(page.parent)
    number = page.number
    if number not in memory.verdicts:
        memory.verdicts[number] = _walk(page, memory).refused
    return memory.verdicts[number]


class PageOverLimit(PdfDeskError):
    """A page refused because reading it would cost more than one page may: not damage, so callers
    that list unreadable pages can say which limit it met."""


def check_page(page: pymupdf.Page) -> None:
    """Raise pdf_error (PageOverLimit) when the page asks MuPDF for more work than one page may cost."""
    refused = refusal(page)
    number = page.number
    if refused:
        raise PageOverLimit(
            PDF_ERROR, f"Page {number + 1} was not read: {refused}.",
            "The page is built to exhaust a PDF reader (or is far beyond an ordinary page); "
            "the other pages can still be read.", page=number + 1)
