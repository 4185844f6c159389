"""Redaction benchmark: how fast ``redact_secrets`` is on hostile and on ordinary text, and how well it does.

``python -m bench.redact_bench`` prints (1) the time to redact texts that made the earlier patterns quadratic
(a 48 KB line of ``TOKEN``, 5,000 blank lines, ...) and a realistic session's whole text, and (2) recall and
precision on the corpus the tests use (``tests/compaction/data/redaction_corpus.json``). When
``detect-secrets`` is installed (it is not a dependency), its figures on the same corpus are printed beside,
with each value it reports replaced as ours are.
"""

from __future__ import annotations

import json
import os
from collections import Counter
import tempfile
import time
from pathlib import Path

from pi_compact import Session
from tests.compaction.redaction_families import cases
from pi_compact.compaction.redact import REDACTED, redact_secrets
from sessions_fixtures import REALISTIC

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "compaction" / "data" / "redaction_corpus.json"

HOSTILE = {
    "48 KB line of TOKEN": "TOKEN" * 9_600,
    "48 KB line of a_token_": "a_token_" * 6_000,
    "5,000 blank lines": "\n" * 5_000,
    "1 MB base64 line": "A1b2" * 250_000,
    "30,000 BEGIN lines, no END": "-----BEGIN RSA PRIVATE KEY-----\n" * 30_000,
    "20,000 URLs without @": "a://b:" * 20_000,
}


def _seconds(redact, text: str) -> float:
    started = time.perf_counter()
    redact(text)
    return time.perf_counter() - started


def _session_text() -> str:
    with Session.open(REALISTIC) as session:
        return "\n".join(json.dumps(entry, ensure_ascii=False) for entry in session.entries())


def score(redact) -> dict:
    """Secrets gone (recall) and look-alikes untouched, on the corpus."""
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    caught = [case["id"] for case in corpus["secrets"] if case["secret"] not in redact(case["text"])]
    spoiled = [case["id"] for case in corpus["lookalikes"] if redact(case["text"]) != case["text"]]
    secrets, lookalikes = len(corpus["secrets"]), len(corpus["lookalikes"])
    redacted_spans = len(caught) + len(spoiled)
    return {
        "recall": f"{len(caught)}/{secrets} ({len(caught) / secrets:.0%})",
        "look-alikes kept": f"{lookalikes - len(spoiled)}/{lookalikes}",
        "precision": f"{len(caught) / redacted_spans:.0%}" if redacted_spans else "n/a",
        "missed": sorted({case["id"] for case in corpus["secrets"]} - set(caught)),
        "false positives": spoiled,
    }


def _detect_secrets():
    """``detect-secrets`` as a redactor (each value it reports, replaced), or ``None`` when not installed."""
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings
    except ImportError:
        return None
    folder = tempfile.mkdtemp()

    def redact(text: str) -> str:
        path = os.path.join(folder, "sample.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        with default_settings():
            found = SecretsCollection()
            found.scan_file(path)
        for _, secret in found:
            if secret.secret_value:
                text = text.replace(secret.secret_value, REDACTED)
        return text

    return redact


def main() -> None:
    print("redact_secrets on hostile text (each was quadratic before; 48 KB of TOKEN took 7.5 s):")
    for name, text in HOSTILE.items():
        print(f"  {name:30} {_seconds(redact_secrets, text) * 1000:8.1f} ms")
    text = _session_text()
    print(f"  {'realistic session, ' + format(len(text) // 1024, ',') + ' KB':30} "
          f"{_seconds(redact_secrets, text) * 1000:8.1f} ms")
    print("corpus:")
    print("  pi-compact    ", json.dumps(score(redact_secrets)))
    print("shape families (tests/compaction/redaction_families.py), per split:")
    for split in ("tuning", "held_out"):
        secrets, lookalikes = cases(split)
        missed = Counter(case.family for case in secrets if case.secret in redact_secrets(case.text))
        spoiled = sum(redact_secrets(case.text) != case.text for case in lookalikes)
        print(f"  {split:9} secrets redacted {len(secrets) - sum(missed.values())}/{len(secrets)} "
              f"(missed by family: {dict(missed) or 'none'}), look-alikes kept {len(lookalikes) - spoiled}/{len(lookalikes)}")
    detector = _detect_secrets()
    if detector is None:
        print("  detect-secrets  not installed (pip install detect-secrets to compare)")
    else:
        print("  detect-secrets", json.dumps(score(detector)))
        print(f"  detect-secrets on the realistic session: {_seconds(detector, text):.1f} s")


if __name__ == "__main__":
    main()
