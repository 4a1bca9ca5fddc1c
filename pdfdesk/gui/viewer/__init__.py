"""The document viewer: a continuous, zoomable, off-thread-rendered view of one PDF.

Public classes: `DocumentView` (one open document), `ThumbnailPanel` (its page thumbnails) and
`FindBar` (Ctrl+F inside a view). `shutdown()` stops every viewer thread and the render helper
(application exit). Names are imported on first use, so the render helper process, which imports
a Qt-free module of this package, does not load Qt.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "DocumentView": "pdfdesk.gui.viewer.view",
    "ThumbnailPanel": "pdfdesk.gui.viewer.thumbnails",
    "FindBar": "pdfdesk.gui.viewer.find_bar",
    "shutdown": "pdfdesk.gui.viewer.threads",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
