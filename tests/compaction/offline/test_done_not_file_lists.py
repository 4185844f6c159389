"""Done says what now exists or works, not which files were touched (issue 20): a report that only lists files
("Updated `src/app.py` and `src/db.py`.", "Files changed: …") gives way to the agent's words of what it made ("Added
the `/health` endpoint: …"), with the checks that passed; the files stay in the Done section's file list."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.progress import only_files

from ..messages import assistant, call, result, user
from .test_offline import section, summarize


@pytest.mark.parametrize(("words", "files"), [
    ("Updated `src/app.py` and `src/db.py`.", True),
    ("Files changed: `src/app.py`, `src/db.py`", True),
    ("All done — changed src/app.py and src/db.py.", True),
    ("33/33 tests passing", False),
    ("Added the `/health` endpoint to `src/app.py`.", False),
    ("Updated `src/app.py` to return the build version.", False),
])
def test_a_list_of_files_is_told_apart(words: str, files: bool) -> None:
    assert only_files(words) is files


@pytest.mark.parametrize("last", ["Done. Updated `src/app.py` and `src/db.py`.", "Files changed: `src/app.py`, `src/db.py`",
                                  "All done — changed src/app.py and src/db.py."])
def test_done_says_what_the_files_now_hold(last: str) -> None:
    done = section(summarize([
        user("Add a health endpoint to the API."),
        assistant(call("e1", "edit", path="src/app.py", oldText="app = Flask(__name__)", newText="app = Flask()")),
        result("e1", "edit", "ok"),
        assistant("Added the `/health` endpoint: it returns the database status and the build version.",
                  call("e2", "edit", path="src/db.py", oldText="x", newText="y")),
        result("e2", "edit", "ok"),
        assistant(call("t1", "bash", command="pytest -q")), result("t1", "bash", "12 passed in 0.4s"),
        assistant(last),
    ]), "### Done")
    assert "`/health` endpoint" in done[0] and "12 passed" in done[0], done
