"""Every tool turns every bad input into a coded error quickly, never a traceback."""

import time

import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.tools import call_tool

TOOLS = {
    "pdf_info": {},
    "pdf_extract_text": {},
    "pdf_render_page": {"page": 1},
    "pdf_outline": {},
    "pdf_annotate": {"action": "list"},
    "pdf_export_review": {"format": "markdown"},
}

CASES = [
    ("missing", "file_not_found"),
    ("not_pdf", "not_a_pdf"),
    ("empty_pdf", "empty_file"),
    ("zero_pages_pdf", "no_pages"),
    ("garbled_pdf", "pdf_error"),
    ("aes_pdf", "password_required"),
    ("rc4_pdf", "password_required"),
]


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize(("fixture", "code"), CASES)
def test_bad_files(tool, fixture, code, request, tmp_path):
    path = tmp_path / "missing.pdf" if fixture == "missing" else request.getfixturevalue(fixture)
    started = time.monotonic()
    result = call_tool(tool, {"path": str(path), **TOOLS[tool]})
    assert time.monotonic() - started < 5
    assert result.is_error
    assert result.details["error"] == code, result.details
    assert result.details["message"] and result.details["hint"]
    assert result.text.startswith(f"Error ({code}):")


@pytest.mark.parametrize("tool", TOOLS)
def test_wrong_password(tool, aes_pdf):
    result = call_tool(tool, {"path": str(aes_pdf), "password": "guess", **TOOLS[tool]})
    assert result.details["error"] == "wrong_password"


@pytest.mark.parametrize("tool", TOOLS)
def test_policy_sandbox_and_cap_apply_to_every_tool(tool, text_pdf, tmp_path):
    set_config(Config(workspace_only=True, roots=(str(tmp_path),)))
    assert call_tool(tool, {"path": str(text_pdf), **TOOLS[tool]}).details["error"] == "outside_workspace"
    set_config(Config(allow_remote=False))
    assert call_tool(tool, {"path": "https://example.org/a.pdf", **TOOLS[tool]}).details["error"] == "remote_disabled"
    set_config(Config(max_file_mb=0.001))
    assert call_tool(tool, {"path": str(text_pdf), **TOOLS[tool]}).details["error"] == "too_large"
    set_config(Config())
    assert call_tool(tool, {"path": "gopher://x/a.pdf", **TOOLS[tool]}).details["error"] == "unsupported_pdf_reference"
