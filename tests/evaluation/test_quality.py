"""The summary quality score: it must pass Claude's real summaries against the hand labels, and fail summaries
that report finished work as open, invent work, or give errors the wrong status."""

from __future__ import annotations

import json
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact import Session
from pi_compact.evaluation.quality import (
    Quality,
    RegionLabels,
    score_quality,
    section_of,
    summaries_at,
    summary_items,
)
from sessions_fixtures import BEFORE_COMPACTION, HERE, LARGE_SESSION
from tests.compaction.messages import assistant, bash_fail, call, result, user

LABELS = HERE / "labels"


@cache
def before_path() -> tuple[dict, ...]:
    with Session.open(BEFORE_COMPACTION) as session:
        return tuple(session.branch())


@cache
def labels(name: str) -> RegionLabels:
    return RegionLabels.load(LABELS / f"{name}.json")


def claude_summary(number: int) -> str:
    """The summary Claude wrote for pi's ``number``-th real compaction of before-compaction."""
    return [e for e in before_path() if e.get("type") == "compaction"][number - 1]["summary"]


def region(number: int) -> list[dict]:
    return labels(f"before-compaction.{number}").region_of(list(before_path()))


# -- the hand labels --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["before-compaction.1", "before-compaction.2", "large-session.first-half"])
def test_every_label_file_is_complete_and_cuts_where_it_says(name):
    data = json.loads((LABELS / f"{name}.json").read_text())
    assert {"session", "region", "goal", "done", "in_progress", "next", "errors", "constraints"} <= data.keys()
    for section in ("done", "in_progress", "next", "errors", "constraints"):
        for item in data[section]:
            assert item["text"] and item["keys"], (section, item)
    assert all(item["status"] in ("open", "resolved") for item in data["errors"])
    source = BEFORE_COMPACTION if name.startswith("before") else LARGE_SESSION
    with Session.open(source) as session:
        path = session.branch()
    cut = labels(name).region_of(path)
    assert len(cut) == data["region"]["firstKeptIndex"]


@pytest.mark.parametrize("number", [1, 2])
def test_the_labelled_regions_end_where_pis_real_compactions_cut(number):
    path = list(before_path())
    compaction = [e for e in path if e.get("type") == "compaction"][number - 1]
    kept_at = next(i for i, e in enumerate(path) if e.get("id") == compaction["firstKeptEntryId"])
    assert labels(f"before-compaction.{number}").first_kept_index == kept_at


def test_a_region_whose_cut_text_does_not_match_is_refused():
    moved = RegionLabels(first_kept_index=291, first_kept_text="i reviwed what we have")
    with pytest.raises(ValueError, match="does not start with"):
        moved.region_of(list(before_path()))


# -- Claude's real summaries score well --------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2])
def test_claudes_real_summaries_score_well_against_the_labels(number):
    quality = score_quality(region(number), claude_summary(number), labels(f"before-compaction.{number}"))
    assert quality.items >= 15
    assert quality.precision >= 0.9, quality.unsupported
    assert quality.stale == (), quality.stale
    assert quality.open_recall >= 0.75
    assert quality.error_mistakes == ()
    assert quality.char_ratio < 0.02 and quality.token_ratio < 0.02


def test_claudes_first_summary_names_the_real_next_step():
    items = summary_items(claude_summary(1))
    assert any(item.section == "next" and "WP14" in item.text for item in items)
    assert not any(item.section in ("in_progress", "next") and "WP13" in item.text for item in items)


# -- it can fail ------------------------------------------------------------------------------------------------------

FINISHED_AS_OPEN = "\n\n## Progress\n### In Progress\n- [ ] WP14: create `main-new.ts` and `cli-new.ts`\n"


def test_a_finished_item_listed_in_progress_is_stale_by_the_labels():
    summary = claude_summary(2) + FINISHED_AS_OPEN
    quality = score_quality(region(2), summary, labels("before-compaction.2"))
    assert quality.stale == ("WP14: create `main-new.ts` and `cli-new.ts`",)
    assert quality.staleness > 0


def test_the_same_item_is_not_stale_where_it_really_was_next():
    summary = claude_summary(1) + FINISHED_AS_OPEN
    assert score_quality(region(1), summary, labels("before-compaction.1")).stale == ()


def test_a_finished_item_listed_as_next_is_stale_by_the_heuristic_too():
    messages = [
        user("Add a --verbose flag to cli.py"),
        assistant(call("c1", "edit", path="src/cli.py", oldText="a", newText="b")),
        result("c1", "edit", "Successfully replaced text in src/cli.py."),
        assistant(call("c2", "bash", command='git commit -am "Add --verbose flag to src/cli.py"')),
        result("c2", "bash", "[main 1a2b3c4] Add --verbose flag"),
        assistant("Done! The `--verbose` flag is added to `src/cli.py` and committed."),
    ]
    stale = "## Next Steps\n1. Add the `--verbose` flag to `src/cli.py`\n"
    fresh = "## Next Steps\n1. Document the `--verbose` flag in `README.md`\n"
    assert score_quality(messages, stale).stale == ("Add the `--verbose` flag to `src/cli.py`",)
    assert score_quality(messages, fresh).stale == ()


INVENTED = ("\n\n## Progress\n### Done\n- [x] Migrated `src/billing/stripe_gateway.py` to the `PaymentIntent` API\n"
            "- [x] Added Redis caching to `services/cache/redis_pool.go`\n\n## Next Steps\n"
            "1. Deploy `helm/charts/payments` to the staging Kubernetes cluster\n")


@pytest.mark.parametrize("number", [1, 2])
def test_invented_items_lose_precision(number):
    name = f"before-compaction.{number}"
    honest = score_quality(region(number), claude_summary(number), labels(name))
    padded = score_quality(region(number), claude_summary(number) + INVENTED, labels(name))
    assert padded.precision < honest.precision
    assert len(padded.unsupported) - len(honest.unsupported) == 3
    assert any("stripe_gateway" in text for text in padded.unsupported)


def test_a_summary_of_nothing_but_inventions_scores_zero():
    quality = score_quality(region(1), INVENTED)
    assert quality.precision == 0.0


@pytest.mark.parametrize("text, section, right", [
    ("## Progress\n### Blocked\n- TS2339: Property 'tokensAfter' does not exist on type 'CompactionEntry'", "blocked", False),
    ("## Critical Context\n- Error: error TS2305: no exported member 'QueueMode'", "other", False),
    ("## Progress\n### Done\n- [x] Fixed TS2339 (`tokensAfter` is not on CompactionEntry)", "done", True),
    ("## Critical Context\n- The TS2305 error on `QueueMode` was fixed with an inline type", "other", True),
])
def test_errors_are_judged_open_or_resolved_against_the_labels(text, section, right):
    quality = score_quality(region(1), text, labels("before-compaction.1"))
    assert summary_items(text)[0].section == section
    assert quality.errors == 1
    assert (quality.error_accuracy == 1.0) is right


FAILING = [
    user("Run the tests"),
    assistant(call("c1", "bash", command="pytest -q tests/test_parser.py")),
    result("c1", "bash", bash_fail("E   ValueError: bad header\n1 failed", 1), error=True),
    assistant(call("c2", "edit", path="src/parser.py", oldText="a", newText="b")),
    result("c2", "edit", "Successfully replaced text in src/parser.py."),
]


def test_an_error_fixed_later_in_the_region_is_resolved_by_the_heuristic():
    fixed = FAILING + [assistant(call("c3", "bash", command="pytest -q tests/test_parser.py")),
                       result("c3", "bash", "12 passed in 0.3s")]
    open_summary = "## Progress\n### Blocked\n- `pytest -q tests/test_parser.py` failed: ValueError: bad header\n"
    assert score_quality(fixed, open_summary).error_accuracy == 0.0
    assert score_quality(FAILING, open_summary).error_accuracy == 1.0


@pytest.mark.parametrize("then", [
    [assistant(call("c3", "bash", command="cd src && pytest -q tests/test_parser.py && git commit -am fix")),
     result("c3", "bash", "12 passed")],  # the same command, inside a chain that succeeded
    [assistant(call("c3", "edit", path="tests/test_parser.py")), result("c3", "edit", "Successfully replaced.")],
], ids=["rerun-in-a-chain", "the-named-file-edited"])
def test_an_error_acted_on_later_is_resolved_by_the_heuristic(then):
    failing = [user("fix it"), assistant(call("c1", "bash", command="pytest -q tests/test_parser.py")),
               result("c1", "bash", bash_fail("tests/test_parser.py:12: ValueError: bad header", 1), error=True)]
    quality = score_quality(failing + then, "## Progress\n### Done\n- [x] fixed the parser\n")
    assert quality.error_mistakes == ()
    assert score_quality(failing, "## Progress\n### Done\n- [x] fixed the parser\n").error_mistakes != ()


def test_an_open_error_the_summary_leaves_out_counts_as_a_mistake():
    quality = score_quality(FAILING, "## Progress\n### Done\n- [x] Edited `src/parser.py`\n")
    assert quality.errors == 1 and quality.error_accuracy == 0.0
    assert quality.error_mistakes[0].startswith("open but not mentioned")


def test_an_aborted_command_is_not_an_open_error():
    messages = [user("sleep 5 seconds via bash"), assistant(call("c1", "bash", command="sleep 5")),
                result("c1", "bash", "Command aborted", error=True)]
    assert score_quality(messages, "## Next Steps\n1. (none)").error_mistakes == ()
    blocked = score_quality(messages, "## Progress\n### Blocked\n- `sleep 5` failed: Command aborted")
    assert blocked.error_accuracy == 0.0


# -- parsing -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("title, section", [
    ("Done", "done"), ("Completed Work Packages (WP1-WP13)", "done"), ("In Progress", "in_progress"),
    ("Current Task: File Reorganization", "in_progress"), ("Next Steps (WP14-WP20)", "next"),
    ("Blocked", "blocked"), ("Constraints & Preferences", "constraints"), ("User Preferences", "constraints"),
    ("Goal", "other"), ("Key Decisions", "decisions"), ("Progress", "other"), ("Critical Context", "other"),
])
def test_section_of_heading(title, section):
    assert section_of(title) == section


def test_summary_items_of_pi_structure_tables_fences_and_blocks():
    summary = """<original-request>
- not an item
</original-request>

## Goal
Fix it.

## Progress
### Done
- [x] read `a.py`

| WP | What | Status |
|----|------|--------|
| WP1 | bash-executor.ts | ✅ |

### In Progress
- [ ] write `b.py`
- [x] finished inside in progress

## Next Steps
### WP14: Create main-new.ts (NEXT)
- Copy `main.ts`
```ts
- not an item either
```
1. then commit
"""
    items = [(i.section, i.text) for i in summary_items(summary)]
    assert ("done", "read `a.py`") in items
    assert ("done", "WP1 bash-executor.ts") in items
    assert ("in_progress", "write `b.py`") in items
    assert ("done", "finished inside in progress") in items
    assert ("next", "WP14: Create main-new.ts (NEXT)") in items
    assert ("next", "Copy `main.ts`") in items and ("next", "then commit") in items
    assert not any("not an item" in text for _, text in items)


def test_length_is_measured_against_the_region():
    # prose, whose estimate grows with its length (a run of one letter costs what the tokenizer's runs of it do)
    prose = "The cat sat on the mat and the dog ran off. "
    messages = [user((prose * 100)[:4_000]), assistant((prose.replace("cat", "cow") * 100)[:4_000])]
    quality = score_quality(messages, (prose * 20)[:800])
    assert quality.summary_chars == 800 and quality.region_chars == 8_001
    assert 0.09 < quality.token_ratio < 0.11


def test_scores_add_up():
    one = score_quality(FAILING, "## Next Steps\n1. Fix `src/parser.py`")
    total = one + one
    assert total.count == 2 and total.open_items == 2 * one.open_items and total.precision == one.precision
    assert Quality(count=0) + one == one


# -- the pipeline's own summaries at the real cuts -----------------------------------------------------------------


def test_summaries_at_cuts_where_pi_cut():
    path = list(before_path())
    cuts = [labels(f"before-compaction.{n}").first_kept_index for n in (1, 2)]
    summaries = summaries_at(path, cuts)
    assert len(summaries) == 2 and all(summaries)
    for number, summary in enumerate(summaries, start=1):
        quality = score_quality(region(number), summary, labels(f"before-compaction.{number}"))
        assert quality.items > 0 and quality.precision is not None


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400), st.lists(st.text(max_size=80), max_size=6))
def test_any_summary_scores_within_bounds(summary, texts):
    messages = [user(text) for text in texts]
    quality = score_quality(messages, summary)
    for value in (quality.precision, quality.staleness, quality.error_accuracy):
        assert value is None or 0.0 <= value <= 1.0


def test_a_search_that_found_nothing_and_a_rerun_with_a_pipe_are_not_open_errors():
    messages = [
        user("check it"),
        assistant(call("c1", "bash", command='grep -n "borderColor" src/editor.ts')),
        result("c1", "bash", bash_fail("", 1), error=True),
        assistant(call("c2", "bash", command="cd pkg && npm run check")),
        result("c2", "bash", bash_fail("error TS2739: missing selectedPrefix", 2), error=True),
        assistant(call("c3", "bash", command="cd pkg && npm run check 2>&1 | tail -5")),
        result("c3", "bash", "Checked 36 files. No fixes applied."),
    ]
    assert score_quality(messages, "## Next Steps\n1. (none)").error_mistakes == ()


# -- the classes of fault seen on other agents' sessions (issue 20) ---------------------------------------------------


def pi_summary(goal: str, *, constraints=(), done=(), progress=(), blocked=(), decisions=(), next_steps=(),
               tail: str = "") -> str:
    """A summary in pi's sections."""
    def bullets(items, marker="- "):
        return "\n".join(f"{marker}{item}" for item in items) or "(none)"
    return (f"## Goal\n{goal}\n\n## Constraints & Preferences\n{bullets(constraints)}\n\n## Progress\n### Done\n"
            f"{bullets(done, '- [x] ')}\n### In Progress\n{bullets(progress, '- [ ] ')}\n### Blocked\n{bullets(blocked)}"
            f"\n\n## Key Decisions\n{bullets(decisions)}\n\n## Next Steps\n"
            + ("\n".join(f"{n}. {s}" for n, s in enumerate(next_steps, 1)) or "(none)") + f"\n{tail}")


def worse(region_messages: list, bad: str, good: str) -> Quality:
    """Score both; the bad one must score lower (returned for further checks)."""
    worse_q, better_q = score_quality(region_messages, bad), score_quality(region_messages, good)
    assert worse_q.score < better_q.score, (worse_q.faults, better_q.faults)
    return worse_q


DECLINES = st.sampled_from(["The user doesn't want to proceed with this tool use. The tool use was rejected.",
                            "patch rejected by user", "Blocked by user", "User denied permission for this edit."])


@settings(max_examples=10, deadline=None)
@given(DECLINES, st.sampled_from(["tests/test_cache.py", "src/config.ts"]))
def test_a_declined_write_named_as_a_blocker_scores_lower_and_never_1(decline: str, path: str) -> None:
    messages = [user("Add a cache to the client and test it."),
                assistant(call("w", "write", path=path, content="x")), result("w", "write", decline, error=True),
                user("Don't mock the LLM; use the fake server."), assistant("Understood, I will use the fake server.")]
    good = pi_summary("Add a cache to the client and test it.", constraints=["Don't mock the LLM; use the fake server."],
                      decisions=[f"The user declined the write of `{path}`"], next_steps=["Write the test against the fake server"])
    bad = pi_summary("Add a cache to the client and test it.", blocked=[f"write `{path}` failed"],
                     next_steps=[f"Fix: write `{path}` failed"])
    assert worse(messages, bad, good).score < 1
    listed = good + f"\n<modified-files>\n{path}\n</modified-files>"
    assert score_quality(messages, listed).score < score_quality(messages, good).score


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["Testing the importer is the focus of this phase.", "Let's switch to the importer now.",
                        "Change of plans: the importer comes first."]))
def test_a_stale_goal_scores_lower_and_never_1(redirect: str) -> None:
    messages = [user("Before we continue, take a look at README-phase-5.md"), assistant("Read it."),
                user(redirect), assistant("Starting on the importer tests.")]
    bad = pi_summary("Before we continue, take a look at README-phase-5.md")
    good = pi_summary(redirect)
    assert worse(messages, bad, good).score < 1


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["Why does the import time out on large files?", "Rename the export flag to --format please."]))
def test_an_answered_request_as_the_next_step_scores_lower_and_never_1(request: str) -> None:
    messages = [user(request), assistant("It is done: the proxy timeout was the cause, and the flag is renamed.")]
    bad = pi_summary(request, next_steps=[f"Finish the last request: “{request}”"])
    good = pi_summary(request, done=["Proxy timeout found; flag renamed"],
                      next_steps=["The last request is done: wait for the user's next request."])
    assert worse(messages, bad, good).score < 1


def test_a_lost_decision_and_a_finished_request_kept_as_a_rule_score_lower() -> None:
    messages = [user("Can we make it so that the worker logs go to their own file"),
                assistant("Done: the worker logs now go to logs/worker.log. Shall I keep the queue in SQLite?"),
                user("yes"), assistant("Implemented the SQLite queue.")]
    good = pi_summary("Worker logging and the queue", decisions=["Keep the queue in SQLite (agreed)"],
                      done=["worker logs go to logs/worker.log", "SQLite queue implemented"])
    lost = pi_summary("Worker logging and the queue", done=["worker logs go to logs/worker.log"])
    kept = pi_summary("Worker logging and the queue", decisions=["Keep the queue in SQLite (agreed)"],
                      constraints=["Can we make it so that the worker logs go to their own file"])
    worse(messages, lost, good)
    worse(messages, kept, good)


def test_a_rule_naming_a_replaced_thing_scores_lower() -> None:
    messages = [user("Make sure `toolText` is also used for the preview."), assistant("Done, the preview uses it."),
                user("Simplify the renderer."), assistant("I replaced `toolText` with a format() call everywhere.")]
    worse(messages, pi_summary("Simplify the renderer", constraints=["Make sure `toolText` is also used"]),
          pi_summary("Simplify the renderer", done=["`toolText` replaced with a format() call"]))


@pytest.mark.parametrize("done", ["Finished “Wire up the env vars” → Perfect! I have successfully completed the task",
                                  "Server reads `DEV_MODE=true… at startup"])
def test_progress_told_as_a_quote_or_cut_inside_a_value_scores_lower(done: str) -> None:
    messages = [user("Wire up the env vars: DEV_MODE=true API_URL=http://localhost"),
                assistant("Perfect! I have successfully completed the task. The server reads both at startup.")]
    worse(messages, pi_summary("Wire up the env vars", done=[done]),
          pi_summary("Wire up the env vars", done=["The server reads `DEV_MODE` and `API_URL` at startup"]))


@pytest.mark.parametrize("listed", [".metadata.entity_name", "src/legacy.py"])
def test_non_files_and_deleted_files_in_the_lists_score_lower(listed: str) -> None:
    messages = [user("Drop the legacy module and read the entity name."),
                assistant(call("r", "bash", command="rm src/legacy.py")), result("r", "bash", ""),
                assistant("Removed src/legacy.py.")]
    good = pi_summary("Drop the legacy module", done=["Removed src/legacy.py"])
    kind = "read-files" if listed.startswith(".") else "modified-files"
    worse(messages, good + f"\n<{kind}>\n{listed}\n</{kind}>", good)


def test_a_heading_quoted_from_the_transcript_kept_as_a_section_scores_lower() -> None:
    messages = [user("Summarize the refactor."), assistant("## Key Changes:\n- the parser is standalone")]
    good = pi_summary("Summarize the refactor", done=["The parser is standalone"])
    worse(messages, good + "\n## Key Changes:\n- the parser is standalone\n", good)


@pytest.mark.parametrize("last", ["Oh wait, these errors look like we have API mismatches!",
                                  "Hmm, the publish still fails with a 403."])
def test_an_abandoned_paths_trouble_reported_as_done_scores_lower(last: str) -> None:
    messages = [user("Cut the release and publish it."),
                assistant(call("p", "bash", command="npm run publish")),
                result("p", "bash", bash_fail("npm ERR! 403 Forbidden", 1), error=True), assistant(last)]
    bad = pi_summary("Cut the release", done=["Release committed"],
                     next_steps=["The last request is done: wait for the user's next request."])
    good = pi_summary("Cut the release", blocked=["`npm run publish` failed: npm ERR! 403 Forbidden"],
                      next_steps=["Fix: `npm run publish` failed (403)"])
    assert worse(messages, bad, good).score < 1


def test_a_question_the_agent_asked_last_is_open_and_a_quoted_line_claims_nothing() -> None:
    messages = [user("Write the context file and commit it."),
                assistant(call("b", "bash", command="npm run build")),
                result("b", "bash", bash_fail("error: cannot find module", 1), error=True),
                assistant(call("b2", "bash", command="npm run build")), result("b2", "bash", "built"),
                assistant("Committed: the context file is done. Want me to create the mockups now?")]
    summary = pi_summary("Write the context file", done=["context file committed"],
                         next_steps=["Open question to the user: Want me to create the mockups now?"],
                         tail="\n## Critical Context\n> `npm run build` failed first: cannot find module\n")
    quality = score_quality(messages, summary)
    assert quality.stale == () and quality.error_mistakes == ()
    unquoted = summary.replace("> `npm run build`", "- `npm run build`")
    assert score_quality(messages, unquoted).error_mistakes  # the same line as a claim is judged


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([("Read", "file_path", "File does not exist."), ("WebFetch", "url", "Request failed with status 500"),
                        ("read", "path", "ENOENT: no such file or directory"), ("Glob", "path", "Path does not exist")]),
       st.from_regex(r"[a-z]{4,8}/[a-z]{4,8}\.(go|py|md)", fullmatch=True))
def test_a_failed_look_the_agent_moved_past_is_no_open_error(tool, path: str) -> None:
    name, key, error = tool
    messages = [user("Find where the config is loaded."),
                assistant(call("c1", name, **{key: path})), result("c1", name, error, error=True),
                assistant(call("c2", name, **{key: "src/config.go"})), result("c2", name, "package config"),
                assistant("The config is loaded in src/config.go.")]
    as_work = pi_summary("Find where the config is loaded", done=["The config is loaded in `src/config.go`"],
                         next_steps=[f"Fix: {name} `{path}` failed: {error}"])
    moved_on = pi_summary("Find where the config is loaded", done=["The config is loaded in `src/config.go`"])
    assert score_quality(messages, as_work).error_mistakes
    assert score_quality(messages, moved_on).error_mistakes == ()
    assert score_quality(messages, as_work).score < score_quality(messages, moved_on).score
