"""The scorer's recall: what a region shows a continuing agent needs, found in the region's own words, and how
much of it a summary holds — the latest request and open errors above an old file, paraphrase tolerated."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.evaluation.quality import RegionIndex, score_quality
from pi_compact.evaluation.recall import recall
from pi_compact.evaluation.userwords import own_words
from tests.compaction.messages import assistant, bash_fail, call, result, user

IDENTIFIERS = st.from_regex(r"[a-z]{3,8}_[a-z]{3,8}", fullmatch=True)
FILES = st.from_regex(r"[a-z]{4,9}\.(py|ts|go|md)", fullmatch=True)
REQUESTS = st.sampled_from([
    "Please rename {ident} in {path} and update its callers.",
    "Can you make {ident} lazy? It lives in src/{path}.",
    "Bitte {ident} in lib/{path} umbenennen.",
    "把 {path} 里的 {ident} 改成异步的。",
    "{ident} crashes when {path} is empty — fix it",
])


def holds(messages: list[dict], summary: str) -> float:
    value = score_quality(messages, summary).recall
    assert value is not None
    return value


def session(request: str, *, earlier: str = "Add a changelog entry for the release.") -> list[dict]:
    return [
        user(earlier),
        assistant(call("c1", "edit", path="CHANGELOG.md", oldText="a", newText="b")),
        result("c1", "edit", "Successfully replaced text in CHANGELOG.md."),
        assistant("Added the changelog entry for the release."),
        user(request),
        assistant("Looking into it now."),
    ]


# -- what is needed, and how much it weighs ----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(REQUESTS, IDENTIFIERS, FILES)
def test_a_summary_that_drops_the_latest_request_holds_less(template: str, ident: str, path: str) -> None:
    request = template.format(ident=ident, path=path)
    messages = session(request)
    with_it = f"## Goal\n{request}\n\n## Done\n- CHANGELOG.md entry added for the release\n"
    without = "## Goal\nChangelog entry for the release.\n\n## Done\n- CHANGELOG.md entry added for the release\n"
    assert holds(messages, with_it) > holds(messages, without)
    assert score_quality(messages, with_it).score > score_quality(messages, without).score
    assert any(m.startswith("latest request") for m in score_quality(messages, without).missing)


@settings(max_examples=20, deadline=None)
@given(IDENTIFIERS, FILES)
def test_the_latest_request_weighs_more_than_an_old_changed_file(ident: str, path: str) -> None:
    messages = session(f"Please rename {ident} in {path} and update its callers.")
    done = "## Done\n- changelog entry added for the release"
    drops_the_file = f"## Goal\nRename `{ident}` in `{path}`, update its callers.\n\n{done}\n"
    drops_the_request = f"## Goal\nThe release.\n\n{done} (`CHANGELOG.md`)\n"
    assert holds(messages, drops_the_file) > holds(messages, drops_the_request)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["pytest -q tests/test_{name}.py", "npm run test -- {name}", "cargo test {name}"]),
       st.from_regex(r"[a-z]{5,9}", fullmatch=True))
def test_an_open_failure_is_needed_and_a_settled_one_is_not(command: str, name: str) -> None:
    command = command.format(name=name)
    output = bash_fail(f"FAILED {name}_header: AssertionError", 1)
    failing = [user(f"Run the {name} tests."), assistant(call("c1", "bash", command=command)),
               result("c1", "bash", output, error=True)]
    named = f"## Blocked\n- `{command}` fails: {name}_header AssertionError\n"
    silent = "## Done\n- ran the tests\n"
    assert holds(failing, named) > holds(failing, silent)
    assert any(m.startswith("open error") for m in score_quality(failing, silent).missing)
    settled = failing + [assistant(call("c2", "bash", command=command)), result("c2", "bash", "3 passed")]
    assert not any(m.startswith("open error") for m in score_quality(settled, silent).missing)


@settings(max_examples=20, deadline=None)
@given(FILES, st.sampled_from(["Use {x} for the cache", "Option B: keep {x}", "{x}, stored per user"]),
       IDENTIFIERS)
def test_the_users_answer_to_a_question_is_a_decision_to_keep(path: str, answer: str, ident: str) -> None:
    answer = answer.format(x=ident)
    messages = [user(f"Set up caching in {path}"),
                assistant("Which store?", call("q1", "AskUserQuestion", questions=[{"question": "Which store?"}])),
                result("q1", "AskUserQuestion", f"User has answered your questions: {answer}"),
                assistant("Going with that.")]
    kept = f"## Goal\nCaching in `{path}`\n\n## Key Decisions\n- {answer}\n"
    lost = f"## Goal\nCaching in `{path}`\n\n## Key Decisions\n(none)\n"
    assert holds(messages, kept) > holds(messages, lost)
    assert any(m.startswith("decision") for m in score_quality(messages, lost).missing)


def test_an_earlier_summarys_facts_are_to_be_carried_on() -> None:
    earlier = {"type": "compaction", "id": "k1", "parentId": None, "summary":
               "## Done\n- Ported `store/jsonl.py` to fsync\n- Added `LeafMovedError`\n", "firstKeptEntryId": "x",
               "tokensBefore": 100}
    messages = [earlier, user("Next, document it."), assistant("Documented in README.md.")]
    carried = "## Done\n- `jsonl.py` fsyncs; `LeafMovedError` added; documented in README.md\n"
    dropped = "## Done\n- documented in README.md\n"
    assert holds(messages, carried) > holds(messages, dropped)
    assert any(m.startswith("carried") for m in score_quality(messages, dropped).missing)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(['git commit -m "{m}"', "git commit -am '{m}'",
                        "git add -A && git commit -m \"$(cat <<'EOF'\n{m}\n\nbody\nEOF\n)\""]),
       IDENTIFIERS)
def test_a_commit_is_known_by_its_message_in_any_quoting(command: str, ident: str) -> None:
    message = f"refactor: extract {ident} helper"
    messages = [user("Tidy up and commit."), assistant(call("c1", "bash", command=command.format(m=message))),
                result("c1", "bash", "[main 1a2b3c] done")]
    area = RegionIndex(messages)
    commits = [need for need in area.needs.needs() if need.kind == "commit"]
    assert commits and ident in commits[0].keys


# -- paraphrase and the user's own words ----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(FILES, IDENTIFIERS, st.sampled_from(["{p}", "src/deep/{p}", "{P}", "`./lib/{p}`"]))
def test_a_path_is_held_by_any_spelling_and_a_word_by_its_stem(path: str, ident: str, spelling: str) -> None:
    messages = [user(f"Refactor src/deep/{path}: split the parsers for {ident}."), assistant("Split them.")]
    written = spelling.format(p=path, P=path.upper())
    assert holds(messages, f"- {written} refactored: parser split for {ident.upper()}") == 1.0


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["system_instruction", "system-reminder", "command-message", "local-command-caveat"]),
       st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="<>"), max_size=80),
       st.sampled_from(["Fix the login bug", "Corrige o erro de login", "修复登录错误"]))
def test_a_harness_block_before_the_request_is_cut_off(tag: str, inner: str, request: str) -> None:
    assert own_words(f"<{tag}>\n{inner}\n</{tag}>\n\n{request}") == request
    assert own_words(f"<{tag}>{inner}</{tag}>") == ""


@given(st.sampled_from(["[Request interrupted by user]", "[Request interrupted by user for tool use]"]))
def test_a_harness_notice_is_no_request(notice: str) -> None:
    assert own_words(notice) == ""


@settings(max_examples=20, deadline=None)
@given(st.lists(st.from_regex(r"[A-Z][a-z]{3,10}", fullmatch=True), min_size=3, max_size=6))
def test_a_pasted_document_is_no_request(titles: list[str]) -> None:
    document = "Base directory: /skills/x\n\n" + "\n".join(f"## {t}\nDo {t.lower()} things.\n" for t in titles)
    assert own_words(document) == ""


# -- bounds and ranking ---------------------------------------------------------------------------------------------


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=120)


@settings(max_examples=60, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=6), TEXT)
def test_recall_is_a_share_and_the_whole_region_holds_all_of_it(texts: list[str], summary: str) -> None:
    messages = [user(t) if i % 2 == 0 else assistant(t) for i, t in enumerate(texts)]
    value = score_quality(messages, summary).recall
    assert value is None or 0.0 <= value <= 1.0
    everything = "\n".join(texts)
    assert score_quality(messages, everything).recall in (None, 1.0)
    assert 0.0 <= score_quality(messages, summary).score <= 1.0


def test_a_longer_summary_holding_more_outranks_a_short_true_one() -> None:
    messages = [
        user("Move the journal from journal.json into a ClickHouse table _chkit_migrations."),
        assistant("The journal lives in migration-store.ts; readJournal and writeJournal are the only callers."),
        assistant(call("c1", "edit", path="src/journal-store.ts", oldText="a", newText="b")),
        result("c1", "edit", "Successfully replaced text in src/journal-store.ts."),
        assistant("Created ClickHouseJournalStore in journal-store.ts; tests pass (62 of 62)."),
        user("run bun verify"),
        assistant("Same 4 failures: async_insert is on by default on ClickHouse Cloud."),
    ]
    short = "## Goal\nMove the journal into ClickHouse.\n\n## Done\n- [x] journal store\n"
    full = ("## Goal\nMove the journal from `journal.json` into the ClickHouse table `_chkit_migrations`.\n\n"
            "## Done\n- [x] `ClickHouseJournalStore` in `src/journal-store.ts`; 62/62 tests pass\n"
            "- [x] `readJournal`/`writeJournal` in `migration-store.ts` were the only callers\n\n"
            "## In Progress\n- `bun verify`: the same 4 failures; `async_insert` is on by default on ClickHouse Cloud\n")
    assert score_quality(messages, full).score > score_quality(messages, short).score


def test_nothing_to_need_gives_no_recall_and_the_score_stands_on_correctness() -> None:
    quality = score_quality([], "## Done\n- nothing\n")
    assert quality.recall is None and quality.score == quality.correctness


def test_recall_of_no_needs_is_none() -> None:
    assert recall((), "anything").value is None


PLAN_CALLS = st.sampled_from(["todo", "update_plan", "tasks"])


@settings(max_examples=20, deadline=None)
@given(PLAN_CALLS, IDENTIFIERS, IDENTIFIERS)
def test_the_agents_unfinished_plan_items_are_needed(style: str, done: str, left: str) -> None:
    first, second = f"Migrate {done} to the new store", f"Regenerate the {left} lockfile"
    if style == "todo":
        calls = [call("t1", "TodoWrite", todos=[{"content": first, "status": "completed"},
                                                {"content": second, "status": "pending"}])]
    elif style == "update_plan":
        calls = [call("t1", "update_plan", plan=[{"step": first, "status": "completed"},
                                                 {"step": second, "status": "in_progress"}])]
    else:
        calls = [call("t1", "TaskCreate", subject=first, description=""),
                 call("t2", "TaskCreate", subject=second, description=""),
                 call("t3", "TaskUpdate", taskId="1", status="completed")]
    messages = [user("Do the migration."), *[assistant(c) for c in calls], assistant("First part is done.")]
    plan = {need.kind: need.keys for need in RegionIndex(messages).needs.needs()
            if need.kind.startswith("plan")}
    assert left in plan["plan item"] and done in plan["plan item done"]
    kept = f"## Next Steps\n1. Regenerate the `{left}` lockfile\n\n## Done\n- `{done}` migrated\n"
    lost = f"## Next Steps\n(none)\n\n## Done\n- `{done}` migrated\n"
    assert holds(messages, kept) > holds(messages, lost)


@settings(max_examples=20, deadline=None)
@given(st.from_regex(r"Test[A-Z][a-z]{3,8}_[A-Z][a-z]{3,8}", fullmatch=True),
       st.sampled_from(["--- FAIL: {t} (0.46s)", "FAILED tests/test_x.py::{t} - AssertionError", "✗ {t} failed in 12ms"]),
       st.integers(0, 30))
def test_an_open_failure_is_known_by_the_test_its_output_names(test: str, line: str, noise: int) -> None:
    output = "\n".join([f"ok  step {i} passed" for i in range(noise)] + [line.format(t=test), "Exit code 1"])
    messages = [user("Run the integration tests."), assistant(call("c1", "bash", command="make integration")),
                result("c1", "bash", output, error=True)]
    errors = [need for need in RegionIndex(messages).needs.needs(_open_errors(messages)) if need.kind == "open error"]
    assert errors and test in errors[0].keys
    assert not any(key.endswith(("s", "ms")) and key[0].isdigit() for key in errors[0].keys)


def _open_errors(messages: list[dict]) -> list[str]:
    from pi_compact.evaluation.quality import _open_error_texts
    return _open_error_texts(RegionIndex(messages))
