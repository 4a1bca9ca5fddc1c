"""Fixtures for the model tests: no real key or keyring, fake provider servers (tests/agent/support.py)."""

from tests.agent.support import (  # noqa: F401 - fixtures are found by name
    anthropic_server, gemini_server, isolated_keys, openai_server, report_pdf, scanned_report_pdf,
)
