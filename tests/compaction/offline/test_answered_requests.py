"""A request the region answered is not repeated as one still to do (summary.py; issue 20, class 5 of the validation
faults): quoted under Critical Context, it says it was done (or answered), and no next step names it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

FINISHED = st.sampled_from([
    ("can we make it so that the hook logs go to their own file under .entire/logs", "internal/logging/setup.go",
     "The hook logs now go to their own file under `.entire/logs`.", "done"),
    ("add a --json flag to the list command so scripts can read it", "cmd/list.go",
     "Added the `--json` flag to the list command.", "done"),
    ("why does the export skip archived projects?", "",
     "The export skips them because `include_archived` defaults to false in `export/config.py`.", "answered"),
])


def _turn(request: str, path: str, answer: str) -> list[dict]:
    if not path:
        return [user(request), assistant(answer)]
    edit = call(f"e-{path}", "edit", path=path, oldText="a", newText="b")
    return [user(request), assistant("On it.", edit), result(f"e-{path}", "edit", "Edited."), assistant(answer)]


@EXAMPLES
@given(finished=FINISHED)
def test_an_answered_request_is_quoted_as_done_and_is_no_next_step(finished: tuple[str, str, str, str]) -> None:
    request, path, answer, status = finished
    messages = [*_turn("Build the project dashboard CLI: list, export and hooks.", "cmd/root.go", "Set up the CLI."),
                *_turn(request, path, answer),
                user("now add paging to the dashboard's project table, 20 rows a page"),
                assistant("Adding paging.", call("p1", "edit", path="ui/table.go", oldText="a", newText="b"))]
    text = summarize(messages)
    quoted = [item for item in items(text, "## Critical Context") if item.startswith("Earlier request:")]
    named = [item for item in quoted if request[:30] in item]
    assert all(item.endswith(f" — {status}") for item in named), quoted  # (the work log may name it instead)
    for heading in ("## Next Steps", "## Constraints & Preferences", "### In Progress"):
        assert not any(request[:30] in item for item in items(text, heading)), heading


PREVIOUS = """This session is being continued from a previous conversation. The conversation is summarized below:

1. Primary Request and Intent:
   The user asked for a CSV export of the reports.

7. Pending Tasks:
   - Run the new tests to verify they pass (`{command}`)
   - Update `{doc}` with the export usage

8. Current Work:
   Writing the exporter in src/export.py.

9. Optional Next Step:
   Run `{command}` and fix what fails.
"""
COMMANDS = st.sampled_from(["pytest tests/test_export.py", "go test ./export/...", "npm run test:export"])
DOCS = st.sampled_from(["README.md", "docs/export.md"])


@EXAMPLES
@given(command=COMMANDS, doc=DOCS)
def test_an_earlier_summarys_pending_work_done_since_says_so(command: str, doc: str) -> None:
    run = call("t1", "bash", command=command)
    edit = call("d1", "edit", path=doc, oldText="a", newText="b")
    messages = [user("continue"), assistant(run), result("t1", "bash", "all 6 tests passed"),
                assistant(edit), result("d1", "edit", "Edited."), assistant("The tests pass and the usage is documented."),
                user("now add a --since flag to the export"), assistant("Adding the flag.")]
    text = summarize(messages, previous_summary=PREVIOUS.format(command=command, doc=doc))
    critical = items(text, "## Critical Context")
    for heading in ("Pending Tasks", "Optional Next Step"):
        assert not any(item.startswith(f"{heading}:") for item in critical), critical  # said as the earlier summary's
    for named in (f"`{command}`", f"`{doc}`"):
        assert all(item.endswith("— done since") for item in critical if named in item and "Pending" not in item[:20]), critical
