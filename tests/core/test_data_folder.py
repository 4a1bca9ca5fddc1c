"""A data folder that cannot be written (read-only, full): naming it never fails, the cause is put
in words, crash.log failing is one line on stderr, and `pdfdesk index` says what is wrong."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pdfdesk.core import paths
from pdfdesk.core.errors import PERMISSION_DENIED
from tests.machine_faults import disk_full, read_only, without_override

ROOT = Path(__file__).resolve().parents[2]


def test_naming_folders_never_fails_on_a_read_only_home(pdfdesk_home):
    with read_only(pdfdesk_home):
        assert paths.app_data_dir() == pdfdesk_home
        assert paths.config_dir() == pdfdesk_home / "config"
        assert paths.indices_dir() == pdfdesk_home / "indices"
        assert paths.renders_dir() == pdfdesk_home / "pdf-renders"
    assert not (pdfdesk_home / "indices").exists()  # could not be made, and nobody pretended


def test_folders_are_still_made_when_they_can_be(pdfdesk_home):
    assert paths.renders_dir().is_dir() and paths.config_dir().is_dir()
    assert not paths.indices_dir().exists()  # naming it makes nothing; the first index built does


@pytest.mark.parametrize(("code", "words"), [(errno.EROFS, "it is on a read-only file system"),
                                             (errno.EACCES, "permission to write there is denied"),
                                             (errno.ENOSPC, "the disk is full"),
                                             (errno.ENOENT, None)])
def test_storage_problems_in_words(code, words):
    assert paths.storage_problem(OSError(code, os.strerror(code))) == words


def test_unwritable_reason(pdfdesk_home):
    assert paths.unwritable_reason(pdfdesk_home / "indices" / "not-yet") is None
    with read_only(pdfdesk_home):
        assert paths.unwritable_reason(pdfdesk_home / "indices" / "not-yet") == "permission to write there is denied"
        assert paths.unwritable_reason(pdfdesk_home) == "permission to write there is denied"


def test_a_disk_with_almost_no_space_left_counts_as_full(pdfdesk_home, monkeypatch, text_pdf):
    from collections import namedtuple

    from pdfdesk.tools import call_tool

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(paths.shutil, "disk_usage", lambda path: usage(10**9, 10**9 - 4096, 4096))
    assert paths.unwritable_reason(pdfdesk_home) == "the disk is full"
    result = call_tool("pdf_search", {"path": str(text_pdf), "query": "page"})
    assert not result.is_error and result.details["note"].startswith(
        f"The search index cannot be saved (the data folder {pdfdesk_home} cannot be written: the disk is full), "
        "so the pages were read directly")
    assert "still being built" not in result.details["note"]


def test_storage_error_names_the_folder_and_the_cause(tmp_path):
    error = paths.storage_error(tmp_path, "the disk is full", "build search indices")
    assert error.code == PERMISSION_DENIED
    assert error.message == (f"pdfdesk cannot build search indices: its data folder {tmp_path} cannot be written "
                             "(the disk is full).")
    assert "PDFDESK_HOME" in error.hint
    assert error.to_details()["folder"] == str(tmp_path)


def test_crash_log_on_a_read_only_folder(pdfdesk_home):
    with read_only(pdfdesk_home):
        kept, where = paths.write_crash_log("Traceback: boom")
    assert not kept
    assert where == f"crash.log could not be written to {pdfdesk_home}: permission to write there is denied"


def test_crash_log_on_a_full_disk(pdfdesk_home, monkeypatch):
    with disk_full(monkeypatch, pdfdesk_home):
        kept, where = paths.write_crash_log("Traceback: boom")
    assert (kept, where) == (False, f"crash.log could not be written to {pdfdesk_home}: the disk is full")


def test_crash_log_is_written_when_it_can_be(pdfdesk_home):
    assert paths.write_crash_log("Traceback: boom") == (True, f"details in {pdfdesk_home / 'crash.log'}")
    assert (pdfdesk_home / "crash.log").read_text() == "Traceback: boom\n"


def test_a_crash_with_a_read_only_folder_is_one_line(pdfdesk_home, monkeypatch, capsys):
    import pdfdesk.cli as cli

    def boom(*args, **kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(cli, "list_tools", boom)
    monkeypatch.setattr(sys, "argv", ["pdfdesk", "tools"])
    with read_only(pdfdesk_home):
        assert cli.entry_point() == cli.EXIT_CRASH
    err = capsys.readouterr().err
    assert err == (f"pdfdesk: internal error: RuntimeError: simulated bug (crash.log could not be written to "
                   f"{pdfdesk_home}: permission to write there is denied)\n")


def _pdfdesk(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PDFDESK_HOME": str(home), "PDFDESK_BACKGROUND_INDEXING": "0"}
    return subprocess.run([sys.executable, "-m", "pdfdesk", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120, preexec_fn=without_override)


@pytest.mark.parametrize("populated", [False, True], ids=["fresh", "used-before"])
def test_pdfdesk_index_on_a_read_only_folder(populated, pdfdesk_home, text_pdf, outline_pdf):
    if populated:
        assert _pdfdesk(pdfdesk_home, "index", str(text_pdf)).returncode == 0
    with read_only(pdfdesk_home):
        done = _pdfdesk(pdfdesk_home, "index", str(outline_pdf))
        search = _pdfdesk(pdfdesk_home, "tool", "pdf_search", f'{{"path": "{outline_pdf}", "query": "chapter"}}',
                          "--text")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"pdfdesk cannot build search indices: its data folder {pdfdesk_home} cannot be written "
                           "(permission to write there is denied).\n  hint: Free some disk space or make the folder "
                           "writable, or set PDFDESK_HOME to a writable folder. Reading, extracting and searching "
                           "PDFs keep working meanwhile.\n")
    assert search.returncode == 0 and "The search index cannot be saved" in search.stdout
    assert "Traceback" not in search.stderr
