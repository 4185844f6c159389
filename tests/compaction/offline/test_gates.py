"""The checks a session ran before it committed are its routine: the next commit runs them too."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.gates import commit_gates

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

GATES = st.sampled_from([("mise run fmt", "mise run lint", "mise run test:ci"),
                         ("uv run ruff check src/", "uv run mypy src/", "uv run pytest -q"),
                         ("npm run lint", "npm test")])
_ids = iter(range(10**9))


def _run(command: str, output: str = "ok") -> list[dict]:
    call_id = f"c{next(_ids)}"
    return [assistant(call(call_id, "bash", command=command)), result(call_id, "bash", output)]


def _change(path: str) -> list[dict]:
    call_id = f"e{next(_ids)}"
    return [assistant(call(call_id, "edit", path=path, oldText="a", newText="b")), result(call_id, "edit", "ok")]


def _round(gates: tuple, joined: bool, extra: str, number: int) -> list[dict]:
    checks = _run(" && ".join(f"{gate} 2>&1" for gate in gates) + " | tail -5") if joined else \
        [m for gate in gates for m in _run(f"{gate} 2>&1 | tail -20")]
    return [*_change(f"src/part{number}.py"), *_run(extra), *checks, *_run("git status --short"),
            *_run(f'git add -A && git commit -m "part {number}"', f"[main abc{number}def] part {number}")]


@EXAMPLES
@given(gates=GATES, joined=st.booleans(), rounds=st.integers(2, 3))
def test_the_checks_run_before_each_commit_are_the_routine(gates: tuple, joined: bool, rounds: int) -> None:
    messages = [user("Implement the parts and commit each one.")]
    for number in range(rounds):
        messages += _round(gates, joined, f"go test ./pkg/part{number} -run TestOnly{number}", number)
    messages.append(assistant("All parts committed."))
    assert commit_gates(extract_facts(messages).attempts) == list(gates)  # the one-off test runs are no routine
    constraints = "\n".join(items(summarize(messages), "## Constraints & Preferences"))
    assert all(f"`{gate}`" in constraints for gate in gates)


def test_checks_before_a_later_change_are_not_before_the_commit() -> None:
    messages = [user("Fix it and commit."), *_run("npm test"), *_change("src/app.ts"),
                *_run('git commit -am "fix"', "[main 1a2b3c4] fix"), assistant("Committed.")]
    assert commit_gates(extract_facts(messages).attempts) == []


def test_no_commit_no_routine() -> None:
    messages = [user("Check it."), *_change("src/app.ts"), *_run("npm test"), assistant("Tests pass.")]
    assert commit_gates(extract_facts(messages).attempts) == []
