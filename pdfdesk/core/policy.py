"""File policy: with workspace-only on, a path must resolve inside one of the allowed roots.

Paths are resolved (symlinks, `..`) before the check so a link or a dotted path cannot step out.
"""

from __future__ import annotations

import os
from pathlib import Path

from pdfdesk.core.config import Config
from pdfdesk.core.errors import OUTSIDE_WORKSPACE, PdfDeskError


def _normalise(path: Path) -> str:
    return os.path.normcase(str(path.resolve()))


def is_inside(path: Path, root: Path) -> bool:
    """True when `path` resolves to `root` or below it."""
    target, base = _normalise(path), _normalise(root)
    return target == base or target.startswith(base.rstrip(os.sep) + os.sep)


def check_path_allowed(path: Path, config: Config) -> None:
    """Raise outside_workspace when the policy forbids `path`."""
    if not config.workspace_only:
        return
    roots = [Path(r).expanduser() for r in config.roots]
    if any(is_inside(path, root) for root in roots):
        return
    allowed = ", ".join(str(r) for r in roots) or "(no folders are allowed yet)"
    raise PdfDeskError(
        OUTSIDE_WORKSPACE,
        f"{path} is outside the allowed folders.",
        f"Open a file under {allowed}, or add its folder to the allowed roots in settings.",
    )
