"""listed_files and PathNames: one spelling per file, relative to the session's working directory."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.paths import PathNames, listed_files


@pytest.mark.parametrize(("path", "name"), [
    ("/work/app/src/a.py", "src/a.py"),
    ("./src/a.py", "src/a.py"),
    ("@src/a.py", "src/a.py"),
    ("a.py", "src/a.py"),  # a bare tail: the one longer known path it ends
    ("/elsewhere/b.py", "/elsewhere/b.py"),
])
def test_one_spelling_per_file(path: str, name: str) -> None:
    assert PathNames("/work/app", ["/work/app/src/a.py", "/elsewhere/b.py"]).name(path) == name


SKILL = "~/.wfc/skills/review/SKILL.md"


@pytest.mark.parametrize(("known", "name"), [
    (["/Users/sam/.wfc/skills/review/SKILL.md"], "/Users/sam/.wfc/skills/review/SKILL.md"),
    (["/home/sam/.wfc/skills/review/SKILL.md"], "/home/sam/.wfc/skills/review/SKILL.md"),
    (["/root/.wfc/skills/review/SKILL.md"], "/root/.wfc/skills/review/SKILL.md"),
    ([], SKILL),  # no full spelling known: as written
    (["/Users/a/.wfc/skills/review/SKILL.md", "/home/b/.wfc/skills/review/SKILL.md"], SKILL),  # two homes
    (["/srv/sam/.wfc/skills/review/SKILL.md"], SKILL),  # not a home directory
    (["/Users/sam/x/.wfc/skills/review/SKILL.md"], SKILL),  # deeper than the home
])
def test_a_file_named_from_home_is_the_one_full_path_it_stands_for(known: list[str], name: str) -> None:
    assert PathNames("/work/app", known).name(SKILL) == name


def test_a_file_named_both_from_home_and_in_full_is_listed_once() -> None:
    read, modified = listed_files(["~/.wfc/skills/review/SKILL.md", "/Users/sam/.wfc/skills/review/SKILL.md"], [],
                                  "/Users/sam/work/app")
    assert (read, modified) == (["/Users/sam/.wfc/skills/review/SKILL.md"], [])


def test_an_ambiguous_tail_stays_as_written() -> None:
    assert PathNames("", ["pkg/a/main.ts", "pkg/b/main.ts"]).name("main.ts") == "main.ts"


def test_the_lists_are_relative_sorted_and_without_duplicates() -> None:
    read, modified = listed_files(
        ["/work/app/src/b.py", "src/b.py", "/work/app/src/a.py", "README.md"],
        ["/work/app/src/a.py", "a.py"], "/work/app")
    assert read == ["README.md", "src/b.py"]
    assert modified == ["src/a.py"]  # read, then changed: listed as changed only


@pytest.mark.parametrize("directory", ["/work", "/work/app", "src/", "src", ".", "/tmp/x.txt", "/tmp"])
def test_directories_and_temporary_files_are_not_listed(directory: str) -> None:
    read, modified = listed_files([directory, "src/a.py"], [directory], "/work/app")
    assert (read, modified) == (["src/a.py"], [])


def test_without_a_cwd_the_paths_are_kept_but_still_merged() -> None:
    assert listed_files(["/abs/pkg/main.ts", "pkg/main.ts"], [], "") == (["/abs/pkg/main.ts"], [])
    assert listed_files(["pkg/src/main.ts", "src/main.ts"], [], "") == (["pkg/src/main.ts"], [])


@pytest.mark.parametrize("spelling", [
    r"D:\proj\web\src\app.js", "D:/proj/web/src/app.js", "d:/proj/web/src/app.js", "/d/proj/web/src/app.js",
    "/mnt/d/proj/web/src/app.js", "/cygdrive/d/proj/web/src/app.js", r"D:\Proj\Web\src\app.js", "src/app.js",
])
def test_a_windows_file_has_one_name_however_its_drive_and_slashes_are_spelled(spelling: str) -> None:
    """A session on Windows names a file with backslashes (Claude Code's tools), forward slashes, Git Bash's /d/ or
    WSL's /mnt/d/, in either case: one file, named relative to the working directory (issue 20, class 2)."""
    assert PathNames(r"D:\proj\web", []).name(spelling) == "src/app.js"


def test_windows_files_outside_the_working_directory_keep_one_absolute_spelling() -> None:
    read, modified = listed_files([r"C:\Users\me\notes.md", "C:/Users/me/notes.md", r"D:\proj\README.md"],
                                  [r"D:\proj\web\a.ts", "/d/proj/web/a.ts"], r"D:\proj\web")
    assert (read, modified) == (["C:/Users/me/notes.md", "D:/proj/README.md"], ["a.ts"])
