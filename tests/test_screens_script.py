"""bench/screens.py without a virtual screen: its arguments, its skip path, and the helpers that read
a screenshot; the run itself (Xvfb, the real window) is for people to look at, not for CI."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "screens.py"


def load_script():
    spec = importlib.util.spec_from_file_location("_screens", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_arguments_have_the_three_widths_by_default_and_refuse_nonsense(tmp_path):
    screens = load_script()
    args = screens.parse_args([])
    assert args.widths == [1000, 1400, 1600] and args.height == 900 and args.out is None
    args = screens.parse_args(["--widths", "1200, 1800", "--out", str(tmp_path), "--pages", "50"])
    assert args.widths == [1200, 1800] and args.out == tmp_path and args.pages == 50
    for bad in ("wide", "100", "1000,99999", ""):
        with pytest.raises(SystemExit):
            screens.parse_args(["--widths", bad])


def test_without_xvfb_the_script_says_skipped_and_exits_0(tmp_path):
    bin_dir = tmp_path / "bin"  # an empty PATH: no Xvfb, xdotool or ImageMagick (Python runs by its full path)
    bin_dir.mkdir()
    env = {**os.environ, "PATH": str(bin_dir)}
    done = subprocess.run([sys.executable, str(SCRIPT), "--out", str(tmp_path / "shots")], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "skipped" in done.stdout and "Xvfb" in done.stdout and "apt-get install" in done.stdout
    assert not (tmp_path / "shots").exists()  # nothing started, nothing written


def test_missing_tools_names_each_program(monkeypatch):
    screens = load_script()
    monkeypatch.setattr(screens.shutil, "which", lambda name: None if name in ("xdotool", "import") else "/x")
    assert screens.missing_tools() == ["xdotool"]  # xwd, its dump made a PNG by convert, stands in for import
    monkeypatch.setattr(screens.shutil, "which", lambda name: None if name in ("import", "convert") else "/x")
    assert screens.missing_tools() == ["import (ImageMagick) or convert"]
    monkeypatch.setattr(screens.shutil, "which", lambda name: None if name == "convert" else "/x")
    assert screens.missing_tools() == []  # with import, convert is not needed
    monkeypatch.setattr(screens.shutil, "which", lambda name: None)
    assert screens.missing_tools() == ["Xvfb", "xdotool", "import (ImageMagick) or xwd + convert"]


def write_row_png(path: Path, grey_spans: list[tuple[int, int]], alpha: bool = False) -> Path:
    """A white 400 x 10 picture with the viewer's grey from x0 to x1 (inclusive) for each span, made
    by PyMuPDF: the tests need no image program."""
    import pymupdf

    screens = load_script()
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 400, 10), alpha)
    opaque = (255,) if alpha else ()
    pixmap.set_rect(pixmap.irect, (255, 255, 255, *opaque))
    for x0, x1 in grey_spans:
        pixmap.set_rect(pymupdf.IRect(x0, 0, x1 + 1, 10), (*screens.VIEWER_GREY, *opaque))
    pixmap.save(str(path))
    return path


@pytest.mark.parametrize("alpha", [False, True])
def test_the_page_is_found_between_the_viewers_grey(tmp_path, monkeypatch, alpha):
    screens = load_script()

    def no_programs(*args, **kwargs):
        raise AssertionError(f"page_span ran a program: {args}")

    monkeypatch.setattr(screens.subprocess, "run", no_programs)
    # white dock 0-99, grey 100-149, page 150-249 (white), grey 250-299, a narrower page 300-329, grey to 399
    png = write_row_png(tmp_path / "row.png", [(100, 149), (250, 299), (330, 399)], alpha)
    assert screens.page_span(png, 5, 400) == (150, 249)
    assert screens.page_span(png, 5, 200) is None  # the row cut at x 200: no grey on the page's right
    assert screens.page_span(png, 10, 400) is None  # below the picture
    assert screens.page_span(write_row_png(tmp_path / "white.png", [], alpha), 5, 400) is None
