"""The PDF tools shared by the GUI, the agent, the MCP server and the CLI."""

from pdfdesk.tools.contract import Tool, ToolResult
from pdfdesk.tools.registry import all_tools, call_tool, get_tool

__all__ = ["Tool", "ToolResult", "all_tools", "call_tool", "get_tool"]
