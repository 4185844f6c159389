"""The offline summary on the classes of case that failed on other agents' sessions (issue 20), each tested on
generated variations: several agents' phrasings and formats, never one session's strings."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.offline.compose import compose
from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.paths import is_file_name, listed_files
from pi_compact.compaction.offline.sections import parse
from pi_compact.compaction.summarizer import SummaryRequest

from ..messages import assistant, bash_fail, call, result, user
from .test_offline import changed_files, items, section

EXAMPLES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def summarize(messages: list, **fields: object) -> str:
    fields.setdefault("max_tokens", 13_000)
    request = SummaryRequest(system="", prompt="", messages=tuple(messages), **fields)  # type: ignore[arg-type]
    return OfflineSummarizer().summarize(request).text


# -- 1. a call the user refused is a decision, never a blocker, a fix or a changed file -----------------------

DECLINED = st.sampled_from([
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, "
    "the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to "
    "proceed.",
    "exec command rejected by user",
    "patch rejected by user",
    "Blocked by user",
    "User denied permission to run this tool.",
    "The user declined this change.",
    "Tool call was rejected by the user",
    "Denied.",
])
REASON_FORMAT = st.sampled_from(["\n\nTo tell you how to proceed, the user said:\n{}", "\nReason: {}",
                                 "\nuser's feedback: {}"])
REASONS = st.sampled_from(["don't mock the LLM, use the fake server instead", "never write to the production config",
                           "keep it in one module please", "do not add a dependency for this"])
PATHS = st.sampled_from(["tests/test_api.py", "src/app/config.ts", "docs/guide.md", "pkg/server/main.go"])


def _declined_call(kind: str, path: str, refusal: str) -> list[dict]:
    if kind == "bash":
        block = call("x1", "bash", command=f"cat > {path} <<'EOF'\nbody\nEOF")
    elif kind == "edit":
        block = call("x1", "edit", path=path, oldText="a", newText="b")
    else:
        block = call("x1", kind, path=path, content="body")
    return [assistant("I'll make the change now.", block), result("x1", block["name"], refusal, error=True)]


@EXAMPLES
@given(refusal=DECLINED, kind=st.sampled_from(["write", "edit", "bash", "Write"]), path=PATHS,
       reason=st.none() | st.tuples(REASON_FORMAT, REASONS), follow_up=st.booleans())
def test_a_declined_call_is_a_decision_not_an_error_a_fix_or_a_changed_file(
        refusal: str, kind: str, path: str, reason: tuple | None, follow_up: bool) -> None:
    text = refusal + (reason[0].format(reason[1]) if reason else "")
    messages = [user("Add a small cache in front of the API client and test it."), *_declined_call(kind, path, text)]
    if follow_up:
        messages.append(user("Use the in-memory fake for the test and carry on."))
    summary = summarize(messages)
    assert items(summary, "### Blocked") == ["(none)"]
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps"))
    assert path not in changed_files(summary)
    decisions = "\n".join(items(summary, "## Key Decisions"))
    assert "declined" in decisions and path.rsplit("/", 1)[-1] in decisions
    if reason:
        assert reason[1] in decisions
        assert reason[1] in "\n".join(items(summary, "## Constraints & Preferences"))
    if follow_up:  # the user said what instead: that is the next step, not the declined call
        assert "carry on" in "\n".join(items(summary, "## Next Steps"))
    facts = extract_facts(messages)
    assert path in facts.gone and path not in facts.modified_files
    composed = compose("body", first_request=None, current_request=None, dropped_note=None, read_files=(),
                       modified_files=(path,), gone=facts.gone)
    assert "<modified-files>" not in composed


@EXAMPLES
@given(stop=st.sampled_from(["Command aborted", "Operation aborted", "Request interrupted by user",
                             "Cancelled by the user"]), path=PATHS)
def test_a_call_stopped_while_it_ran_is_neither_an_error_nor_a_decision(stop: str, path: str) -> None:
    summary = summarize([user("Run the slow suite and then update the docs."),
                         assistant(call("r", "bash", command="npm run test:slow")),
                         result("r", "bash", f"running…\n{stop}", error=True),
                         assistant(call("w", "write", path=path, content="x")), result("w", "write", "ok")])
    assert items(summary, "### Blocked") == ["(none)"]
    assert items(summary, "## Key Decisions") == ["(none)"]


@given(st.sampled_from(["Permission denied", "bash: ./deploy.sh: Permission denied",
                        "Error: access denied for user 'app'@'localhost'"]))
def test_a_system_refusal_stays_an_error(output: str) -> None:
    summary = summarize([user("Deploy the service to staging now."),
                         assistant(call("d", "bash", command="./deploy.sh staging")),
                         result("d", "bash", bash_fail(output, 1), error=True)])
    assert "./deploy.sh staging" in "\n".join(items(summary, "### Blocked"))


# -- 6. file lists hold files that exist -----------------------------------------------------------------------

@given(st.sampled_from([".metadata.entity_name", ".data.items", ".spec.template.name", ".result.user_id"]),
       st.sampled_from(["jq", "yq"]))
def test_a_filter_is_not_a_file(expression: str, program: str) -> None:
    facts = extract_facts([assistant(call("j", "bash", command=f"{program} '{expression}' data/records.json")),
                           result("j", "bash", "\"x\"")])
    assert facts.read_files == ("data/records.json",)
    assert not is_file_name(expression)


@given(st.sampled_from([".env", ".gitignore", ".eslintrc.json", ".env.local", "Makefile", "src/.hidden/a.b.c",
                        "docs/v1.2/notes.md"]))
def test_real_names_are_files(name: str) -> None:
    assert is_file_name(name)


@EXAMPLES
@given(remove=st.sampled_from(["rm {}", "git rm -q {}", "rm -f {}", "mv {} old/", "git mv {} renamed.py"]),
       path=st.sampled_from(["src/legacy.py", "lib/old_helpers.py", "scripts/migrate.py"]))
def test_a_deleted_file_is_not_a_modified_file(remove: str, path: str) -> None:
    messages = [user("Drop the legacy module once the new one is in."),
                assistant(call("e", "edit", path=path, oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant(call("r", "bash", command=remove.format(path))), result("r", "bash", "")]
    facts = extract_facts(messages)
    assert path in facts.gone
    read, changed = listed_files(facts.read_files, facts.modified_files, "", facts.gone)
    assert path not in changed and path not in read
    # written again later: it exists
    again = [*messages, assistant(call("w", "write", path=path, content="x")), result("w", "write", "ok")]
    assert path not in extract_facts(again).gone


# -- 7. a heading quoted from the transcript never becomes a section ----------------------------------------

HEADING_TEXT = st.sampled_from(["## Key Changes:", "### Summary", "# Results", "## Next Steps", "## Files Modified"])


@EXAMPLES
@given(heading=HEADING_TEXT, where=st.sampled_from(["answer", "request"]), first=st.booleans(),
       kind=st.sampled_from(["compaction", "turn_prefix"]), rounds=st.integers(2, 5))
def test_a_quoted_heading_stays_inside_its_quote_through_merges(heading: str, where: str, first: bool, kind: str,
                                                                rounds: int) -> None:
    lines = ["Here is where things stand.", "", heading, "- moved the parser into its own module", "- tests pass"]
    quoted = "\n".join(lines[2:] if first else lines)
    previous = None
    for round_ in range(rounds):
        messages = [user(quoted if where == "request" and round_ == 0 else f"Now do step {round_} of the port."),
                    assistant(quoted if where == "answer" and round_ == 0 else f"Step {round_} is done.")]
        previous = summarize(messages, previous_summary=previous, kind=kind if round_ == 0 else "compaction")
        lines = previous.splitlines()
        headings = [line for line in lines if line.startswith("#")]
        assert heading not in headings or heading in ("## Next Steps",) and headings.count(heading) == 1
        assert not parse(previous).extra, parse(previous).extra
