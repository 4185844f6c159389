"""Secret shapes and look-alikes by family, generated: each family varies the names, the quoting, the separators
and the surroundings of one way a secret is written, so the redactor is measured on the shape, not on strings.

:func:`cases` builds a family's cases from a seed; the ``tuning`` seed is what the redactor was developed
against, the ``held_out`` seed (other names, values and surroundings drawn from the same families) was only
run once it was done (tests/compaction/test_redact.py runs both).
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

SEEDS = {"tuning": 1, "held_out": 2}


@dataclass(frozen=True)
class Case:
    family: str
    text: str
    secret: str = ""
    """The span that must not survive (empty for a look-alike, which must come out unchanged)."""


def _secret(rng: random.Random, length: int = 16) -> str:
    """A password as people make them: letters, digits, now and then a symbol."""
    alphabet = string.ascii_letters + string.digits
    value = "".join(rng.choice(alphabet) for _ in range(length))
    return value[:4] + rng.choice("!#%+.-_9") + value[4:]


def _b64(rng: random.Random, size: int) -> str:
    return base64.b64encode(rng.randbytes(size)).decode()


def _lines(text: str, width: int = 64) -> list[str]:
    return [text[i : i + width] for i in range(0, len(text), width)]


# -- secrets --------------------------------------------------------------------------------------------------


def armor(rng: random.Random) -> list[Case]:
    """PEM and PGP private-key armor: headers, a blank line, a body, with or without its END line."""
    out = []
    for kind in ("RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK",
                 "OPENSSH PRIVATE KEY", "DSA PRIVATE KEY"):
        body = _lines(_b64(rng, rng.randint(200, 600)))
        headers = []
        if kind.startswith("PGP"):
            headers = [f"Version: GnuPG v{rng.randint(1, 2)}.{rng.randint(0, 4)}", f"Comment: {rng.choice(['key', 'backup'])}"]
        elif kind in ("RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY") and rng.random() < 0.6:
            headers = ["Proc-Type: 4,ENCRYPTED", f"DEK-Info: AES-{rng.choice([128, 256])}-CBC,{rng.randbytes(16).hex().upper()}"]
        block = [f"-----BEGIN {kind}-----", *headers, *([""] if headers else []), *body]
        ended = rng.random() < 0.5
        if ended:
            block.append(f"-----END {kind}-----")
        newline = rng.choice(["\n", "\n", "\\n"])  # a real newline, or one escaped inside a JSON string
        text = f"{rng.choice(['cat key.pem', 'Output:', 'The key is'])}{newline}{newline.join(block)}"
        out.append(Case("armor", text + (newline + "done" if ended else ""), body[len(body) // 2]))
    return out


_SECRET_NAMES = ("password", "db_password", "passwd", "secret", "client_secret", "api_key", "apiKey", "auth_token",
                 "access_token", "DB_PASSWORD", "SMTP_PASS", "redis_password", "secret_key", "private_key")


def config(rng: random.Random) -> list[Case]:
    """INI, TOML, YAML, JSON (also escaped inside a JSON string), kubeconfig ``*-key-data``, Docker ``auth``."""
    out = []
    for _ in range(3):
        name, value = rng.choice(_SECRET_NAMES), rng.choice([_secret(rng), "hunter" + str(rng.randint(2, 99)),
                                                             "correct horse battery staple"])
        section = rng.choice(["[database]", "[client]", "[mysqld]", '[servers."alpha"]', "[default]"])
        sep = rng.choice([" = ", "=", ": "])
        out.append(Case("ini", f"{section}\nhost = db.internal\n{name}{sep}{value}\nport = 5432\n", value))
        quoted = json.dumps({"user": "app", name: value})
        out.append(Case("json", quoted, value))
        out.append(Case("escaped-json", json.dumps({"config": quoted}), value))
        out.append(Case("escaped-json", json.dumps({"config": json.dumps({"config": quoted})}), value))
        out.append(Case("yaml", f"spec:\n  {name}: {json.dumps(value) if ' ' in value else value}\n  port: 80\n", value))
    data = _b64(rng, rng.randint(300, 900))
    for key in ("client-key-data", "private-key-data"):
        out.append(Case("kubeconfig", f"users:\n- name: admin\n  user:\n    client-certificate-data: {_b64(rng, 200)}\n"
                                      f"    {key}: {data}\n", data[:40]))
    auth = base64.b64encode(f"{rng.choice(['ci', 'deploy', 'me'])}:{_secret(rng)}".encode()).decode()
    out.append(Case("docker-auth", json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": auth}}}, indent=2),
                    auth))
    return out


_FLAG_COMMANDS = (
    ("mysql -u root -p{v} app", True), ("mysqldump -uadmin -p{v} --all-databases", True), ("7z a -p{v} out.7z dir", True),
    ("sshpass -p {v} ssh deploy@host", False), ("sshpass -p '{v}' scp a b:", False), ("redis-cli -h cache -a {v} ping", False),
    ("redis-cli -a \"{v}\" --no-auth-warning info", False), ("docker login -u ci -p {v} registry.example.com", False),
    ("docker login --username ci --password {v}", False), ("ldapsearch -x -D cn=admin -w {v} -b dc=x", False),
    ("zip -P {v} out.zip file", False), ("unzip -P {v} out.zip", False), ("keytool -list -storepass {v}", False),
    ("openssl pkcs12 -in a.p12 -passin pass:{v}", True), ("mongo -u admin -p {v} --authenticationDatabase admin", False),
)


def flags(rng: random.Random) -> list[Case]:
    """Command lines that take a secret after (or glued to) a short or long flag."""
    out = []
    for template, _glued in _FLAG_COMMANDS:
        value = rng.choice([_secret(rng), "dckr_pat_" + _secret(rng, 27), "s3cr3t" + str(rng.randint(10, 99))])
        prompt = rng.choice(["$ ", "", "Running: "])
        out.append(Case("flags", prompt + template.format(v=value), value))
    return out


def pairs(rng: random.Random) -> list[Case]:
    """A secret's name in one field and its value in the next: Kubernetes env, CloudFormation parameters."""
    out = []
    for _ in range(3):
        name, value = rng.choice(["DB_PASSWORD", "API_TOKEN", "STRIPE_SECRET", "AWS_SECRET_ACCESS_KEY"]), _secret(rng)
        indent = " " * rng.choice([2, 4, 6])
        out.append(Case("k8s-env", f"{indent}env:\n{indent}- name: {name}\n{indent}  value: {value}\n"
                                   f"{indent}- name: LOG_LEVEL\n{indent}  value: debug\n", value))
        out.append(Case("k8s-env", f'{indent}- name: "{name}"\n{indent}  value: "{value}"\n', value))
        out.append(Case("json-pair", json.dumps([{"name": name, "value": value}, {"name": "REGION", "value": "eu"}]), value))
        out.append(Case("cfn-pair", f"ParameterKey={name.title().replace('_', '')},ParameterValue={value}", value))
    return out


def vendor_tokens(rng: random.Random) -> list[Case]:
    """A token whose prefix names a vendor the redactor does not list (``sbp_``, ``pat_live_``): a long random
    body, hex or letters and digits, pasted alone on a line, in prose, or assigned to a name that says nothing."""
    out = []
    for _ in range(6):
        prefix = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 6)))
        if rng.random() < 0.3:
            prefix += "_" + rng.choice(["live", "test", "pat", "prod", "api"])
        if rng.random() < 0.5:
            body = rng.randbytes(rng.randint(20, 32)).hex()
        else:
            body = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(rng.randint(32, 60)))
            body = body[:5] + rng.choice(string.digits) + rng.choice("GHQXZ") + body[7:]
        token = f"{prefix}_{body}"
        text = rng.choice(["here it is:\n{t}\n", "I rotated it, the new one is {t} — try again", "CONFIG_VALUE={t}",
                           '{{"value": "{t}"}}', "curl -H 'X-Thing: {t}' https://api.example.com"]).format(t=token)
        out.append(Case("vendor-token", text, body))
    return out


_LABELS = ("Here's the {kind} key for the {thing}:", "my {kind} key:", "new {kind} token below", "{Kind} secret is",
           "the password for {thing} (don't share it)", "Use this {kind} key:", "Personal access token:",
           "{Kind} キー:", "{thing}のAPIキーは以下です", "Mi clave de API es:", "Minha chave de API:",
           "Das Passwort für {thing}:", "{thing} 的密钥：", "{thing} 토큰:")


def _bare_value(rng: random.Random) -> str:
    """A credential with no prefix: hex of a key's length, base64url, or letters and digits mixed."""
    kind = rng.randrange(3)
    if kind == 0:
        return rng.randbytes(rng.choice([16, 20, 32])).hex()
    if kind == 1:
        return base64.urlsafe_b64encode(rng.randbytes(rng.randint(18, 40))).decode().rstrip("=") + "Q7"
    return _secret(rng, rng.randint(18, 40)) + rng.choice(string.digits) + rng.choice(string.ascii_uppercase)


def labelled_lines(rng: random.Random) -> list[Case]:
    """A secret pasted alone on its line under a line that names it, in prose, a code fence or a quote, in the
    languages of the corpus: nothing beside the value says it is a secret."""
    out = []
    for label in _LABELS:
        kind = rng.choice(["api", "access", "client", "private", "secret"])
        thing = rng.choice(["geocoder", "staging", "the billing service", "prod", "mailer"])
        value = _bare_value(rng)
        head = label.format(kind=kind, Kind=kind.title(), thing=thing)
        text = rng.choice(["{h}\n{v}\n", "{h}\n\n```\n{v}\n```\nthanks", "> {h}\n> {v}", "{h}\n\n    {v}\n\nok?"])
        out.append(Case("labelled-line", text.format(h=head, v=value), value))
    return out


# -- look-alikes ----------------------------------------------------------------------------------------------


def code(rng: random.Random) -> list[Case]:
    """Code that names a secret without holding one: conditions, returns, YAML tags, references."""
    name = rng.choice(["password", "secret", "token", "api_key", "db_password"])
    lines = [
        f"if not {name}:\n    raise ValueError('missing {name}')",
        f"elif {name}: return {name}",
        f"while not {name}: continue",
        f"assert {name}, 'no {name}'",
        f"{name}: !Ref DbSecret",
        f"{name}: !Sub '${{AWS::StackName}}-{name}'",
        f"{name}: !GetAtt Secret.Arn",
        f"{name}: !ImportValue shared-{name}",
        f"- name: {name.upper()}\n  valueFrom:\n    secretKeyRef:\n      name: app\n      key: {name}",
        f"{name} = os.environ['{name.upper()}']",
        f"{name}: ${{{{ secrets.{name.upper()} }}}}",
        f"mysql -u root -p app_db < dump.sql",
        f"docker login --password-stdin registry.example.com",
        f"redis-cli -a $REDIS_PASSWORD ping",
        f"[database]\nhost = db\n{name} = ${{{name.upper()}}}",
        f"ParameterKey=Environment,ParameterValue=production",
        f"- name: LOG_LEVEL\n  value: debug",
    ]
    return [Case("code", line) for line in lines]


def identifiers(rng: random.Random) -> list[Case]:
    """Prefixed ids and names that are not credentials: API object ids, typeids, a named digest, snake_case."""
    base32 = "0123456789abcdefghjkmnpqrstvwxyz"
    lines = [
        "cus_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(14)),
        "msg_01" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(22)),
        "user_01" + "".join(rng.choice(base32) for _ in range(24)),
        "etag_" + rng.randbytes(16).hex(),
        "test_" + "_".join(rng.choice(["user", "can", "log", "in", "with", "valid", "credentials", "again"])
                           for _ in range(8)),
        "sha256:" + rng.randbytes(32).hex(),
    ]
    return [Case("identifiers", f"{rng.choice(['id ', 'see ', ''])}{line}") for line in lines]


def digests(rng: random.Random) -> list[Case]:
    """Digests, ids, addresses and names alone on a line under a label that names them, or under a label where a
    secret's word modifies another noun ("token account", "key file")."""
    hexes = [rng.randbytes(n).hex() for n in (16, 20, 32)]
    mixed = base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=")
    labels = [("md5 checksum of the download:", hexes[0]), ("commit:", hexes[1]), ("SHA-256 digest:", hexes[2]),
              ("Cache key:", hexes[0]), ("the request id is", str(__import__("uuid").UUID(int=rng.getrandbits(128)))),
              ("no token account for this mint:", mixed), ("the key file is at", "config/Secrets2Prod.yaml"),
              ("next page token:", mixed), ("password hash (bcrypt) stored:", hexes[2]),
              ("the token variable is called", "sessionTokenValue"), ("API key id:", hexes[0]),
              ("public key:", mixed), ("token count:", "1234567890123")]
    return [Case("digests", f"{label}\n{value}\n") for label, value in labels]


SECRET_FAMILIES: dict[str, Callable[[random.Random], list[Case]]] = {
    "armor": armor, "config": config, "flags": flags, "pairs": pairs, "vendor": vendor_tokens,
    "labelled": labelled_lines,
}
LOOKALIKE_FAMILIES: dict[str, Callable[[random.Random], list[Case]]] = {"code": code, "identifiers": identifiers,
                                                                       "digests": digests}


def cases(split: str) -> tuple[list[Case], list[Case]]:
    """(secrets, look-alikes) of one split."""
    rng = random.Random(SEEDS[split])
    secrets = [case for family in SECRET_FAMILIES.values() for case in family(rng)]
    lookalikes = [case for family in LOOKALIKE_FAMILIES.values() for case in family(rng)]
    return secrets, lookalikes
