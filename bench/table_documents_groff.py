"""The table bench's real-looking pages set by groff (tbl and the ms macros) and written by gropdf:
a third producer, as man pages, technical reports and old Unix documents are made. It positions
every word on its own and aligns numbers itself, so a table's columns are whatever its words say.

groff is one Debian package (scripts/test.sh installs it: 10 MB, nothing else); where it is
missing these pages are left out and the bench says so. Its standard fonts hold Latin scripts
only, so the groff pages are English and German (tune) and French (report). A table's box is the
band of lines from its first row to its last, found on the page by their words.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pymupdf

from bench.table_corpus import Box, TableDoc, TableTruth, cells_of
from bench.table_pages import KINDS, Block, Bullets, Columns, Heading, KeyValues, Notes, Para, TableSpec

LANGUAGES = {"tune": ("en", "de"), "report": ("fr", "fr")}
GROFF = ["groff", "-k", "-t", "-ms", "-Tpdf", "-P-pa4", "-dpaper=a4"]
PREAMBLE = [".nr PO 56p", ".nr LL 483p", ".nr HM 40p", ".nr FM 40p", ".nr PS 9.5", ".nr VS 12"]


def available() -> bool:
    return shutil.which("groff") is not None and shutil.which("gropdf") is not None


def _text(text: str) -> str:
    """Text safe for troff: no request at the start of a line, backslashes kept, no-break spaces as \\~."""
    text = text.replace("\\", "\\e").replace("'", "\\(aq").replace("\u202f", "\\~").replace("\u00a0", "\\~")
    return "\\&" + text


def _table(spec: TableSpec) -> list[str]:
    options = {"grid": "allbox", "three": "center"}.get(spec.rules, "")
    head = " ".join(f"{'r' if a == 'r' else 'l'}b" for a in spec.align)
    body = " ".join("n" if a == "r" and spec.rules == "three" else a for a in spec.align)
    levels = spec.levels or [0] * len(spec.grid)
    lines = [f".ps {spec.size}", f".vs {spec.size * 1.3:.1f}"]
    if spec.caption:
        lines += [".LP", _text(spec.caption)]
    lines += [".TS", f"{options};" if options else "", head, body + "."]
    lines = [line for line in lines if line != ""]
    first_total = len(spec.grid) - spec.total_rows
    for r, row in enumerate(spec.grid):
        if (spec.rules == "three" and r in (0, 1)) or (spec.rules == "booktabs" and r in (1, first_total)):
            lines.append("_")
        cells = [("\\h'12p'" * levels[r] if c == 0 else "") + _text(text) if text else "" for c, text in enumerate(row)]
        lines.append("\t".join(cells))
    if spec.rules == "three":
        lines.append("_")
    return [*lines, ".TE", ".ps 9.5", ".vs 12"]


def _block(block: Block, last: bool) -> list[str]:
    if isinstance(block, Heading):
        return [".SH", _text(block.text), ".LP"]
    if isinstance(block, Para):
        return [".LP", f".ps {block.size}", _text(block.text), ".ps 9.5"]
    if isinstance(block, Columns):  # ms can only go back to one column on a new page
        lines = [".2C"] if last else []
        for para in block.paras:
            lines += [".LP", _text(para)]
        return lines
    if isinstance(block, Bullets):
        lines = []
        for index, item in enumerate(block.items):
            lines += [f".IP {index + 1}. 3" if block.numbered else ".IP \\(bu 2", _text(item)]
        return lines
    if isinstance(block, KeyValues):
        lines = [".LP", ".nf", ".ta 110p"]
        lines += [f"\\fB{_text(key)}:\\fP\t{_text(value)}" for key, value in block.pairs]
        return [*lines, ".fi"]
    if isinstance(block, Notes):
        return [".LP", "\\l'80p'", ".br", f".ps {block.size}", *[line for text in block.texts for line in
                                                                  (_text(text), ".br")], ".ps 9.5"]
    if isinstance(block, TableSpec):
        return _table(block)
    raise TypeError(block)


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _lines(page: pymupdf.Page) -> list[tuple[str, pymupdf.Rect]]:
    """The page's lines of words, top to bottom: their text and their box."""
    lines: list[tuple[float, list[tuple[float, float, float, float, str]]]] = []
    for word in sorted(page.get_text("words"), key=lambda w: (w[1], w[0])):
        if lines and abs(lines[-1][0] - word[1]) < 2:
            lines[-1][1].append(word[:5])
        else:
            lines.append((word[1], [word[:5]]))
    result = []
    for _top, words in lines:
        words.sort(key=lambda w: w[0])
        box = pymupdf.Rect(words[0][:4])
        for word in words[1:]:
            box |= pymupdf.Rect(word[:4])
        result.append((_fold(" ".join(w[4] for w in words)), box))
    return result


def band(page: pymupdf.Page, first: str, last: str, start: int = 0) -> tuple[Box, int]:
    """The box of the lines from the one reading `first` to the next reading `last`, and the index
    of the line after it (the search goes on from there)."""
    lines = _lines(page)
    top = next(i for i in range(start, len(lines)) if lines[i][0] == _fold(first))
    bottom = next(i for i in range(top, len(lines)) if lines[i][0] == _fold(last))
    box = lines[top][1]
    for _line, rect in lines[top:bottom + 1]:
        box |= rect
    return (box.x0 - 2, box.y0 - 2, box.x1 + 2, box.y1 + 2), bottom + 1


def _row_text(row: list[str]) -> str:
    return " ".join(text for text in row if text)


def build_groff(folder: Path, half: str, rng: random.Random) -> TableDoc:
    """Set every kind of page but the CJK one with groff into one PDF of the half, with its truth."""
    document = TableDoc(folder / f"groff-{half}.pdf", half=half)
    if not available():
        document.note = "groff or gropdf is not installed (Debian: groff): the groff pages are left out"
        return document
    specs = [KINDS[kind](rng, LANGUAGES[half][index % 2]) for index, kind in enumerate(KINDS) if kind != "cjk"]
    source = list(PREAMBLE)
    for number, spec in enumerate(specs):
        if number:
            source += [".1C" if any(isinstance(b, Columns) for b in specs[number - 1].blocks) else ".bp"]
        for index, block in enumerate(spec.blocks):
            source += _block(block, index == len(spec.blocks) - 1)
    run = subprocess.run(GROFF, input=("\n".join(source) + "\n").encode("utf-8"), capture_output=True, check=False)
    if run.returncode != 0 or not run.stdout.startswith(b"%PDF"):
        raise RuntimeError(f"groff failed: {run.stderr.decode(errors='replace')[-400:]}")
    document.path.write_bytes(run.stdout)
    with pymupdf.open(document.path) as doc:
        if len(doc) != len(specs):
            raise ValueError(f"groff set {len(specs)} pages on {len(doc)}: a page overflowed")
        for number, spec in enumerate(specs, start=1):
            page, start = doc[number - 1], 0
            for block in spec.blocks:
                if isinstance(block, TableSpec):
                    box, start = band(page, _row_text(block.grid[0]), _row_text(block.grid[-1]), start)
                    document.tables.append(TableTruth(number, block.style, len(block.grid), len(block.grid[0]),
                                                      cells_of(block.grid), bbox=box, document=spec.kind,
                                                      producer="groff"))
                elif isinstance(block, KeyValues):
                    first, last = block.pairs[0], block.pairs[-1]
                    box, start = band(page, f"{first[0]}: {first[1]}", f"{last[0]}: {last[1]}", start)
                    document.ignore.append((number, box))
            if not spec.tables():
                document.empty_pages[number] = (spec.kind, "groff")
    return document
