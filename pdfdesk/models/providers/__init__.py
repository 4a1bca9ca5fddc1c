"""Every model provider pdfdesk talks to, by the name used in `provider/model`.

Each class carries its own facts (native PDF input, images, default base URL, the variables that
hold its key); a name that is not listed here is an OpenAI-compatible server the user configured.
Importing this loads no provider SDK: each client imports its SDK when it is created.
"""

from __future__ import annotations

from pdfdesk.models.providers.anthropic import AnthropicProvider
from pdfdesk.models.providers.base import Provider, ProviderError
from pdfdesk.models.providers.compatible import (
    CompatibleProvider, LlamaCppProvider, LMStudioProvider, OllamaProvider, VLLMProvider,
)
from pdfdesk.models.providers.google import GoogleProvider
from pdfdesk.models.providers.openai import OpenAIProvider

__all__ = ["PROVIDERS", "Provider", "ProviderError", "cloud_providers", "provider_class"]

# Canonical names ("gemini" is spelled "google" here), in the order the settings dialog lists them.
PROVIDERS: dict[str, type[Provider]] = {
    "openai": OpenAIProvider,
    "anthropic": AnthropicProvider,
    "google": GoogleProvider,
    "ollama": OllamaProvider,
    "lmstudio": LMStudioProvider,
    "llamacpp": LlamaCppProvider,
    "vllm": VLLMProvider,
}


def provider_class(name: str) -> type[Provider]:
    """The class for a canonical provider name; any other name is an OpenAI-compatible server."""
    return PROVIDERS.get(name, CompatibleProvider)


def cloud_providers() -> tuple[str, ...]:
    """The providers that refuse requests without an API key, in listing order."""
    return tuple(name for name, cls in PROVIDERS.items() if cls.needs_key)
