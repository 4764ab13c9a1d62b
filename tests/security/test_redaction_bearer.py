"""Redaction masks secrets, not ordinary words: "bearer" followed by a token is masked, followed
by a word ("a bearer credential", "Bearer tokens") it stays as written (issue 24)."""

from __future__ import annotations

import pytest

from agent_core.home.secrets import Redactor

MASK = "[REDACTED]"


@pytest.mark.parametrize(
    "text",
    [
        "Redaction must leave a bearer credential in a quoted sentence alone.",
        "Bearer authentication sends a token in the Authorization header.",
        "Bearer tokens expire; a bearer instrument is paid to whoever holds it.",
        "BEARER documentation, bearer. Bearer-token prose, the bearer's rights.",
        "The flagbearer 2024edition: not a header.",  # "bearer" inside a longer word
    ],
)
def test_bearer_followed_by_an_ordinary_word_stays_as_it_is(text: str) -> None:
    assert Redactor().redact_text(text) == text


@pytest.mark.parametrize(
    "token",
    [
        "abc.DEF-123_456",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
        "ghp_" + "A1b2" * 9,
        "0123456789abcdef0123",
        "dGhpcyBpcyBub3QgYSB3b3Jk",  # base64: mixed case, one digit
        "QWxhZGRpbjpvcGVuU2VzYW1l",  # base64 letters only, but mixed case
        "abcdefgh/ijklmnop+qrst==",
    ],
)
def test_bearer_followed_by_a_token_is_masked(token: str) -> None:
    masked = Redactor().redact_text(f"Authorization: Bearer {token}, sent")
    assert masked == f"Authorization: Bearer {MASK}, sent"


def test_bearer_at_the_start_of_a_text_is_masked_too() -> None:
    assert Redactor().redact_text("bearer 0123456789abcdef") == f"bearer {MASK}"
