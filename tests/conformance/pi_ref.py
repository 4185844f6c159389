"""Run the real pi (npm `@mariozechner/pi-coding-agent`, pinned in `conformance/`) from tests.

Conformance tests compare our reader and writer with pi's own. The first call installs the pinned
pi into `<project>/.pi-ref` (once per process; `install.sh` is itself idempotent and locked),
then each helper runs one short-lived node script from `conformance/` and returns its JSON.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path
from typing import Any

import orjson

PROJECT = Path(__file__).resolve().parents[2]
SCRIPTS = PROJECT / "conformance"

_DEFAULT_LEAF: Any = object()


@functools.cache
def ensure_pi() -> Path:
    """Install the pinned pi if needed and return the `.pi-ref` directory holding it."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise RuntimeError("conformance tests need node (>= 20) and npm on PATH")
    done = subprocess.run(["bash", str(SCRIPTS / "install.sh")], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"installing the reference pi failed:\n{done.stderr}{done.stdout}")
    return PROJECT / ".pi-ref"


NODE_TIMEOUT_S = 240
"""A batch answers in seconds. Twice this project's full runs stalled on a `pi_context.mjs --batch` child spinning
at 100% CPU: pi 0.73.1's v1 migration can give two entries one random id, and pi then walks a parent cycle
forever. The script now seeds pi's ids and answers such a clash (or any cycle on the walk) as pi's bug, so a
batch is the same on every run; this timeout is the last guard, turned into an error naming the script."""


def _node(script: str, args: list[str], payload: Any) -> Any:
    ensure_pi()
    command, data = ["node", str(SCRIPTS / script), *args], orjson.dumps(payload)
    try:
        done = subprocess.run(command, input=data, capture_output=True, timeout=NODE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"node {script} {' '.join(args)} gave no answer in {NODE_TIMEOUT_S} s") from None
    if done.returncode != 0:
        detail = done.stderr.decode(errors="replace") or done.stdout.decode(errors="replace")
        raise RuntimeError(f"node {script} {' '.join(args)} failed (exit {done.returncode}):\n{detail}")
    return orjson.loads(done.stdout)


def pi_contexts(requests: list[dict]) -> list[dict]:
    """Answer many `pi_context.mjs` requests with one node start.

    A request is `{"file": path, "leaf"?: id | None, "entries"?: True, "tree"?: True, "llm"?: True}`;
    each answer is `{"ok": True, "context": {...}, ...}` or `{"ok": False, "error": ...}`, in order, with
    `"piBug": True` where pi itself would never answer (a clash of its migrated ids, a parent cycle).
    Migrated ids are seeded: the same on every run, and the same in `entries` and `tree`.
    """
    return _node("pi_context.mjs", ["--batch"], [{**r, "file": str(r["file"])} for r in requests])


def pi_context(path: str | Path, leaf: str | None = _DEFAULT_LEAF) -> dict:
    """pi's `buildSessionContext` for a file: `{"messages", "thinkingLevel", "model"}`.

    Leave `leaf` out for pi's default (the last entry in file order); `None` is an explicit null leaf.
    """
    request: dict[str, Any] = {"file": str(path)}
    if leaf is not _DEFAULT_LEAF:
        request["leaf"] = leaf
    [answer] = pi_contexts([request])
    if not answer["ok"]:
        raise RuntimeError(f"pi could not build the context of {path}: {answer['error']}")
    return answer["context"]


def pi_writes(jobs: list[dict]) -> list[dict]:
    """Replay many scripts with one node start; a job is `{"dir", "script", "cwd"?}`.

    Each result is `{"ok": True, "file", "ids", "leaf", "context"}` or `{"ok": False, "error"}`.
    """
    return _node("pi_write.mjs", ["--batch"], [{**job, "dir": str(job["dir"])} for job in jobs])


def pi_write(script: list[dict], directory: str | Path, cwd: str | None = None) -> dict:
    """Have pi's persisted `SessionManager` replay `script` into a new file under `directory`.

    Returns `{"ok", "file", "ids", "leaf", "context"}`: `ids` holds the id each op created (None
    for `branch`/`resetLeaf`). The ops are listed in `conformance/pi_write.mjs`. `cwd` (the
    header's) defaults to `directory`.
    """
    job: dict[str, Any] = {"dir": directory, "script": script}
    if cwd is not None:
        job["cwd"] = cwd
    [result] = pi_writes([job])
    if not result["ok"]:
        raise RuntimeError(f"pi could not write the script: {result['error']}\n{result.get('stack', '')}")
    return result
