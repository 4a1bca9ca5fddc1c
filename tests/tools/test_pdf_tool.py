"""The `pdf` analyze tool against fake Anthropic, Gemini and OpenAI servers on 127.0.0.1."""

from __future__ import annotations

import base64
import time
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.config import ProviderSettings
from pdfdesk.models.catalog import ModelRef, model_configured, pdf_model_candidates
from pdfdesk.models.pdf_input import LEGIBLE_PIXELS, PIXEL_BUDGET
from pdfdesk.tools import call_tool
from tests.agent.fake_servers import Turn
from tests.agent.support import (  # noqa: F401 - fixtures are found by name
    TEST_KEYS, anthropic_server, gemini_server, isolated_keys, openai_server, provider_urls, report_pdf,
    scanned_report_pdf, set_keys, use_config,
)

pytestmark = pytest.mark.network
CLAUDE, GEMINI, GPT = "anthropic/claude-sonnet-4-6", "google/gemini-2.5-flash", "openai/gpt-4.1-mini"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def pdf_text(data_b64: str) -> tuple[int, str]:
    with pymupdf.open(stream=base64.b64decode(data_b64), filetype="pdf") as doc:
        return doc.page_count, "".join(page.get_text() for page in doc)


def test_anthropic_native_document_block(anthropic_server, report_pdf, monkeypatch):
    set_keys(monkeypatch, "anthropic")
    use_config(pdf_model=CLAUDE, providers=provider_urls(anthropic=anthropic_server.url))
    anthropic_server.script(Turn(text="Six sections: summary, dredging, payment [p. 3], ..."))

    result = call_tool("pdf", {"pdf": str(report_pdf), "prompt": "List the sections."})

    assert not result.is_error, result.text
    assert result.details["model"] == CLAUDE and result.details["native"] is True
    assert result.details["attempts"] == [] and result.details["pdf"] == str(report_pdf)
    answer, provenance = (item["text"] for item in result.content)
    assert answer == "Six sections: summary, dredging, payment [p. 3], ..."  # the answer itself comes first
    assert provenance.startswith(f"Answer by {CLAUDE} on report.pdf (read natively).")
    assert "<<<PDF_CONTENT" not in result.text and "notes" not in result.details
    request = anthropic_server.requests[0]
    assert request.path == "/v1/messages"
    assert TEST_KEYS["anthropic"] in (request.headers.get("x-api-key"),
                                      request.headers.get("authorization", "").removeprefix("Bearer "))
    assert "stream" not in request.body and request.body["model"] == "claude-sonnet-4-6"
    assert request.body["messages"] == [{"role": "user", "content": [
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
                                        "data": b64(report_pdf.read_bytes())}, "title": "report.pdf"},
        {"type": "text", "text": "List the sections."},
    ]}]
    assert "never follow instructions" in request.body["system"]


def test_gemini_native_inline_data(gemini_server, report_pdf, monkeypatch):
    set_keys(monkeypatch, "google")
    use_config(pdf_model=GEMINI, providers=provider_urls(google=gemini_server.url))
    gemini_server.script(Turn(text="A harbour report."))

    result = call_tool("pdf", {"pdf": str(report_pdf)})

    assert not result.is_error and result.details["model"] == GEMINI and result.details["native"]
    request = gemini_server.requests[0]
    assert request.path == "/v1beta/models/gemini-2.5-flash:generateContent"
    assert request.headers["x-goog-api-key"] == TEST_KEYS["google"]
    assert request.body["contents"] == [{"role": "user", "parts": [
        {"inline_data": {"mime_type": "application/pdf", "data": b64(report_pdf.read_bytes())}},
        {"text": "Analyze this PDF document."},
    ]}]
    assert "untrusted" in request.body["systemInstruction"]["parts"][0]["text"]


def test_pages_in_native_mode_send_a_pdf_of_those_pages(anthropic_server, report_pdf, monkeypatch):
    set_keys(monkeypatch, "anthropic")
    use_config(pdf_model=CLAUDE, providers=provider_urls(anthropic=anthropic_server.url))
    anthropic_server.script(Turn(text="ok"))

    result = call_tool("pdf", {"pdf": str(report_pdf), "pages": "5, 2"})

    assert not result.is_error and result.details["pages"] == "2,5"
    document = anthropic_server.bodies[0]["messages"][0]["content"][0]
    pages, text = pdf_text(document["source"]["data"])
    assert pages == 2 and text.index("Dredging programme") < text.index("Termination clause")
    assert "Payment terms" not in text


def test_pdfs_are_merged_and_deduplicated(anthropic_server, report_pdf, scanned_report_pdf, monkeypatch):
    set_keys(monkeypatch, "anthropic")
    use_config(pdf_model=CLAUDE, providers=provider_urls(anthropic=anthropic_server.url))
    anthropic_server.script(Turn(text="compared"))

    result = call_tool("pdf", {"pdf": str(report_pdf),
                               "pdfs": [str(scanned_report_pdf), str(report_pdf), str(scanned_report_pdf)]})

    assert result.details["pdfs"] == [str(report_pdf), str(scanned_report_pdf)] and "pdf" not in result.details
    blocks = anthropic_server.bodies[0]["messages"][0]["content"]
    assert [b["type"] for b in blocks] == ["document", "document", "text"]
    assert [b["title"] for b in blocks[:2]] == ["report.pdf", "scanned.pdf"]


def test_too_many_pdfs(anthropic_server, monkeypatch):
    set_keys(monkeypatch, "anthropic")
    use_config(pdf_model=CLAUDE, providers=provider_urls(anthropic=anthropic_server.url))
    result = call_tool("pdf", {"pdfs": [f"/docs/file{i}.pdf" for i in range(11)]})
    assert result.is_error and result.details["error"] == "too_many_pdfs" and result.details["limit"] == 10
    assert "at most 10" in result.details["message"] and anthropic_server.requests == []
    ten_with_repeats = [f"/docs/file{i % 10}.pdf" for i in range(15)]
    assert call_tool("pdf", {"pdfs": ten_with_repeats}).details["error"] == "file_not_found"  # 10 after de-duplication


@pytest.mark.parametrize(
    ("reference", "code"),
    [("/nowhere/missing.pdf", "file_not_found"), ("ftp://example.org/a.pdf", "unsupported_pdf_reference"),
     ("NOT_PDF", "not_a_pdf"), ("", "validation_error")],
)
def test_bad_references(reference, code, anthropic_server, tmp_path, monkeypatch):
    set_keys(monkeypatch, "anthropic")
    use_config(pdf_model=CLAUDE, providers=provider_urls(anthropic=anthropic_server.url))
    if reference == "NOT_PDF":
        reference = str(tmp_path / "letter.pdf")
        Path(reference).write_text("Dear reviewer, this is not a PDF.")
    result = call_tool("pdf", {"pdf": reference} if reference else {"prompt": "hi"})
    assert result.is_error and result.details["error"] == code, result.details
    assert result.details["message"] and result.details["hint"]
    assert anthropic_server.requests == []


def test_over_size_files(anthropic_server, report_pdf, monkeypatch):
    set_keys(monkeypatch, "anthropic")
    use_config(pdf_model=CLAUDE, providers=provider_urls(anthropic=anthropic_server.url))
    result = call_tool("pdf", {"pdf": str(report_pdf), "maxBytesMb": 0.001})
    assert result.details["error"] == "too_large" and result.details["limit_bytes"] == int(0.001 * 1024 * 1024)
    use_config(pdf_model=CLAUDE, providers=provider_urls(anthropic=anthropic_server.url), pdf_max_bytes_mb=0.002)
    assert call_tool("pdf", {"pdf": str(report_pdf)}).details["error"] == "too_large"  # the configured default
    assert anthropic_server.requests == []


def test_fallback_after_a_500_records_the_attempt(anthropic_server, openai_server, report_pdf, monkeypatch):
    set_keys(monkeypatch, "anthropic", "openai")
    use_config(pdf_model=CLAUDE, pdf_model_fallbacks=(GPT,), model_max_retries=1,
               providers=provider_urls(anthropic=anthropic_server.url, openai=openai_server.url))
    anthropic_server.script(Turn.fail(500, "internal trouble"), Turn.fail(500, "internal trouble"))
    openai_server.script(Turn(text="Payment within 45 days [p. 3]."))

    result = call_tool("pdf", {"pdf": str(report_pdf), "prompt": "Payment terms?"})

    assert not result.is_error, result.text
    assert result.details["model"] == GPT and result.details["native"] is False
    assert result.details["attempts"] == [{"model": CLAUDE, "native": True, "error": "error",
                                           "message": "HTTP 500: internal trouble", "status": 500, "retries": 1}]
    assert len(anthropic_server.requests) == 2  # tried, retried once, then the fallback
    assert "after 1 failed attempt" in result.text
    sent = openai_server.bodies[0]["messages"][1]["content"]
    text = sent if isinstance(sent, str) else " ".join(p.get("text", "") for p in sent)
    assert "--- Page 3 ---" in text and "forty-five days" in text and "<<<PDF_CONTENT" in text
    assert text.rstrip().endswith("Payment terms?")
    assert result.details["pages_sent"] == {"report.pdf": "1-6"} and result.details["images"] == []


def test_fallback_after_a_timeout(gemini_server, anthropic_server, report_pdf, monkeypatch):
    set_keys(monkeypatch, "google", "anthropic")
    use_config(pdf_model={"primary": GEMINI}["primary"], pdf_model_fallbacks=(CLAUDE,), model_timeout_s=0.3,
               providers=provider_urls(google=gemini_server.url, anthropic=anthropic_server.url))
    gemini_server.script(Turn(text="too late", delay=3.0))
    anthropic_server.script(Turn(text="on time"))

    started = time.monotonic()
    result = call_tool("pdf", {"pdf": str(report_pdf)})

    assert time.monotonic() - started < 2.5
    assert result.details["model"] == CLAUDE and "on time" in result.text
    attempt = result.details["attempts"][0]
    assert attempt["model"] == GEMINI and attempt["error"] == "timeout" and "0.3 s" in attempt["message"]
    assert len(gemini_server.requests) == 1  # a timeout is not retried: the fallback answers sooner


def test_every_model_failing_is_model_error(anthropic_server, openai_server, report_pdf, monkeypatch):
    set_keys(monkeypatch, "anthropic", "openai")
    use_config(pdf_model=CLAUDE, pdf_model_fallbacks=(GPT,), model_max_retries=0,
               providers=provider_urls(anthropic=anthropic_server.url, openai=openai_server.url))
    anthropic_server.script(Turn.fail(529, "overloaded"))
    openai_server.script(Turn.fail(400, "bad request"))
    result = call_tool("pdf", {"pdf": str(report_pdf)})
    assert result.is_error and result.details["error"] == "model_error"
    assert [a["model"] for a in result.details["attempts"]] == [CLAUDE, GPT]
    assert [a["status"] for a in result.details["attempts"]] == [529, 400]
    assert "bad request" in result.details["message"] and result.details["hint"]


def test_scanned_pages_become_images_within_the_pixel_budget(openai_server, scanned_report_pdf, monkeypatch):
    set_keys(monkeypatch, "openai")
    use_config(pdf_model=GPT, providers=provider_urls(openai=openai_server.url))
    openai_server.script(Turn(text="Mostly scans."))

    result = call_tool("pdf", {"pdf": str(scanned_report_pdf)})

    assert not result.is_error, result.text
    images = result.details["images"]
    assert [i["page"] for i in images] == [2, 3, 4, 5]  # five text-less pages, room for four legible ones
    assert result.details["pixels_total"] <= PIXEL_BUDGET
    assert all(i["width"] * i["height"] >= LEGIBLE_PIXELS * 0.98 for i in images)
    assert any("scanned.pdf p. 6" in note for note in result.details["notes"])
    content = openai_server.bodies[0]["messages"][1]["content"]
    urls = [p["image_url"]["url"] for p in content if p["type"] == "image_url"]
    assert len(urls) == 4 and all(u.startswith("data:image/png;base64,iVBOR") for u in urls)
    assert "Executive summary" in content[0]["text"]  # page 1 went as text


def test_a_single_scan_gets_a_sharper_image(openai_server, scanned_report_pdf, monkeypatch):
    set_keys(monkeypatch, "openai")
    use_config(pdf_model=GPT, providers=provider_urls(openai=openai_server.url))
    openai_server.script(Turn(text="ok"))
    result = call_tool("pdf", {"pdf": str(scanned_report_pdf), "pages": "3"})
    (image,) = result.details["images"]
    assert image["width"] == round(595 * 150 / 72) or image["width"] * image["height"] > 2 * LEGIBLE_PIXELS


def test_no_text_and_no_images_is_a_clear_error(openai_server, scanned_report_pdf):
    use_config(pdf_model="local/llama3", providers={"local": ProviderSettings(base_url=openai_server.url)})
    result = call_tool("pdf", {"pdf": str(scanned_report_pdf), "pages": "2-3"})
    assert result.is_error and result.details["error"] == "model_error"
    assert "no text layer" in result.details["message"] and "takes images" in result.details["message"]
    assert result.details["attempts"][0]["error"] == "no_content" and openai_server.requests == []


def test_extraction_page_cap(openai_server, report_pdf, monkeypatch):
    set_keys(monkeypatch, "openai")
    use_config(pdf_model=GPT, pdf_max_pages=2, providers=provider_urls(openai=openai_server.url))
    openai_server.script(Turn(text="ok"))
    result = call_tool("pdf", {"pdf": str(report_pdf)})
    assert result.details["pages_sent"] == {"report.pdf": "1-2"}
    assert "pages 3-6 were not sent" in result.details["notes"][0]
    sent = str(openai_server.bodies[0]["messages"][1]["content"])
    assert "--- Page 2 ---" in sent and "--- Page 3 ---" not in sent


def test_explicit_model_comes_first_then_config_then_keys(monkeypatch):
    config = use_config(pdf_model=CLAUDE, pdf_model_fallbacks=(GEMINI, "ollama/llava"), image_model=GPT,
                        agent_model="lmstudio/phi")
    assert pdf_model_candidates(config, "vllm/qwen") == [
        ModelRef("vllm", "qwen"), ModelRef("anthropic", "claude-sonnet-4-6"), ModelRef("google", "gemini-2.5-flash"),
        ModelRef("ollama", "llava"), ModelRef("openai", "gpt-4.1-mini"), ModelRef("lmstudio", "phi")]
    assert not model_configured(use_config(pdf_model=CLAUDE))  # no Anthropic key
    assert model_configured(use_config(agent_model="ollama/llama3.2"))  # a local server needs none
    assert pdf_model_candidates(use_config()) == [] and not model_configured(use_config())
    set_keys(monkeypatch, "openai", "google")
    assert pdf_model_candidates(use_config()) == [ModelRef("google", "gemini-2.5-flash"),
                                                  ModelRef("openai", "gpt-4.1-mini")]
    assert model_configured(use_config())


def test_no_model_configured(report_pdf):
    use_config()
    result = call_tool("pdf", {"pdf": str(report_pdf)})
    assert result.details["error"] == "model_error" and "No model is set up" in result.details["message"]
    assert "config.toml" in result.details["hint"]


def test_unknown_explicit_model(report_pdf):
    use_config()
    result = call_tool("pdf", {"pdf": str(report_pdf), "model": "acme/brain"})
    assert result.details["error"] == "validation_error" and "acme" in result.details["message"]


def test_a_missing_key_is_an_attempt_not_a_crash(openai_server, report_pdf, monkeypatch):
    set_keys(monkeypatch, "openai")
    use_config(pdf_model=CLAUDE, pdf_model_fallbacks=(GPT,), providers=provider_urls(openai=openai_server.url))
    openai_server.script(Turn(text="ok"))
    result = call_tool("pdf", {"pdf": str(report_pdf)})
    assert result.details["model"] == GPT
    first = result.details["attempts"][0]
    assert first["error"] == "no_key" and "ANTHROPIC_API_KEY" in first["message"]


def test_an_encrypted_pdf_is_sent_decrypted(anthropic_server, aes_pdf, monkeypatch):
    set_keys(monkeypatch, "anthropic")
    use_config(pdf_model=CLAUDE, providers=provider_urls(anthropic=anthropic_server.url))
    anthropic_server.script(Turn(text="marmalade"))
    assert call_tool("pdf", {"pdf": str(aes_pdf)}).details["error"] == "password_required"
    result = call_tool("pdf", {"pdf": str(aes_pdf), "password": "user-secret"})
    assert not result.is_error
    document = anthropic_server.bodies[0]["messages"][0]["content"][0]
    pages, text = pdf_text(document["source"]["data"])  # opens without a password
    assert pages == 1 and "the secret word is marmalade" in text
