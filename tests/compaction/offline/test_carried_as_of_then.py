"""An earlier summary's open work carried into a new one (carried.py): Claude Code's "Pending Tasks", "Current Work"
and "Optional Next Step" blocks say they are the earlier summary's, whether the region finished them or simply went
on to other work; a block the region left while the user set other work says it is as of then."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_answered_requests import COMMANDS, DOCS, PREVIOUS  # one earlier summary in Claude Code's shape
from .test_classes import EXAMPLES, summarize
from .test_offline import items

OTHER = st.sampled_from(["The login page shows a blank screen on Safari; find out why and fix src/login.tsx.",
                         "Switch the logger to structured JSON output in lib/log.go, keeping the levels."])


def _headings(text: str) -> list[str]:
    return [item for item in items(text, "## Critical Context")
            if item.split(" (", 1)[0].rstrip(":") in ("Pending Tasks", "Current Work", "Optional Next Step")]


@EXAMPLES
@given(command=COMMANDS, doc=DOCS, other=OTHER)
def test_open_work_the_region_moved_on_from_is_said_as_of_then(command: str, doc: str, other: str) -> None:
    messages = [user(other), assistant(call("r", "read", path="src/login.tsx")), result("r", "read", "export {}"),
                assistant("Found it: the effect runs before mount. Fixed by moving it into `useLayoutEffect`.")]
    headings = _headings(summarize(messages, previous_summary=PREVIOUS.format(command=command, doc=doc)))
    assert len(headings) == 3
    assert all("earlier summary's" in heading for heading in headings)
    assert all("moved on since" in heading for heading in headings if not heading.startswith("Current Work"))


@EXAMPLES
@given(command=COMMANDS, doc=DOCS)
def test_current_work_the_region_finished_is_the_earlier_summarys(command: str, doc: str) -> None:
    run = call("t1", "bash", command=command)
    messages = [user("continue"), assistant(run), result("t1", "bash", "all 6 tests passed"),
                assistant("The exporter is finished and its tests pass.")]
    headings = _headings(summarize(messages, previous_summary=PREVIOUS.format(command=command, doc=doc)))
    assert any(heading.startswith("Current Work (earlier summary's") for heading in headings)
    assert not any(heading.endswith(":") and "(" not in heading for heading in headings)
