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


GENERATED = {
    "json": (json_calib, json_holdout), "logs": (logs_calib, logs_holdout), "base64": (base64_calib, base64_holdout),
    "hex": (hex_calib, hex_holdout), "mixed": (mixed_calib, mixed_holdout),
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
