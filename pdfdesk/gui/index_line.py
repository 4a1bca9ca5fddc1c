"""The status bar's indexing line: the open documents' index builds, then their recognition.

One bar says what the indexing owner is doing for the documents open in tabs: pages indexed
while a keyword stage runs, else scanned pages recognised while the OCR stage reads them; the
current tab's document first, "(+N)" for the others. The bar is narrow, so it shows the longest
text that fits and the whole sentence in its tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QProgressBar

from pdfdesk.gui.indexing import IndexProgress
from pdfdesk.gui.progress_line import fit_format


def show_index_line(bar: QProgressBar, latest: Sequence[IndexProgress], current: str | None) -> bool:
    """Show the open documents' indexing (or recognition) on `bar`; hide it and return False
    when none of them is being built or read."""
    running = [p for p in latest if not p.complete and not p.error and p.pages_total]
    recognising = [p for p in latest if p.complete and p.recognising]
    if running:
        shown = _first(running, current)
        more = _more(running)
        _show(bar, shown.pages_done, shown.pages_total,
              f"Indexing {shown.name}: {shown.pages_done:,} of {shown.pages_total:,} pages{more} "
              "(search works meanwhile)",
              [f"Indexing {shown.name}: %v/%m{more}", f"Indexing %v/%m{more}", f"%v/%m{more}", "%p%"])
        return True
    if recognising:
        shown = _first(recognising, current)
        more = _more(recognising)
        _show(bar, shown.recognised, shown.scanned_total,
              f"Recognising the scanned pages of {shown.name}: {shown.recognised:,} of {shown.scanned_total:,} "
              f"read{more} (each can be searched and selected once read)",
              [f"Recognising scanned pages: %v/%m{more}", f"Recognising %v/%m{more}", f"OCR %v/%m{more}", "%p%"])
        return True
    bar.hide()
    return False


def _first(progresses: list[IndexProgress], current: str | None) -> IndexProgress:
    return next((p for p in progresses if p.reference == current), progresses[0])


def _more(progresses: list[IndexProgress]) -> str:
    return f" (+{len(progresses) - 1})" if len(progresses) > 1 else ""


def _show(bar: QProgressBar, done: int, total: int, tooltip: str, formats: list[str]) -> None:
    bar.setRange(0, total)
    bar.setValue(done)
    bar.setToolTip(tooltip)
    bar.show()
    fit_format(bar, formats)
