"""How the window calls the PDF tools: in a killable worker process (`call_tool_isolated`).

A hostile or broken PDF can make MuPDF loop or crash; in a long-lived window that must cost one
coded error, not the app. Search, outline and the agent's tool calls therefore run isolated. The
call blocks, so it is itself run on the worker pool (`workers.submit`) or in `asyncio.to_thread`.
When worker processes cannot be started at all (a host that forbids them, an embedding script
without a `__main__` guard), the tools run in-process rather than not at all.
"""

from __future__ import annotations

import logging
from typing import Any

from pdfdesk.tools.contract import ToolResult

log = logging.getLogger(__name__)
_in_process = False


def call_tool_in_worker(name: str, args: dict[str, Any]) -> ToolResult:
    """`call_tool(name, args)` in a worker process; a coded error result on timeout or crash."""
    global _in_process
    if not _in_process:
        from pdfdesk.tools.isolated import call_tool_isolated

        try:
            return call_tool_isolated(name, args)
        except (OSError, RuntimeError) as exc:  # the process could not be started
            log.warning("tool worker processes unavailable (%s); running tools in-process", exc)
            _in_process = True
    from pdfdesk.tools import call_tool

    return call_tool(name, args)


def shutdown() -> None:
    """Stop the tool worker processes (application exit)."""
    from pdfdesk.tools.isolated import shutdown as stop_workers

    stop_workers()
