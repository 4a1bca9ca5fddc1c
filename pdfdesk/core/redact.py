"""Keep API keys and tokens out of logs, crash reports and tool results.

Two nets: exact values (every secret this process knows: registered ones, API-key and token
variables of the environment, and the model keys once `pdfdesk.models.keys` is loaded), and
shapes (OpenAI/Anthropic `sk-…`, Google `AIza…`, GitHub, Slack, AWS and Hugging Face tokens,
`Bearer …`, `api_key=…`, `?key=…`). Exact values are scrubbed everywhere; shapes are scrubbed from
text pdfdesk writes itself (logs, crash reports, error messages), not from a document's own words.
This is the one mask: a provider's error, a log line, a crash report and a tool card all hide a
secret the same way, so a reader learns one sign for "something was hidden here".
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
from typing import Any

MASK = "***"
_MIN_SECRET = 8
_MIN_GIVEN_SECRET = 4  # a value the caller knows is a secret is hidden however short
_SECRET_VARIABLE = re.compile(r"(API_?KEY|_TOKEN|_SECRET|_PASSWORD|_PASSWD)$", re.IGNORECASE)
_SHAPES = re.compile(
    r"\b(?:sk-(?:ant-|proj-|svcacct-)?[A-Za-z0-9_\-]{16,}"
    r"|AIza[0-9A-Za-z_\-]{20,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}"
    r"|xox[abpr]-[A-Za-z0-9\-]{10,}"
    r"|AKIA[0-9A-Z]{16}"
    r"|hf_[A-Za-z0-9]{30,})"
)
_LABELLED = re.compile(
    r"(?i)((?:api[_-]?key|x-api-key|x-goog-api-key|authorization|access[_-]?token|client[_-]?secret|secret|"
    r"token|password)[\"']?\s*[:=]\s*[\"']?(?:bearer\s+)?)(?!bearer\s)([^\s\"'&,;}\]]{6,})"
)
_QUERY = re.compile(
    r"(?i)([?&](?:key|api_?key|token|access_token|sig|signature|x-amz-signature|x-amz-credential|x-goog-signature)=)"
    r"([^&\s#\"']+)"
)
_BEARER = re.compile(r"(?i)(\bbearer\s+)([A-Za-z0-9._~+/=\-]{12,})")

_registered: set[str] = set()
_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """Remember a secret (a key read from the keyring, a token typed in a dialog) to scrub it."""
    if value and len(value.strip()) >= _MIN_SECRET:
        with _lock:
            _registered.add(value.strip())


def known_secrets() -> list[str]:
    """Every secret value this process knows, longest first (so none is left half-replaced)."""
    values = {v.strip() for k, v in os.environ.items() if _SECRET_VARIABLE.search(k) and len(v.strip()) >= _MIN_SECRET}
    with _lock:
        values |= _registered
    agent_keys = sys.modules.get("pdfdesk.models.keys")  # never imported from here: core sits below models
    if agent_keys is not None and hasattr(agent_keys, "known_secrets"):
        try:
            values |= {v for v in agent_keys.known_secrets() if v and len(v) >= _MIN_SECRET}
        except Exception:
            pass
    return sorted(values, key=len, reverse=True)


_SECRET_NAME = re.compile(r"(?i)^(api[_-]?key|apikey|.*[_-](api[_-]?key|token|secret|password)|token|secret|password)$")


def looks_like_secret(name: str, value: str) -> bool:
    """A setting that holds a credential: named like one with a real value, or shaped like a key."""
    value = value.strip()
    if _SHAPES.search(value):
        return True
    return bool(_SECRET_NAME.match(name)) and len(value) >= _MIN_SECRET and not value.isupper()


def scrub_known(text: str, secrets: list[str] | None = None) -> str:
    """`text` without any known secret value."""
    for secret in known_secrets() if secrets is None else secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def redact(text: str, *secrets: str | None) -> str:
    """`text` without known secrets, without the `secrets` given (say, the key a provider request
    used), and without anything shaped like a key or token."""
    given = {s.strip() for s in secrets if s and len(s.strip()) >= _MIN_GIVEN_SECRET}
    text = scrub_known(text, sorted(given | set(known_secrets()), key=len, reverse=True))
    text = _SHAPES.sub(MASK, text)
    text = _BEARER.sub(lambda m: m.group(1) + MASK, text)
    text = _LABELLED.sub(lambda m: m.group(1) + MASK, text)
    return _QUERY.sub(lambda m: m.group(1) + MASK, text)


def scrub_value(value: Any, secrets: list[str], shapes: bool = False) -> Any:
    """A JSON-like value with every string scrubbed (known secrets; with `shapes`, key shapes too)."""
    if isinstance(value, str):
        return redact(value) if shapes else scrub_known(value, secrets)
    if isinstance(value, dict):
        return {k: scrub_value(v, secrets, shapes) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_value(v, secrets, shapes) for v in value]
    return value


_installed = False


def install_log_redaction() -> None:
    """Scrub every log record, whoever logs it and whichever handler writes it: the record factory
    formats the message (and any traceback) once, redacted, before a handler sees it."""
    global _installed
    with _lock:
        if _installed:
            return
        previous = logging.getLogRecordFactory()

        def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = previous(*args, **kwargs)
            try:
                message = record.getMessage()
            except Exception:  # a bad format string: leave it to the handler to report
                return record
            record.msg, record.args = redact(message), None
            if record.exc_info:
                record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
            if record.stack_info:
                record.stack_info = redact(record.stack_info)
            return record

        logging.setLogRecordFactory(factory)
        _installed = True
