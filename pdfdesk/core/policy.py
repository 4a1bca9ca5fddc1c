"""File policy: with workspace-only on, a path must resolve inside one of the allowed roots.

What "inside" means, against the tricks a hostile prompt or document may try:
  - `..` and symlinks: the path is resolved (every symlink on the way, `..` after them) first;
  - case tricks and 8.3 short names (case-insensitive file systems): containment is decided by
    file identity (device and inode of the root and of the resolved path's folders), not by
    comparing strings, so `/Cases/../CASES/x.pdf` and `PROGRA~1` neither escape nor are refused
    by spelling;
  - hard links: a hard link is a directory entry of the root whose bytes are also elsewhere. It
    is treated as inside: creating one needs write access to the root (pdfdesk has no tool that
    writes there), and refusing every file with more than one link would refuse backups and
    deduplicated folders. Symlinks, which anyone can point anywhere, are always resolved;
  - Windows device names (CON, NUL, COM1, LPT1, CONIN$... with any extension) and UNC or
    device-namespace paths (`\\\\server\\share`, `//server/share`, `\\\\?\\`, `\\\\.\\`) are refused:
    opening them reads a device or contacts another machine (and leaks the user's NTLM hash).
    Device names are refused on Windows always; everywhere when workspace-only is on.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from pdfdesk.core.config import Config
from pdfdesk.core.errors import OUTSIDE_WORKSPACE, UNSUPPORTED_PDF_REFERENCE, PdfDeskError

_DEVICE = re.compile(r"^(CON|PRN|AUX|NUL|CLOCK\$|CONIN\$|CONOUT\$|(COM|LPT)[0-9¹²³])$", re.IGNORECASE)


def is_device_name(name: str) -> bool:
    """True for a Windows reserved device name, whatever follows it: "nul", "CON.pdf", "com1 .txt"."""
    stem = name.split(".", 1)[0].rstrip(" .")
    return bool(_DEVICE.match(stem))


def is_network_or_device_path(raw: str) -> bool:
    """UNC (`\\\\server\\share`, `//server/share`) and Win32 namespace (`\\\\?\\`, `\\\\.\\`) paths."""
    return len(raw) >= 2 and raw[0] in "\\/" and raw[1] in "\\/"


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def is_inside(path: Path, root: Path) -> bool:
    """True when `path` resolves to `root` or below it (by identity: see the module notes).
    A part of the path that does not exist yet is skipped, so a missing file under a root is
    inside it (and later reported as file_not_found, not outside_workspace)."""
    base = _identity(os.path.realpath(root))
    if base is None:  # a root that does not exist holds nothing
        return False
    target = Path(os.path.realpath(path))
    return any(_identity(str(folder)) == base for folder in (target, *target.parents))


def _refuse(path: Path | str, why: str, config: Config) -> PdfDeskError:
    roots = ", ".join(str(Path(r).expanduser()) for r in config.roots) or "(no folders are allowed yet)"
    return PdfDeskError(OUTSIDE_WORKSPACE, f"{path} is outside the allowed folders{why}.",
                        f"Open a file under {roots}, or add its folder to the allowed roots in settings.")


def check_reference_form(raw: str, config: Config) -> None:
    """Refuse device names and network paths by their spelling, before anything touches them."""
    name = raw.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    if is_device_name(name) and (sys.platform == "win32" or config.workspace_only):
        raise PdfDeskError(UNSUPPORTED_PDF_REFERENCE, f"{raw[:200]} names a device ({name}), not a file.",
                           "Give the path of a PDF file.")
    if config.workspace_only and is_network_or_device_path(raw):
        raise _refuse(raw[:200], " (network and device paths are not allowed)", config)


def check_path_allowed(path: Path, config: Config) -> None:
    """Raise outside_workspace when the policy forbids `path`."""
    if not config.workspace_only:
        return
    if is_network_or_device_path(str(path)):
        raise _refuse(path, " (network and device paths are not allowed)", config)
    roots = [Path(r).expanduser() for r in config.roots]
    if any(is_inside(path, root) for root in roots if not is_network_or_device_path(str(root))):
        return
    raise _refuse(path, "", config)
