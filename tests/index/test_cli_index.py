import os
import subprocess
import sys

from tests.pdf_factory import outline_pdf, text_pdf


def test_index_command_builds_files_and_folders(tmp_path, pdfdesk_home):
    folder = tmp_path / "docs"
    (folder / "nested").mkdir(parents=True)
    text_pdf(folder / "a.pdf")
    outline_pdf(folder / "nested" / "B.PDF")
    (folder / "notes.txt").write_text("not a pdf")
    proc = subprocess.run([sys.executable, "-m", "pdfdesk", "index", str(folder)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PDFDESK_HOME": str(pdfdesk_home)})
    assert proc.returncode == 0, proc.stderr
    assert "a.pdf" in proc.stderr and "B.PDF" in proc.stderr and "2 documents indexed" in proc.stderr
    states = list((pdfdesk_home / "indices").glob("*/state.json"))
    assert len(states) == 2


def test_index_command_reports_failures(tmp_path, pdfdesk_home):
    proc = subprocess.run([sys.executable, "-m", "pdfdesk", "index", str(tmp_path / "missing.pdf")],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PDFDESK_HOME": str(pdfdesk_home)})
    assert proc.returncode == 1 and "file_not_found" in proc.stderr
