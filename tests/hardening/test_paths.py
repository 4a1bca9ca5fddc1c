"""Workspace-only policy against `..`, symlinks, hard links, spelling tricks, devices and UNC paths."""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest

from pdfdesk.core.config import Config
from pdfdesk.core.errors import NOT_A_PDF, OUTSIDE_WORKSPACE, UNSUPPORTED_PDF_REFERENCE, PdfDeskError
from pdfdesk.core.policy import is_device_name, is_inside, is_network_or_device_path
from pdfdesk.core.references import resolve_reference


@pytest.fixture
def workspace(tmp_path: Path, text_pdf: Path) -> tuple[Path, Path, Config]:
    root = tmp_path / "cases"
    (root / "sub").mkdir(parents=True)
    shutil.copy(text_pdf, root / "sub" / "inside.pdf")
    outside = tmp_path / "private" / "secret.pdf"
    outside.parent.mkdir()
    shutil.copy(text_pdf, outside)
    return root, outside, Config(workspace_only=True, roots=(str(root),))


def code_of(reference: str, config: Config) -> str | None:
    try:
        resolve_reference(reference, config)
    except PdfDeskError as exc:
        return exc.code
    return None


def test_dot_dot_in_every_spelling_stays_out(workspace):
    root, _outside, config = workspace
    for reference in (f"{root}/../private/secret.pdf", f"{root}/sub/../../private/secret.pdf",
                      f"{root}/./sub/../../private/./secret.pdf", f"file://{root}/..%2Fprivate%2Fsecret.pdf",
                      f"file://{root}/%2e%2e/private/secret.pdf", f"{root}//..//private//secret.pdf"):
        assert code_of(reference, config) == OUTSIDE_WORKSPACE, reference
    assert code_of(f"{root}/sub/../sub/inside.pdf", config) is None


def test_symlinks_are_resolved(workspace, tmp_path):
    root, outside, config = workspace
    (root / "link.pdf").symlink_to(outside)
    (root / "dirlink").symlink_to(outside.parent, target_is_directory=True)
    (root / "chain1.pdf").symlink_to(root / "chain2.pdf")
    (root / "chain2.pdf").symlink_to(outside)
    (root / "relative.pdf").symlink_to(Path("..") / "private" / "secret.pdf")
    for name in ("link.pdf", "dirlink/secret.pdf", "chain1.pdf", "relative.pdf"):
        assert code_of(str(root / name), config) == OUTSIDE_WORKSPACE, name
    # a link that stays inside is fine, and a root that is itself a symlink works through either name
    (root / "alias.pdf").symlink_to(root / "sub" / "inside.pdf")
    assert code_of(str(root / "alias.pdf"), config) is None
    alias_root = tmp_path / "cases-alias"
    alias_root.symlink_to(root, target_is_directory=True)
    assert code_of(str(root / "sub" / "inside.pdf"), Config(workspace_only=True, roots=(str(alias_root),))) is None
    assert code_of(str(alias_root / "sub" / "inside.pdf"), config) is None


def test_hard_links_are_the_files_own_entry_in_the_root(workspace):
    """Decision (see core/policy.py): a hard link inside a root is inside it; the same file by its
    outside name is not."""
    root, outside, config = workspace
    try:
        os.link(outside, root / "hard.pdf")
    except OSError:
        pytest.skip("no hard links on this file system")
    assert code_of(str(root / "hard.pdf"), config) is None
    assert code_of(str(outside), config) == OUTSIDE_WORKSPACE


def test_containment_is_by_identity_not_by_spelling(workspace, tmp_path):
    root, outside, config = workspace
    sibling = tmp_path / "cases-evil"  # shares the root's name as a prefix
    sibling.mkdir()
    shutil.copy(outside, sibling / "x.pdf")
    assert code_of(str(sibling / "x.pdf"), config) == OUTSIDE_WORKSPACE
    # other spellings of the same root: trailing slashes, doubled separators, `.` parts
    for spelled in (f"{root}/", f"{root}//", f"{root}/./", str(root).replace("/cases", "/./cases")):
        assert code_of(str(root / "sub" / "inside.pdf"), Config(workspace_only=True, roots=(spelled,))) is None
    # a root spelled in another case is another folder on a case-sensitive system: it holds nothing here
    upper = Config(workspace_only=True, roots=(str(root).upper(),))
    if not Path(str(root).upper()).exists():
        assert code_of(str(root / "sub" / "inside.pdf"), upper) == OUTSIDE_WORKSPACE
    # a missing file under a root is not_found later, not outside
    assert is_inside(root / "sub" / "not-yet.pdf", root)
    assert not is_inside(root / "sub" / "inside.pdf", tmp_path / "no-such-root")


@pytest.mark.parametrize("name", ["CON", "con", "NUL.pdf", "nul.tar.gz", "COM1", "com9 .pdf", "LPT1.txt", "AUX",
                                  "PRN.pdf", "CONIN$", "conout$.pdf", "CLOCK$", "COM¹.pdf", "nul."])
def test_windows_device_names_are_recognised(name):
    assert is_device_name(name)


@pytest.mark.parametrize("name", ["console.pdf", "con-notes.pdf", "null.pdf", "COM10.pdf", "LPT.pdf", "aux_1.pdf",
                                  "my CON.pdf"])
def test_ordinary_names_are_not_devices(name):
    assert not is_device_name(name)


def test_device_names_are_refused_in_the_workspace(workspace):
    root, _outside, config = workspace
    for reference in (str(root / "NUL"), str(root / "con.pdf"), f"{root}/sub/COM1.pdf", "C:\\cases\\LPT1.pdf", "nul"):
        assert code_of(reference, config) == UNSUPPORTED_PDF_REFERENCE, reference
    if sys.platform != "win32":  # on Linux and macOS "con.pdf" is an ordinary file outside workspace mode
        (root / "con.pdf").write_bytes((root / "sub" / "inside.pdf").read_bytes())
        assert code_of(str(root / "con.pdf"), Config()) is None


@pytest.mark.parametrize("reference", ["\\\\server\\share\\case.pdf", "//server/share/case.pdf", "\\\\?\\C:\\x.pdf",
                                       "\\\\.\\PhysicalDrive0", "//?/UNC/server/share/x.pdf", "\\/server/x.pdf"])
def test_unc_and_device_namespace_paths_are_refused(workspace, reference):
    _root, _outside, config = workspace
    assert is_network_or_device_path(reference)
    assert code_of(reference, config) == OUTSIDE_WORKSPACE
    assert code_of("file://server/share/case.pdf", Config()) == UNSUPPORTED_PDF_REFERENCE


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_or_device_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    started = time.monotonic()
    assert code_of(str(fifo), Config()) == NOT_A_PDF
    if Path("/dev/zero").exists():
        assert code_of("/dev/zero", Config()) == NOT_A_PDF
    assert time.monotonic() - started < 2


def test_every_call_checks_a_link_again(workspace):
    """A link re-pointed outside after an allowed call is refused on the next call."""
    root, outside, config = workspace
    link = root / "swap.pdf"
    link.symlink_to(root / "sub" / "inside.pdf")
    assert code_of(str(link), config) is None
    link.unlink()
    link.symlink_to(outside)
    assert code_of(str(link), config) == OUTSIDE_WORKSPACE


def test_policy_checks_are_cheap(workspace):
    root, _outside, config = workspace
    target = str(root / "sub" / "inside.pdf")
    started = time.perf_counter()
    for _ in range(2000):
        resolve_reference(target, config)
    assert (time.perf_counter() - started) / 2000 < 0.002


def test_concurrent_checks_agree(workspace):
    root, outside, config = workspace
    answers: list[str | None] = []
    threads = [threading.Thread(target=lambda r=r: answers.append(code_of(r, config)))
               for r in [str(root / "sub" / "inside.pdf"), str(outside)] * 10]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers, key=str) == [None] * 10 + [OUTSIDE_WORKSPACE] * 10
