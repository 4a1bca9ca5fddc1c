"""The `pdfdesk` command as a user runs it: JSON out, exit codes 0 / 1 / 2."""

import json
import os
import subprocess
import sys
import threading
import time

import pytest


def run(*args: str, env_home=None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if env_home is not None:
        env["PDFDESK_HOME"] = str(env_home)
    return subprocess.run([sys.executable, "-m", "pdfdesk", *args], capture_output=True, text=True,
                          timeout=60, env=env)


def test_tool_success_prints_json_and_exits_0(text_pdf, pdfdesk_home):
    proc = run("tool", "pdf_info", json.dumps({"path": str(text_pdf)}), env_home=pdfdesk_home)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["isError"] is False and data["details"]["pages"] == 3
    assert proc.stderr == ""


def test_tool_error_exits_1_with_coded_json(tmp_path, pdfdesk_home):
    proc = run("tool", "pdf_info", json.dumps({"path": str(tmp_path / "nope.pdf")}), env_home=pdfdesk_home)
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert data["isError"] is True and data["details"]["error"] == "file_not_found"
    assert "Traceback" not in proc.stdout + proc.stderr


def test_damaged_file_gives_coded_error_without_noise(garbled_pdf, pdfdesk_home):
    proc = run("tool", "pdf_extract_text", json.dumps({"path": str(garbled_pdf)}), env_home=pdfdesk_home)
    assert proc.returncode == 1 and json.loads(proc.stdout)["details"]["error"] == "pdf_error"
    assert "MuPDF error" not in proc.stderr  # MuPDF's messages are collected, not printed


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["tool", "pdf_info", "{not json"], "not valid JSON"),
        (["tool", "no_such_tool", "{}"], "no tool named"),
        (["tool"], "usage"),
        (["--bogus"], "usage"),
    ],
)
def test_usage_errors_exit_2(args, needle, pdfdesk_home):
    proc = run(*args, env_home=pdfdesk_home)
    assert proc.returncode == 2
    assert needle in proc.stderr


def test_validation_error_is_a_tool_error(pdfdesk_home):
    proc = run("tool", "pdf_info", "{}", env_home=pdfdesk_home)
    assert proc.returncode == 1 and json.loads(proc.stdout)["details"]["error"] == "validation_error"


def test_tools_lists_schemas(pdfdesk_home):
    proc = run("tools", env_home=pdfdesk_home)
    assert proc.returncode == 0
    tools = json.loads(proc.stdout)
    assert [t["name"] for t in tools][:4] == ["pdf_info", "pdf_extract_text", "pdf_render_page", "pdf_outline"]
    assert all(t["inputSchema"]["type"] == "object" for t in tools)


def test_render_without_image_data(text_pdf, pdfdesk_home):
    proc = run("tool", "pdf_render_page", json.dumps({"path": str(text_pdf), "page": 1, "dpi": 72}),
               "--no-image-data", env_home=pdfdesk_home)
    data = json.loads(proc.stdout)
    assert data["content"][1]["data"].endswith("base64 characters>")
    assert os.path.exists(data["details"]["path"])


def test_bad_config_is_a_usage_error(pdfdesk_home):
    (pdfdesk_home / "config").mkdir(parents=True, exist_ok=True)
    (pdfdesk_home / "config" / "config.toml").write_text("[limits]\nmaxFileMb = 'x'\n")
    proc = run("tools", env_home=pdfdesk_home)
    assert proc.returncode == 2 and "limits.maxFileMb" in proc.stderr


def test_no_subcommand_without_a_display_describes_the_sample(pdfdesk_home, monkeypatch):
    # with a display `pdfdesk` opens the window (tests/gui/test_app_start.py); on a console it describes
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    proc = run(env_home=pdfdesk_home)
    assert proc.returncode == 0
    assert "no display" in proc.stdout and "sample.pdf" in proc.stdout and "Pages: 5" in proc.stdout


def test_flags_may_follow_the_tool_name(text_pdf, pdfdesk_home):
    proc = run("tool", "pdf_render_page", "--no-image-data", json.dumps({"path": str(text_pdf), "page": 1}),
               "--text", env_home=pdfdesk_home)
    assert proc.returncode == 0 and proc.stdout.startswith("Rendered page 1")


def test_a_crash_exits_3_not_1(pdfdesk_home, monkeypatch):
    import pdfdesk.cli as cli

    def boom(*args, **kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(cli, "list_tools", boom)
    monkeypatch.setattr(sys, "argv", ["pdfdesk", "tools"])
    assert cli.entry_point() == 3
    assert "simulated bug" in (pdfdesk_home / "crash.log").read_text()


# -- every tool call in a killable worker, under an overall deadline ------------------------------------
@pytest.fixture(scope="module")
def slow_pdf(tmp_path_factory) -> str:
    from tests.hardening.corpus import slow_render_page

    path = tmp_path_factory.mktemp("slow") / "slow.pdf"
    path.write_bytes(slow_render_page())
    return str(path)


def test_a_hanging_tool_call_ends_at_the_configured_deadline(slow_pdf, pdfdesk_home):
    (pdfdesk_home / "config").mkdir(parents=True, exist_ok=True)
    (pdfdesk_home / "config" / "config.toml").write_text("[limits]\ntoolTimeoutSeconds = 1\n")
    started = time.monotonic()
    proc = run("tool", "pdf_render_page", json.dumps({"path": slow_pdf, "page": 1, "dpi": 300}), env_home=pdfdesk_home)
    elapsed = time.monotonic() - started
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)  # the usual JSON result, nothing else on stdout
    assert data["isError"] is True and data["details"]["error"] == "pdf_error"
    assert "did not finish within 1 s" in data["details"]["message"] and data["details"]["isolated"] is True
    assert "Traceback" not in proc.stdout + proc.stderr
    assert elapsed < 6  # 1 s of work; the rest is two interpreters starting


def test_the_tool_deadline_is_validated(pdfdesk_home):
    (pdfdesk_home / "config").mkdir(parents=True, exist_ok=True)
    (pdfdesk_home / "config" / "config.toml").write_text("[limits]\ntoolTimeoutSeconds = 0\n")
    proc = run("tools", env_home=pdfdesk_home)
    assert proc.returncode == 2 and "limits.toolTimeoutSeconds" in proc.stderr


def test_a_crashing_pdf_engine_is_a_coded_error(slow_pdf, text_pdf, pdfdesk_home, monkeypatch, capsys):
    """The worker dies of SIGSEGV in the middle of the call, as on a MuPDF stack overflow."""
    import signal
    import threading

    from pdfdesk import cli
    from pdfdesk.tools import isolated

    healthy = isolated.ChildWorker

    class CrashingWorker(healthy):
        def call(self, request, *args, **kwargs):
            threading.Timer(0.5, os.kill, (self.pid, signal.SIGSEGV)).start()
            return super().call(request, *args, **kwargs)

    isolated.shutdown()  # workers started by earlier tests would not be crashing ones
    monkeypatch.setattr(isolated, "ChildWorker", CrashingWorker)
    status = cli.main(["tool", "pdf_render_page", json.dumps({"path": slow_pdf, "page": 1, "dpi": 300})])
    out, err = capsys.readouterr()
    assert status == cli.EXIT_TOOL_ERROR
    data = json.loads(out)
    assert data["details"]["error"] == "pdf_error" and "signal 11" in data["details"]["message"]
    assert "crashed the PDF engine" in data["details"]["message"]
    assert "Traceback" not in out + err
    isolated.shutdown()
    monkeypatch.setattr(isolated, "ChildWorker", healthy)  # the next call gets a fresh, working process
    assert cli.main(["tool", "pdf_info", json.dumps({"path": str(text_pdf)})]) == cli.EXIT_OK


def test_where_no_worker_can_start_the_call_runs_in_process(text_pdf, pdfdesk_home, monkeypatch, capsys):
    from pdfdesk import cli
    from pdfdesk.tools import isolated

    def refuse(self):
        raise OSError("no processes in this sandbox")

    monkeypatch.setattr(isolated.ChildWorker, "start", refuse)
    assert cli.main(["tool", "pdf_info", json.dumps({"path": str(text_pdf)})]) == cli.EXIT_OK
    assert json.loads(capsys.readouterr().out)["details"]["pages"] == 3


# -- nothing left for multiprocessing's resource tracker to report at exit -------------------------------
LEAK_REPORTS = ("leaked", "resource_tracker")


def leak_reports(stderr: str) -> list[str]:
    """The lines of `stderr` in which the resource tracker reports what a process left behind."""
    return [line for line in stderr.splitlines() if any(word in line for word in LEAK_REPORTS)]


@pytest.fixture
def indexed_pdf(text_pdf, pdfdesk_home, monkeypatch):
    """text_pdf with its words and vectors in the test's data folder (the built-in model), so that a
    search embeds its query in the worker: the embedding library makes a semaphore (tqdm's lock)."""
    monkeypatch.delenv("PDFDESK_EMBEDDING_MODEL_PATH", raising=False)
    proc = run("index", str(text_pdf), env_home=pdfdesk_home)
    assert proc.returncode == 0, proc.stderr
    assert not leak_reports(proc.stderr)
    return text_pdf


def test_a_search_from_the_terminal_leaves_no_semaphore_behind(indexed_pdf, pdfdesk_home):
    proc = run("tool", "pdf_search", json.dumps({"path": str(indexed_pdf), "query": "page text"}),
               env_home=pdfdesk_home)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["details"]["mode_used"] == "hybrid"  # the query was embedded
    assert not leak_reports(proc.stderr), proc.stderr
    proc = run("tool", "pdf_info", json.dumps({"path": str(indexed_pdf)}), env_home=pdfdesk_home)
    assert proc.returncode == 0 and proc.stderr == ""


def test_the_mcp_server_leaves_no_semaphore_behind_when_its_client_hangs_up(indexed_pdf, pdfdesk_home):
    from mcp.types.version import LATEST_HANDSHAKE_VERSION

    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": LATEST_HANDSHAKE_VERSION, "capabilities": {},
                    "clientInfo": {"name": "cli-test", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "pdf_search", "arguments": {"path": str(indexed_pdf), "query": "page text"}}},
    ]
    env = {**os.environ, "PDFDESK_HOME": str(pdfdesk_home), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pdfdesk", "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        proc.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
        proc.stdin.flush()
        replies = [json.loads(proc.stdout.readline()) for _ in range(2)]  # stdin open until both are in
        proc.stdin.close()  # the client hangs up: the server exits
        stderr = proc.stderr.read()
        status = proc.wait()
    finally:
        watchdog.cancel()
        proc.stdout.close()
        proc.stderr.close()
    assert status == 0, stderr
    assert replies[1]["id"] == 2 and replies[1]["result"]["structuredContent"]["mode_used"] == "hybrid"
    assert not leak_reports(stderr), stderr
