"""`pdfdesk ask` end to end: a real process against the fake OpenAI-compatible server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agent.fake_servers import FakeOpenAI, Turn

pytestmark = pytest.mark.network
ROOT = Path(__file__).resolve().parents[2]


def run_ask(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update({"PDFDESK_HOME": str(home), "PYTHONPATH": str(ROOT)})
    return subprocess.run([sys.executable, "-m", "pdfdesk", "ask", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=90)


def write_config(home: Path, text: str) -> None:
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(text, encoding="utf-8")


def test_ask_streams_a_cited_answer_from_a_local_server(report_pdf, tmp_path):
    with FakeOpenAI() as server:
        server.script(
            Turn(tool_calls=[("pdf_search", {"path": "report.pdf", "query": "termination notice"})]),
            Turn(text="Either party may terminate with ninety days notice [p. 5]."),
        )
        write_config(tmp_path, f'[models]\nagent = "lab/qwen2.5-7b"\n\n[providers.lab]\nbaseUrl = "{server.url}"\n')
        done = run_ask(tmp_path, "How can the agreement be terminated?", "--pdf", str(report_pdf))
        assert server.bodies[0]["model"] == "qwen2.5-7b" and server.bodies[0]["stream"] is True
        assert "max_tokens" in server.bodies[0]  # local servers get the classic parameter name
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Either party may terminate with ninety days notice [p. 5].\n")
    assert f"Sources:\n  [1] report.pdf p. 5 — {report_pdf}#page=5" in done.stdout
    assert "[lab/qwen2.5-7b]" in done.stderr and "→ pdf_search(" in done.stderr and "✓ 2 matches" in done.stderr


def test_ask_with_model_flag_and_a_failing_server(report_pdf, tmp_path):
    with FakeOpenAI() as server:
        server.script(Turn.fail(400, "model not found"))
        write_config(tmp_path, f'[providers.lab]\nbaseUrl = "{server.url}"\n')
        done = run_ask(tmp_path, "q", "--pdf", str(report_pdf), "--model", "lab/nope", "--quiet")
    assert done.returncode == 1 and "HTTP 400: model not found" in done.stderr
    assert "[lab/nope]" not in done.stderr  # --quiet


def test_ask_offline_without_a_model(report_pdf, tmp_path):
    done = run_ask(tmp_path, "What are the plans for the container cranes?", "--pdf", str(report_pdf), "--quiet")
    assert done.returncode == 0, done.stderr
    assert "[p. 6]" in done.stdout and "No language model is set up" in done.stdout
    assert "report.pdf p. 6" in done.stdout.split("Sources:")[1]


def test_bad_config_is_a_usage_error(tmp_path, report_pdf):
    write_config(tmp_path, '[models]\nagent = "gpt-4o"\n')
    done = run_ask(tmp_path, "q", "--pdf", str(report_pdf))
    assert done.returncode == 2 and "models.agent must be a model name like" in done.stderr


def test_ask_offline_answers_from_a_scanned_document_with_page_citations(tmp_path):
    from tests.pdf_factory import scanned_pdf

    scan = scanned_pdf(tmp_path / "signed-lease.pdf", [
        "The tenant shall keep the premises in good repair and shall not sublet without consent. " * 3,
        "Disputes under this lease are settled by arbitration in Geneva under the chamber rules. " * 3,
    ])
    done = run_ask(tmp_path / "home", "Where are disputes settled?", "--pdf", str(scan))
    assert done.returncode == 0, done.stderr
    assert "pages recognised" in done.stderr  # recognised first, with progress
    assert "arbitration in Geneva" in " ".join(done.stdout.split()) and "[p. 2]" in done.stdout
    assert "signed-lease.pdf p. 2" in done.stdout.split("Sources:")[1]


def test_the_pdf_tool_sends_recognised_text_of_scanned_pages(tmp_path):
    from pdfdesk.core.config import Config
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index.builder import Target, build_index
    from pdfdesk.index.recognition import build_recognition, recognised_pages
    from pdfdesk.models.pdf_input import extraction_parts, load_pdfs
    from tests.pdf_factory import scanned_pdf

    scan = scanned_pdf(tmp_path / "scan.pdf", ["Invoice 4711 from Supplier Xenon for forty crates. " * 3])
    with open_pdf(str(scan)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    build_index(target)
    build_recognition(target)
    config = Config()
    docs = load_pdfs([str(scan)], None, 10 * 1024 * 1024, None, config)
    extraction = extraction_parts(docs, "Summarise.", 20, False, config, recognised=recognised_pages)
    sent = " ".join(part.text for part in extraction.parts if hasattr(part, "text"))
    assert "Invoice 4711 from Supplier Xenon" in " ".join(sent.split())
    assert "(a scan; text recognised by OCR" in sent and extraction.has_content
