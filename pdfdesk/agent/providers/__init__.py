"""Model providers behind one interface (`base.Provider`); `make_provider` picks the right one."""

from __future__ import annotations

from pdfdesk.agent.keys import env_vars, get_api_key
from pdfdesk.agent.models import CLOUD_PROVIDERS, ModelRef, base_url, protocol, takes_images
from pdfdesk.agent.providers.base import Provider, ProviderError
from pdfdesk.core.config import Config, get_config

__all__ = ["Provider", "ProviderError", "make_provider"]


def make_provider(ref: ModelRef, config: Config | None = None) -> Provider:
    """A provider client for `ref`; ProviderError(kind="no_key") when a cloud key is missing."""
    config = config or get_config()
    key = get_api_key(ref.provider)
    if key is None and ref.provider in CLOUD_PROVIDERS:
        raise ProviderError(
            f"no API key for {ref.provider}: set {' or '.join(env_vars(ref.provider)[:-1])} or add the key in Settings",
            kind="no_key",
        )
    kind = protocol(ref.provider)
    args = (ref.provider, key, base_url(ref.provider, config), config.model_timeout_s, config.model_max_retries,
            takes_images(ref, config))
    if kind == "anthropic":
        from pdfdesk.agent.providers.anthropic import AnthropicProvider

        return AnthropicProvider(*args)
    if kind == "google":
        from pdfdesk.agent.providers.google import GoogleProvider

        return GoogleProvider(*args)
    if kind == "openai":
        from pdfdesk.agent.providers.openai import OpenAIProvider

        return OpenAIProvider(*args)
    from pdfdesk.agent.providers.compatible import CompatibleProvider

    return CompatibleProvider(*args)
