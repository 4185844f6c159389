"""A finished request's Done item names the request only where the summary quotes it nowhere else: the goal or an
"Earlier request:" line says it already, and the room of a second copy goes to the region's details."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.summary import _asked_once

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items, section

REQUESTS = st.sampled_from([
    "Please move the retry settings of the uploader into `config/retry.toml` so operators can tune them.",
    "Could you rename the `fetch_all` helper to `fetch_pages` everywhere in the crawler package?",
    "The nightly export drops rows with an empty region column; make it keep them as `unknown`.",
])
REPORTS = st.sampled_from([
    "Moved the settings: `src/upload.py` now reads `config/retry.toml` at startup.",
    "Renamed the helper; `src/upload.py` now calls the new name and the tests pass.",
    "Fixed: `src/upload.py` now writes `unknown` for an empty region.",
])


def _region(request: str, report: str) -> list[dict]:
    return [user("Set up the uploader service for the invoice archive and keep it maintainable."),
            assistant("Scaffolded the service."), user(request),
            assistant(call("e", "edit", path="src/upload.py", oldText="a", newText="b")),
            result("e", "edit", "ok"), assistant(report),
            user("Now write the release notes for this version please.")]


def _said(text: str, request: str) -> int:
    return " ".join(text.split()).count(" ".join(request.split())[:60])


@EXAMPLES
@given(request=REQUESTS, report=REPORTS)
def test_a_request_quoted_as_an_earlier_request_is_not_repeated_by_its_done_item(request: str, report: str) -> None:
    text = summarize(_region(request, report))
    done = [item for item in items(text, "### Done") if "src/upload.py" in item and "Files changed" not in item]
    assert done and all("(asked:" not in item for item in done)
    assert any(line.startswith("- Earlier request:") and request[:60] in line
               for line in section(text, "## Critical Context"))
    assert _said(text, request) == 1


@EXAMPLES
@given(request=REQUESTS, report=REPORTS)
def test_the_request_the_goal_states_is_not_repeated_by_its_done_item(request: str, report: str) -> None:
    text = summarize([user(request), assistant(call("e", "edit", path="src/upload.py", oldText="a", newText="b")),
                      result("e", "edit", "ok"), assistant(report), user("Now write the release notes please.")])
    assert not any("(asked:" in item for item in items(text, "### Done"))
    assert _said(text, request) == 1


@pytest.mark.parametrize(("item", "kept"), [
    ("Moved the settings (asked: “Please move the retry settings”)", False),
    ("Moved the settings (asked: “Please rename the crawler”)", True),  # quoted nowhere
    ("answered (asked: “Please move the retry settings”)", True),  # the request is all the item says
    ("Moved the settings; asked: “Please move the retry settings”", True),  # no request named at its end
])
def test_a_done_item_keeps_its_request_unless_quoted_and_saying_more(item: str, kept: bool) -> None:
    done = [item]
    _asked_once(done, ["Earlier request: Please move the retry settings of the uploader"], ["Build the uploader"])
    assert (done == [item]) is kept
