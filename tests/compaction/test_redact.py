"""Secret redaction before text leaves for a remote summarizer: a corpus of secret shapes that must go and of
look-alikes that must stay (``data/redaction_corpus.json``), the exact output of a few, and linear time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pi_compact.compaction.redact import REDACTED, redact_secrets

CORPUS = json.loads((Path(__file__).parent / "data" / "redaction_corpus.json").read_text(encoding="utf-8"))
PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----"


def test_the_corpus_is_big_enough() -> None:
    assert len(CORPUS["secrets"]) >= 50 and len(CORPUS["lookalikes"]) >= 50
    ids = [case["id"] for case in CORPUS["secrets"] + CORPUS["lookalikes"]]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case", CORPUS["secrets"], ids=lambda case: case["id"])
def test_every_secret_shape_is_redacted(case: dict) -> None:
    redacted = redact_secrets(case["text"])
    assert case["secret"] not in redacted and REDACTED in redacted
    assert case.get("keep", "") in redacted  # what surrounds the secret stays readable


@pytest.mark.parametrize("case", CORPUS["lookalikes"], ids=lambda case: case["id"])
def test_every_look_alike_survives(case: dict) -> None:
    assert redact_secrets(case["text"]) == case["text"]


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param("key sk-ant-api03-AbCdEfGhIjKlMnOpQrSt done", f"key {REDACTED} done", id="anthropic-key"),
        pytest.param("aws ASIAABCDEFGHIJKLMNOP!", f"aws {REDACTED}!", id="aws-temporary-key"),
        pytest.param("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc", f"Authorization: Bearer {REDACTED}",
                     id="bearer-token"),
        pytest.param("Authorization: Basic dXNlcjpwYXNz", f"Authorization: Basic {REDACTED}", id="basic-auth"),
        pytest.param("postgres://admin:hunter2@db:5432/app", f"postgres://admin:{REDACTED}@db:5432/app",
                     id="password-in-url"),
        pytest.param("mongodb://root:pa/ss@mongo/admin", f"mongodb://root:{REDACTED}@mongo/admin", id="slash-in-url"),
        pytest.param("export DB_PASS=hunter2", f"export DB_PASS={REDACTED}", id="env-password"),
        pytest.param("  GITHUB_TOKEN: abc def", f"  GITHUB_TOKEN: {REDACTED}", id="yaml-token-to-line-end"),
        pytest.param('{"password": "x y", "user": "u"}', f'{{"password": "{REDACTED}", "user": "u"}}', id="json"),
        pytest.param("mysql --password s3cret -u root", f"mysql --password {REDACTED} -u root", id="flag"),
        pytest.param("AccountName=a;AccountKey=abc+/12==;EndpointSuffix=x",
                     f"AccountName=a;AccountKey={REDACTED};EndpointSuffix=x", id="azure"),
        pytest.param(f"before\n{PRIVATE_KEY}\nafter", f"before\n{REDACTED}\nafter", id="private-key-block"),
        pytest.param("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\nkqhkiG9w0BAQE\n\nnext paragraph",
                     f"{REDACTED}\n\nnext paragraph", id="private-key-without-end"),
        pytest.param("line sk-ant-api03-AbCdEfGhIjKlMnOpQrSt\nAPI_KEY=abc123\nok",
                     f"line {REDACTED}\nAPI_KEY={REDACTED}\nok", id="several"),
    ],
)
def test_what_is_left_around_a_secret(text: str, expected: str) -> None:
    assert redact_secrets(text) == expected


ADVERSARIAL = {
    "token-name-run": "TOKEN" * 10_000,
    "secret-name-run": "a_token_" * 6_000,
    "blank-lines": "\n" * 50_000,
    "spaces": " " * 50_000,
    "base64-line": "A1b2" * 250_000,
    "one-letter-run": "y" * 1_000_000,
    "begin-lines-without-end": "-----BEGIN RSA PRIVATE KEY-----\n" * 30_000,
    "urls-without-at": "a://b:" * 20_000,
    "quoted-urls-without-at": '"a://b:c' * 20_000,
    "assignments-without-values": "password=" * 20_000,
    "unterminated-quotes": 'password: "' * 20_000,
    "flags": "--password " * 20_000,
    "bearer-run": "Bearer " * 20_000,
    "authorization-run": "Authorization: " * 20_000,
    "dotted-name": "a." * 50_000 + "token: x",
    "dashes": "--a" * 30_000 + "-password x",
}


def test_redaction_is_linear_in_the_text() -> None:
    """Regression: the ``.env`` pattern was quadratic in a line's length (a 48 KB line of ``TOKEN``: 7.5 s;
    5,000 blank lines: 29 s); the URL pattern started a scan at every letter of a long line. Each text here
    takes milliseconds now and minutes to hours if a pattern backtracks; the child is given a generous
    two minutes (speed figures: ``bench/redact_bench.py``)."""
    script = (
        "import json, sys\n"
        "from pi_compact.compaction.redact import redact_secrets\n"
        "for name, text in json.load(sys.stdin).items():\n"
        "    assert redact_secrets(text) is not None, name\n"
        "print('done')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(ADVERSARIAL), capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.strip() == "done", done.stderr


# -- shape families (issue 23.6) --------------------------------------------------------------------------------

from .redaction_families import cases  # noqa: E402

FAMILY_CASES = {split: cases(split) for split in ("tuning", "held_out")}


@pytest.mark.parametrize("split", FAMILY_CASES)
def test_every_generated_secret_is_redacted(split: str) -> None:
    missed = [(case.family, case.text) for case in FAMILY_CASES[split][0] if case.secret in redact_secrets(case.text)]
    assert not missed, missed


@pytest.mark.parametrize("split", FAMILY_CASES)
def test_every_generated_look_alike_survives(split: str) -> None:
    changed = [(case.family, case.text, redact_secrets(case.text)) for case in FAMILY_CASES[split][1]
               if redact_secrets(case.text) != case.text]
    assert not changed, changed
