"""Sections: every outline entry becomes one, placed on its heading's line, and a heading typed as a
query finds its own section first; without an outline, headings are found by their typography."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.outline_placing import outline_entries, outline_starts, place_on_lines
from pdfdesk.index.page_lines import Line, _joined_spans, page_lines
from pdfdesk.index.sections import SectionStart, split_sections
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool


@dataclass
class Heading:
    number: str
    title: str
    word: str       # a word only this section's prose uses
    page: int = 0
    top: float = 0.0

    @property
    def level(self) -> int:
        return self.number.count(".") + 1

    @property
    def printed(self) -> str:
        return f"{self.number} {self.title}"


# Several headings per page; every section's prose also talks about the network and its settings,
# as a real manual's does, so only the heading tells the sections apart.
PAGES = [
    [Heading("1", "Network basics", "zebra"), Heading("1.1", "Network overview", "quartz"),
     Heading("1.2", "Configuring the network interface", "walrus")],
    [Heading("1.2.1", "Assigning a static address", "falcon"),
     Heading("1.2.2", "Obtaining an address with DHCP", "mango"), Heading("2", "Security", "cobalt")],
    [Heading("2.1", "Firewall rules", "tundra"), Heading("2.2", "Encrypting network traffic", "violet"),
     Heading("2.3", "Auditing network events", "harbor")],
]
PROSE = ("The network settings are kept in one configuration file, and every interface reads them "
         "at startup. Check the network after each change; the {word} option is described here.")


def make_manual(path: Path, outline: str) -> list[Heading]:
    """A manual whose page numbers are drawn before the body (as many generators do), with a
    running header that begins with a heading's title on the last page, chapters with their
    number set apart from the title, and an outline of `outline` kind: "explicit"
    (destinations at the headings), "zero" (every destination at y = 0), "named" (pdfTeX-style
    named destinations without a top) or "none"."""
    doc = pymupdf.open()
    headings = []
    for number, on_page in enumerate(PAGES, 1):
        page = doc.new_page()
        page.insert_text((300, 800), str(number), fontsize=9)
        if number == 3:
            page.insert_text((72, 40), f"{on_page[0].printed} · NetServe Guide", fontname="heit", fontsize=8)
        y = 60.0
        for heading in on_page:
            size = 18 if heading.level == 1 else 14 if heading.level == 2 else 12
            y += size + 16
            heading.page, heading.top = number, y - size
            if heading.level == 1:  # "1" and its title: two lines in MuPDF's eyes
                page.insert_text((72, y), heading.number, fontname="hebo", fontsize=size)
                page.insert_text((110, y), heading.title, fontname="hebo", fontsize=size)
            else:
                page.insert_text((72, y), heading.printed, fontname="hebo", fontsize=size)
            y += 8
            page.insert_textbox(pymupdf.Rect(72, y, 520, y + 60), PROSE.format(word=heading.word), fontsize=10)
            y += 60
            headings.append(heading)
    if outline != "none":
        toc = []
        for heading in headings:
            y = heading.top - 6 if outline == "explicit" else 0
            toc.append([heading.level, heading.printed, heading.page,
                        {"kind": pymupdf.LINK_GOTO, "page": heading.page - 1, "to": pymupdf.Point(0, y)}])
        doc.set_toc(toc)
        if outline == "named":
            name_destinations(doc, headings)
    doc.save(path)
    return headings


def name_destinations(doc: pymupdf.Document, headings: list[Heading], missing: str = "") -> None:
    """Point each outline item at a named destination as pdfTeX does: the first of each page with
    a top coordinate, the others without one (`null`); the item titled `missing` at a name that is
    not defined."""
    names = []
    titles = {doc.xref_get_key(xref, "Title")[1]: xref for xref in doc.get_outline_xrefs()}
    for heading in headings:
        name = f"section.{heading.number}"
        doc.xref_set_key(titles[heading.printed], "A", f"<</S/GoTo/D({name})>>")
        first = heading is next(h for h in headings if h.page == heading.page)
        top = f"{doc[heading.page - 1].rect.height - heading.top + 6:.1f}" if first else "null"
        names.append((name, f"[{doc.page_xref(heading.page - 1)} 0 R/XYZ 72 {top} null]"))
    if missing:
        doc.xref_set_key(titles[missing], "A", "<</S/GoTo/D(no.such.name)>>")
    tree = doc.get_new_xref()
    doc.update_object(tree, "<</Names[" + " ".join(f"({n}){d}" for n, d in sorted(names)) + "]>>")
    doc.xref_set_key(doc.pdf_catalog(), "Names", f"<</Dests {tree} 0 R>>")


def index_now(path: Path):
    with open_pdf(str(path)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    state = build_index(target)
    index = DocumentIndex(target.fingerprint)
    assert index.open_existing() is not None
    return state, index.sections()


def split(path: Path):
    doc = pymupdf.open(path)
    lines = {number: page_lines(doc[number - 1]) for number in range(1, doc.page_count + 1)}
    return split_sections(outline_starts(doc, lines), lines, "Manual")


def top_section(path: Path, query: str) -> dict:
    result = call_tool("pdf_search", {"path": str(path), "query": query, "granularity": "section",
                                      "mode": "keyword", "max_results": 10})
    assert not result.is_error, result.text
    assert result.details["matches"], query
    return result.details["matches"][0]


@pytest.mark.parametrize("outline", ["explicit", "zero", "named"])
def test_every_outline_entry_becomes_a_section(tmp_path, outline):
    headings = make_manual(tmp_path / "manual.pdf", outline)
    state, sections = index_now(tmp_path / "manual.pdf")
    assert state.sections_source == "outline"
    by_title = {s["title"]: s for s in sections}
    for heading in headings:
        section = by_title[heading.printed]
        assert (section["page"], section["level"]) == (heading.page, heading.level)
    assert by_title["1.2.2 Obtaining an address with DHCP"]["path"] == (
        "1 Network basics › 1.2 Configuring the network interface › 1.2.2 Obtaining an address with DHCP")
    assert by_title["1.2 Configuring the network interface"]["end_page"] == 1  # not page 2's number


@pytest.mark.parametrize("outline", ["explicit", "zero", "named"])
def test_a_page_with_several_entries_is_split_between_them(tmp_path, outline):
    headings = make_manual(tmp_path / "manual.pdf", outline)
    sections = {s.title: s for s in split(tmp_path / "manual.pdf")}
    for heading in headings:
        text = sections[heading.printed].text
        assert text.replace("\n", " ").startswith(heading.printed), (heading.printed, text[:80])
        assert "NetServe" not in text.split("\n")[0], "placed on the running header"
        others = [h.word for h in headings if h is not heading]
        assert heading.word in text and not any(word in text for word in others), heading.printed


def test_named_destinations_give_their_top_or_none(tmp_path):
    headings = make_manual(tmp_path / "manual.pdf", "named")
    entries = outline_entries(pymupdf.open(tmp_path / "manual.pdf"))
    for heading, entry in zip(headings, entries, strict=False):
        first = heading is next(h for h in headings if h.page == heading.page)
        if first:  # the PDF's bottom-up y, turned into the page's top-down one
            assert abs(entry.y - (heading.top - 8)) < 1.0
        else:
            assert entry.y == 0.0


def test_heading_queries_find_their_own_section_first(tmp_path):
    headings = make_manual(tmp_path / "manual.pdf", "zero")
    index_now(tmp_path / "manual.pdf")
    for heading in headings:
        for query in (heading.title.lower(), heading.printed.lower()):
            top = top_section(tmp_path / "manual.pdf", query)
            assert (top["title"], top["start_page"]) == (heading.printed, heading.page), query


def test_title_whose_spans_carry_no_space_is_found(tmp_path):
    """A heading set in two fonts with a tight gap: MuPDF gives two spans and no space between
    them. The line still reads "Boxed formulas", and its outline entry is placed on it."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Introduction", fontname="hebo", fontsize=16)
    page.insert_textbox(pymupdf.Rect(72, 90, 520, 200), "Opening words about alpaca.", fontsize=10)
    writer = pymupdf.TextWriter(page.rect)
    bold, italic = pymupdf.Font("hebo"), pymupdf.Font("hebi")
    writer.append((72, 260), "Boxed", font=bold, fontsize=16)
    writer.append((72 + bold.text_length("Boxed", 16) + 1.5, 260), "formulas", font=italic, fontsize=16)
    writer.write_text(page)
    page.insert_textbox(pymupdf.Rect(72, 270, 520, 400), "Closing words about llama.", fontsize=10)
    doc.set_toc([[1, "Introduction", 1, {"kind": pymupdf.LINK_GOTO, "page": 0, "to": pymupdf.Point(0, 0)}],
                 [1, "Boxed formulas", 1, {"kind": pymupdf.LINK_GOTO, "page": 0, "to": pymupdf.Point(0, 0)}]])
    doc.save(tmp_path / "boxed.pdf")
    assert "Boxed formulas" in [line.text for line in page_lines(pymupdf.open(tmp_path / "boxed.pdf")[0])]
    sections = {s.title: s.text for s in split(tmp_path / "boxed.pdf")}
    assert "llama" in sections["Boxed formulas"] and "llama" not in sections["Introduction"]
    index_now(tmp_path / "boxed.pdf")
    assert top_section(tmp_path / "boxed.pdf", "llama")["title"] == "Boxed formulas"


def test_whitespace_spans_separate_words():
    """pdfTeX output often carries each space as a span of its own: it must stay a space."""
    def span(text: str, x0: float, x1: float) -> dict:
        return {"text": text, "bbox": (x0, 0, x1, 12), "size": 12.0}
    line = [span("2.1", 0, 18), span(" ", 18, 28), span("ASN.1", 28, 60), span(" ", 60, 64), span("syntax", 64, 99)]
    assert _joined_spans(line) == "2.1 ASN.1 syntax"
    assert _joined_spans([span("Boxed", 0, 40), span("formulas", 41.5, 90)]) == "Boxed formulas"
    assert _joined_spans([span("ﬁ", 0, 6), span("rewall", 6, 40)]) == "firewall"  # one word, NFKC


def test_entry_whose_title_is_not_on_its_page_is_still_a_section(tmp_path):
    headings = make_manual(tmp_path / "manual.pdf", "zero")
    doc = pymupdf.open(tmp_path / "manual.pdf")
    toc = doc.get_toc(simple=False)
    at = next(i for i, item in enumerate(toc) if item[1] == "1.2.1 Assigning a static address")
    toc.insert(at + 1, [3, "Appendix to the address section", 2, {"kind": pymupdf.LINK_GOTO, "page": 1,
                                                                     "to": pymupdf.Point(0, 0)}])
    doc.set_toc(toc)
    doc.save(tmp_path / "ghost.pdf")
    state, sections = index_now(tmp_path / "ghost.pdf")
    ghost = next(s for s in sections if s["title"] == "Appendix to the address section")
    assert ghost["page"] == 2 and ghost["level"] == 3
    assert ghost["path"] == "1 Network basics › 1.2 Configuring the network interface › Appendix to the address section"
    assert state.section_count == len(headings) + 2  # every entry, the one not shown, and the front matter
    # it starts right after the previous entry on its page; the entries after it keep their text
    by_title = {s.title: s.text for s in split(tmp_path / "ghost.pdf")}
    assert by_title["1.2.1 Assigning a static address"] == "1.2.1 Assigning a static address"
    assert "falcon" in by_title["Appendix to the address section"]
    assert "mango" in by_title["1.2.2 Obtaining an address with DHCP"]
    assert top_section(tmp_path / "ghost.pdf", "appendix to the address section")["title"] == (
        "Appendix to the address section")


def test_short_outline_title_is_placed_on_its_longer_heading(tmp_path):
    """LaTeX's \\section[short]{long}: the outline says "Traffic encryption", the page says
    "2.2 Encrypting network traffic"."""
    make_manual(tmp_path / "manual.pdf", "zero")
    doc = pymupdf.open(tmp_path / "manual.pdf")
    toc = doc.get_toc(simple=False)
    for item in toc:
        if item[1] == "2.2 Encrypting network traffic":
            item[1] = "Traffic encryption"
    doc.set_toc(toc)
    doc.save(tmp_path / "short.pdf")
    sections = {s.title: s.text for s in split(tmp_path / "short.pdf")}
    assert sections["Traffic encryption"].startswith("2.2 Encrypting network traffic")
    assert "violet" in sections["Traffic encryption"] and "violet" not in sections["2.1 Firewall rules"]


def test_a_body_line_that_begins_with_a_title_is_not_its_heading():
    """Without a line showing its title as a heading, an entry starts right after the previous
    entry's heading, not at some sentence of the prose that happens to begin with its words."""
    lines = {1: [Line(70, 84, "Scope", 12, True), Line(90, 100, "Body text of the scope.", 10, False),
                 Line(102, 112, "Termination notices are sent by mail.", 10, False),
                 Line(114, 124, "More text.", 10, False)]}
    starts = [SectionStart("Scope", 1, 1, 0.0), SectionStart("Termination", 1, 1, 0.0)]
    assert [s.line for s in place_on_lines(starts, lines)] == [0, 1]


def test_titles_are_found_across_scripts_labels_and_line_breaks():
    """Compared by letters and digits only: a CJK title under its number, a Cyrillic chapter
    whose "Глава 3" label sits on a line of its own, a title hyphenated over two lines."""
    lines = {1: [Line(40, 50, "Руководство пользователя", 8, False),
                 Line(80, 100, "Глава 3", 18, True), Line(104, 124, "Настройка сети", 18, True),
                 Line(130, 140, "Текст главы.", 10, False),
                 Line(150, 166, "3.1 配置网络接口", 14, True), Line(170, 180, "正文。", 10, False),
                 Line(190, 206, "3.2 Konfiguration der Netzwerk-", 14, True),
                 Line(208, 224, "schnittstelle", 14, True), Line(230, 240, "Text.", 10, False)]}
    starts = [SectionStart("3 Настройка сети", 1, 1, 0.0), SectionStart("配置网络接口", 2, 1, 0.0),
              SectionStart("Konfiguration der Netzwerkschnittstelle", 2, 1, 0.0)]
    assert [s.line for s in place_on_lines(starts, lines)] == [1, 4, 6]


def test_entry_with_an_undefined_destination_is_kept(tmp_path):
    headings = make_manual(tmp_path / "manual.pdf", "zero")
    doc = pymupdf.open(tmp_path / "manual.pdf")
    name_destinations(doc, headings, missing="2.2 Encrypting network traffic")
    doc.save(tmp_path / "broken.pdf")
    assert next(item[2] for item in doc.get_toc() if item[1] == "2.2 Encrypting network traffic") < 1
    _state, sections = index_now(tmp_path / "broken.pdf")
    kept = next(s for s in sections if s["title"] == "2.2 Encrypting network traffic")
    assert kept["page"] == 3  # the previous entry's page, where its heading is found


def test_headings_without_an_outline_still_make_sections(tmp_path):
    headings = make_manual(tmp_path / "manual.pdf", "none")
    state, sections = index_now(tmp_path / "manual.pdf")
    assert state.sections_source == "headings"
    found = {(s["title"], s["page"]): s for s in sections}
    for heading in headings:
        assert (heading.printed, heading.page) in found, heading.printed
        assert found[(heading.printed, heading.page)]["level"] == heading.level
    top = top_section(tmp_path / "manual.pdf", "configuring the network interface")
    assert (top["title"], top["start_page"]) == ("1.2 Configuring the network interface", 1)
    assert top_section(tmp_path / "manual.pdf", "mango")["title"] == "1.2.2 Obtaining an address with DHCP"


def test_hostile_outlines_give_the_sections_the_walk_could_read(tmp_path):
    """A hundred thousand nested entries or a loop: the sections come from what the bounded walk
    read, with no recursion error and no crash."""
    from pdfdesk.core.outline import MAX_DEPTH
    from tests.core.test_outline import cyclic_outline, deep_outline

    deep = outline_entries(pymupdf.open(deep_outline(tmp_path / "deep.pdf", 100_000)))
    assert [s.level for s in deep] == list(range(1, MAX_DEPTH + 1)) and all(s.page == 1 for s in deep)
    loop = outline_entries(pymupdf.open(cyclic_outline(tmp_path / "loop.pdf")))
    assert [s.title for s in loop] == ["A", "B"]


def test_the_section_titled_with_the_words_beats_one_whose_text_repeats_them(tmp_path):
    doc = pymupdf.open()
    first = doc.new_page()
    first.insert_text((72, 72), "Purpose of this guide", fontsize=16)
    first.insert_textbox(pymupdf.Rect(72, 90, 520, 300), "It sets out the rules.", fontsize=11)
    for _ in range(3):
        page = doc.new_page()
        page.insert_text((72, 72), "Margins in this guide", fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 90, 520, 700),
                            "The purpose of margins: purpose, purpose and purpose again. " * 12, fontsize=11)
    doc.set_toc([[1, "Purpose of this guide", 1], [1, "Margins in this guide", 2]])
    path = tmp_path / "guide.pdf"
    doc.save(path)
    with open_pdf(str(path)) as opened:
        build_index(Target(opened.source, None, opened.fingerprint))
    matches = call_tool("pdf_search", {"path": str(path), "query": "purpose of this guide", "mode": "keyword",
                                       "granularity": "section"}).details["matches"]
    assert matches[0]["title"] == "Purpose of this guide"
