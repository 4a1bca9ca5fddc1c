"""Where the reader left every document: page, zoom and the spot of the page at the window's top.

Kept in one small JSON file in the app data folder, keyed by the document's content fingerprint
(like the search indices) so a file that was moved or renamed still opens where it was left. Until
the fingerprint is known (it takes hashing the file) an entry is keyed by the path, and it moves
to the fingerprint as soon as that is known. The file is bounded to the most recently read
`MAX_DOCUMENTS`, so it stays small however many documents pass through.

Every write re-reads the file and merges (per document, the newer entry wins), then replaces it
atomically: two pdfdesk processes never corrupt it, and when both move in the same document at
the same moment, the last writer wins.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pdfdesk.core import paths
from pdfdesk.core.state_file import read_state, write_state

POSITIONS_FILE = "positions.json"
MAX_DOCUMENTS = 2000
ZOOM_MODE_NAMES = ("fit_width", "fit_page", "custom")
PATH_KEY = "path:"  # prefix of entries whose fingerprint is not known yet
_lock = threading.Lock()  # one read-merge-write at a time within this process


@dataclass(frozen=True)
class DocumentPosition:
    """A place in a document: a 1-based page, the zoom (its factor and how it was chosen) and the
    point of that page, in PDF points, that sat at the window's top-left corner."""

    page: int
    zoom: float
    zoom_mode: str
    x_pt: float = 0.0
    y_pt: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page, "zoom": round(self.zoom, 4), "mode": self.zoom_mode,
                "x": round(self.x_pt, 1) + 0.0, "y": round(self.y_pt, 1) + 0.0}  # + 0.0: no "-0.0"

    @classmethod
    def from_json(cls, data: Any) -> DocumentPosition | None:
        """The position in `data`, or None when it is not one (a hand-edited or damaged entry)."""
        if not isinstance(data, dict):
            return None
        zoom: Any  # whatever the file holds, checked below
        page, zoom, mode = data.get("page"), data.get("zoom"), data.get("mode")
        x, y = data.get("x", 0.0), data.get("y", 0.0)
        numbers = (zoom, x, y)
        if (not isinstance(page, int) or isinstance(page, bool) or page < 1 or mode not in ZOOM_MODE_NAMES
                or not all(isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n)
                           for n in numbers) or zoom <= 0):
            return None
        return cls(page, float(zoom), mode, float(x), float(y))


@dataclass(frozen=True)
class Remembered:
    """One document's position to store: its reference, its fingerprint when known, and when."""

    reference: str
    fingerprint: str | None
    position: DocumentPosition
    at: float = 0.0


def _file() -> Path:
    return paths.app_data_dir() / POSITIONS_FILE


def _entries() -> dict[str, dict[str, Any]]:
    data = read_state(_file())
    documents = data.get("documents") if data else None
    if not isinstance(documents, dict):
        return {}
    return {key: entry for key, entry in documents.items() if isinstance(key, str) and isinstance(entry, dict)}


def _at(entry: dict[str, Any]) -> float:
    at = entry.get("at")
    return float(at) if isinstance(at, (int, float)) and math.isfinite(at) else 0.0


def recall(reference: str, fingerprint: str | None = None) -> DocumentPosition | None:
    """Where the document was left: by its fingerprint when known, else the newest entry for its path."""
    entries = _entries()
    if fingerprint:
        found = DocumentPosition.from_json(entries.get(fingerprint))
        if found is not None:
            return found
    same_path = sorted((entry for entry in entries.values() if entry.get("path") == reference), key=_at)
    for entry in reversed(same_path):
        found = DocumentPosition.from_json(entry)
        if found is not None:
            return found
    return None


def remember(items: Iterable[Remembered]) -> bool:
    """Store the positions of `items`; False when the file could not be written (nothing is raised)."""
    items = list(items)
    if not items:
        return True
    now = time.time()
    with _lock:
        entries = _entries()
        for item in items:
            at = item.at or now
            path_key = PATH_KEY + item.reference
            key = item.fingerprint or path_key
            if item.fingerprint:
                entries.pop(path_key, None)  # the path's entry has become the fingerprint's
            if _at(entries.get(key, {})) > at:
                continue  # another process (or a later save) stored a newer place
            entries[key] = {**item.position.to_json(), "path": item.reference, "at": round(at, 3)}
        return _write(entries)


def adopt(reference: str, fingerprint: str) -> bool:
    """The fingerprint of `reference` became known: key its path entry by the fingerprint from now on."""
    with _lock:
        entries = _entries()
        entry = entries.pop(PATH_KEY + reference, None)
        if entry is None:
            return True
        if _at(entries.get(fingerprint, {})) <= _at(entry):
            entries[fingerprint] = entry
        return _write(entries)


def _write(entries: dict[str, dict[str, Any]]) -> bool:
    if len(entries) > MAX_DOCUMENTS:
        newest = sorted(entries.items(), key=lambda item: _at(item[1]), reverse=True)[:MAX_DOCUMENTS]
        entries = dict(newest)
    return write_state(_file(), {"version": 1, "documents": entries})
