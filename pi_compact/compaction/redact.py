"""Redacting secrets before session text leaves the machine for a remote summarizer.

Common shapes only: provider API keys, bearer tokens, private key blocks, passwords in URLs and
``.env``-style assignments of secret-looking names. On by default (``redactSecrets`` in the settings).
"""

from __future__ import annotations

import re

REDACTED = "[REDACTED]"

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # A block ends at its END line; the scan for it also stops at the next BEGIN, so text with many BEGIN lines
    # and no END stays linear.
    (re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?:(?!-----BEGIN ).)*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
     REDACTED),
    (re.compile(r"\b(sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,})"), REDACTED),
    (re.compile(r"\b(AKIA[0-9A-Z]{16})\b"), REDACTED),
    (re.compile(r"\b(gh[pousr]_[A-Za-z0-9]{20,})\b"), REDACTED),
    (re.compile(r"\b(xox[abpr]-[A-Za-z0-9\-]{10,})\b"), REDACTED),
    (re.compile(r"\b(AIza[0-9A-Za-z_\-]{30,})\b"), REDACTED),
    (re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-+/=]{12,}"), r"\1" + REDACTED),
    # The lookbehind starts a scheme only at the start of a word: without it every character of a long
    # base64 or minified line started a scan to the line's end, quadratic in its length.
    (re.compile(r"(?<![a-z0-9+.\-])([a-z][a-z0-9+.\-]*://[^\s:/@]+:)[^\s@/]+(@)", re.I), r"\1" + REDACTED + r"\2"),
    (
        re.compile(
            r"(?im)^(\s*(?:export\s+)?[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|APIKEY|PRIVATE_KEY|ACCESS_KEY)"
            r"[A-Z0-9_]*\s*[=:]\s*)(\S.*)$"
        ),
        r"\1" + REDACTED,
    ),
)


def redact_secrets(text: str) -> str:
    """``text`` with every secret-looking span replaced by ``[REDACTED]``."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text
