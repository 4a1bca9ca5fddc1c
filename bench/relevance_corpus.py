"""Documents and queries for bench/relevance_bench.py: how they are written down, typeset and checked.

The page texts and their queries live in relevance_corpus_latin.py (English, German),
relevance_corpus_cyrgreek.py (Russian, Greek) and relevance_corpus_cjkarab.py (Chinese, Japanese,
Arabic, Persian); relevance_corpus_filler.py writes the pages between them, and
relevance_corpus_checks.py checks the generated PDFs. Each document is a small spec:

    # 1.2 | Installing Plotkit        a heading (its level is the depth of its number)
    h: installing plotkit             how a user types that heading (default: the title, lower case)
    Prose lines ...                   consecutive lines are one paragraph; a blank line ends it;
                                      `code` words are set in a monospace font
    k: armv6 wheels                   a known-item query for the current page (k[joined,fold]: tags it)
    p: can I run it on a tiny board   a paraphrase of something on the current page
    ---                               a page break

Queries were written with the pages, before any ranking was looked at. After each written page
come 3-6 filler pages (statements about the document's own topics, see relevance_corpus_filler.py),
so documents have 15-35 pages. Every document gets a title page, optionally a contents page, a running header
(the current chapter) and a page number, and a pdfTeX-style outline: each entry goes to a named
destination in the /Names /Dests tree whose top is the top of the page (y = 0) or missing (null),
several entries per page, nested levels.

Document options that imitate how real PDFs come out:
  ligatures   "fi", "fl", "ff", "ffi", "ffl" in prose and headings become the ligature code points
              U+FB00-U+FB04, as in the text layer of many TeX-made PDFs (never in `code`)
  xetex       Arabic-script text in presentation forms (U+FB50-U+FDFF, U+FE70-U+FEFF, shaped by
              position, lam-alef ligatures) with no spaces between words, as XeTeX writes it; the
              outline stays in base letters (hyperref writes it from the source); queries are typed
              normally
"""

from __future__ import annotations

import random
import re
import unicodedata
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from bench.heading_bench import text_width  # per-character advances, cached
from bench.relevance_corpus_filler import paragraph as filler_paragraph

DEJAVU = "/usr/share/fonts/truetype/dejavu/"
SCRIPT_OF = {"en": "latin", "de": "latin", "ru": "cyrillic", "el": "greek", "zh": "cjk", "ja": "cjk",
             "ar": "arabic", "fa": "arabic"}
SCRIPTS = ("latin", "cyrillic", "greek", "cjk", "arabic")
CONTENTS_WORD = {"en": "Contents", "de": "Inhaltsverzeichnis", "ru": "Содержание", "el": "Περιεχόμενα",
                 "zh": "目录", "ja": "目次", "ar": "المحتويات", "fa": "فهرست مطالب"}

PAGE_W, PAGE_H = 595.0, 842.0
LEFT, RIGHT, TOP, BOTTOM = 72.0, 523.0, 72.0, 770.0
HEADING_SIZE = {1: 16.0, 2: 13.0, 3: 11.0}
BODY_SIZE, LEADING = 10.0, 13.5
# Filler pages after each written page (relevance_corpus_filler.py): documents of tens of pages, as
# real ones are, so that a target competes with many pages and hit@10 means something.
FILLER_PAGES = (3, 6)
FILLER = {"on": True}


class CorpusError(ValueError):
    """A spec that cannot be typeset as written (a page overflows, a query has no page)."""


@dataclass
class Query:
    kind: str                 # "known", "para" or "heading"
    text: str
    doc: str = ""
    page: int = 0             # the page that answers it (1-based)
    tags: tuple[str, ...] = ()
    title: str = ""           # heading queries: the outline entry's title
    number: str = ""          # heading queries: the heading's number
    lang: str = ""

    @property
    def script(self) -> str:
        return SCRIPT_OF[self.lang]


@dataclass
class Heading:
    number: str
    title: str
    typed: str = ""
    page: int = 0

    @property
    def level(self) -> int:
        return self.number.count(".") + 1


@dataclass
class Unit:
    """A word (or CJK character, or `code` span) as laid out: its text, whether it is code, and
    whether a space follows it in the source."""

    text: str
    code: bool
    spaced: bool


@dataclass
class Block:
    kind: str                 # "heading" or "para"
    text: str = ""
    heading: Heading | None = None


@dataclass
class Doc:
    name: str
    lang: str
    title: str
    subtitle: str
    spec: str
    contents: bool = False
    numbered_outline: bool = True
    ligatures: bool = False
    xetex: bool = False
    pages: list[list[Block]] = field(default_factory=list)
    filler_after: list[int] = field(default_factory=list)  # filler pages after each written page
    headings: list[Heading] = field(default_factory=list)
    queries: list[Query] = field(default_factory=list)

    @property
    def script(self) -> str:
        return SCRIPT_OF[self.lang]

    @property
    def first_body_page(self) -> int:
        return 3 if self.contents else 2

    def outline_title(self, heading: Heading) -> str:
        return f"{heading.number} {heading.title}" if self.numbered_outline else heading.title


# ------------------------------------------------------------------------------------------------
# The spec

_QUERY_LINE = re.compile(r"^([kph])(?:\[([\w,]+)\])?:\s*(.+)$")


def parse(doc: Doc) -> Doc:
    """Fill doc.pages, doc.headings and doc.queries from doc.spec (pages numbered as typeset)."""
    joiner = "" if doc.script == "cjk" else " "
    pages: list[list[Block]] = [[]]
    queries: list[Query] = []
    paragraph: list[str] = []

    def end_paragraph() -> None:
        if paragraph:
            pages[-1].append(Block("para", joiner.join(paragraph)))
            paragraph.clear()

    for raw in doc.spec.strip().splitlines():
        line = raw.strip()
        query = _QUERY_LINE.match(line)
        if not line:
            end_paragraph()
        elif line == "---":
            end_paragraph()
            pages.append([])
        elif line.startswith("# "):
            end_paragraph()
            number, title = (part.strip() for part in line[2:].split("|", 1))
            heading = Heading(number, title)
            pages[-1].append(Block("heading", heading=heading))
            doc.headings.append(heading)
        elif query:
            end_paragraph()
            kind, tags, text = query.groups()
            page = len(pages) - 1  # the written page's index; numbered below
            if kind == "h":
                doc.headings[-1].typed = text
            else:
                queries.append(Query("known" if kind == "k" else "para", text, doc.name, page,
                                     tuple(tags.split(",")) if tags else (), lang=doc.lang))
        else:
            paragraph.append(line)
    end_paragraph()
    doc.pages = pages
    rng = random.Random(zlib.crc32(doc.name.encode()))
    doc.filler_after = [rng.randint(*FILLER_PAGES) if FILLER["on"] else 0 for _ in pages]
    numbers = [doc.first_body_page + index + sum(doc.filler_after[:index]) for index in range(len(pages))]
    for query in queries:
        query.page = numbers[query.page]
    for number, blocks in zip(numbers, pages, strict=False):
        for block in blocks:
            if block.heading is not None:
                block.heading.page = number
    cased = doc.script in ("latin", "cyrillic", "greek")
    for heading in doc.headings:
        typed = heading.typed or (heading.title.replace("`", "").lower() if cased else heading.title.replace("`", ""))
        queries.append(Query("heading", typed, doc.name, heading.page, (), doc.outline_title(heading),
                             heading.number, doc.lang))
    for query in queries:  # tags the corpus knows without being told
        if doc.xetex:
            query.tags += ("xetex",)
        if doc.ligatures and query.kind == "known" and ligate(query.text.lower()) != query.text.lower():
            query.tags += ("ligature",)
    doc.queries = queries
    return doc


# ------------------------------------------------------------------------------------------------
# Text as it lands in the text layer

_LIGATURES = (("ffi", "\ufb03"), ("ffl", "\ufb04"), ("ff", "\ufb00"), ("fi", "\ufb01"), ("fl", "\ufb02"))


def ligate(text: str) -> str:
    for plain, glyph in _LIGATURES:
        text = text.replace(plain, glyph)
    return text


_LAM_ALEF = {"\u0627": ("\ufefb", "\ufefc"), "\u0623": ("\ufef7", "\ufef8"), "\u0625": ("\ufef9", "\ufefa"),
             "\u0622": ("\ufef5", "\ufef6")}
ZWNJ = "\u200c"


def _forms(char: str) -> dict[str, str]:
    """The presentation forms of an Arabic letter that has them ({} for anything else)."""
    try:
        name = unicodedata.name(char)
    except ValueError:
        return {}
    if not name.startswith("ARABIC LETTER"):
        return {}
    found = {}
    for form in ("ISOLATED", "FINAL", "INITIAL", "MEDIAL"):
        try:
            found[form] = unicodedata.lookup(f"{name} {form} FORM")
        except KeyError:
            pass
    return found


def _joins_both(char: str) -> bool:
    return "INITIAL" in _forms(char)


def _joins_right(char: str) -> bool:
    return "FINAL" in _forms(char)


def shape(text: str) -> str:
    """Arabic letters replaced by their contextual presentation forms (a lam before an alef by the
    lam-alef ligature); ZWNJ breaks a join and is dropped. Anything else passes through."""
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        forms = _forms(char)
        if not forms:
            if char != ZWNJ:
                out.append(char)
            i += 1
            continue
        previous = text[i - 1] if i else ""
        joins_previous = bool(previous) and _joins_both(previous) and _joins_right(char)
        if char == "\u0644" and i + 1 < len(text) and text[i + 1] in _LAM_ALEF:
            isolated, final = _LAM_ALEF[text[i + 1]]
            out.append(final if joins_previous else isolated)
            i += 2
            continue
        following = text[i + 1] if i + 1 < len(text) else ""
        joins_next = _joins_both(char) and bool(following) and _joins_right(following)
        form = {(True, True): "MEDIAL", (True, False): "FINAL", (False, True): "INITIAL",
                (False, False): "ISOLATED"}[(joins_previous, joins_next)]
        out.append(forms.get(form) or forms["ISOLATED"])
        i += 1
    return "".join(out)


# ------------------------------------------------------------------------------------------------
# Typesetting

class Fonts:
    def __init__(self, lang: str) -> None:
        script = SCRIPT_OF[lang]
        if script == "cjk":
            cjk = pymupdf.Font("china-s" if lang == "zh" else "japan")
            self.regular = self.bold = self.italic = cjk
            self.code = pymupdf.Font("cour")
        elif script == "arabic":
            self.regular = pymupdf.Font(fontfile=DEJAVU + "DejaVuSans.ttf")
            self.bold = pymupdf.Font(fontfile=DEJAVU + "DejaVuSans-Bold.ttf")
            self.italic = self.regular  # the oblique face has no Arabic letters
            self.code = pymupdf.Font(fontfile=DEJAVU + "DejaVuSansMono.ttf")
        else:
            self.regular, self.bold = pymupdf.Font("helv"), pymupdf.Font("hebo")
            self.italic, self.code = pymupdf.Font("heit"), pymupdf.Font("cour")


class Typesetter:
    """Lines written with TextWriter, one spec page per PDF page (an overflow is a CorpusError)."""

    def __init__(self, doc: Doc, pdf: pymupdf.Document) -> None:
        self.doc, self.pdf, self.fonts = doc, pdf, Fonts(doc.lang)
        self.rtl = doc.script == "arabic"
        self.cjk = doc.script == "cjk"
        self.page: pymupdf.Page | None = None
        self.writer: pymupdf.TextWriter | None = None
        self.y = TOP
        self.chapter = ""
        self.placed: dict[str, int] = {}  # heading number -> the page it was set on

    # text as printed ----------------------------------------------------------------------------
    def printed(self, text: str) -> str:
        if self.doc.ligatures:
            text = ligate(text)
        if self.doc.xetex:
            text = shape(text)
        return text

    def units(self, text: str) -> list[Unit]:
        """Units to wrap: words (characters in CJK prose), `code` words whole, each with whether
        the source has a space after it (so "(`navy`)" keeps its parentheses attached)."""
        found: list[Unit] = []
        pattern = r"`[^`]+`|[A-Za-z0-9][A-Za-z0-9_.+\-/%°]*|[^\s`]" if self.cjk else r"`[^`]+`|[^\s`]+"
        for match in re.finditer(pattern, text):
            piece, code = match.group(), match.group().startswith("`")
            spaced = match.end() < len(text) and text[match.end()].isspace()
            found.append(Unit(piece[1:-1] if code else piece, code, spaced))
        return found

    def sep(self, unit: Unit) -> str:
        return " " if unit.spaced and not (self.doc.xetex and not unit.code) else ""

    def wrap(self, text: str, font: pymupdf.Font, size: float, width: float) -> list[list[Unit]]:
        lines: list[list[Unit]] = []
        current: list[Unit] = []
        used = 0.0
        for unit in self.units(text):
            shown = unit if unit.code else Unit(self.printed(unit.text), False, unit.spaced)
            advance = text_width(self.fonts.code if unit.code else font, shown.text + self.sep(shown), size)
            if current and used + advance > width:
                lines.append(current)
                current, used = [], 0.0
            current.append(shown)
            used += advance
        return lines + ([current] if current else [])

    def write_line(self, units: list[Unit], font: pymupdf.Font, size: float, x: float | None = None,
                   y: float | None = None, lead: str = "") -> None:
        """One line: runs of prose in `font` and code words in the monospace font, left to right;
        in Arabic script right-aligned, Arabic runs written right to left and the runs in between
        (Latin words, numbers) left to right with a space either side."""
        y = self.y if y is None else y
        runs: list[tuple[str, pymupdf.Font, bool]] = []
        for index, unit in enumerate(units):
            run_font = self.fonts.code if unit.code else font
            rtl = self.rtl and any("\u0600" <= c <= "\u06ff" or c >= "\ufb50" for c in unit.text)
            piece = unit.text + (self.sep(unit) if index < len(units) - 1 else "")
            if runs and runs[-1][1] is run_font and runs[-1][2] == rtl:
                runs[-1] = (runs[-1][0] + piece, run_font, rtl)
            else:
                runs.append((piece, run_font, rtl))
        if self.rtl:
            cursor = RIGHT if x is None else x
            for index, (text, run_font, rtl) in enumerate(runs):
                text = (lead if index == 0 else "") + text.strip()
                if not rtl and not self.doc.xetex:
                    text = f" {text} "
                cursor -= text_width(run_font, text, size)
                self.writer.append((cursor, y), text, font=run_font, fontsize=size, right_to_left=rtl)
        else:
            cursor = LEFT if x is None else x
            for text, run_font, _rtl in runs:
                self.writer.append((cursor, y), text, font=run_font, fontsize=size)
                cursor += text_width(run_font, text, size)

    # pages --------------------------------------------------------------------------------------
    def new_page(self) -> None:
        self.finish_page()
        self.page = self.pdf.new_page(width=PAGE_W, height=PAGE_H)
        self.writer = pymupdf.TextWriter(self.page.rect)
        self.y = TOP

    def finish_page(self, number: bool = True) -> None:
        if self.page is not None and self.writer is not None:
            if number:
                label = str(self.pdf.page_count)
                self.writer.append((PAGE_W / 2 - 4, 805), label, font=self.fonts.regular, fontsize=9)
                if self.chapter:
                    units = self.wrap(self.chapter, self.fonts.italic, 8, RIGHT - LEFT)[0]
                    self.write_line(units, self.fonts.italic, 8, y=48)
            self.writer.write_text(self.page)
        self.page, self.writer = None, None

    def advance(self, height: float) -> None:
        self.y += height
        if self.y > BOTTOM:
            raise CorpusError(f"{self.doc.name}: page {self.pdf.page_count} overflows; shorten it or add a page break")

    def fill(self, make_paragraph) -> None:
        """Paragraphs from make_paragraph() until the next one would not fit on the page."""
        while True:
            text = make_paragraph()
            lines = len(self.wrap(text, self.fonts.regular, BODY_SIZE, RIGHT - LEFT))
            if self.y + lines * LEADING + 6 > BOTTOM:
                return
            self.paragraph(text)

    def paragraph(self, text: str) -> None:
        for units in self.wrap(text, self.fonts.regular, BODY_SIZE, RIGHT - LEFT):
            self.advance(LEADING)
            self.write_line(units, self.fonts.regular, BODY_SIZE)
        self.advance(6)

    def heading(self, heading: Heading) -> None:
        size = HEADING_SIZE[min(heading.level, 3)]
        self.placed[heading.number] = self.pdf.page_count
        if heading.level == 1:
            self.chapter = f"{heading.number} {heading.title}".replace("`", "")
        self.advance(size * (1.2 if self.y > TOP else 0.4))
        gap = size * 0.8
        number_width = text_width(self.fonts.bold, heading.number, size) + gap
        lines = self.wrap(heading.title, self.fonts.bold, size, RIGHT - LEFT - number_width)
        self.advance(size * 1.25)
        if self.rtl:
            self.writer.append((RIGHT - number_width + gap, self.y), heading.number, font=self.fonts.bold,
                               fontsize=size)
        else:
            self.writer.append((LEFT, self.y), heading.number, font=self.fonts.bold, fontsize=size)
        for index, units in enumerate(lines):
            if index:
                self.advance(size * 1.25)
            if self.rtl:  # a space after the number in reading order (XeTeX writes none)
                self.write_line(units, self.fonts.bold, size, x=RIGHT - number_width + text_width(
                    self.fonts.bold, " ", size) * (not self.doc.xetex), lead="" if self.doc.xetex else " ")
            else:
                self.write_line(units, self.fonts.bold, size, x=LEFT + number_width)
        self.advance(size * 0.5)

    def title_page(self) -> None:
        self.new_page()
        self.y = 250
        for units in self.wrap(self.doc.title, self.fonts.bold, 24, RIGHT - LEFT):
            self.write_line(units, self.fonts.bold, 24)
            self.y += 32
        for units in self.wrap(self.doc.subtitle, self.fonts.regular, 12, RIGHT - LEFT):
            self.y += 18
            self.write_line(units, self.fonts.regular, 12)
        self.finish_page(number=False)

    def contents_page(self) -> None:
        self.new_page()
        self.advance(20)
        self.write_line(self.wrap(CONTENTS_WORD[self.doc.lang], self.fonts.bold, 16, RIGHT - LEFT)[0],
                        self.fonts.bold, 16)
        self.advance(14)
        for heading in self.doc.headings:
            self.advance(15)
            indent = 14.0 * (heading.level - 1)
            entry = f"{heading.number} {heading.title}"
            units = self.wrap(entry, self.fonts.regular, 10, RIGHT - LEFT - 60 - indent)[0]
            if self.rtl:
                self.write_line(units, self.fonts.regular, 10, x=RIGHT - indent)
                self.writer.append((LEFT, self.y), str(heading.page), font=self.fonts.regular, fontsize=10)
            else:
                self.write_line(units, self.fonts.regular, 10, x=LEFT + indent)
                self.writer.append((RIGHT - 15, self.y), str(heading.page), font=self.fonts.regular, fontsize=10)
        self.finish_page()


def typeset(doc: Doc, path: Path) -> Path:
    """Write the document's PDF (title page, contents, body pages, named-destination outline)."""
    if not doc.pages:
        parse(doc)
    pdf = pymupdf.open()
    setter = Typesetter(doc, pdf)
    setter.title_page()
    if doc.contents:
        setter.contents_page()
    rng = random.Random(zlib.crc32(doc.name.encode()) + 1)
    titles = [h.title.replace("`", "") for h in doc.headings]
    for blocks, filler in zip(doc.pages, doc.filler_after, strict=False):
        setter.new_page()
        for block in blocks:
            if block.heading is not None:
                setter.heading(block.heading)
            else:
                setter.paragraph(block.text)
        for _ in range(filler):
            setter.new_page()
            setter.fill(lambda: filler_paragraph(doc.lang, titles, rng))
    setter.finish_page()
    for heading in doc.headings:
        if not setter.placed.get(heading.number) == heading.page:
            raise CorpusError(f"{doc.name}: heading {heading.number} is on page {setter.placed.get(heading.number)}")
    write_outline(pdf, doc)
    pdf.set_metadata({"title": doc.title, "creator": "LaTeX with hyperref" if not doc.xetex else "XeLaTeX",
                      "producer": "pdfTeX-1.40.25" if not doc.xetex else "xdvipdfmx (20220710)"})
    pdf.save(path, garbage=1, deflate=True)
    return path


def write_outline(pdf: pymupdf.Document, doc: Doc) -> None:
    """An outline the way pdfTeX/hyperref writes it: every entry a GoTo to a named destination
    ("section.1.2"); the catalog's /Names /Dests tree maps each name to [page /XYZ left top zoom]
    with the top of the page (y = 0 in page coordinates) or no top at all (null), either directly
    or inside a dictionary's /D."""
    pdf.set_toc([[h.level, doc.outline_title(h).replace("`", ""), h.page] for h in doc.headings])
    xrefs = pdf.get_outline_xrefs()
    if len(xrefs) != len(doc.headings):
        raise CorpusError(f"{doc.name}: {len(xrefs)} outline items for {len(doc.headings)} headings")
    names = []
    for index, (xref, heading) in enumerate(zip(xrefs, doc.headings, strict=False)):
        name = f"section.{heading.number}"
        pdf.xref_set_key(xref, "A", f"<</S/GoTo/D({name})>>")
        top = "null" if index % 3 == 2 else f"{PAGE_H:.0f}"
        array = f"[{pdf.page_xref(heading.page - 1)} 0 R/XYZ {'null' if top == 'null' else '0'} {top} null]"
        value = pdf.get_new_xref()
        pdf.update_object(value, f"<</D{array}>>" if index % 3 == 1 else array)
        names.append((name, f"{value} 0 R"))
    tree = pdf.get_new_xref()
    pdf.update_object(tree, "<</Names[" + " ".join(f"({n}) {v}" for n, v in sorted(names)) + "]>>")
    pdf.xref_set_key(pdf.pdf_catalog(), "Names", f"<</Dests {tree} 0 R>>")


def all_documents() -> list[Doc]:
    """Every document of the corpus, parsed (fresh objects on every call)."""
    from bench import relevance_corpus_cjkarab, relevance_corpus_cyrgreek, relevance_corpus_latin

    docs = [*relevance_corpus_latin.documents(), *relevance_corpus_cyrgreek.documents(),
            *relevance_corpus_cjkarab.documents()]
    names = [d.name for d in docs]
    if len(set(names)) != len(names):
        raise CorpusError("duplicate document names")
    return [parse(d) for d in docs]
