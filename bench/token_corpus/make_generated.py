"""Writes the generated classes of the token corpus (JSON tool output, log lines, base64, hex, mixed).

Deterministic: the same seeds give the same files, so the committed files can be regenerated and checked.
The calibration and holdout files of a class come from different seeds and partly different shapes, so a
model fitted on one is tested on text it has not seen.

    python -m bench.token_corpus.make_generated
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORDS = ("build failed retry cache config user session token window summary error warning timeout request "
         "response handler worker queue index file path module branch commit merge review deploy release").split()
PATHS = ("src/app/main.ts", "src/lib/session.py", "pi_compact/store/jsonl.py", "tests/test_cut.py", "README.md",
         "packages/agent/src/core/compaction.ts", "docs/guide/settings.md", "Makefile", "pyproject.toml")


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize()


def _stamp(rng: random.Random) -> str:
    return (f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:"
            f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z")


def json_calib(rng: random.Random) -> str:
    issues = [{
        "id": rng.randint(10**8, 10**9), "number": rng.randint(1, 5000), "state": rng.choice(["open", "closed"]),
        "title": _sentence(rng, rng.randint(3, 9)), "user": {"login": f"dev{rng.randint(1, 99)}", "site_admin": False},
        "labels": [{"name": rng.choice(WORDS), "color": f"{rng.randrange(16**6):06x}"} for _ in range(rng.randint(0, 2))],
        "comments": rng.randint(0, 40), "created_at": _stamp(rng), "draft": rng.random() < 0.2,
        "html_url": f"https://example.org/acme/widgets/issues/{rng.randint(1, 5000)}",
    } for _ in range(5)]
    rows = [json.dumps({"file": rng.choice(PATHS), "line": rng.randint(1, 900), "col": rng.randint(1, 80),
                        "severity": rng.choice(["error", "warning"]), "rule": f"E{rng.randint(100, 999)}",
                        "message": _sentence(rng, 6)}) for _ in range(12)]
    return json.dumps(issues, indent=2) + "\n" + "\n".join(rows) + "\n"


def json_holdout(rng: random.Random) -> str:
    report = {"summary": {"passed": rng.randint(100, 900), "failed": rng.randint(0, 9), "skipped": 0,
                          "duration_s": round(rng.uniform(1, 300), 3)},
              "tests": [{"nodeid": f"tests/{rng.choice(['store', 'cli', 'compaction'])}/test_{rng.choice(WORDS)}.py::"
                                   f"test_{rng.choice(WORDS)}_{rng.choice(WORDS)}[{rng.randint(0, 20)}]",
                         "outcome": rng.choice(["passed", "passed", "failed"]), "duration": round(rng.random(), 4),
                         "keywords": [rng.choice(WORDS) for _ in range(2)]} for _ in range(14)],
              "environment": {"python": "3.11.7", "platform": "linux-x86_64", "plugins": {"hypothesis": "6.112.0"}}}
    return json.dumps(report, indent=4) + "\n"


def logs_calib(rng: random.Random) -> str:
    lines = []
    for _ in range(30):
        rid = f"{rng.randrange(16**12):012x}"
        lines.append(f"{_stamp(rng)} {rng.choice(['INFO ', 'DEBUG', 'WARN ', 'ERROR'])} [worker-{rng.randint(1, 8)}] "
                     f"request_id={rid} {rng.choice(['GET', 'POST', 'PUT'])} /api/v1/{rng.choice(WORDS)}s/"
                     f"{rng.randint(1, 99999)} status={rng.choice([200, 200, 201, 404, 500])} "
                     f"duration_ms={rng.uniform(0.5, 900):.1f}")
    for _ in range(20):
        ip = ".".join(str(rng.randint(1, 254)) for _ in range(4))
        lines.append(f'{ip} - - [{rng.randint(1, 28):02d}/Nov/2026:{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:'
                     f'{rng.randint(0, 59):02d} +0000] "GET /static/{rng.choice(WORDS)}.{rng.choice(["js", "css", "png"])}'
                     f'?v={rng.randrange(16**8):08x} HTTP/1.1" {rng.choice([200, 304, 404])} {rng.randint(100, 90000)} '
                     f'"-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/{rng.randint(100, 140)}.0"')
    return "\n".join(lines) + "\n"


def logs_holdout(rng: random.Random) -> str:
    lines = []
    for _ in range(40):
        kind = rng.random()
        if kind < 0.4:
            lines.append(f"[{rng.uniform(0, 99999):12.6f}] usb {rng.randint(1, 4)}-{rng.randint(1, 9)}: new high-speed "
                         f"USB device number {rng.randint(2, 60)} using xhci_hcd")
        elif kind < 0.8:
            lines.append(f"Nov {rng.randint(1, 28):2d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
                         f"{rng.randint(0, 59):02d} host{rng.randint(1, 9)} sshd[{rng.randint(1000, 65000)}]: "
                         f"Accepted publickey for deploy from 10.{rng.randint(0, 255)}.{rng.randint(0, 255)}."
                         f"{rng.randint(0, 255)} port {rng.randint(1024, 65535)} ssh2: ED25519 SHA256:"
                         f"{base64.b64encode(rng.randbytes(32)).decode().rstrip('=')}")
        else:
            lines.append(f"{_stamp(rng)} level=error msg=\"{_sentence(rng, 5).lower()}\" err=\"dial tcp "
                         f"10.0.{rng.randint(0, 9)}.{rng.randint(2, 250)}:{rng.choice([5432, 6379, 443])}: connect: "
                         f"connection refused\" attempt={rng.randint(1, 5)} trace_id={rng.randrange(16**32):032x}")
    return "\n".join(lines) + "\n"


def base64_calib(rng: random.Random) -> str:
    blob = base64.encodebytes(rng.randbytes(2400)).decode()  # MIME: 76-character lines
    return blob + base64.b64encode(rng.randbytes(600)).decode() + "\n"


def base64_holdout(rng: random.Random) -> str:
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + rng.randbytes(1500)).decode()
    return f"data:image/png;base64,{png}\n" + base64.urlsafe_b64encode(rng.randbytes(300)).decode() + "\n"


def hex_calib(rng: random.Random) -> str:
    commits = [f"{hashlib.sha1(rng.randbytes(8)).hexdigest()} {_sentence(rng, rng.randint(3, 7))}" for _ in range(25)]
    return "\n".join(commits) + "\n" + rng.randbytes(700).hex() + "\n"


def hex_holdout(rng: random.Random) -> str:
    sums = [f"{hashlib.sha256(rng.randbytes(8)).hexdigest()}  {rng.choice(PATHS)}" for _ in range(12)]
    dump = []
    for offset in range(0, 384, 16):
        chunk = rng.randbytes(16)
        dump.append(f"{offset:08x}  {chunk[:8].hex(' ')}  {chunk[8:].hex(' ')}")
    return "\n".join(sums + dump) + "\n"


def mixed_calib(rng: random.Random) -> str:
    return (
        "I ran the failing test again and looked at the traceback. The problem is in `cut.py`: the loop stops at\n"
        "the first tool result instead of the turn boundary, so the kept region starts mid-turn.\n\n"
        "```python\nfor index in range(len(entries) - 1, -1, -1):\n    if entries[index][\"type\"] == \"message\":\n"
        "        budget -= estimate_tokens(entries[index][\"message\"])\n```\n\n"
        f"Tool output:\n{json_calib(rng)[:900]}\n\nLog excerpt:\n{logs_calib(rng)[:700]}\n"
        f"Attachment (truncated): {base64.b64encode(rng.randbytes(300)).decode()}\n"
        "用户说：请不要修改配置文件，只修复测试。 Ответ: хорошо, исправлю только тест.\n"
    )


def mixed_holdout(rng: random.Random) -> str:
    return (
        "Summary of the session so far:\n- Goal: make the exporter stream rows instead of loading the table.\n"
        f"- Files touched: {', '.join(rng.sample(PATHS, 4))}\n- Last error: `KeyError: 'created_at'` at line "
        f"{rng.randint(10, 400)}\n\n{json_holdout(rng)[:700]}\n{logs_holdout(rng)[:600]}\n"
        f"commit {hashlib.sha1(rng.randbytes(4)).hexdigest()}\n次のステップ：テストを追加してから変更をコミットする。\n"
        "```js\nconst rows = await db.query(sql, params);\nfor await (const row of rows) out.write(JSON.stringify(row) + \"\\n\");\n```\n"
    )


# -- text unlike the calibration of issue 15: where an estimate fitted on ordinary text falls short (issue 23.7) --

_EMOJI = [chr(c) for c in range(0x1F600, 0x1F650)] + [chr(c) for c in range(0x1F300, 0x1F3F0, 7)]
_SKIN = [chr(c) for c in range(0x1F3FB, 0x1F400)]
_PEOPLE = ["\U0001F468", "\U0001F469", "\U0001F467", "\U0001F466", "\U0001F9D1"]
_ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


def _no_cr(text: str) -> str:
    """Files are read with universal newlines: a lone CR would come back as LF."""
    return text.replace("\r", "\n")


def _random_chars(rng: random.Random, alphabet: str, count: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(count))


def random_lowercase(rng: random.Random) -> str:
    return "\n".join(_random_chars(rng, string.ascii_lowercase, rng.randint(40, 200)) for _ in range(12)) + "\n"


def random_words(rng: random.Random) -> str:
    return " ".join(_random_chars(rng, string.ascii_lowercase, rng.randint(2, 10)) for _ in range(260)) + "\n"


def random_printable(rng: random.Random) -> str:
    return _no_cr(_random_chars(rng, string.printable, 1800)) + "\n"


def random_alnum(rng: random.Random) -> str:
    return "\n".join(_random_chars(rng, string.ascii_letters + string.digits, rng.randint(16, 64)) for _ in range(40))


def random_unicode(rng: random.Random) -> str:
    chars = []
    while len(chars) < 900:
        code = rng.choice((rng.randint(0xA0, 0x2FFF), rng.randint(0x3000, 0xFFFD), rng.randint(0x10000, 0x2FFFF)))
        if not 0xD800 <= code < 0xE000:
            chars.append(chr(code))
    return "".join(chars) + "\n"


def random_bytes(rng: random.Random) -> str:
    latin = rng.randbytes(1200).decode("latin-1")
    broken = rng.randbytes(1200).decode("utf-8", "replace")
    return _no_cr(latin + "\n" + broken) + "\n"


def private_use(rng: random.Random) -> str:
    return " ".join(_random_chars(rng, "".join(map(chr, range(0xE000, 0xF900))), rng.randint(1, 12))
                    for _ in range(150)) + "\n"


def cherokee(rng: random.Random) -> str:
    syllabary = "".join(map(chr, range(0x13A0, 0x13F5)))
    return " ".join(_random_chars(rng, syllabary, rng.randint(2, 9)) for _ in range(160)) + "\n"


def emoji(rng: random.Random) -> str:
    parts = []
    for _ in range(260):
        kind = rng.random()
        if kind < 0.4:
            parts.append(rng.choice(_EMOJI) + ("\ufe0f" if rng.random() < 0.3 else ""))
        elif kind < 0.6:
            parts.append(rng.choice(_PEOPLE[:2]) + rng.choice(_SKIN))
        elif kind < 0.8:
            parts.append("\u200d".join(rng.sample(_PEOPLE, rng.randint(2, 4))))
        else:
            parts.append(chr(0x1F1E6 + rng.randrange(26)) + chr(0x1F1E6 + rng.randrange(26)))
        if rng.random() < 0.3:
            parts.append(" " + _sentence(rng, rng.randint(1, 4)) + " ")
    return "".join(parts) + "\n"


def zero_width(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(300)]
    return "".join(w + "".join(rng.choice(_ZERO_WIDTH) for _ in range(rng.randint(1, 4))) for w in words) + "\n"


def minified_js(rng: random.Random) -> str:
    names = [_random_chars(rng, string.ascii_letters, rng.randint(1, 2)) for _ in range(30)]
    out = []
    for _ in range(90):
        a, b, c = rng.sample(names, 3)
        out.append(rng.choice([
            f"function {a}({b},{c}){{return {b}&&{c}.{rng.choice(WORDS)}?{b}[{c}]:void 0}}",
            f"var {a}={b}.{rng.choice(WORDS)}||{{}},{c}=[{rng.randint(0, 99)},{rng.randint(0, 9)}];",
            f"{a}.prototype.{rng.choice(WORDS)}=function({b}){{this.{c}={b}>>>0;return this}};",
            f"if(!{a}&&{b}!=={c})throw new Error(\"{rng.choice(WORDS)}\");",
            f"for({a}=0;{a}<{b}.length;{a}++){c}+={b}.charCodeAt({a})<<{rng.randint(1, 8)};",
            f"!function({a}){{\"use strict\";{a}.{rng.choice(WORDS)}=({b})=>{b}*{rng.randint(2, 9)}}}(window);",
        ]))
    return "".join(out) + "\n"


def html(rng: random.Random) -> str:
    rows = []
    for _ in range(18):
        cls = " ".join(f"{rng.choice(WORDS)}-{rng.choice(WORDS)}" for _ in range(rng.randint(1, 3)))
        rows.append(f'<div class="{cls}" data-id="{rng.randrange(16**8):08x}"><a href="/{rng.choice(WORDS)}/'
                    f'{rng.randint(1, 999)}?ref={rng.choice(WORDS)}&amp;v={rng.randint(1, 9)}" title="'
                    f'{_sentence(rng, 3)}">{_sentence(rng, rng.randint(2, 6))}</a><span style="color:#'
                    f'{rng.randrange(16**6):06x};margin:{rng.randint(0, 20)}px">&nbsp;{rng.randint(1, 99)}</span></div>')
    return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>\n" + "\n".join(rows) + "\n</body></html>\n"


def css(rng: random.Random) -> str:
    rules = [f".{rng.choice(WORDS)}-{rng.choice(WORDS)}>{rng.choice(['a', 'li', 'span'])}:hover{{color:#{rng.randrange(16**3):03x};"
             f"padding:{rng.randint(0, 24)}px {rng.randint(0, 24)}px;transition:all .{rng.randint(1, 9)}s ease-in-out}}"
             for _ in range(40)]
    return "\n".join(rules) + "\n"


def sql(rng: random.Random) -> str:
    lines = []
    for _ in range(20):
        table, column = rng.choice(WORDS) + "s", rng.choice(WORDS)
        lines.append(f"SELECT {column}_id, COUNT(*) AS n FROM {table} t JOIN users u ON u.id = t.user_id "
                     f"WHERE t.created_at > '{_stamp(rng)[:10]}' AND t.{column} IN ({rng.randint(1, 99)}, "
                     f"{rng.randint(100, 999)}) GROUP BY 1 ORDER BY n DESC LIMIT {rng.randint(1, 100)};")
    return "\n".join(lines) + "\n"


def csv_rows(rng: random.Random) -> str:
    rows = ["id,name,email,amount,created_at,active"]
    rows += [f"{rng.randint(1, 99999)},{rng.choice(WORDS).title()} {rng.choice(WORDS).title()},"
             f"{rng.choice(WORDS)}{rng.randint(1, 99)}@example.com,{rng.uniform(0, 9999):.2f},{_stamp(rng)},"
             f"{rng.choice(['true', 'false'])}" for _ in range(45)]
    return "\n".join(rows) + "\n"


def diff(rng: random.Random) -> str:
    out = []
    for _ in range(6):
        path = rng.choice(PATHS)
        out += [f"diff --git a/{path} b/{path}", f"index {rng.randrange(16**7):07x}..{rng.randrange(16**7):07x} 100644",
                f"--- a/{path}", f"+++ b/{path}", f"@@ -{rng.randint(1, 300)},7 +{rng.randint(1, 300)},8 @@ def "
                f"{rng.choice(WORDS)}_{rng.choice(WORDS)}(self):"]
        for _ in range(7):
            mark = rng.choice(" +-")
            out.append(f"{mark}        {rng.choice(WORDS)}_{rng.choice(WORDS)} = self.{rng.choice(WORDS)}"
                       f"({rng.choice(WORDS)}={rng.randint(0, 99)})")
    return "\n".join(out) + "\n"


def identifiers(rng: random.Random) -> str:
    import uuid

    lines = [f"{uuid.UUID(int=rng.getrandbits(128))} {_stamp(rng)} sha256:{rng.randrange(16**64):064x}"
             for _ in range(12)]
    lines += [f"https://{rng.choice(WORDS)}.example.com/{rng.choice(WORDS)}/{rng.randrange(16**10):010x}?"
              f"token={base64.urlsafe_b64encode(rng.randbytes(18)).decode()}&page={rng.randint(1, 40)}" for _ in range(12)]
    return "\n".join(lines) + "\n"


def numbers(rng: random.Random) -> str:
    rows = [" ".join(f"{rng.uniform(-1e4, 1e4):.{rng.randint(0, 6)}f}" for _ in range(8)) for _ in range(30)]
    return "\n".join(rows) + "\n"


def symbols(rng: random.Random) -> str:
    box = "─│┌┐└┘├┤┬┴┼═║╔╗╚╝" + "→←↑↓⇒⇔∀∃∈∉∑∏√∞≈≠≤≥±×÷°" + "•◦▪▫■□▲△▼▽◆◇○●★☆✓✗"
    lines = ["".join(rng.choice(box) for _ in range(rng.randint(10, 40))) + " " + _sentence(rng, 3) for _ in range(30)]
    return "\n".join(lines) + "\n"


def yaml(rng: random.Random) -> str:
    out = []
    for _ in range(6):
        out += [f"- name: {rng.choice(WORDS)}-{rng.choice(WORDS)}", f"  image: registry.example.com/{rng.choice(WORDS)}:"
                f"{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}", "  env:",
                f"    - name: {rng.choice(WORDS).upper()}_{rng.choice(WORDS).upper()}",
                f"      value: \"{rng.choice(WORDS)}\"", f"  resources: {{limits: {{cpu: {rng.randint(100, 900)}m, memory: "
                f"{rng.randint(1, 8)}Gi}}}}", f"  replicas: {rng.randint(1, 5)}"]
    return "\n".join(out) + "\n"


def latex(rng: random.Random) -> str:
    lines = []
    for _ in range(18):
        a, b = rng.choice("xyzabn"), rng.choice("ijkmt")
        lines.append(rf"\begin{{equation}} \sum_{{{b}=1}}^{{N}} \frac{{\partial {a}_{b}}}{{\partial t}} = "
                     rf"\int_0^\infty e^{{-\lambda {a}}} \, d{a} + \mathcal{{O}}({a}^{rng.randint(2, 5)}) \end{{equation}}")
    return "\n".join(lines) + "\n"


def shell(rng: random.Random) -> str:
    lines = []
    for _ in range(25):
        path = rng.choice(PATHS)
        lines.append(rng.choice([
            f"$ grep -rn '{rng.choice(WORDS)}_{rng.choice(WORDS)}' src/ | head -{rng.randint(2, 30)}",
            f"$ sed -i 's/{rng.choice(WORDS)}/{rng.choice(WORDS)}/g' {path} && git diff --stat",
            f"$ find . -name '*.{rng.choice(['py', 'ts', 'md'])}' -mtime -{rng.randint(1, 9)} -exec wc -l {{}} +",
            f"-rw-r--r--  1 dev staff {rng.randint(100, 99999):>6} Nov {rng.randint(1, 28):2d} {rng.randint(0, 23):02d}:"
            f"{rng.randint(0, 59):02d} {path}",
        ]))
    return "\n".join(lines) + "\n"


UNLIKE = {
    "random_lowercase": random_lowercase, "random_words": random_words, "random_printable": random_printable,
    "random_alnum": random_alnum, "random_unicode": random_unicode, "random_bytes": random_bytes,
    "private_use": private_use, "cherokee": cherokee, "emoji": emoji, "zero_width": zero_width,
    "minified_js": minified_js, "html": html, "css": css, "sql": sql, "csv": csv_rows, "diff": diff,
    "identifiers": identifiers, "numbers": numbers, "symbols": symbols, "yaml": yaml, "latex": latex, "shell": shell,
}
"""Each written twice from different seeds: calibration and holdout halves of the same shape."""

GENERATED = {
    "json": (json_calib, json_holdout), "logs": (logs_calib, logs_holdout), "base64": (base64_calib, base64_holdout),
    "hex": (hex_calib, hex_holdout), "mixed": (mixed_calib, mixed_holdout),
    **{name: (maker, maker) for name, maker in UNLIKE.items()},
}


def generated() -> dict[str, str]:
    """File name -> text of every generated file."""
    files = {}
    for seed, (name, makers) in enumerate(GENERATED.items()):
        for split, maker in zip(("calib", "holdout"), makers):
            files[f"{name}.{split}.txt"] = maker(random.Random(f"{name}-{split}-{seed}"))
    return files


def main() -> None:
    for file_name, text in generated().items():
        (HERE / file_name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
