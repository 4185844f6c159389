"""Secret redaction before text leaves for a remote summarizer: each shape of secret, and what is left alone."""

from __future__ import annotations

import time

import pytest

from pi_compact.compaction.redact import REDACTED, redact_secrets

PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----"


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param("key sk-ant-api03-AbCdEfGhIjKlMnOpQrSt done", f"key {REDACTED} done", id="anthropic-key"),
        pytest.param("OPENAI sk-proj-abcdefghijklmnop1234", f"OPENAI {REDACTED}", id="openai-project-key"),
        pytest.param("aws AKIAABCDEFGHIJKLMNOP!", f"aws {REDACTED}!", id="aws-access-key"),
        pytest.param("ghp_abcdefghijklmnopqrstuvwxyz123456", REDACTED, id="github-token"),
        pytest.param("xoxb-1234567890-abcdef", REDACTED, id="slack-token"),
        pytest.param("AIzaSyA-abcdefghijklmnopqrstuvwxyz12345", REDACTED, id="google-key"),
        pytest.param("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc", f"Authorization: Bearer {REDACTED}",
                     id="bearer-token"),
        pytest.param("postgres://admin:hunter2@db:5432/app", f"postgres://admin:{REDACTED}@db:5432/app",
                     id="password-in-url"),
        pytest.param("export DB_PASSWORD=hunter2", f"export DB_PASSWORD={REDACTED}", id="env-password"),
        pytest.param("  GITHUB_TOKEN: abc def", f"  GITHUB_TOKEN: {REDACTED}", id="yaml-token"),
        pytest.param(f"before\n{PRIVATE_KEY}\nafter", f"before\n{REDACTED}\nafter", id="private-key-block"),
    ],
)
def test_secrets_are_redacted(text, expected) -> None:
    assert redact_secrets(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("def task_sk(): return 1", id="short-sk-word"),
        pytest.param("https://example.com/path?q=1", id="plain-url"),
        pytest.param("the password is checked in auth.py", id="prose"),
        pytest.param("TOKEN_COUNT is computed", id="name-without-assignment"),
        pytest.param("编译器错误 sk-", id="cjk"),
    ],
)
def test_ordinary_text_is_left_alone(text) -> None:
    assert redact_secrets(text) == text


def test_every_secret_in_a_transcript() -> None:
    text = "line sk-ant-api03-AbCdEfGhIjKlMnOpQrSt\nAPI_KEY=abc123\nok"
    assert redact_secrets(text) == f"line {REDACTED}\nAPI_KEY={REDACTED}\nok"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("A1b2" * 250_000, id="base64-line"),
        pytest.param("y" * 1_000_000, id="one-letter-run"),
        pytest.param("-----BEGIN RSA PRIVATE KEY-----\n" * 30_000, id="begin-lines-without-end"),
    ],
)
def test_redaction_is_linear_in_the_text(text) -> None:
    """Regression: the URL pattern started a scan at every letter of a long line (a 1 MB base64 blob, as
    tool results often hold, took hours); the private-key pattern rescanned to the end after every BEGIN."""
    started = time.perf_counter()
    assert redact_secrets(text) == text
    assert time.perf_counter() - started < 3
