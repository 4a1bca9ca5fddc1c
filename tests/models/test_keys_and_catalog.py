"""API keys (environment, in-memory keyring, redaction) and the model settings in config.toml."""

from __future__ import annotations

import pytest

from pdfdesk.core.config import Config, ConfigError, ProviderSettings, load_config, parse_config
from pdfdesk.models.catalog import ModelNameError, ModelRef, agent_model, base_url, parse_model, takes_images, takes_pdf
from pdfdesk.models.keys import KeyStoreError, get_api_key, key_source, redact, set_api_key
from pdfdesk.models.providers.base import retry_after_seconds
from pdfdesk.models.providers.google import gemini_schema
from pdfdesk.tools import get_tool


def test_keyring_round_trip_and_environment_first(isolated_keys, monkeypatch):
    assert get_api_key("openai") is None and key_source("openai") is None
    set_api_key("openai", "  sk-from-keyring-123456  ")
    assert isolated_keys.store[("pdfdesk", "openai")] == "sk-from-keyring-123456"
    assert get_api_key("openai") == "sk-from-keyring-123456" and key_source("openai") == "keyring"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env-123456")
    assert get_api_key("openai") == "sk-from-env-123456" and key_source("openai") == "env:OPENAI_API_KEY"
    set_api_key("openai", "")
    assert ("pdfdesk", "openai") not in isolated_keys.store
    set_api_key("openai", None)  # deleting twice is fine


def test_gemini_is_google_and_both_env_names_work(monkeypatch):
    monkeypatch.setenv("GOOGLE_API_KEY", "AIza-google")
    assert get_api_key("gemini") == get_api_key("google") == "AIza-google"
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-gemini")
    assert get_api_key("google") == "AIza-gemini"


def test_local_servers_read_a_pdfdesk_variable(monkeypatch):
    monkeypatch.setenv("PDFDESK_MY_VLLM_API_KEY", "token")
    assert get_api_key("my-vllm") == "token"


def test_a_broken_keyring_reads_as_no_key_and_refuses_to_store(monkeypatch):
    import keyring

    def broken(*args):
        raise RuntimeError("no backend")

    monkeypatch.setattr(keyring, "get_password", broken)
    monkeypatch.setattr(keyring, "set_password", broken)
    assert get_api_key("anthropic") is None
    with pytest.raises(KeyStoreError, match="ANTHROPIC_API_KEY"):
        set_api_key("anthropic", "sk-ant-secret-123")


def test_redact():
    text = "failed with key sk-proj-abcdefghijklmnop and AIzaSyA1234567890123456789012 and mysecret"
    cleaned = redact(text, "mysecret")
    assert "abcdefghijklmnop" not in cleaned and "AIzaSy" not in cleaned and "mysecret" not in cleaned
    assert cleaned.count("***") == 3


def test_retry_after_forms():
    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0
    assert retry_after_seconds({}) is None


def test_gemini_schema_is_reduced_to_what_gemini_accepts():
    schema = get_tool("pdf_render_page").schema
    reduced = gemini_schema(schema)
    assert "additionalProperties" not in reduced and reduced["properties"]["page"]["type"] == "integer"
    assert reduced["required"] == ["path", "page"] and "default" not in reduced["properties"]["dpi"]


def test_model_names():
    config = Config(providers={"lab": ProviderSettings(base_url="http://10.0.0.5:8000/v1")})
    assert parse_model("vllm/Qwen/Qwen2.5-7B", config) == ModelRef("vllm", "Qwen/Qwen2.5-7B")
    assert parse_model("gemini/gemini-2.5-pro", config).label == "google/gemini-2.5-pro"
    assert parse_model("lab/x", config).provider == "lab"
    for bad in ("gpt-4o", "/x", "openai/", "acme/model"):
        with pytest.raises(ModelNameError):
            parse_model(bad, config)
    assert base_url("ollama", config) == "http://localhost:11434/v1" and base_url("lab", config) == "http://10.0.0.5:8000/v1"
    assert base_url("openai", config) is None
    assert takes_images(ModelRef("openai", "m"), config) and not takes_images(ModelRef("ollama", "m"), config)
    assert takes_pdf(ModelRef("anthropic", "m")) and takes_pdf(ModelRef("google", "m"))
    assert not takes_pdf(ModelRef("openai", "m"))


def test_agent_model_from_config_or_keys(monkeypatch):
    assert agent_model(Config()) is None
    assert agent_model(Config(agent_model="ollama/llama3.2")) == ModelRef("ollama", "llama3.2")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    assert agent_model(Config()) == ModelRef("openai", "gpt-4.1-mini")


def test_config_file_with_every_model_setting(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        '[models]\nagent = "anthropic/claude-sonnet-4-6"\nimageModel = "openai/gpt-4.1-mini"\n\n'
        '[models.pdfModel]\nprimary = "google/gemini-2.5-flash"\n'
        'fallbacks = ["anthropic/claude-haiku-4-5", "lab/llava"]\n\n'
        '[agent]\nmaxTurns = 4\nmaxToolCalls = 6\ntimeoutSeconds = 30\nmaxRetries = 1\n\n'
        '[providers.lab]\nbaseUrl = "http://192.168.1.20:8080/v1/"\nimages = true\n\n'
        '[providers.openai]\nbaseUrl = "https://proxy.example.org/v1"\n'
    )
    config = load_config(path)
    assert config.agent_model == "anthropic/claude-sonnet-4-6" and config.image_model == "openai/gpt-4.1-mini"
    assert config.pdf_model == "google/gemini-2.5-flash"
    assert config.pdf_model_fallbacks == ("anthropic/claude-haiku-4-5", "lab/llava")
    assert (config.agent_max_turns, config.agent_max_tool_calls, config.model_timeout_s,
            config.model_max_retries) == (4, 6, 30, 1)
    assert config.providers["lab"] == ProviderSettings("http://192.168.1.20:8080/v1", True)
    assert config.providers["openai"].base_url == "https://proxy.example.org/v1" and config.extra == {}
    assert parse_config({"models": {"pdfModel": "openai/gpt-4.1"}}).pdf_model == "openai/gpt-4.1"


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"models": {"agent": "gpt-4o"}}, 'models.agent must be a model name like "openai/gpt-4o-mini"'),
        ({"models": {"agent": "acme/x"}}, "unknown provider 'acme'"),
        ({"models": {"agent": 4}}, "models.agent must be str"),
        ({"models": {"pdfModel": {"primary": "openai/x", "fallback": []}}}, "unknown setting models.pdfModel.fallback"),
        ({"models": {"pdfModel": {"fallbacks": "openai/x"}}}, "models.pdfModel.fallbacks must be a list"),
        ({"models": {"pdfModel": {"fallbacks": ["nope"]}}}, "models.pdfModel.fallbacks must be a model name"),
        ({"models": {"chat": "openai/x"}}, "unknown setting models.chat"),
        ({"agent": {"maxTurns": 0}}, "agent.maxTurns must be a whole number from 1 to 50"),
        ({"agent": {"timeoutSeconds": -1}}, "greater than 0"),
        ({"providers": {"lab": {"images": True}}}, "[providers.lab] needs baseUrl"),
        ({"providers": {"openai": {"baseUrl": "localhost:8000"}}},
         "providers.openai.baseUrl must be an http(s):// URL"),
        ({"providers": {"ollama": {"baseURL": "http://x:1/v1"}}}, "unknown setting providers.ollama.baseURL"),
        ({"providers": {"ollama": "http://x"}}, "[providers.ollama] must be a table"),
        ({"providers": {"Big Lab": {"baseUrl": "http://x:1/v1"}}}, "must be lower-case"),
    ],
)
def test_bad_model_settings_name_the_key(data, needle):
    with pytest.raises(ConfigError) as caught:
        parse_config(data)
    assert needle in str(caught.value)


def test_provider_facts_live_on_the_provider_classes(monkeypatch):
    from pdfdesk.core.config import BUILTIN_PROVIDERS
    from pdfdesk.models.catalog import key_variables
    from pdfdesk.models.keys import env_vars
    from pdfdesk.models.providers import PROVIDERS, cloud_providers, provider_class
    from pdfdesk.models.providers.compatible import CompatibleProvider

    # the config schema (in core, below the models) accepts exactly the providers that have a class
    assert set(PROVIDERS) | {"gemini"} == set(BUILTIN_PROVIDERS)
    assert cloud_providers() == ("openai", "anthropic", "google")
    assert provider_class("my-lab") is CompatibleProvider and provider_class("ollama").__mro__[1] is CompatibleProvider
    assert env_vars("gemini") == ("GEMINI_API_KEY", "GOOGLE_API_KEY", "PDFDESK_GOOGLE_API_KEY")
    assert env_vars("my-lab") == ("PDFDESK_MY_LAB_API_KEY",)
    assert key_variables() == "ANTHROPIC_API_KEY, GEMINI_API_KEY or OPENAI_API_KEY"
    assert base_url("google", Config()) == "https://generativelanguage.googleapis.com"
    assert base_url("vllm", Config()) == "http://localhost:8000/v1" and base_url("anthropic", Config()) is None
    # a changed fact is seen everywhere it is used
    monkeypatch.setattr(PROVIDERS["openai"], "reads_pdf", True)
    monkeypatch.setattr(PROVIDERS["openai"], "key_env_vars", ("OPENAI_KEY_B",))
    monkeypatch.setenv("OPENAI_KEY_B", "sk-b-123456789")
    assert takes_pdf(ModelRef("openai", "m")) and get_api_key("openai") == "sk-b-123456789"


def test_the_tools_load_no_provider_sdk():
    """The SDKs take seconds to import; they load when a client is made, not with the tools."""
    import subprocess
    import sys

    code = ("import sys; from pdfdesk.tools import all_tools; from pdfdesk.models.catalog import model_configured; "
            "all_tools(); print(sorted(m for m in ('anthropic', 'openai') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]"
