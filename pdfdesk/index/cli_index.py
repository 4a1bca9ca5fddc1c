"""`pdfdesk index PATH...`: build indices for files and folders, with a progress bar per file."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.index.builder import Target, build_index


def expand(paths: list[str]) -> list[Path]:
    """Files as given; folders walked recursively for *.pdf (case-insensitive), sorted."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file()))
        else:
            found.append(path)
    return found


def _bar(name: str, done: int, total: int, started: float) -> None:
    width = 30
    filled = int(width * done / max(total, 1))
    rate = done / max(time.monotonic() - started, 1e-6)
    sys.stderr.write(f"\r{name[:40]:40} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} pages "
                     f"{rate:,.0f} p/s")
    sys.stderr.flush()


def index_paths(paths: list[str], password: str | None = None) -> int:
    """Index each PDF; returns 0 when all succeeded, 1 when any failed (each failure is reported)."""
    files = expand(paths)
    if not files:
        sys.stderr.write("pdfdesk index: no PDF files found\n")
        return 1
    failures = 0
    for path in files:
        started = time.monotonic()
        try:
            with open_pdf(str(path), password) as opened:
                target = Target(opened.source, password, opened.fingerprint)
            state = build_index(target, progress=lambda d, t: _bar(path.name, d, t, started))
            _bar(path.name, state.pages_indexed, state.pages_total, started)
            sections = f", {state.section_count} sections ({state.sections_source})" if state.sections_indexed else ""
            sys.stderr.write(f"  done in {time.monotonic() - started:.1f} s{sections}\n")
        except PdfDeskError as exc:
            failures += 1
            sys.stderr.write(f"{path}: {exc.code}: {exc.message}\n")
    return 1 if failures else 0
