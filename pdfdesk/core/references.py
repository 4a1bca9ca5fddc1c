"""Turn what a user or model calls a PDF (path, `~`, `file://`, `http(s)://`) into a PdfSource.

Everything that opens a PDF goes through here, so the file policy, the sandbox and the byte cap
apply the same way to the GUI, the agent, MCP and the CLI. A local file is resolved once, checked,
opened once and checked again by what was opened (core/localfile.py says why): the descriptor
`locate` returns is what every later step reads, and a source re-opened later must still be the
same file.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path, PurePath
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from pdfdesk.core import localfile
from pdfdesk.core.config import Config
from pdfdesk.core.errors import (
    EMPTY_FILE, FILE_NOT_FOUND, NOT_A_PDF, OUTSIDE_WORKSPACE, PERMISSION_DENIED, TOO_LARGE,
    UNSUPPORTED_PDF_REFERENCE, VALIDATION_ERROR, PdfDeskError,
)
from pdfdesk.core.localfile import FileIdentity, HeldFile
from pdfdesk.core.policy import check_opened_allowed, check_path_allowed, check_reference_form
from pdfdesk.core.remote import fetch_pdf

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
_ELOOP = getattr(errno, "ELOOP", -1)  # what O_NOFOLLOW raises on a symlink


@dataclass(frozen=True)
class PdfSource:
    """A located PDF: a local file (`path`) or downloaded bytes (`data`, with its `url`).

    A local source names the file that passed the checks by `identity`; whoever opens it again
    (another process, or after the cached handle was dropped) gets that file or a coded error."""

    reference: str
    name: str
    size: int
    path: Path | None = None
    data: bytes | None = None
    url: str | None = None
    identity: FileIdentity | None = None  # device, inode, size and mtime of the file that was checked
    resolved: Path | None = None  # `path` with every symlink resolved when it was checked

    @property
    def display(self) -> str:
        return self.url or str(self.path)


@dataclass
class LocatedPdf:
    """A resolved reference and, for a local file, the open descriptor it was checked through."""

    source: PdfSource
    held: HeldFile | None = None

    def close(self) -> None:
        if self.held is not None:
            self.held.close()


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


def normalise_reference(reference: str) -> str:
    """One spelling per document, so the same file is one tab, one recent entry, one attachment:
    an http(s) URL as given; anything else the absolute local path it names (`~` expanded,
    `file://` decoded). A reference that names no local path is returned as given."""
    reference = reference.strip()
    if is_url(reference):
        return reference
    try:
        return str(reference_to_path(reference))
    except PdfDeskError:
        return reference


def display_name(reference: str) -> str:
    """What a person calls the document: the file name, or a URL's last path segment, with
    percent-escapes decoded (`file:///tmp/a%20b.pdf` is "a b.pdf"); a URL without a path shows
    its host."""
    text = reference.strip()
    if is_url(text) or text.lower().startswith("file:"):
        parts = urlsplit(text)
        segment = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
        return segment or parts.hostname or text
    return PurePath(text.rstrip("/\\")).name or text


def _os_error(exc: OSError, path: Path) -> PdfDeskError:
    if isinstance(exc, FileNotFoundError):
        return PdfDeskError(FILE_NOT_FOUND, f"No file at {path}.",
                            "Check the path; relative paths start in the current folder.")
    if isinstance(exc, PermissionError):
        return PdfDeskError(PERMISSION_DENIED, f"pdfdesk may not read {path}.", "Check the file's permissions.")
    return PdfDeskError(FILE_NOT_FOUND, f"Cannot reach {path}: {exc.strerror or exc}.", "Check the path.")


def _check_kind(info: os.stat_result, path: Path, max_bytes: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise PdfDeskError(NOT_A_PDF, f"{path} is a folder, not a PDF file.", "Name a .pdf file inside it.")
    if not stat.S_ISREG(info.st_mode):  # a FIFO would block the open; a device never ends
        raise PdfDeskError(NOT_A_PDF, f"{path} is a device or pipe, not a PDF file.", "Give the path of a PDF file.")
    if info.st_size == 0:
        raise PdfDeskError(EMPTY_FILE, f"{path} is empty (0 bytes).",
                           "The download or copy may have failed; get the file again.")
    if info.st_size > max_bytes:
        raise PdfDeskError(
            TOO_LARGE,
            f"{path.name} is {info.st_size / 1048576:.1f} MB, over the limit of {max_bytes / 1048576:.1f} MB.",
            "Raise the file size limit in settings, or split the PDF.",
            size_bytes=info.st_size, limit_bytes=max_bytes,
        )


class _Swapped(Exception):
    """A name changed between resolving it and opening it; one more try sees the new state."""

    def __init__(self, error: PdfDeskError) -> None:
        super().__init__(error.message)
        self.error = error


def _open_once(path: Path, config: Config, cap: int) -> tuple[Path, HeldFile]:
    check_path_allowed(path, config)
    try:  # by name first: a folder or device is refused before anything opens it
        resolved = Path(os.path.realpath(path))
        _check_kind(resolved.stat(), path, cap)
        fd = localfile.open_no_follow(resolved)
    except OSError as exc:
        # ELOOP: the resolved name became a symlink; ENOENT: a part of it moved meanwhile
        if exc.errno in (_ELOOP, errno.ENOENT):
            raise _Swapped(_os_error(exc, path)) from None
        raise _os_error(exc, path) from None
    held = HeldFile.adopt(fd)
    try:
        _check_kind(os.fstat(fd), path, cap)  # what was opened decides, not what the name said
        check_opened_allowed(path, resolved, fd, config)
    except PdfDeskError as exc:
        held.close()
        if exc.code == OUTSIDE_WORKSPACE:
            raise _Swapped(exc) from None
        raise
    except BaseException:
        held.close()
        raise
    return resolved, held


def _open_local(path: Path, config: Config, cap: int) -> tuple[Path, HeldFile]:
    """Resolve, check and open a local file; a swap noticed in between gets one retry."""
    try:
        return _open_once(path, config, cap)
    except _Swapped:
        pass
    try:
        return _open_once(path, config, cap)
    except _Swapped as swapped:
        raise swapped.error from None


def locate(reference: object, config: Config, max_bytes: int | None = None) -> LocatedPdf:
    """Locate a PDF, check it against policy, sandbox and size cap, and (for a local file) open
    it: the caller reads the returned descriptor and must close it. Contents are not parsed."""
    if not isinstance(reference, str) or not reference.strip():
        raise PdfDeskError(
            VALIDATION_ERROR, "No PDF was named.", "Pass a file path or an http(s) URL to a PDF.",
        )
    reference = reference.strip()
    cap = max_bytes if max_bytes is not None else config.max_file_bytes
    if is_url(reference):
        data, final_url = fetch_pdf(reference,
                                    config.replace(max_download_mb=min(config.max_download_mb, cap / 1048576)))
        return LocatedPdf(PdfSource(reference=reference, name=display_name(final_url), size=len(data), data=data,
                                    url=final_url))
    check_reference_form(reference, config)
    path = reference_to_path(reference)
    resolved, held = _open_local(path, config, cap)
    source = PdfSource(reference=reference, name=path.name, size=held.identity.size, path=path,
                       identity=held.identity, resolved=resolved)
    return LocatedPdf(source, held)


def resolve_reference(reference: object, config: Config, max_bytes: int | None = None) -> PdfSource:
    """Locate a PDF and check it against policy, sandbox and size cap (contents are not parsed)."""
    located = locate(reference, config, max_bytes)
    located.close()
    return located.source


def reopen(source: PdfSource) -> HeldFile:
    """Open a local source again, by its resolved name and without following a final symlink,
    and only if it is still the file that was checked (same device, inode, size and mtime)."""
    assert source.path is not None
    name = source.resolved or Path(os.path.realpath(source.path))
    try:
        held = HeldFile.adopt(localfile.open_no_follow(name))
    except OSError as exc:
        if exc.errno == _ELOOP:  # a symlink now stands where the checked file was
            raise _changed(source) from None
        raise _os_error(exc, source.path) from None
    if source.identity is not None and held.identity != tuple(source.identity):
        held.close()
        raise _changed(source)
    if not stat.S_ISREG(os.fstat(held.fd).st_mode):
        held.close()
        raise PdfDeskError(NOT_A_PDF, f"{source.path} is a device or pipe, not a PDF file.",
                           "Give the path of a PDF file.")
    return held


def _changed(source: PdfSource) -> PdfDeskError:
    return PdfDeskError(
        FILE_NOT_FOUND, f"{source.path} is no longer the file that was opened (it was replaced or changed).",
        "Open the file again.",
    )
