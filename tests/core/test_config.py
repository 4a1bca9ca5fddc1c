import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pdfdesk.core import paths
from pdfdesk.core.config import (
    MAX_CONFIG_BYTES, Config, ConfigError, get_config, load_config, parse_config, set_config,
)


def test_defaults_when_no_file(tmp_path):
    assert load_config(tmp_path / "missing.toml") == Config()


def test_reads_and_validates_values(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        "[limits]\nmaxFileMb = 12.5\npdfMaxPages = 30\n"
        "[files]\nworkspaceOnly = true\nroots = ['/srv/docs']\n"
        "[network]\nallowRemote = false\n"
        "[models]\nagent = 'openai/gpt-x'\n"
    )
    config = load_config(path)
    assert config.max_file_mb == 12.5 and config.max_file_bytes == int(12.5 * 1024 * 1024)
    assert config.pdf_max_pages == 30
    assert config.workspace_only and config.roots == ("/srv/docs",)
    assert config.allow_remote is False
    assert config.agent_model == "openai/gpt-x" and config.extra == {}


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"limits": {"maxFileMb": "big"}}, "limits.maxFileMb must be int or float"),
        ({"limits": {"maxFileMb": -1}}, "greater than 0"),
        ({"limits": {"pdfMaxPages": 0}}, "from 1 to 1000"),
        ({"limits": {"pdfMaxPages": True}}, "must be int"),
        ({"files": {"roots": "/tmp"}}, "files.roots must be list"),
        ({"files": {"rootz": []}}, "unknown setting files.rootz"),
        ({"network": {"allowRemote": "yes"}}, "must be bool"),
        ({"network": 3}, "must be a table"),
    ],
)
def test_bad_values_name_the_key(data, needle):
    with pytest.raises(ConfigError, match=needle.replace(".", r"\.")):
        parse_config(data)


def test_invalid_toml_is_a_config_error(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[limits\nmaxFileMb = ")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_current_config_loads_from_config_dir(pdfdesk_home: Path):
    (paths.config_dir() / "config.toml").write_text("[limits]\nmaxDownloadMb = 3\n")
    set_config(None)
    assert get_config().max_download_mb == 3


def test_pdfdesk_home_overrides_folders(pdfdesk_home: Path):
    assert paths.app_data_dir() == pdfdesk_home
    assert paths.renders_dir() == pdfdesk_home / "pdf-renders"
    assert paths.indices_dir() == pdfdesk_home / "indices"  # made by the first index built
    assert paths.config_dir().is_relative_to(pdfdesk_home)


def test_sample_pdf_is_bundled():
    assert paths.sample_pdf().is_file()
    assert paths.sample_pdf().read_bytes().startswith(b"%PDF")


# -- a config file that is not one ---------------------------------------------------------------
def _load_within(path: Path, seconds: float) -> tuple[Config | None, BaseException | None, float]:
    """load_config(path) in a thread: (config, error, seconds taken); a hang fails the test, not the run."""
    import threading
    import time

    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["config"] = load_config(path)
        except BaseException as exc:  # handed to the test
            outcome["error"] = exc

    started = time.monotonic()
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"load_config({path}) still runs after {seconds} s"
    return outcome.get("config"), outcome.get("error"), time.monotonic() - started  # type: ignore[return-value]


def test_a_fifo_is_refused_at_once(tmp_path):
    path = tmp_path / "config.toml"
    os.mkfifo(path)
    _config, error, took = _load_within(path, 5.0)
    assert isinstance(error, ConfigError) and took < 1.0
    assert str(error) == (f"{path}: is a named pipe (FIFO), not a settings file; replace it with a plain text file "
                          "(or remove it to use the defaults)")


def test_a_link_to_dev_zero_is_refused_without_reading(tmp_path):
    path = tmp_path / "config.toml"
    path.symlink_to("/dev/zero")
    _config, error, took = _load_within(path, 5.0)
    assert isinstance(error, ConfigError) and str(error).startswith(f"{path}: is a device, not a settings file")
    assert took < 1.0


def test_a_folder_in_its_place_is_refused(tmp_path):
    path = tmp_path / "config.toml"
    path.mkdir()
    with pytest.raises(ConfigError, match="is a folder, not a settings file"):
        load_config(path)


def test_a_link_to_nowhere_means_defaults(tmp_path):
    path = tmp_path / "config.toml"
    path.symlink_to(tmp_path / "gone.toml")
    assert load_config(path) == Config()


def test_a_file_over_one_megabyte_is_refused_without_parsing(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[limits]\nmaxFileMb = 5\n" + "# padding\n" * 210_000)  # 2 MB
    _config, error, took = _load_within(path, 5.0)
    assert isinstance(error, ConfigError) and took < 1.0
    assert str(error).startswith(f"{path}: is 2.0 MB; a settings file is at most 1 MB")


def test_a_file_just_under_one_megabyte_is_read(tmp_path):
    path = tmp_path / "config.toml"
    text = "[limits]\nmaxFileMb = 5\n"
    path.write_text(text + "#" * (MAX_CONFIG_BYTES - len(text) - 1) + "\n")
    assert path.stat().st_size == MAX_CONFIG_BYTES
    assert load_config(path).max_file_mb == 5


def test_bytes_that_are_not_utf8_are_a_config_error(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"[limits]\nmaxFileMb = 5 # \xff\xfe\n")
    with pytest.raises(ConfigError, match=r"not valid TOML \(not UTF-8 text: invalid start byte at byte 25\)"):
        load_config(path)


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("maxFileMb = 1e400", "inf"),
        ("maxFileMb = inf", "inf"),
        ("maxFileMb = nan", "nan"),
        ("maxFileMb = -5", "-5"),
        ("maxFileMb = 0", "0"),
        ("maxFileMb = 0.0", "0.0"),
        ("maxFileMb = 9223372036854775807", "9223372036854775807"),
    ],
)
def test_out_of_range_numbers_name_the_key_and_the_file(tmp_path, line, shown):
    path = tmp_path / "config.toml"
    path.write_text(f"[limits]\n{line}\npdfMaxPages = 30\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == (f"{path}: limits.maxFileMb must be a number greater than 0 and at most "
                                 f"1,000,000 (MB), not {shown}")


@pytest.mark.parametrize("key", ["limits.maxDownloadMb", "limits.pdfMaxBytesMb", "network.timeoutSeconds",
                                 "agent.timeoutSeconds", "limits.toolTimeoutSeconds"])
@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e400", "-5", "0"])
def test_no_number_setting_takes_inf_nan_or_nonpositive(key, value, tmp_path):
    section, name = key.split(".")
    path = tmp_path / "config.toml"
    path.write_text(f"[{section}]\n{name} = {value}\n")
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}: {re.escape(key)} must be a "):
        load_config(path)


def test_reasonable_values_are_still_accepted(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[limits]\nmaxFileMb = 2048\nmaxDownloadMb = 0.5\npdfMaxBytesMb = 32\n"
                    "[network]\ntimeoutSeconds = 60\n[agent]\ntimeoutSeconds = 600\n")
    config = load_config(path)
    assert (config.max_file_mb, config.max_download_mb, config.pdf_max_bytes_mb) == (2048, 0.5, 32)
    assert config.max_file_bytes == 2048 * 1024 * 1024 and config.model_timeout_s == 600


def test_get_config_reports_the_bad_file_and_keeps_no_half_config(pdfdesk_home: Path):
    (paths.config_dir() / "config.toml").write_text("[files]\nworkspaceOnly = true\nroots = ['/srv']\n"
                                                    "[limits]\nmaxFileMb = 1e400\n")
    set_config(None)
    with pytest.raises(ConfigError, match=r"limits\.maxFileMb must be"):
        get_config()
    with pytest.raises(ConfigError):  # asked again: the same refusal, never a config without workspaceOnly
        get_config()


def _cli(home: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PDFDESK_HOME": str(home), "PDFDESK_BACKGROUND_INDEXING": "0"}
    return subprocess.run([sys.executable, "-m", "pdfdesk", *args], capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=Path(__file__).resolve().parents[2])


FRONT_ENDS = {"tool": ("tool", "pdf_info", "{PDF}"), "mcp": ("mcp",), "ask": ("ask", "q", "--pdf", "{PDF}"),
              "index": ("index", "{PDF}"), "window": ("{PDF}",)}


@pytest.mark.parametrize("front_end", list(FRONT_ENDS))
def test_front_ends_stop_at_a_bad_config_before_any_tool(front_end, tmp_path, text_pdf):
    home = tmp_path / "home"
    path = home / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("[limits]\nmaxFileMb = 1e400\n")
    args = [a.replace("{PDF}", json.dumps({"path": str(text_pdf)}) if front_end == "tool" else str(text_pdf))
            for a in FRONT_ENDS[front_end]]
    done = _cli(home, *args, timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"pdfdesk: {path}: limits.maxFileMb must be a number greater than 0 and at most "
                           "1,000,000 (MB), not inf\n")


@pytest.mark.parametrize("fault", ["fifo", "dev_zero", "too_big", "1e400", "nan", "-5", "0"])
def test_every_front_end_reports_config_faults_as_usage_errors(fault, tmp_path, text_pdf):
    """`pdfdesk tool` (like every front end: they start through the same check) says what is wrong
    with which key in which file, exits 2 at once, and runs no tool on it."""
    home = tmp_path / "home"
    path = home / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    if fault == "fifo":
        os.mkfifo(path)
    elif fault == "dev_zero":
        path.symlink_to("/dev/zero")
    elif fault == "too_big":
        path.write_text("# x\n" * 600_000)
    else:
        path.write_text(f"[limits]\nmaxFileMb = {fault}\n")
    done = _cli(home, "tool", "pdf_info", json.dumps({"path": str(text_pdf)}), timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"pdfdesk: {path}: ") and "Traceback" not in done.stderr
    if fault not in ("fifo", "dev_zero", "too_big"):
        assert "limits.maxFileMb must be a number greater than 0" in done.stderr
    assert "internal_error" not in done.stderr


def test_the_settings_dialog_reader_refuses_a_fifo_too(tmp_path):
    from pdfdesk.gui.config_file import read_raw

    path = tmp_path / "config.toml"
    os.mkfifo(path)
    with pytest.raises(ConfigError, match="named pipe"):
        read_raw(path)
