"""Where an index's lock files live; the lock itself is the shared one in `pdfdesk.core.locks`.

Whoosh's write lock only covers one commit; a build is many commits, so the builder of a document
holds a lock from start to end and any other would-be builder leaves the work to it (or waits).
"""

from __future__ import annotations

from pathlib import Path

from pdfdesk.core.locks import file_lock, open_lock_file

__all__ = ["file_lock", "lock_path", "open_lock_file"]


def lock_path(indices_root: Path, fingerprint: str, purpose: str) -> Path:
    """Lock files live beside the index folders, never inside one (a rebuild deletes the folder)."""
    return indices_root / ".locks" / f"{fingerprint}.{purpose}.lock"
