"""``session context --json`` prints byte for byte what pi's ``JSON.stringify(buildSessionContext(...))`` prints.

The session holds numbers Python and JavaScript spell differently (``1.0``/``1``, ``1e-06``/``0.000001``,
``1e+21``, ``5e-07``/``5e-7``, ``-0.0``/``0``), written as Python writes them; the real pi 0.73.1 reads the file
and stringifies its context; the CLI's output must be the same bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conformance.pi_ref import SCRIPTS, ensure_pi

FLOATS = [1.0, 2.5, 1e-6, 1e-7, 5e-7, 1e21, 1e20, 123456789.0, 0.1 + 0.2, -0.0, 1e-5, 100.0, -3.0, 2**53 + 0.0]


def _session(path: Path) -> Path:
    header = {"type": "session", "version": 3, "id": "s-floats", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}
    usage = {"input": 1.0, "output": 2.0, "cacheRead": 0.0, "cacheWrite": 1e-6, "totalTokens": 3.0,
             "cost": {"input": 1e-6, "output": 5e-7, "cacheRead": 1e21, "cacheWrite": 0.1 + 0.2, "total": 100.0}}
    entries = [
        {"type": "message", "id": "e1", "parentId": None, "timestamp": "2025-01-01T00:00:01.000Z",
         "message": {"role": "user", "content": "numbers", "timestamp": 1735689601000.0}},
        {"type": "message", "id": "e2", "parentId": "e1", "timestamp": "2025-01-01T00:00:02.000Z",
         "message": {"role": "assistant", "content": [{"type": "toolCall", "id": "t1", "name": "calc",
                                                        "arguments": {"values": FLOATS}}],
                     "usage": usage, "stopReason": "toolUse", "timestamp": 1735689602000.5}},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *entries]))  # Python's spellings
    return path


def test_context_json_is_the_bytes_pi_prints(tmp_path):
    path = _session(tmp_path / "floats.jsonl")
    assert b"1e-06" in path.read_bytes() and b"1.0," in path.read_bytes()
    ensure_pi()
    pi = subprocess.run(["node", str(SCRIPTS / "pi_context.mjs"), json.dumps({"file": str(path)})],
                        capture_output=True, check=True)
    ours = subprocess.run([sys.executable, "-m", "pi_compact", "session", "context", str(path), "--json"],
                          capture_output=True, check=True, env=dict(os.environ))
    assert ours.stdout.endswith(b"\n")
    assert b'{"ok":true,"context":' + ours.stdout[:-1] + b"}" == pi.stdout.strip()
