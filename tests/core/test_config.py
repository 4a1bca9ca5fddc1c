from pathlib import Path

import pytest

from pdfdesk.core import paths
from pdfdesk.core.config import Config, ConfigError, get_config, load_config, parse_config, set_config


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
    assert paths.indices_dir().is_dir()
    assert paths.config_dir().is_relative_to(pdfdesk_home)


def test_sample_pdf_is_bundled():
    assert paths.sample_pdf().is_file()
    assert paths.sample_pdf().read_bytes().startswith(b"%PDF")
