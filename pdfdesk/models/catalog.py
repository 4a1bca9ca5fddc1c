"""Model names (`provider/model`), which model to use, and what a chosen model can take.

Resolution is shared by the chat, the `pdf` tool and the MCP server (which lists `pdf` only when
`model_configured` says some model can answer). What a provider can do is read from its class.
"""

from __future__ import annotations

from dataclasses import dataclass

from pdfdesk.core.config import Config, get_config
from pdfdesk.models.keys import canonical_provider, env_vars, get_api_key
from pdfdesk.models.providers import PROVIDERS, Provider, ProviderError, provider_class

# Models used when only a key is known; small, current and cheap enough for a first answer.
DEFAULT_MODELS: dict[str, str] = {
    "anthropic": "claude-sonnet-4-6",
    "openai": "gpt-4.1-mini",
    "google": "gemini-2.5-flash",
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
    if provider not in PROVIDERS and provider not in config.providers:
        known = ", ".join(sorted(set(PROVIDERS) | set(config.providers)))
        raise ModelNameError(f"Unknown provider {provider!r} in {name!r} (known: {known}); "
                             f"add [providers.{provider}] baseUrl = \"...\" for another OpenAI-compatible server.")
    return ModelRef(provider, model)


def base_url(provider: str, config: Config) -> str | None:
    """The configured base URL, else the provider's default address (None: the SDK's own)."""
    provider = canonical_provider(provider)
    settings = config.providers.get(provider) or (config.providers.get("gemini") if provider == "google" else None)
    if settings and settings.base_url:
        return settings.base_url
    return provider_class(provider).default_base_url


def takes_images(ref: ModelRef, config: Config) -> bool:
    """What [providers.NAME] images says, else the provider's default (cloud models yes, local no)."""
    settings = config.providers.get(ref.provider)
    if settings and settings.images is not None:
        return settings.images
    return provider_class(ref.provider).reads_images


def takes_pdf(ref: ModelRef) -> bool:
    """Native PDF input (Anthropic document blocks, Gemini inline data)."""
    return provider_class(ref.provider).reads_pdf


def has_credentials(ref: ModelRef) -> bool:
    """Cloud providers need a key; local servers usually do not."""
    return not provider_class(ref.provider).needs_key or get_api_key(ref.provider) is not None


def key_variables() -> str:
    """The cloud providers' key variables as a phrase for messages: "A, B or C"."""
    names = [env_vars(name)[0] for name in _PDF_KEY_ORDER]
    return f"{', '.join(names[:-1])} or {names[-1]}"


def make_provider(ref: ModelRef, config: Config | None = None) -> Provider:
    """A client for `ref`; ProviderError(kind="no_key") when a cloud key is missing."""
    config = config or get_config()
    cls = provider_class(ref.provider)
    key = get_api_key(ref.provider)
    if key is None and cls.needs_key:
        raise ProviderError(
            f"no API key for {ref.provider}: set {' or '.join(env_vars(ref.provider)[:-1])} or add the key in Settings",
            kind="no_key",
        )
    return cls(ref.provider, key, base_url(ref.provider, config), config.model_timeout_s, config.model_max_retries,
               takes_images(ref, config))


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
