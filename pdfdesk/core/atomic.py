"""Replacing a small file so that a reader, a crash or a kill at any moment sees the old content
or the new, never half of either: write a temporary file beside it, flush it to disk, rename it
over the old one. Every file pdfdesk rewrites in place (index state, the indexing queue, the
library, settings, recent files) goes through here."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any


def write_text_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text`; on failure the old file is untouched and no temporary is left."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            temp.unlink(missing_ok=True)
        except OSError:  # e.g. the disk turned read-only meanwhile: the first error is the one to report
            pass
        raise


def write_json_atomically(path: Path, data: Any, indent: int | None = None) -> None:
    write_text_atomically(path, json.dumps(data, indent=indent))
