"""Recently opened documents: a small JSON list in the app data folder, newest first.

Kept as a plain file (not QSettings) so it follows `PDFDESK_HOME` like every other piece of state,
and stays readable by hand. Written atomically; an unreadable file (or a FIFO in its place) is
treated as empty. Entries are normalised like every other reference, so the same file is one entry
however it was named.
"""

from __future__ import annotations

from pathlib import Path

from pdfdesk.core import paths
from pdfdesk.core.references import normalise_reference
from pdfdesk.core.state_file import read_state, write_state

RECENT_FILE = "recent.json"
MAX_RECENT = 15


def _file() -> Path:
    return paths.app_data_dir() / RECENT_FILE


def load_recent() -> list[str]:
    data = read_state(_file()) or {}  # a damaged file, or a FIFO in its place, reads as empty
    items = data.get("recent", [])
    return [item for item in items if isinstance(item, str)][:MAX_RECENT] if isinstance(items, list) else []


def _save(items: list[str]) -> None:
    # a read-only or full data folder is not reported: the list is a convenience, opening goes on
    write_state(_file(), {"recent": items[:MAX_RECENT]})


def add_recent(reference: str) -> list[str]:
    """Put `reference` first (once); returns the new list."""
    entry = normalise_reference(reference)
    items = [entry] + [item for item in load_recent() if item != entry]
    _save(items)
    return items[:MAX_RECENT]


def remove_recent(reference: str) -> list[str]:
    entry = normalise_reference(reference)
    items = [item for item in load_recent() if item != entry]
    _save(items)
    return items


def clear_recent() -> None:
    _save([])
