"""Over budget, the summary cuts a next step that says again what an earlier one says before any distinct step,
and the line of settled errors is cut after a whole item, never inside one (summary.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.summary import _whole_items, repeated_step

from .test_classes import EXAMPLES

OBJECTS = ["the endpoint", "the schema migration", "`parse_header` in src/parser.py", "the README section on flags"]
VERBS = ["Document", "Expose", "Test", "Rewrite"]


@EXAMPLES
@given(verbs=st.lists(st.sampled_from(VERBS), min_size=2, max_size=4, unique=True), thing=st.sampled_from(OBJECTS),
       label=st.sampled_from(["Task still to do: ", "Fix: ", ""]), again=st.sampled_from(["", "Then: ", "Still open: "]))
def test_a_step_said_again_is_found_and_distinct_steps_are_not(verbs: list[str], thing: str, label: str,
                                                                again: str) -> None:
    distinct = [f"{label}{verb} {thing}" for verb in verbs]  # one word apart: each its own step
    assert repeated_step(distinct) is None
    repeated = [*distinct, f"{again}{distinct[0]}."]  # the same step under another label
    assert repeated_step(repeated) == len(distinct)


ITEMS = st.lists(st.sampled_from([
    "“`npm test` fails on the fixture path” (fixed by pointing the loader at tests/fixtures)",
    "“the build broke on a missing import” (the import was restored in src/app.ts)",
    "“push rejected: non-fast-forward” (rebased on origin/main, then pushed)",
    "“Permission denied writing /var/cache/app” (the cache moved under the project)"]), min_size=1, max_size=12)


@EXAMPLES
@given(parts=ITEMS, limit=st.integers(120, 560))
def test_the_settled_line_is_cut_after_a_whole_item(parts: list[str], limit: int) -> None:
    line = _whole_items("Errors told in words and since settled:", parts, limit)
    assert len(line) <= limit
    body = line.split(":", 1)[1].strip()
    shown = [part for part in body.split("; ") if part != "…"]
    if len(parts[0]) + 45 <= limit:
        whole = [part for part in shown if part in parts]
        assert whole == parts[: len(whole)]  # whole items, in order
        # of the first item that did not fit, at most its quoted error, whole
        assert all(parts[len(whole)].startswith(part) and part.endswith("”") for part in shown[len(whole):])
        assert len(shown) - len(whole) <= 1
        assert body.endswith("; …") == (len(whole) < len(parts))
