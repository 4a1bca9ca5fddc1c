"""`pdfdesk team init|status|matters|matter|grant|revoke`: setting up and sharing a team database
from a terminal. Every command connects with the same settings as the window and prints coded
errors (code, message, hint) instead of tracebacks."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from pdfdesk.core.errors import PdfDeskError


def add_team_parser(sub: Any) -> None:
    team = sub.add_parser("team", help="set up and use a team database (PostgreSQL): matters, access, status")
    actions = team.add_subparsers(dest="team_action", required=True)
    actions.add_parser("init", help="create or upgrade pdfdesk's tables in the team database (safe to run again)")
    actions.add_parser("status", help="where pdfdesk is connected, as whom, and your matters")
    actions.add_parser("matters", help="the matters you can see and your access to each")
    matter = actions.add_parser("matter", help="create a matter (if new) and add documents to it")
    matter.add_argument("name", help="the matter's name, in quotes if it has spaces")
    matter.add_argument("--add", nargs="+", default=[], metavar="FILE", help="PDF files or folders to add")
    grant = actions.add_parser("grant", help="let a database role (a login or a group) read a matter, "
                                             "or write with --write")
    grant.add_argument("matter")
    grant.add_argument("role")
    grant.add_argument("--write", action="store_true", help="let the role add and edit notes and documents too")
    revoke = actions.add_parser("revoke", help="take a role's access to a matter away")
    revoke.add_argument("matter")
    revoke.add_argument("role")


def team_command(options: argparse.Namespace) -> int:
    """Run one `pdfdesk team` action; 0 on success, 1 with a coded error on stderr."""
    actions: dict[str, Callable[[argparse.Namespace], int]] = {
        "init": _init, "status": _status, "matters": _matters, "matter": _matter, "grant": _grant,
        "revoke": _revoke}
    try:
        return actions[options.team_action](options)
    except PdfDeskError as exc:
        sys.stderr.write(f"pdfdesk team {options.team_action}: {exc.code}: {exc.message}\n")
        if exc.hint:
            sys.stderr.write(f"  {exc.hint}\n")
        return 1


def _init(options: argparse.Namespace) -> int:
    from pdfdesk.team.connection import connect, required_target
    from pdfdesk.team.migrations import migrate

    with connect(required_target()) as conn:
        result = migrate(conn)
    if result.applied:
        print(f"Team schema set up: version {result.before} -> {result.after} "
              f"(applied {', '.join(map(str, result.applied))}).")
    else:
        print(f"Team schema already at version {result.after}; nothing to do.")
    return _status(options)


def _status(options: argparse.Namespace) -> int:
    from pdfdesk.team.connection import required_target
    from pdfdesk.team.status import team_status

    for line in team_status(required_target()).lines():
        print(line)
    return 0


def _matters(options: argparse.Namespace) -> int:
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import list_matters

    with connect() as conn:
        found = list_matters(conn)
    if not found:
        print("You can see no matter yet: ask a matter's manager to grant you access.")
    for matter in found:
        access = "manage" if matter.can_manage else "read and write" if matter.can_write else "read only"
        print(f"{matter.name}\t{matter.documents} documents\t{access}")
    return 0


def _matter(options: argparse.Namespace) -> int:
    from pdfdesk.index.team_documents import add_to_matter
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import create_matter

    with connect() as conn:
        create_matter(conn, options.name)
    print(f"Matter {options.name.strip()!r} is ready.")
    if not options.add:
        return 0
    failed = 0
    for outcome in add_to_matter(options.name, options.add):
        if outcome.error is not None:
            failed += 1
            print(f"  not added: {outcome.path}: {outcome.error.code}: {outcome.error.message}", file=sys.stderr)
        else:
            print(f"  {outcome.describe()}")
    return 1 if failed else 0


def _grant(options: argparse.Namespace) -> int:
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import grant

    with connect() as conn:
        grant(conn, options.matter, options.role, options.write)
    print(f"{options.role} may now {'read and write' if options.write else 'read'} {options.matter.strip()!r}.")
    return 0


def _revoke(options: argparse.Namespace) -> int:
    from pdfdesk.team.connection import connect
    from pdfdesk.team.matters import revoke

    with connect() as conn:
        had = revoke(conn, options.matter, options.role)
    print(f"{options.role} {'no longer has' if had else 'had no'} access to {options.matter.strip()!r}.")
    return 0
