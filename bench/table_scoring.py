"""How the table bench scores a found table against the truth, and what it adds up.

A table's cells are compared by their adjacency relations: each non-empty cell with its nearest
non-empty neighbour to the right and below, texts with whitespace collapsed and NFKC-folded (the
usual measure of table structure: it is indifferent to an extra empty row or column, and a grid
transposed or shifted by one cell scores low). "exact" is the whole grid equal, cell for cell.

Found tables are matched to the true ones of their page one to one, by the overlap of their boxes
(intersection over union, highest first, at least 0.2), in unrotated page points. A found table
matched to no true one is a false table, unless most of it lies in a region the truth leaves
unscored (a key-value block).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

Grid = list[list[str]]
Box = tuple[float, float, float, float]
MIN_IOU = 0.2
IGNORED_SHARE = 0.5


def normalised(text: str | None) -> str:
    """Whitespace collapsed, and NFKC: a producer that sets "ff" as one ligature glyph says the same."""
    return unicodedata.normalize("NFKC", " ".join((text or "").split()))


def relations(grid: Grid) -> Counter[tuple[str, str, str]]:
    """Each non-empty cell with its nearest non-empty neighbour to the right and below."""
    found: Counter[tuple[str, str, str]] = Counter()
    cells = [[normalised(text) for text in row] for row in grid]
    for r, row in enumerate(cells):
        for c, text in enumerate(row):
            if not text:
                continue
            right = next((other for other in row[c + 1:] if other), None)
            if right is not None:
                found[(text, right, "right")] += 1
            below = next((cells[b][c] for b in range(r + 1, len(cells)) if c < len(cells[b]) and cells[b][c]), None)
            if below is not None:
                found[(text, below, "below")] += 1
    return found


def score(truth: Grid, predicted: Grid | None) -> tuple[int, int, int, bool]:
    """(relations right, relations predicted, relations true, exact grid)."""
    wanted = relations(truth)
    got = relations(predicted) if predicted is not None else Counter()
    right = sum((wanted & got).values())
    exact = predicted is not None and [[normalised(t) for t in row] for row in predicted] == \
        [[normalised(t) for t in row] for row in truth]
    return right, sum(got.values()), sum(wanted.values()), exact


def area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def intersection(a: Box, b: Box) -> float:
    return area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def iou(a: Box, b: Box) -> float:
    shared = intersection(a, b)
    union = area(a) + area(b) - shared
    return shared / union if union > 0 else 0.0


def match(truths: list[Box], found: list[Box]) -> dict[int, int]:
    """Truth index -> found index, one to one, the pairs overlapping most first."""
    pairs = sorted(((iou(t, f), ti, fi) for ti, t in enumerate(truths) for fi, f in enumerate(found)), reverse=True)
    taken_t: dict[int, int] = {}
    taken_f: set[int] = set()
    for overlap, ti, fi in pairs:
        if overlap < MIN_IOU:
            break
        if ti not in taken_t and fi not in taken_f:
            taken_t[ti] = fi
            taken_f.add(fi)
    return taken_t


def ignored(box: Box, regions: list[Box]) -> bool:
    """Most of `box` lies in one of the unscored regions."""
    return any(intersection(box, region) >= IGNORED_SHARE * area(box) for region in regions if area(box) > 0)


@dataclass
class Tally:
    """Sums for one row of the report: relations, exact grids, tables found and missed, false tables."""

    right: int = 0
    got: int = 0
    wanted: int = 0
    exact: int = 0
    found: int = 0
    tables: int = 0
    false: int = 0

    def add(self, scored: tuple[int, int, int, bool], found: bool) -> None:
        self.right += scored[0]
        self.got += scored[1]
        self.wanted += scored[2]
        self.exact += scored[3]
        self.found += found
        self.tables += 1

    @property
    def precision(self) -> float:
        return self.right / self.got if self.got else 0.0

    @property
    def recall(self) -> float:
        return self.right / self.wanted if self.wanted else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0
