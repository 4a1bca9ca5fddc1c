"""How a heading's title is compared with a line of text: by its letters and digits alone, with
or without its label ("3.2", "Chapter 3"), or loosely by its words.
"""

from __future__ import annotations

import re

from pdfdesk.index.page_lines import nfkc

_NOT_WORD = re.compile(r"[\W_]+")
# A heading's label: "3", "3.2.", "A.1", "IV.", "Chapter 3", "Appendix B:", "Глава 2", "第3章".
LABEL = re.compile(
    r"^\s*(?:(?i:chapter|section|part|appendix|annex|глава|раздел|часть|приложение)\s+[\w.]+[.:]?\s*"
    r"|第\s*[0-9一二三四五六七八九十百千]+\s*[章节節部篇]\s*"
    r"|\d+(?:\.\d+)*\.?\)?(?!\d)\s*"
    r"|[IVXLC]+\.\s+"
    r"|[A-Z](?:\.\d+)*\.?\s+)")
_WORDS = re.compile(r"\w+")


def title_key(text: str) -> str:
    """A title reduced to its letters and digits, case-folded: how two titles are compared."""
    return _NOT_WORD.sub("", nfkc(text).casefold())


def title_keys(text: str) -> tuple[str, str]:
    """The title's key with and without a leading label ("3.2", "Chapter 3")."""
    return title_key(text), title_key(LABEL.sub("", text, count=1))


def title_words(text: str) -> set[str]:
    """A title's words past its label, cut to five characters (so "encryption" meets
    "encrypting", and a short outline title meets its longer printed heading)."""
    return {w[:5] for w in _WORDS.findall(nfkc(LABEL.sub("", text, count=1)).casefold()) if len(w) >= 2}
