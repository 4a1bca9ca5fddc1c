"""`pdfdesk review list|add|delete|export`: the review tools from a terminal, with flags instead of
JSON. Each command is one call of `pdf_annotate` or `pdf_export_review`, exactly as
`pdfdesk tool NAME '{...}'` would make it; the main command runs and prints it.
"""

from __future__ import annotations

import argparse
from typing import Any

PALETTE_NAMES = "yellow, green, blue, pink, orange, purple"


class ReviewUsageError(ValueError):
    """The flags do not make a call; the message says what is missing."""


def add_review_parser(sub: Any) -> None:
    """The `review` subcommand and its actions."""
    review = sub.add_parser("review", help="list, add, delete or export review notes (highlights and notes)")
    actions = review.add_subparsers(dest="review_action", required=True)

    listing = actions.add_parser(
        "list", help="the notes of a PDF (re-anchored to its current text), or of every annotated PDF")
    listing.add_argument("pdf", nargs="?", help="the PDF (default: every annotated document)")
    listing.add_argument("--text", dest="find", metavar="TEXT",
                         help="only notes whose quote, note or tags contain TEXT")
    listing.add_argument("--tag", help="only notes with this tag")
    listing.add_argument("--color", help=f"only notes of this colour ({PALETTE_NAMES} or #rrggbb)")
    listing.add_argument("--status", choices=("anchored", "moved", "orphaned"))
    listing.add_argument("--page", type=int, help="only notes on this page")
    listing.add_argument("--no-file-annotations", action="store_true", help="leave out the PDF's own annotations")

    add = actions.add_parser("add", help="highlight a quote, mark an area, or add a page note")
    add.add_argument("pdf")
    add.add_argument("--page", type=int, required=True, help="1-based page")
    add.add_argument("--quote", help="the exact text to highlight")
    add.add_argument("--rect", metavar="X0,Y0,X1,Y1", help="an area in PDF points from the top-left corner")
    add.add_argument("--note", help="the note's text")
    add.add_argument("--color", help=f"{PALETTE_NAMES} or #rrggbb (default yellow)")
    add.add_argument("--tag", action="append", default=[], help="a tag (repeatable)")

    delete = actions.add_parser("delete", help="delete a note by id (it can be restored)")
    delete.add_argument("id")
    restore = actions.add_parser("restore", help="bring a deleted note back")
    restore.add_argument("id")

    export = actions.add_parser("export", help="write the notes as an annotated PDF, Markdown, HTML or JSON")
    export.add_argument("pdfs", nargs="+", metavar="PDF")
    export.add_argument("--format", required=True, choices=("pdf", "markdown", "html", "json"))
    export.add_argument("--output", "-o", help="the file to write (default: the data folder's reviews/)")
    export.add_argument("--overwrite", action="store_true", help="replace an existing output file")

    for parser in (listing, add, export):
        parser.add_argument("--password", help="for an encrypted PDF")
    for parser in (listing, add, delete, restore, export):
        parser.add_argument("--json", action="store_true", help="print the tool's JSON result instead of text")


def _rect(text: str) -> list[float]:
    try:
        values = [float(part) for part in text.replace(" ", "").split(",")]
    except ValueError:
        values = []
    if len(values) != 4:
        raise ReviewUsageError(f"--rect {text!r}: give four numbers, X0,Y0,X1,Y1")
    return values


def _list_args(options: argparse.Namespace) -> dict[str, Any]:
    args: dict[str, Any] = {"action": "list"}
    if options.pdf:
        args["path"] = options.pdf
    wanted = {key: value for key, value in (("text", options.find), ("tag", options.tag), ("color", options.color),
                                            ("status", options.status), ("page", options.page)) if value is not None}
    if wanted:
        args["filter"] = wanted
    if options.no_file_annotations:
        args["include_file_annotations"] = False
    return args


def _add_args(options: argparse.Namespace) -> dict[str, Any]:
    args: dict[str, Any] = {"action": "add", "path": options.pdf, "page": options.page}
    if options.quote and options.rect:
        raise ReviewUsageError("give --quote or --rect, not both")
    if options.quote:
        args["quote"] = options.quote
    if options.rect:
        args["rect"] = _rect(options.rect)
    if not (options.quote or options.rect or options.note):
        raise ReviewUsageError("give --quote TEXT, --rect X0,Y0,X1,Y1 or --note TEXT")
    for key in ("note", "color"):
        if getattr(options, key):
            args[key] = getattr(options, key)
    if options.tag:
        args["tags"] = options.tag
    return args


def review_call(options: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The tool and its parameters for a parsed `pdfdesk review ...` command line."""
    action = options.review_action
    if action == "list":
        name, args = "pdf_annotate", _list_args(options)
    elif action == "add":
        name, args = "pdf_annotate", _add_args(options)
    elif action in ("delete", "restore"):
        name, args = "pdf_annotate", {"action": action, "id": options.id}
    else:
        name = "pdf_export_review"
        args = {"format": options.format, "overwrite": options.overwrite}
        args.update({"path": options.pdfs[0]} if len(options.pdfs) == 1 else {"paths": options.pdfs})
        if options.output:
            args["output"] = options.output
    if getattr(options, "password", None):
        args["password"] = options.password
    return name, args
