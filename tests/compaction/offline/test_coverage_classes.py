"""Labelled facts the offline summary dropped on the calibration regions (issue 20, coverage), one class each:
the rule a clipped diagnostic ends with, a committed file when the details' room is tight, a failed call of an MCP
server's tool that another tool of the server settled. Each on generated variations of tools and phrasings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.details import MET_LABEL, STAGED_LABEL, detail_items
from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.findings import findings
from pi_compact.compaction.offline.state import region_state

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_details import CWD


def _met(text: str) -> str:
    """The settled failures' item: its label line and the quotes under it."""
    lines = text.splitlines()
    start = next((n for n, line in enumerate(lines) if MET_LABEL in line), None)
    if start is None:
        return ""
    kept = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("  > "):
            break
        kept.append(line)
    return "\n".join(kept)


# -- the rule a diagnostic line ends with survives the clip ------------------------------------------------------

LONG_SIGNATURE = ("error returned from external package is unwrapped: sig: func github.com/example/project/internal/"
                  "chunking.SplitRecords(content []byte, maxSize int, separator string, keepTrailing bool) "
                  "([][]byte, error)")


@EXAMPLES
@given(rule=st.sampled_from(["(wrapcheck)", "(errcheck)", "[attr-defined]", "[no-untyped-def]"]),
       check=st.sampled_from(["golangci-lint run ./internal/...", "mypy src/", "make lint"]))
def test_a_clipped_diagnostic_keeps_the_rule_it_ends_with(rule: str, check: str) -> None:
    error = f"internal/records/split.go:256:9: {LONG_SIGNATURE} {rule}\n\treturn chunking.SplitRecords(content)"
    messages = [user("Make the linter pass."),
                assistant(call("l", "bash", command=check)), result("l", "bash", bash_fail(error, 1), error=True),
                assistant("The linter wants the error wrapped.",
                          call("e", "edit", path=f"{CWD}/internal/records/split.go", oldText="return x",
                               newText="return fmt.Errorf(\"split: %w\", err)")),
                result("e", "edit", "Edited."),
                assistant(call("m", "bash", command=check)), result("m", "bash", "0 issues."),
                assistant("The linter passes now.")]
    met = _met(summarize(messages, metadata={"cwd": CWD}))
    assert "…" in met and rule in met


def test_a_short_diagnostic_is_quoted_once_whole() -> None:
    error = "internal/records/split.go:12:2: ineffectual assignment to err (ineffassign)"
    messages = [user("Make the linter pass."),
                assistant(call("l", "bash", command="golangci-lint run ./...")),
                result("l", "bash", bash_fail(error, 1), error=True),
                assistant(call("e", "edit", path=f"{CWD}/internal/records/split.go", oldText="err = f()",
                               newText="_ = f()")), result("e", "edit", "Edited."),
                assistant("Fixed the lint finding.")]
    met = _met(summarize(messages, metadata={"cwd": CWD}))
    assert met.count("(ineffassign)") == 1


# -- a committed file is named however tight the details' room ---------------------------------------------------

@pytest.mark.parametrize("path", ["cmd/tool/integration_test/phase_transitions_test.go",
                                  "packages/web/src/components/settings/NotificationPreferences.test.tsx"])
def test_the_first_file_a_commit_staged_is_named_in_a_tight_room(path: str) -> None:
    messages = [user("Commit the test fix we made before the break."),
                assistant(call("c", "bash", command=f"git add {path} && git commit -m 'Fix the flaky test'")),
                result("c", "bash", "[main 1a2b3c4] Fix the flaky test\n 1 file changed"),
                assistant("Committed the test fix as `1a2b3c4`.")]
    facts = extract_facts(messages)
    items = detail_items(messages, region_state(messages, facts, CWD), facts, CWD, "", 120)
    assert any(item.startswith(STAGED_LABEL) and f"`{path}`" in item for item in items)


# -- a failed call of an MCP server's tool, settled by another of its tools --------------------------------------

@EXAMPLES
@given(server=st.sampled_from(["Claude_Browser", "claude-in-chrome", "playwright"]),
       failed=st.sampled_from([("computer", "screenshot failed: Screenshot timed out after 5s"),
                               ("take_screenshot", "Error: timed out waiting for the page to render")]),
       instead=st.sampled_from(["get_page_text", "read_page", "browser_snapshot"]))
def test_a_failed_mcp_call_settled_by_another_tool_of_its_server_is_met_and_settled(
        server: str, failed: tuple[str, str], instead: str) -> None:
    tool, error = failed
    messages = [user("Check how the landing page looks now."),
                assistant(call("s", f"mcp__{server}__{tool}", action="screenshot")),
                result("s", f"mcp__{server}__{tool}", error, error=True),
                assistant(call("t", f"mcp__{server}__{instead}", tabId=1)),
                result("t", f"mcp__{server}__{instead}", "Oh My Prompt — a prompt theme engine for any shell"),
                assistant("The page shows the new hero and both buttons.")]
    met = _met(summarize(messages, metadata={"cwd": CWD}))
    assert error.split(":")[0] in met and f"mcp__{server}__{instead}" in met


def test_a_failed_mcp_call_stays_unsettled_when_only_another_server_answered() -> None:
    messages = [user("Check how the landing page looks now."),
                assistant(call("s", "mcp__Claude_Browser__computer", action="screenshot")),
                result("s", "mcp__Claude_Browser__computer", "screenshot failed: Screenshot timed out after 5s",
                       error=True),
                assistant(call("t", "mcp__docs__search", query="hero")),
                result("t", "mcp__docs__search", "hero.png: the default prompt"),
                assistant("The docs say the hero is the default prompt.")]
    assert "then mcp__docs__search" not in summarize(messages, metadata={"cwd": CWD})


# -- a hedged diagnosis ("Maybe the real issue is: …") is the agent's conclusion too ------------------------------

@EXAMPLES
@given(hedge=st.sampled_from(["Maybe the real issue is: {}", "**Maybe the real issue is:** {}",
                              "I think the problem is that {}", "But it looks like the cause is {}",
                              "Probably the actual bug is {}"]),
       cause=st.sampled_from(["clearing `LastCheckpointID` on every prompt loses the link for a commit mid-work.",
                              "the cache keeps a tree entry whose object was pruned."]))
def test_a_hedged_diagnosis_is_a_finding(hedge: str, cause: str) -> None:
    found = findings(["Let me read the hook.", hedge.format(cause) + " Let me check the history."])
    assert len(found) == 1 and cause.split(" ", 1)[1].rstrip(".") in found[0] and "Let me" not in found[0]


@pytest.mark.parametrize("text", ["Maybe the issue is worth a look later?", "I think the problem is solved now?"])
def test_a_hedged_question_is_no_finding(text: str) -> None:
    assert findings([text]) == []
