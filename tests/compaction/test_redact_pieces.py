"""Redaction never fails on text built from its own patterns' pieces.

Redaction runs on every message before it leaves for a remote summarizer, with nothing around it to catch an
error: one exception there stops compaction of the whole session. So rather than a list of known inputs, the text
here is drawn from the pieces the patterns look for (secret names, separators, quotes, backslash runs, PEM
armour, flags of commands that take a password, URLs with user info, INI sections) glued in any order.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction.redact import REDACTED, redact_secrets

PIECES = [
    "password", "DB_PASSWORD", "api_key", "apiKey", "token", "auth", "secret", "client-key-data", "$token", "@pass",
    "=", ":", "=>", ":=", "==", " ", "\t", "\n", "\r\n", '"', "'", "`", "\\", "\\\\", '\\"', "\\n", "\\x41", "\\u0041",
    "#", ",", ";", ")", "]", "}", "{", "[", "(", "<",
    "hunter2", "sk-ant-api03-AbCdEfGhIjKlMnOpQrSt", "ghp_abcdefghijklmnopqrstuvwxyz0123", "dXNlcjpwYXNz==",
    "if not", "export ", "name:", "value:", "- name: ", "ParameterKey=", "ParameterValue=", "[section]",
    "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "Proc-Type: 4,ENCRYPTED", "MIIEowIBAAKCAQEA",
    "mysql -p", "sshpass -p ", "redis-cli -a ", "docker login -p ", "--password ", "-u user:", "Bearer ",
    "Authorization: ", "postgres://admin:", "@db:5432/app", "machine h login u password ", "https://hooks.",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=24).map("".join))
def test_no_text_of_the_patterns_pieces_makes_redaction_fail(text: str) -> None:
    redacted = redact_secrets(text)
    assert isinstance(redacted, str)
    assert redact_secrets(redacted).count(REDACTED) >= redacted.count(REDACTED)


@given(st.sampled_from(["password", "token", "api_key", "secret"]), st.sampled_from(["=", ": ", '": ', "= "]),
       st.sampled_from(["\\n", "\\t", "\\x41", "\\u0041", "\\\\"]), st.from_regex(r"[a-z0-9]{0,12}", fullmatch=True))
def test_a_value_that_opens_with_an_escape_is_read_as_a_value(name: str, separator: str, escape: str, rest: str) -> None:
    # ``token: \x41bc`` once raised ValueError: the branch for JSON inside a JSON string took any value opening
    # with a backslash for an escaped quote and looked for a quote it does not have.
    text = f"{name}{separator}{escape}{rest} end"
    assert redact_secrets(text).endswith(" end")
