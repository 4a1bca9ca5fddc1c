"""Where pdfdesk keeps its files: the app data folder (indices, renders) and the config folder.

`PDFDESK_HOME` overrides both, so tests, portable installs and the MCP server can share or
isolate state explicitly.

The folders are created when they can be. A read-only or full disk is a fault of the machine, not
of a document: naming a folder never fails, reading what is there still works, and whoever writes
reports the problem with `storage_error` (a coded error naming the folder) instead of a traceback.
"""

from __future__ import annotations

import errno
import os
import shutil
from functools import lru_cache
from pathlib import Path

import platformdirs

from pdfdesk.core.errors import PERMISSION_DENIED, PdfDeskError

APP_NAME = "pdfdesk"
CRASH_LOG = "crash.log"
MIN_FREE_BYTES = 1024 * 1024  # less than this free, and not even a small index fits

# The errors that mean "this folder cannot take what we write", whatever the file.
_STORAGE_PROBLEMS = {
    errno.EROFS: "it is on a read-only file system",
    errno.EACCES: "permission to write there is denied",
    errno.EPERM: "permission to write there is denied",
    errno.ENOSPC: "the disk is full",
}
if hasattr(errno, "EDQUOT"):  # not on Windows
    _STORAGE_PROBLEMS[errno.EDQUOT] = "the disk quota is used up"
_STORAGE_HINT = ("Free some disk space or make the folder writable, or set PDFDESK_HOME to a writable folder. "
                 "Reading, extracting and searching PDFs keep working meanwhile.")


def ensure_dir(path: Path) -> Path:
    """`path`, created when possible (a read-only or full disk leaves that to whoever writes)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    return path


def app_data_dir() -> Path:
    """The per-user data folder, created on first use when the disk allows it."""
    home = os.environ.get("PDFDESK_HOME")
    return ensure_dir(Path(home).expanduser() if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)))


def config_dir() -> Path:
    """The per-user config folder (holds config.toml); under PDFDESK_HOME when that is set."""
    home = os.environ.get("PDFDESK_HOME")
    return ensure_dir(Path(home).expanduser() / "config" if home else Path(
        platformdirs.user_config_dir(APP_NAME, appauthor=False)
    ))


def renders_dir() -> Path:
    """Where `pdf_render_page` writes its PNGs."""
    return ensure_dir(app_data_dir() / "pdf-renders")


def indices_dir() -> Path:
    """Where the per-document search indices live. Not created here: asking whether a document
    has an index must leave no folder behind; building one creates it."""
    return app_data_dir() / "indices"


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    """Bundled resources (the sample PDF, icons): the package `pdfdesk.resources`. Found once: the
    package does not move while it runs, and every search asks where its model is."""
    import pdfdesk.resources

    return Path(pdfdesk.resources.__file__).resolve().parent


def sample_pdf() -> Path:
    """The PDF shown on first start."""
    return resources_dir() / "sample.pdf"


# -- a data folder that cannot be written -------------------------------------------------------
def storage_problem(exc: BaseException) -> str | None:
    """Why a write failed, in words, when the cause is the disk or its permissions (read-only,
    full, over quota, denied); None for any other failure."""
    if isinstance(exc, OSError) and exc.errno in _STORAGE_PROBLEMS:
        return _STORAGE_PROBLEMS[exc.errno]
    return None


def write_failure(exc: OSError, folder: Path | None = None) -> str:
    """Why a write (into `folder`, when given) failed, in words, whatever the cause. A folder that
    is missing because it could not be created reports why it could not be."""
    return storage_problem(exc) or (unwritable_reason(folder) if folder is not None else None) \
        or exc.strerror or str(exc)


def unwritable_reason(folder: Path) -> str | None:
    """Why this process cannot create files in `folder` (or, when it does not exist, in the
    nearest folder above it), as far as the OS says without writing: denied, read-only, or
    (nearly) no space left; None when it can."""
    probe = folder
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    effective = os.access in os.supports_effective_ids  # this process's rights, not its login's
    if os.access(probe, os.W_OK | os.X_OK, effective_ids=effective):
        try:
            free = shutil.disk_usage(probe).free
        except OSError:  # cannot tell: let the write find out
            return None
        return _STORAGE_PROBLEMS[errno.ENOSPC] if free < MIN_FREE_BYTES else None
    try:
        read_only = bool(os.statvfs(probe).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # Windows has no statvfs
        read_only = False
    return _STORAGE_PROBLEMS[errno.EROFS] if read_only else _STORAGE_PROBLEMS[errno.EACCES]


def storage_error(folder: Path, problem: str, doing: str) -> PdfDeskError:
    """The coded error for a data folder pdfdesk cannot write: names the folder and the cause."""
    return PdfDeskError(PERMISSION_DENIED, f"pdfdesk cannot {doing}: its data folder {folder} cannot be "
                        f"written ({problem}).", _STORAGE_HINT, folder=str(folder), storage_problem=problem)


def write_crash_log(text: str) -> tuple[bool, str]:
    """Append `text` to crash.log: (kept, where the details are or why they could not be kept).
    Never raises: a crash report must not become a second traceback on a read-only or full disk."""
    log = app_data_dir() / CRASH_LOG
    try:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(text + "\n")
    except OSError as exc:
        return False, f"crash.log could not be written to {log.parent}: {write_failure(exc)}"
    return True, f"details in {log}"
