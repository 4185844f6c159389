"""The line of a failed command's output that names what failed, in each tool's shape: the finding, never the
runner's verdict."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.diagnostics import is_located, is_telling, telling_line

from .test_classes import EXAMPLES

VERDICTS = st.sampled_from(["[lint] ERROR task failed", "FAIL\texample.com/cli/pkg [build failed]", "exit status 1",
                            "make: *** [Makefile:12: lint] Error 1", "error: script \"check\" exited with code 1",
                            "Found 1 error.", "1 issues:\n* errcheck: 1"])
FILES = st.sampled_from(["cmd/cli/session_state.go", "src/app/config.ts", "pkg/server/main.go", "lib/parser.py",
                         "src/main.rs", "./web/index.test.tsx"])
MESSAGES = st.sampled_from([
    "not enough arguments in call to initializer.InitializeSession",
    "Error return value of `baseCommit.Tree` is not checked (errcheck)",
    "SA1000: error parsing regexp: invalid escape sequence (staticcheck)",
    "error: Incompatible types in assignment (expression has type \"int\", variable has type \"str\")",
    "func getMergeBaseHash is unused (unused)",
    "error is not nil (line 400) but it returns nil (nilerr)",
])


@EXAMPLES
@given(path=FILES, message=MESSAGES, line=st.integers(1, 9999), column=st.none() | st.integers(1, 200),
       before=VERDICTS, after=VERDICTS)
def test_a_located_diagnostic_is_the_line_whatever_verdict_surrounds_it(path: str, message: str, line: int,
                                                                        column: int | None, before: str,
                                                                        after: str) -> None:
    where = f"{path}:{line}:{column}" if column else f"{path}:{line}"
    output = f"Exit code 1\n{before}\n\n{where}: {message}\n{after}"
    found = telling_line(output)
    assert found.startswith(f"{where}: {message}") and is_located(found) and is_telling(found)


@pytest.mark.parametrize(("below", "kept"), [
    ("\tworktreePath, _ := GetWorktreePath()", True),  # golangci-lint prints the offending source line
    ("baseTree, _ = baseCommit.Tree()", True),  # unindented source, after a finding tagged with its linter
    ("\t              ^", False),  # a caret line names nothing
    ("1 issues:", False),
    ("pkg/other.go:3:1: another finding (unused)", False),
])
def test_a_linter_finding_keeps_the_source_line_under_it(below: str, kept: bool) -> None:
    diagnostic = "cmd/cli/state.go:131:16: Error return value is not checked (errcheck)"
    found = telling_line(f"[lint] ERROR task failed\n\n{diagnostic}\n{below}\n")
    assert diagnostic in found and (below.strip() in found) is kept


def test_a_go_compile_error_keeps_the_indented_line_that_goes_on_with_it() -> None:
    output = ("# example.com/cli\ncmd/cli/hooks.go:634:64: not enough arguments in call to Init\n"
              "\thave (string, string)\n\twant (string, string, string)")
    assert telling_line(output) == \
        "cmd/cli/hooks.go:634:64: not enough arguments in call to Init — have (string, string)"


@pytest.mark.parametrize("output", [
    "src/app.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
    "lib/parser.py:41: error: Name \"parse_header\" is not defined  [name-defined]",
    "src/main.c:3:5: error: implicit declaration of function 'prnt'",
])
def test_compilers_and_type_checkers_locate_their_findings(output: str) -> None:
    assert telling_line(f"make: *** [all] Error 1\n{output}\nmake: *** [all] Error 2") == output


@pytest.mark.parametrize("line", [
    "cmd/cli/strategy/auto_commit.go:1: : # example.com/cli/strategy [example.com/cli/strategy.test]",  # a header
    "cmd/cli/session.go:132:25: too many errors",
    "/usr/lib/python3.12/importlib/__init__.py:90: in import_module",  # a traceback's frame
    "(eval):1: no matches found: /tmp/agent-*/",
    "ls: /tmp/x: No such file or directory",
    "http://localhost:8080: connection refused",
])
def test_what_only_looks_located_is_no_diagnostic(line: str) -> None:
    assert not is_located(line)


@EXAMPLES
@given(files=st.lists(FILES, min_size=1, max_size=9, unique=True))
def test_a_merge_conflict_names_every_conflicted_file(files: list[str]) -> None:
    output = "".join(f"Auto-merging {f}\nCONFLICT (content): Merge conflict in {f}\n" for f in files)
    found = telling_line(output + "Automatic merge failed; fix conflicts and then commit the result.")
    assert found.startswith("CONFLICT") and all(f in found for f in files[:6])
    assert ("more" in found) is (len(files) > 6)


def test_a_rejected_push_is_named_by_gits_rejection() -> None:
    output = ("To github.com:example/cli.git\n ! [rejected]        feature -> feature (fetch first)\n"
              "error: failed to push some refs to 'github.com:example/cli.git'\nhint: Updates were rejected")
    assert telling_line(output) == "! [rejected]        feature -> feature (fetch first)"


def test_the_hooks_pre_commit_failed_are_named() -> None:
    output = ("trim trailing whitespace.................................................Passed\n"
              "Detect secrets...........................................................Failed\n"
              "- hook id: detect-secrets\n\nERROR: Potential secrets about to be committed to git repo!\n"
              "black....................................................................Failed\n"
              "docs/guide.md:247:1 MD029/ol-prefix Ordered list item prefix\n")
    assert telling_line(output) == "pre-commit hooks failed: Detect secrets, black"


@given(st.lists(st.sampled_from(["a", ".go", ":", "1", " ", "\n", "/", "(", ")", "`", "CONFLICT (", "...Failed",
                                  " ! [rejected]"]), max_size=120))
def test_any_output_gives_a_line_or_nothing(parts: list[str]) -> None:
    found = telling_line("".join(parts))
    assert len(found) <= 300 and "\n" not in found and found.count("`") % 2 == 0


def test_golangci_lints_tally_names_every_linter_that_found_something() -> None:
    output = ("agent/openclaw.go:256:9: error returned from external package is unwrapped: sig: func ChunkJSONL("
              "content []byte, maxSize int) (wrapcheck)\n\treturn agent.ChunkJSONL(content, maxSize)\n"
              "agent/openclaw.go:40:1: unparam: result 1 (error) is always nil (unparam)\n"
              "3 issues:\n* wrapcheck: 1\n* unparam: 1\n* gosec: 1")
    found = telling_line(output)
    assert found.startswith("findings by wrapcheck, unparam, gosec; the first: agent/openclaw.go:256:9: ")
    assert is_telling(found)


@EXAMPLES
@given(linters=st.lists(st.sampled_from(["errcheck", "goconst", "revive", "maintidx", "gocritic", "no-unused-vars"]),
                        min_size=2, max_size=5, unique=True), path=FILES)
def test_without_a_tally_the_findings_tags_name_the_linters(linters: list[str], path: str) -> None:
    output = "".join(f"{path}:{n + 3}:7: a finding of this kind ({linter})\n" for n, linter in enumerate(linters))
    found = telling_line(output + "[lint] ERROR task failed")
    assert found.startswith(f"findings by {', '.join(linters)}; the first: {path}:3:7: ")


@pytest.mark.parametrize("output", [
    "src/a.go:3:1: unused parameter (unparam)\nsrc/a.go:9:1: unused parameter (unparam)",  # one kind: no list
    "src/a.go:3:1: call failed (line 400)\nsrc/b.go:4:1: bad value (see the Docs)",  # no linter tags
])
def test_one_kind_or_no_tags_names_no_linters(output: str) -> None:
    assert not telling_line(output).startswith("findings by")
