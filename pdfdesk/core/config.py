"""User configuration: `<config dir>/config.toml`, validated, with one process-wide current value.

Front ends (CLI flags, MCP `--root`, the settings dialog) build a `Config` and install it with
`set_config`; the tools read it with `get_config`. Bad values fail with a message naming the key.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import threading
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdfdesk.core import paths

MB = 1024 * 1024
# A settings file is a few hundred bytes; anything past this is not one (reading a 100 MB file
# took tens of seconds and half a gigabyte before every command).
MAX_CONFIG_BYTES = 1 * MB


class ConfigError(ValueError):
    """config.toml holds a value pdfdesk cannot use; the message names the key and the fix."""


# Model providers pdfdesk knows without configuration ("gemini" is another name for "google"); the
# local ones are OpenAI-compatible servers at their usual addresses. [providers.NAME] adds others.
BUILTIN_PROVIDERS = ("openai", "anthropic", "google", "gemini", "ollama", "lmstudio", "llamacpp", "vllm")


# The static embedding model shipped inside the package (resources/models): semantic search works
# offline from the first start.
BUILTIN_EMBEDDING_MODEL = "pdfdesk/minilm-static-256"


@dataclass(frozen=True)
class ProviderSettings:
    """[providers.NAME]: where a provider answers, and whether its models take images."""

    base_url: str | None = None
    images: bool | None = None          # None = the provider's default (local servers: no)


@dataclass(frozen=True)
class Config:
    """Every setting the core and tools consult."""

    max_file_mb: float = 500.0          # reading tools refuse bigger files (too_large)
    max_download_mb: float = 50.0       # URL fetches stop past this many bytes
    pdf_max_bytes_mb: float = 10.0      # default byte cap of the `pdf` analyze tool
    pdf_max_pages: int = 20             # pages the `pdf` tool's extraction fallback sends
    tool_timeout_s: float = 60.0        # one CLI tool call, in its worker process, before it is stopped
    workspace_only: bool = False        # only files under `roots` may be opened
    roots: tuple[str, ...] = ()
    allow_remote: bool = True           # False = sandbox: URLs are refused (remote_disabled)
    allow_private_addresses: bool = False  # let URLs reach loopback/private/link-local hosts
    annotate_writes: bool = True        # tools may add, change and export review notes (`pdfdesk mcp` turns it off)
    fetch_timeout_s: float = 20.0
    max_redirects: int = 3
    semantic: bool = True               # use an embedding model when one is available
    embedding_model: str = BUILTIN_EMBEDDING_MODEL  # or a downloaded org/model (pdfdesk model fetch)
    embedding_model_path: str | None = None  # a local model folder instead of a download
    ocr: bool = True                    # recognise scanned pages' text with Tesseract while indexing
    ocr_languages: str = ""             # Tesseract's names joined by "+" ("deu+eng"); "" = locale + English
    agent_model: str | None = None      # "provider/model" the chat uses; None = a key decides, else offline
    pdf_model: str | None = None        # the `pdf` tool's primary model
    pdf_model_fallbacks: tuple[str, ...] = ()
    image_model: str | None = None      # tried after the pdf models; takes page images
    providers: dict[str, ProviderSettings] = field(default_factory=dict)
    agent_max_turns: int = 8            # model calls per answer
    agent_max_tool_calls: int = 20      # tool calls per answer
    model_timeout_s: float = 120.0      # one model request
    model_max_retries: int = 2          # retries on 429/5xx/connection failures, with backoff
    team_database: str = ""             # a libpq connection string (no password); "" = notes and library stay local
    team_matter: str = ""               # the matter new notes go to when a document is in several
    extra: dict[str, Any] = field(default_factory=dict)  # sections owned by later layers

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * MB)

    @property
    def max_download_bytes(self) -> int:
        return int(self.max_download_mb * MB)

    def replace(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)


# The built-in model's name has the same org/model shape as the downloadable ones.
EMBEDDING_MODEL_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")
OCR_LANGUAGES = re.compile(r"^\s*([a-z]{3}(_[a-z]{3,4})?(\s*[+,]\s*|\s+)?)*$")  # "deu+eng", or empty


@dataclass(frozen=True)
class Setting:
    """One key of config.toml: where it lives, what it holds and means, which values are valid.

    The loader validates against these and the settings dialog builds its fields from them, so a
    key added here is checked and editable at once. `kind` says what a value is: number (any
    finite number in low < value <= high), integer (low <= value <= high), flag, text, model (a
    provider/model name), model_chain (a model or {primary, fallbacks}), folders, folder."""

    section: str
    key: str
    field: str                      # the Config attribute it sets
    kind: str
    description: str                # what it does, as the settings dialog labels it
    low: float | None = None
    high: float | None = None
    unit: str = ""
    expects: str = ""               # the valid values in words, for error messages
    valid: Callable[[Any], bool] | None = None

    @property
    def types(self) -> tuple[type, ...]:
        return _KIND_TYPES[self.kind]

    @property
    def default(self) -> Any:
        return getattr(_DEFAULTS, self.field)

    def accepts(self, value: Any) -> bool:
        """Whether a value of the right type is in range. A chained comparison, so NaN, inf (TOML's
        `inf`, or `1e400` read as inf) and integers too big for a float all fail it."""
        if self.kind == "number" and not self.low < value <= self.high:
            return False
        if self.kind == "integer" and not self.low <= value <= self.high:
            return False
        return self.valid is None or self.valid(value)


_DEFAULTS = Config()
_KIND_TYPES: dict[str, tuple[type, ...]] = {
    "number": (int, float), "integer": (int,), "flag": (bool,), "text": (str,), "folder": (str,),
    "model": (str,), "model_chain": (str, dict), "folders": (list,),
}


def _number(section: str, key: str, field_name: str, description: str, high: float, unit: str,
            expects: str = "") -> Setting:
    return Setting(section, key, field_name, "number", description, 0, high, unit,
                   expects or f"a number greater than 0 and at most {high:,} ({unit})")


def _integer(section: str, key: str, field_name: str, description: str, low: int, high: int) -> Setting:
    return Setting(section, key, field_name, "integer", description, low, high,
                   expects=f"a whole number from {low} to {high}")


_PASSWORD_IN_URI = re.compile(r"^postgres(?:ql)?://[^/@?#]*:[^/@?#]*@", re.IGNORECASE)
_PASSWORD_IN_PARAMS = re.compile(r"(?:^|[\s?&])password\s*=", re.IGNORECASE)


def _holds_password(conninfo: str) -> bool:
    """Whether a connection string carries a password, which must never sit in config.toml."""
    return bool(_PASSWORD_IN_URI.match(conninfo.strip()) or _PASSWORD_IN_PARAMS.search(conninfo))


# Finite and sane: inf, NaN or 1e400 would reach the code as numbers and fail there, not here.
SCHEMA: tuple[Setting, ...] = (
    Setting("models", "agent", "agent_model", "model", "Chat agent model"),
    Setting("models", "pdfModel", "pdf_model", "model_chain", "PDF analysis model"),
    Setting("models", "imageModel", "image_model", "model", "Image model"),
    _number("limits", "maxFileMb", "max_file_mb", "Largest file the tools open", 1_000_000, "MB"),
    _number("limits", "maxDownloadMb", "max_download_mb", "Largest download", 100_000, "MB"),
    _number("limits", "pdfMaxBytesMb", "pdf_max_bytes_mb", "PDF analysis: bytes sent", 1_000, "MB"),
    _integer("limits", "pdfMaxPages", "pdf_max_pages", "PDF analysis: pages sent", 1, 1000),
    _number("limits", "toolTimeoutSeconds", "tool_timeout_s", "Command-line tool call timeout", 1e9, "seconds",
            "a finite number greater than 0 (at most 1e9)"),
    _integer("agent", "maxTurns", "agent_max_turns", "Agent: model calls per answer", 1, 50),
    _integer("agent", "maxToolCalls", "agent_max_tool_calls", "Agent: tool calls per answer", 0, 200),
    _number("agent", "timeoutSeconds", "model_timeout_s", "Agent: model request timeout", 3_600, "seconds"),
    _integer("agent", "maxRetries", "model_max_retries", "Agent: retries of a failed model request", 0, 10),
    Setting("files", "workspaceOnly", "workspace_only", "flag",
            "Only open files inside these folders (workspace-only)"),
    Setting("files", "roots", "roots", "folders", "Allowed folders", expects="a list of folder paths",
            valid=lambda v: all(isinstance(x, str) and x for x in v)),
    Setting("network", "allowRemote", "allow_remote", "flag", "Allow opening http(s) URLs"),
    Setting("network", "allowPrivateAddresses", "allow_private_addresses", "flag",
            "Allow URLs to local-network and loopback addresses"),
    _number("network", "timeoutSeconds", "fetch_timeout_s", "Download timeout", 3_600, "seconds"),
    _integer("network", "maxRedirects", "max_redirects", "Redirects followed per download", 0, 10),
    Setting("search", "semantic", "semantic", "flag", "Search by meaning too (embedding model)"),
    Setting("search", "embeddingModel", "embedding_model", "text", "Embedding model",
            expects='a model name like "pdfdesk/minilm-static-256" (built in) or "org/model"',
            valid=lambda v: EMBEDDING_MODEL_NAME.match(v) is not None),
    Setting("search", "embeddingModelPath", "embedding_model_path", "folder", "Local model folder",
            expects="a folder path", valid=lambda v: bool(v.strip())),
    Setting("ocr", "enabled", "ocr", "flag", "Recognise text on scanned pages (OCR)"),
    Setting("ocr", "languages", "ocr_languages", "text", "OCR languages",
            expects='Tesseract language names joined by "+", like "deu+eng" (empty: the system language and English)',
            valid=lambda v: OCR_LANGUAGES.match(v) is not None),
    Setting("team", "database", "team_database", "text", "Team database (PostgreSQL connection string)",
            expects='a libpq connection string without a password, like "postgresql://alice@db.example/review" '
                    '(the password comes from the system keyring or ~/.pgpass)',
            valid=lambda v: not _holds_password(v)),
    Setting("team", "matter", "team_matter", "text", "Matter new notes go to (when a document is in several)",
            expects="a matter's name", valid=lambda v: len(v) <= 200),
)
_BY_KEY = {(setting.section, setting.key): setting for setting in SCHEMA}
_OWNED_SECTIONS = {setting.section for setting in SCHEMA} | {"providers"}
_MODEL_HINT = 'a model name like "openai/gpt-4o-mini" (provider/model)'
_PROVIDER_KEYS = {"baseUrl": "an http(s):// URL", "images": "true or false"}


def _check_model_name(value: object, where: str, providers: dict[str, ProviderSettings]) -> str:
    if not isinstance(value, str) or "/" not in value or not all(p.strip() for p in value.split("/", 1)):
        raise ConfigError(f"{where} must be {_MODEL_HINT}, not {value!r}")
    provider = value.split("/", 1)[0].strip().lower()
    if provider not in BUILTIN_PROVIDERS and provider not in providers:
        known = ", ".join(sorted(set(BUILTIN_PROVIDERS) | set(providers)))
        raise ConfigError(f"{where} names the unknown provider {provider!r} (known: {known}; "
                          f"add [providers.{provider}] with baseUrl for another OpenAI-compatible server)")
    return value.strip()


def _split_pdf_model(value: str | dict[str, Any], source: str) -> tuple[str | None, tuple[str, ...]]:
    """pdfModel = "p/m", or a table {primary = "p/m", fallbacks = ["p/m", ...]}."""
    if isinstance(value, str):
        return value, ()
    unknown = set(value) - {"primary", "fallbacks"}
    if unknown:
        raise ConfigError(f"{source}: unknown setting models.pdfModel.{sorted(unknown)[0]} (known: fallbacks, primary)")
    fallbacks = value.get("fallbacks", [])
    if not isinstance(fallbacks, list):
        raise ConfigError(f"{source}: models.pdfModel.fallbacks must be a list of model names, not {fallbacks!r}")
    return value.get("primary"), tuple(fallbacks)


def _parse_providers(content: dict[str, Any], source: str) -> dict[str, ProviderSettings]:
    """[providers.NAME] tables: baseUrl and images, checked key by key."""
    providers: dict[str, ProviderSettings] = {}
    for name, table in content.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: [providers.{name}] must be a table (e.g. baseUrl = \"http://localhost:8000/v1\")")
        if not name.replace("-", "").replace("_", "").isalnum() or name != name.lower():
            raise ConfigError(f"{source}: provider name {name!r} must be lower-case letters, digits, - or _")
        for key, value in table.items():
            if key not in _PROVIDER_KEYS:
                raise ConfigError(f"{source}: unknown setting providers.{name}.{key} (known: baseUrl, images)")
            ok = (isinstance(value, str) and value.lower().startswith(("http://", "https://")) and len(value) > 8) \
                if key == "baseUrl" else isinstance(value, bool)
            if not ok:
                raise ConfigError(f"{source}: providers.{name}.{key} must be {_PROVIDER_KEYS[key]}, not {value!r}")
        if name not in BUILTIN_PROVIDERS and "baseUrl" not in table:
            raise ConfigError(f"{source}: [providers.{name}] needs baseUrl (the address of its OpenAI-compatible API)")
        providers[name] = ProviderSettings(base_url=table.get("baseUrl", "").rstrip("/") or None,
                                           images=table.get("images"))
    return providers


def _check_models(values: dict[str, Any], source: str) -> None:
    """Model names need a provider pdfdesk knows: checked once [providers] has been read."""
    providers = values.get("providers", {})
    if isinstance(values.get("pdf_model"), dict):
        values["pdf_model"], values["pdf_model_fallbacks"] = _split_pdf_model(values["pdf_model"], source)
    for field_name, key in (("agent_model", "models.agent"), ("pdf_model", "models.pdfModel.primary"),
                            ("image_model", "models.imageModel")):
        if values.get(field_name) is not None:
            values[field_name] = _check_model_name(values[field_name], f"{source}: {key}", providers)
    values["pdf_model_fallbacks"] = tuple(
        _check_model_name(name, f"{source}: models.pdfModel.fallbacks", providers)
        for name in values.get("pdf_model_fallbacks", ()))


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
        if section == "providers":
            values["providers"] = _parse_providers(content, source)
            continue
        for key, value in content.items():
            setting = _BY_KEY.get((section, key))
            if setting is None:
                known = ", ".join(sorted(s.key for s in SCHEMA if s.section == section))
                raise ConfigError(f"{source}: unknown setting {section}.{key} (known: {known})")
            types = setting.types
            if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
                wanted = " or ".join(t.__name__ for t in types)
                raise ConfigError(f"{source}: {section}.{key} must be {wanted}, not {value!r}")
            if not setting.accepts(value):
                raise ConfigError(f"{source}: {section}.{key} must be {setting.expects}, not {value!r}")
            values[setting.field] = tuple(value) if isinstance(value, list) else value
    _check_models(values, source)
    return Config(**values, extra=extra)


def _file_kind(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def read_config_text(path: Path) -> str | None:
    """The text of a config file, or None when there is none.

    Opened without blocking and checked with fstat before anything is read, and never more than
    MAX_CONFIG_BYTES + 1 bytes read: a FIFO in its place would hang every command, a link to
    /dev/zero would fill the memory, and a huge file would delay every start."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:  # also a link pointing nowhere: no file, so the defaults
        return None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc}); make it readable or remove it") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{path}: is {_file_kind(info.st_mode)}, not a settings file; replace it with a "
                              "plain text file (or remove it to use the defaults)")
        if info.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: is {info.st_size / MB:,.1f} MB; a settings file is at most "
                              f"{MAX_CONFIG_BYTES // MB} MB, so this is not one (remove it or keep only the settings)")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_CONFIG_BYTES:  # the file may grow between fstat and read
            chunk = os.read(fd, MAX_CONFIG_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except BlockingIOError:
        raise ConfigError(f"{path}: cannot be read without waiting; replace it with a plain text file") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if size > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: is larger than {MAX_CONFIG_BYTES // MB} MB, so it is not a settings file")
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML (not UTF-8 text: {exc.reason} at byte {exc.start})") from None


def load_config(path: Path | None = None) -> Config:
    """Read config.toml (defaults when it does not exist)."""
    path = path or config_path()
    text = read_config_text(path)
    if text is None:
        return Config()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from exc
    _refuse_secrets(data, str(path))
    return parse_config(data, str(path))


def _refuse_secrets(data: Any, source: str, where: str = "") -> None:
    """API keys never live in a plain file: a config.toml holding one is refused, naming the key."""
    from pdfdesk.core.redact import looks_like_secret

    if isinstance(data, dict):
        for key, value in data.items():
            _refuse_secrets(value, source, f"{where}.{key}" if where else str(key))
            if isinstance(value, str) and looks_like_secret(str(key), value):
                raise ConfigError(f"{source}: {where + '.' if where else ''}{key} holds what looks like an API key or "
                                  "token. Keys are kept in the system keyring (settings) or in an environment "
                                  "variable such as OPENAI_API_KEY, never in config.toml; remove it from the file.")
    elif isinstance(data, list):
        for item in data:
            _refuse_secrets(item, source, where)


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
