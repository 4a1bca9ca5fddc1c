"""Where pdfdesk keeps its files: the app data folder (indices, renders) and the config folder.

`PDFDESK_HOME` overrides both, so tests, portable installs and the MCP server can share or
isolate state explicitly.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "pdfdesk"


def app_data_dir() -> Path:
    """The per-user data folder, created on first use."""
    home = os.environ.get("PDFDESK_HOME")
    path = Path(home).expanduser() if home else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    """The per-user config folder (holds config.toml); under PDFDESK_HOME when that is set."""
    home = os.environ.get("PDFDESK_HOME")
    path = Path(home).expanduser() / "config" if home else Path(
        platformdirs.user_config_dir(APP_NAME, appauthor=False)
    )
    path.mkdir(parents=True, exist_ok=True)
    return path


def renders_dir() -> Path:
    """Where `pdf_render_page` writes its PNGs."""
    path = app_data_dir() / "pdf-renders"
    path.mkdir(parents=True, exist_ok=True)
    return path


def indices_dir() -> Path:
    """Where the per-document search indices live."""
    path = app_data_dir() / "indices"
    path.mkdir(parents=True, exist_ok=True)
    return path


def resources_dir() -> Path:
    """Bundled resources (the sample PDF, icons): the package `pdfdesk.resources`."""
    import pdfdesk.resources

    return Path(pdfdesk.resources.__file__).resolve().parent


def sample_pdf() -> Path:
    """The PDF shown on first start."""
    return resources_dir() / "sample.pdf"
