"""What the table bench's real-looking pages hold, apart from how a producer sets them: a page is a
list of blocks (headings, paragraphs, two-column prose, lists, key-value blocks, footnotes and
tables), and bench/table_documents.py (drawn line by line with PyMuPDF), table_documents_html.py
(HTML laid out by MuPDF's Story) and table_documents_groff.py (groff's tbl and ms, by gropdf) set
the same description each in its own way, so every kind of page can come from any producer.

The kinds: an annual report's income statement (borderless, rules under the header and over the
total only, indented sub-rows, thousands grouped, negatives in parentheses, footnotes), a paper's
results table (three rules, bold header, between two-column prose), an invoice (key-value header,
line items on a shaded band, the totals block right-aligned under the amounts), two-column prose
with no table, a page of lists and a key-value block with no table, a ruled log with empty
cells, a wide eight-column table in a small font, and a CJK table among CJK prose.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bench import table_texts as tx


@dataclass
class Heading:
    text: str
    size: float = 13.0


@dataclass
class Para:
    text: str
    size: float = 9.5


@dataclass
class Columns:
    """Paragraphs set in two columns, the left one filled first."""

    paras: list[str]
    size: float = 9.0


@dataclass
class Bullets:
    items: list[str]
    numbered: bool = False
    size: float = 9.5


@dataclass
class KeyValues:
    """"Invoice no.: 123" lines: not a table in the truth, and not scored either way (see Benchmark in
    docs/tables.md): a reader may fairly take it for a two-column table, or not."""

    pairs: list[tuple[str, str]]
    size: float = 9.0


@dataclass
class Notes:
    texts: list[str]
    size: float = 7.5


@dataclass
class TableSpec:
    """A table to set. `rules`: "grid" (every cell boxed), "none", "booktabs" (a rule under the
    header and one over the last `total_rows`), "three" (top, under the header, bottom)."""

    grid: list[list[str]]
    style: str
    rules: str
    widths: list[float]
    align: str
    size: float = 9.0
    levels: list[int] | None = None  # indent of each row's first cell, in steps
    shade_header: bool = False
    total_rows: int = 1
    caption: str = ""


Block = Heading | Para | Columns | Bullets | KeyValues | Notes | TableSpec


@dataclass
class PageSpec:
    kind: str
    language: str
    blocks: list[Block] = field(default_factory=list)

    def tables(self) -> list[TableSpec]:
        return [block for block in self.blocks if isinstance(block, TableSpec)]


def annual_report(rng: random.Random, language: str) -> PageSpec:
    heads = tx.HEADINGS[language]
    grid, levels = tx.statement_grid(rng, language, ("2024", "2023"))
    return PageSpec("annual report", language, [
        Heading(heads[0], 16), Para(tx.paragraph(rng, language, 4)), Para(tx.paragraph(rng, language, 3)),
        Heading(heads[1], 11),
        TableSpec(grid, "booktabs", "booktabs", [250, 50, 90, 90], "lrrr", 9, levels=levels),
        Notes([f"1 {tx.PROSE[language][7]}", f"2 {tx.PROSE[language][6]}"]),
        Heading(heads[6], 11), Para(tx.paragraph(rng, language, 3))])


def paper(rng: random.Random, language: str) -> PageSpec:
    heads = tx.HEADINGS[language]
    grid = tx.paper_grid(rng, rng.randint(5, 7))
    caption = {"en": "Table 2: Scores on the test set (mean of five runs).",
               "de": "Tabelle 2: Ergebnisse auf dem Testdatensatz (Mittel aus fünf Läufen).",
               "fr": "Tableau 2 : Résultats sur le jeu de test (moyenne de cinq essais).",
               "ru": "Таблица 2. Результаты на тестовой выборке (среднее по пяти запускам)."}[language]
    return PageSpec("paper", language, [
        Heading(heads[2], 13), Columns([tx.paragraph(rng, language, 4) for _ in range(4)]),
        TableSpec(grid, "booktabs", "three", [140, 70, 70, 70, 70], "lrrrr", 9, caption=caption),
        Columns([tx.paragraph(rng, language, 4) for _ in range(2)])])


def invoice(rng: random.Random, language: str) -> PageSpec:
    grid, pairs = tx.invoice_grid(rng, language, rng.randint(3, 5))
    return PageSpec("invoice", language, [
        Heading("Hartmann & Söhne GmbH" if language == "de" else "Northwind Supplies Ltd", 15),
        Para("Industriestraße 12, 70565 Stuttgart" if language == "de" else "12 Harbour Road, Leith EH6 6LU", 8),
        KeyValues(pairs), Heading(tx.HEADINGS[language][3], 13), Para(tx.PROSE[language][9]),
        TableSpec(grid, "borderless", "none", [35, 215, 50, 90, 93], "lllrr", 9, shade_header=True, total_rows=3),
        Para(tx.PROSE[language][8], 8.5)])


def two_columns(rng: random.Random, language: str) -> PageSpec:
    return PageSpec("two-column prose", language, [
        Heading(tx.HEADINGS[language][0], 15),
        Columns([tx.paragraph(rng, language, rng.randint(3, 6)) for _ in range(9)], 9.5)])


def lists(rng: random.Random, language: str) -> PageSpec:
    heads = tx.HEADINGS[language]
    return PageSpec("lists and key-values", language, [
        Heading(heads[7], 14), Para(tx.paragraph(rng, language, 3)), Bullets(tx.BULLETS[language]),
        Heading(heads[8], 12), KeyValues(tx.CONTACT[language]), Para(tx.paragraph(rng, language, 2)),
        Bullets([tx.PROSE[language][index] for index in rng.sample(range(10), 3)], numbered=True)])


def log(rng: random.Random, language: str) -> PageSpec:
    grid = tx.log_grid(rng, language, rng.randint(7, 10))
    return PageSpec("log with empty cells", language, [
        Heading(tx.HEADINGS[language][4], 14), Para(tx.paragraph(rng, language, 3)),
        TableSpec(grid, "ruled", "grid", [70, 100, 130, 100, 60], "lllll", 9),
        Para(tx.paragraph(rng, language, 2))])


def wide(rng: random.Random, language: str) -> PageSpec:
    grid = tx.wide_grid(rng, language)
    return PageSpec("wide, small font", language, [
        Heading(tx.HEADINGS[language][5], 13), Para(tx.paragraph(rng, language, 3)),
        TableSpec(grid, "borderless", "none", [71, 62, 62, 62, 62, 62, 62, 40], "lrrrrrrr", 7),
        Para(tx.paragraph(rng, language, 3))])


def cjk(rng: random.Random, language: str) -> PageSpec:
    grid = tx.cjk_grid(rng, language, rng.randint(4, 6))
    title = {"zh": "产品价格表", "ja": "製品価格一覧"}[language]
    return PageSpec("cjk", language, [
        Heading(title, 14), Para(tx.paragraph(rng, language, 4)),
        TableSpec(grid, "ruled", "grid", [90, 80, 60, 80, 100], "llrrr", 9.5),
        Para(tx.paragraph(rng, language, 2))])


KINDS = {"annual report": annual_report, "paper": paper, "invoice": invoice, "two-column prose": two_columns,
         "lists and key-values": lists, "log with empty cells": log, "wide, small font": wide, "cjk": cjk}
