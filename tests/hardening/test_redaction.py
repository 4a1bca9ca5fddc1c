"""API keys and tokens never reach logs, crash reports, config files or tool results."""

from __future__ import annotations

import io
import json
import logging

import pymupdf
import pytest

from pdfdesk.core.config import ConfigError, Config, load_config, set_config
from pdfdesk.core.redact import MASK, looks_like_secret, redact, register_secret
from pdfdesk.tools import call_tool

OPENAI = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0" * 2
ANTHROPIC = "sk-ant-api03-" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt" * 2
GOOGLE = "AIza" + "Sy0123456789abcdefghijklmnopqrstu"
GITHUB = "ghp_" + "q" * 36


@pytest.fixture
def keys_in_env(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI)
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC)
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-local-3141592653")


@pytest.mark.parametrize("text", [
    f"Incorrect API key provided: {OPENAI}.", f"x-api-key: {ANTHROPIC}", f"GET /v1beta/models?key={GOOGLE}&alt=sse",
    f"Authorization: Bearer {OPENAI}", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.signature",
    f"token={GITHUB}", 'api_key = "hunter2-is-my-key"', "password: correct-horse-battery",
    "https://host/file.pdf?X-Amz-Signature=deadbeefcafe0123&token=secret-token-value",
])
def test_shapes_and_labels_are_redacted(text):
    cleaned = redact(text)
    assert MASK in cleaned
    for secret in (OPENAI, ANTHROPIC, GOOGLE, GITHUB, "eyJhbGciOiJIUzI1NiJ9.payload.signature", "hunter2-is-my-key",
                   "correct-horse-battery", "deadbeefcafe0123", "secret-token-value"):
        assert secret not in cleaned


def test_ordinary_words_are_left_alone():
    text = "The skeleton task-based sketch asks for a key decision; the token economy; password policy review."
    assert redact(text) == text


def test_registered_and_environment_secrets_are_scrubbed_exactly(keys_in_env):
    register_secret("typed-into-a-dialog-0042")
    cleaned = redact(f"a {OPENAI} b tok-local-3141592653 c typed-into-a-dialog-0042")
    assert cleaned == f"a {MASK} b {MASK} c {MASK}"


def test_log_records_are_redacted_for_every_handler(keys_in_env):
    import pdfdesk.tools.registry  # noqa: F401  (installs the redaction)

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger = logging.getLogger("pdfdesk.test.secrets")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("provider said %s for key %s", "401", OPENAI)
        try:
            raise RuntimeError(f"request failed with header Authorization: Bearer {ANTHROPIC}")
        except RuntimeError:
            logger.exception("call failed")
        logger.error("fetching https://x.example/a.pdf?key=%s", GOOGLE)
    finally:
        logger.removeHandler(handler)
    written = stream.getvalue()
    assert "provider said 401" in written and "Traceback" in written and "RuntimeError" in written
    for secret in (OPENAI, ANTHROPIC, GOOGLE):
        assert secret not in written


def test_crash_report_is_redacted(keys_in_env, monkeypatch, pdfdesk_home, capsys):
    import pdfdesk.cli as cli

    def crash(*_args):
        raise ConnectionError(f"proxy refused Authorization: Bearer {OPENAI} for ?key={GOOGLE}")

    monkeypatch.setattr(cli, "main", crash)
    assert cli.entry_point() == cli.EXIT_CRASH
    report = (pdfdesk_home / "crash.log").read_text(encoding="utf-8")
    stderr = capsys.readouterr().err
    assert "ConnectionError" in report and "internal error" in stderr
    for text in (report, stderr):
        assert OPENAI not in text and GOOGLE not in text


def test_tool_results_never_carry_a_known_key(keys_in_env, tmp_path):
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), f"Someone pasted the key {OPENAI} into this memo.")
    path = tmp_path / "memo.pdf"
    doc.save(path)
    result = call_tool("pdf_extract_text", {"path": str(path)})
    assert not result.is_error and OPENAI not in result.text and MASK in result.text
    assert OPENAI not in str(result.details)


def test_error_results_lose_token_shaped_text(tmp_path):
    set_config(Config(allow_private_addresses=True, fetch_timeout_s=2))
    result = call_tool("pdf_info", {"path": "http://127.0.0.1:9/report.pdf?token=abcdef0123456789secret"})
    assert result.details["error"] == "fetch_failed"
    assert "abcdef0123456789secret" not in result.text and "abcdef0123456789secret" not in str(result.details)


@pytest.mark.parametrize(("section", "entry"), [
    ("openai", f'api_key = "{OPENAI}"'), ("custom", f'note = "{ANTHROPIC}"'),
    ("tokens", 'github_token = "abcdefgh12345678"'), ("secrets", 'password = "correct-horse-battery"'),
])
def test_config_files_holding_keys_are_refused(tmp_path, section, entry):
    path = tmp_path / "config.toml"
    path.write_text(f"[{section}]\n{entry}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert "keyring" in str(err.value) and "config.toml" in str(err.value)
    assert OPENAI not in str(err.value) and ANTHROPIC not in str(err.value)


def test_ordinary_settings_are_not_mistaken_for_keys(tmp_path):
    assert not looks_like_secret("embeddingModel", "sentence-transformers/all-MiniLM-L6-v2")
    assert not looks_like_secret("apiKeyEnv", "OPENAI_API_KEY")
    path = tmp_path / "config.toml"
    path.write_text('[limits]\nmaxFileMb = 100\n[files]\nroots = ["~/cases"]\n', encoding="utf-8")
    assert load_config(path).max_file_mb == 100


def test_a_short_secret_does_not_corrupt_ordinary_results(monkeypatch, tmp_path, text_pdf):
    """A 12-character 'key' also occurs inside paths and words; only key-length values are scrubbed."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-self-test")
    path = tmp_path / "pdfdesk-self-test.pdf"  # contains the value
    path.write_bytes(text_pdf.read_bytes())
    result = call_tool("pdf_info", {"path": str(path)})
    assert not result.is_error and result.details["file"] == str(path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-a-real-looking-key-0123456789")
    leaked = tmp_path / "sk-a-real-looking-key-0123456789.pdf"
    leaked.write_bytes(text_pdf.read_bytes())
    result = call_tool("pdf_info", {"path": str(leaked)})
    assert "sk-a-real-looking-key-0123456789" not in json.dumps(result.to_dict())
