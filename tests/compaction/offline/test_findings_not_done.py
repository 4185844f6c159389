"""Findings of a review are open work, not work done (progress.py): what the agent, its sub-agent or a reviewer
reports as found ("`parser.go:140` — the error is swallowed; investigate whether …", "P2: …", the items under "##
Remaining issues" or "The reviewer's findings:") is no Done item, whatever result words it holds ("returns",
"now"). A finding no later change took up is said as open ("Findings the agent reported that no later change took
up"); one a later request fixed is said by that fix. What the agent did stays Done: an edit, a commit, a heading over
what was fixed ("### Issues Fixed"), a finding said with its fix ("Bug: … — fixed by …"). Nor is a step the agent
tells the user to take ("Now refresh the page …") or a question it asks work done."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.progress import OPEN_FINDINGS_LABEL, done_items, finding_said
from pi_compact.compaction.offline.state import DONE, Turn

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

_FINDINGS_ANSWER = (
    "Committed the parser change as `a1b2c3d`.\n\n"
    "The reviewer's findings:\n"
    "1. `parser.go:140` — `readHeader()` returns nil when the header is short, so the error is swallowed; "
    "investigate whether callers rely on it.\n"
    "2. **P2**: `lexer.go` now allocates a buffer per token; consider pooling it.\n")
_HEADED_ANSWER = (
    "Updated `decode()` in `frame.rs` to reject frames over 16 MiB.\n\n"
    "## Remaining issues\n\n"
    "- `stream.rs` returns early when the peer resets, leaving the buffer unflushed\n"
    "- The timeout in `client.rs` is now 30s but the server still uses 10s\n")


def _done(text: str) -> list[str]:
    return [line for line in items(text, "### Done") if not line.startswith("Files changed")]


def _pi(answer: str, path: str) -> list[dict]:
    """pi: an ``edit``, a passing check, then the answer."""
    return [user("Review the parser change and commit it."),
            assistant(call("e1", "edit", path=path, oldText="a", newText="b")), result("e1", "edit", "ok"),
            assistant(call("b1", "bash", command="go test ./...")), result("b1", "bash", "ok  example.com/parser  0.4s"),
            assistant(answer)]


def _claude(answer: str, path: str) -> list[dict]:
    """Claude Code: a ``Task`` sub-agent reviews, the agent edits and commits, then relays the review."""
    return [user("Have a reviewer check the parser change, then commit it."),
            assistant(call("t1", "Task", description="Review parser change", prompt="Review the diff.",
                           subagent_type="code-reviewer")),
            result("t1", "Task", "## Findings\n\n1. `parser.go:140` — the error from `readHeader()` is swallowed; "
                   "investigate whether it should be returned.\n2. P2: `lexer.go` allocates a buffer per token.\n"
                   "\nagentId: a1b2c3d4"),
            assistant(call("e1", "Edit", file_path=path, old_string="a", new_string="b")),
            result("e1", "Edit", f"The file {path} has been updated."),
            assistant(call("b1", "Bash", command="git commit -am 'parser: stricter headers'")),
            result("b1", "Bash", "[main a1b2c3d] parser: stricter headers\n 1 file changed"),
            assistant(answer)]


def _codex(answer: str, path: str) -> list[dict]:
    """Codex: ``apply_patch``, then the answer."""
    patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n-a\n+b\n*** End Patch"
    return [user("Review the parser change and fix the header check."),
            assistant(call("p1", "apply_patch", input=patch)), result("p1", "apply_patch", "Success. Updated files."),
            assistant(answer)]


@pytest.mark.parametrize("build", [_pi, _claude, _codex], ids=["pi", "claude code", "codex"])
@pytest.mark.parametrize("answer, findings, work", [
    (_FINDINGS_ANSWER, ["parser.go:140", "buffer per token"], "a1b2c3d"),
    (_HEADED_ANSWER, ["unflushed", "server still uses 10s"], "16 MiB"),
], ids=["listed after a line", "under a heading"])
def test_findings_are_not_done_but_open(build, answer: str, findings: list[str], work: str) -> None:
    text = summarize(build(answer, "src/header.go"))
    done = _done(text)
    # what the agent did stays (Claude Code's turn committed: its commit says it)
    assert any(work in line or "stricter headers" in line for line in done), done
    for finding in findings:
        assert not any(finding in line for line in done), done
        opened = [line for line in text.splitlines() if OPEN_FINDINGS_LABEL in line]
        assert opened and finding in opened[0], text


def test_a_finding_a_later_request_fixed_is_not_open() -> None:
    messages = [*_pi(_FINDINGS_ANSWER, "src/header.go"),
                user("fix the first one"),
                assistant(call("e2", "edit", path="internal/parser.go", oldText="return nil", newText="return err")),
                result("e2", "edit", "ok"),
                assistant("Fixed: `readHeader()` errors are returned from `parse()` again.")]
    text = summarize(messages)
    opened = [line for line in text.splitlines() if OPEN_FINDINGS_LABEL in line]
    assert opened and "parser.go:140" not in opened[0] and "buffer per token" in opened[0], text
    assert any("readHeader()" in line and "returned" in line for line in _done(text)), text


def test_a_heading_over_fixes_still_needed_is_no_work() -> None:
    """"### Critical Fixes Needed" heads what is still to fix, whatever its word "Fixes"; nor is it what the turn
    made when the answer states no other result."""
    answer = ("## Review of `frame.rs`\n\n### Critical Fixes Needed (30-60 min)\n\n1. `stream.rs` leaks the buffer "
              "on reset\n2. `client.rs` retries without a limit\n")
    text = summarize(_pi(answer, "src/frame.rs"))
    assert not any("Fixes Needed" in line or "leaks the buffer" in line for line in _done(text)), text
    opened = [line for line in text.splitlines() if OPEN_FINDINGS_LABEL in line]
    assert opened and "leaks the buffer" in opened[0], text


@pytest.mark.parametrize("answer, kept", [
    ("### Issues Fixed\n\n- Removed the duplicate `flush()` call in `writer.go`\n- Added a bounds check to `slice()`",
     "duplicate `flush()`"),
    ("Bug: the parser dropped tabs — fixed by normalising whitespace in `lex()`.", "normalising whitespace"),
    ("Now the export button should work: `export()` writes the CSV to `out/report.csv`.", "out/report.csv"),
    ("## Problem\n\nThe root cause was a stale cache key in `cache.py`.\n\n## Fix\n\nReplaced the key with the file's "
     "hash.", "Replaced the key"),
], ids=["issues fixed", "bug with its fix", "should work after a fix", "problem then fix"])
def test_work_done_about_findings_stays_done(answer: str, kept: str) -> None:
    text = summarize(_pi(answer, "src/writer.go"))
    assert any(kept in line for line in _done(text)), text
    assert OPEN_FINDINGS_LABEL not in text, text


@pytest.mark.parametrize("sentence, found", [
    ("`diff.go:512` — the error is swallowed; investigate whether the caller retries", True),
    ("P1: missing nil check in `auth.go:88`", True),
    ("Issue 2: `parse()` returns an empty list on bad input", True),
    ("Pre-review analysis should use `git diff --name-only` to get changed files", True),
    ("Consider caching the token in `session.ts`.", True),
    ("Fixed the swallowed error in `diff.go`.", False),
    ("Added a nil check in `auth.go:88`.", False),
    ("Now the button should work.", False),
    ("Could not reproduce the crash with `go test -race`.", False),
])
def test_a_finding_is_told_from_work(sentence: str, found: bool) -> None:
    assert finding_said(sentence) is found


@pytest.mark.parametrize("answer, not_done", [
    ("Changed the terminal URL to `https://localhost:8443` in `compose.yml`.\n\nNow refresh the page at "
     "http://localhost:8080 and open the terminal again.", "refresh the page"),
    ("Switched the free tier to Groq in `llm.ts`.\n\nTo use the app now: wait 30 seconds for the rate limit to reset.",
     "wait 30 seconds"),
], ids=["refresh", "to use it"])
def test_a_step_for_the_user_is_not_done(answer: str, not_done: str) -> None:
    done = _done(summarize(_pi(answer, "src/llm.ts")))
    assert done and not any(not_done in line.lower() for line in done), done


@pytest.mark.parametrize("question", [
    "さて、`chapter-7` のローカル・リモート削除を進めますか？（先ほど中断されたので確認）",
    "那么，要继续删除本地和远程的 `chapter-7` 分支吗？",
    "**Shall I delete `chapter-7` locally and on the remote now?**",
])
def test_a_question_is_not_what_a_turn_did(question: str) -> None:
    """A question the agent asks at its answer's end, in a full-width mark or bold, is no Done item."""
    messages = [user("remember to pull main at the start of every session"),
                assistant(call("w1", "write", path="/home/u/.claude/memory/MEMORY.md", content="- pull main first\n")),
                result("w1", "write", "Successfully wrote 18 bytes"),
                assistant(f"記録しました。\n\n{question}")]
    done = _done(summarize(messages))
    assert not any("chapter-7" in line for line in done), done


def test_a_label_over_a_list_is_not_what_a_turn_did() -> None:
    """A bold label ending on a colon ("**Local branches (2):**") introduces a list; read alone it says nothing done."""
    turn = Turn(request="sync local and remote", final_answer="OK.\n\n**Local branches (2):**\n- `feature-a`"
                "\n- `spike`\n\nGo?", status=DONE, commits=(), decisions=())
    assert not any("Local branches" in item for item in done_items(turn)), done_items(turn)
