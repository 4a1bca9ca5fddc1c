"""Whose failure is it: MuPDF's (a damaged document) or pdfdesk's (a bug)?

PyMuPDF reports damage as plain RuntimeError/ValueError or as the bindings' FzError classes, and
pdfdesk's own code can raise the same plain types. Labelling every ValueError "MuPDF could not
process the document" would blame the file for pdfdesk's bugs and hide them, so the origin decides:
an FzError, or a RuntimeError/ValueError raised by PyMuPDF's own code.
"""

from __future__ import annotations

import os

import pymupdf

_PYMUPDF_DIR = os.path.dirname(os.path.abspath(pymupdf.__file__)) + os.sep


def _raised_in_pymupdf(exc: BaseException) -> bool:
    frame = exc.__traceback__
    if frame is None:
        return False
    while frame.tb_next is not None:
        frame = frame.tb_next
    return os.path.abspath(frame.tb_frame.f_code.co_filename).startswith(_PYMUPDF_DIR)


def is_mupdf_error(exc: BaseException) -> bool:
    """True when MuPDF (or PyMuPDF on its behalf) raised `exc` about the document it was reading."""
    if isinstance(exc, pymupdf.mupdf.FzErrorBase):
        return True
    return isinstance(exc, (RuntimeError, ValueError)) and _raised_in_pymupdf(exc)
