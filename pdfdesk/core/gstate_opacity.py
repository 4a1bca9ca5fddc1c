"""Whether a named graphics state (an ExtGState in the resources) makes what is drawn invisible:
a fill or stroke opacity too low for a reader to see anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pymupdf import mupdf

INVISIBLE_ALPHA = 0.05      # a fill (or stroke) opacity under this leaves nothing a reader sees
Transparent = Callable[[str], bool]  # whether a named graphics state makes drawing invisible


def transparent_state(names: list[bytes], transparent: Transparent | None) -> bool:
    """Whether one of the graphics states a stream selects makes what it draws invisible."""
    if transparent is None:
        return bool(names)
    return any(transparent(_name(raw[::-1])) for raw in set(names))


def _name(token: bytes) -> str:
    """A name operand ("/GS#200") as the key a dictionary holds ("GS 0")."""
    token = token[1:] if token.startswith(b"/") else token
    if b"#" in token:
        token = re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), token)
    return token.decode("latin-1")


_EXT_GSTATE = mupdf.PDF_ENUM_NAME_ExtGState


def transparency(resources: Callable[[], mupdf.PdfObj | None]) -> Transparent:
    """Looks up a named graphics state in the resources (fetched only when a stream selects one):
    does it set a fill or stroke opacity under INVISIBLE_ALPHA? (A name they do not define
    selects nothing: MuPDF ignores it.)"""
    def hides(name: str) -> bool:
        found = resources()
        states = mupdf.pdf_dict_get(found, _EXT_GSTATE) if found is not None else None
        if states is None or not mupdf.pdf_is_dict(states):
            return False
        state = mupdf.pdf_dict_gets(states, name)
        if not mupdf.pdf_is_dict(state):
            return False
        for key in ("ca", "CA"):
            value = mupdf.pdf_dict_gets(state, key)
            if mupdf.pdf_is_number(value) and mupdf.pdf_to_real(value) < INVISIBLE_ALPHA:
                return True
        return False

    return hides
