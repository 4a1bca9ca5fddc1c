"""Fixtures for the agent tests (defined in support.py, shared with tests/tools/test_pdf_tool.py)."""

from tests.agent.library_case import built_library, library_case  # noqa: F401
from tests.agent.support import (  # noqa: F401 - fixtures are found by name
    anthropic_server, gemini_server, isolated_keys, openai_server, report_pdf, scanned_report_pdf,
)
