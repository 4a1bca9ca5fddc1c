"""Checks of the relevance corpus's generated PDFs, independent of pdfdesk: outlines, XeTeX text
layers, and that every query's words are on the page it targets."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pymupdf

from bench.relevance_corpus import Doc, Query


def fold(text: str) -> str:
    """Text compared loosely: NFKC, case-folded, Russian ё as е, Arabic-script letters' variants
    (Persian yeh/kaf, alef with hamza) left alone."""
    return unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")


def query_words(query: Query) -> list[str]:
    """A query's words (in CJK, its runs of characters, each of which must occur as it is)."""
    return re.findall(r"\w+", fold(query.text))


def verify(doc: Doc, path: Path) -> list[str]:
    """Problems with a generated document: outline entries that do not resolve to their heading's
    page with a top of y = 0 or none, XeTeX pages with spaces or base letters, and queries whose
    words are not all on their page (words compared NFKC + case-folded; for CJK and XeTeX pages
    the page text without spaces). Tags CJK known-item queries whose words the page breaks across
    two lines "wrapped" (a property of the layout, found here)."""
    problems: list[str] = []
    pdf = pymupdf.open(path)
    named = pdf.resolve_names()
    toc = pdf.get_toc(simple=False)
    raw = pdf.xref_object(int(pdf.xref_get_key(pdf.pdf_catalog(), "Names/Dests")[1].split()[0]))
    if len(toc) != len(doc.headings):
        problems.append(f"{doc.name}: outline has {len(toc)} entries, expected {len(doc.headings)}")
    for entry, heading in zip(toc, doc.headings, strict=False):
        dest = entry[3]
        target = named.get(dest.get("nameddest", ""), {})
        page_height = pdf[heading.page - 1].rect.height
        if entry[2] != heading.page or target.get("page") != heading.page - 1:
            problems.append(f"{doc.name}: outline entry {entry[1]!r} goes to page {entry[2]}, not {heading.page}")
        to = target.get("to")
        top_missing = to is not None and tuple(to) == (0.0, 0.0)
        if not (top_missing or (to is not None and abs(page_height - to[1]) < 0.01)):
            problems.append(f"{doc.name}: outline entry {entry[1]!r} has a top at {to}")
        if f"(section.{heading.number})" not in raw:
            problems.append(f"{doc.name}: no named destination for {heading.number}")
    texts = {number + 1: page.get_text() for number, page in enumerate(pdf)}
    if doc.xetex:
        for number in range(doc.first_body_page, pdf.page_count + 1):
            letters = "\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff"
            arabic_runs = re.findall(f"[{letters}]+(?: [{letters}]+)*", texts[number])
            if any(" " in run for run in arabic_runs):
                problems.append(f"{doc.name}: page {number} has spaces between Arabic-script words")
            if any("\u0620" <= c <= "\u06ff" and unicodedata.category(c) == "Lo" for c in texts[number]):
                problems.append(f"{doc.name}: page {number} has Arabic base letters (not presentation forms)")
    compact = doc.script == "cjk" or doc.xetex
    folded = {n: fold(t).replace(" ", "").replace("\n", "") if compact else fold(t) for n, t in texts.items()}
    for query in doc.queries:  # CJK words the page breaks across two lines: tagged "wrapped"
        lines = fold(texts[query.page]).replace(" ", "")
        if doc.script == "cjk" and query.kind == "known" and "wrapped" not in query.tags and any(
                word not in lines for word in query_words(query)):
            query.tags += ("wrapped",)
    for query in doc.queries:
        words = query_words(query)
        if query.kind == "para":
            continue
        if not all(word in folded[query.page] for word in words):
            missing = [w for w in words if w not in folded[query.page]]
            problems.append(f"{doc.name}: {query.kind} query {query.text!r} has {missing} not on page {query.page}")
    return problems


def ambiguous(doc: Doc, path: Path) -> list[str]:
    """Known-item queries whose words all occur on another page too (a note, not an error)."""
    pdf = pymupdf.open(path)
    compact = doc.script == "cjk" or doc.xetex
    folded = {n + 1: (fold(p.get_text()).replace(" ", "").replace("\n", "") if compact else fold(p.get_text()))
              for n, p in enumerate(pdf)}
    notes = []
    for query in doc.queries:
        if query.kind != "known":
            continue
        words = query_words(query)
        patterns = [re.compile(re.escape(w) if compact else rf"(?<![^\W\d_]){re.escape(w)}") for w in words]
        others = [n for n, text in folded.items() if n != query.page and all(p.search(text) for p in patterns)]
        if others:
            notes.append(f"{doc.name}: {query.text!r} (page {query.page}) also on pages {others}")
    return notes
