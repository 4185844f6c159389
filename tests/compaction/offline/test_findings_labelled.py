"""A finding written as a bold label and a dash is no Done item (progress.py): "**Cache invalidation** — the TTL is
never refreshed; investigate whether …", "- **Stale lock file**: might be the cause, worth checking" state a problem
or propose a look, whatever work words they hold denied ("is not updated"). They are said as open findings; a label
over work ("**Fixed retry loop** — …"), over the problem the turn fixed ("**Root cause**: …"), or a problem word in a
condition ("**Helpful errors** — if the file isn't found, it says …") stays what it was."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.progress import OPEN_FINDINGS_LABEL, finding_said

from .test_findings_not_done import _claude, _codex, _done, _pi
from .test_offline import summarize

_LABELS = ["**Cache invalidation**", "**`sessionStore`**", "1. **Token refresh**", "- **Stale config**"]
_DASHES = [" — ", " - ", ": "]
_PROBLEMS = [
    ("`cache.py` is not updated when the port changes; worth checking whether the loader caches it", "loader caches"),
    ("`auth.ts` never refreshes the expiry after a login; this is likely why sessions drop", "sessions drop"),
    ("`ReadCommitted` returns `(nil, nil)` on a miss, code will panic on `result.Metadata`", "result.Metadata"),
    ("the lock file is left behind after a crash and might be the cause, investigate it", "lock file"),
]


def _answer(label: str, dash: str, problem: str) -> str:
    return f"Committed the header change.\n\n{label}{dash}{problem}\n"


@pytest.mark.parametrize("build", [_pi, _claude, _codex], ids=["pi", "claude code", "codex"])
@pytest.mark.parametrize("label", _LABELS)
@pytest.mark.parametrize("dash", _DASHES, ids=["em dash", "hyphen", "colon"])
@pytest.mark.parametrize("problem, words", _PROBLEMS, ids=["denied work", "never", "will panic", "might"])
def test_a_labelled_finding_is_open_not_done(build, label: str, dash: str, problem: str, words: str) -> None:
    text = summarize(build(_answer(label, dash, problem), "src/header.go"))
    assert not any(words in line for line in _done(text)), text
    opened = [line for line in text.splitlines() if OPEN_FINDINGS_LABEL in line]
    assert opened and words in opened[0], text


@pytest.mark.parametrize("sentence, found", [
    ("**Cache invalidation** — the TTL is never refreshed; investigate whether the key is reused", True),
    ("- **Stale lock file**: might be the cause, worth checking", True),
    ("**Stale config**: `config.yaml` is not updated when the port changes; worth checking it", True),
    ("1. **Missing nil check** - `ReadCommitted` can return `(nil, nil)`, code will panic", True),
    ("**Fixed retry loop** — the client no longer retries without a limit", False),
    ("**`invoker.js`** — `process.stdout.write(...)` now takes a callback", False),
    ("**Root cause**: the parser never closed the file", False),
    ("**Helpful error messages** - If the function isn't found, it tells you to run `npm run dev`", False),
    ("**Enforcement**: soft enforcement (warnings only, don't block)", False),
    ("**Identify candidates**: query rows where `unit` IS NOT NULL", False),
    ("**Tests**: 173 passed", False),
])
def test_a_labelled_finding_is_told_from_work(sentence: str, found: bool) -> None:
    assert finding_said(sentence) is found
