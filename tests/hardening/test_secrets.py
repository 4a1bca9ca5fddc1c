"""API keys on the agent side: never in log records (every logger at DEBUG), AgentError messages,
the `pdf` tool's `attempts`, `pdfdesk ask` output, config.toml or crash.log, even when a provider
echoes the request's auth headers back in its error body or inside a stream.

Keys come from the environment and from an in-memory keyring backend. Most are deliberately not
shaped like real keys (no `sk-` prefix), so shape-based scrubbing cannot hide a leak of the exact
key. (Core-side redaction, the log record factory and config refusal: test_redaction.py.)
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pdfdesk.models import keys
from pdfdesk.agent.events import AgentError, AgentEvent, Done, ToolCallFinished
from pdfdesk.agent.session import ChatSession
from pdfdesk.core.config import ProviderSettings
from pdfdesk.tools import ToolResult, call_tool
from tests.agent.fake_servers import FakeAnthropic, FakeGemini, FakeOpenAI, FakeServer, Turn
from tests.agent.support import MemoryKeyring, isolated_keys, provider_urls, report_pdf, use_config  # noqa: F401

pytestmark = pytest.mark.network
ROOT = Path(__file__).resolve().parents[2]

OPENAI_KEY = "Zq9live7f3c1a8e5d2b4c6a0"            # environment
ANTHROPIC_KEY = "kr-anth-5e8c2a7f1d9b3e6c4a0"      # keyring
GOOGLE_KEY = "gg-env-0c4e8a2f6b1d9e3c7a5"          # environment
LAB_KEY = "lab-token-8d2f6a1c9e3b7d5f"             # PDFDESK_LAB_API_KEY, a local server that wants one
SHAPED_KEY = "sk-proj-Tq7Lm2Vx9Rb4Nc8Wd1ZpYy"       # looks like a real OpenAI key
ALL_KEYS = (OPENAI_KEY, ANTHROPIC_KEY, GOOGLE_KEY, LAB_KEY, SHAPED_KEY)
ECHO = "Invalid credentials. Request headers were: {HEADERS}"
AUTH_HEADERS = ("authorization", "x-api-key", "x-goog-api-key")


class EchoMixin:
    """A fake provider whose error bodies repeat the request's auth headers (as some proxies and
    misconfigured gateways do), and which can fail inside a stream (`Turn(text="!sse-error ...")`)."""

    echoed = ""

    def respond(self, handler: Any, path: str, body: Any) -> None:
        self.echoed = "; ".join(f"{k}: {v}" for k, v in handler.headers.items() if k.lower() in AUTH_HEADERS)
        super().respond(handler, path, body)  # type: ignore[misc]

    def error_body(self, turn: Turn) -> Any:
        return super().error_body(dataclasses.replace(turn, error=turn.error.replace("{HEADERS}", self.echoed)))  # type: ignore[misc]

    def stream_events(self, turn: Turn, model: str) -> list[tuple[str | None, Any]]:
        if turn.text.startswith("!sse-error "):
            message = turn.text.removeprefix("!sse-error ").replace("{HEADERS}", self.echoed)
            return [("error", {"type": "error", "error": {"type": "api_error", "message": message}})]
        return super().stream_events(turn, model)  # type: ignore[misc]


class EchoOpenAI(EchoMixin, FakeOpenAI):
    pass


class EchoAnthropic(EchoMixin, FakeAnthropic):
    pass


class EchoGemini(EchoMixin, FakeGemini):
    pass


@pytest.fixture
def all_logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """Every record of every logger at DEBUG (SDKs and HTTP clients included)."""
    caplog.set_level(logging.DEBUG)
    for name in ("openai", "anthropic", "httpx", "httpx2", "httpcore", "httpcore2", "pdfdesk", "keyring", "asyncio"):
        caplog.set_level(logging.DEBUG, logger=name)
    return caplog


def leaks(text: str) -> list[str]:
    return [key for key in ALL_KEYS if key in text]


def log_leaks(caplog: pytest.LogCaptureFixture) -> list[str]:
    texts = [caplog.text]
    for record in caplog.records:
        texts += [record.getMessage(), record.exc_text or "", repr(record.args)]
    return leaks("\n".join(texts))


def converse(session: ChatSession, question: str) -> list[AgentEvent]:
    async def collect() -> list[AgentEvent]:
        return [event async for event in session.send(question)]

    return asyncio.run(collect())


@pytest.fixture
def keys_everywhere(monkeypatch: pytest.MonkeyPatch, isolated_keys: MemoryKeyring) -> MemoryKeyring:
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("GEMINI_API_KEY", GOOGLE_KEY)
    monkeypatch.setenv("PDFDESK_LAB_API_KEY", LAB_KEY)
    isolated_keys.set_password(keys.SERVICE, "anthropic", ANTHROPIC_KEY)
    return isolated_keys


SERVER_CLASSES: dict[str, type[FakeServer]] = {"openai": EchoOpenAI, "anthropic": EchoAnthropic, "google": EchoGemini,
                                               "lab": EchoOpenAI}
MODELS = {"openai": "openai/gpt-4.1-mini", "anthropic": "anthropic/claude-sonnet-4-6",
          "google": "google/gemini-2.5-flash", "lab": "lab/qwen2.5"}
KEY_OF = {"openai": OPENAI_KEY, "anthropic": ANTHROPIC_KEY, "google": GOOGLE_KEY, "lab": LAB_KEY}


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google", "lab"])
def test_failing_conversations_never_show_the_key(provider, keys_everywhere, all_logs, report_pdf):
    """401, 500 (retried), a timeout and an error inside the stream, each echoing the request's
    auth headers; then a working turn with a tool call. No key in any event, history or log record."""
    with SERVER_CLASSES[provider]() as server:
        server.script(
            Turn.fail(401, ECHO + f" Incorrect API key provided: {KEY_OF[provider]}"),
            Turn.fail(500, ECHO), Turn.fail(500, ECHO),
            Turn(text="too late", delay=1.5),
            Turn(text="!sse-error Upstream failed for {HEADERS}"),
            Turn(tool_calls=[("pdf_info", {"path": str(report_pdf)})]),
            Turn(text="Six pages [p. 1]."),
        )
        config = use_config(providers={provider: ProviderSettings(base_url=server.url)}, model_timeout_s=0.6,
                            model_max_retries=1)
        session = ChatSession([str(report_pdf)], model=MODELS[provider], config=config)
        events = [event for question in ("a", "b", "c", "d", "e") for event in converse(session, question)]
        requests = list(server.requests)

    # The key was really sent and really echoed back: the checks below are not vacuous.
    assert any(KEY_OF[provider] in json.dumps(r.headers) for r in requests)
    errors = [e for e in events if isinstance(e, AgentError)]
    assert [e.code for e in errors] == ["model_error"] * 4, errors
    assert "401" in errors[0].message and "500" in errors[1].message
    assert "did not answer within" in errors[2].message
    assert all("***" in e.message for e in (errors[0], errors[1], errors[3])), errors
    assert leaks(" ".join(e.message + e.hint for e in errors)) == []
    assert any(isinstance(e, ToolCallFinished) and not e.is_error for e in events)
    assert sum(isinstance(e, Done) for e in events) == 5
    assert leaks(repr(events)) == [] and leaks(repr(session.history)) == []
    assert any(r.name.startswith(("openai", "anthropic", "httpx", "httpcore")) for r in all_logs.records), \
        "the HTTP clients' debug records were not captured"
    assert log_leaks(all_logs) == []


def test_the_pdf_tool_attempts_never_show_a_key(keys_everywhere, all_logs, report_pdf):
    """Every model fails, echoing the auth headers: `details.attempts` lists them, scrubbed."""
    with EchoOpenAI() as openai_server, EchoAnthropic() as anthropic_server, EchoOpenAI() as lab_server, \
            EchoGemini() as gemini_server:
        for server in (openai_server, anthropic_server, lab_server, gemini_server):
            server.script(*[Turn.fail(403, ECHO) for _ in range(8)])
        use_config(pdf_model="openai/gpt-4.1-mini", pdf_model_fallbacks=("anthropic/claude-sonnet-4-6", "lab/qwen2.5"),
                   model_max_retries=0,
                   providers={**provider_urls(openai=openai_server.url, anthropic=anthropic_server.url,
                                              google=gemini_server.url),
                              "lab": ProviderSettings(base_url=lab_server.url)})
        result = call_tool("pdf", {"pdf": str(report_pdf), "prompt": "Summarize."})
        sent = [r.headers for s in (openai_server, anthropic_server, lab_server) for r in s.requests]

    assert result.is_error and result.details["error"] == "model_error"
    attempts = result.details["attempts"]
    assert {a["model"] for a in attempts} >= {"openai/gpt-4.1-mini", "anthropic/claude-sonnet-4-6", "lab/qwen2.5"}
    assert all(a["status"] == 403 and "***" in a["message"] for a in attempts), json.dumps(attempts, indent=1)
    assert all(KEY_OF[p] in json.dumps(sent) for p in ("openai", "anthropic", "lab"))  # the keys were in use
    assert leaks(json.dumps(result.to_dict())) == [] and leaks(result.text) == []
    assert log_leaks(all_logs) == []


def test_an_unexpected_failure_is_reported_without_keys(keys_everywhere, all_logs, report_pdf):
    """A bug (here: a tool runner whose exception quotes the environment) reaches the user as an
    internal_error and the log as a traceback, both scrubbed of every key pdfdesk knows."""
    assert keys.get_api_key("anthropic") == ANTHROPIC_KEY  # now held by this process

    def broken_runner(name: str, args: dict[str, Any]) -> ToolResult:
        raise RuntimeError(f"worker died; env OPENAI_API_KEY={OPENAI_KEY} LAB={LAB_KEY} cached={ANTHROPIC_KEY} "
                           f"shaped={SHAPED_KEY}")

    with EchoOpenAI(Turn(tool_calls=[("pdf_info", {"path": str(report_pdf)})])) as server:
        config = use_config(providers=provider_urls(openai=server.url))
        session = ChatSession([str(report_pdf)], model=MODELS["openai"], config=config, tool_runner=broken_runner)
        events = converse(session, "q")
    error = next(e for e in events if isinstance(e, AgentError))
    assert error.code == "internal_error" and "worker died" in error.message and "***" in error.message
    assert leaks(error.message) == [] and isinstance(events[-1], Done)
    assert any("worker died" in r.getMessage() + (r.exc_text or "") for r in all_logs.records)
    assert log_leaks(all_logs) == []


def test_scrub_knows_the_keys_in_use(keys_everywhere, monkeypatch):
    monkeypatch.setattr(keys, "_IN_USE", set())  # as in a fresh process
    monkeypatch.setenv("SOMETHING_ELSE_API_KEY", "other-vendor-key-123456")
    text = f"a {OPENAI_KEY} b {LAB_KEY} c {GOOGLE_KEY} d other-vendor-key-123456 e {SHAPED_KEY}"
    assert keys.scrub(text) == "a *** b *** c *** d *** e ***"
    # scrub never opens the keyring (it runs in crash handlers; a locked keyring may block): a stored
    # key is known once this process has read it, which it must do before it could quote it.
    assert keys.scrub(f"x {ANTHROPIC_KEY}") == f"x {ANTHROPIC_KEY}"
    keys.get_api_key("anthropic")
    assert keys.scrub(f"x {ANTHROPIC_KEY}") == "x ***"
    keys.set_api_key("google", "typed-in-settings-77aa99bb")
    assert keys.scrub("typed-in-settings-77aa99bb") == "***"
    assert keys.scrub("no secrets here; sk- alone; 1234") == "no secrets here; sk- alone; 1234"


# -- files pdfdesk writes -------------------------------------------------------------------------------
def test_config_toml_written_by_settings_holds_no_key(keys_everywhere):
    """The settings code writes config.toml and the keyring; the file never receives a key."""
    from pdfdesk.core.config import config_path
    from pdfdesk.gui import config_file

    keys.set_api_key("openai", SHAPED_KEY)
    keys.set_api_key("lab", LAB_KEY)
    raw = config_file.merge(config_file.read_raw(), {
        "models": {"agent": "openai/gpt-4.1-mini",
                   "pdfModel": {"primary": "lab/qwen2.5", "fallbacks": ["openai/gpt-4.1"]}},
        "providers": {"openai": {"baseUrl": "http://127.0.0.1:9/v1"}, "lab": {"baseUrl": "http://127.0.0.1:8080/v1"}},
    })
    config_file.save(raw)
    written = config_path().read_text(encoding="utf-8")
    assert "lab/qwen2.5" in written and leaks(written) == []
    assert keys_everywhere.store[(keys.SERVICE, "openai")] == SHAPED_KEY
    for path in config_path().parent.rglob("*"):
        if path.is_file():
            assert leaks(path.read_text(encoding="utf-8", errors="replace")) == [], path


def test_crash_log_and_message_are_scrubbed(keys_everywhere, monkeypatch, capsys, pdfdesk_home):
    """`pdfdesk` crashing with keys in the exception (a bug, an SDK echoing headers) writes
    crash.log and the one-line message without them, whatever their shape."""
    from pdfdesk import cli

    keys.get_api_key("anthropic")

    def crash(argv: list[str] | None = None) -> int:
        raise RuntimeError(f"Authorization: Bearer {OPENAI_KEY}; x-api-key: {ANTHROPIC_KEY}; {SHAPED_KEY}; {LAB_KEY}")

    monkeypatch.setattr(cli, "main", crash)
    assert cli.entry_point() == cli.EXIT_CRASH
    err = capsys.readouterr().err
    crash_log = (pdfdesk_home / "crash.log").read_text(encoding="utf-8")
    assert "RuntimeError" in err and "Traceback" in crash_log and "Authorization: Bearer" in crash_log
    assert leaks(err) == [] and leaks(crash_log) == []


# -- the command line -----------------------------------------------------------------------------------
def run_ask(home: Path, env_keys: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update({"PDFDESK_HOME": str(home), "PYTHONPATH": str(ROOT),
                "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring", **env_keys})
    return subprocess.run([sys.executable, "-m", "pdfdesk", "ask", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=90)


def test_pdfdesk_ask_output_holds_no_key(report_pdf, tmp_path):
    """A real `pdfdesk ask` process: a tool call, then the server fails echoing the auth headers."""
    with EchoOpenAI() as cloud, EchoOpenAI() as lab:
        cloud.script(Turn(tool_calls=[("pdf_search", {"path": "report.pdf", "query": "payment"})]),
                     Turn.fail(401, ECHO + f" Incorrect API key provided: {OPENAI_KEY}"))
        lab.script(Turn.fail(500, ECHO))
        (tmp_path / "config").mkdir()
        (tmp_path / "config" / "config.toml").write_text(
            f'[agent]\ntimeoutSeconds = 5\nmaxRetries = 0\n\n[providers.openai]\nbaseUrl = "{cloud.url}"\n\n'
            f'[providers.lab]\nbaseUrl = "{lab.url}"\n', encoding="utf-8")
        first = run_ask(tmp_path, {"OPENAI_API_KEY": OPENAI_KEY}, "What are the payment terms?", "--pdf",
                        str(report_pdf), "--model", "openai/gpt-4.1-mini")
        second = run_ask(tmp_path, {"PDFDESK_LAB_API_KEY": LAB_KEY}, "q", "--pdf", str(report_pdf),
                         "--model", "lab/qwen2.5")
        assert OPENAI_KEY in json.dumps(cloud.requests[-1].headers) and LAB_KEY in json.dumps(lab.requests[-1].headers)
    assert first.returncode == 1 and "→ pdf_search(" in first.stderr and "HTTP 401" in first.stderr, first.stderr
    assert second.returncode == 1 and "HTTP 500" in second.stderr, second.stderr
    for done in (first, second):
        assert "***" in done.stderr
        assert leaks(done.stdout + done.stderr) == [], done.stderr
    assert not (tmp_path / "crash.log").exists()
