"""Small JSON files of remembered state (recent files, the last session, reading positions).

They are conveniences: losing one costs a reader their place, never their work, so nothing about
them may stop the app from starting. Reading opens without blocking and checks the file before
reading a byte (a FIFO or device in its place would hang the start; a huge file would delay it);
anything unreadable or malformed reads as "nothing remembered". Writing replaces the file
atomically, so a second pdfdesk reading it meanwhile sees the old content or the new, and a disk
that refuses the write is reported to the caller as False instead of an exception.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

from pdfdesk.core.atomic import write_json_atomically

log = logging.getLogger(__name__)

MAX_STATE_BYTES = 8 * 1024 * 1024
_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
          | getattr(os, "O_BINARY", 0))


def _read_bytes(path: Path, max_bytes: int) -> bytes | None:
    try:
        fd = os.open(path, _FLAGS)
    except OSError:  # missing, unreadable, a dangling link
        return None
    try:
        with os.fdopen(fd, "rb") as handle:  # closes `fd` whatever happens inside
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
                log.info("%s is not a small regular file; ignored", path)
                return None
            data = handle.read(max_bytes + 1)  # the file may have grown since fstat
    except OSError:
        return None
    return data if len(data) <= max_bytes else None


def read_state(path: Path, max_bytes: int = MAX_STATE_BYTES) -> dict[str, Any] | None:
    """The JSON object stored at `path`, or None when there is none that can be used."""
    data = _read_bytes(path, max_bytes)
    if data is None:
        return None
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        log.info("%s is damaged; ignored", path)
        return None
    return value if isinstance(value, dict) else None


def write_state(path: Path, data: dict[str, Any]) -> bool:
    """Replace `path` with `data`; False when the disk or the file's place refused it."""
    try:
        write_json_atomically(path, data, indent=1)
    except OSError as exc:  # read-only or full disk, a folder in the file's place
        log.info("cannot write %s: %s", path, exc)
        return False
    return True
