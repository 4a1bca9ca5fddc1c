"""Answer a lookup from a table: the cell where the row and the column a question names cross.

A fee schedule asked "What is the Status 4 amount for Xray 5?" holds the answer in one cell, while
a passage search finds pages full of similar rows ("Xray 15", "Xray 5 bilateral") and quotes the
wrong one. Here the question's words are matched, as phrases, against each table's column headings
(a merged heading over several columns is part of each: "Rates Status 4") and against the cells of
each body row (a row key may stand in any column, or in two adjoining ones: "Xray" merged over rows
with "5" beside it). A row and a column are scored separately and both must match.

Matching is on normalised words (case, diacritics, punctuation, "X-ray" = "Xray"; close word forms
such as "ставке"/"Ставка" count a little less). A number identifies: a label with a number the
question does not give next to the same words ("Xray 15", "Status 1") is ruled out, not ranked
lower. Words the question gives more of make a label more specific; words of a label the question
leaves out cost a little, and less when they are a whole part it does not name (the merged "Rates"
over "Status 4"). Cells that match equally well are all returned: the caller says it is
ambiguous rather than pick one.

It works on table records (`pdfdesk.core.tables.formats.table_record`), as `pdf_tables` returns
them, so the answerer reads tables through the same tool as everyone else.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

Box = tuple[float, float, float, float]
MISSED_WORD_COST = 0.3      # a label's word the question leaves out, against 1 for a word it gives
MISSED_PART_COST = 0.1      # a word of a part it leaves out whole (a merged heading over the one named)
STOPWORD_WEIGHT = 0.1       # "of", "für", "de", "для": never a match on their own
CLOSE_FORM_WEIGHT = 0.8     # "rates"/"rate", "ставке"/"ставка"
MIN_CODE_DIGITS = 3         # a cell holding only a number is a row key only when it looks like a code
MAX_ANSWERS = 4             # equally good cells quoted at most

_STOPWORDS = frozenset("""
a an the of for to in on at by with and or per from as is are what which how much many does do was were be
der die das des dem den ein eine einer eines einem einen fur von vom mit und oder im am zum zur bei nach ist
le la les l d de du des un une pour par et ou au aux en sur est quel quelle quels quelles
и в во на по для с со к о об от из за у или какова каков какой какая сколько это
""".split())
_JOINED = re.compile(r"(?<=\b[^\W\d_])[-‐‑](?=[^\W\d_])|(?<=[^\W\d_])[-‐‑](?=[^\W\d_]\b)")
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")


def _fold(text: str) -> str:
    """Lower case without diacritics (Röntgen -> rontgen, ё -> е)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(text: str) -> list[str]:
    """The normalised words of `text`: folded, a one-letter hyphen prefix joined ("x-ray" -> "xray"),
    letters and digits apart ("Status4" -> "status", "4"), a decimal comma read as a point."""
    folded = _JOINED.sub("", _fold(text))
    return [token.replace(",", ".") for token in _TOKEN.findall(folded)]


@lru_cache(maxsize=8192)
def _cell_words(text: str) -> tuple[str, ...]:
    """`words` of a cell's text; a table repeats its texts (groups, amounts), so each is read once."""
    return tuple(words(text))


def _is_number(token: str) -> bool:
    return token[:1].isdigit()


def _base(token: str) -> float:
    return STOPWORD_WEIGHT if token in _STOPWORDS else 1.0


def _likeness(a: str, b: str) -> float:
    """1 for the same word, CLOSE_FORM_WEIGHT for another form of it (shared stem, short endings
    differ), else 0. Numbers must be equal."""
    if a == b:
        return 1.0
    if _is_number(a) or _is_number(b) or min(len(a), len(b)) < 4:
        return 0.0
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        shared += 1
    return CLOSE_FORM_WEIGHT if shared >= 4 and shared >= max(len(a), len(b)) - 2 else 0.0


@dataclass(frozen=True)
class LabelMatch:
    """How a label (a heading, a row key) matches the question."""

    score: float
    positions: frozenset[int]   # the question's words it took


def match_label(parts: Sequence[Sequence[str]], question: Sequence[str], numbers_identify: bool = False
                ) -> LabelMatch | None:
    """Match a label made of `parts` (each a list of words: a merged heading, then the heading under
    it) against the question's words; None when it does not match.

    Words are matched in runs (phrases) greedily, longest first. A run of only stopwords counts for
    nothing, nor does a run of only numbers when the label has a word beside them: "5" in
    "Status 5" is not the "5" of "Xray 5". A part matches when at least half of its words do and
    every number in it does; a part with some words matched but a number missed contradicts the
    question and rules the label out. At least one part must match. With `numbers_identify` (a row
    key of two cells), a part of only numbers ("15" beside "Xray") must match too."""
    label = [word for part in parts for word in part]
    owner = [index for index, part in enumerate(parts) for _ in part]
    quality = [0.0] * len(label)
    like = [[_likeness(word, asked) for asked in question] for word in label]
    free_label, free_question = set(range(len(label))), set(range(len(question)))
    while True:
        best: tuple[int, int, int] | None = None
        for i in sorted(free_label):
            for j in sorted(free_question):
                k = 0
                while i + k in free_label and j + k in free_question and like[i + k][j + k] > 0:
                    k += 1
                if k and (best is None or k > best[2]):
                    best = (i, j, k)
        if best is None:
            break
        i, j, k = best
        run = label[i:i + k]
        beside = [label[n] for n in (i - 1, i + k) if 0 <= n < len(label) and owner[n] == owner[i]]
        lone_number = all(_is_number(w) for w in run) and any(not _is_number(w) and w not in _STOPWORDS
                                                                 for w in beside)
        useless = all(w in _STOPWORDS for w in run) or lone_number
        for offset in range(k):
            free_label.discard(i + offset)
            if not useless:
                free_question.discard(j + offset)
                quality[i + offset] = like[i + offset][j + offset]
    taken = frozenset(set(range(len(question))) - free_question)
    any_part = False
    unmatched_number_part = False
    for index in range(len(parts)):
        slots = [n for n, o in enumerate(owner) if o == index]
        content = [n for n in slots if label[n] not in _STOPWORDS]
        hit = [n for n in content if quality[n] > 0]
        numbers_missed = any(_is_number(label[n]) and quality[n] == 0 for n in content)
        if hit and numbers_missed:
            return None          # "Xray 15" for "Xray 5", "Status 1" for "Status 4"
        if content and len(hit) * 2 >= len(content) and not numbers_missed:
            any_part = True
        if content and not hit and all(_is_number(label[n]) for n in content):
            unmatched_number_part = True
    if not any_part or (numbers_identify and unmatched_number_part):
        return None
    gained = sum(_base(w) * q for w, q in zip(label, quality, strict=True))
    touched = {owner[n] for n, q in enumerate(quality) if q > 0}
    missed = sum(_base(w) * (MISSED_WORD_COST if owner[n] in touched else MISSED_PART_COST)
                 for n, (w, q) in enumerate(zip(label, quality, strict=True)) if q == 0)
    return LabelMatch(gained - missed, taken)


@dataclass(frozen=True)
class CellAnswer:
    """One cell a question names, with what locates it."""

    document: str
    page: int                   # the page the cell's row stands on (a continued table's later part)
    row_label: str
    column_label: str
    value: str
    rects: tuple[Box, ...]      # the value's cell, then the row key's: what a citation highlights
    score: float
    table_page: int             # the page the table starts on
    row_cells: tuple[str, ...] = ()   # the whole row, to tell apart rows whose keys read the same


def _slots(record: Mapping[str, Any]) -> list[list[Mapping[str, Any] | None]]:
    rows, cols = int(record.get("rows") or 0), int(record.get("cols") or 0)
    slots: list[list[Mapping[str, Any] | None]] = [[None] * cols for _ in range(rows)]
    for cell in record.get("cells") or []:
        for row in range(cell["row"], min(cell["row"] + int(cell.get("rowspan", 1)), rows)):
            for col in range(cell["col"], min(cell["col"] + int(cell.get("colspan", 1)), cols)):
                slots[row][col] = cell
    return slots


def _text(cell: Mapping[str, Any] | None) -> str:
    return " ".join(str(cell.get("text") or "").split()) if cell else ""


def _header_rows(record: Mapping[str, Any], slots: list[list[Mapping[str, Any] | None]]) -> int:
    """The record's header rows; when it names none, the first row if it reads like headings (no
    cell a bare number) above rows that hold numbers."""
    declared = int(record.get("header_rows") or 0)
    if declared or len(slots) < 2:
        return declared
    def numeric(text: str) -> bool:
        found = words(text)
        return bool(found) and all(_is_number(w) for w in found)
    first = [_text(cell) for cell in slots[0]]
    below = [_text(cell) for row in slots[1:] for cell in row]
    return 1 if any(first) and not any(numeric(t) for t in first) and any(numeric(t) for t in below) else 0


def _row_page(record: Mapping[str, Any], row: int) -> int:
    for part in record.get("parts") or []:
        if part["first_row"] <= row < part["first_row"] + part["rows"]:
            return int(part["page"])
    return int(record["page"])


def _is_code_or_words(text: str) -> bool:
    """Whether a cell may be a row key: it holds a word, or a number shaped like a code (not an amount)."""
    found = _cell_words(text)
    if not found:
        return False
    if any(not _is_number(w) for w in found):
        return True
    return len(found) == 1 and "." not in found[0] and len(found[0]) >= MIN_CODE_DIGITS


def _box(cell: Mapping[str, Any] | None) -> list[Box]:
    box = cell.get("bbox") if cell else None
    return [(float(box[0]), float(box[1]), float(box[2]), float(box[3]))] if box and len(box) >= 4 else []


@dataclass(frozen=True)
class _RowKey:
    text: str
    parts: tuple[tuple[str, ...], ...]
    boxes: tuple[Box, ...]
    cols: tuple[int, ...]


def _row_keys(row: list[Mapping[str, Any] | None]) -> list[_RowKey]:
    """A row's possible keys: each cell that holds a word or a code, and each two adjoining cells (a
    group cell merged over rows, beside its item: "Xray" | "5"). A cell merged over several rows
    names a group, not one row, so it is a key only with its neighbour."""
    keys: list[_RowKey] = []
    texts = [_text(cell) for cell in row]
    for col, text in enumerate(texts):
        cell = row[col]
        if not text or cell is None:
            continue
        if int(cell.get("rowspan", 1)) == 1 and _is_code_or_words(text):
            keys.append(_RowKey(text, (_cell_words(text),), tuple(_box(cell)), (col,)))
        after = texts[col + 1] if col + 1 < len(texts) else ""
        if after and row[col + 1] is not cell:
            keys.append(_RowKey(f"{text} {after}", (_cell_words(text), _cell_words(after)),
                                tuple(_box(cell) + _box(row[col + 1])), (col, col + 1)))
    return keys


def _headings(slots: list[list[Mapping[str, Any] | None]], header_rows: int) -> list[tuple[str, list[list[str]]]]:
    headings = []
    for col in range(len(slots[0]) if slots else 0):
        texts: list[str] = []
        for row in range(header_rows):
            text = _text(slots[row][col])
            if text and text not in texts:
                texts.append(text)
        headings.append((" ".join(texts), [list(_cell_words(t)) for t in texts]))
    return headings


def _table_cells(document: str, record: Mapping[str, Any], question: list[str]) -> list[CellAnswer]:
    slots = _slots(record)
    header_rows = _header_rows(record, slots)
    if not slots or not header_rows:
        return []
    columns: list[tuple[int, str, LabelMatch]] = []
    for col, (heading, parts) in enumerate(_headings(slots, header_rows)):
        found = match_label(parts, question) if heading else None
        if found is not None:
            columns.append((col, heading, found))
    if not columns:
        return []
    stems = {word[:4] for word in question}
    known: dict[tuple[tuple[str, ...], ...], LabelMatch | None] = {}
    found_cells: list[CellAnswer] = []
    for row in range(header_rows, len(slots)):
        matched: list[tuple[_RowKey, LabelMatch]] = []
        for key in _row_keys(slots[row]):
            if key.parts not in known:  # a word must share its first letters with one of the question's
                near = any(word[:4] in stems for part in key.parts for word in part)
                known[key.parts] = match_label(key.parts, question, numbers_identify=True) if near else None
            found = known[key.parts]
            if found is not None:
                matched.append((key, found))
        for col, heading, column in columns:
            usable = [(found.score, key) for key, found in matched
                      if col not in key.cols and not found.positions & column.positions]
            if not usable:
                continue
            score, key = max(usable, key=lambda item: item[0])
            cell = slots[row][col]
            whole = tuple(_text(c) for n, c in enumerate(slots[row]) if n == 0 or c is not slots[row][n - 1])
            found_cells.append(CellAnswer(document, _row_page(record, row), key.text, heading, _text(cell),
                                          tuple(_box(cell)) + key.boxes, score + column.score, int(record["page"]),
                                          whole))
    return found_cells


def find_cells(question: str, tables: Sequence[tuple[str, Mapping[str, Any]]]) -> list[CellAnswer]:
    """The cells `question` names in `tables` ((document, table record) pairs): the best one, or
    all that match equally well (ambiguous; at most MAX_ANSWERS), or none."""
    asked = words(question)
    found = [cell for document, record in tables for cell in _table_cells(document, record, asked)]
    if not found:
        return []
    top = max(cell.score for cell in found)
    best = [cell for cell in found if cell.score >= top - 1e-9]
    unique = list({(c.document, c.table_page, c.row_label, c.column_label, c.page, c.value): c for c in best}.values())
    return unique[:MAX_ANSWERS]
