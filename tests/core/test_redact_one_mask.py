"""One mask for every secret: the model keys' `redact` is core's, and redacting twice changes
nothing (crash reports pass through two nets). The chat pane's use: tests/gui/test_chat_pane_citations.py."""

from __future__ import annotations

import pytest

from pdfdesk.core import redact as core_redact
from pdfdesk.core.redact import MASK, redact
from pdfdesk.models import keys


def test_the_model_keys_use_the_core_redaction():
    assert keys.redact is core_redact.redact
    assert keys.scrub("the key sk-proj-" + "x" * 20 + " failed") == f"the key {MASK} failed"


def test_a_secret_given_by_the_caller_is_hidden_however_short():
    assert redact("refused key abcd1 for user", "abcd1") == f"refused key {MASK} for user"
    assert redact("ab is too short to be a secret", "ab") == "ab is too short to be a secret"


@pytest.mark.parametrize("text", [
    "Authorization: Bearer abcdefghijklmnop12",
    'api_key = "hunter2-is-my-key"',
    "GET /v1/models?key=AIzaSy01234567890123456789&alt=sse",
])
def test_redacting_twice_changes_nothing(text):
    once = redact(text)
    assert MASK in once and redact(once) == once

