"""A failed fetch of a long web address is named by its host and its page (issue 20): "Resolved along the way"
and Blocked list each failure by its action, and a whole address of a hundred characters cut the list to
"WebFetch…", which names nothing; ``raw.githubusercontent.com/…/datum.md`` tells which page failed."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.errors import action_label
from pi_compact.compaction.offline.facts import Attempt
from pi_compact.compaction.offline.paths import PathNames

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

URL = "https://raw.githubusercontent.com/example-org/example-repository/refs/heads/main/docs/reference/datum.md"


def _fetched(then_cloned: bool) -> list[dict]:
    messages = [user(f"Read {URL} and apply its format to docs/datum.md."),
                assistant(call("f", "WebFetch", url=URL, prompt="What format does it describe?")),
                result("f", "WebFetch", "Request failed with status code 404", error=True)]
    if then_cloned:
        messages += [assistant("The page is private. I'll clone the repository instead.",
                               call("c", "bash", command="git clone https://github.com/example-org/example-repository "
                                                         "/tmp/r")),
                     result("c", "bash", "Cloning into '/tmp/r'...\ndone."),
                     assistant(call("w", "write", path="docs/datum.md", content="# Datum\n")),
                     result("w", "write", "ok"),
                     assistant("docs/datum.md now follows the format.")]
    return messages


def test_a_settled_fetch_of_a_long_address_names_its_page() -> None:
    summary = summarize(_fetched(then_cloned=True))
    line = next(line for line in summary.splitlines() if line.startswith("- Resolved along the way:"))
    assert "raw.githubusercontent.com/…/datum.md" in line and URL not in line
    assert items(summary, "### Blocked") == ["(none)"]


@pytest.mark.parametrize("url", ["https://example.com/a.md", "https://docs.example.com/guide/"])
def test_a_short_address_is_named_whole(url: str) -> None:
    assert action_label(Attempt(0, "WebFetch", url, True), PathNames("", ())) == f"WebFetch `{url}`"
