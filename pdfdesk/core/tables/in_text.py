"""A page's text with its tables kept: each table written as Markdown where it stands, in place of
the loose lines its cells would otherwise make, the rest of the page's lines as they are."""

from __future__ import annotations

from collections.abc import Sequence

from pdfdesk.core.tables.formats import to_markdown
from pdfdesk.core.tables.model import Table
from pdfdesk.core.tables.page_content import WordTuple


def _inside(x: float, y: float, box: Sequence[float]) -> bool:
    return box[0] - 1 <= x <= box[2] + 1 and box[1] - 1 <= y <= box[3] + 1


def text_with_tables(words: Sequence[WordTuple], tables: Sequence[Table]) -> str:
    """The page's lines in reading order (words of one MuPDF line joined by spaces); a line that
    stands in a table is left out, and the table's Markdown comes where its first line was."""
    lines: list[tuple[tuple[int, int], list[WordTuple]]] = []
    for word in words:
        key = (word[5], word[6])
        if lines and lines[-1][0] == key:
            lines[-1][1].append(word)
        else:
            lines.append((key, [word]))
    out: list[str] = []
    written: set[int] = set()
    for _key, line in lines:
        # a line's words may fall in a table or beside it (a caption on the same line)
        outside = []
        for word in line:
            x, y = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
            table = next((i for i, t in enumerate(tables) if _inside(x, y, t.bbox)), None)
            if table is None:
                outside.append(word[4])
            elif table not in written:
                written.add(table)
                if outside:
                    out.append(" ".join(outside))
                    outside = []
                began = next((n for n in tables[table].notes if n.startswith("continued from")), None)
                lead = f"({began})\n" if began else ""
                out.append("\n" + lead + to_markdown(tables[table]) + "\n")
        if outside:
            out.append(" ".join(outside))
    return "\n".join(out)
