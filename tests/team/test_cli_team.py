"""`pdfdesk team ...` from a terminal, against the session's real PostgreSQL server."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pdfdesk.cli import main
from pdfdesk.core.config import ConfigError, load_config


def _team(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["team", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_init_twice_then_status_says_where_and_as_whom(pg_cluster: Any, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    name = pg_cluster.new_database()
    try:
        monkeypatch.setenv("PDFDESK_TEAM_DATABASE", pg_cluster.conninfo(name, "postgres"))
        code, out, err = _team(capsys, "init")
        assert code == 0, err
        assert "Team schema set up: version 0 ->" in out
        code, out, _ = _team(capsys, "init")
        assert code == 0 and "nothing to do" in out
        code, out, _ = _team(capsys, "status")
        assert code == 0
        assert f"postgres@socket {pg_cluster.socket_dir}:5432/{name}" in out
        assert "As database role postgres" in out and "set by PDFDESK_TEAM_DATABASE" in out
        assert "PostgreSQL 1" in out and "no TLS" in out
    finally:
        pg_cluster.drop_database(name)


def test_grant_and_revoke_change_what_a_reviewer_sees(team_db: Any, capsys: pytest.CaptureFixture[str]) -> None:
    team_db.login("postgres")
    assert _team(capsys, "matter", "Smith v Jones")[0] == 0
    code, out, _ = _team(capsys, "grant", "Smith v Jones", "bob", "--write")
    assert code == 0 and "bob may now read and write 'Smith v Jones'" in out
    team_db.login("bob")
    code, out, _ = _team(capsys, "matters")
    assert code == 0 and out.splitlines() == ["Smith v Jones\t0 documents\tread and write"]
    code, out, _ = _team(capsys, "status")
    assert "As database role bob" in out and "Smith v Jones: 0 documents, read and write" in out
    code, _, err = _team(capsys, "grant", "Smith v Jones", "carol")
    assert code == 1 and "permission_denied" in err
    team_db.login("postgres")
    assert _team(capsys, "revoke", "Smith v Jones", "bob")[0] == 0
    team_db.login("bob")
    code, out, _ = _team(capsys, "matters")
    assert code == 0 and "You can see no matter yet" in out


def test_without_a_team_database_the_commands_say_how_to_set_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _team(capsys, "status")
    assert code == 1
    assert "validation_error: No team database is set up." in err and "PDFDESK_TEAM_DATABASE" in err


def test_an_unreachable_server_is_a_coded_error_within_seconds(tmp_path: Path) -> None:
    env = dict(os.environ, PDFDESK_TEAM_DATABASE=f"host={tmp_path} dbname=review user=alice",
               PDFDESK_HOME=str(tmp_path / "home"))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pdfdesk", "team", "status"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert time.monotonic() - started < 30
    assert done.returncode == 1
    assert "team_unavailable" in done.stderr and "alice@socket" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_password_in_config_toml_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[team]\ndatabase = "postgresql://alice:s3cret@db.example/review"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="without a password"):
        load_config(config)
    config.write_text('[team]\ndatabase = "host=db.example dbname=review user=alice password=s3cret"\n',
                      encoding="utf-8")
    with pytest.raises(ConfigError, match="without a password"):
        load_config(config)
    config.write_text('[team]\ndatabase = "postgresql://alice@db.example/review?sslmode=verify-full"\n',
                      encoding="utf-8")
    assert load_config(config).team_database.endswith("sslmode=verify-full")
