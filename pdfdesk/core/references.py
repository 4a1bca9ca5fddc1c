"""Turn what a user or model calls a PDF (path, `~`, `file://`, `http(s)://`) into a PdfSource.

Everything that opens a PDF goes through here, so the file policy, the sandbox and the byte cap
apply the same way to the GUI, the agent, MCP and the CLI.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from pdfdesk.core.config import Config
from pdfdesk.core.errors import (
    EMPTY_FILE, FILE_NOT_FOUND, NOT_A_PDF, PERMISSION_DENIED, TOO_LARGE, UNSUPPORTED_PDF_REFERENCE,
    VALIDATION_ERROR, PdfDeskError,
)
from pdfdesk.core.policy import check_path_allowed, check_reference_form
from pdfdesk.core.remote import fetch_pdf

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")


@dataclass(frozen=True)
class PdfSource:
    """A located PDF: a local file (`path`) or downloaded bytes (`data`, with its `url`)."""

    reference: str
    name: str
    size: int
    path: Path | None = None
    data: bytes | None = None
    url: str | None = None
    identity: tuple[int, int] | None = None  # (mtime_ns, inode) of a local file when it was checked

    @property
    def display(self) -> str:
        return self.url or str(self.path)


def is_url(reference: str) -> bool:
    return reference.lower().startswith(("http://", "https://"))


def _file_url_to_path(reference: str) -> Path:
    parts = urlsplit(reference)
    if parts.netloc not in ("", "localhost"):
        raise PdfDeskError(
            UNSUPPORTED_PDF_REFERENCE, f"{reference} names a file on another host ({parts.netloc}).",
            "Use file:///absolute/path for a file on this computer.",
        )
    return Path(url2pathname(unquote(parts.path)) if os.name == "nt" else unquote(parts.path))


def reference_to_path(reference: str) -> Path:
    """The local path a non-URL reference names (expands `~`, decodes `file://`, makes absolute)."""
    if reference.lower().startswith("file:"):
        path = _file_url_to_path(reference)
    else:
        scheme = _SCHEME.match(reference)
        if scheme and not _WINDOWS_DRIVE.match(reference):
            raise PdfDeskError(
                UNSUPPORTED_PDF_REFERENCE,
                f"{scheme.group(1)}: references are not supported ({reference[:80]}).",
                "Give a file path, ~/path, file:///path, or an http(s):// URL.",
            )
        path = Path(reference).expanduser()
    return Path(os.path.abspath(path))


def _stat_local(path: Path, max_bytes: int) -> os.stat_result:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise PdfDeskError(
            FILE_NOT_FOUND, f"No file at {path}.", "Check the path; relative paths start in the current folder.",
        ) from None
    except PermissionError:
        raise PdfDeskError(
            PERMISSION_DENIED, f"pdfdesk may not read {path}.", "Check the file's permissions.",
        ) from None
    except OSError as exc:
        raise PdfDeskError(FILE_NOT_FOUND, f"Cannot reach {path}: {exc.strerror}.", "Check the path.") from None
    if stat.S_ISDIR(info.st_mode):
        raise PdfDeskError(NOT_A_PDF, f"{path} is a folder, not a PDF file.", "Name a .pdf file inside it.")
    if not stat.S_ISREG(info.st_mode):  # a FIFO would block the open; a device never ends
        raise PdfDeskError(NOT_A_PDF, f"{path} is a device or pipe, not a PDF file.", "Give the path of a PDF file.")
    if info.st_size == 0:
        raise PdfDeskError(EMPTY_FILE, f"{path} is empty (0 bytes).", "The download or copy may have failed; get the file again.")
    if info.st_size > max_bytes:
        raise PdfDeskError(
            TOO_LARGE,
            f"{path.name} is {info.st_size / 1048576:.1f} MB, over the limit of {max_bytes / 1048576:.1f} MB.",
            "Raise the file size limit in settings, or split the PDF.",
            size_bytes=info.st_size, limit_bytes=max_bytes,
        )
    return info


def resolve_reference(reference: object, config: Config, max_bytes: int | None = None) -> PdfSource:
    """Locate a PDF and check it against policy, sandbox and size cap (contents are not parsed)."""
    if not isinstance(reference, str) or not reference.strip():
        raise PdfDeskError(
            VALIDATION_ERROR, "No PDF was named.", "Pass a file path or an http(s) URL to a PDF.",
        )
    reference = reference.strip()
    cap = max_bytes if max_bytes is not None else config.max_file_bytes
    if is_url(reference):
        data, final_url = fetch_pdf(reference, config.replace(max_download_mb=min(config.max_download_mb, cap / 1048576)))
        name = Path(urlsplit(final_url).path).name or urlsplit(final_url).hostname or "download.pdf"
        return PdfSource(reference=reference, name=unquote(name), size=len(data), data=data, url=final_url)
    check_reference_form(reference, config)
    path = reference_to_path(reference)
    check_path_allowed(path, config)
    info = _stat_local(path, cap)
    return PdfSource(reference=reference, name=path.name, size=info.st_size, path=path,
                     identity=(info.st_mtime_ns, info.st_ino))

