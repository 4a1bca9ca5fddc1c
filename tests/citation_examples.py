"""Every way an answer may cite pages, and what it cites: one table for the parser, the agent's
tracker and the chat pane's links, so the three cannot drift apart.

Each row is (answer text, cited items); an item is (file name or None, first page, last page).
None means "the only attached document". Rows citing nothing are quoted or malformed text.
"""

from __future__ import annotations

REPORT = "/docs/report.pdf"
OTHER = "/docs/other file.pdf"
NAMES = {"report.pdf": REPORT, "other file.pdf": OTHER}

Cited = tuple[str | None, int, int]

EXAMPLES: list[tuple[str, list[Cited]]] = [
    ("The fee is due [p. 3].", [(None, 3, 3)]),
    ("The fee is due [P. 3].", [(None, 3, 3)]),
    ("The fee is due [page 3].", [(None, 3, 3)]),
    ("The fee is due [ Page 12 ].", [(None, 12, 12)]),
    ("Both [pp. 3, 5].", [(None, 3, 3), (None, 5, 5)]),
    ("Both [pp. 3 and 5].", [(None, 3, 3), (None, 5, 5)]),
    ("A range [pp. 3-5].", [(None, 3, 5)]),
    ("A range [pp. 3–5].", [(None, 3, 5)]),
    ("A range [pages 3 - 4].", [(None, 3, 4)]),
    ("Mixed [pp. 2, 7-8].", [(None, 2, 2), (None, 7, 8)]),
    ("Named [report.pdf p. 4].", [("report.pdf", 4, 4)]),
    ("Named [report.pdf; p. 4].", [("report.pdf", 4, 4)]),
    ("Named [report.pdf, page 4].", [("report.pdf", 4, 4)]),
    ("Named [report.pdf: p. 4].", [("report.pdf", 4, 4)]),
    ("Named [Report.PDF p. 4].", [("report.pdf", 4, 4)]),
    ("Named [report.pdf, pp. 4-5].", [("report.pdf", 4, 5)]),
    ("Named [report.pdf pp. 4, 6; p. 8].", [("report.pdf", 4, 4), ("report.pdf", 6, 6), ("report.pdf", 8, 8)]),
    ("Spaces [other file.pdf p. 2].", [("other file.pdf", 2, 2)]),
    ("Two [report.pdf p. 4; other file.pdf p. 2].", [("report.pdf", 4, 4), ("other file.pdf", 2, 2)]),
    ("Two [report.pdf p. 4, other file.pdf pp. 2-3].", [("report.pdf", 4, 4), ("other file.pdf", 2, 3)]),
    ("Two [report.pdf p. 4 and other file.pdf page 2].", [("report.pdf", 4, 4), ("other file.pdf", 2, 2)]),
    ("Apart [report.pdf p. 4] and [other file.pdf p. 1].", [("report.pdf", 4, 4), ("other file.pdf", 1, 1)]),
    ("“The seller shall pay [p. 9]” [p. 3]", [(None, 3, 3)]),
    ("Quoted: “see [p. 9]", []),
    ("Code: `[p. 9]` and [p. 3]", [(None, 3, 3)]),
    ("```\nfees [p. 9]\n```\nafter [p. 2]", [(None, 2, 2)]),
    ("[see p. 3] [3] [report.pdf] [p. x] [pp. ]", []),
]
