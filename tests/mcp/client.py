"""Start `pdfdesk mcp` as a subprocess and talk to it through `mcp.ClientSession` over stdio."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult

CLIENT_TIMEOUT_S = 60.0


def server_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """What the server sees beyond the SDK's minimal default environment (HOME, PATH...): its own
    data folder, no model hub, and a keyring that holds nothing (no real key store is touched)."""
    return {
        "PDFDESK_HOME": str(home),
        "HF_HUB_OFFLINE": "1",
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
        **(extra or {}),
    }


@asynccontextmanager
async def mcp_session(home: Path, *args: str, env: dict[str, str] | None = None,
                      cwd: Path | None = None) -> AsyncIterator[ClientSession]:
    """An initialised session with `python -m pdfdesk mcp ARGS`; the server's stderr goes to
    `<home>/mcp-stderr.log` (appended), which `server_log` reads back."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "pdfdesk", "mcp", *args],
                                   env=server_env(home, env), cwd=str(cwd) if cwd else None)
    home.mkdir(parents=True, exist_ok=True)
    with open(home / "mcp-stderr.log", "a", encoding="utf-8") as errlog:
        async with (stdio_client(params, errlog=errlog) as (read, write),
                    ClientSession(read, write, read_timeout_seconds=CLIENT_TIMEOUT_S) as session):
            await session.initialize()
            yield session


def server_log(home: Path) -> str:
    path = home / "mcp-stderr.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def texts(result: CallToolResult) -> str:
    return "\n".join(item.text for item in result.content if item.type == "text")


async def call_ok(session: ClientSession, name: str, args: dict[str, Any]) -> CallToolResult:
    result = await session.call_tool(name, args)
    assert not result.is_error, texts(result)
    return result


async def call_error(session: ClientSession, name: str, args: dict[str, Any], code: str) -> CallToolResult:
    """A tool error must be a result (not a protocol error) carrying code, message and hint."""
    result = await session.call_tool(name, args)
    assert result.is_error, texts(result)
    details = result.structured_content
    assert details["error"] == code, details
    assert details["message"] and details["hint"], details
    assert texts(result).startswith(f"Error ({code}): {details['message']}")
    assert f"Hint: {details['hint']}" in texts(result)
    return result
