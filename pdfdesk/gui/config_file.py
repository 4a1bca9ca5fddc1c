"""Edit config.toml without losing what the user wrote: read, merge changes, validate, write.

The settings dialog changes a few keys; every other key and section (including ones a newer or
older pdfdesk owns), every comment and the file's layout are kept: the file is read as a tomlkit
document and only the changed keys are touched. The merged text is validated with
`parse_config` before anything is written, and written atomically. API keys never pass through
here (they go to the keyring).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError

from pdfdesk.core.atomic import write_text_atomically
from pdfdesk.core.config import Config, ConfigError, config_path, parse_config, read_config_text

DELETE = object()  # a change value that removes the key


def read_raw(path: Path | None = None) -> tomlkit.TOMLDocument:
    """The file as an editable document (comments and layout included); empty when there is none."""
    path = path or config_path()
    text = read_config_text(path)  # refuses a FIFO, a device or a huge file without waiting on it
    if text is None:
        return tomlkit.document()
    try:
        tomllib.loads(text)  # the reader the loader uses decides what is valid TOML
        return tomlkit.parse(text)
    except (tomllib.TOMLDecodeError, TOMLKitError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from exc


def _apply(target: MutableMapping[str, Any], changes: dict[str, Any], depth: int) -> None:
    for key, value in changes.items():
        if value is DELETE:
            target.pop(key, None)
        elif isinstance(value, dict):
            existing = target.get(key)
            fresh = not isinstance(existing, MutableMapping)
            table = existing if isinstance(existing, MutableMapping) else _new_table(target, depth)
            _apply(table, value, depth + 1)
            if not table:
                target.pop(key, None)
            elif fresh:  # a table already in place is edited where it is (re-setting it reformats it)
                target[key] = table
        else:
            target[key] = value


def _new_table(parent: MutableMapping[str, Any], depth: int) -> MutableMapping[str, Any]:
    """A section ([limits]) at the top of a document, an inline table below it; a plain dict
    when the parent is one."""
    if type(parent) is dict:
        return {}
    return tomlkit.table() if depth == 0 else tomlkit.inline_table()


def merge(raw: MutableMapping[str, Any], changes: dict[str, Any]) -> Any:
    """A copy of `raw` with nested `changes` applied (DELETE removes; emptied tables disappear).
    A document stays a document, so what was not changed is written back as it was."""
    if isinstance(raw, tomlkit.TOMLDocument):
        merged: MutableMapping[str, Any] = tomlkit.parse(tomlkit.dumps(raw))
    else:
        merged = _plain_copy(raw)
    _apply(merged, changes, 0)
    return merged


def _plain_copy(raw: MutableMapping[str, Any]) -> dict[str, Any]:
    return {key: (_plain_copy(value) if isinstance(value, MutableMapping) else value) for key, value in raw.items()}


def _check_numbers(data: Any) -> None:
    if isinstance(data, float) and (math.isnan(data) or math.isinf(data)):
        raise ConfigError(f"{data} cannot be written to config.toml")
    if isinstance(data, MutableMapping):
        for value in data.values():
            _check_numbers(value)
    elif isinstance(data, list):
        for value in data:
            _check_numbers(value)


def dump_toml(data: MutableMapping[str, Any]) -> str:
    """TOML text for a document (as it was, with its edits) or nested dicts of plain values."""
    _check_numbers(data)
    try:
        return tomlkit.dumps(data)
    except (TypeError, ValueError, TOMLKitError) as exc:
        raise ConfigError(f"config.toml cannot hold this value ({exc})") from None


def validate(raw: MutableMapping[str, Any]) -> Config:
    """The Config that `raw` would give; ConfigError names the offending key."""
    return parse_config(tomllib.loads(dump_toml(raw)))


def save(raw: MutableMapping[str, Any], path: Path | None = None) -> Config:
    """Validate, then write `raw` atomically; returns the new Config."""
    path = path or config_path()
    config = validate(raw)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(path, dump_toml(raw))
    return config
