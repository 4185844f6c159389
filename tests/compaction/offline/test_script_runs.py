"""A script the region wrote and then ran (issue 20, class 2): the run's result is that script's, said with it in the
Done item ("ran `scripts/e2e.sh`: 14 passed"), not a bare result nor the state before the run."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.paths import PathNames
from pi_compact.compaction.offline.state import ran_script

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

RUN = st.sampled_from(["./{s}", "bash {s}", "sh {s} --keep", "cd /repo && ./{s}", "uv run {s}", "python3 {s} config/"])
SCRIPT = st.sampled_from(["scripts/e2e.sh", "tools/check_links.py"])
WRITER = st.sampled_from([("Write", "file_path", "content"), ("write", "path", "content")])


@EXAMPLES
@given(run=RUN, script=SCRIPT, writer=WRITER)
def test_a_script_written_then_run_owns_its_result(run: str, script: str, writer: tuple[str, str, str]) -> None:
    tool, path_key, content_key = writer
    command = run.format(s=script)
    messages = [user("Write an end-to-end check script and run it."),
                assistant(call("w", tool, **{path_key: script, content_key: "#!/bin/sh\n..."})),
                result("w", tool, "File created."),
                assistant(f"Created the script at `{script}`. Let me run it."),
                assistant(call("r1", "bash", command=command)),
                result("r1", "bash", "Step 3: enable\nError: hooks not installed", error=True),
                assistant(call("e", "edit", path=script, oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant(call("r2", "bash", command=command)),
                result("r2", "bash", "Step 1\nStep 2\nStep 3\n==== 14 passed in 2.1s ===="),
                assistant("Works now.")]
    done = [item for item in items(summarize(messages, metadata={"cwd": "/repo"}), "### Done")
            if not item.startswith("Files changed")]
    assert any(f"ran `{script}`: 14 passed" in item for item in done)
    assert not any(item.startswith("Created the script") for item in done)


@pytest.mark.parametrize(("command", "expected"), [
    ("./scripts/e2e.sh --keep", "scripts/e2e.sh"),
    ("bash -x scripts/e2e.sh", "scripts/e2e.sh"),
    ("uv run scripts/e2e.sh", "scripts/e2e.sh"),
    ("cat scripts/e2e.sh", ""),  # reads it: runs another program
    ("python -m pytest tests", ""),
    ("git add scripts/e2e.sh", ""),
])
def test_ran_script(command: str, expected: str) -> None:
    assert ran_script(command, {"scripts/e2e.sh"}, PathNames("/repo", ["scripts/e2e.sh"])) == expected
