"""A ``cd DIR`` inside a command line moves the paths named after it (issue 20, class 2): ``cd web && sed -i …
src/app.ts`` changes ``web/src/app.ts``, so a file edited both through a tool and through the shell is named once,
and a file only read after a ``cd`` is never listed as modified under another name. A subshell's ``cd`` ends at
its ``)``; a place the line does not say (``cd $DIR``, ``cd ~``) leaves the paths as written."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.shell import shell_effects

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import changed_files, items


@pytest.mark.parametrize(("command", "reads", "writes"), [
    ("cd web && cat README.md && sed -i 's/a/b/' docs/setup.md", ["web/README.md"], ["web/docs/setup.md"]),
    ("cd web; npm test > out.log", [], ["web/out.log"]),
    ("cd /srv/app && cat config.toml", ["/srv/app/config.toml"], []),
    ("cd api && cd .. && cat main.go", ["main.go"], []),
    ("cd web && (cd api && cat a.py) && cat b.py", ["web/api/a.py", "web/b.py"], []),
    ("pushd pkg && grep -n foo util.go", ["pkg/util.go"], []),
    ("cd web && python3 -c \"open('data/out.json', 'w').write(s)\"", [], ["web/data/out.json"]),
    ("cd web && cat /etc/hosts", ["/etc/hosts"], []),
    ("cat a.txt && cd web", ["a.txt"], []),
    ("cd $ROOT && cat a.txt", ["a.txt"], []),  # where $ROOT is, the line does not say
    ("cd ~ && cat notes.md", ["notes.md"], []),
], ids=lambda v: v if isinstance(v, str) else None)
def test_paths_after_a_cd_are_named_from_where_the_line_started(command, reads, writes) -> None:
    effects = shell_effects(command)
    assert (effects.reads, effects.writes) == (reads, writes)


FOLDERS = st.sampled_from(["web", "services/api", "frontend/app", "pkg"])
FILES = st.sampled_from(["src/config.ts", "README.md", "docs/setup.md", "main.go"])
TOOLS = st.sampled_from(["bash", "Bash", "exec_command"])


@EXAMPLES
@given(folder=FOLDERS, path=FILES, tool=TOOLS)
def test_a_file_edited_by_tool_and_by_shell_after_cd_is_one_file(folder: str, path: str, tool: str) -> None:
    full = f"/repo/{folder}/{path}"
    messages = [user(f"Change the port in {folder} to 8080."),
                assistant(call("a1", "edit", path=full, oldText="3000", newText="8080")),
                result("a1", "edit", f"Successfully replaced text in {full}."),
                assistant(call("a2", tool, command=f"cd {folder} && sed -i 's/3000/8080/' {path} && cat NOTES.txt")),
                result("a2", tool, "notes"),
                assistant("The port is 8080 now.")]
    text = summarize(messages, metadata={"cwd": "/repo"})
    assert list(changed_files(text)) == [path.rsplit("/", 1)[-1]]  # one file, by its short name
    facts = extract_facts(messages)
    assert f"{folder}/NOTES.txt" in facts.read_files and "NOTES.txt" not in facts.read_files


@pytest.mark.parametrize(("command", "writes"), [
    ("git checkout -- src/app.tsx", ["src/app.tsx"]),
    ("git checkout HEAD~1 -- a.py lib/b.go", ["a.py", "lib/b.go"]),
    ("git checkout src/settings.tsx", ["src/settings.tsx"]),
    ("git restore src/a.ts docs/b.md", ["src/a.ts", "docs/b.md"]),
    ("git restore --source=HEAD~2 src/a.ts", ["src/a.ts"]),
    ("cd web && git checkout -- package.json", ["web/package.json"]),
    ("git checkout main", []),  # a branch, not a file
    ("git checkout -b feature/login", []),
    ("git checkout v1.2", []),
    ("git restore --staged src/a.ts", []),  # only the index is put back
], ids=lambda v: v if isinstance(v, str) else None)
def test_git_putting_files_back_changes_them(command: str, writes: list[str]) -> None:
    assert shell_effects(command).writes == writes


def test_a_windows_absolute_path_after_a_cd_stays_as_written() -> None:
    assert shell_effects("cd D:/proj/web && cat a.md C:/Users/me/b.md").reads == ["D:/proj/web/a.md",
                                                                                  "C:/Users/me/b.md"]


REFUSALS = st.sampled_from(["The user doesn't want to proceed with this tool use. The tool use was rejected.",
                            "exec command rejected by user", "Blocked by user", "User denied permission to run this tool."])


@EXAMPLES
@given(folder=FOLDERS, path=FILES, tool=TOOLS, refusal=REFUSALS)
def test_a_refused_write_after_a_cd_is_listed_under_no_name(folder, path, tool, refusal) -> None:
    messages = [user("Bump the port."), assistant(call("r", tool, command=f"cd {folder} && sed -i 's/1/2/' {path}")),
                result("r", tool, refusal, error=True), assistant("Understood, I will leave it.")]
    text = summarize(messages, metadata={"cwd": "/repo"})
    modified = text.split("<modified-files>")[1] if "<modified-files>" in text else ""
    assert path not in modified and path not in " ".join(items(text, "### Blocked"))
    assert not changed_files(text)


@EXAMPLES
@given(folder=FOLDERS, tool=TOOLS, check=st.sampled_from(["npm test", "go test ./...", "pytest -q"]))
def test_a_check_failing_in_a_folder_then_passing_there_is_not_open(folder, tool, check) -> None:
    command = f"cd {folder} && {check}"
    messages = [user("Make the checks pass."), assistant(call("a", tool, command=command)),
                result("a", tool, "FAILED test_one - AssertionError\nexit code 1", error=True),
                assistant(call("e", "edit", path=f"{folder}/src/config.ts", oldText="a", newText="b")),
                result("e", "edit", "ok"), assistant(call("b", tool, command=command)), result("b", tool, "all passed"),
                assistant("The checks pass now.")]
    text = summarize(messages, metadata={"cwd": "/repo"})
    assert items(text, "### Blocked") == ["(none)"] or not items(text, "### Blocked")
    assert check not in " ".join(items(text, "## Next Steps"))
