"""Agent test support: no real keys or keyring, fake provider servers, a generated report PDF.

Fixtures are imported by tests/agent/conftest.py and tests/tools/test_pdf_tool.py."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import keyring
import keyring.backend
import pymupdf
import pytest

from pdfdesk.core.config import Config, ProviderSettings, set_config
from pdfdesk.models.providers.base import Provider
from tests.agent.fake_servers import FakeAnthropic, FakeGemini, FakeOpenAI

KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")
TEST_KEYS = {"openai": "sk-test-openai-0123456789", "anthropic": "sk-ant-test-0123456789",
             "google": "AIzaTest0123456789abcdefghij"}

# One topic per page, so a question has exactly one right page.
REPORT_PAGES = [
    ("Executive summary",
     "This annual report reviews the harbour authority's operations, finances and the dredging programme."),
    ("Dredging programme",
     "The dredging programme removed 1.2 million cubic metres of silt from the north channel in spring."),
    ("Payment terms",
     "Invoices from contractors are payable within forty-five days; late payment accrues interest at four percent."),
    ("Environmental monitoring",
     "Seagrass meadows near the estuary were surveyed monthly; turbidity stayed below the permitted threshold."),
    ("Termination clause",
     "Either party may terminate the maintenance agreement with ninety days written notice to the other party."),
    ("Outlook", "Next year the authority plans to electrify the container cranes and expand the ferry terminal."),
]


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring that lives in a dict: tests never touch the OS key store."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.store:
            import keyring.errors

            raise keyring.errors.PasswordDeleteError("not found")
        del self.store[(service, username)]


@pytest.fixture(autouse=True)
def isolated_keys(monkeypatch: pytest.MonkeyPatch) -> MemoryKeyring:
    """No API key from the developer's environment or keyring leaks into a test, no host but
    127.0.0.1 is reached, and retries are quick."""
    for name in KEY_VARS:
        monkeypatch.delenv(name, raising=False)
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    real_getaddrinfo = socket.getaddrinfo

    def local_only(host: object, *args: object, **kwargs: object) -> object:
        if host not in (None, "127.0.0.1", "localhost", "::1"):
            raise OSError(f"a test tried to reach {host!r}: only 127.0.0.1 is allowed")
        return real_getaddrinfo(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", local_only)
    monkeypatch.setattr(Provider, "retry_base_s", 0.01)
    monkeypatch.setattr(Provider, "retry_cap_s", 0.05)
    return memory


def set_keys(monkeypatch: pytest.MonkeyPatch, *providers: str) -> None:
    env = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "google": "GEMINI_API_KEY"}
    for provider in providers:
        monkeypatch.setenv(env[provider], TEST_KEYS[provider])


def use_config(**changes: object) -> Config:
    config = Config(semantic=False, model_timeout_s=5.0, model_max_retries=1).replace(**changes)
    set_config(config)
    return config


def provider_urls(**urls: str) -> dict[str, ProviderSettings]:
    return {name: ProviderSettings(base_url=url) for name, url in urls.items()}


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def anthropic_server() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


@pytest.fixture
def gemini_server() -> Iterator[FakeGemini]:
    with FakeGemini() as server:
        yield server


def make_report(path: Path, scanned_pages: tuple[int, ...] = ()) -> Path:
    """A 6-page report, one topic per page; `scanned_pages` hold only a picture of text."""
    doc = pymupdf.open()
    for number, (title, body) in enumerate(REPORT_PAGES, 1):
        page = doc.new_page()
        if number in scanned_pages:
            pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 600, 800), False)
            pix.clear_with(230)
            page.insert_image(page.rect, pixmap=pix)
            continue
        page.insert_text((72, 72), title, fontsize=18)
        page.insert_textbox(pymupdf.Rect(72, 100, 520, 400), (body + " ") * 3, fontsize=11)
        page.insert_text((72, 800), f"Harbour Authority annual report · page {number}", fontsize=8)
    doc.set_toc([[1, title, n] for n, (title, _) in enumerate(REPORT_PAGES, 1)])
    doc.set_metadata({"title": "Harbour Authority Annual Report"})
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="session")
def report_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_report(tmp_path_factory.mktemp("agent") / "report.pdf")


@pytest.fixture(scope="session")
def scanned_report_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_report(tmp_path_factory.mktemp("agent-scan") / "scanned.pdf", scanned_pages=(2, 3, 4, 5, 6))
