"""A file the region deleted is not listed as if it exists (issue 20, class 6): deleted by a shell command (``rm``,
``git rm``, ``unlink``), by a delete tool, moved away (``mv``, ``git mv``), or gone with the directory that held it;
a path written or read again after the deletion exists. The Done line names what was deleted once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.paths import listed_files

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import changed_files

ROOTS = st.sampled_from(["", "/home/dev/project/"])
DIRECTORY_REMOVALS = st.sampled_from(["rm -rf {}", "git rm -r -q {}", "mv {} archive/old-tools", "git mv {} lib/tools2"])
FILE_REMOVALS = st.sampled_from([("bash", "unlink {}"), ("bash", "trash {}"), ("delete_file", ""), ("Delete", "")])


def _lists(messages: list[dict]) -> tuple[list[str], list[str]]:
    facts = extract_facts(messages)
    return listed_files(facts.read_files, facts.modified_files, "", facts.gone)


@EXAMPLES
@given(root=ROOTS, removal=DIRECTORY_REMOVALS)
def test_files_under_a_removed_directory_leave_the_lists(root: str, removal: str) -> None:
    written, read = f"{root}lib/tools/export.py", f"{root}lib/tools/api/client.py"
    messages = [user("Move the export helper in, then clean up the old tools package."),
                assistant(call("w", "write", path=written, content="x")), result("w", "write", "ok"),
                assistant(call("r", "read", path=read)), result("r", "read", "def get(): ..."),
                assistant(call("k", "edit", path="lib/app.py", oldText="a", newText="b")), result("k", "edit", "ok"),
                assistant(call("d", "bash", command=removal.format("lib/tools"))), result("d", "bash", "")]
    looked_at, changed = _lists(messages)
    assert changed == ["lib/app.py"] and looked_at == []
    done = changed_files(summarize(messages))
    assert not any("export.py" in path for path in done)  # its "written" is no longer true
    assert done.get("app.py") == "edited"  # by its short name (short_paths)


@EXAMPLES
@given(root=ROOTS, removal=DIRECTORY_REMOVALS)
def test_a_file_written_again_in_the_removed_directory_exists(root: str, removal: str) -> None:
    path = f"{root}lib/tools/export.py"
    messages = [user("Recreate the tools package from scratch."),
                assistant(call("w", "write", path=path, content="x")), result("w", "write", "ok"),
                assistant(call("d", "bash", command=removal.format("lib/tools"))), result("d", "bash", ""),
                assistant(call("n", "write", path=path, content="y")), result("n", "write", "ok")]
    assert [path.removeprefix(root) for path in _lists(messages)[1]] == ["lib/tools/export.py"]


@EXAMPLES
@given(removal=FILE_REMOVALS, path=st.sampled_from(["src/legacy.ts", "docs/old-guide.md"]))
def test_a_file_deleted_by_unlink_or_a_delete_tool_is_named_once_as_deleted(removal: tuple, path: str) -> None:
    tool, command = removal
    arguments = {"command": command.format(path)} if command else {"path": path}
    messages = [user("Replace the legacy module."),
                assistant(call("e", "edit", path=path, oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant(call("d", tool, **arguments)), result("d", tool, "ok" if not command else "")]
    assert path not in _lists(messages)[1]
    summary = summarize(messages)
    assert changed_files(summary).get(path.rsplit("/", 1)[-1]) == "deleted" if command else True
    assert "<modified-files>" not in summary or path not in summary.split("<modified-files>", 1)[1]


@EXAMPLES
@given(path=st.sampled_from(["config/settings.yaml", "notes/plan.md"]))
def test_a_file_read_after_its_deletion_exists_again(path: str) -> None:
    messages = [user("Reset the settings."),
                assistant(call("w", "write", path=path, content="x")), result("w", "write", "ok"),
                assistant(call("d", "bash", command=f"rm {path}")), result("d", "bash", ""),
                assistant(call("g", "bash", command=f"git checkout -- {path}")), result("g", "bash", ""),
                assistant(call("r", "read", path=path)), result("r", "read", "key: value")]
    assert path not in extract_facts(messages).gone


@given(st.sampled_from(["git mv src/old_name.py src/new_name.py", "git rm -q src/old_name.py"]))
def test_git_rm_and_git_mv_say_what_they_did(command: str) -> None:
    messages = [user("Rename the module."),
                assistant(call("e", "edit", path="src/old_name.py", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant(call("m", "bash", command=command)), result("m", "bash", "")]
    done = changed_files(summarize(messages))
    assert done.get("old_name.py") == ("moved" if " mv " in command else "deleted")
