"""Tables whose cells are drawn: ruling lines joined into grids, merged cells found where a
line between two slots is missing.

Lines are merged first (producers draw a rule as many short pieces, or a cell as its own box, so
the same edge comes twice), then grouped by touching: each group with at least two lines each way
is a grid candidate. A slot's edge counts as drawn when lines cover most of it.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable

from pdfdesk.core.tables.cells import Slot
from pdfdesk.core.tables.page_content import Rule

SNAP = 2.5           # lines this close are the same line (double rules, pen widths)
MIN_LENGTH = 4.0     # shorter lines are marks, not rules
MAX_RULES = 2_000    # per direction after merging; more is a drawing, not a table
EDGE_COVERED = 0.6   # share of a slot's edge a line must cover to separate two slots
MAX_SLOTS = 20_000   # slots of one grid (a sheet of graph paper is not a table anyone reads)
Grid = tuple[list[float], list[float], list[Slot]]  # column edges, row edges, slots


def merge_rules(rules: Iterable[Rule], horizontal: bool) -> list[Rule]:
    """Rules of one direction with pieces of the same line joined."""
    chosen = sorted((r for r in rules if r.horizontal == horizontal), key=lambda r: (r.at, r.start))
    merged: list[Rule] = []
    for rule in chosen:
        for index in range(len(merged) - 1, -1, -1):
            last = merged[index]
            if rule.at - last.at > SNAP:
                merged.append(rule)
                break
            if rule.start <= last.end + SNAP and rule.end >= last.start - SNAP:
                merged[index] = Rule(horizontal, last.at, min(last.start, rule.start), max(last.end, rule.end))
                break
        else:
            merged.append(rule)
    return [r for r in merged if r.end - r.start >= MIN_LENGTH]


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _components(horizontal: list[Rule], vertical: list[Rule]) -> list[tuple[list[Rule], list[Rule]]]:
    parent = list(range(len(horizontal) + len(vertical)))
    vertical = sorted(vertical, key=lambda v: v.at)
    places = [v.at for v in vertical]
    for i, h in enumerate(horizontal):
        first, last = bisect.bisect_left(places, h.start - SNAP), bisect.bisect_right(places, h.end + SNAP)
        for j in range(first, last):
            v = vertical[j]
            if v.start - SNAP <= h.at <= v.end + SNAP:
                a, b = _find(parent, i), _find(parent, len(horizontal) + j)
                if a != b:
                    parent[a] = b
    groups: dict[int, tuple[list[Rule], list[Rule]]] = defaultdict(lambda: ([], []))
    for i, h in enumerate(horizontal):
        groups[_find(parent, i)][0].append(h)
    for j, v in enumerate(vertical):
        groups[_find(parent, len(horizontal) + j)][1].append(v)
    return [group for group in groups.values() if len(group[0]) >= 2 and len(group[1]) >= 2]


def _edges(positions: Iterable[float]) -> list[float]:
    edges: list[float] = []
    for value in sorted(positions):
        if edges and value - edges[-1] <= SNAP:
            continue
        edges.append(value)
    return edges


def _outer(edges: list[float], low: float, high: float) -> list[float]:
    """Edges with the lines' far ends added where they reach well past the outermost edge."""
    if edges and low < edges[0] - 4 * SNAP:
        edges = [low, *edges]
    if edges and high > edges[-1] + 4 * SNAP:
        edges = [*edges, high]
    return edges


def _near(rules: list[Rule], edges: list[float]) -> list[list[Rule]]:
    """For each edge, the lines that lie on it."""
    return [[r for r in rules if abs(r.at - edge) <= SNAP] for edge in edges]


def _covered(rules: list[Rule], start: float, end: float) -> bool:
    """Whether these lines (all on one edge) cover most of the span start..end."""
    spans = sorted((max(r.start, start), min(r.end, end)) for r in rules if r.end > start and r.start < end)
    covered, reach = 0.0, start
    for a, b in spans:
        a = max(a, reach)
        if b > a:
            covered += b - a
            reach = b
    return covered >= EDGE_COVERED * (end - start)


def _grid(horizontal: list[Rule], vertical: list[Rule]) -> Grid | None:
    xs, ys = _edges(v.at for v in vertical), _edges(h.at for h in horizontal)
    # a table ruled between its columns but not around them: its rows' lines reach past the last
    # column line, and the cells out there are the table's first and last columns
    xs = _outer(xs, min(h.start for h in horizontal), max(h.end for h in horizontal))
    ys = _outer(ys, min(v.start for v in vertical), max(v.end for v in vertical))
    if len(xs) < 2 or len(ys) < 2:
        return None
    rows, cols = len(ys) - 1, len(xs) - 1
    if rows * cols > MAX_SLOTS:
        return None
    on_x, on_y = _near(vertical, xs), _near(horizontal, ys)
    parent = list(range(rows * cols))
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and not _covered(on_x[c + 1], ys[r], ys[r + 1]):
                parent[_find(parent, r * cols + c)] = _find(parent, r * cols + c + 1)
            if r + 1 < rows and not _covered(on_y[r + 1], xs[c], xs[c + 1]):
                parent[_find(parent, r * cols + c)] = _find(parent, (r + 1) * cols + c)
    members: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for r in range(rows):
        for c in range(cols):
            members[_find(parent, r * cols + c)].append((r, c))
    slots = []
    for group in members.values():
        top, left = min(r for r, _ in group), min(c for _, c in group)
        bottom, right = max(r for r, _ in group), max(c for _, c in group)
        if len(group) == (bottom - top + 1) * (right - left + 1):
            slots.append(Slot(top, left, (xs[left], ys[top], xs[right + 1], ys[bottom + 1]),
                              bottom - top + 1, right - left + 1))
        else:  # lines that do not close a rectangle: keep the slots apart rather than guess
            slots += [Slot(r, c, (xs[c], ys[r], xs[c + 1], ys[r + 1])) for r, c in group]
    return xs, ys, slots


def ruled_grids(rules: list[Rule]) -> tuple[list[Grid], str | None]:
    """The grids the page's lines draw, and a note when there were too many lines to look."""
    horizontal, vertical = merge_rules(rules, True), merge_rules(rules, False)
    if len(horizontal) > MAX_RULES or len(vertical) > MAX_RULES:
        return [], f"the page draws {len(horizontal) + len(vertical):,} lines; ruled tables were not looked for"
    grids = []
    for group_h, group_v in _components(horizontal, vertical):
        grid = _grid(group_h, group_v)
        if grid is not None:
            grids.append(grid)
    return grids, None
