"""The `pdfdesk` command: the tools from a terminal (`tool`, `tools`), and the app itself.

Exit codes: 0 success, 1 a tool returned an error, 2 the command line itself was wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pdfdesk import __version__
from pdfdesk.core import paths
from pdfdesk.core.config import ConfigError, get_config, set_config

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2
COMMANDS = ("tool", "tools", "index", "mcp", "ask", "model", "review", "searchable-copy", "team")
TOOL_FLAGS = ("--no-image-data", "--text")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pdfdesk", description="Review PDFs with search and an embedded agent.",
        epilog="With no command, pdfdesk opens the given PDFs (or the bundled sample).",
    )
    parser.add_argument("--version", action="version", version=f"pdfdesk {__version__}")
    parser.add_argument("--self-test", action="store_true",
                        help="check this installation (sample PDF, render, search, offline answer, window) "
                             "and print one line: OK with timings, or the step that failed")
    sub = parser.add_subparsers(dest="command")
    tool = sub.add_parser("tool", help="run one tool and print its result as JSON")
    tool.add_argument("name", help="tool name, e.g. pdf_info")
    tool.add_argument("args", nargs="?", default="{}", help="JSON object of parameters")
    tool.add_argument("--no-image-data", action="store_true",
                      help="replace base64 image data with its length (keeps terminals readable)")
    tool.add_argument("--text", action="store_true", help="print the result's text instead of JSON")
    sub.add_parser("tools", help="list the tools with their JSON schemas")
    index = sub.add_parser("index", help="build the search index of PDF files or folders (with progress)")
    index.add_argument("paths", nargs="*", help="PDF files, or folders searched recursively for *.pdf")
    index.add_argument("--drain", action="store_true", help=argparse.SUPPRESS)  # the background owner
    ask = sub.add_parser("ask", help="ask the agent a question about PDFs; the answer streams with page citations")
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument("--pdf", action="append", default=[], metavar="FILE", help="a PDF to ask about (repeatable)")
    ask.add_argument("--library", action="store_true",
                     help="ask about the whole library: the agent may search it and read its documents, and "
                          "nothing outside it (with --pdf: those files as well)")
    ask.add_argument("--in", dest="folder", metavar="FOLDER",
                     help="ask about the library's documents under FOLDER only (implies --library)")
    ask.add_argument("--model", metavar="PROVIDER/MODEL", help='e.g. "openai/gpt-4.1-mini" (default: [models] agent)')
    ask.add_argument("--quiet", action="store_true", help="do not show tool calls on stderr")
    model = sub.add_parser("model", help="list, download (with progress) or check embedding models for semantic search")
    model.add_argument("action", choices=("list", "fetch", "check"))
    model.add_argument("name", nargs="?", help="with fetch: the model, e.g. minishlab/potion-multilingual-128M")
    copy = sub.add_parser("searchable-copy", help="write a copy of a scanned PDF with an invisible text layer "
                                                  "that any PDF reader can search (the original is never changed)")
    copy.add_argument("source", metavar="IN", help="the PDF")
    copy.add_argument("-o", "--output", metavar="OUT", help='where to write the copy (default: "<name>-searchable.pdf" '
                                                             "next to IN)")
    copy.add_argument("--force", action="store_true", help="replace OUT if it exists (never IN itself)")
    copy.add_argument("--password", help="the password of an encrypted PDF (the copy is written unencrypted)")
    mcp = sub.add_parser("mcp", help="serve the tools to other agents over MCP (stdio)")
    mcp.add_argument("--root", action="append", default=[], metavar="DIR",
                     help="allow only files under DIR (repeatable; turns on workspace-only)")
    mcp.add_argument("--no-remote", action="store_true", help="sandbox: refuse http(s) URLs")
    mcp.add_argument("--allow-annotate", action="store_true",
                     help="let clients add, change, delete and export review notes (default: list them only)")
    mcp.add_argument("--verbose", action="store_true", help="log each tool call to stderr")
    from pdfdesk.cli_review import add_review_parser

    add_review_parser(sub)
    from pdfdesk.cli_team import add_team_parser

    add_team_parser(sub)
    return parser


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def call_tool_and_print(name: str, raw_args: str, no_image_data: bool = False, as_text: bool = False) -> int:
    """One tool call in a worker process under `[limits] toolTimeoutSeconds`: a PDF that makes MuPDF
    hang or crash ends as a coded pdf_error (exit 1), not a stuck terminal or a traceback."""
    from pdfdesk.tools import get_tool
    from pdfdesk.tools.isolated import call_tool_isolated, tool_call_timeout

    if get_tool(name) is None:
        from pdfdesk.tools import all_tools

        sys.stderr.write(f"pdfdesk: no tool named {name!r}; tools: {', '.join(t.name for t in all_tools())}\n")
        return EXIT_USAGE
    try:
        args = json.loads(raw_args)
    except json.JSONDecodeError as exc:
        sys.stderr.write(f"pdfdesk: the parameters are not valid JSON ({exc}); e.g. '{{\"path\": \"file.pdf\"}}'\n")
        return EXIT_USAGE
    try:
        result = call_tool_isolated(name, args, tool_call_timeout(name, get_config()), overall=True)
    except (OSError, RuntimeError):  # no child process can be started here (a sandbox): in-process
        from pdfdesk.tools import call_tool

        result = call_tool(name, args)
    _emit(result, no_image_data, as_text)
    return EXIT_TOOL_ERROR if result.is_error else EXIT_OK


def _emit(result: Any, no_image_data: bool, as_text: bool) -> None:
    if as_text:
        sys.stdout.write(result.text + "\n")
    else:
        data = result.to_dict()
        if no_image_data:
            for item in data["content"]:
                if item.get("type") == "image":
                    item["data"] = f"<{len(item['data'])} base64 characters>"
        _print_json(data)
    sys.stdout.flush()


def list_tools() -> int:
    from pdfdesk.tools import all_tools

    _print_json([tool.spec() for tool in all_tools()])
    return EXIT_OK


def _has_display() -> bool:
    """False on a Linux/BSD console without X11 or Wayland (and no QT_QPA_PLATFORM chosen)."""
    import os

    if sys.platform in ("win32", "darwin") or os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def start_app(files: list[str]) -> int:
    """Open the desktop window on `files` (the bundled sample when none); on a machine without a
    display, describe the documents in the terminal instead."""
    if _has_display():
        from pdfdesk.gui.app import run

        return run(files)
    targets = files or [str(paths.sample_pdf())]
    sys.stdout.write(
        "pdfdesk: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset). "
        "Every tool works from the terminal:\n"
        "  pdfdesk tools                      list the tools\n"
        "  pdfdesk tool pdf_info '{\"path\": \"FILE.pdf\"}'\n\n"
    )
    status = EXIT_OK
    try:
        for target in targets:
            status = max(status, call_tool_and_print("pdf_info", json.dumps({"path": target}), as_text=True))
    finally:
        _stop_workers()
    return status


def _stop_workers() -> None:
    """End the tool worker processes now rather than at interpreter exit."""
    from pdfdesk.tools.isolated import shutdown

    shutdown()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    opens_files = bool(argv) and argv[0] not in COMMANDS and not argv[0].startswith("-")
    if argv and argv[0] == "tool":  # flags may follow the tool name or its JSON
        flags = [a for a in argv[1:] if a in TOOL_FLAGS]
        argv = ["tool", *flags, *[a for a in argv[1:] if a not in TOOL_FLAGS]]
    options = None if opens_files else _parser().parse_args(argv)
    if options is not None and options.self_test:  # runs on defaults: a broken config.toml must not stop it
        from pdfdesk.self_test import main as self_test

        return self_test()
    try:
        set_config(get_config())
    except ConfigError as exc:
        sys.stderr.write(f"pdfdesk: {exc}\n")
        return EXIT_USAGE
    if options is None:
        return start_app(argv)  # `pdfdesk FILE...`
    if options.command == "tool":
        try:
            return call_tool_and_print(options.name, options.args, options.no_image_data, options.text)
        finally:
            _stop_workers()
    if options.command == "tools":
        return list_tools()
    if options.command == "ask":
        from pdfdesk.agent.ask import ask

        return ask(options.question, options.pdf, options.model, options.quiet, options.library, options.folder)
    if options.command == "index":
        if options.drain:
            from pdfdesk.index.library import sync_index
            from pdfdesk.index.owner import drain_in_background

            drained = drain_in_background()
            if drained == 0:
                try:
                    sync_index()  # library documents the queue finished join the library index
                except OSError:  # the data folder cannot take it now; the next run adds them
                    return 1
            return drained
        if not options.paths:
            sys.stderr.write("pdfdesk index: name at least one PDF file or folder\n")
            return EXIT_USAGE
        from pdfdesk.index.cli_index import index_paths

        return index_paths(options.paths)
    if options.command == "model":
        from pdfdesk.index.cli_model import model_command

        return model_command(options.action, options.name)
    if options.command == "searchable-copy":
        from pdfdesk.index.cli_searchable_copy import searchable_copy_command

        return searchable_copy_command(options.source, options.output, options.force, options.password)
    if options.command == "mcp":
        from pdfdesk.mcp_server import run as serve_mcp

        return serve_mcp(options.root, options.no_remote, options.verbose, options.allow_annotate)
    if options.command == "review":
        return _review(options)
    if options.command == "team":
        from pdfdesk.cli_team import team_command

        return team_command(options)
    return start_app([])


def _review(options: argparse.Namespace) -> int:
    """`pdfdesk review ...`: one review tool call, printed as text (or JSON with --json)."""
    from pdfdesk.cli_review import ReviewUsageError, review_call

    try:
        name, args = review_call(options)
    except ReviewUsageError as exc:
        sys.stderr.write(f"pdfdesk review {options.review_action}: {exc}\n")
        return EXIT_USAGE
    try:
        return call_tool_and_print(name, json.dumps(args), as_text=not options.json)
    finally:
        _stop_workers()


EXIT_CRASH = 3


def entry_point() -> int:
    """The console script: a bug in pdfdesk exits 3 with one line, never 1 (a tool's coded error)."""
    try:
        return main()
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a crash must not look like a coded tool error
        import traceback

        from pdfdesk.models.keys import scrub  # an exception may quote an API key or an auth header
        from pdfdesk.core.redact import redact  # ... or a token, a bearer header, an ?key= URL

        _kept, where = paths.write_crash_log(redact(scrub(traceback.format_exc())))  # never raises
        sys.stderr.write(redact(scrub(f"pdfdesk: internal error: {type(exc).__name__}: {exc}")) + f" ({where})\n")
        return EXIT_CRASH


if __name__ == "__main__":
    sys.exit(entry_point())
