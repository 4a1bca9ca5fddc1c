"""Model names (`provider/model`), which provider speaks which protocol, and which model to use.

Resolution is shared by the chat, the `pdf` tool and the MCP server (which lists `pdf` only when
`model_configured` says some model can answer).
"""

from __future__ import annotations

from dataclasses import dataclass

from pdfdesk.agent.keys import canonical_provider, get_api_key
from pdfdesk.core.config import BUILTIN_PROVIDERS, Config, get_config

# Models used when only a key is known; small, current and cheap enough for a first answer.
DEFAULT_MODELS: dict[str, str] = {
    "anthropic": "claude-sonnet-4-6",
    "openai": "gpt-4.1-mini",
    "google": "gemini-2.5-flash",
}
CLOUD_PROVIDERS = ("openai", "anthropic", "google")
# OpenAI-compatible local servers and where they listen by default.
LOCAL_BASE_URLS: dict[str, str] = {
    "ollama": "http://localhost:11434/v1",
    "lmstudio": "http://localhost:1234/v1",
    "llamacpp": "http://localhost:8080/v1",
    "vllm": "http://localhost:8000/v1",
}
_AGENT_KEY_ORDER = ("anthropic", "openai", "google")
_PDF_KEY_ORDER = ("anthropic", "google", "openai")  # native PDF input first


class ModelNameError(ValueError):
    """A model name that is not `provider/model` or names an unknown provider."""


@dataclass(frozen=True)
class ModelRef:
    provider: str   # canonical: "google" for "gemini"
    model: str

    @property
    def label(self) -> str:
        return f"{self.provider}/{self.model}"

    def __str__(self) -> str:
        return self.label


def parse_model(name: str, config: Config | None = None) -> ModelRef:
    """`"openai/gpt-4o-mini"` -> ModelRef; only the first slash splits ("vllm/Qwen/Qwen2.5-7B")."""
    config = config or get_config()
    if not isinstance(name, str) or "/" not in name:
        raise ModelNameError(f"{name!r} is not a model name: use provider/model, e.g. \"openai/gpt-4o-mini\".")
    provider, model = (part.strip() for part in name.split("/", 1))
    provider = canonical_provider(provider)
    if not provider or not model:
        raise ModelNameError(f"{name!r} is not a model name: use provider/model, e.g. \"openai/gpt-4o-mini\".")
    if provider not in BUILTIN_PROVIDERS and provider not in config.providers:
        known = ", ".join(sorted({canonical_provider(p) for p in BUILTIN_PROVIDERS} | set(config.providers)))
        raise ModelNameError(f"Unknown provider {provider!r} in {name!r} (known: {known}); "
                             f"add [providers.{provider}] baseUrl = \"...\" for another OpenAI-compatible server.")
    return ModelRef(provider, model)


def protocol(provider: str) -> str:
    """Which wire protocol a provider speaks: openai, anthropic, google or compatible."""
    provider = canonical_provider(provider)
    return provider if provider in CLOUD_PROVIDERS else "compatible"


def base_url(provider: str, config: Config) -> str | None:
    """The configured base URL, the local server's usual address, or None (the SDK's default)."""
    provider = canonical_provider(provider)
    settings = config.providers.get(provider) or (config.providers.get("gemini") if provider == "google" else None)
    if settings and settings.base_url:
        return settings.base_url
    return LOCAL_BASE_URLS.get(provider)


def takes_images(ref: ModelRef, config: Config) -> bool:
    """Cloud models take images; a local server only when [providers.NAME] images = true."""
    settings = config.providers.get(ref.provider)
    if settings and settings.images is not None:
        return settings.images
    return ref.provider in CLOUD_PROVIDERS


def takes_pdf(ref: ModelRef) -> bool:
    """Native PDF input: Anthropic document blocks and Gemini inline data."""
    return ref.provider in ("anthropic", "google")


def has_credentials(ref: ModelRef) -> bool:
    """Cloud providers need a key; local servers usually do not."""
    return ref.provider not in CLOUD_PROVIDERS or get_api_key(ref.provider) is not None


def _from_keys(order: tuple[str, ...]) -> list[ModelRef]:
    return [ModelRef(p, DEFAULT_MODELS[p]) for p in order if get_api_key(p)]


def agent_model(config: Config | None = None) -> ModelRef | None:
    """The chat model: `[models] agent`, else a default for the first key found, else None (offline)."""
    config = config or get_config()
    if config.agent_model:
        return parse_model(config.agent_model, config)
    found = _from_keys(_AGENT_KEY_ORDER)
    return found[0] if found else None


def pdf_model_candidates(config: Config | None = None, explicit: str | None = None) -> list[ModelRef]:
    """The `pdf` tool's models in order: explicit, pdfModel primary, fallbacks, imageModel, the chat
    model (so `agent = "ollama/…"` alone is enough), then a default for each key present."""
    config = config or get_config()
    names = [explicit, config.pdf_model, *config.pdf_model_fallbacks, config.image_model, config.agent_model]
    refs = [parse_model(name, config) for name in names if name]
    refs += _from_keys(_PDF_KEY_ORDER)
    return list(dict.fromkeys(refs))


def model_configured(config: Config | None = None) -> bool:
    """Whether some model can answer (the MCP server lists the `pdf` tool only then)."""
    config = config or get_config()
    try:
        return any(has_credentials(ref) for ref in pdf_model_candidates(config))
    except ModelNameError:
        return False
