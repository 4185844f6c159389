"""Codex's ``apply_patch`` tool names its files in the patch ("*** Update File: path", "*** Add File:", "*** Delete
File:", "*** Move to:"), not in a path argument (facts.py). Its attempts are on those files, as an edit tool's on its
path: the files it adds or changes are what the turn changed (its Done item says them, as a pi ``edit``'s does) and
are listed as edited; one it deletes or moves away is never listed as edited; a failed patch's error names its file,
never a blank one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts

from ..messages import assistant, call, result, user
from .test_offline import section, summarize

_NAMES = st.sampled_from(["src/app.py", "lib/util.ts", "cmd/main.go", "docs/guide.md", "web/index.html"])
_KINDS = st.sampled_from(["Update", "Add", "Delete"])
_KEYS = st.sampled_from(["input", "patch"])


def _patch(files: list[tuple[str, str]]) -> str:
    body = []
    for kind, path in files:
        body.append(f"*** {kind} File: {path}")
        body += ["+x = 1"] if kind == "Add" else [] if kind == "Delete" else ["@@", "-a", "+b"]
    return "*** Begin Patch\n" + "\n".join(body) + "\n*** End Patch"


def _messages(files: list[tuple[str, str]], key: str, failed: bool = False) -> list[dict]:
    reads = [path for kind, path in files if kind != "Add"]
    return [user("Tidy the modules."),
            *[m for n, path in enumerate(reads) for m in (assistant(call(f"r{n}", "shell", command=["cat", path])),
                                                          result(f"r{n}", "shell", "a"))],
            assistant(call("p", "apply_patch", **{key: _patch(files)})),
            result("p", "apply_patch", "error: patch did not apply" if failed else "Success. Updated the following "
                   "files", error=failed),
            assistant("Tidied the modules." if not failed else "The patch did not apply.")]


_FILES = st.lists(st.tuples(_KINDS, _NAMES), min_size=1, max_size=4, unique_by=lambda kind_path: kind_path[1])


@settings(max_examples=40, deadline=None)
@given(_FILES, _KEYS)
def test_a_patch_names_its_files(files: list[tuple[str, str]], key: str) -> None:
    kept = [path for kind, path in files if kind != "Delete"]
    deleted = [path for kind, path in files if kind == "Delete"]
    messages = _messages(files, key)
    targets = [attempt.target for attempt in extract_facts(messages).attempts if attempt.tool == "apply_patch"]
    assert all(targets), targets
    assert set(kept) <= set(targets) and not (set(deleted) & set(targets) if kept else False), targets
    text = summarize(messages)
    done = "\n".join(section(text, "### Done"))
    edited = next((line for line in section(text, "### Done") if line.strip().startswith("edited:")), "")
    for path in kept:
        assert f"`{path.rsplit('/', 1)[-1]}`" in edited, text
    for path in deleted:
        assert f"`{path.rsplit('/', 1)[-1]}`" not in edited, text
    if kept:
        assert "changed `" in done, text  # the turn's item says what it changed, as an edit tool's does


@given(_FILES.filter(lambda files: any(kind != "Delete" for kind, _ in files)), _KEYS)
@settings(max_examples=20, deadline=None)
def test_a_failed_patch_names_its_file(files: list[tuple[str, str]], key: str) -> None:
    text = summarize(_messages(files, key, failed=True))
    blocked = [line for line in text.splitlines() if "apply_patch" in line and "failed" in line]
    assert blocked and "apply_patch failed" not in blocked[0] and "`" in blocked[0], text
