"""`pdfdesk searchable-copy IN [-o OUT]`: write a copy of a scanned PDF that any reader can search.

Progress goes to stderr on one line, redrawn in place; the summary goes to stdout. Exit 0 when
the copy was written and every scanned page in it has text, 1 when the copy could not be written
(a coded error, said in one line with its hint) or some scanned pages were left without text.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pdfdesk.core.errors import PdfDeskError
from pdfdesk.index.searchable_copy import RECOGNISING, WRITING, CopyReport, default_output, save_searchable_copy

STAGE_WORDS = {RECOGNISING: "pages recognised", WRITING: "pages laid"}


class _Line:
    """One progress line on stderr, redrawn at most every tenth of a second (and at each end)."""

    def __init__(self, name: str) -> None:
        self.name = name[:34]
        self.shown = 0.0
        self.open = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self.shown < 0.1:
            return
        self.shown = now
        width = 24
        filled = int(width * done / max(total, 1))
        sys.stderr.write(f"\r{self.name:34} {stage:11} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                         f"{STAGE_WORDS.get(stage, 'pages read')}\033[K")
        sys.stderr.flush()
        self.open = True

    def end(self) -> None:
        if self.open:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.open = False


def searchable_copy_command(source: str, output: str | None, force: bool = False, password: str | None = None) -> int:
    """Run the command; the exit status."""
    target = Path(output) if output else default_output(source)
    line = _Line(Path(source).name)
    try:
        report = save_searchable_copy(source, target, password, progress=line, overwrite=force)
    except PdfDeskError as exc:
        line.end()
        sys.stderr.write(f"pdfdesk searchable-copy: {exc.message}\n" + (f"  hint: {exc.hint}\n" if exc.hint else ""))
        return 1
    line.end()
    sys.stdout.write(report.summary() + "\n")
    return 1 if _incomplete(report) else 0


def _incomplete(report: CopyReport) -> bool:
    return report.cancelled or bool(report.left_out)
