"""Fixtures for driving `pdfdesk mcp` as a subprocess with the official MCP client."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def server_home(pdfdesk_home: Path) -> Path:
    """The test's app data folder with a config.toml the server reads (no embedding model:
    the tests must not load or download one)."""
    config_dir = pdfdesk_home / "config"
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "config.toml").write_text("[search]\nsemantic = false\n", encoding="utf-8")
    return pdfdesk_home
