"""The `pdf` tool's text fallback keeps tables: a model without PDF input gets each table as
Markdown where it stands (the extraction pdf_extract_text makes with tables on), checked in what
the fake OpenAI-compatible server on 127.0.0.1 received."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdfdesk.core.config import ProviderSettings
from pdfdesk.tools import call_tool
from tests.agent.fake_servers import Turn
from tests.agent.support import (  # noqa: F401 - fixtures are found by name
    anthropic_server, isolated_keys, openai_server, provider_urls, set_keys, use_config,
)
from tests.agent.table_pdfs import fee_schedule_pdf

pytestmark = pytest.mark.network


@pytest.fixture(scope="module")
def fees(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fee_schedule_pdf(tmp_path_factory.mktemp("pdf-tables") / "fees.pdf")


def sent_text(server) -> str:
    content = server.bodies[0]["messages"][1]["content"]
    return content if isinstance(content, str) else "\n".join(p.get("text", "") for p in content)


def extracted(fees: Path, pages: str) -> str:
    """What pdf_extract_text gives for these pages with tables on: the fenced page text."""
    result = call_tool("pdf_extract_text", {"path": str(fees), "pages": pages, "tables": True})
    body = result.content[1]["text"]
    return body.split(">>>\n", 1)[1].rsplit("\n<<<END_PDF_CONTENT", 1)[0]


def test_a_text_model_gets_the_tables_as_markdown(openai_server, fees, monkeypatch):  # noqa: F811 - the imported fixture
    set_keys(monkeypatch, "openai")
    use_config(pdf_model="openai/gpt-4.1-mini", providers=provider_urls(openai=openai_server.url))
    openai_server.script(Turn(text="Xray 5 at Status 4 is 48.30 [p. 1]."))

    result = call_tool("pdf", {"pdf": str(fees), "pages": "1-2", "prompt": "What is the Status 4 amount for Xray 5?"})

    assert not result.is_error, result.text
    assert result.details["native"] is False and result.details["pages_sent"] == {"fees.pdf": "1-2"}
    sent = sent_text(openai_server)
    assert "| 3011 | Xray 5 | 12.10 | 48.30 | 101.70 |" in sent  # the row, its cells in order
    assert "| Code | Service | Rates Status 1 | Rates Status 4 | Rates Status 9 |" in sent
    assert "| 5010 | Xray 15 dental | 9.10 | 31.50 | 70.00 |" in sent  # page 2's table too
    # the same text pdf_extract_text gives with tables on, page by page, inside the fence
    for page in ("1", "2"):
        assert extracted(fees, page).strip() in sent
    assert sent.index("Medical fee schedule 2024") < sent.index("| Code | Service |")  # where it stands
    assert "<<<PDF_CONTENT" in sent and sent.rstrip().endswith("What is the Status 4 amount for Xray 5?")


def test_the_text_around_a_table_stays_where_it_stands(openai_server, fees, monkeypatch):  # noqa: F811 - the imported fixture
    set_keys(monkeypatch, "openai")
    use_config(pdf_model="openai/gpt-4.1-mini", providers=provider_urls(openai=openai_server.url))
    openai_server.script(Turn(text="ok"))
    result = call_tool("pdf", {"pdf": str(fees), "pages": "4"})  # a table's continuation, then a sentence
    assert not result.is_error, result.text
    sent = sent_text(openai_server)
    row = "| 7106 | Massage 7 | 126.65 | 252.60 | 408.65 |"
    assert sent.index("--- Page 4 ---") < sent.index(row) < sent.index("End of the physiotherapy table.")


def test_a_local_model_gets_them_too(openai_server, fees):  # noqa: F811 - the imported fixture
    use_config(pdf_model="local/qwen2.5", providers={"local": ProviderSettings(base_url=openai_server.url)})
    openai_server.script(Turn(text="ok"))
    result = call_tool("pdf", {"pdf": str(fees), "pages": "2"})
    assert not result.is_error, result.text
    assert "| Code | Service | Status 1 | Status 4 | Status 9 |" in sent_text(openai_server)


def test_a_native_model_still_gets_the_pdf_itself(anthropic_server, fees, monkeypatch):  # noqa: F811 - the imported fixture
    set_keys(monkeypatch, "anthropic")
    use_config(pdf_model="anthropic/claude-sonnet-4-6", providers=provider_urls(anthropic=anthropic_server.url))
    anthropic_server.script(Turn(text="ok"))
    result = call_tool("pdf", {"pdf": str(fees)})
    assert result.details["native"] is True
    blocks = anthropic_server.bodies[0]["messages"][0]["content"]
    assert blocks[0]["type"] == "document" and "| Code |" not in str(blocks)
