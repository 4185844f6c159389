"""The tools against hostile paths: devices, FIFOs, huge files, symlinks, modes, and the opt-in confinement.

Issue 13, item 11 (write/edit replaced a symlink and left a briefly world-readable temp file), item 6
(a model's ``read("/dev/zero")`` ended the chat) and the ``--confine`` / ``--confirm-bash`` options.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pi_compact.agent.fileio import MAX_READ_BYTES, FileRefused, confined, read_regular, replace_file
from pi_compact.agent.tools import REFUSED_TEXT, Toolbox


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("print('hello')\n")
    (tmp_path / "outside.txt").write_text("secret outside\n")
    return root


def call(box: Toolbox, name: str, **arguments) -> dict:
    result, _ = box.run({"type": "toolCall", "id": "c1", "name": name, "arguments": arguments})
    return result


def text(result: dict) -> str:
    return result["content"][0]["text"]


@pytest.fixture
def fifo(project: Path) -> Path:
    path = project / "pipe"
    os.mkfifo(path)
    return path


# -- item 6: non-regular and huge files -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["read", "edit"])
def test_a_device_is_an_error_result_not_a_crash(project: Path, name: str) -> None:
    result = call(Toolbox(str(project)), name, path="/dev/zero", oldText="a", newText="b")
    assert result["isError"] is True
    assert "Not a regular file" in text(result) or "File not found" in text(result)


def test_read_of_dev_zero_says_what_it_is(project: Path) -> None:
    result = call(Toolbox(str(project)), "read", path="/dev/zero")
    assert (result["isError"], text(result)) == (True, "Not a regular file: /dev/zero (a character device)")


def test_a_fifo_is_refused_at_once_by_read_and_skipped_by_grep(project: Path, fifo: Path) -> None:
    result = call(Toolbox(str(project)), "read", path="pipe")
    assert result["isError"] is True and "(a FIFO)" in text(result)
    found = call(Toolbox(str(project)), "grep", pattern="hello")
    assert text(found) == "src/app.py:1: print('hello')"


def test_a_file_over_the_read_bound_is_refused_with_a_hint(project: Path) -> None:
    big = project / "huge.log"
    with big.open("wb") as stream:
        stream.truncate(MAX_READ_BYTES + 1)  # sparse: costs no disk
    result = call(Toolbox(str(project)), "read", path="huge.log")
    assert result["isError"] is True and "File too large" in text(result) and "use bash" in text(result)


def test_read_regular_stops_at_its_bound(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 11)
    assert read_regular(path, limit=11) == b"x" * 11
    with pytest.raises(FileRefused, match="File too large"):
        read_regular(path, limit=10)


# -- item 11: writes through symlinks, private temp files ---------------------------------------------------


def test_write_and_edit_go_through_a_symlink_as_in_pi(project: Path) -> None:
    real = project / "src" / "real.txt"
    real.write_text("one\n")
    link = project / "link.txt"
    link.symlink_to(real)
    box = Toolbox(str(project))
    assert call(box, "write", path="link.txt", content="two\n")["isError"] is False
    assert link.is_symlink() and real.read_text() == "two\n"
    assert call(box, "edit", path="link.txt", oldText="two", newText="three")["isError"] is False
    assert link.is_symlink() and real.read_text() == "three\n"


def test_a_dangling_symlink_creates_its_target(project: Path) -> None:
    link = project / "new.txt"
    link.symlink_to(project / "src" / "made.txt")
    call(Toolbox(str(project)), "write", path="new.txt", content="made\n")
    assert link.is_symlink() and (project / "src" / "made.txt").read_text() == "made\n"


def test_the_temp_file_is_private_while_written_and_the_target_keeps_its_mode(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = project / "secret.env"
    secret.write_text("TOKEN=1\n")
    secret.chmod(0o600)
    seen: list[tuple[str, int]] = []
    real_fsync = os.fsync

    def spying_fsync(fd: int) -> None:  # the moment the content is in the temp file, before its mode is set
        seen.append((os.readlink(f"/proc/self/fd/{fd}"), stat.S_IMODE(os.fstat(fd).st_mode)))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spying_fsync)
    old_umask = os.umask(0)
    try:
        result = call(Toolbox(str(project)), "edit", path="secret.env", oldText="1", newText="2")
        call(Toolbox(str(project)), "write", path="fresh.txt", content="x")
    finally:
        os.umask(old_umask)
    assert result["isError"] is False and secret.read_text() == "TOKEN=2\n"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert [mode for _, mode in seen] == [0o600, 0o600]
    assert all(Path(name).parent == project and name.endswith(".pi-tmp") for name, _ in seen)
    assert stat.S_IMODE((project / "fresh.txt").stat().st_mode) == 0o666  # umask 0: what a new file gets
    assert sorted(p.name for p in project.iterdir()) == ["fresh.txt", "secret.env", "src"]


def test_a_failed_write_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "dir"
    target.mkdir()
    with pytest.raises(FileRefused, match="Not a regular file"):
        replace_file(target, b"x")
    assert list(tmp_path.iterdir()) == [target]


# -- --confine ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("read", {"path": "../outside.txt"}),
        ("read", {"path": "escape/outside.txt"}),
        ("write", {"path": "../written.txt", "content": "x"}),
        ("edit", {"path": "../outside.txt", "oldText": "secret", "newText": "public"}),
        ("ls", {"path": ".."}),
        ("grep", {"pattern": "secret", "path": ".."}),
    ],
    ids=["read-dotdot", "read-through-symlink", "write-dotdot", "edit-dotdot", "ls-parent", "grep-parent"],
)
def test_confine_refuses_paths_outside_the_working_directory(project: Path, name: str, arguments: dict) -> None:
    (project / "escape").symlink_to(project.parent)
    result = call(Toolbox(str(project), confine=True), name, **arguments)
    assert result["isError"] is True and "outside the working directory" in text(result)
    assert (project.parent / "outside.txt").read_text() == "secret outside\n"
    assert not (project.parent / "written.txt").exists()


def test_confine_still_allows_everything_inside(project: Path) -> None:
    box = Toolbox(str(project), confine=True)
    assert call(box, "write", path="src/new/file.txt", content="hi\n")["isError"] is False
    assert text(call(box, "read", path=str(project / "src" / "new" / "file.txt"))) == "hi\n"
    assert call(box, "edit", path="./src/../src/app.py", oldText="hello", newText="bye")["isError"] is False
    assert "src/" in text(call(box, "ls"))


def test_confine_makes_grep_skip_symlinks_that_lead_outside(project: Path) -> None:
    (project / "leak.txt").symlink_to(project.parent / "outside.txt")
    assert "leak.txt:1: secret outside" in text(call(Toolbox(str(project)), "grep", pattern="secret"))
    assert text(call(Toolbox(str(project), confine=True), "grep", pattern="secret")) == "No matches found"


def test_confined_resolves_symlinks_and_dotdot(project: Path) -> None:
    assert confined(project / "src" / ".." / "src" / "app.py", str(project)) == project / "src" / "app.py"
    with pytest.raises(FileRefused):
        confined(Path("/etc/passwd"), str(project))
    with pytest.raises(FileRefused):  # a sibling whose name starts like the root is not inside it
        confined(project.parent / (project.name + "-other") / "x", str(project))


# -- --confirm-bash --------------------------------------------------------------------------------------------


def test_confirm_bash_asks_before_each_command_and_a_refusal_is_the_result(project: Path) -> None:
    asked: list[str] = []
    answers = iter([False, True])

    def confirm(command: str) -> bool:
        asked.append(command)
        return next(answers)

    box = Toolbox(str(project), confirm_bash=confirm)
    refused = call(box, "bash", command="touch made-by-bash")
    assert (refused["isError"], text(refused)) == (True, REFUSED_TEXT)
    assert not (project / "made-by-bash").exists()
    allowed = call(box, "bash", command="touch made-by-bash && echo ok")
    assert (allowed["isError"], text(allowed)) == (False, "ok")
    assert asked == ["touch made-by-bash", "touch made-by-bash && echo ok"]
