"""`pdfdesk searchable-copy IN [-o OUT] [--force]` as a user runs it: the copy next to IN by default,
progress on one stderr line, a summary on stdout, an existing OUT refused unless --force, and IN
itself refused under any name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pymupdf

from tests.pdf_factory import scanned_pdf

LEASE = ("The tenant shall keep the premises in good repair and shall not assign this lease without the "
         "prior written consent of the landlord. Rent is payable monthly in advance. ")


def run(home: Path, *args: str) -> subprocess.CompletedProcess:
    """The command in a process of its own; output decoded without turning "\\r" into a newline."""
    env = {**os.environ, "PDFDESK_HOME": str(home), "LANG": "C.UTF-8"}
    env.pop("LC_ALL", None)
    done = subprocess.run([sys.executable, "-m", "pdfdesk", "searchable-copy", *args], capture_output=True,
                          timeout=180, env=env)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def test_the_command_writes_the_copy_beside_the_scan_and_refuses_to_overwrite(tmp_path, pdfdesk_home):
    source = scanned_pdf(tmp_path / "lease.pdf", [LEASE * 2, LEASE])
    before = source.read_bytes()
    done = run(pdfdesk_home, str(source))
    assert done.returncode == 0, done.stderr
    output = tmp_path / "lease-searchable.pdf"
    assert f"Searchable copy written to {output}" in done.stdout
    assert "2 pages given a text layer" in done.stdout
    # progress is one line, redrawn in place, ended once
    assert done.stderr.count("\n") == 1 and "\r" in done.stderr and "recognis" in done.stderr
    with pymupdf.open(output) as copy:
        assert all(page.search_for("premises") for page in copy)
    again = run(pdfdesk_home, str(source))
    assert again.returncode == 1 and "already exists" in again.stderr and "--force" in again.stderr
    forced = run(pdfdesk_home, str(source), "--force")
    assert forced.returncode == 0, forced.stderr
    for target in (str(source), str(tmp_path / "." / "lease.pdf")):
        refused = run(pdfdesk_home, str(source), "-o", target, "--force")
        assert refused.returncode == 1 and "the copy would overwrite it" in refused.stderr
        assert "Traceback" not in refused.stderr + refused.stdout
    assert source.read_bytes() == before


def test_a_missing_source_is_a_one_line_error(tmp_path, pdfdesk_home):
    missing = run(pdfdesk_home, str(tmp_path / "nope.pdf"), "-o", str(tmp_path / "out.pdf"))
    assert missing.returncode == 1 and missing.stderr.startswith("pdfdesk searchable-copy: ")
    assert "Traceback" not in missing.stderr and not (tmp_path / "out.pdf").exists()
