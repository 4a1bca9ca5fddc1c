"""Hypothesis mutates valid PDFs (flipped bytes, cut tails, dropped and repeated runs, spliced
objects) and every tool must answer with a result or a coded error.

The normal suite runs a few dozen examples; set PDFDESK_LONG_FUZZ=1 for a long run (bench/robustness.py
--mutate N does the same over any folder of PDFs, in worker processes).
"""

from __future__ import annotations

import itertools
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdfdesk.core.errors import ERROR_CODES, INTERNAL_ERROR
from pdfdesk.tools import call_tool
from tests.hardening.corpus import base_documents

LONG = os.environ.get("PDFDESK_LONG_FUZZ") == "1"
EXAMPLES = 600 if LONG else 30
_counter = itertools.count()


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    return [path.read_bytes() for path in base_documents(tmp_path_factory.mktemp("fuzz-bases"))]


Edit = tuple[str, float, float, int]
edits = st.lists(
    st.tuples(st.sampled_from(["flip", "cut", "drop", "repeat", "splice"]),
              st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.integers(0, 255)),
    min_size=1, max_size=6,
)


def apply(data: bytes, steps: list[Edit]) -> bytes:
    out = bytearray(data)
    for kind, where, amount, value in steps:
        if len(out) < 16:
            break
        at = 9 + int(where * (len(out) - 10))
        size = 1 + int(amount * 512)
        if kind == "flip":
            out[at] = value
        elif kind == "cut":
            del out[at:]
        elif kind == "drop":
            del out[at:at + size]
        elif kind == "repeat":
            out[at:at] = out[at:at + size]
        else:  # splice a plausible token where it breaks the most
            tokens = [b"obj", b"endobj", b"stream", b"R", b"<<", b">>", b"[", b"xref", b"%%EOF", b"9999999999"]
            token = tokens[value % 10]
            out[at:at] = b" " + token + b" "
    return bytes(out)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(which=st.integers(0, 3), steps=edits)
def test_mutated_pdfs_get_results_or_coded_errors(bases, tmp_path, which, steps):
    path = tmp_path / f"mutant-{next(_counter)}.pdf"  # a new name each time: no cached document is reused
    path.write_bytes(apply(bases[which % len(bases)], steps))
    for tool, extra in [("pdf_info", {}), ("pdf_extract_text", {"max_chars": 5000}),
                        ("pdf_render_page", {"page": 1, "dpi": 72}), ("pdf_outline", {})]:
        result = call_tool(tool, {"path": str(path), **extra})
        json.dumps(result.to_dict(), ensure_ascii=False).encode("utf-8")
        if result.is_error:
            code = result.details["error"]
            assert code in ERROR_CODES and code != INTERNAL_ERROR, (tool, result.details)
            assert result.details["message"] and result.details["hint"]
