"""A local PDF is resolved once and read by identity: every step after the policy check reads the
file that passed it, and a source re-opened later (here or in another process) is that file or a
coded error — never whatever its name points at now."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from pdfdesk.core import childproc, documents, localfile
from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import open_pdf, open_source
from pdfdesk.core.errors import FILE_NOT_FOUND, NOT_A_PDF, OUTSIDE_WORKSPACE, PdfDeskError
from pdfdesk.core.references import PdfSource, resolve_reference
from pdfdesk.tools import call_tool


def _pdf(path: Path, words: str, pages: int = 1) -> Path:
    doc = pymupdf.open()
    for number in range(pages):
        doc.new_page().insert_text((72, 72), f"{words} {number + 1}")
    doc.save(path)
    doc.close()
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    (folder / "docs").mkdir(parents=True)
    _pdf(folder / "docs" / "inside.pdf", "INSIDE")
    (tmp_path / "outside").mkdir()
    _pdf(tmp_path / "outside" / "inside.pdf", "SECRET-OUTSIDE", pages=2)
    return folder


def _text(opened: documents.OpenedPdf) -> str:
    return "".join(page.get_text() for page in opened.doc)


# --- resolving ------------------------------------------------------------------------------------

def test_a_source_names_the_checked_file_by_identity(root):
    link = root / "alias.pdf"
    link.symlink_to(root / "docs" / "inside.pdf")
    source = resolve_reference(str(link), Config())
    info = os.stat(root / "docs" / "inside.pdf")
    assert source.path == link and source.name == "alias.pdf"  # as the user named it
    assert source.resolved == root / "docs" / "inside.pdf"  # what every re-open uses
    assert tuple(source.identity) == (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def test_resolving_leaves_no_descriptor_open(root):
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    for _ in range(50):
        resolve_reference(str(root / "docs" / "inside.pdf"), Config())
    with open_pdf(str(root / "docs" / "inside.pdf")):
        pass
    documents.close_all()
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before


# --- one file from the check to the last read -----------------------------------------------------

def test_the_cache_is_keyed_by_the_file_not_the_name(root):
    link = root / "alias.pdf"
    link.symlink_to(root / "docs" / "inside.pdf")
    with open_pdf(str(root / "docs" / "inside.pdf")) as first:
        pass
    with open_pdf(str(link)) as second:
        assert second is first
        assert second.source.path == link  # messages and details still name the file as asked
    with open_pdf(str(root / "docs" / "inside.pdf")) as third:
        assert third.source.path == root / "docs" / "inside.pdf"


def test_forget_drops_the_file_whichever_name_opened_it(root):
    link = root / "alias.pdf"
    link.symlink_to(root / "docs" / "inside.pdf")
    with open_pdf(str(link)) as first:
        pass
    documents.forget(root / "docs" / "inside.pdf")
    assert first.doc.is_closed and first.held is not None and first.held.closed
    with open_pdf(str(link)) as second:
        assert second is not first


def test_a_file_replaced_under_its_name_is_a_new_entry(root):
    target = root / "docs" / "inside.pdf"
    with open_pdf(str(target)) as first:
        assert "INSIDE" in _text(first)
    replacement = _pdf(root / "docs" / "next.pdf", "REPLACED")
    os.replace(replacement, target)
    with open_pdf(str(target)) as second:
        assert second is not first and "REPLACED" in _text(second)


def test_fingerprint_and_bytes_come_from_the_opened_file(root):
    target = root / "docs" / "inside.pdf"
    original = target.read_bytes()
    with open_pdf(str(target)) as opened:
        os.replace(_pdf(root / "docs" / "other.pdf", "SWAPPED", pages=4), target)
        assert opened.read_bytes() == original
        digest = opened.fingerprint
    copy = root / "copy.pdf"
    copy.write_bytes(original)
    with open_pdf(str(copy)) as same:
        assert same.fingerprint == digest


# --- re-opening later must find the same file -----------------------------------------------------

def test_reopening_a_replaced_file_is_a_coded_error(root):
    target = root / "docs" / "inside.pdf"
    source = resolve_reference(str(target), Config())
    os.replace(_pdf(root / "docs" / "other.pdf", "REPLACED"), target)
    with pytest.raises(PdfDeskError) as err, open_source(source):
        pass
    assert err.value.code == FILE_NOT_FOUND and "no longer the file" in err.value.message


def test_reopening_a_file_changed_in_place_is_a_coded_error(root):
    target = root / "docs" / "inside.pdf"
    source = resolve_reference(str(target), Config())
    with open(target, "ab") as handle:
        handle.write(b"\n% appended\n")
    with pytest.raises(PdfDeskError) as err, open_source(source):
        pass
    assert err.value.code == FILE_NOT_FOUND


def test_reopening_through_a_symlink_swapped_in_is_refused(root, tmp_path):
    target = root / "docs" / "inside.pdf"
    source = resolve_reference(str(target), Config())
    parked = root / "parked.pdf"
    os.rename(target, parked)
    target.symlink_to(parked)  # the very same file, but now behind a link: not followed
    with pytest.raises(PdfDeskError) as err, open_source(source):
        pass
    assert err.value.code == FILE_NOT_FOUND


def test_an_unchanged_source_reopens_after_its_handle_was_dropped(root):
    source = resolve_reference(str(root / "docs" / "inside.pdf"), Config())
    documents.close_all()
    with open_source(source) as opened:
        assert "INSIDE" in _text(opened)


def read_in_child(send: Any, source: PdfSource) -> str:
    """In a child process: what open_source reads for `source`."""
    with open_source(source) as opened:
        return "".join(page.get_text() for page in opened.doc)


def test_another_process_verifies_the_identity_too(root):
    target = root / "docs" / "inside.pdf"
    source = resolve_reference(str(target), Config())
    assert "INSIDE" in childproc.run_job(read_in_child, (source,), name="identity-test", deadline_s=60)
    shutil.copy(root.parent / "outside" / "inside.pdf", target)  # same inode, other bytes
    with pytest.raises(PdfDeskError) as err:
        childproc.run_job(read_in_child, (source,), name="identity-test", deadline_s=60)
    assert err.value.code == FILE_NOT_FOUND


# --- the check after the open ---------------------------------------------------------------------

def test_a_folder_swapped_for_a_link_between_check_and_open_is_refused(root, monkeypatch):
    """The resolved path passes the policy; then `docs` becomes a link to the outside folder just
    before the open. The opened file is outside, so nothing is read from it."""
    real_open = localfile.open_no_follow
    swaps = []

    def swap_then_open(path):
        docs = root / "docs"
        if not docs.is_symlink():
            os.rename(docs, root / "docs.parked")
            docs.symlink_to(root.parent / "outside", target_is_directory=True)
            swaps.append(path)
        return real_open(path)

    monkeypatch.setattr(localfile, "open_no_follow", swap_then_open)
    set_config(Config(workspace_only=True, roots=(str(root),)))
    result = call_tool("pdf_extract_text", {"path": str(root / "docs" / "inside.pdf")})
    assert swaps and result.is_error and result.details["error"] == OUTSIDE_WORKSPACE
    assert "SECRET" not in result.text


def test_a_file_replaced_by_a_link_between_check_and_open_is_not_followed(root, monkeypatch):
    real_open = localfile.open_no_follow

    def swap_then_open(path):
        target = root / "docs" / "inside.pdf"
        if not target.is_symlink():
            target.unlink()
            target.symlink_to(root.parent / "outside" / "inside.pdf")
        return real_open(path)

    monkeypatch.setattr(localfile, "open_no_follow", swap_then_open)
    set_config(Config(workspace_only=True, roots=(str(root),)))
    result = call_tool("pdf_info", {"path": str(root / "docs" / "inside.pdf")})
    assert result.is_error and result.details["error"] == OUTSIDE_WORKSPACE
    assert "SECRET" not in result.text


def test_a_harmless_swap_is_retried_once(root, monkeypatch):
    """The file moves and a link to its new place takes its name (an editor's safe save, a sync
    tool): the first open meets the link, the second resolves it and succeeds."""
    real_open = localfile.open_no_follow
    calls = []

    def move_then_open(path):
        calls.append(path)
        target = root / "docs" / "inside.pdf"
        if len(calls) == 1:
            os.rename(target, root / "docs" / "moved.pdf")
            target.symlink_to(root / "docs" / "moved.pdf")
        return real_open(path)

    monkeypatch.setattr(localfile, "open_no_follow", move_then_open)
    set_config(Config(workspace_only=True, roots=(str(root),)))
    result = call_tool("pdf_extract_text", {"path": str(root / "docs" / "inside.pdf")})
    assert not result.is_error and "INSIDE" in result.text
    assert [Path(p).name for p in calls] == ["inside.pdf", "moved.pdf"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_swapped_in_before_the_open_does_not_block(root, monkeypatch):
    real_open = localfile.open_no_follow

    def swap_then_open(path):
        target = root / "docs" / "inside.pdf"
        if not target.is_fifo():
            target.unlink()
            os.mkfifo(target)
        return real_open(path)

    monkeypatch.setattr(localfile, "open_no_follow", swap_then_open)
    started = time.monotonic()
    with pytest.raises(PdfDeskError) as err:
        resolve_reference(str(root / "docs" / "inside.pdf"), Config())
    assert err.value.code == NOT_A_PDF and time.monotonic() - started < 2


def assert_opened_verdicts(asked: Path, refused: Path, allowed: Path, config: Config) -> None:
    """The post-open check on `asked`: refused when the descriptor is of `refused`, passed when it
    is of `allowed`."""
    from pdfdesk.core.policy import check_opened_allowed

    for opened, ok in ((refused, False), (allowed, True)):
        fd = os.open(opened, os.O_RDONLY)
        try:
            if ok:
                check_opened_allowed(asked, asked, fd, config)
            else:
                with pytest.raises(PdfDeskError) as err:
                    check_opened_allowed(asked, asked, fd, config)
                assert err.value.code == OUTSIDE_WORKSPACE
        finally:
            os.close(fd)


def test_the_descriptor_must_be_inside_even_when_the_name_looks_right(root):
    """The post-open check itself: a descriptor of the outside file under an inside name."""
    config = Config(workspace_only=True, roots=(str(root),))
    inside = root / "docs" / "inside.pdf"
    assert_opened_verdicts(inside, root.parent / "outside" / "inside.pdf", inside, config)


@pytest.mark.skipif(localfile.fd_location(0) is None, reason="the platform cannot name an open descriptor")
def test_the_kernel_name_of_the_descriptor_decides(root):
    """A hard link in the root is inside (the policy counts a hard link as the root's own entry); the
    same file opened by its outside name is not, even though the inside name is the same file: what
    was opened is what counts."""
    outside = root.parent / "outside" / "inside.pdf"
    hard = root / "docs" / "hard.pdf"
    try:
        os.link(outside, hard)
    except OSError:
        pytest.skip("no hard links on this file system")
    config = Config(workspace_only=True, roots=(str(root),))
    assert_opened_verdicts(hard, outside, hard, config)
