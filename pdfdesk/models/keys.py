"""API keys: read from the environment or the OS keyring, written only to the keyring.

Keys never touch a file pdfdesk writes, and `redact` scrubs them from any text (errors, logs,
tool results) before it leaves a provider module.
"""

from __future__ import annotations

import logging
import os
import re

from pdfdesk.core.redact import redact
from pdfdesk.models.providers import provider_class

log = logging.getLogger(__name__)

SERVICE = "pdfdesk"

_IN_USE: set[str] = set()  # keys this process has read or stored: `scrub` hides them even once gone from the env


def _remember(key: str) -> str:
    _IN_USE.add(key)
    return key


class KeyStoreError(RuntimeError):
    """The OS keyring cannot store the key (no backend, locked, refused)."""


def canonical_provider(provider: str) -> str:
    provider = provider.strip().lower()
    return "google" if provider == "gemini" else provider


def env_vars(provider: str) -> tuple[str, ...]:
    """The variables that may hold this provider's key: its class's own (OPENAI_API_KEY, ...), then
    PDFDESK_<NAME>_API_KEY, the one way to give a local server a key."""
    provider = canonical_provider(provider)
    custom = f"PDFDESK_{re.sub(r'[^A-Z0-9]', '_', provider.upper())}_API_KEY"
    return (*provider_class(provider).key_env_vars, custom)


def _keyring_get(provider: str) -> str | None:
    try:
        import keyring

        key = keyring.get_password(SERVICE, provider) or None
        return _remember(key) if key else None
    except Exception as exc:  # no backend, locked store, D-Bus gone: the key is just not there
        log.debug("keyring lookup for %s failed: %s", provider, type(exc).__name__)
        return None


def get_api_key(provider: str) -> str | None:
    """The key for `provider`: environment first, then the OS keyring; None when there is none."""
    provider = canonical_provider(provider)
    for name in env_vars(provider):
        value = os.environ.get(name, "").strip()
        if value:
            return _remember(value)
    return _keyring_get(provider)


def key_source(provider: str) -> str | None:
    """Where the key comes from ("env:OPENAI_API_KEY" or "keyring"), for the settings dialog."""
    provider = canonical_provider(provider)
    for name in env_vars(provider):
        if os.environ.get(name, "").strip():
            return f"env:{name}"
    return "keyring" if _keyring_get(provider) else None


def set_api_key(provider: str, key: str | None) -> None:
    """Store (or, with an empty key, delete) a provider's key in the OS keyring."""
    import keyring
    import keyring.errors

    provider = canonical_provider(provider)
    try:
        if key and key.strip():
            keyring.set_password(SERVICE, provider, _remember(key.strip()))
        else:
            try:
                keyring.delete_password(SERVICE, provider)
            except keyring.errors.PasswordDeleteError:
                pass
    except Exception as exc:
        raise KeyStoreError(
            f"The system keyring could not store the {provider} key ({type(exc).__name__}). "
            f"Set {env_vars(provider)[0]} in the environment instead."
        ) from None


def known_secrets() -> list[str]:
    """Every API key this process may hold: those it read or stored, and any `*_API_KEY` variable
    in the environment (other vendors' too), longest first so no key is left half-replaced."""
    env = (value.strip() for name, value in os.environ.items() if name.upper().endswith("_API_KEY"))
    return sorted({*_IN_USE, *(v for v in env if len(v) >= 8)}, key=len, reverse=True)


def scrub(text: str) -> str:
    """`text` without any key this process knows (for crash reports, logs and unexpected errors,
    where the provider whose key might be quoted is not known). Reads no keyring."""
    return redact(text, *known_secrets())
