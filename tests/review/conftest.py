"""Fixtures for review tests: a fresh notes store per test, and PDFs built line by line so a
test can make the "next version" of a document (a page inserted, a sentence cut, text reflowed)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import close_all, open_pdf
from pdfdesk.review.store import AnnotationStore, close_stores, open_store


@pytest.fixture(autouse=True)
def fresh_stores() -> Iterator[None]:
    close_stores()
    yield
    close_stores()


@pytest.fixture
def store(pdfdesk_home: Path) -> AnnotationStore:
    return open_store()


def lines_pdf(path: Path, pages: Sequence[Sequence[str]], x: float = 72, top: float = 72, step: float = 18) -> Path:
    """One page per entry, each line of it drawn with Helvetica 11 pt, `step` points apart."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for number, line in enumerate(lines):
            page.insert_text((x, top + number * step), line, fontsize=11)
    doc.save(path)
    doc.close()
    return path


def box_pdf(path: Path, text: str, width: float, before: Sequence[str] = ()) -> Path:
    """`text` wrapped into a box `width` points wide (so another width reflows it)."""
    doc = pymupdf.open()
    for extra in before:
        doc.new_page().insert_text((72, 72), extra, fontsize=11)
    page = doc.new_page()
    spare = page.insert_textbox(pymupdf.Rect(72, 72, 72 + width, 760), text, fontsize=11)
    assert spare >= 0, "the text did not fit"
    doc.save(path)
    doc.close()
    return path


def words_under(path: Path, page: int, rects: Sequence[Sequence[float]]) -> str:
    """The page's text inside `rects` (a little taller, as a highlight is drawn), joined."""
    with open_pdf(str(path)) as opened:
        target = opened.load_page(page)
        return " ".join(target.get_textbox(pymupdf.Rect(r) + (-1, -1, 1, 1)).strip() for r in rects)  # noqa: RUF005 - Rect arithmetic


def replace_file(path: Path, build) -> Path:
    """Rewrite the file at `path` as its next version (the cached open document is dropped)."""
    close_all()
    tmp = path.with_name(path.stem + ".next.pdf")
    build(tmp)
    tmp.replace(path)
    close_all()
    return path
