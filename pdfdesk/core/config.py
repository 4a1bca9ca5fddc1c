"""User configuration: `<config dir>/config.toml`, validated, with one process-wide current value.

Front ends (CLI flags, MCP `--root`, the settings dialog) build a `Config` and install it with
`set_config`; the tools read it with `get_config`. Bad values fail with a message naming the key.
"""

from __future__ import annotations

import dataclasses
import threading
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdfdesk.core import paths

MB = 1024 * 1024


class ConfigError(ValueError):
    """config.toml holds a value pdfdesk cannot use; the message names the key and the fix."""


@dataclass(frozen=True)
class Config:
    """Every setting the core and tools consult."""

    max_file_mb: float = 500.0          # reading tools refuse bigger files (too_large)
    max_download_mb: float = 50.0       # URL fetches stop past this many bytes
    pdf_max_bytes_mb: float = 10.0      # default byte cap of the `pdf` analyze tool
    pdf_max_pages: int = 20             # pages the `pdf` tool's extraction fallback sends
    workspace_only: bool = False        # only files under `roots` may be opened
    roots: tuple[str, ...] = ()
    allow_remote: bool = True           # False = sandbox: URLs are refused (remote_disabled)
    allow_private_addresses: bool = False  # let URLs reach loopback/private/link-local hosts
    fetch_timeout_s: float = 20.0
    max_redirects: int = 3
    semantic: bool = True               # use an embedding model when one is available
    embedding_model: str = "sentence-transformers/all-MiniLM-L6-v2"  # fastembed model name
    embedding_model_path: str | None = None  # a local model folder instead of a download
    extra: dict[str, Any] = field(default_factory=dict)  # sections owned by later layers

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * MB)

    @property
    def max_download_bytes(self) -> int:
        return int(self.max_download_mb * MB)

    def replace(self, **changes: Any) -> "Config":
        return dataclasses.replace(self, **changes)


# (toml section, toml key) -> (Config field, accepted types, check, description of valid values)
_POSITIVE = (lambda v: v > 0, "a number greater than 0")
_KEYS: dict[tuple[str, str], tuple[str, tuple[type, ...], Any]] = {
    ("limits", "maxFileMb"): ("max_file_mb", (int, float), _POSITIVE),
    ("limits", "maxDownloadMb"): ("max_download_mb", (int, float), _POSITIVE),
    ("limits", "pdfMaxBytesMb"): ("pdf_max_bytes_mb", (int, float), _POSITIVE),
    ("limits", "pdfMaxPages"): ("pdf_max_pages", (int,), (lambda v: 1 <= v <= 1000, "a whole number from 1 to 1000")),
    ("files", "workspaceOnly"): ("workspace_only", (bool,), None),
    ("files", "roots"): ("roots", (list,), (lambda v: all(isinstance(x, str) and x for x in v), "a list of folder paths")),
    ("network", "allowRemote"): ("allow_remote", (bool,), None),
    ("network", "allowPrivateAddresses"): ("allow_private_addresses", (bool,), None),
    ("network", "timeoutSeconds"): ("fetch_timeout_s", (int, float), _POSITIVE),
    ("network", "maxRedirects"): ("max_redirects", (int,), (lambda v: 0 <= v <= 10, "a whole number from 0 to 10")),
    ("search", "semantic"): ("semantic", (bool,), None),
    ("search", "embeddingModel"): ("embedding_model", (str,), (lambda v: "/" in v, "a fastembed model name like org/model")),
    ("search", "embeddingModelPath"): ("embedding_model_path", (str,), (lambda v: bool(v.strip()), "a folder path")),
}
_OWNED_SECTIONS = {section for section, _ in _KEYS}


def config_path() -> Path:
    return paths.config_dir() / "config.toml"


def parse_config(data: dict[str, Any], source: str = "config.toml") -> Config:
    """Validate a parsed TOML mapping into a Config; unknown sections are kept in `extra`."""
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for section, content in data.items():
        if section not in _OWNED_SECTIONS:
            extra[section] = content
            continue
        if not isinstance(content, dict):
            raise ConfigError(f"{source}: [{section}] must be a table of settings")
        for key, value in content.items():
            spec = _KEYS.get((section, key))
            if spec is None:
                known = ", ".join(sorted(k for s, k in _KEYS if s == section))
                raise ConfigError(f"{source}: unknown setting {section}.{key} (known: {known})")
            name, types, check = spec
            if isinstance(value, bool) and bool not in types or not isinstance(value, types):
                wanted = " or ".join(t.__name__ for t in types)
                raise ConfigError(f"{source}: {section}.{key} must be {wanted}, not {value!r}")
            if check is not None and not check[0](value):
                raise ConfigError(f"{source}: {section}.{key} must be {check[1]}, not {value!r}")
            values[name] = tuple(value) if isinstance(value, list) else value
    return Config(**values, extra=extra)


def load_config(path: Path | None = None) -> Config:
    """Read config.toml (defaults when it does not exist)."""
    path = path or config_path()
    if not path.exists():
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from exc
    return parse_config(data, str(path))


_current: Config | None = None
_lock = threading.Lock()


def get_config() -> Config:
    """The configuration in force; loaded from config.toml on first use."""
    global _current
    with _lock:
        if _current is None:
            _current = load_config()
        return _current


def set_config(config: Config | None) -> None:
    """Install a configuration (None: reload config.toml on next use)."""
    global _current
    with _lock:
        _current = config
