"""A redo under way (redo.py, steps.py): when the user asks for the job before again and the region ends mid-redo,
the files the earlier run went on to that the redo has not reached are named as the next steps, in that run's
order; a request that is no redo, or a redo that has finished, names none."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.redo import asks_redo

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

FILES = ["src/store/types.go", "src/store/commit_logs.go", "cmd/rewind.go", "cmd/resume.go", "cmd/session.go"]
REDOS = ["sorry I messed up, can you do it again", "redo it please", "hmm, try that again",
         "can you start over, I reset the index", "do it one more time"]


def _edits() -> list[dict]:
    """The work before: each file changed (what the staging is about)."""
    messages = [user("Use the typed checkpoint id everywhere and keep the log refactor apart.")]
    for number, path in enumerate(FILES):
        messages += [assistant(call(f"e{number}", "edit", path=path, oldText="string", newText="id.CheckpointID")),
                     result(f"e{number}", "edit", "ok")]
    return [*messages, assistant("All files use the typed id now.")]


def _stage(prefix: str, paths: list[str], program: str) -> list[dict]:
    messages = []
    for number, path in enumerate(paths):
        command = f"printf 'y\\nn\\n' | git add -p {path}" if program == "printf" else f"git add -p {path} << 'EOF'\ny\nn\nEOF"
        messages += [assistant(f"Now `{path.rsplit('/', 1)[-1]}` - stage the type hunks, skip the refactor:",
                               call(f"{prefix}d{number}", "bash", command=f"git diff {path} | head -80")),
                     result(f"{prefix}d{number}", "bash", "diff --git a b"),
                     assistant(call(f"{prefix}{number}", "bash", command=command)),
                     result(f"{prefix}{number}", "bash", "Stage this hunk [y,n,q,a,d,s,e,?]?")]
    return messages


def _session(request: str, reached: int, program: str) -> list[dict]:
    return [*_edits(), user("can you stage me the changes around the checkpoint id types only?"),
            *_stage("a", FILES, program), assistant("Done: the type hunks are staged, the refactor is not."),
            user(request), assistant(call("r", "bash", command="git reset HEAD")), result("r", "bash", "Unstaged"),
            *_stage("b", FILES[:reached], program)]


@EXAMPLES
@given(request=st.sampled_from(REDOS), reached=st.integers(1, len(FILES) - 1),
       program=st.sampled_from(["printf", "heredoc"]))
def test_a_redo_under_way_names_the_files_the_earlier_run_went_on_to(request: str, reached: int, program: str) -> None:
    steps = "\n".join(items(summarize(_session(request, reached, program)), "## Next Steps"))
    for path in FILES[reached:]:
        assert path in steps
    left = steps[steps.index("Redo still to reach"):] if "Redo still to reach" in steps else ""
    assert left and all(path not in left for path in FILES[:reached])
    assert [left.index(path) for path in FILES[reached:]] == sorted(left.index(path) for path in FILES[reached:])


@EXAMPLES
@given(request=st.sampled_from(["now stage the docs too", "what does hunk 2 of the rewind change do?",
                                "it failed again, why?"]), reached=st.integers(1, len(FILES) - 1))
def test_a_request_that_is_no_redo_names_no_redo(request: str, reached: int) -> None:
    steps = "\n".join(items(summarize(_session(request, reached, "printf")), "## Next Steps"))
    assert "Redo still to reach" not in steps


@EXAMPLES
@given(request=st.sampled_from(REDOS))
def test_a_finished_redo_leaves_nothing_to_reach(request: str) -> None:
    messages = [*_session(request, len(FILES), "printf"), assistant("Done again: the type hunks are staged.")]
    assert "Redo still to reach" not in "\n".join(items(summarize(messages), "## Next Steps"))


@given(words=st.lists(st.sampled_from(["please", "the", "staging", "files", "now", "carefully"]), min_size=13,
                      max_size=20))
def test_a_long_request_that_says_again_asks_for_its_own_work(words: list[str]) -> None:
    assert not asks_redo(" ".join(["do", "it", "again", *words]))
