"""Local OpenAI-compatible servers (Ollama, LM Studio, llama.cpp server, vLLM, or any base URL).

Same wire protocol as OpenAI; differences are the older `max_tokens` parameter, no key needed,
and images only when the user says the model takes them (`[providers.NAME] images = true`).
Each known server is a subclass only so that its usual local address is a fact of its class.
"""

from __future__ import annotations

from pdfdesk.models.providers.openai import OpenAIProvider


class CompatibleProvider(OpenAIProvider):
    """Any server named under [providers.NAME] with its baseUrl."""

    display_name = "OpenAI-compatible server"
    reads_images = False
    key_env_vars = ()
    needs_key = False
    uses_max_completion_tokens = False


class OllamaProvider(CompatibleProvider):
    display_name = "Ollama"
    default_base_url = "http://localhost:11434/v1"


class LMStudioProvider(CompatibleProvider):
    display_name = "LM Studio"
    default_base_url = "http://localhost:1234/v1"


class LlamaCppProvider(CompatibleProvider):
    display_name = "llama.cpp server"
    default_base_url = "http://localhost:8080/v1"


class VLLMProvider(CompatibleProvider):
    display_name = "vLLM"
    default_base_url = "http://localhost:8000/v1"
