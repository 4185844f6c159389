"""Redacting secrets before session text leaves the machine for a remote summarizer.

A hand-kept list, measured on a corpus of secret shapes and look-alikes (``tests/compaction/data/``, figures in
``bench/redact_bench.py``): tokens whose prefix names them (``sk-ant-``, ``AKIA``/``ASIA``, ``ghp_``,
``github_pat_``, ``hf_``, ``npm_``, JWTs, ...), private key blocks (PEM and PGP, with or without their END
line), passwords in URLs, ``Authorization`` headers, ``--password X`` flags, and values assigned to names
that say they hold a secret (``DB_PASS=``, ``"apiKey":``, ``AccountKey=``). Names are judged by their last
word, so ``max_tokens``, ``tokenizer`` or ``password_min_length`` are not secrets; values that are code, a
type or a reference (``tokenizer.encode(...)``, ``string``, ``$API_KEY``) are left alone.

Every pattern runs in time linear in the text: possessive quantifiers and bounded scans, never a nested
repetition that can backtrack (``tests/compaction/test_regex_budget.py`` feeds each one adversarial text).
On by default (``redactSecrets`` in the user's settings).
"""

from __future__ import annotations

import re

REDACTED = "[REDACTED]"

_PREFIXED = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:"
    r"sk-(?:ant|proj|svcacct|admin)-[A-Za-z0-9_\-]{16,}+"  # Anthropic (sk-ant-...), OpenAI (sk-proj-, ...)
    r"|sk-(?=[A-Za-z0-9_\-]*[0-9])[A-Za-z0-9_\-]{20,}+"  # OpenAI's older keys: a word with digits in it
    r"|[sr]k_(?:live|test)_[A-Za-z0-9]{10,}+|whsec_[A-Za-z0-9]{20,}+"  # Stripe
    r"|(?:AKIA|ASIA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])"  # AWS access keys, long-lived and temporary
    r"|gh[pousr]_[A-Za-z0-9]{20,}+|github_pat_[A-Za-z0-9_]{22,}+"  # GitHub
    r"|gl(?:pat|dt|rt|ptt)-[A-Za-z0-9_\-]{20,}+"  # GitLab
    r"|xox[abposre]-[A-Za-z0-9\-]{10,}+|xapp-[0-9]-[A-Za-z0-9\-]{10,}+"  # Slack
    r"|AIza[0-9A-Za-z_\-]{30,}+|GOCSPX-[A-Za-z0-9_\-]{20,}+|ya29\.[0-9A-Za-z_\-]{20,}+"  # Google
    r"|hf_[A-Za-z0-9]{30,}+|npm_[A-Za-z0-9]{36,}+|pypi-AgE[A-Za-z0-9_\-]{50,}+"  # Hugging Face, npm, PyPI
    r"|eyJ[A-Za-z0-9_\-]{8,}+\.eyJ[A-Za-z0-9_\-]{8,}+\.[A-Za-z0-9_\-]*+"  # JWTs
    r"|SG\.[A-Za-z0-9_\-]{20,}+\.[A-Za-z0-9_\-]{20,}+"  # SendGrid
    r"|do[por]_v1_[a-f0-9]{64}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}|dapi[a-f0-9]{32}"  # DigitalOcean, Shopify, Databricks
    r"|gsk_[A-Za-z0-9]{40,}+|r8_[A-Za-z0-9]{30,}+|lin_api_[A-Za-z0-9]{30,}+"  # Groq, Replicate, Linear
    r"|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|SK[0-9a-f]{32}(?![A-Za-z0-9])|key-[0-9a-f]{32}"  # Postman, Twilio, Mailgun
    r"|hv[sb]\.[A-Za-z0-9_\-]{24,}+|AGE-SECRET-KEY-1[0-9A-Z]{58}|ATATT3[A-Za-z0-9_\-=]{100,}+"  # Vault, age, Atlassian
    r"|sq0(?:atp|csp)-[0-9A-Za-z_\-]{22,}+|dp\.(?:st|pt|sa|ct)\.[A-Za-z0-9_\-]{40,}+"  # Square, Doppler
    r"|[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}(?![A-Za-z0-9_\-])"  # Telegram bots
    r")"
)
"""Tokens whose own prefix says what they are: redacted wherever they stand."""

_WEBHOOK = re.compile(
    r"(https://(?:hooks\.slack\.com/services|discord(?:app)?\.com/api/webhooks)/)[A-Za-z0-9_/\-]{8,400}+"
)

_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_BODY = re.compile(r"(?:(?:\r?\n|\\n)(?:[A-Za-z0-9+/=]{1,200}+|[A-Za-z\-]{1,40}+: [^\n\\]{0,200}+))*+")
"""What follows a BEGIN line with no END: base64 lines and ``Name: value`` headers, real or JSON-escaped
newlines between them."""

_URL_USERINFO = re.compile(
    r"(?<![A-Za-z0-9+.\-:/])([A-Za-z][A-Za-z0-9+.\-]{0,30}+://[^\s/?#@:\"'<>]{0,256}+:)([^\s@\"'<>]{1,256}+)(?=@)"
)
"""``scheme://user:password@host``; the password may hold ``/`` (unencoded, as people write it)."""

_BEARER = re.compile(r"(?i)(?<![A-Za-z0-9_])(bearer\s++)([A-Za-z0-9._~+/=\-]{12,}+)")
_HEADER = re.compile(
    r"(?i)(?<![A-Za-z0-9_\-])((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|cookie|set-cookie)"
    r"(\"?\s*+[:=]\s*+\"?(?:(?:basic|bearer|token|digest|negotiate|ntlm|apikey|sso-key)\s++)?)"
    r"([^\s\"',;]{1,4096}+)"
)
_FLAG = re.compile(
    r"(?i)(?<![A-Za-z0-9_\-])(--?(?:[a-z0-9]++-)*+(?:password|passwd|pass|pwd|passphrase|secret|token|api-?key"
    r"|access-key|secret-key|private-key|client-secret)(?:=|\s++))"
    r"(\"[^\"\n]{1,1024}+\"|'[^'\n]{1,1024}+'|[^\s\"'-][^\s\"']{0,1023}+)"
)
_CURL_USER = re.compile(r"(?<![A-Za-z0-9_\-])((?:-u|--user)\s++[^\s:\"']{1,256}+:)([^\s\"']{1,256}+)")
_NETRC = re.compile(r"(?<![A-Za-z0-9_])(machine\s++\S{1,256}+\s++login\s++\S{1,256}+\s++password\s++)(\S{1,1024}+)")

_SECRET_NAME_END = "|".join(
    f"(?<={word})" for word in ("token", "secret", "password", "passwd", "pass", "pwd", "phrase", "key",
                                "credential", "credentials", "signature", "sig", "key_base")
)
_ENV_LINE = re.compile(
    r"(?m)^([ \t]*+(?:export[ \t]++)?([A-Z][A-Z0-9_]{0,127}+)[ \t]*+[=:][ \t]*+)([^\n]{1,4096}+)"
)
"""A ``.env`` (or YAML) line: an upper-case name starts the line; its value runs to the end of the line."""
_ASSIGNMENT = re.compile(
    r"(?i)(?<![A-Za-z0-9_.\-])([\"']?([A-Za-z_$@][A-Za-z0-9_.\-]{0,127}+)(?:" + _SECRET_NAME_END + r")[\"']?"
    r"[ \t]*+(?:[:=](?![=:])|=>|:=)[ \t]*+)"
    r"(\"(?:[^\"\\\n]|\\.){0,4096}+\"|'[^'\n]{0,4096}+'|`[^`\n]{0,4096}+`|[^\s\"'`,;)\]}]{1,4096}+)"
)
"""``name = value``, ``name: value``, ``"name": "value"``: the name must end like a secret's (checked closer
by :func:`_is_secret_name`)."""

_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_SECRET_WORDS = frozenset({"password", "passwd", "pass", "pwd", "passphrase", "secret", "token", "apikey",
                           "credential", "credentials", "signature", "sig"})
_KEY_KINDS = frozenset({"api", "secret", "private", "access", "account", "auth", "client", "encryption",
                        "signing", "master", "shared", "storage", "subscription", "license", "app", "consumer",
                        "session", "webhook", "deploy", "service", "admin", "x"})
_NOT_SECRET_TOKENS = frozenset({"bos", "eos", "pad", "unk", "sep", "cls", "mask", "next", "page", "max", "min",
                                "num", "continuation", "cancellation", "cancel"})
"""Tokens that are not credentials: a tokenizer's special tokens, pagination and cancellation tokens, counts."""
_TYPE_WORDS = frozenset({"string", "str", "number", "int", "integer", "bool", "boolean", "any", "unknown", "none",
                         "null", "nil", "undefined", "true", "false", "bytes", "object", "optional", "secretstr",
                         "await", "new", "function", "lambda", "required", "void", "char"})
_CODE_CHARS = re.compile(r"[(\[{<]")
_CODE_SHAPE = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*+\.)++[A-Za-z_][A-Za-z0-9_]*+|[$%&*@].*|-?[0-9.]++", re.S)
"""A value that is code or a reference, not a literal: a call or an index, ``a.b.c``, ``$VAR``, a number."""
_LOWER_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*+")


def redact_secrets(text: str) -> str:
    """``text`` with every secret-looking span replaced by ``[REDACTED]``."""
    if not text:
        return text
    lowered = text.lower()  # a pattern runs only where the words it needs are (each pass costs ~0.1 s per MB)
    text = _redact_key_blocks(text)
    if "://" in text:
        text = _URL_USERINFO.sub(_url_password, text)
        text = _WEBHOOK.sub(r"\1" + REDACTED, text)
    text = _PREFIXED.sub(REDACTED, text)
    if any(word in lowered for word in ("authorization", "api-key", "auth-token", "cookie")):
        text = _HEADER.sub(_header_value, text)
    if "bearer" in lowered:
        text = _BEARER.sub(_bearer_token, text)
    if "-" in text and any(word in lowered for word in ("pass", "pwd", "secret", "token", "key")):
        text = _FLAG.sub(_flag_value, text)
    if "-u" in text:
        text = _CURL_USER.sub(r"\1" + REDACTED, text)
    if "machine" in text:
        text = _NETRC.sub(r"\1" + REDACTED, text)
    text = _ENV_LINE.sub(_env_value, text)
    return _ASSIGNMENT.sub(_assigned_value, text)


def _redact_key_blocks(text: str) -> str:
    """Private key blocks, up to their END line, or, without one (output cut short), to the end of the body.

    The END is looked for only up to the next BEGIN, so text with many BEGIN lines and no END stays linear.
    """
    if "PRIVATE KEY" not in text:
        return text
    parts: list[str] = []
    done = 0
    for begin in _PEM_BEGIN.finditer(text):
        if begin.start() < done:
            continue
        following = text.find("-----BEGIN ", begin.end())
        limit = following if following >= 0 else len(text)
        end = text.find("-----END ", begin.end(), limit)
        close = text.find("-----", end + 9, limit) if end >= 0 else -1
        stop = close + 5 if close >= 0 else _PEM_BODY.match(text, begin.end()).end()
        parts += [text[done : begin.start()], REDACTED]
        done = stop
    return "".join(parts) + text[done:] if parts else text


def _url_password(found: re.Match) -> str:
    password = found.group(2)
    if password.split("/", 1)[0].isdigit():  # host:port/path@..., not user:password@host
        return found.group(0)
    return found.group(1) + REDACTED


def _header_value(found: re.Match) -> str:
    return found.group(1) + found.group(2) + REDACTED


def _bearer_token(found: re.Match) -> str:
    token = found.group(2)
    if token == REDACTED or not any(c.isdigit() or c in "._-+/=" for c in token):
        return found.group(0)  # "bearer authentication", a word
    return found.group(1) + REDACTED


def _flag_value(found: re.Match) -> str:
    value = found.group(2)
    if _is_reference(value.strip("\"'")):
        return found.group(0)
    return found.group(1) + REDACTED


def _env_value(found: re.Match) -> str:
    name, value = found.group(2), found.group(3)
    if not _is_secret_name(name) or _is_code_or_reference(value.split("#", 1)[0].strip().strip("\"'")):
        return found.group(0)
    return found.group(1) + REDACTED


def _assigned_value(found: re.Match) -> str:
    prefix, name, value = found.group(1), found.group(2), found.group(3)
    if not _is_secret_name(name.lstrip("$@")) or not _is_secret_value(value, name, prefix):
        return found.group(0)
    if value[:1] in "\"'`" and len(value) >= 2:
        return prefix + value[0] + REDACTED + value[-1]
    return prefix + REDACTED


def _is_secret_name(name: str) -> bool:
    """Whether a name says its value is a secret: judged by its last word (``dbPassword``, ``DB_PASS``,
    ``x-api-key``, ``AccountKey``), so ``max_tokens``, ``tokenizer`` or ``password_min_length`` are not."""
    words = [w.lower() for w in _WORDS.findall(name)]
    if not words:
        return False
    last, before = words[-1], words[-2] if len(words) > 1 else ""
    if last in ("token", "tokens") and before in _NOT_SECRET_TOKENS:
        return False
    if last in _SECRET_WORDS:
        return True
    if last == "key":
        return before in _KEY_KINDS
    if words[-2:] == ["key", "base"]:
        return "secret" in words  # Rails' secret_key_base
    return last.endswith(("password", "passwd", "secret", "token", "apikey"))


def _is_secret_value(value: str, name: str, prefix: str) -> bool:
    if value[:1] in "\"'`":
        inner = value[1:-1] if len(value) >= 2 and value[-1] == value[0] else value[1:]
        return bool(inner) and inner != REDACTED and not _is_reference(inner)
    if _is_code_or_reference(value):
        return False
    if name.isupper() or not _LOWER_IDENTIFIER.fullmatch(value):
        return True  # an env-style name, or a value that is no plain lower-case identifier
    # ``token = tok`` or ``password=password`` in code is a variable; ``password: hunter`` in YAML is a secret.
    return "=" not in prefix.rstrip()[-2:]


def _is_code_or_reference(value: str) -> bool:
    if not value or value == REDACTED or value.lower() in _TYPE_WORDS:
        return True
    return _CODE_CHARS.search(value) is not None or _CODE_SHAPE.fullmatch(value) is not None


def _is_reference(value: str) -> bool:
    """``$VAR``, ``${VAR}``, ``{{ secrets.X }}``, ``%(x)s``, ``<your key>``: a placeholder, not the secret."""
    return not value or value == REDACTED or value[:1] in "$%<" or value.startswith("{{")
