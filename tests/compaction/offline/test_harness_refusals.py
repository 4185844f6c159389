"""A call the agent's harness turned back in plain text (issue 20): Claude Code's directory and redirection guards,
its permission rules and hooks, Gemini CLI's policy engine and headless approval mode, opencode's permission rules.
Like the user's refusal it is a limit on the agent, never an open error, a Blocked item or a "Fix:" step; "Permission
denied" alone is the system refusing, an error that stays open."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.outcome import harness_refusal

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

REFUSALS = st.sampled_from([
    "cd to '{d}' was blocked. For security, Claude Code may only change directories to child directories of the "
    "allowed working directories for this session (including '/work/app').",
    "Output redirection to '{d}/log.txt' was blocked. For security, Claude Code may only write to files in the "
    "allowed working directories for this session: '/work/app'.",
    "Error: Permission to use Bash has been denied. IMPORTANT: You *may* attempt to accomplish this action using "
    "other tools that might naturally be used to accomplish this goal, e.g. using head instead of cat.",
    "PreToolUse:Bash hook error: [/home/u/.claude/hooks/guard.sh]: commands outside {d} are not allowed",
    "Hook PreToolUse:Bash denied this tool",
    "PreToolUse:Bash hook returned blocking error: use the project's task runner",
    "Tool execution denied by policy.",
    "Tool execution for \"run_shell_command\" requires user confirmation, which is not supported in non-interactive "
    "mode.",
    "The user has specified a rule which prevents you from using this specific tool call. Here are some of the "
    "relevant rules: bash deny *",
    "Command blocked by the sandbox: network access to {d} is not allowed",
])
DIRECTORIES = st.sampled_from(["/other/repo", "/tmp", "../sibling", "/Users/me/src/api"])


def _session(refusal: str, directory: str, *, error: bool = True) -> list:
    return [user("Run the sibling repository's tests, then fix the parser."),
            assistant(call("a", "bash", command=f"cd {directory} && npm test")),
            result("a", "bash", refusal.format(d=directory), error=error),
            assistant(call("b", "edit", path="src/parser.py", oldText="a", newText="b")),
            result("b", "edit", "ok"),
            assistant("Let me look at the next part.")]


def _blocked(summary: str) -> list[str]:
    return [item for item in items(summary, "### Blocked") if item != "(none)"]


@EXAMPLES
@given(refusal=REFUSALS, directory=DIRECTORIES)
def test_a_call_the_harness_turned_back_is_no_blocker_nor_fix(refusal: str, directory: str) -> None:
    summary = summarize(_session(refusal, directory))
    assert _blocked(summary) == [], summary
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps")), summary


def test_permission_denied_by_the_system_stays_open() -> None:
    summary = summarize(_session(bash_fail("sh: /other/repo/run.sh: Permission denied", 126), "/other/repo"))
    assert any(step.startswith("Fix") for step in items(summary, "## Next Steps")), summary


@pytest.mark.parametrize(("text", "refused"), [
    ("cd to '/x' was blocked. For security, Claude Code may only change directories to child directories", True),
    ("Permission to use Write has been denied. IMPORTANT: You *may* attempt …", True),
    ("Hook PreToolUse:Edit denied this tool", True),
    ("Tool execution denied by policy.", True),
    ("bash: ./deploy.sh: Permission denied", False),
    ("EACCES: permission denied, open '/etc/hosts'", False),
    ("error: the push was blocked because it contains secrets", False),
    ("fatal: unable to access 'https://x/': The requested URL returned error: 403", False),
])
def test_harness_refusals_are_told_from_system_errors(text: str, refused: bool) -> None:
    assert harness_refusal(text) is refused
