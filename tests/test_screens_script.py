"""bench/screens.py without a virtual screen: its arguments, its skip path, and the helpers that read
a screenshot; the run itself (Xvfb, the real window) is for people to look at, not for CI."""

from __future__ import annotations

import importlib.util
import os
import shutil
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
    assert screens.missing_tools() == ["xdotool"]  # xwd stands in for import
    monkeypatch.setattr(screens.shutil, "which", lambda name: None)
    assert screens.missing_tools() == ["Xvfb", "xdotool", "convert", "import (ImageMagick) or xwd"]


@pytest.mark.skipif(shutil.which("convert") is None, reason="ImageMagick's convert is not installed")
def test_the_page_is_found_between_the_viewers_grey(tmp_path):
    screens = load_script()
    png = tmp_path / "row.png"
    grey = "rgb({},{},{})".format(*screens.VIEWER_GREY)
    # white dock 0-99, grey 100-149, page 150-249 (white), grey 250-299, a narrower page 300-329, grey to 399
    subprocess.run(["convert", "-size", "400x10", "xc:white", "-fill", grey, "-draw", "rectangle 100,0 149,9",
                    "-draw", "rectangle 250,0 299,9", "-draw", "rectangle 330,0 399,9", str(png)], check=True)
    assert screens.page_span(png, 5, 400) == (150, 249)
    subprocess.run(["convert", "-size", "400x10", "xc:white", str(png)], check=True)
    assert screens.page_span(png, 5, 400) is None
