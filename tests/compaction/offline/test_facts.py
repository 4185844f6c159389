"""extract_facts: files, commands and exit codes, errors, constraints, identifiers and requests, from any input."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings

from pi_compact.compaction.offline.facts import Command, Facts, Failure, error_lines, extract_facts
from pi_compact.compaction.offline.shell import shell_effects

from ..messages import (SESSION, SESSION_FACTS, TRACEBACK, assistant, bash_fail, call, junk_messages, result,
                       user, user_bash)


def run(command: str, output: str, *, code: int | None = None, error: bool | None = None, cid: str = "x") -> list:
    """A bash call and its result as pi's bash tool writes them."""
    text = bash_fail(output, code) if code else output
    return [assistant(call(cid, "bash", command=command)),
            result(cid, "bash", text, error=bool(code) if error is None else error)]


# -- files ----------------------------------------------------------------------------------------------------


def test_files_from_tool_calls_in_order_of_first_appearance() -> None:
    facts = extract_facts([
        assistant(call("1", "read", path="b.py"), call("2", "read", file_path="a.py"), call("3", "read", path="b.py")),
        assistant(call("4", "edit", filePath="c.py", oldText="x", newText="y"), call("5", "write", path="d.md")),
        assistant(call("6", "grep", path="ignored.py", pattern="x"), call("7", "read", path="  ")),
    ])
    assert facts.read_files == ("b.py", "a.py")
    assert facts.modified_files == ("c.py", "d.md")


@pytest.mark.parametrize(("command", "reads", "writes"), [
    ("cat src/app.py", ["src/app.py"], []),
    ("head -n 20 README.md && tail -5 log.txt", ["README.md", "log.txt"], []),
    ("less notes.txt", ["notes.txt"], []),
    ("grep -rn 'error:' src/ tests/test_x.py", ["src/", "tests/test_x.py"], []),
    ("rg -e pattern lib/core.rs", ["lib/core.rs"], []),
    ("cat a.py | grep -n foo", ["a.py"], []),
    ("sed -n '1,20p' x.py", ["x.py"], []),
    ("sed -i 's/a/b/' x.py y.py", [], ["x.py", "y.py"]),
    ("sed -i '' 's/a/b/g' mac.py", [], ["mac.py"]),
    ("echo hi > out.txt 2>/dev/null", [], ["out.txt"]),
    ("echo more >> log/app.log", [], ["log/app.log"]),
    ("python gen.py < in.json &> all.log", ["in.json"], ["all.log"]),
    ("npm test 2>&1 | tee test.log", [], ["test.log"]),
    ("cp a.py backup/a.py; mv old.py new.py", [], ["backup/a.py", "old.py", "new.py"]),
    ("rm -rf build dist && touch .stamp && mkdir -p pkg/sub", [], ["build", "dist", ".stamp", "pkg/sub"]),
    ("FOO=1 sudo touch a/b.txt", [], ["a/b.txt"]),
    ("cat > f.py << 'EOF'\nimport os\nrm -rf / # don't\nEOF\npython f.py", [], ["f.py"]),
    ("cat a.py \\\n  b.py", ["a.py", "b.py"], []),
    ("cat 'my file.txt' \"other file.md\"", [], []),  # spaces: not a plain path we can name safely
    ("grep -rn 'unterminated src", [], []),
    ("npm test", [], []),
    ("ls *.py $HOME/x", [], []),
], ids=lambda v: v if isinstance(v, str) else None)
def test_shell_effects(command: str, reads: list[str], writes: list[str]) -> None:
    effects = shell_effects(command)
    assert (effects.reads, effects.writes) == (reads, writes)


@pytest.mark.parametrize(("command", "reads", "writes"), [
    # a `#` that starts a word comments out the rest of the line, whatever it says
    ("echo done # old -> new", [], []),
    ("make build  # writes > out.log", [], []),
    ("echo x >> log.txt # then >> other.txt", [], ["log.txt"]),
    ("npm test # | tee test.log", [], []),
    ("# cat secret.txt > copy.txt", [], []),
    ("true;# > a\nfalse&&# > b\nls|# tee c\n(# > d\n)", [], []),
    ("echo a # see cat <<EOF\necho b > real.txt\nEOF", [], ["real.txt"]),  # a comment opens no heredoc
    ("echo a # no line continuation here \\\ncat b.py", ["b.py"], []),
    # a `#` inside a word or quotes is no comment
    ("echo a#b > hash.txt", [], ["hash.txt"]),
    ("echo $# > argc.txt", [], ["argc.txt"]),
    ("echo ${#arr[@]} ${#x} > len.txt", [], ["len.txt"]),
    ("echo \"a # b\" > dq.txt", [], ["dq.txt"]),
    ("echo '# not > this' > sq.txt", [], ["sq.txt"]),
    ("cat notes#1.md", ["notes#1.md"], []),
    # comment lines between real commands; heredoc bodies are neither comments nor commands
    ("# step 1 -> step 2\nmake > build.log\n  # step 2 >> stale.log\ncat a.py > b.py # copy -> c.py",
     ["a.py"], ["build.log", "b.py"]),
    ("cat > conf.sh <<'EOF'\n# header > nope.txt\necho \"unclosed\nEOF\necho ok > done.txt",
     [], ["conf.sh", "done.txt"]),
], ids=lambda v: v if isinstance(v, str) else None)
def test_shell_comments(command: str, reads: list[str], writes: list[str]) -> None:
    effects = shell_effects(command)
    assert (effects.reads, effects.writes) == (reads, writes)


def test_bash_paths_reach_the_file_lists_from_tool_calls_and_user_bash() -> None:
    facts = extract_facts([*run("cat src/a.py && sed -i 's/x/y/' src/b.py", "ok"),
                           user_bash("echo x > notes.md", "")])
    assert facts.read_files == ("src/a.py",)
    assert facts.modified_files == ("src/b.py", "notes.md")


# -- commands and exit codes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("messages", "expected"), [
    (run("npm test", "FAIL x", code=1), Command("npm test", 1, "bash", True)),
    (run("make", "boom", code=2, error=False), Command("make", 2, "bash", True)),
    (run("sleep 99", "Command timed out after 30 seconds", error=True), Command("sleep 99", None, "bash", True)),
    (run("ls", "a\nb\n"), Command("ls", 0, "bash", False)),
    ([assistant(call("d", "bash", command="deploy")),
      result("d", "bash", "done", details={"exitCode": 3})], Command("deploy", 3, "bash", True)),
    ([assistant(call("n", "bash", command="pending"))], Command("pending", None, "bash", False)),
    ([user_bash("git status", " M a.py\n")], Command("git status", 0, "user", False)),
    ([user_bash("false", "", exit_code=1)], Command("false", 1, "user", True)),
    ([user_bash("sleep 9", "", exit_code=None, cancelled=True)], Command("sleep 9", None, "user", True)),
    (run("grep -n foo a.py", "", code=1), Command("grep -n foo a.py", 1, "bash", False)),  # found nothing
], ids=["exit-1", "code-without-isError", "error-without-code", "success", "details-exitCode", "no-result",
        "user-bash", "user-bash-fails", "user-bash-cancelled", "grep-found-nothing"])
def test_command_exit_codes(messages: list, expected: Command) -> None:
    assert extract_facts(messages).commands == (expected,)


def test_user_bash_excluded_from_context_is_not_a_fact() -> None:
    assert extract_facts([user_bash("secret", "x", excludeFromContext=True)]).commands == ()


def test_results_pair_with_calls_by_id_then_by_tool_name() -> None:
    messages = [
        assistant(call("a", "bash", command="first"), call("b", "bash", command="second")),
        result("b", "bash", bash_fail("oops", 1), error=True),
        result("a", "bash", "fine"),
        assistant(call("c", "bash", command="third")),
        {"role": "toolResult", "toolName": "bash", "content": [{"type": "text", "text": "ok"}], "isError": False},
    ]
    assert extract_facts(messages).commands == (
        Command("first", 0, "bash", False), Command("second", 1, "bash", True), Command("third", 0, "bash", False))


def test_same_command_and_outcome_listed_once() -> None:
    facts = extract_facts([*run("make", "ok", cid="1"), *run("make", "ok", cid="2"),
                           *run("make", "x", code=1, cid="3")])
    assert facts.commands == (Command("make", 0, "bash", False), Command("make", 1, "bash", True))


# -- errors and failures --------------------------------------------------------------------------------------


def test_error_lines_kept_verbatim_and_deduplicated() -> None:
    output = TRACEBACK + "\nfatal: not a git repository\npanic: runtime error\nERROR collecting x\n" + \
        "src/a.rs:3: error[E0308]: mismatched types\n" + "ValueError: bad header\n"
    facts = extract_facts(run("pytest", output, code=1))
    assert facts.errors[:3] == ("Traceback (most recent call last):", "ValueError: bad header",
                                "FAILED tests/test_parser.py::test_header - ValueError: bad header")
    assert "fatal: not a git repository" in facts.errors
    assert len(facts.errors) == len(set(facts.errors)) <= 6


def test_error_lines_are_trimmed_and_bounded() -> None:
    facts = extract_facts(run("build", "   Error: " + "x" * 1000 + "   ", code=1))
    assert facts.errors == ("Error: " + "x" * 293,)


def test_file_contents_are_not_errors_but_failed_tools_are() -> None:
    code = "try:\n    x()\nexcept ValueError:\n    raise RuntimeError: nope\n"
    facts = extract_facts([
        assistant(call("r", "read", path="a.py")), result("r", "read", code),
        assistant(call("g", "bash", command="grep -rn Error src")),
        result("g", "bash", "src/a.py:3: except ValueError:"),
        assistant(call("e", "edit", path="b.py")),
        result("e", "edit", "Could not find the exact text in b.py.\nmore", error=True),
    ])
    assert facts.errors == ("Could not find the exact text in b.py.",)


def test_shell_failure_without_error_line_keeps_its_last_line() -> None:
    facts = extract_facts(run("npm run check", "> pkg@1.0 check\n> tsc\n\nFound 3 problems.", code=2))
    assert facts.errors == ("Found 3 problems.",)


def test_failures_are_actions_whose_latest_attempt_failed() -> None:
    facts = extract_facts([
        *run("pytest", TRACEBACK, code=1, cid="1"), *run("pytest", "12 passed", cid="2"),
        *run("npm run lint", "error: no-console", code=2, cid="3"),
        assistant(call("e1", "edit", path="x.py")), result("e1", "edit", "No match in x.py", error=True),
        assistant(call("e2", "edit", path="y.py")), result("e2", "edit", "No match in y.py", error=True),
        assistant(call("e3", "edit", path="y.py")), result("e3", "edit", "Successfully replaced text in y.py."),
    ])
    assert facts.failures == (Failure("bash", "npm run lint", "error: no-console"),
                              Failure("edit", "x.py", "No match in x.py"))
    assert "ValueError: bad header" in facts.errors  # seen, even though fixed since


# -- what the user said ---------------------------------------------------------------------------------------


def test_constraints_are_user_sentences_with_rules_in_english_and_chinese() -> None:
    facts = extract_facts([
        user("Fix the parser. You must not touch tests/. Never use print! Could you only check one thing?\n"
             "- Always run pytest before committing\n```\nyou must ignore code fences\n```\n"
             "不要修改配置文件。先看看。必须保留注释；这个特别好。别动它\n务必用中文回答。禁止删除数据，一定要备份。"),
        assistant("You must not worry, I will never do that."),
        user("Make sure the build passes. Do not add dependencies. It should not print. Only edit src/."),
        user("i would only want e2e tests for AgentSession, anything else is shitty. (don't read the full file!)"),
    ])
    assert facts.constraints == (
        "You must not touch tests/.", "Never use print!", "Always run pytest before committing", "不要修改配置文件。",
        "必须保留注释；", "别动它", "务必用中文回答。", "禁止删除数据，一定要备份。", "Make sure the build passes.",
        "Do not add dependencies.", "Only edit src/.",
        "i would only want e2e tests for AgentSession, anything else is shitty.", "(don't read the full file!)")


@pytest.mark.parametrize("sentence", [
    "propose where each of these files should go.", "what color are the codeblocks using? should be 8ABeB7",
    "Use a dict instead, you must not loop.", "i don't understand, does it capture the theme variable",
    "I don't tink the component invalidate works correctly.", "it never worked on Windows.",
    "The sed command didn't work because of the multiline format.", "we always had this bug.",
    "why do you go 100 lines at a time you idiot ...", "Keep going.", "keep it up, the tests look the same as before",
], ids=lambda s: s[:30])
def test_sentences_that_state_no_rule_are_not_constraints(sentence: str) -> None:
    assert extract_facts([user(sentence)]).constraints == ()


@pytest.mark.parametrize("sentence", [
    "Keep the public API `parse_file(path)` unchanged.", "Please keep the CLI flags backwards compatible.",
    "Leave the vendored code alone.", "Keep README.md untouched.",
], ids=lambda s: s[:30])
def test_keep_and_leave_rules_are_constraints(sentence: str) -> None:
    assert extract_facts([user(sentence)]).constraints == (sentence,)


def test_identifiers_the_user_gave() -> None:
    facts = extract_facts([user(
        "Use `foo.bar()` from src/app.py, see #123 and v1.2.3; keep 32k tokens, 20% and 4,000 chars. "
        "SummaryRequest keepRecentTokens MAX_RETRIES build_session_context https://x.com/a/b. and/or 1/2 "
        "修改src/lib.py文件 port 8080 ~/notes.txt")])
    assert facts.identifiers == (
        "foo.bar()", "src/app.py", "#123", "v1.2.3", "32k", "20%", "4,000 chars", "SummaryRequest",
        "keepRecentTokens", "MAX_RETRIES", "build_session_context", "https://x.com/a/b", "src/lib.py", "8080",
        "~/notes.txt")


def test_requests_first_last_and_all() -> None:
    facts = extract_facts([user("one"), assistant("a"), user([{"type": "text", "text": "two"},
                                                              {"type": "image", "data": "", "mimeType": "x"}]),
                           user(""), user("three")])
    assert (facts.first_request, facts.last_request, facts.user_requests) == ("one", "three", ("one", "two", "three"))


def test_the_hand_made_session() -> None:
    facts = extract_facts(SESSION)
    assert set(SESSION_FACTS["paths"]) == set(facts.read_files) | set(facts.modified_files)
    assert set(SESSION_FACTS["errors"]) <= set(facts.errors)
    assert set(SESSION_FACTS["constraints"]) <= set(facts.constraints)
    assert facts.failures == (Failure("bash", "npm run lint", "error: Unexpected console statement (no-console)"),)


# -- robustness and speed -------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, 3, "text", b"x", {"role": "user"}, [None, 1, "x", [], {}]])
def test_anything_that_is_not_a_message_list_gives_empty_facts(value: object) -> None:
    assert isinstance(extract_facts(value), Facts)


@given(junk_messages)
@settings(max_examples=150, deadline=None)
def test_junk_never_raises(messages: list) -> None:
    facts = extract_facts(messages)
    for name in ("read_files", "modified_files", "errors", "constraints", "identifiers"):
        values = getattr(facts, name)
        assert all(isinstance(v, str) and v for v in values) and len(values) == len(set(values))
    # Requests are the user's turns in order (a user may well ask the same thing twice).
    assert all(isinstance(v, str) and v for v in facts.user_requests)


def test_repeated_sessions_give_the_facts_of_one() -> None:
    """Facts are deduplicated: six hundred copies of a session hold no more facts than one (speed: make bench)."""
    once, many = extract_facts(SESSION), extract_facts(SESSION * 600)
    assert (many.read_files, many.modified_files, many.errors, many.constraints) == (
        once.read_files, once.modified_files, once.errors, once.constraints)


def test_exit_codes_are_read_from_shell_output_only() -> None:
    facts = extract_facts([assistant(call("r", "read", path="ci.log")),
                           result("r", "read", "step 3\nCommand exited with code 1")])
    assert facts.failures == () and facts.errors == ()


# -- hostile text ---------------------------------------------------------------------------------------------

_HOSTILE_SCRIPT = r"""
import base64, random
from pi_compact.compaction.offline import facts
from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.summarizer import SummaryRequest

blob = base64.urlsafe_b64encode(random.Random(7).randbytes(3072)).decode()
hostile = [
    "Ab" + "C" * 44 + "_", "Ab" + "C" * 5000 + "_", blob, "x" + blob.upper() + "_", "a." * 20000 + "Error",
    "1," * 20000, "http://" * 3000, "a/" * 20000 + " ", "a_" * 20000, "a" * 100000 + "_", "## " + "# " * 20000 + "x",
    "`a" * 20000, "aB" * 20000 + "_", "x" * 50000 + "()_", ".." * 20000, "- " * 20000 + "x",
]
for text in hostile:
    facts.identifiers(text), facts.error_lines(text), facts.constraint_sentences(text)
    messages = ({"role": "user", "content": text},
                {"role": "assistant", "content": [{"type": "text", "text": text}]},
                {"role": "toolResult", "toolName": "bash", "content": [{"type": "text", "text": text}], "isError": True})
    OfflineSummarizer().summarize(SummaryRequest("", "", 1000, "compaction", messages, text, text))
print("finished")
"""


def test_hostile_text_is_read_in_linear_time() -> None:
    """Each input here made a pattern backtrack for minutes or forever; a generous timeout only catches that."""
    done = subprocess.run([sys.executable, "-c", _HOSTILE_SCRIPT], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "finished"


@pytest.mark.parametrize(("command", "output", "found"), [
    ("git fsck --full", "Checking object directories: 100% done.\nerror: object file .git/objects/ab/cdef is empty\n"
     "error: sha1 mismatch abcdef\nmissing blob 1234abcd", ["is empty", "sha1 mismatch abcdef", "missing blob 1234abcd"]),
    ("grep -rn 'TODO' src/", "src/a.py:3: error: TODO remove\nsrc/b.py:9: TODO: FIXME later",
     ["src/a.py:3", "src/b.py:9"]),
], ids=["fsck", "grep"])
def test_a_look_that_exits_non_zero_keeps_each_line_it_found(command: str, output: str, found: list[str]) -> None:
    """Issue 20, class 6: a command that only prints (``git fsck``, ``grep``) and exits non-zero found what the user
    asked about: each of its lines is kept (up to a few), not its first error line alone; progress lines are not."""
    facts = extract_facts([*run(command, output, code=1)])
    error = next(a.error for a in facts.attempts if a.failed)
    assert all(part in error for part in found) and "100%" not in error


@pytest.mark.parametrize(("output", "line"), [
    ('gh: Not Found (HTTP 404)\n\n{\n  "message": "Not Found",\n  "status": "404"\n}', "gh: Not Found (HTTP 404)"),
    ("request failed with status 500\n[\n]", "request failed with status 500"),
    ("curl: (22) The requested URL returned 403\n```\nExit code 22", "curl: (22) The requested URL returned 403"),
], ids=["gh-json", "brackets", "fence-and-exit"])
def test_a_failure_line_is_words_not_the_structure_printed_after_them(output: str, line: str) -> None:
    """A command that fails printing a JSON body or brackets last failed for the reason its words give, not ``}``."""
    facts = extract_facts([*run("gh api repos/o/r/pulls/1/comments/9", output, code=1)])
    assert next(a.error for a in facts.attempts if a.failed) == line


@pytest.mark.parametrize(("output", "wanted"), [
    ("\x1b[31m\x1b[1m____ ERROR at setup of test_deploy ____\x1b[0m\n", "____ ERROR at setup of test_deploy ____"),
    ("\x1b[1;31merror\x1b[0m: could not compile `app`\n", "error: could not compile `app`"),
    ("Running action run-once\nerror: |\n  cannot open registers-sungrow.yaml\n",
     "error: cannot open registers-sungrow.yaml"),
    ("ERROR: >-\n    the unit is not ready\n", "ERROR: the unit is not ready"),
    ("error: |\nnot a block\n", "error: |"),
    ("Running action run-once\nerror: |\n  06:45:04 INFO     Starting SunGather 0.5.2\n"
     "  06:45:05 ERROR    Webserver: Error: [Errno 98] Address already in use\nunit-0: done\n",
     "error: 06:45:05 ERROR    Webserver: Error: [Errno 98] Address already in use"),
])
def test_an_error_line_reads_without_terminal_colours_and_with_its_yaml_block(output: str, wanted: str) -> None:
    """A colour sequence left "[31m[1m" in front of the message once its ESC was dropped; `error: |` said nothing."""
    assert error_lines(output)[0] == wanted
