"""Cheap checks of the installer inputs, so a broken bundle shows up in the normal test run and not
only in packaging/smoke_test.sh (which builds and installs for real, in minutes)."""

from __future__ import annotations

import ast
import re
import subprocess
import tomllib
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]


def spec_list(name: str) -> list[str]:
    """A list literal assigned at the top of packaging/pdfdesk.spec."""
    tree = ast.parse((ROOT / "packaging" / "pdfdesk.spec").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{name} not found in pdfdesk.spec")


def test_every_package_folder_is_installed() -> None:
    # pyproject lists packages by hand; a sub-package missing there is missing from pip installs and bundles
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "pdfdesk").rglob("__init__.py")}
    assert found - listed == set()


def test_the_bundle_excludes_no_qt_module_pdfdesk_imports() -> None:
    excluded = set(spec_list("UNUSED_QT"))
    used = {m for path in (ROOT / "pdfdesk").rglob("*.py")
            for m in re.findall(r"PySide6\.Qt\w+", path.read_text(encoding="utf-8"))}
    assert used, "the scan found no Qt imports at all"
    assert used & excluded == set()


def test_icons_exist_for_every_size_the_deb_installs() -> None:
    import pymupdf

    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        png = ROOT / "resources" / "icons" / f"pdfdesk-{size}.png"
        pixmap = pymupdf.Pixmap(str(png))
        assert (pixmap.width, pixmap.height) == (size, size)
        assert not pixmap.is_unicolor


def test_windows_icon_holds_its_sizes() -> None:
    data = (ROOT / "resources" / "pdfdesk.ico").read_bytes()
    reserved, kind, count = int.from_bytes(data[0:2], "little"), int.from_bytes(data[2:4], "little"), \
        int.from_bytes(data[4:6], "little")
    assert (reserved, kind, count) == (0, 1, 7)
    widths = sorted(data[6 + 16 * i] or 256 for i in range(count))
    assert widths == [16, 24, 32, 48, 64, 128, 256]


def test_desktop_entry_validates() -> None:
    proc = subprocess.run(["desktop-file-validate", str(ROOT / "resources" / "pdfdesk.desktop")],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr


def test_desktop_entry_opens_pdfs_with_the_installed_command() -> None:
    entry = dict(line.split("=", 1) for line in
                 (ROOT / "resources" / "pdfdesk.desktop").read_text(encoding="utf-8").splitlines() if "=" in line)
    assert entry["Exec"] == "pdfdesk %F"
    assert "application/pdf" in entry["MimeType"].split(";")
    assert entry["Icon"] == "pdfdesk"
