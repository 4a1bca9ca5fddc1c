"""`pdfdesk review` against a team database: separate processes, separate homes, one set of notes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from pdfdesk.team.settings import ENV_VAR
from tests.team_fixture import shared_pdf

ROOT = Path(__file__).resolve().parents[2]


def pdfdesk(team_db: Any, user: str, home: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), ENV_VAR: team_db.conninfo(user), "PDFDESK_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-m", "pdfdesk", "review", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run(team_db: Any, user: str, home: Path, *args: str) -> str:
    process = pdfdesk(team_db, user, home, *args)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return out


def test_two_reviewers_add_and_a_third_lists_both_with_authors(team_db: Any, tmp_path: Path) -> None:
    pdf = tmp_path / "case.pdf"
    shared_pdf(team_db, pdf, "Case", writers=("alice", "bob"), readers=("carol",))
    shared_pdf(team_db, tmp_path / "other.pdf", "Other", writers=("outsider",), text="Other {n}.")
    copy = tmp_path / "carol" / "my copy.pdf"  # carol's copy lies elsewhere: same content, same notes
    copy.parent.mkdir()
    copy.write_bytes(pdf.read_bytes())
    adds = [pdfdesk(team_db, user, tmp_path / f"home-{user}", "add", str(pdf), "--page", "1",
                    "--note", f"{user} thinks so") for user in ("alice", "bob")]
    for process in adds:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        assert "Added note" in out
    listed = run(team_db, "carol", tmp_path / "home-carol", "list", str(copy))
    assert "2 annotations" in listed
    assert "by alice" in listed and "Note: alice thinks so" in listed
    assert "by bob" in listed and "Note: bob thinks so" in listed
    stranger = run(team_db, "outsider", tmp_path / "home-outsider", "list", str(copy))
    assert "0 annotations" in stranger and "thinks so" not in stranger
    refused = pdfdesk(team_db, "carol", tmp_path / "home-carol", "add", str(copy), "--page", "1", "--note", "mine")
    out, err = refused.communicate(timeout=120)
    assert refused.returncode != 0 and "permission_denied" in out + err and "write access" in out + err
