"""A faster positions format for Whoosh text fields.

Whoosh's own `Positions` format runs every token through the analyzer's generator chain and
pickles each term's position list; together that was most of the time spent indexing a page.
This format takes the terms and positions straight from `analysis.term_positions` (what
`PageAnalyzer` yields, without a Token object per word) and stores positions as packed 32-bit deltas.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import Any

from whoosh.formats import Positions
from whoosh.system import _INT_SIZE, pack_uint, unpack_uint

from pdfdesk.index.analysis import PageAnalyzer, term_positions


class PackedPositions(Positions):
    """Positions of each term in a document, delta-encoded as an array of unsigned ints."""

    def word_values(self, value: Any, analyzer: Any, **kwargs: Any) -> Iterator[tuple[str, int, float, bytes]]:
        if not isinstance(value, str) or not isinstance(analyzer, PageAnalyzer):
            yield from super().word_values(value, analyzer, **kwargs)
            return
        positions = term_positions(value)
        boost = self.field_boost
        for term, found in positions.items():
            yield term, len(found), len(found) * boost, self.encode(found)

    def encode(self, poslist: list[int]) -> bytes:
        deltas = array("I")
        base = 0
        for position in poslist:
            deltas.append(position - base)
            base = position
        packed: bytes = pack_uint(len(deltas)) + deltas.tobytes()
        return packed

    def decode_positions(self, valuestring: bytes) -> list[int]:
        deltas = array("I")
        deltas.frombytes(valuestring[_INT_SIZE:])
        positions, position = [], 0
        for delta in deltas:
            position += delta
            positions.append(position)
        return positions

    def decode_frequency(self, valuestring: bytes) -> int:
        frequency: int = unpack_uint(valuestring[:_INT_SIZE])[0]
        return frequency
