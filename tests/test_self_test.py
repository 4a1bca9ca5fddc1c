"""`pdfdesk --self-test`: one OK line with step timings, or the step that failed and why."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest

from pdfdesk import self_test
from pdfdesk.core import paths
from pdfdesk.self_test import SelfTestFailed, run_self_test
from tests import pdf_factory as make

OK_LINE = re.compile(
    r"^pdfdesk self-test OK: open \d+ ms, render \d+ ms, search \d+ ms, answer \d+ ms, workers \d+ ms, window \d+ ms; "
    r"total \d+\.\d\d s \((?P<facts>.+)\)$"
)


def run_cli(home: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PDFDESK_HOME": str(home), "QT_QPA_PLATFORM": "offscreen", **env}
    return subprocess.run([sys.executable, "-m", "pdfdesk", "--self-test"], capture_output=True, text=True,
                          timeout=120, env=environment)


def blank_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page()
    return make.save(doc, path)


def test_cli_prints_one_ok_line_and_leaves_the_users_files_alone(pdfdesk_home: Path) -> None:
    config = paths.config_dir() / "config.toml"
    config.write_text("[models]\nagent = 42\n", encoding="utf-8")  # broken: the self-test runs on defaults
    # A configured cloud model must not be used: the answer step is always the offline answerer.
    proc = run_cli(pdfdesk_home, OPENAI_API_KEY="sk-test-4f9c2a7d1e8b", OPENAI_BASE_URL="http://127.0.0.1:9/v1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout
    match = OK_LINE.match(lines[0])
    assert match, lines[0]
    facts = match["facts"]
    assert "sample.pdf: 5 pages" in facts
    assert re.search(r"'citations' on p\. [1-5]", facts)
    assert re.search(r"offline answer cites p\. [1-5]", facts)
    assert "window painted page 1 (offscreen)" in facts
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in pdfdesk_home.iterdir()) == ["config"]  # no renders, indices or recent files
    assert config.read_text(encoding="utf-8") == "[models]\nagent = 42\n"


def test_a_qt_platform_that_cannot_load_is_reported_as_the_window_step(pdfdesk_home: Path) -> None:
    # what a bundle without the xcb plugin's libraries does: Qt stops the program in QApplication()
    proc = run_cli(pdfdesk_home, QT_QPA_PLATFORM="no-such-platform")
    assert proc.returncode == 1
    assert proc.stdout.startswith("pdfdesk self-test FAILED at window: ")
    assert "no-such-platform" in proc.stdout
    assert len(proc.stdout.splitlines()) == 1


def test_in_process_run_measures_each_step_and_restores_the_environment(pdfdesk_home: Path) -> None:
    report = run_self_test(window=False)
    assert list(report.timings) == ["open", "render", "search", "answer", "workers"]
    assert all(0 < seconds < 30 for seconds in report.timings.values())
    assert report.facts[0] == "sample.pdf: 5 pages"
    assert re.fullmatch(r"page 1 rendered \d+x\d+", report.facts[1])
    assert os.environ["PDFDESK_HOME"] == str(pdfdesk_home)
    assert not (pdfdesk_home / "pdf-renders").exists()  # the render went to the throwaway home


@pytest.fixture
def quiet_main(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")  # main() sets it otherwise


def test_missing_sample_fails_at_open(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, quiet_main: None,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(paths, "sample_pdf", lambda: tmp_path / "gone" / "sample.pdf")
    assert self_test.main(window=False) == 1
    out = capsys.readouterr().out
    missing = tmp_path / "gone" / "sample.pdf"
    assert out == f"pdfdesk self-test FAILED at open: the bundled sample PDF is missing: {missing}\n"


def test_damaged_sample_fails_at_open_with_the_tool_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                           quiet_main: None,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "sample.pdf"
    broken.write_bytes(b"this is not a PDF at all\n" * 40)
    monkeypatch.setattr(paths, "sample_pdf", lambda: broken)
    assert self_test.main(window=False) == 1
    assert capsys.readouterr().out.startswith("pdfdesk self-test FAILED at open: pdf_info returned not_a_pdf: ")


def test_blank_page_fails_at_render(tmp_path: Path) -> None:
    with pytest.raises(SelfTestFailed) as failed:
        run_self_test(blank_pdf(tmp_path / "blank.pdf"), window=False)
    assert failed.value.step == "render"
    assert "single colour" in failed.value.message


def test_sample_without_the_search_word_fails_at_search(tmp_path: Path) -> None:
    with pytest.raises(SelfTestFailed) as failed:
        run_self_test(make.text_pdf(tmp_path / "other.pdf"), window=False)
    assert failed.value.step == "search"
    assert "no match for 'citations'" in failed.value.message


def test_a_hung_step_is_cut_off_at_its_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(self_test, "check_answer", lambda *args: time.sleep(3))
    started = time.perf_counter()
    with pytest.raises(SelfTestFailed) as failed:
        run_self_test(window=False, timeouts={"answer": 0.3})
    assert failed.value.step == "answer"
    assert failed.value.message == "did not finish within 0.3 s"
    assert time.perf_counter() - started < 2.5


def test_an_unexpected_exception_names_its_step(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> str:
        raise ImportError("No module named 'pdfdesk.models.providers'")

    monkeypatch.setattr(self_test, "check_answer", broken)
    with pytest.raises(SelfTestFailed) as failed:
        run_self_test(window=False)
    assert (failed.value.step, failed.value.message) == (
        "answer", "ImportError: No module named 'pdfdesk.models.providers'")


def test_window_step_fails_when_the_viewer_cannot_open_the_document(qapp: object, tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 64)
    with pytest.raises(SelfTestFailed) as failed:
        self_test.check_window(broken, timeout=20)
    assert failed.value.step == "window"
    assert "could not open broken.pdf" in failed.value.message
