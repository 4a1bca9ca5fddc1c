"""Long, real-looking documents with plain-language questions, for judging whether hybrid (`auto`)
search ranks a paraphrased question at least as well as keyword search does.

The relevance corpus (bench/relevance_corpus*.py) puts short written pages between filler pages.
Real documents differ, and this corpus imitates them: 60 to 300 pages each, pages full of text (a
full page holds 400 to 700 words, 700 to 1,300 characters in Chinese and Japanese; the means per
document are 410 to 550 words, Russian and German pages being the sparsest), the same domain terms
on dozens of pages, code listings and command references, numeric tables on many pages, numbered clauses
with cross-references, bibliographies, an index at the back of a manual, running heads, page
numbers, a contents list and an outline (set_toc). Thirteen documents in four scripts:

  latin     English software manual, English thesis, German insurance terms, French annual report
  cyrillic  Russian administration manual, Russian procurement regulation, Russian pump test report
  cjk       Chinese gateway manual, Chinese thesis, Japanese water-quality test report
  arabic    Arabic HR regulation, Arabic annual report, Arabic groundwater thesis

Each document is a DocSpec in a language module (bench/hybrid_corpus_en.py, _de, _fr, _ru, _zh,
_ja, _ar): its chapters, the vocabulary its generator draws on (slot lists: the terms, commands,
options, parties, line items of that document, each recurring on many pages), sentence, list, code,
table and reference templates, and the hand-written target passages with their questions:

    @ 3 | Excluding files            a target in chapter 3 under its own section heading
    @ 3 |                            ... or inside one of chapter 3's generated sections
    Prose lines ...                  consecutive lines are one paragraph, a blank line ends it;
                                     `code` is set in monospace, **bold** in bold
    $ tide exclude add '*.tmp'       a code line (consecutive ones are one listing)
    - an item / 1. a step            a bulleted item / a numbered step
    p: how do I ... => answer note   a paraphrase question and a short note of its answer
    k: exclude add pattern           a known-item query (words remembered from the page)
    ---                              ends the target

Questions were written with the target passages, before any ranking was run, and no pdfdesk
search has been run on this corpus while writing it. A paraphrase is how a user who has not read
the page would ask (own words, few shared with the page); a known-item query is 3-5 words from the
page (in Chinese and Japanese 2-3 runs of characters, each a few words long). Every target page holds exactly one target passage; the generator never writes a target's
answer anywhere else, and check() proves both with plain pymupdf text extraction (not pdfdesk):
a known-item query's words are all on its page and on no other page of its document; a
paraphrase's answer note is on its page and on no other page.

Around the targets the generator writes the rest of the document from the DocSpec's templates with
fixed seeds (random.Random(crc32(doc id))), so the PDFs are the same bytes on every run (about 10 s
for the 1,675 pages on one core). build_corpus() caches them in its folder with a manifest
(hybrid_corpus.json: pages, questions, and for the checks each question's answer note and written
passage) and writes them again only when a bench/hybrid_corpus*.py file or PyMuPDF changed.

Pages are written as raw content streams into a template PDF whose fonts are installed once per
typeface: base-14 Helvetica/Times/Courier for Latin; condensed DejaVu subsets for Cyrillic; DejaVu
Sans for Arabic, shaped into presentation forms (lam-alef ligatures) and laid out right to left in
runs, numbers and Latin words left to right, tables mirrored; non-embedded Adobe CJK fonts for
Chinese and Japanese, with ASCII runs in Helvetica.

    python bench/hybrid_corpus.py [FOLDER]        build (cached), print figures, run the checks
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import sys
import time
import unicodedata
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402 - after the repository root is on the path, for the language modules

GENERATOR = "hybrid-corpus-1"
MANIFEST = "hybrid_corpus.json"
SCRIPT_OF = {"en": "latin", "de": "latin", "fr": "latin", "ru": "cyrillic", "zh": "cjk", "ja": "cjk",
             "ar": "arabic"}
SCRIPTS = ("latin", "cyrillic", "cjk", "arabic")
KINDS = ("manual", "report", "contract", "paper")


@dataclass(frozen=True)
class Question:
    text: str          # the question as a user types it, in their own words (not the page's wording)
    kind: str          # "paraphrase" (own words) or "known" (words remembered from the page)
    doc: str           # document id
    page: int          # the 1-based page that answers it
    script: str        # "latin" | "cyrillic" | "cjk" | "arabic"
    half: str          # "tune" | "report", a stable split by document (each document wholly in one half)


class CorpusError(ValueError):
    """A spec that cannot be laid out as written."""


# ================================================================================================
# Document specs (filled in by the language modules)


@dataclass
class TableSpec:
    """A generated table. Column cells are templates ("{host}", "{int:5:400}", "{dec:1:0.5:90}");
    a column "seq:slot" takes consecutive values of a slot list (row labels in their order); total
    adds a last row with the sums of the numeric columns (labelled `total`)."""

    caption: str
    header: list[str]
    cells: list[str]
    rows: tuple[int, int] = (5, 14)
    total: str = ""
    desc: tuple[int, ...] = ()         # columns that take a row's values in descending order (max, mean, min)


@dataclass
class DocSpec:
    id: str
    lang: str
    kind: str                          # manual | report | contract | paper
    half: str                          # tune | report
    title: str
    subtitle: str
    byline: list[str]                  # lines under the title (organisation, version, date)
    running: str                       # the running head's document title
    pages: int                         # body pages wanted
    chapters: list[str]                # "Title" or "Title|mode" (mode: text, tables, definitions, references)
    section_titles: list[str]          # templates for generated section (and subsection) titles
    slots: dict[str, list[str]]
    prose: list[str]                   # sentence templates
    targets: str
    blocks: dict[str, float] = field(default_factory=dict)   # block kind -> weight
    items: list[str] = field(default_factory=list)           # bullet item templates
    steps: list[str] = field(default_factory=list)           # procedure step templates
    lead: dict[str, list[str]] = field(default_factory=dict)  # lead-in sentences per block kind
    notes: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)            # listing templates (lines)
    tables: list[TableSpec] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)         # figure caption templates
    deflist: str = ""                  # slot whose values are "term | description"
    references: list[str] = field(default_factory=list)      # bibliography entry templates
    index_slots: tuple[str, ...] = ()  # slots whose values make the back-of-book index
    abstract: str = ""                 # a paper's abstract (page 2)
    keywords: str = ""
    style: str = "sans"                # sans | serif
    numbering: str = "decimal"         # decimal (1.2) | continuous (§ 12, Статья 12, المادة 12)
    chapter_label: str = ""            # "Chapter {n}", "第{n}章", "Teil {L}" ({L}: a letter)
    section_label: str = "{c}.{s}"     # with continuous numbering: "§ {k}" etc.
    clause_numbers: bool = False       # paragraphs of a section numbered (1), (2) ...
    clause_format: str = "({n})"       # how: {n} the paragraph's number, {sec} the section's label
    sentences: tuple[int, int] = (4, 7)
    footer: str = "{p}"                # page number format ({p}, {n}: page, pages)
    ref_label: str = ""                # how the text refers to a section ({ref}); default section_label
    citations: int = 40                # bibliography entries cited in the text ({cite})


@dataclass
class TargetSpec:
    chapter: int
    title: str
    lines: list[str]
    questions: list[tuple[str, str, str]]   # (kind, text, answer note)


# ================================================================================================
# Words per language: labels, numbers and dates

LABELS = {
    "en": {"contents": "Contents", "index": "Index", "figure": "Figure", "table": "Table", "note": "Note:",
           "total": "Total", "abstract": "Abstract", "keywords": "Keywords:", "references": "References",
           "continued": "(continued)"},
    "de": {"contents": "Inhaltsverzeichnis", "index": "Stichwortverzeichnis", "figure": "Abbildung",
           "table": "Tabelle", "note": "Hinweis:", "total": "Summe", "abstract": "Zusammenfassung",
           "keywords": "Schlagwörter:", "references": "Literatur", "continued": "(Fortsetzung)"},
    "fr": {"contents": "Sommaire", "index": "Index", "figure": "Figure", "table": "Tableau", "note": "Remarque :",
           "total": "Total", "abstract": "Résumé", "keywords": "Mots-clés :", "references": "Bibliographie",
           "continued": "(suite)"},
    "ru": {"contents": "Содержание", "index": "Предметный указатель", "figure": "Рисунок", "table": "Таблица",
           "note": "Примечание.", "total": "Итого", "abstract": "Аннотация", "keywords": "Ключевые слова:",
           "references": "Список литературы", "continued": "(продолжение)"},
    "zh": {"contents": "目录", "index": "索引", "figure": "图", "table": "表", "note": "注意：", "total": "合计",
           "abstract": "摘要", "keywords": "关键词：", "references": "参考文献", "continued": "（续）"},
    "ja": {"contents": "目次", "index": "索引", "figure": "図", "table": "表", "note": "注記：", "total": "合計",
           "abstract": "要旨", "keywords": "キーワード：", "references": "参考文献", "continued": "（続き）"},
    "ar": {"contents": "المحتويات", "index": "الفهرس", "figure": "الشكل", "table": "الجدول", "note": "ملاحظة:",
           "total": "المجموع", "abstract": "الملخص", "keywords": "الكلمات المفتاحية:", "references": "المراجع",
           "continued": "(تابع)"},
}

MONTHS = {
    "en": "January February March April May June July August September October November December".split(),
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
    "ru": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split(),
    "ar": "يناير فبراير مارس أبريل مايو يونيو يوليو أغسطس سبتمبر أكتوبر نوفمبر ديسمبر".split(),
}


def number(lang: str, value: float, decimals: int = 0) -> str:
    text = f"{value:,.{decimals}f}"
    if lang == "de":
        return text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    if lang in ("fr", "ru"):
        return text.replace(",", "\u00a0").replace(".", ",")
    return text


def date(lang: str, year: int, month: int, day: int) -> str:
    if lang in ("zh", "ja"):
        return f"{year}年{month}月{day}日"
    if lang == "de":
        return f"{day}. {MONTHS['de'][month - 1]} {year}"
    if lang == "ru":
        return f"{day} {MONTHS['ru'][month - 1]} {year} г."
    return f"{day} {MONTHS[lang][month - 1]} {year}"


# ================================================================================================
# Filling templates

_SLOT = re.compile(r"\{([a-zA-Z_]+)(?::([^{}]*))?\}")
_AN = re.compile(r"\b([Aa]) (?=[aeioAEIO])")
_LI_AL = re.compile(r"(?<!\w)لال(?=\w)")
_FRENCH = ((" à le ", " au "), (" à les ", " aux "), (" de le ", " du "), (" de les ", " des "),
           (" de Le ", " du "), ("De le ", "Du "))


class Filler:
    """Templates filled from a document's slot lists and numbers, with one random generator per
    document. Values may hold slots themselves (filled in turn)."""

    def __init__(self, doc: DocSpec, rng: random.Random) -> None:
        self.doc, self.rng, self.lang = doc, rng, doc.lang
        self.refs: list[str] = ["1"]        # section labels, for {ref}
        self.pages = 100                    # for {page}
        self.chapter = 1
        self.figure = 0
        self.table = 0
        self.citations = 40

    def numeric(self, name: str, arg: str) -> str | None:
        rng, lang = self.rng, self.lang
        parts = arg.split(":") if arg else []
        if name == "int":
            low, high = (int(p) for p in parts[:2]) if parts else (2, 60)
            return number(lang, rng.randint(low, high))
        if name == "num":
            low, high = (int(p) for p in parts[:2]) if parts else (2, 60)
            return str(rng.randint(low, high))
        if name == "dec":
            decimals, low, high = int(parts[0]), float(parts[1]), float(parts[2])
            return number(lang, rng.uniform(low, high), decimals)
        if name == "pct":
            low, high = (float(p) for p in parts[:2]) if parts else (0.5, 40.0)
            return number(lang, rng.uniform(low, high), 1)
        if name == "year":
            low, high = (int(p) for p in parts[:2]) if parts else (2012, 2023)
            return str(rng.randint(low, high))
        if name == "date":
            low, high = (int(p) for p in parts[:2]) if parts else (2019, 2024)
            return date(lang, rng.randint(low, high), rng.randint(1, 12), rng.randint(1, 28))
        if name == "ver":
            return f"{rng.randint(1, 5)}.{rng.randint(0, 12)}"
        if name == "ref":
            return rng.choice(self.refs)
        if name == "page":
            return str(rng.randint(3, self.pages))
        if name == "cite":
            first = rng.randint(1, self.citations)
            return f"[{first}]" if rng.random() < 0.7 else f"[{first}, {rng.randint(1, self.citations)}]"
        if name == "fig":
            return f"{self.chapter}.{max(self.figure, 1)}"
        if name == "tab":
            return f"{self.chapter}.{max(self.table, 1)}"
        if name == "hex":
            return "".join(rng.choice("0123456789abcdef") for _ in range(int(parts[0]) if parts else 8))
        if name == "ip":
            return f"10.{rng.randint(0, 40)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}"
        if name == "time":
            return f"{rng.randint(0, 23):02d}:{rng.choice(('00', '15', '30', '45'))}"
        return None

    def fill(self, template: str, depth: int = 0) -> str:
        """The template with its slots filled; a slot drawn twice in one template gets two
        different values where it can."""
        used: set[str] = set()

        def draw(values: list[str]) -> str:
            for _ in range(6):
                value = self.rng.choice(values)
                if value not in used:
                    break
            used.add(value)
            return value

        def one(match: re.Match[str]) -> str:
            name, arg = match.group(1), match.group(2) or ""
            found = self.numeric(name, arg)
            if found is not None:
                return found
            values = self.doc.slots.get(name)
            if not values and name[0].isupper() and self.doc.slots.get(name.lower()):
                value = self.fill(draw(self.doc.slots[name.lower()]), depth + 1)
                return value[0].upper() + value[1:]
            if not values:
                raise CorpusError(f"{self.doc.id}: no slot {name!r} for {template!r}")
            value = draw(values)
            if arg.isdigit():  # {job:18}: padded to 18 characters, for listings
                value = self.fill(value, depth + 1).ljust(int(arg))
            return value

        text = _SLOT.sub(one, template)
        if depth < 3 and "{" in text:
            return self.fill(text, depth + 1)
        if depth == 0:
            if self.lang == "en":
                text = _AN.sub(r"\1n ", text)
            elif self.lang == "fr":
                for plain, contracted in _FRENCH:
                    text = text.replace(plain, contracted)
            elif self.lang == "ar":  # the preposition li- before the article: ل + الـ is written لل
                text = _LI_AL.sub("لل", text)
        return text

    def choice(self, templates: list[str]) -> str:
        return self.fill(self.rng.choice(templates))


# ================================================================================================
# Fonts and the page writer

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/")
PAGE_W, PAGE_H = 595.0, 842.0
LEFT, RIGHT, TOP, BOTTOM = 68.0, 527.0, 78.0, 774.0
WIDTH = RIGHT - LEFT
_SUBSET_RANGES = ((0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x2044), (0x20AC, 0x20AC), (0x2116, 0x2116),
                  (0x2190, 0x2193), (0x2212, 0x2212), (0x2264, 0x2265), (0x0400, 0x045F), (0x0600, 0x06FF),
                  (0xFB50, 0xFDFF), (0xFE70, 0xFEFF), (0x25A0, 0x25CF))


class Face:
    """One font as written: its resource name, how text is encoded for it (WinAnsi bytes, UTF-16
    for the CJK CMaps, glyph ids for Identity-H) and advances (per character and per word, cached)."""

    def __init__(self, resource: str, kind: str, source: str) -> None:
        self.resource, self.kind, self.source = resource, kind, source
        self.font: pymupdf.Font | None = None
        if kind == "base14":
            self.font = pymupdf.Font(source)
        elif kind == "ttf":
            self.buffer = (DEJAVU / source).read_bytes()
            self.font = pymupdf.Font(fontbuffer=self.buffer)
        self._advance: dict[str, float] = {}
        self._words: dict[str, float] = {}
        self._gids: dict[int, str] = {}

    def width(self, text: str) -> float:
        found = self._words.get(text)
        if found is not None:
            return found
        if self.font is None:  # CJK CID fonts: a full em per character, half for ASCII (their /W)
            total = sum(0.5 if char < "\x80" else 1.0 for char in text)
        else:
            advance = self._advance
            total = 0.0
            for char in text:
                one = advance.get(char)
                if one is None:
                    one = advance[char] = self.font.text_length(char, 1.0)
                total += one
        if len(self._words) < 200_000:
            self._words[text] = total
        return total

    def encode(self, text: str) -> str:
        if self.kind == "base14":
            return text.encode("cp1252", "replace").hex()
        if self.kind == "cid":
            return text.encode("utf-16-be").hex()
        missing = {ord(char) for char in text} - self._gids.keys()
        for code in missing:
            self._gids[code] = f"{self.font.has_glyph(code):04x}"
        return text.translate(self._gids)


ROLES = ("regular", "bold", "italic", "mono")


class Typeface:
    """A language's faces (regular, bold, italic, mono) and the template PDF that has them installed."""

    def __init__(self, lang: str, style: str) -> None:
        script = SCRIPT_OF[lang]
        self.rtl, self.cjk = script == "arabic", script == "cjk"
        if script == "latin":
            names = ("tiro", "tibo", "tiit", "cour") if style == "serif" else ("helv", "hebo", "heit", "cour")
            self.faces = {role: Face(name, "base14", name) for role, name in zip(ROLES, names, strict=True)}
        elif self.cjk:
            cid = Face("china-s" if lang == "zh" else "japan", "cid", "china-s" if lang == "zh" else "japan")
            # ASCII runs in Helvetica: the CID font's Latin glyphs are proportional, not half-width
            self.faces = {"regular": cid, "bold": cid, "italic": cid, "mono": Face("cour", "base14", "cour"),
                          "latin": Face("helv", "base14", "helv"), "latinbold": Face("hebo", "base14", "hebo")}
        else:
            serif = style == "serif" and script == "cyrillic"
            # Cyrillic in the condensed faces: Russian words are long, and a page should still hold
            # some 400-700 of them, as a page of a Russian document set in Times does
            files = (("DejaVuSerifCondensed.ttf", "DejaVuSerifCondensed-Bold.ttf", "DejaVuSerifCondensed-Italic.ttf")
                     if serif else ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf",
                                    "DejaVuSansCondensed-Oblique.ttf") if script == "cyrillic" else
                     ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans.ttf"))
            faces = {}
            for index, (role, source) in enumerate(zip(ROLES, (*files, "DejaVuSansMono.ttf"), strict=True)):
                same = [face for face in faces.values() if face.source == source]
                faces[role] = same[0] if same else Face(f"F{index + 1}", "ttf", source)
            self.faces = faces
        self.template, self.resources = self._template()

    def _template(self) -> tuple[bytes, str]:
        pdf = pymupdf.open()
        page = pdf.new_page(width=PAGE_W, height=PAGE_H)
        ops = []
        seen: set[str] = set()
        for face in self.faces.values():
            if face.resource in seen:
                continue
            seen.add(face.resource)
            if face.kind == "base14":
                page.insert_font(fontname=face.resource)
            elif face.kind == "cid":
                xref = page.insert_font(fontname=face.resource)
                descendant = int(pdf.xref_get_key(xref, "DescendantFonts")[1].strip("[] ").split()[0])
                pdf.xref_set_key(descendant, "W", "[1 95 500]")  # half-width ASCII, as Face.width has it
            else:
                page.insert_font(fontname=face.resource, fontbuffer=face.buffer)
                chars = "".join(chr(c) for low, high in _SUBSET_RANGES for c in range(low, high + 1)
                                if face.font.has_glyph(c))
                ops.append(f"BT /{face.resource} 1 Tf 0 0 Td <{face.encode(chars)}> Tj ET")
        contents = pdf.get_new_xref()
        pdf.update_object(contents, "<<>>")
        pdf.update_stream(contents, "\n".join(ops).encode())
        pdf.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
        if ops:
            pdf.subset_fonts()
        pdf.update_stream(contents, b"")
        resources = pdf.xref_get_key(page.xref, "Resources")[1]
        return pdf.tobytes(garbage=1, deflate=True, no_new_id=True), resources


_TYPEFACES: dict[tuple[str, str], Typeface] = {}


def typeface(lang: str, style: str) -> Typeface:
    key = (lang, style if SCRIPT_OF[lang] in ("latin", "cyrillic") else "")
    if key not in _TYPEFACES:
        _TYPEFACES[key] = Typeface(*key)
    return _TYPEFACES[key]


# ------------------------------------------------------------------------------------------------
# Arabic shaping: letters to their contextual presentation forms (lam-alef ligatures included)

_LAM_ALEF = {"\u0627": ("\ufefb", "\ufefc"), "\u0623": ("\ufef7", "\ufef8"), "\u0625": ("\ufef9", "\ufefa"),
             "\u0622": ("\ufef5", "\ufef6")}
_FORMS: dict[str, dict[str, str]] = {}


def _forms(char: str) -> dict[str, str]:
    found = _FORMS.get(char)
    if found is None:
        found = {}
        name = unicodedata.name(char, "")
        if name.startswith("ARABIC LETTER"):
            for form in ("ISOLATED", "FINAL", "INITIAL", "MEDIAL"):
                try:
                    found[form] = unicodedata.lookup(f"{name} {form} FORM")
                except KeyError:
                    pass
        _FORMS[char] = found
    return found


def shape(text: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        forms = _forms(char)
        if not forms:
            out.append(char)
            i += 1
            continue
        previous = text[i - 1] if i else ""
        joins_previous = bool(previous) and "INITIAL" in _forms(previous) and "FINAL" in forms
        if char == "\u0644" and i + 1 < len(text) and text[i + 1] in _LAM_ALEF:
            isolated, final = _LAM_ALEF[text[i + 1]]
            out.append(final if joins_previous else isolated)
            i += 2
            continue
        following = text[i + 1] if i + 1 < len(text) else ""
        joins_next = "INITIAL" in forms and bool(following) and "FINAL" in _forms(following)
        form = {(True, True): "MEDIAL", (True, False): "FINAL", (False, True): "INITIAL",
                (False, False): "ISOLATED"}[(joins_previous, joins_next)]
        out.append(forms.get(form) or forms["ISOLATED"])
        i += 1
    return "".join(out)


_SHAPED: dict[str, str] = {}
_LTR = re.compile(r"[A-Za-z0-9][A-Za-z0-9.,:%/+\-_=#@~'*]*(?: +[A-Za-z0-9][A-Za-z0-9.,:%/+\-_=#@~'*]*)*")
_MIRROR = str.maketrans("()[]«»", ")(][»«")


def shaped(word: str) -> str:
    found = _SHAPED.get(word)
    if found is None:
        found = _SHAPED[word] = shape(word)
    return found


def has_arabic(text: str) -> bool:
    return any("\u0600" <= c <= "\u06ff" for c in text)


# ------------------------------------------------------------------------------------------------
# Words, lines and the writer

@dataclass
class Word:
    text: str
    role: str = "regular"
    space: bool = True      # a space follows it in the source


_CJK_UNIT = re.compile(r"[A-Za-z0-9][A-Za-z0-9.,:%/+\-_=#@~'*]*|\S")
_NO_LINE_START = set("，。、；：？！）」』】》”’・ー…％,.;:?!)%")
_MARKUP = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*")
_NONSPACE = re.compile(r"\S+")
_ASCII_RUNS = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]+")


def words(text: str, cjk: bool, role: str = "regular") -> list[Word]:
    """A text's words with their roles (`code` mono, **bold** bold) and whether a space follows
    each in the source; CJK text by character (ASCII words whole). A code span is one word."""
    found: list[Word] = []
    pattern = _CJK_UNIT if cjk else _NONSPACE

    def spaced(end: int) -> bool:
        return end < len(text) and text[end].isspace()

    def plain(start: int, end: int, role: str) -> None:
        found.extend(Word(piece.group(), role, spaced(piece.end())) for piece in pattern.finditer(text, start, end))

    position = 0
    for match in _MARKUP.finditer(text):
        plain(position, match.start(), role)
        if match.group(1) is not None:
            found.append(Word(match.group(1), "mono", spaced(match.end())))
        else:
            plain(match.start(2), match.end(2), "bold")
            if found:
                found[-1].space = spaced(match.end())
        position = match.end()
    plain(position, len(text), role)
    return found


class Page:
    def __init__(self, chapter: str) -> None:
        self.ops: list[str] = []
        self.under: list[str] = []   # drawn first
        self.text: list[str] = []
        self.chapter = chapter
        self.target = False
        self.body = True


class Writer:
    """Pages as content-stream operators, line by line."""

    def __init__(self, doc: DocSpec) -> None:
        self.doc = doc
        self.face = typeface(doc.lang, doc.style)
        self.faces = self.face.faces
        self.rtl, self.cjk = self.face.rtl, self.face.cjk
        self.pages: list[Page] = []
        self.page: Page | None = None

    # measuring ---------------------------------------------------------------------------------
    def face_of(self, role: str, text: str) -> Face:
        """The face a run is set in: CJK documents set ASCII runs in Helvetica."""
        if self.cjk and role != "mono" and text.isascii():
            return self.faces["latinbold" if role == "bold" else "latin"]
        return self.faces[role]

    def advance(self, word: Word, size: float) -> float:
        face = self.face_of(word.role, word.text)
        text = shaped(word.text) if self.rtl and word.role != "mono" else word.text
        extra = 0.0
        if self.rtl and word.role != "mono" and _LTR.search(text):
            extra = 2 * face.width(" ")  # an LTR run in Arabic text is set with a space either side
        return (face.width(text) + extra + (face.width(" ") if word.space else 0.0)) * size

    def wrap(self, items: list[Word], size: float, width: float) -> list[list[Word]]:
        lines: list[list[Word]] = []
        current: list[Word] = []
        used = 0.0
        for word in items:
            advance = self.advance(word, size)
            if current and used + advance - (self.face_of(word.role, " ").width(" ") * size if word.space else 0) > width \
                    and not (self.cjk and word.text in _NO_LINE_START):
                lines.append(current)
                current, used = [], 0.0
            current.append(word)
            used += advance
        return lines + ([current] if current else [])

    def text_width(self, text: str, size: float, role: str = "regular") -> float:
        return sum(self.advance(w, size) for w in words(text, self.cjk, role))

    # drawing -----------------------------------------------------------------------------------
    def put(self, role: str, size: float, x: float, y: float, text: str) -> None:
        if self.cjk and role != "mono":  # ASCII and CJK runs in their faces
            for run in _ASCII_RUNS.findall(text):
                face = self.face_of(role, run)
                self.page.ops.append(f"BT /{face.resource} {size:g} Tf {x:.2f} {PAGE_H - y:.2f} Td "
                                     f"<{face.encode(run)}> Tj ET")
                x += face.width(run) * size
            return
        face = self.faces[role]
        self.page.ops.append(f"BT /{face.resource} {size:g} Tf {x:.2f} {PAGE_H - y:.2f} Td <{face.encode(text)}> Tj ET")

    def rule(self, x0: float, y: float, x1: float, width: float = 0.5, grey: float = 0.0) -> None:
        self.page.ops.append(f"{grey:g} G {width:g} w {x0:.2f} {PAGE_H - y:.2f} m {x1:.2f} {PAGE_H - y:.2f} l S 0 G")

    def box(self, x0: float, y0: float, x1: float, y1: float, grey: float, under: bool = False) -> None:
        """A filled rectangle; under: behind everything else on the page (a listing's background,
        which must not cover the underscores of the line above)."""
        op = f"{grey:g} g {x0:.2f} {PAGE_H - y1:.2f} {x1 - x0:.2f} {y1 - y0:.2f} re f 0 g"
        (self.page.under if under else self.page.ops).append(op)

    def line(self, items: list[Word], size: float, y: float, x: float = LEFT, width: float = WIDTH,
             align: str = "start", record: bool = True) -> None:
        """One line of words; x and width describe the box in left-to-right terms; for Arabic
        script "start" is the right edge and the words are set right to left."""
        if not items:
            return
        if record:
            self.page.text.append(self.logical(items))
        runs: list[tuple[str, str]] = []
        for index, word in enumerate(items):
            piece = word.text + (" " if word.space and index < len(items) - 1 else "")
            if runs and runs[-1][0] == word.role:
                runs[-1] = (word.role, runs[-1][1] + piece)
            else:
                runs.append((word.role, piece))
        if not self.rtl or not any(has_arabic(w.text) for w in items):
            total = sum(self.run_width(role, text) for role, text in runs) * size
            if self.rtl:  # an Arabic-script document: "start" is the right edge
                align = {"start": "end", "end": "start"}.get(align, align)
            left = x if align == "start" else x + width - total if align == "end" else x + (width - total) / 2
            for role, text in runs:
                self.put(role, size, left, y, text)
                left += self.run_width(role, text) * size
            return
        pieces: list[tuple[str, str]] = []  # (role, text as drawn left to right), in right-to-left order
        for role, text in runs:
            if role == "mono":
                pieces.append((role, f" {text.strip()} "))
                continue
            form = " ".join(shaped(part) for part in text.split(" "))
            position = 0
            for match in _LTR.finditer(form):
                if match.start() > position:
                    pieces.append((role, form[position:match.start()][::-1].translate(_MIRROR)))
                pieces.append((role, f" {match.group()} "))
                position = match.end()
            if position < len(form):
                pieces.append((role, form[position:][::-1].translate(_MIRROR)))
        total = sum(self.faces[role].width(text) for role, text in pieces) * size
        right = x + width if align == "start" else x + total if align == "end" else x + (width + total) / 2
        for role, text in pieces:
            w = self.faces[role].width(text) * size
            right -= w
            self.put(role, size, right, y, text)

    def run_width(self, role: str, text: str) -> float:
        if self.cjk and role != "mono":
            return sum(self.face_of(role, run).width(run) for run in _ASCII_RUNS.findall(text))
        return self.faces[role].width(text)

    def logical(self, items: list[Word]) -> str:
        return "".join(w.text + (" " if w.space else "") for w in items).strip()

    def plain(self, text: str, size: float, y: float, role: str = "regular", x: float = LEFT,
              width: float = WIDTH, align: str = "start", record: bool = True) -> None:
        self.line(words(text, self.cjk, role), size, y, x, width, align, record)

    # pages -------------------------------------------------------------------------------------
    def new_page(self, chapter: str = "", body: bool = True) -> Page:
        self.page = Page(chapter)
        self.page.body = body
        self.pages.append(self.page)
        return self.page

    def save(self, path: Path, title: str) -> None:
        pdf = pymupdf.open("pdf", self.face.template)
        for number, page in enumerate(self.pages):
            pdf_page = pdf[0] if number == 0 else pdf.new_page(width=PAGE_W, height=PAGE_H)
            if number:
                pdf.xref_set_key(pdf_page.xref, "Resources", self.face.resources)
            xref = pdf.get_new_xref()
            pdf.update_object(xref, "<<>>")
            pdf.update_stream(xref, "\n".join(page.under + page.ops).encode())
            pdf.xref_set_key(pdf_page.xref, "Contents", f"{xref} 0 R")
        self.pdf = pdf


# ================================================================================================
# Blocks: rows laid out on pages

@dataclass
class Row:
    height: float
    draw: Callable[[float], None]     # draws the row with its top at y


@dataclass
class Block:
    rows: list[Row]
    keep: bool = False
    gap: float = 6.0
    target: bool = False

    @property
    def height(self) -> float:
        return sum(r.height for r in self.rows) + self.gap


BODY, LEAD = 10.0, 13.2
CJK_BODY, CJK_LEAD = 10.5, 18.0
CODE, CODE_LEAD = 8.6, 10.6


@dataclass
class Section:
    label: str
    title: str
    level: int
    chapter: int
    weight: float = 1.0
    target: TargetSpec | None = None
    page: int = 0
    end_page: int = 0


@dataclass
class Chapter:
    label: str
    title: str
    mode: str
    sections: list[Section]
    page: int = 0
    pages: float = 0.0


class Layout:
    """A document written page by page: blocks of rows flow down the page (paragraphs, long tables
    and listings break across pages; targets, short tables and listings are kept together;
    headings are kept with what follows them)."""

    def __init__(self, doc: DocSpec) -> None:
        self.doc = doc
        self.rng = random.Random(zlib.crc32(doc.id.encode()))
        self.fill = Filler(doc, self.rng)
        self.fill.citations = doc.citations
        self.clause = 0
        self.section_label = ""
        self.recent: list[int] = []
        self.w = Writer(doc)
        self.cjk, self.rtl = self.w.cjk, self.w.rtl
        if self.cjk:
            self.size, self.lead = CJK_BODY, CJK_LEAD
        elif SCRIPT_OF[doc.lang] == "cyrillic":
            self.size, self.lead = (9.8, 12.9) if doc.style == "serif" else (9.4, 12.4)
        else:
            self.size, self.lead = (10.6, 14.0) if doc.style == "serif" else (BODY, LEAD)
        self.y = TOP
        self.chapter_title = ""
        self.pending: list[Row] = []      # a heading waiting for the block it goes with
        self.toc: list[list] = []
        self.target_pages: dict[int, int] = {}  # target index -> page
        self.labels = LABELS[doc.lang]
        self.joiner = "" if self.cjk else " "

    # page flow ---------------------------------------------------------------------------------
    @property
    def number(self) -> int:
        return len(self.w.pages)

    def new_page(self, body: bool = True) -> None:
        self.w.new_page(self.chapter_title, body)
        self.y = TOP

    def room(self) -> float:
        return BOTTOM - self.y

    def place(self, block: Block) -> None:
        if block.keep and not block.target and self.y > TOP and self.room() > 9 * self.lead and \
                sum(r.height for r in self.pending + block.rows) > self.room():
            self.place(self.prose_block())  # text first, so that the page is full, then the kept block
        rows = self.pending + block.rows
        head = sum(r.height for r in self.pending)
        self.pending = []
        need = head + sum(r.height for r in (block.rows if block.keep else block.rows[:3]))
        if need > self.room() and self.y > TOP:
            self.new_page()
        if block.target:
            self.w.page.target = True
        for row in rows:
            if self.y + row.height > BOTTOM and self.y > TOP:
                self.new_page()
            row.draw(self.y)
            self.y += row.height
        self.y += block.gap

    # row makers --------------------------------------------------------------------------------
    def text_rows(self, text: str, size: float | None = None, lead: float | None = None, role: str = "regular",
                  indent: float = 0.0, hang: str = "", hang_role: str = "regular") -> list[Row]:
        size, lead = size or self.size, lead or self.lead
        items = words(text, self.cjk, role)
        hang_width = self.w.text_width(hang + " ", size, hang_role) if hang else 0.0
        width = WIDTH - indent - hang_width
        lines = self.w.wrap(items, size, width)
        rows = []
        for index, line in enumerate(lines):
            def draw(y: float, line: list[Word] = line, first: bool = index == 0) -> None:
                base = y + size
                if self.rtl:
                    if first and hang:
                        self.w.plain(hang, size, base, hang_role, x=RIGHT - indent - hang_width, width=hang_width)
                    self.w.line(line, size, base, x=LEFT, width=WIDTH - indent - hang_width)
                else:
                    if first and hang:
                        self.w.plain(hang, size, base, hang_role, x=LEFT + indent)
                    self.w.line(line, size, base, x=LEFT + indent + hang_width, width=width)
            rows.append(Row(lead, draw))
        return rows

    def paragraph(self, text: str, hang: str = "", indent: float = 0.0, keep: bool = False) -> Block:
        return Block(self.text_rows(text, indent=indent, hang=hang), keep=keep, gap=self.lead * 0.45)

    def heading_rows(self, label: str, title: str, level: int) -> list[Row]:
        size = {1: 17.0, 2: 12.5, 3: 10.8}[level]
        gap_before = {1: 6.0, 2: 12.0, 3: 8.0}[level]
        text = f"{label} {title}".strip() if label else title
        lines = self.w.wrap(words(text, self.cjk, "bold"), size, WIDTH)
        rows = [Row(gap_before, lambda y: None)]
        rows.extend(Row(size * 1.3, lambda y, line=line, size=size: self.w.line(line, size, y + size)) for line in lines)
        rows.append(Row(size * 0.5 if level > 1 else 14.0, lambda y: None))
        return rows

    def heading(self, section: Section) -> None:
        """A heading, kept with the block after it; its outline entry points at its page."""
        rows = self.heading_rows(section.label, section.title, section.level)
        if section.level == 1:
            self.pending = []
            return
        first = rows[0]

        def mark(y: float, first: Row = first, section: Section = section) -> None:
            section.page = self.number
            self.toc.append([section.level, f"{section.label} {section.title}".strip(), self.number])
            first.draw(y)

        rows[0] = Row(first.height, mark)
        if self.y <= TOP + 1:  # no space above a heading at the top of a page
            rows[0] = Row(0.0, mark)
        self.pending = rows

    # generated blocks --------------------------------------------------------------------------
    def sentences(self, count: tuple[int, int] | None = None) -> str:
        """Sentences from the prose templates, none of the last dozen or so templates again (a
        real page does not say the same thing twice)."""
        low, high = count or self.doc.sentences
        templates = self.doc.prose
        chosen: list[str] = []
        for _ in range(self.rng.randint(low, high)):
            for _attempt in range(8):
                index = self.rng.randrange(len(templates))
                if index not in self.recent:
                    break
            self.recent.append(index)
            del self.recent[:-min(18, len(templates) * 2 // 3)]
            chosen.append(self.fill.fill(templates[index]))
        return self.joiner.join(chosen)

    def clause_hang(self) -> str:
        self.clause += 1
        return self.doc.clause_format.format(n=self.clause, sec=self.section_label) if self.doc.clause_numbers else ""

    def prose_block(self) -> Block:
        hang = self.clause_hang()
        return Block(self.text_rows(self.sentences(), hang=hang), gap=self.lead * 0.45)

    def lead_rows(self, kind: str, chance: float = 1.0) -> list[Row]:
        """An introducing sentence ("For example:"), kept with the block it introduces."""
        lead = self.doc.lead.get(kind)
        if not lead or self.rng.random() > chance:
            return []
        return [*self.text_rows(self.fill.choice(lead)), Row(self.lead * 0.35, lambda y: None)]

    def list_block(self, kind: str) -> list[Block]:
        blocks = []
        rows: list[Row] = self.lead_rows(kind)
        templates = self.doc.steps if kind == "steps" else self.doc.items
        count = self.rng.randint(3, 6)
        picked = self.rng.sample(templates, min(count, len(templates)))
        for index, template in enumerate(picked):
            mark = f"{index + 1}." if kind == "steps" else "•"
            rows += self.text_rows(self.fill.fill(template), indent=14.0, hang=mark)
            rows.append(Row(2.0, lambda y: None))
        blocks.append(Block(rows, keep=len(rows) < 18, gap=self.lead * 0.45))
        return blocks

    def note_block(self) -> Block:
        text = self.fill.choice(self.doc.notes)
        rows = self.text_rows(text, indent=12.0, hang=self.labels["note"], hang_role="bold")
        top_pad, bottom_pad = 5.0, 5.0
        height = sum(r.height for r in rows) + top_pad + bottom_pad

        def frame(y: float, height: float = height) -> None:
            self.w.box(LEFT, y, RIGHT, y + height, 0.93)
            if self.rtl:
                self.w.box(RIGHT - 2.5, y, RIGHT, y + height, 0.35)
            else:
                self.w.box(LEFT, y, LEFT + 2.5, y + height, 0.35)

        return Block([Row(top_pad, frame), *rows, Row(bottom_pad, lambda y: None)], keep=True, gap=self.lead * 0.6)

    def code_rows(self, lines: list[str]) -> list[Row]:
        rows: list[Row] = []
        mono = self.w.faces["mono"]
        limit = int((WIDTH - 16) / (mono.width("m") * CODE))
        wrapped: list[str] = []
        for line in lines:
            while len(line) > limit:
                wrapped.append(line[:limit - 1] + "\\")
                line = "    " + line[limit - 1:]
            wrapped.append(line)
        for index, line in enumerate(wrapped):
            first, last = index == 0, index == len(wrapped) - 1
            height = CODE_LEAD + (4 if first else 0) + (4 if last else 0)

            def draw(y: float, line: str = line, first: bool = first, height: float = height) -> None:
                self.w.box(LEFT, y, RIGHT, y + height, 0.95, under=True)
                if line:
                    self.w.page.text.append(line)
                    self.w.put("mono", CODE, LEFT + 8, y + (4 if first else 0) + CODE, line)

            rows.append(Row(height, draw))
        return rows

    def code_block(self) -> list[Block]:
        lines = self.fill.fill(self.rng.choice(self.doc.code)).split("\n")
        return [Block(self.lead_rows("code") + self.code_rows(lines), keep=len(lines) <= 24, gap=self.lead * 0.7)]

    def cell_value(self, cell: str, seq: list[str], row: int) -> tuple[str, float | None]:
        if cell.startswith("seq:"):
            return seq[row % len(seq)], None
        text = self.fill.fill(cell)
        value = None
        plain = text.replace("\u00a0", "").replace(" ", "")
        if re.fullmatch(r"[-+]?[\d.,]+%?", plain) and re.search(r"\d", plain):
            digits = plain.rstrip("%")
            if self.doc.lang in ("de", "fr", "ru"):
                digits = digits.replace(".", "").replace(",", ".")
            else:
                digits = digits.replace(",", "")
            try:
                value = float(digits)
            except ValueError:
                value = None
        return text, value

    def table_block(self, spec: TableSpec | None = None) -> list[Block]:
        spec = spec or self.rng.choice(self.doc.tables)
        self.fill.table += 1
        blocks = []
        lead = self.lead_rows("table", 0.6)
        count = self.rng.randint(*spec.rows)
        seq_slot = next((c[4:] for c in spec.cells if c.startswith("seq:")), "")
        seq: list[str] = []
        if seq_slot:
            values = self.doc.slots[seq_slot]
            count = min(count, len(values))
            start = self.rng.randrange(len(values) - count + 1)  # consecutive values, in their order
            seq = [self.fill.fill(values[start + i]) for i in range(count)]
            count = len(seq)
        body: list[list[str]] = []
        sums = [0.0] * len(spec.cells)
        numeric = [True] * len(spec.cells)
        for row in range(count):
            cells = []
            for column, cell in enumerate(spec.cells):
                text, value = self.cell_value(cell, seq, row)
                if value is None:
                    numeric[column] = False
                else:
                    sums[column] += value
                cells.append(text)
            if spec.desc:
                ordered = sorted(spec.desc, key=lambda col, cells=cells: -(self.cell_value(cells[col], [], 0)[1] or 0))
                texts = [cells[col] for col in ordered]
                for col, text in zip(spec.desc, texts, strict=True):
                    cells[col] = text
            body.append(cells)
        if spec.total:
            sep = "," if self.doc.lang in ("de", "fr", "ru") else "."
            decimals = []
            for col in range(len(spec.cells)):
                found = re.search(re.escape(sep) + r"(\d+)%?$", body[0][col].replace("\u00a0", "")) if body else None
                decimals.append(len(found.group(1)) if found else 0)
            summed = [numeric[col] and "pct" not in spec.cells[col] and "year" not in spec.cells[col]
                      for col in range(len(spec.cells))]
            body.append([spec.total if col == 0 else number(self.doc.lang, sums[col], decimals[col])
                         if summed[col] else "" for col in range(len(spec.cells))])
        caption = f"{self.labels['table']} {self.fill.chapter}.{self.fill.table}" + \
            ("：" if self.cjk else ": ") + self.fill.fill(spec.caption)
        rows = lead + self.text_rows(caption, size=self.size - 0.6, lead=self.lead - 1, role="bold")
        rows += self.grid_rows(spec.header, body, numeric, spec.total != "")
        blocks.append(Block(rows, keep=len(rows) <= 40, gap=self.lead * 0.8))
        return blocks

    def grid_rows(self, header: list[str], body: list[list[str]], numeric: list[bool], total: bool) -> list[Row]:
        size = self.size - 1.2
        lead = size * 1.42
        w = self.w
        columns = len(header)
        natural = [max(w.text_width(header[c], size, "bold"), *(w.text_width(r[c], size) for r in body)) + 12
                   for c in range(columns)]
        scale = min(1.0, WIDTH / sum(natural))
        if scale < 1.0:  # the first (label) column takes what is left
            others = sum(natural[1:])
            natural[0] = max(WIDTH - others, WIDTH * 0.3)
            rest = (WIDTH - natural[0]) / others
            natural = [natural[0]] + [n * rest for n in natural[1:]]
        else:
            natural[0] += WIDTH - sum(natural)
        xs = [LEFT]
        for width in natural[:-1]:
            xs.append(xs[-1] + width)
        if self.rtl:  # columns from the right edge
            xs = [RIGHT - x + LEFT - natural[i] for i, x in enumerate(xs)]
        rows: list[Row] = []

        def cells_row(cells: list[str], role: str, rule_above: float = 0.0, rule_below: float = 0.0) -> Row:
            def draw(y: float) -> None:
                if rule_above:
                    w.rule(LEFT, y + 1, RIGHT, rule_above)
                items = []
                for c, cell in enumerate(cells):
                    if not cell:
                        continue
                    align = "end" if numeric[c] and c > 0 else "start"
                    if self.rtl and align == "end":
                        align = "start"  # numbers align to the column's left edge in RTL tables
                    pad_x = xs[c] + 4
                    w.plain(cell, size, y + size + 2.5, role, x=pad_x, width=natural[c] - 8, align=align,
                            record=False)
                    items.append(cell)
                w.page.text.append(" | ".join(items))
                if rule_below:
                    w.rule(LEFT, y + lead + 0.5, RIGHT, rule_below)
            return Row(lead + (1.5 if rule_below else 0), draw)

        rows.append(cells_row(header, "bold", rule_above=0.9, rule_below=0.5))
        for index, cells in enumerate(body):
            last = index == len(body) - 1
            rows.append(cells_row(cells, "bold" if total and last else "regular",
                                  rule_above=0.5 if total and last else 0.0, rule_below=0.9 if last else 0.0))
        return rows

    def deflist_block(self) -> list[Block]:
        blocks = []
        entries = self.rng.sample(self.doc.slots[self.doc.deflist], min(self.rng.randint(3, 6),
                                                                       len(self.doc.slots[self.doc.deflist])))
        rows: list[Row] = self.lead_rows("deflist")
        for entry in entries:
            term, description = (part.strip() for part in self.fill.fill(entry).split("|", 1))
            if self.doc.kind == "manual":
                rows.append(Row(self.lead, lambda y, term=term: self.w.plain(term, self.size, y + self.size, "mono")))
                rows += self.text_rows(description, indent=22.0)
            else:
                rows += self.text_rows(f"**{term}**{'：' if self.cjk else ':'} {description}")
            rows.append(Row(3.0, lambda y: None))
        blocks.append(Block(rows, keep=len(rows) < 18, gap=self.lead * 0.5))
        return blocks

    def figure_block(self) -> Block:
        self.fill.figure += 1
        height = self.rng.choice((120.0, 140.0, 160.0))
        bars = self.rng.randint(5, 12)
        values = [self.rng.uniform(0.2, 1.0) for _ in range(bars)]
        kind = self.rng.random()

        def draw(y: float) -> None:
            x0, x1 = LEFT + 60, RIGHT - 60
            y0, y1 = y + 8, y + height - 8
            self.w.rule(x0, y1, x1, 0.7)
            self.w.page.ops.append(f"0 G 0.7 w {x0:.2f} {PAGE_H - y0:.2f} m {x0:.2f} {PAGE_H - y1:.2f} l S")
            step = (x1 - x0) / bars
            if kind < 0.5:
                for i, v in enumerate(values):
                    self.w.box(x0 + i * step + step * 0.2, y1 - v * (y1 - y0), x0 + (i + 0.8) * step, y1, 0.55)
            else:
                points = [(x0 + (i + 0.5) * step, y1 - v * (y1 - y0)) for i, v in enumerate(values)]
                path = " ".join(f"{px:.2f} {PAGE_H - py:.2f} {'m' if i == 0 else 'l'}" for i, (px, py) in enumerate(points))
                self.w.page.ops.append(f"0.2 G 1.2 w {path} S 0 G")
            for i in range(bars):
                self.w.put("regular", 6.5, x0 + (i + 0.35) * step, y1 + 8, str(i + 1))

        caption = f"{self.labels['figure']} {self.fill.chapter}.{self.fill.figure}" + \
            ("：" if self.cjk else ": ") + self.fill.choice(self.doc.figures)
        rows = [Row(height + 6, draw), *self.text_rows(caption, size=self.size - 1, lead=self.lead - 1.5,
                                                       role="italic")]
        return Block(rows, keep=True, gap=self.lead)

    def generated(self, mode: str) -> list[Block]:
        weights = dict(self.doc.blocks or {"prose": 1.0})
        if mode == "tables":
            weights = {"table": 3.0, "prose": 1.0}
        elif mode == "definitions" and self.doc.deflist:
            weights = {"deflist": 3.0, "prose": 1.0}
        kinds = list(weights)
        kind = self.rng.choices(kinds, [weights[k] for k in kinds])[0]
        if kind == "prose":
            return [self.prose_block()]
        if kind in ("steps", "items"):
            return self.list_block(kind)
        if kind == "note":
            return [self.note_block()]
        if kind == "code":
            return self.code_block()
        if kind == "table":
            return self.table_block()
        if kind == "deflist":
            return self.deflist_block()
        if kind == "figure":
            return [self.figure_block()]
        raise CorpusError(f"{self.doc.id}: unknown block kind {kind!r}")

    # targets -----------------------------------------------------------------------------------
    def target_blocks(self, target: TargetSpec) -> list[Row]:
        rows: list[Row] = []
        paragraph: list[str] = []
        code: list[str] = []
        listed: list[tuple[str, str]] = []

        def flush() -> None:
            nonlocal rows
            if paragraph:
                hang = self.clause_hang()
                rows += self.text_rows(self.joiner.join(paragraph), hang=hang)
                rows.append(Row(self.lead * 0.45, lambda y: None))
                paragraph.clear()
            if code:
                rows += self.code_rows(list(code))
                rows.append(Row(self.lead * 0.6, lambda y: None))
                code.clear()
            if listed:
                for mark, text in listed:
                    rows += self.text_rows(text, indent=14.0, hang=mark)
                    rows.append(Row(2.0, lambda y: None))
                rows.append(Row(self.lead * 0.4, lambda y: None))
                listed.clear()

        for line in target.lines:
            stripped = line.strip()
            step = re.match(r"^(\d+)\.\s+(.*)$", stripped)
            if line.startswith("$ ") or line == "$":
                if paragraph or listed:
                    flush()
                code.append(line[2:])
            elif stripped.startswith("- ") or step:
                if paragraph or code:
                    flush()
                listed.append((f"{step.group(1)}." if step else "•", step.group(2) if step else stripped[2:]))
            elif not stripped:
                flush()
            else:
                if code or listed:
                    flush()
                paragraph.append(stripped)
        flush()
        return rows

    def place_target(self, index: int, target: TargetSpec, section: Section | None) -> None:
        rows = self.target_blocks(target)
        if section is not None:
            self.heading(section)
        head = sum(r.height for r in self.pending)
        height = head + sum(r.height for r in rows)
        if height > BOTTOM - TOP - 40:
            raise CorpusError(f"{self.doc.id}: target {target.title or target.lines[0][:40]!r} is taller than a page")
        pending, self.pending = self.pending, []
        guard = 0
        while self.w.page.target or self.room() < height:  # run the text on until a page has room
            start = self.number
            while self.number == start:
                if self.room() < height and self.room() < self.lead * 3:
                    self.new_page()
                    break
                self.place(self.prose_block())
            guard += 1
            if guard > 5:
                raise CorpusError(f"{self.doc.id}: cannot place a target")
        self.pending = pending
        self.place(Block(rows, keep=True, gap=self.lead * 0.3, target=True))
        self.target_pages[index] = self.number

    # the document ------------------------------------------------------------------------------
    def plan(self, targets: list[TargetSpec]) -> list[Chapter]:
        doc, rng = self.doc, self.rng
        specs = [[*c.split("|"), "text"][:2] for c in doc.chapters]
        weights = [0.5 if mode == "references" else rng.uniform(0.7, 1.3) for _title, mode in specs]
        scale = doc.pages / sum(weights)
        chapters: list[Chapter] = []
        self.fill.refs = []
        used_titles: set[str] = set()
        k = 0
        for index, ((title, mode), weight) in enumerate(zip(specs, weights, strict=True)):
            c = index + 1
            label = doc.chapter_label.format(n=c, L="ABCDEFGHIJKLMNOPQRSTUVWXYZ"[index]) if doc.chapter_label else str(c)
            pages = weight * scale
            chapter = Chapter(label, title, mode, [], pages=pages)
            mine = [t for t in targets if t.chapter == c]
            if mode == "references":
                chapters.append(chapter)
                continue
            count = max(2, round(pages / rng.uniform(2.2, 3.6)))
            own = [t for t in mine if t.title]
            embedded = [t for t in mine if not t.title]
            count = max(count, len(embedded) + 1)
            slots: list[TargetSpec | None] = [None] * count
            free = list(range(count))
            rng.shuffle(free)
            for target in embedded:
                slots[free.pop()] = target
            entries: list[tuple[str, TargetSpec | None]] = []
            for slot in slots:
                for _ in range(20):
                    name = self.fill.choice(doc.section_titles)
                    if name not in used_titles:
                        break
                used_titles.add(name)
                entries.append((name, slot))
            for target in own:
                entries.insert(rng.randint(0, len(entries)), (target.title, target))
            for name, target in entries:
                k += 1
                s = len(chapter.sections) + 1
                section_label = doc.section_label.format(c=c, s=s, k=k)
                weight = rng.uniform(0.6, 1.6)
                chapter.sections.append(Section(section_label, name, 2, c, weight, target))
                self.fill.refs.append((doc.ref_label or doc.section_label).format(c=c, s=s, k=k))
            chapters.append(chapter)
        for t in targets:
            if not 1 <= t.chapter <= len(chapters) or specs[t.chapter - 1][1] == "references":
                raise CorpusError(f"{doc.id}: target in chapter {t.chapter}")
        return chapters

    def build(self, targets: list[TargetSpec]) -> None:
        doc = self.doc
        chapters = self.plan(targets)
        contents_entries = sum(1 + len(ch.sections) for ch in chapters) + (1 if doc.index_slots else 0)
        per_page = int((BOTTOM - TOP - 40) / 14.5)
        contents_pages = math.ceil(contents_entries / per_page)
        self.fill.pages = doc.pages + contents_pages
        # title page, abstract, contents
        self.new_page(body=False)
        self.title_page()
        if doc.abstract:
            self.new_page(body=False)
            self.abstract_page()
        contents_start = self.number + 1
        for _ in range(contents_pages):
            self.new_page(body=False)
        self.toc.append([1, self.labels["contents"], contents_start])
        body_start = self.number + 1
        planned = 0.0
        order = {id(t): i for i, t in enumerate(targets)}
        for c, chapter in enumerate(chapters, start=1):
            self.fill.chapter, self.fill.figure, self.fill.table = c, 0, 0
            self.chapter_title = f"{chapter.label} {chapter.title}".strip() if doc.chapter_label else chapter.title
            if doc.numbering == "decimal" and not doc.chapter_label:
                self.chapter_title = f"{chapter.label} {chapter.title}"
            self.new_page()
            chapter.page = self.number
            self.toc.append([1, self.chapter_title, self.number])
            self.chapter_heading(chapter)
            if chapter.mode == "references":
                self.references()
                planned += chapter.pages
                continue
            total_weight = sum(s.weight for s in chapter.sections)
            last_room = self.rng.uniform(0.1, 0.6) * (BOTTOM - TOP)  # how empty the chapter's last page may stay
            for section in chapter.sections:
                planned += chapter.pages * section.weight / total_weight
                section.end_page = body_start + round(planned) - 1
                self.clause = 0
                self.section_label = section.label
                own = section.target is not None and section.title == section.target.title
                if own:
                    self.place_target(order[id(section.target)], section.target, section)
                else:
                    self.heading(section)
                target_after = self.rng.randint(1, 3)
                done = subsections = 0
                while True:
                    if section.target is not None and not own and done >= target_after:
                        self.place_target(order[id(section.target)], section.target, None)
                        own = True
                        continue
                    finished = self.number >= section.end_page and done >= 1 and (section.target is None or own)
                    if section is chapter.sections[-1] and self.room() > last_room:
                        finished = False  # a chapter's last page is not left mostly empty
                    if finished and not (self.w.page.target and self.room() > 160):
                        break
                    if self.rng.random() < 0.07 and done >= 2 and doc.kind in ("manual", "paper") and \
                            not self.pending:
                        title = self.fill.choice(doc.section_titles)
                        subsections += 1
                        sub = Section(f"{section.label}.{subsections}" if doc.numbering == "decimal" else "", title, 3, c)
                        self.heading(sub)
                    for block in self.generated(chapter.mode):
                        self.place(block)
                    done += 1
        if doc.index_slots:
            self.index_pages()
        self.contents(chapters, contents_start, contents_pages)
        self.running_heads()

    def title_page(self) -> None:
        doc, w = self.doc, self.w
        y = 230.0
        for line in w.wrap(words(doc.title, self.cjk, "bold"), 24, WIDTH):
            w.line(line, 24, y)
            y += 32
        y += 10
        for line in w.wrap(words(doc.subtitle, self.cjk), 13, WIDTH):
            w.line(line, 13, y)
            y += 19
        w.rule(LEFT, y + 8, RIGHT, 1.2)
        y = 640.0
        for text in doc.byline:
            w.plain(text, 11, y)
            y += 17

    def abstract_page(self) -> None:
        self.w.plain(self.labels["abstract"], 15, TOP + 30, "bold")
        self.y = TOP + 50
        for paragraph in self.doc.abstract.strip().split("\n\n"):
            self.place(self.paragraph(" ".join(paragraph.split()) if not self.cjk else "".join(paragraph.split())))
        if self.doc.keywords:
            self.place(self.paragraph(f"**{self.labels['keywords']}** {self.doc.keywords}"))

    def chapter_heading(self, chapter: Chapter) -> None:
        w = self.w
        y = TOP + 40
        if self.doc.chapter_label:
            w.plain(chapter.label, 13, y, "bold")
            y += 26
            text = chapter.title
        else:
            text = f"{chapter.label} {chapter.title}" if self.doc.numbering == "decimal" else chapter.title
        for line in w.wrap(words(text, self.cjk, "bold"), 19, WIDTH):
            w.line(line, 19, y)
            y += 25
        w.rule(LEFT, y - 10, RIGHT, 0.8)
        self.y = y + 6

    def references(self) -> None:
        count = self.fill.citations
        templates = self.doc.references
        self.fill.chapter = 0
        for i in range(1, count + 1):
            entry = self.fill.choice(templates)
            rows = self.text_rows(entry, indent=0.0, hang=f"[{i}]")
            self.place(Block(rows, keep=True, gap=3.0))
        # more entries up to the chapter's share, as a long bibliography has
        while self.room() > self.lead * 3:
            count += 1
            self.place(Block(self.text_rows(self.fill.choice(templates), hang=f"[{count}]"), keep=True, gap=3.0))

    def index_pages(self) -> None:
        """A two-column index of the terms in the index slots, with the pages they are on."""
        doc = self.doc
        terms: set[str] = set()
        for slot in doc.index_slots:
            for value in doc.slots[slot]:
                term = value.split("|")[0].strip()
                if "{" not in term and len(term) > 1:
                    terms.add(term)
        body_pages = [(n + 1, " ".join(p.text)) for n, p in enumerate(self.w.pages) if p.body]
        folded = [(n, fold(text)) for n, text in body_pages]
        entries = []
        for term in sorted(terms, key=lambda t: (fold(t).lstrip("-.`"), t)):
            key = fold(term)
            pattern = re.compile(re.escape(key) if self.cjk else rf"(?<!\w){re.escape(key)}(?!\w)")
            pages = [n for n, text in folded if pattern.search(text)]
            if not pages:
                continue
            if len(pages) > 7:  # the pages an indexer would pick: some of them
                pages = sorted(self.rng.sample(pages, 7))
            entries.append((term, ", ".join(str(p) for p in pages)))
        self.chapter_title = self.labels["index"]
        self.new_page(body=False)
        self.toc.append([1, self.labels["index"], self.number])
        self.index_page_number = self.number
        self.w.plain(self.labels["index"], 19, TOP + 40, "bold")
        self.w.rule(LEFT, TOP + 50, RIGHT, 0.8)
        column_width = (WIDTH - 20) / 2
        size, lead = 8.6, 11.2
        top = TOP + 70
        y, column = top, 0
        initial = ""
        for term, pages in entries:
            first = fold(term).lstrip("-.`")[:1].upper()
            role = "mono" if term.startswith(("-", "/")) or re.fullmatch(r"[a-z][a-z0-9_.\-]*", term) else "regular"
            items = [Word(term, role, False), Word(",", "regular", True),
                     *(Word(p, "regular", True) for p in pages.split())]
            lines = self.w.wrap(items, size, column_width - 10)
            extra = lead * 1.5 if first != initial and not self.cjk else 0.0
            if y + len(lines) * lead + extra > BOTTOM:
                if column == 0:
                    column, y = 1, top
                else:
                    self.new_page(body=False)
                    column, top = 0, TOP + 10
                    y = top
            x = LEFT if (column == 0) != self.rtl else LEFT + column_width + 20
            if extra:
                self.w.plain(first, 10, y + lead * 1.3, "bold", x=x, width=column_width)
                y += extra
                initial = first
            for index, line in enumerate(lines):
                y += lead
                indent = 10.0 if index else 0.0
                self.w.line(line, size, y, x=x + (0.0 if self.rtl else indent), width=column_width - indent)

    def contents(self, chapters: list[Chapter], start: int, pages: int) -> None:
        entries = []
        for chapter in chapters:
            entries.append((0, chapter.label if self.doc.chapter_label or self.doc.numbering == "decimal" else "",
                            chapter.title, chapter.page))
            entries += [(1, s.label, s.title, s.page) for s in chapter.sections]
        if self.doc.index_slots:
            entries.append((0, "", self.labels["index"], self.index_page_number))
        per_page = int((BOTTOM - TOP - 40) / 14.5)
        size = 9.6
        for p in range(pages):
            self.w.page = self.w.pages[start - 1 + p]
            self.w.page.chapter = self.labels["contents"]
            y = TOP + 20
            if p == 0:
                self.w.plain(self.labels["contents"], 19, TOP + 30, "bold")
                y = TOP + 50
            for level, label, title, page in entries[p * per_page:(p + 1) * per_page]:
                y += 14.5
                indent = 0.0 if level == 0 else 18.0
                role = "bold" if level == 0 else "regular"
                text = f"{label} {title}".strip()
                fit = self.w.wrap(words(text, self.cjk, role), size, WIDTH - indent - 50)[0]
                shown = self.w.logical(fit) + ("…" if len(fit) < len(words(text, self.cjk, role)) else "")
                if self.rtl:
                    self.w.plain(shown, size, y, role, x=LEFT + 40, width=WIDTH - indent - 40)
                    self.w.plain(str(page), size, y, role, x=LEFT, width=30, align="start")
                    dots_x0, dots_x1 = LEFT + 34, RIGHT - indent - self.w.text_width(shown, size, role) - 6
                else:
                    self.w.plain(shown, size, y, role, x=LEFT + indent)
                    self.w.plain(str(page), size, y, role, x=RIGHT - 40, width=40, align="end")
                    dots_x0 = LEFT + indent + self.w.text_width(shown, size, role) + 6
                    dots_x1 = RIGHT - self.w.text_width(str(page), size) - 6
                if level and dots_x1 > dots_x0 + 10:
                    self.w.page.ops.append(f"0.5 G 0.8 w [0.8 2.6] 0 d {dots_x0:.2f} {PAGE_H - y + 1:.2f} m "
                                           f"{dots_x1:.2f} {PAGE_H - y + 1:.2f} l S [] 0 d 0 G")

    def running_heads(self) -> None:
        total = len(self.w.pages)
        for number, page in enumerate(self.w.pages, start=1):
            if number == 1:
                continue
            self.w.page = page
            head = page.chapter if number % 2 else self.doc.running
            if not head:
                head = self.doc.running
            even = number % 2 == 0
            align = ("start" if even else "end") if not self.rtl else ("end" if even else "start")
            self.w.plain(head, 8.2, 52, "italic", align=align)
            self.w.rule(LEFT, 57, RIGHT, 0.4)
            label = self.doc.footer.format(p=number, n=total)
            self.w.plain(label, 8.6, 806, align="center")

    def write(self, path: Path) -> None:
        self.w.save(path, self.doc.title)
        pdf = self.w.pdf
        pdf.set_toc(self.toc)
        pdf.set_metadata({"title": self.doc.title, "author": self.doc.byline[0] if self.doc.byline else "",
                          "creator": "bench/hybrid_corpus.py", "producer": "pdfdesk hybrid corpus"})
        path.parent.mkdir(parents=True, exist_ok=True)
        pdf.save(path, garbage=1, deflate=True, no_new_id=True)  # no random file ID: the same bytes on every run
        pdf.close()


# ================================================================================================
# Target specs

_QUESTION = re.compile(r"^([pk]):\s*(.+?)(?:\s*=>\s*(.+))?$")


def parse_targets(doc: DocSpec) -> list[TargetSpec]:
    targets: list[TargetSpec] = []
    for chunk in re.split(r"^---\s*$", doc.targets, flags=re.MULTILINE):
        lines = chunk.strip("\n").splitlines()
        while lines and not lines[0].strip():
            lines.pop(0)
        if not lines:
            continue
        head = re.match(r"^@\s*(\d+)\s*\|\s*(.*)$", lines[0].strip())
        if not head:
            raise CorpusError(f"{doc.id}: a target starts with {lines[0]!r}, not '@ chapter | title'")
        body: list[str] = []
        questions: list[tuple[str, str, str]] = []
        for line in lines[1:]:
            found = _QUESTION.match(line.strip())
            if found:
                kind, text, answer = found.groups()
                if kind == "p" and not answer:
                    raise CorpusError(f"{doc.id}: paraphrase {text!r} has no answer note")
                questions.append(("paraphrase" if kind == "p" else "known", text.strip(), (answer or "").strip()))
            else:
                body.append(line.rstrip() if line.startswith("$") else line.strip())
        if not questions:
            raise CorpusError(f"{doc.id}: target {lines[0]!r} has no questions")
        targets.append(TargetSpec(int(head.group(1)), head.group(2).strip(), body, questions))
    return targets


# ================================================================================================
# The corpus

def all_documents() -> list[DocSpec]:
    from bench import (hybrid_corpus_ar, hybrid_corpus_de, hybrid_corpus_en, hybrid_corpus_fr, hybrid_corpus_ja,
                       hybrid_corpus_ru, hybrid_corpus_zh)

    docs = [*hybrid_corpus_en.documents(), *hybrid_corpus_de.documents(), *hybrid_corpus_fr.documents(),
            *hybrid_corpus_ru.documents(), *hybrid_corpus_zh.documents(), *hybrid_corpus_ja.documents(),
            *hybrid_corpus_ar.documents()]
    ids = [d.id for d in docs]
    if len(set(ids)) != len(ids):
        raise CorpusError("duplicate document ids")
    return docs


def generator_hash() -> str:
    digest = hashlib.sha256(GENERATOR.encode())
    for path in sorted(Path(__file__).parent.glob("hybrid_corpus*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update(pymupdf.VersionBind.encode())
    return digest.hexdigest()[:16]


def write_document(doc: DocSpec, folder: Path) -> dict:
    """Lay out and write one document; its manifest entry (pages, questions with their pages)."""
    targets = parse_targets(doc)
    layout = Layout(doc)
    layout.build(targets)
    path = folder / f"{doc.id}.pdf"
    layout.write(path)
    questions = []
    for index, target in enumerate(targets):
        passage = " ".join(line.lstrip("$-").strip() for line in target.lines).replace("`", "").replace("**", "")
        for kind, text, answer in target.questions:
            questions.append({"text": text, "kind": kind, "doc": doc.id, "page": layout.target_pages[index],
                              "script": SCRIPT_OF[doc.lang], "half": doc.half, "answer": answer,
                              "passage": passage})
    return {"id": doc.id, "file": path.name, "lang": doc.lang, "kind": doc.kind, "half": doc.half,
            "script": SCRIPT_OF[doc.lang], "pages": len(layout.w.pages), "questions": questions,
            "targets": sorted(layout.target_pages.values())}


def cached_manifest(folder: Path) -> dict | None:
    """The manifest in folder if this very generator wrote it and every PDF is there, else None."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    documents = manifest.get("documents") or []
    if manifest.get("generator") != generator_hash() or not all((folder / d["file"]).exists() for d in documents):
        return None
    return manifest


def build_manifest(folder: Path) -> dict:
    """The manifest of the corpus in folder (documents, pages, questions with their pages, answer
    notes and written passages for the checks), writing the PDFs first unless they are current."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest = cached_manifest(folder)
    if manifest is not None:
        return manifest
    manifest_path = folder / MANIFEST
    stamp = generator_hash()
    started = time.perf_counter()
    documents = [write_document(doc, folder) for doc in all_documents()]
    manifest = {"generator": stamp, "seconds": round(time.perf_counter() - started, 1), "documents": documents}
    manifest_path.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    return manifest


def build_corpus(folder: Path) -> list[tuple[Path, list[Question]]]:
    """Writes the PDFs into folder (cached: only when the generator changed) and returns each PDF
    with its questions."""
    manifest = build_manifest(Path(folder))
    return [(Path(folder) / d["file"],
             [Question(q["text"], q["kind"], q["doc"], q["page"], q["script"], q["half"]) for q in d["questions"]])
            for d in manifest["documents"]]


# ================================================================================================
# Checks (plain pymupdf text extraction and word matching; nothing of pdfdesk)

def fold(text: str) -> str:
    """NFKC (Arabic presentation forms to letters), case-folded, ё as е, no tatweel or ZWNJ."""
    return unicodedata.normalize("NFKC", text).casefold().replace("ё", "е").replace("\u0640", "").replace(
        "\u200c", "")


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+", fold(text))


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", fold(text))


def _has_known(page_text: str, query: str, cjk: bool) -> list[str]:
    """Query words missing from a page (CJK: runs not in the text without spaces)."""
    if cjk:
        compact = _compact(page_text)
        return [run for run in _tokens(query) if run not in compact]
    present = set(_tokens(page_text))
    return [word for word in _tokens(query) if word not in present]


def _has_answer(page_text: str, answer: str, cjk: bool) -> bool:
    """The answer note on a page: in CJK as it is (without spaces and line breaks), elsewhere its
    words in order (across line breaks; punctuation and case aside)."""
    if cjk:
        return _compact(answer) in _compact(page_text)
    return f" {' '.join(_tokens(answer))} " in f" {' '.join(_tokens(page_text))} "


def _words_on(text: str, cjk: bool) -> float:
    if cjk:
        return len(re.findall(r"[\u3040-\u30ff\u3400-\u9fff]", text)) / 1.7 + len(re.findall(r"[A-Za-z0-9]+", text))
    return len(re.findall(r"\w+", text))


def check(folder: Path, manifest: dict | None = None) -> tuple[list[str], list[str], dict]:
    """Problems (errors) and notes about the built corpus, and figures. Errors: page counts out of
    range, a known-item query whose words are not all on its page or are all on another page too, a
    paraphrase whose answer note is not on its page or is on another page too, two targets on one
    page, an outline that does not cover the chapters."""
    manifest = manifest or json.loads((Path(folder) / MANIFEST).read_text(encoding="utf-8"))
    problems: list[str] = []
    notes: list[str] = []
    figures: dict = {"words": {}, "overlap": defaultdict(list)}
    total_pages = 0
    for entry in manifest["documents"]:
        doc_id, cjk = entry["id"], entry["script"] == "cjk"
        pdf = pymupdf.open(Path(folder) / entry["file"])
        total_pages += pdf.page_count
        if not 60 <= pdf.page_count <= 300:
            problems.append(f"{doc_id}: {pdf.page_count} pages (wanted 60-300)")
        texts = [page.get_text() for page in pdf]
        toc = pdf.get_toc()
        if len(toc) < 10 or any(not 1 <= row[2] <= pdf.page_count for row in toc):
            problems.append(f"{doc_id}: outline of {len(toc)} entries, or entries off the document")
        counts = [_words_on(t, cjk) for t in texts[2:]]
        full = [c for c in counts if c >= 300]
        figures["words"][doc_id] = (round(sum(full) / max(len(full), 1)),
                                    sum(1 for c in counts if 400 <= c <= 760) / max(len(counts), 1))
        targets = entry["targets"]
        if len(set(targets)) != len(targets):
            problems.append(f"{doc_id}: two targets on one page")
        for q in entry["questions"]:
            page = q["page"]
            text = texts[page - 1]
            if q["kind"] == "known" and _has_known(q["passage"], q["text"], cjk):
                problems.append(f"{doc_id}: known {q['text']!r}: {_has_known(q['passage'], q['text'], cjk)} "
                                f"not in the written passage")
            if q["kind"] == "paraphrase" and not _has_answer(q["passage"], q["answer"], cjk):
                problems.append(f"{doc_id}: paraphrase {q['text']!r}: answer {q['answer']!r} not in the written passage")
            if q["kind"] == "known":
                missing = _has_known(text, q["text"], cjk)
                if missing:
                    problems.append(f"{doc_id}: known {q['text']!r}: {missing} not on page {page}")
                count = len(_tokens(q["text"]))
                if not 2 <= count <= 6:
                    notes.append(f"{doc_id}: known {q['text']!r} has {count} words")
                others = [n + 1 for n, t in enumerate(texts) if n + 1 != page and not _has_known(t, q["text"], cjk)]
                if others:
                    problems.append(f"{doc_id}: known {q['text']!r} (page {page}) also on pages {others[:8]}")
            else:
                if not _has_answer(text, q["answer"], cjk):
                    problems.append(f"{doc_id}: paraphrase {q['text']!r}: answer {q['answer']!r} not on page {page}")
                others = [n + 1 for n, t in enumerate(texts)
                          if n + 1 != page and _has_answer(t, q["answer"], cjk)]
                if others:
                    problems.append(f"{doc_id}: paraphrase {q['text']!r}: answer {q['answer']!r} also on {others[:8]}")
            figures["overlap"][(entry["script"], q["kind"])].append(overlap(q["text"], text, cjk))
    if total_pages < 1500:
        problems.append(f"{total_pages} pages in all (wanted at least 1,500)")
    figures["pages"] = total_pages
    return problems, notes, figures


STOP = set("""a an the and or of to in on for with is are be do does did i my me you your it its how what when
where which who why can could should would will if at by from as this that there their we our not no so than then
into about much many any some more most much have has had was were ich der die das und oder ist wie was wann wo
kann ein eine einen mit von zu im auf für le la les un une des du de et ou est que qui pour dans sur en ce au aux
je il on faut comment quand combien в на и или не что как где когда какой какая какие ли по с к у я мне мой это
для из при от до ich mein meine meinen der die das den dem des und wenn es ist nicht ein eine einen mit auf für bei
nach was wie muss kann sind auch vor im zu mir mich dann في من على إلى عن ما هل كم كيف متى أن إذا التي الذي
هذه هذا لا بعد قبل مع أو ثم لي""".split())


def overlap(question: str, page_text: str, cjk: bool) -> float:
    """The share of a question's content words (CJK: character bigrams) that the page has."""
    if cjk:
        compact = _compact(page_text)
        grams = [run[i:i + 2] for run in _tokens(question) for i in range(max(len(run) - 1, 1))]
        return sum(1 for g in grams if g in compact) / max(len(grams), 1)
    page = set(_tokens(page_text))
    wanted = [w for w in _tokens(question) if w not in STOP and len(w) > 1]
    return sum(1 for w in wanted if w in page) / max(len(wanted), 1)


def main(argv: list[str]) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else Path("/tmp/hybrid-corpus")
    cached = cached_manifest(folder) is not None
    manifest = build_manifest(folder)
    print(f"corpus in {folder} ({'cached' if cached else 'built'}; generation took {manifest['seconds']} s)")
    kinds: Counter = Counter()
    print(f"{'document':32} {'lang':4} {'kind':8} {'half':6} {'pages':>5} {'para':>4} {'known':>5}")
    for d in manifest["documents"]:
        para = sum(1 for q in d["questions"] if q["kind"] == "paraphrase")
        print(f"{d['id']:32} {d['lang']:4} {d['kind']:8} {d['half']:6} {d['pages']:5} {para:4} "
              f"{len(d['questions']) - para:5}")
        kinds[(d["kind"], d["script"])] += 1
    print("\ndocuments per kind and script:")
    for kind in KINDS:
        print(f"  {kind:9}" + "".join(f" {s}={kinds[(kind, s)]}" for s in SCRIPTS))
    table: Counter = Counter()
    for d in manifest["documents"]:
        for q in d["questions"]:
            table[(q["script"], q["kind"], q["half"])] += 1
    print("\nquestions per script, kind and half:")
    print(f"  {'script':9} {'para/tune':>10} {'para/report':>12} {'known/tune':>11} {'known/report':>13}")
    for s in SCRIPTS:
        print(f"  {s:9} {table[(s, 'paraphrase', 'tune')]:10} {table[(s, 'paraphrase', 'report')]:12} "
              f"{table[(s, 'known', 'tune')]:11} {table[(s, 'known', 'report')]:13}")
    para = sum(v for k, v in table.items() if k[1] == "paraphrase")
    known = sum(v for k, v in table.items() if k[1] == "known")
    print(f"  all: {para} paraphrase, {known} known-item")
    problems, notes, figures = check(folder, manifest)
    print(f"\npages: {figures['pages']}")
    print("words per full page (mean) and share of pages with 400-760 words (CJK: characters / 1.7):")
    for doc_id, (mean, share) in figures["words"].items():
        print(f"  {doc_id:32} {mean:5} {share:6.0%}")
    print("question words found on the target page (mean share; content words, CJK bigrams):")
    for (script, kind), values in sorted(figures["overlap"].items()):
        print(f"  {script:9} {kind:10} {sum(values) / len(values):.2f}  (n={len(values)})")
    for note in notes:
        print("note:", note)
    for problem in problems:
        print("PROBLEM:", problem)
    print(f"\n{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    from bench import hybrid_corpus  # one copy of the module, the one the language modules import

    sys.exit(hybrid_corpus.main(sys.argv))
