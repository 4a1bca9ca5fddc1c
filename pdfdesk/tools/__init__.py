"""The PDF tools shared by the GUI, the agent, the MCP server and the CLI."""

from pdfdesk.tools.registry import Tool, ToolResult, all_tools, call_tool, get_tool

__all__ = ["Tool", "ToolResult", "all_tools", "call_tool", "get_tool"]
