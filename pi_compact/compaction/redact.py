"""Redacting secrets before session text leaves the machine for a remote summarizer.

A hand-kept list, measured on a corpus of secret shapes and look-alikes (``tests/compaction/data/``, figures in
``bench/redact_bench.py``): tokens whose prefix names them (``sk-ant-``, ``AKIA``/``ASIA``, ``ghp_``,
``github_pat_``, ``hf_``, ``npm_``, JWTs, ...), private key blocks (PEM and PGP, with or without their END
line), passwords in URLs, ``Authorization`` headers, ``--password X`` flags, and values assigned to names
that say they hold a secret (``DB_PASS=``, ``"apiKey":``, ``AccountKey=``), and a value alone on its line under
a line that names a secret (``Here's the API key:``). Names are judged by their last
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
    r"|dckr_pat_[A-Za-z0-9_\-]{20,}+"  # Docker Hub
    # Any other vendor's: a short lower-case prefix ("sbp_", "pat_live_") and a long random body, either hex
    # longer than a digest's 32, or letters beyond hex mixed with digits. Ids are shorter (Stripe's cus_… 14,
    # msg_… 24, typeids 26); snake_case names break the body with underscores.
    r"|[a-z]{2,8}+(?:_[a-z]{2,6}+)?_(?:[0-9a-f]{40,}+(?![A-Za-z0-9_\-])"
    r"|(?=[A-Za-z]{0,63}[0-9])(?=[0-9a-f]{0,63}[g-zA-Z])[A-Za-z0-9]{32,}+(?![A-Za-z0-9_\-]))"
    r")"
)
"""Tokens whose own prefix says what they are: redacted wherever they stand."""

_WEBHOOK = re.compile(
    r"(https://(?:hooks\.slack\.com/services|discord(?:app)?\.com/api/webhooks)/)[A-Za-z0-9_/\-]{8,400}+"
)

_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_BODY = re.compile(
    r"(?:(?:\r?\n|\\n)(?:[A-Za-z\-]{1,40}+: [^\n\\]{0,200}+|[A-Za-z0-9+/=]{1,200}+(?=\r?\n|\\n|$)"
    r"|(?=(?:\r?\n|\\n)[A-Za-z0-9+/=]{16})))*+"
)
"""What follows a BEGIN line with no END: base64 lines and ``Name: value`` headers (``Proc-Type``,
``DEK-Info``, PGP's ``Version``), real or JSON-escaped newlines between them, and a blank line where the
armor has one (after the headers) when body lines follow it."""

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
                                "credential", "credentials", "signature", "sig", "key_base", "key-data",
                                "key_data", "keydata", "auth")
)
_ENV_LINE = re.compile(
    r"(?m)^([ \t]*+(?:export[ \t]++)?([A-Z][A-Z0-9_]{0,127}+)[ \t]*+[=:][ \t]*+)([^\n]{1,4096}+)"
)
"""A ``.env`` (or YAML) line: an upper-case name starts the line; its value runs to the end of the line."""
_ASSIGNMENT = re.compile(
    r"(?i)(?<![A-Za-z0-9_.\-])((?:(?<!\\)\\*+[\"'])?([A-Za-z_$@][A-Za-z0-9_.\-]{0,127}+)(?:" + _SECRET_NAME_END
    + r")(?:\\*+[\"'])?[ \t]*+(?:[:=](?![=:])|=>|:=)[ \t]*+)"
    r"(\\++\"[^\"\\\n]{0,4096}+|\"(?:[^\"\\\n]|\\.){0,4096}+\"|'[^'\n]{0,4096}+'|`[^`\n]{0,4096}+`"
    r"|[^\s\"'`,;)\]}]{1,4096}+)"
)
"""``name = value``, ``name: value``, ``"name": "value"`` (also JSON inside a JSON string, its quotes escaped
once or more: ``\\"name\\": \\"value\\"``): the name must end like a secret's (checked closer by
:func:`_is_secret_name`). A run of backslashes is entered at its first one only: tried from each of them, a long
run with no quote after it took time growing with the square of its length."""

_INI_SECTION = re.compile(r"(?m)^[ \t]*+\[[^\]\n]{1,200}+\][ \t]*+$")
_CONFIG_LINE = re.compile(r"(?m)^([ \t]*+([A-Za-z_][A-Za-z0-9_.\-]{0,127}+)[ \t]*+[=:][ \t]*+)([^\n]{1,4096}+)")
"""In a file with ``[section]`` lines (INI, TOML, my.cnf), ``name = value`` is configuration, not code: the value
runs to the end of the line, whatever it looks like (``passwd=hunter2``, ``password = correct horse``)."""
_PAIR = re.compile(
    r"(?i)(?<![A-Za-z0-9_])((?:[\"']?(?:name|key|parameterkey)[\"']?[ \t]*+[:=][ \t]*+)[\"']?"
    r"([A-Za-z_][A-Za-z0-9_.\-]{0,127}+)[\"']?[ \t]*+(?:,|\r?\n)[ \t\-]*+"
    r"[\"']?(?:value|parametervalue)[\"']?[ \t]*+[:=][ \t]*+)"
    r"(\"[^\"\n]{0,4096}+\"|'[^'\n]{0,4096}+'|[^\s\"',;}\]]{1,4096}+)"
)
"""A secret's name in one field and its value in the next: Kubernetes' ``- name: DB_PASSWORD`` /
``value: …``, ``{"name": …, "value": …}``, CloudFormation's ``ParameterKey=…,ParameterValue=…``."""
_FLAG_COMMANDS = re.compile(
    r"(?<![A-Za-z0-9_./\-])(mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|7z|7za|7zr|sshpass|redis-cli|"
    r"ldapsearch|ldapmodify|ldapadd|ldapdelete|ldappasswd|zip|unzip|mongo|mongosh|mongodump|mongorestore|"
    r"docker|podman|keytool|openssl)(?=[ \t])([^\n|;&]{1,2000}+)"
)
_SECRET_FLAGS = {
    # command: (flags whose next argument is the secret, flags the secret is glued to)
    "mysql": ((), ("-p",)), "mysqldump": ((), ("-p",)), "mysqladmin": ((), ("-p",)), "mariadb": ((), ("-p",)),
    "mariadb-dump": ((), ("-p",)), "7z": ((), ("-p",)), "7za": ((), ("-p",)), "7zr": ((), ("-p",)),
    "sshpass": (("-p",), ("-p",)), "redis-cli": (("-a",), ()), "zip": (("-P",), ()), "unzip": (("-P",), ()),
    "ldapsearch": (("-w",), ()), "ldapmodify": (("-w",), ()), "ldapadd": (("-w",), ()), "ldapdelete": (("-w",), ()),
    "ldappasswd": (("-w", "-s"), ()), "mongo": (("-p",), ()), "mongosh": (("-p",), ()), "mongodump": (("-p",), ()),
    "mongorestore": (("-p",), ()), "docker": (("-p",), ()), "podman": (("-p",), ()),
    "keytool": (("-storepass", "-keypass", "-srcstorepass", "-deststorepass"), ()),
    "openssl": (("-passin", "-passout", "-k"), ()),
}
"""Short flags that take a password, per command (``mysql -pSECRET``, ``sshpass -p SECRET``, ``redis-cli -a``)."""
_ARGUMENT = re.compile(r"\"[^\"\n]*+\"|'[^'\n]*+'|\S++")

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
                         "await", "new", "function", "lambda", "required", "void", "char", "return", "raise",
                         "continue", "break", "pass", "yield", "not", "and", "or", "in", "is", "else", "then"})
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
    if any(command in lowered for command in ("mysql", "maria", "7z", "sshpass", "redis", "ldap", "zip", "mongo",
                                               "docker", "podman", "keytool", "openssl")):
        text = _FLAG_COMMANDS.sub(_command_flags, text)
    if "value" in lowered:
        text = _PAIR.sub(_pair_value, text)
    if "[" in text and _INI_SECTION.search(text):
        text = _CONFIG_LINE.sub(_config_value, text)
    text = _ENV_LINE.sub(_env_value, text)
    text = _ASSIGNMENT.sub(_assigned_value, text)
    if any(word in lowered for word in _LABEL_HINTS):
        text = _redact_labelled_lines(text)
    return text


_LABEL_HINTS = ("key", "token", "secret", "pass", "credential", "clave", "chave", "clé", "schlüssel", "senha",
                "contraseña", "キー", "トークン", "パスワード", "密钥", "令牌", "密码", "토큰", "비밀번호", "키")
_LABEL_WORDS = re.compile(r"[\u3000-\u9fff\uac00-\ud7af]++|[^\W_\u3000-\u9fff\uac00-\ud7af]++")
"""Words, with a run of kana, CJK or Hangul apart from Latin beside it (``APIキー`` is ``api`` and ``キー``)."""
_SECRET_LABELS = frozenset({"password", "passwd", "passphrase", "secret", "token", "apikey", "credential",
                            "credentials", "contraseña", "senha", "passwort", "トークン", "パスワード", "密钥", "令牌",
                            "密码", "토큰", "비밀번호"})
_KEY_LABELS = frozenset({"key", "keys", "clave", "chave", "clé", "schlüssel", "キー", "키"})
_DIGEST_WORDS = frozenset({"sha", "sha1", "sha256", "sha512", "md5", "hash", "checksum", "digest", "commit", "etag",
                           "fingerprint", "id", "ids", "uuid", "public", "cache", "idempotency", "count", "counts",
                           "limit", "usage", "length", "ハッシュ", "コミット"})
_BARE_VALUE = re.compile(r"([ \t>]*+)([A-Za-z0-9+/_\-.~!@#$%^&*?]{12,512}+={0,2}+)([ \t]*+\r?)")
"""A line that holds one credential-shaped value and nothing else."""
_CJK_SECRETS = ("トークン", "パスワード", "密钥", "令牌", "密码", "토큰", "비밀번호")
_CJK_KEYS = ("キー", "키")
_AFTER_NAME = frozenset({"for", "of", "to", "is", "was", "are", "below", "here", "then", "and", "in", "on", "from",
                         "that", "which", "you", "i", "we", "it", "please", "now", "again", "attached", "pasted",
                         "de", "da", "do", "del", "für", "ist", "est", "es", "é", "pour", "para", "s"})
_FILE_END = re.compile(r"\.[A-Za-z]{1,5}+$")


def _redact_labelled_lines(text: str) -> str:
    """A secret pasted alone on its line under a line that names it (``Here's the API key:`` / ``3f9a…``): the
    value has no prefix and no name beside it, so only the label says a 32-hex string is no digest."""
    lines = text.split("\n")
    label = ""
    for n, line in enumerate(lines):
        found = _BARE_VALUE.fullmatch(line) if 12 <= len(line) <= 560 else None
        if found and label and _looks_random(found.group(2)) and _names_a_secret(label):
            lines[n] = found.group(1) + REDACTED + found.group(3)
        elif line.strip() and not line.lstrip().startswith(("```", "~~~")):
            label = line[-300:]
    return "\n".join(lines)


def _names_a_secret(label: str) -> bool:
    """Whether a label line names a secret (a password, a token, an API or access key) and no digest or id.

    The secret's word must head its phrase: "token account", "password file" or "key rotation" name other things."""
    words = [word.lower() for word in _LABEL_WORDS.findall(label)]
    if not words or any(word in _DIGEST_WORDS for word in words):
        return False
    has_kind = any(word in _KEY_KINDS for word in words)
    for n, word in enumerate(words):
        if word[0] >= "\u3000":
            if any(name in word for name in _CJK_SECRETS) or (has_kind and any(k in word for k in _CJK_KEYS)):
                return True
            continue
        if n + 1 < len(words) and words[n + 1] not in _AFTER_NAME:
            continue
        if word in _SECRET_LABELS or word.endswith(("password", "secret", "apikey")):
            if not (word == "token" and n and words[n - 1] in _NOT_SECRET_TOKENS):
                return True
        if word in _KEY_LABELS and has_kind:
            return True
    return False


def _looks_random(value: str) -> bool:
    """Letters and digits mixed as no word, path, URL, number or date is: hex of a key's length, or mixed case."""
    if not any(c.isdigit() for c in value) or not any(c.isalpha() for c in value):
        return False
    if "://" in value or ("/" in value and "." in value) or _FILE_END.search(value):
        return False
    if len(value) >= 32 and all(c in "0123456789abcdefABCDEF" for c in value):
        return True
    mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return mixed and len(value) >= 16 and sum(c.isdigit() for c in value) >= 2



def _command_flags(found: re.Match) -> str:
    """The arguments of a command that takes a password after (or glued to) a short flag, that one redacted."""
    spaced, glued = _SECRET_FLAGS[found.group(1)]
    rest = found.group(2)
    if found.group(1) in ("docker", "podman") and not rest.lstrip().startswith("login"):
        return found.group(0)
    parts, done, take_next = [], 0, False
    for argument in _ARGUMENT.finditer(rest):
        word = argument.group(0)
        secret = None
        if take_next:
            secret = argument.span()
            if found.group(1) == "openssl" and word.startswith("pass:"):
                secret = (argument.start() + 5, argument.end())
            elif found.group(1) == "openssl":
                secret = None  # env:VAR, file:path: a reference
        elif any(word.startswith(flag) and len(word) > len(flag) and word[len(flag)] not in "-=" for flag in glued):
            flag = next(flag for flag in glued if word.startswith(flag))
            secret = (argument.start() + len(flag), argument.end())
        take_next = word in spaced
        if secret is not None and not _is_reference(rest[secret[0] : secret[1]].strip("\"'")):
            quoted = rest[secret[0]] in "\"'"
            parts += [rest[done : secret[0] + quoted], REDACTED]
            done = secret[1] - quoted
    return found.group(1) + "".join(parts) + rest[done:]


def _pair_value(found: re.Match) -> str:
    prefix, name, value = found.group(1), found.group(2), found.group(3)
    inner = value.strip("\"'")
    if not _is_secret_name(name) or _is_reference(inner) or inner.lower() in _TYPE_WORDS:
        return found.group(0)
    if value[:1] in "\"'" and len(value) >= 2:
        return prefix + value[0] + REDACTED + value[-1]
    return prefix + REDACTED


def _config_value(found: re.Match) -> str:
    name, value = found.group(2), found.group(3).strip()
    inner = value.strip("\"'")
    if not _is_secret_name(name) or not inner or _is_reference(inner) or inner.startswith("%("):
        return found.group(0)
    if value[:1] in "\"'" and len(value) >= 2 and value[-1] == value[0]:
        return found.group(1) + value[0] + REDACTED + value[-1]
    return found.group(1) + REDACTED


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
    if value[:1] == "\\" and value.lstrip("\\")[:1] == '"':  # JSON inside a JSON string: \"name\": \"value\"
        # (its closing \" stays after the match); a bare value may open with an escape too (``token: \\x41``)
        opening = value[: value.index('"') + 1]
        inner = value[len(opening):].rstrip("\\")
        if not _is_secret_name(name.lstrip("$@")) or not _is_secret_value(f'"{inner}"', name, prefix):
            return found.group(0)
        return prefix + opening + REDACTED + value[len(opening) + len(inner):]
    if not _is_secret_name(name.lstrip("$@")) or not _is_secret_value(value, name, prefix):
        return found.group(0)
    if _in_a_condition(found) or (_last_word(name) == "auth" and not _CREDENTIAL.fullmatch(value.strip("\"'`"))):
        return found.group(0)
    if value[:1] in "\"'`" and len(value) >= 2:
        return prefix + value[0] + REDACTED + value[-1]
    return prefix + REDACTED


_CONDITION_WORDS = frozenset({"if", "elif", "while", "not", "and", "or", "assert", "unless", "until", "when"})
_CREDENTIAL = re.compile(r"(?=[A-Za-z0-9+/=:._\-]*[0-9A-Z])[A-Za-z0-9+/=:._\-]{12,}+")
"""What an ``auth`` field holds when it holds a credential (Docker's base64 ``user:password``), not a mode."""


def _in_a_condition(found: re.Match) -> bool:
    """``if not password: raise …``: the name is tested in code, the colon ends a condition."""
    text, start = found.string, found.start()
    line = text[max(text.rfind("\n", 0, start) + 1, start - 200) : start].split()
    return bool(line) and line[-1] in _CONDITION_WORDS


def _last_word(name: str) -> str:
    words = _WORDS.findall(name)
    return words[-1].lower() if words else ""


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
    if last == "data":
        return before == "key"  # kubeconfig's client-key-data
    if last == "auth":
        return True  # Docker's config.json; the value must look like a credential (_assigned_value)
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
    if not value or value == REDACTED or value.lower() in _TYPE_WORDS or _is_reference(value):
        return True
    return _CODE_CHARS.search(value) is not None or _CODE_SHAPE.fullmatch(value) is not None


def _is_reference(value: str) -> bool:
    """``$VAR``, ``${VAR}``, ``{{ secrets.X }}``, ``%(x)s``, ``<your key>``, ``!Ref X``: a placeholder or a
    reference, not the secret."""
    if value[:1] == "!" and value[1:2].isalpha():
        return True  # a YAML tag: !Ref DbSecret, !Sub …, !GetAtt …
    return not value or value == REDACTED or value[:1] in "$%<" or value.startswith("{{")
