"""Edit config.toml without losing what the user wrote: read raw, merge changes, validate, write.

The settings dialog changes a few keys; every other key and section (including ones a newer or
older pdfdesk owns) is kept. The merged text is validated with `parse_config` before anything
is written, and written atomically. API keys never pass through here (they go to the keyring).
Comments are not preserved: TOML writing needs a serializer and the standard library has none.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path
from typing import Any

from pdfdesk.core.atomic import write_text_atomically
from pdfdesk.core.config import (
    Config,
    ConfigError,
    config_path,
    parse_config,
    read_config_text,
)

DELETE = object()  # a change value that removes the key
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def read_raw(path: Path | None = None) -> dict[str, Any]:
    path = path or config_path()
    text = read_config_text(path)  # refuses a FIFO, a device or a huge file without waiting on it
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from exc


def merge(raw: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A copy of `raw` with nested `changes` applied (DELETE removes; emptied tables disappear)."""
    merged = {key: (merge(value, {}) if isinstance(value, dict) else value) for key, value in raw.items()}
    for key, value in changes.items():
        if value is DELETE:
            merged.pop(key, None)
        elif isinstance(value, dict):
            base = merged.get(key) if isinstance(merged.get(key), dict) else {}
            table = merge(base, value)
            if table:
                merged[key] = table
            else:
                merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else _string(name)


def _string(value: str) -> str:
    escaped = []
    for char in value:
        if char == "\\":
            escaped.append("\\\\")
        elif char == '"':
            escaped.append('\\"')
        elif char == "\n":
            escaped.append("\\n")
        elif char == "\t":
            escaped.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ConfigError(f"{value} cannot be written to config.toml")
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):  # inline table inside an array or value position
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise ConfigError(f"{type(value).__name__} values cannot be written to config.toml")


def dump_toml(data: dict[str, Any]) -> str:
    """TOML text for nested dicts of strings, numbers, booleans, lists and tables."""
    lines: list[str] = []

    def table(prefix: list[str], content: dict[str, Any]) -> None:
        scalars = [(k, v) for k, v in content.items() if not isinstance(v, dict)]
        tables = [(k, v) for k, v in content.items() if isinstance(v, dict)]
        if prefix and (scalars or not tables):
            if lines:
                lines.append("")
            lines.append("[" + ".".join(_key(p) for p in prefix) + "]")
        for key, value in scalars:
            lines.append(f"{_key(key)} = {_value(value)}")
        for key, value in tables:
            table(prefix + [key], value)

    table([], data)
    return "\n".join(lines) + "\n"


def validate(raw: dict[str, Any]) -> Config:
    """The Config that `raw` would give; ConfigError names the offending key."""
    text = dump_toml(raw)
    return parse_config(tomllib.loads(text))


def save(raw: dict[str, Any], path: Path | None = None) -> Config:
    """Validate, then write `raw` atomically; returns the new Config."""
    path = path or config_path()
    config = validate(raw)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(path, dump_toml(raw))
    return config
