"""Local OpenAI-compatible servers (Ollama, LM Studio, llama.cpp server, vLLM, or any base URL).

Same wire protocol as OpenAI; differences are the older `max_tokens` parameter, no key needed,
and images only when the user says the model takes them (`[providers.NAME] images = true`).
"""

from __future__ import annotations

from pdfdesk.agent.providers.openai import OpenAIProvider


class CompatibleProvider(OpenAIProvider):
    uses_max_completion_tokens = False
