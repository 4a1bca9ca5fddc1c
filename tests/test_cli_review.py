"""`pdfdesk review list|add|delete|restore|export` and `pdfdesk tool pdf_annotate` from a terminal."""

from __future__ import annotations

import argparse
import json

import pytest

from pdfdesk.cli_review import ReviewUsageError, add_review_parser, review_call
from tests.test_cli import run
from tests.tools.review_support import contract_pdf


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_review_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["review", *argv])


def test_flags_become_the_tool_calls():
    assert review_call(parse("add", "a.pdf", "--page", "2", "--quote", "net 30", "--note", "n", "--color", "green",
                             "--tag", "x", "--tag", "y", "--password", "pw")) == (
        "pdf_annotate", {"action": "add", "path": "a.pdf", "page": 2, "quote": "net 30", "note": "n", "color": "green",
                         "tags": ["x", "y"], "password": "pw"})
    assert review_call(parse("add", "a.pdf", "--page", "1", "--rect", "10, 20,30,40"))[1]["rect"] == [10, 20, 30, 40]
    assert review_call(parse("list")) == ("pdf_annotate", {"action": "list"})
    assert review_call(parse("list", "a.pdf", "--tag", "x", "--page", "3", "--no-file-annotations"))[1] == {
        "action": "list", "path": "a.pdf", "filter": {"tag": "x", "page": 3}, "include_file_annotations": False}
    assert review_call(parse("delete", "a-1")) == ("pdf_annotate", {"action": "delete", "id": "a-1"})
    assert review_call(parse("export", "a.pdf", "b.pdf", "--format", "json", "-o", "r.json")) == (
        "pdf_export_review", {"format": "json", "overwrite": False, "paths": ["a.pdf", "b.pdf"], "output": "r.json"})
    for argv in (("add", "a.pdf", "--page", "1"), ("add", "a.pdf", "--page", "1", "--rect", "1,2,3"),
                 ("add", "a.pdf", "--page", "1", "--quote", "q", "--rect", "1,2,3,4")):
        with pytest.raises(ReviewUsageError):
            review_call(parse(*argv))


def test_add_list_export_delete_from_the_terminal(tmp_path, pdfdesk_home):
    pdf = contract_pdf(tmp_path / "contract.pdf")
    added = run("review", "add", str(pdf), "--page", "3", "--quote", "arbitration in Geneva", "--note", "Seat agreed",
                "--json", env_home=pdfdesk_home)
    assert added.returncode == 0, added.stderr
    ident = json.loads(added.stdout)["details"]["annotation"]["id"]
    listed = run("review", "list", str(pdf), env_home=pdfdesk_home)
    assert listed.returncode == 0 and "1 annotation on contract.pdf" in listed.stdout and "Seat agreed" in listed.stdout
    output = tmp_path / "review.md"
    exported = run("review", "export", str(pdf), "--format", "markdown", "--output", str(output), env_home=pdfdesk_home)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    assert "Seat agreed" in output.read_text(encoding="utf-8")
    again = run("review", "export", str(pdf), "--format", "markdown", "--output", str(output), env_home=pdfdesk_home)
    assert again.returncode == 1 and "already exists" in again.stdout
    deleted = run("review", "delete", ident, env_home=pdfdesk_home)
    assert deleted.returncode == 0 and "Deleted" in deleted.stdout
    every = run("tool", "pdf_annotate", json.dumps({"action": "list"}), env_home=pdfdesk_home)
    assert every.returncode == 0 and json.loads(every.stdout)["details"]["count"] == 0


def test_usage_errors_exit_2(tmp_path, pdfdesk_home):
    proc = run("review", "add", str(tmp_path / "a.pdf"), "--page", "1", env_home=pdfdesk_home)
    assert proc.returncode == 2 and "--quote" in proc.stderr
    assert run("review", "export", "a.pdf", env_home=pdfdesk_home).returncode == 2  # --format is required
    assert "--allow-annotate" in run("mcp", "--help", env_home=pdfdesk_home).stdout


def test_a_tool_error_exits_1(tmp_path, pdfdesk_home):
    pdf = contract_pdf(tmp_path / "contract.pdf")
    proc = run("review", "add", str(pdf), "--page", "9", "--note", "x", "--json", env_home=pdfdesk_home)
    assert proc.returncode == 1 and json.loads(proc.stdout)["details"]["error"] == "invalid_page"
