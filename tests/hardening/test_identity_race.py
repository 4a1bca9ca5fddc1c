"""A link inside a workspace root flipped between a file inside and one outside never leaks the
outside file: whatever name a call gives, the file that passed the policy is the file every step
reads (magic check, MuPDF, fingerprint, cache)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import close_all
from pdfdesk.tools import call_tool

SECRET = "SECRET-OUTSIDE"
CALLS = 5200
ALLOWED_ERRORS = {"outside_workspace", "file_not_found"}

# The attacker: flips three names inside the root as fast as it can until it is killed.
#  - flip.pdf: a symlink re-pointed (atomically) between the inside file and the outside one;
#  - dirflip: a symlinked folder re-pointed between a folder inside and the outside folder;
#  - swapdir: a real folder inside the root renamed away and replaced by a symlink to the outside
#    folder, then put back (the resolved path itself changes meaning between check and open).
FLIPPER = r"""
import os, sys
root, inside, outside_dir = sys.argv[1:4]
flip, flip_tmp = os.path.join(root, "flip.pdf"), os.path.join(root, ".flip.tmp")
dflip, dflip_tmp = os.path.join(root, "dirflip"), os.path.join(root, ".dirflip.tmp")
swap, parked = os.path.join(root, "swapdir"), os.path.join(root, ".swapdir.parked")
inside_dir, secret = os.path.join(root, "real"), os.path.join(outside_dir, "doc.pdf")
n = 0
while True:
    for link, tmp, target in ((flip, flip_tmp, secret if n % 2 else inside),
                              (dflip, dflip_tmp, outside_dir if n % 2 else inside_dir)):
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        os.symlink(target, tmp)
        os.replace(tmp, link)
    if n % 2:
        os.rename(swap, parked)
        os.symlink(outside_dir, swap)
    else:
        if os.path.islink(swap):
            os.unlink(swap)
            os.rename(parked, swap)
    n += 1
"""


def _pdf(path: Path, word: str, pages: int) -> Path:
    doc = pymupdf.open()
    for number in range(1, pages + 1):
        doc.new_page().insert_text((72, 72), f"{word} page {number}")
    doc.set_metadata({"title": word, "author": word})
    doc.set_toc([[1, f"{word} chapter", 1]])
    doc.save(path)
    doc.close()
    return path


@pytest.fixture
def flipping_root(tmp_path: Path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "real").mkdir(parents=True)
    (root / "swapdir").mkdir()
    outside.mkdir()
    inside = _pdf(root / "inside.pdf", "INSIDE", 1)
    for folder in (root / "real", root / "swapdir"):
        (folder / "doc.pdf").write_bytes(inside.read_bytes())
    _pdf(outside / "doc.pdf", SECRET, 2)  # two pages: a result with pages_total 2 read the outside file
    (root / "flip.pdf").symlink_to(inside)
    (root / "dirflip").symlink_to(root / "real", target_is_directory=True)
    flipper = subprocess.Popen([sys.executable, "-c", FLIPPER, str(root), str(inside), str(outside)])
    time.sleep(0.2)
    try:
        assert flipper.poll() is None, "the flipper did not start"
        yield root
    finally:
        flipper.kill()
        flipper.wait()


def _calls(root: Path):
    names = [str(root / "flip.pdf"), str(root / "dirflip" / "doc.pdf"), str(root / "swapdir" / "doc.pdf")]
    tools = [("pdf_extract_text", {}), ("pdf_info", {}), ("pdf_outline", {}),
             ("pdf_render_page", {"page": 1, "dpi": 72}), ("pdf_search", {"query": "page", "mode": "keyword"})]
    while True:
        for tool, extra in tools:
            for name in names:
                yield tool, {"path": name, **extra}


def test_a_flipping_link_never_leaks_the_outside_file(flipping_root):
    set_config(Config(semantic=False, workspace_only=True, roots=(str(flipping_root),)))
    outcomes: dict[str, int] = {}
    leaks: list[str] = []
    strays: list[str] = []
    started = time.monotonic()
    for number, (tool, args) in zip(range(CALLS), _calls(flipping_root), strict=False):
        if number % 2:
            close_all()  # every other call opens the file afresh instead of finding it cached
        result = call_tool(tool, args)
        dumped = json.dumps([result.content, result.details], default=str)
        if result.is_error:
            code = result.details.get("error")
            if code not in ALLOWED_ERRORS or not result.details.get("message"):
                strays.append(f"{tool} {args['path']}: {result.details}")
            outcomes[code] = outcomes.get(code, 0) + 1
        else:
            outcomes["ok"] = outcomes.get("ok", 0) + 1
            if result.details.get("pages_total") != 1 or (tool != "pdf_render_page" and "INSIDE" not in dumped):
                leaks.append(f"{tool} {args['path']}: {dumped[:200]}")
        if SECRET in dumped:
            leaks.append(f"{tool} {args['path']}: {dumped[:200]}")
    elapsed = time.monotonic() - started
    print(f"{CALLS} calls in {elapsed:.1f} s: {outcomes}; {len(leaks)} leaks")
    assert not leaks, f"{len(leaks)} of {CALLS} calls read the outside file: {leaks[:3]}"
    assert not strays, f"{len(strays)} calls failed with another error: {strays[:3]}"
    # the race really ran: both the inside file and refusals were seen
    assert outcomes.get("ok", 0) > 100 and outcomes.get("outside_workspace", 0) > 100, outcomes
