"""A path holding a redaction mark or a placeholder is no file a continuing agent can open (issue 20): a transcript
scrubbed before it was shared names ``/Users/name.REDACTED.md`` or ``/home/***/app.py``; such a name is kept off
``<read-files>`` and ``<modified-files>``, by the mark's form, while files that only contain the letters stay."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.paths import is_redacted, listed_files

from ..messages import assistant, call, result, user
from .test_classes import summarize


@pytest.mark.parametrize("path", [
    "/Users/name.REDACTED.md", "/home/[redacted]/app/main.py", "/home/***/project/a.py", "~/<redacted>/notes.md",
    "/Users/<user>/code/b.ts", "/Users/xxx/code/c.go", "docs/XXXX.md", "src/REDACTED_1.txt",
    "/path/to/project/main.py", "path/to/config.yaml", "src/.../deep/a.py", "src/…/a.py", "cmd/cli/strat…",
])
def test_a_marked_path_is_redacted(path: str) -> None:
    assert is_redacted(path)


@pytest.mark.parametrize("path", [
    "src/xxhash.c", "lib/xxxhash.c", "pages/[id].tsx", "src/unredacted.py", "app/masked_input.py", "a/b/c.py",
    "box.py", "tests/test_x.py", "docs/xpath/to/a.md", "src/my.path/toc.md", "a/b/c...d.py",
])
def test_a_plain_path_is_not_redacted(path: str) -> None:
    assert not is_redacted(path)


def test_marked_paths_are_kept_off_both_lists() -> None:
    read = ["/work/app/src/a.py", "/Users/name.REDACTED.md", "/home/***/notes.txt"]
    modified = ["/work/app/src/b.py", "/Users/<redacted>/c.py", "/work/app/[REDACTED].py"]
    assert listed_files(read, modified, "/work/app") == (["src/a.py"], ["src/b.py"])


def test_a_marked_path_is_not_in_the_done_files_either() -> None:
    """The Done section's "Files changed" names the files a turn wrote: a scrubbed name is no file there either."""
    messages = [user("Write the two notes."),
                assistant(call("a", "write", path="/home/u/github.REDACTED.md", content="x")), result("a", "write", "ok"),
                assistant(call("b", "write", path="/work/app/notes.md", content="y")), result("b", "write", "ok"),
                assistant("Let me look at the next part.")]
    summary = summarize(messages)
    assert "notes.md" in summary and "REDACTED" not in summary
