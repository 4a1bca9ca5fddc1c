"""Writing a new file a user asked for (a copy of a document) without ever overwriting its source.

The checks run before any costly work, so a user who named the wrong place learns it at once,
not after minutes of OCR: the output must not be the source under any name (the same path, a
symlink to it, a hard link), must not exist unless replacing it was asked for, and its folder
must exist and take the file. The file is then written under a temporary name in the same folder
and renamed over the target in one step, so a crash, a full disk or a cancel leaves either the
old file or the new one, never half of one, and never a stray temporary.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from pdfdesk.core.errors import FILE_NOT_FOUND, PERMISSION_DENIED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.paths import unwritable_reason, write_failure

SPACE_MARGIN = 1024 * 1024  # bytes beyond the expected size that must be free


def same_file(a: Path, b: Path) -> bool:
    """Whether two names lead to one file (symlinks followed, hard links included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (or cannot be looked at): not the same existing file
        return os.path.abspath(a) == os.path.abspath(b)


def check_new_file(source: Path, output: Path, overwrite: bool = False, expected_bytes: int = 0) -> None:
    """Refuse, with a coded error, an output that is the source, that exists (unless `overwrite`),
    whose folder is missing or cannot be written, or whose disk has too little space."""
    if not str(output).strip():
        raise PdfDeskError(VALIDATION_ERROR, "No output file was named.", "Name the file to write the copy to.")
    if same_file(source, output):
        raise PdfDeskError(
            VALIDATION_ERROR, f"{output} is the document itself; the copy would overwrite it.",
            "Choose another file name: the original is never overwritten.", output=str(output))
    if output.is_dir():
        raise PdfDeskError(VALIDATION_ERROR, f"{output} is a folder.", "Name a file inside it instead.",
                           output=str(output))
    if (output.exists() or output.is_symlink()) and not overwrite:
        raise PdfDeskError(
            VALIDATION_ERROR, f"{output} already exists.",
            "Choose another name, or allow replacing it (--force on the command line).", output=str(output))
    folder = output.parent
    if not folder.is_dir():
        raise PdfDeskError(FILE_NOT_FOUND, f"The folder {folder} does not exist.",
                           "Create the folder first, or choose another one.", output=str(output))
    problem = unwritable_reason(folder)
    if problem is None and expected_bytes:
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            free = None
        if free is not None and free < expected_bytes + SPACE_MARGIN:
            problem = f"the disk is full ({free // 1048576} MB free, about {expected_bytes // 1048576 + 1} MB needed)"
    if problem is not None:
        raise cannot_write(folder, problem)


def cannot_write(folder: Path, problem: str) -> PdfDeskError:
    return PdfDeskError(PERMISSION_DENIED, f"The copy cannot be written to {folder}: {problem}.",
                        "Choose another folder, or free some space there.", folder=str(folder),
                        storage_problem=problem)


class _Recorded:
    """A file object that remembers the first error a write raised: a writer in C (MuPDF) turns
    it into its own exception, and the errno (a full disk, say) would be lost."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle
        self.error: OSError | None = None

    def write(self, data: bytes) -> int:
        try:
            return self.handle.write(data)
        except OSError as exc:
            self.error = self.error or exc
            raise

    def __getattr__(self, name: str) -> object:
        return getattr(self.handle, name)


@contextmanager
def writing_beside(output: Path, source: Path) -> Iterator[BinaryIO]:
    """A file object for the new file's bytes; on leaving the block they replace `output` in one
    rename (checked again against `source` just before). Any failure removes the temporary and
    becomes a coded error; an exception from the block itself is passed on."""
    temp = output.with_name(f".{output.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    folder = output.parent
    try:
        handle = open(temp, "xb")  # noqa: SIM115 (closed below, after the caller has written)
    except OSError as exc:
        raise cannot_write(folder, write_failure(exc, folder)) from None
    recorded = _Recorded(handle)
    try:
        with handle:
            try:
                yield recorded  # type: ignore[misc]
            except BaseException as exc:
                if recorded.error is not None and not isinstance(exc, PdfDeskError):
                    raise cannot_write(folder, write_failure(recorded.error, folder)) from None
                raise
            handle.flush()
            os.fsync(handle.fileno())
        if same_file(source, output):  # replaced by a link to the source meanwhile
            raise PdfDeskError(VALIDATION_ERROR, f"{output} is now the document itself; the copy was not saved.",
                               "Choose another file name.", output=str(output))
        os.replace(temp, output)
    except OSError as exc:
        raise cannot_write(folder, write_failure(exc, folder)) from None
    finally:
        _remove(temp)


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:  # a read-only folder now: the first error is the one reported
        pass

