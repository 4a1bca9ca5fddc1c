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
    Device names are refused on Windows always; everywhere when workspace-only is on;
  - swaps between the check and the read (a symlink re-pointed, a folder renamed and replaced
    by a link): the check passes on a name, so the file is opened once and checked again by what
    was opened — the kernel's own name for the open file must be inside a root and the resolved
    name must still be that file (`check_opened_allowed`). Everything after reads that descriptor.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from pdfdesk.core.config import Config
from pdfdesk.core.errors import OUTSIDE_WORKSPACE, UNSUPPORTED_PDF_REFERENCE, PdfDeskError
from pdfdesk.core.localfile import fd_location

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
    try:
        base = _identity(os.path.realpath(root))
        target = Path(os.path.realpath(path))
    except OSError:  # a link on the way vanished while it was read: nothing to vouch for
        return False
    if base is None:  # a root that does not exist holds nothing
        return False
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


def _holds(root: Path, location: str) -> bool:
    """True when `location` (a name without symlinks) is `root` or below it: by spelling first,
    which nothing can race; by identity when spellings differ (case-insensitive file systems)."""
    try:
        base = os.path.realpath(root)
    except OSError:
        return False
    if location == base or location.startswith(base.rstrip(os.sep) + os.sep):
        return True
    return is_inside(Path(location), root)


def check_opened_allowed(shown: Path, resolved: Path, fd: int, config: Config) -> None:
    """After opening `resolved` as `fd`: raise outside_workspace unless the opened file is inside
    a root and `resolved` still names it (otherwise a name changed between the check and the open).
    `shown` is the path as the user gave it, for the message."""
    if not config.workspace_only:
        return
    opened = os.fstat(fd)
    try:
        named = os.stat(resolved, follow_symlinks=False)
    except OSError:
        named = None
    location = fd_location(fd)
    if named is None or (named.st_dev, named.st_ino) != (opened.st_dev, opened.st_ino) or location == "":
        raise PdfDeskError(OUTSIDE_WORKSPACE, f"{shown} changed while pdfdesk was opening it, so it cannot be "
                           "confirmed to be inside the allowed folders.",
                           "Try again once the file stops changing; open files under the allowed folders only.")
    roots = [Path(r).expanduser() for r in config.roots if not is_network_or_device_path(str(r))]
    if location is None:  # no kernel name for the descriptor: decide by the name, resolved again
        inside = any(is_inside(resolved, root) for root in roots)
    else:
        inside = any(_holds(root, location) for root in roots)
    if not inside:
        raise _refuse(shown, "", config)
