"""A batch of tries closed by the agent's verdict that all of them worked (issue 20): the agent builds a feature and
tries it on several inputs, an invalid one among them, which exits non-zero as it should; its first words after
the batch say they all worked ("All tests work as expected", "全テスト正常動作", "todos os testes passam"). The failed
try is one of the cases, not an open error, whatever its own description says, and the request is done. A verdict
that names an exception or doubts, or words that look into the failure first, leave it open."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

FORMATS = {
    "pi": lambda command: ("bash", {"command": command}),
    "claude": lambda command: ("Bash", {"command": command, "description": "Try the CLI on an input"}),
    "codex": lambda command: ("exec_command", {"cmd": command}),
}
VERDICTS = [
    "All tests work as expected. Results:",
    "All 4 cases behaved correctly:",
    "Everything works. Summary:",
    "Each of the commands came out as expected.",
    "全テスト正常動作。結果まとめ:",
    "すべて期待通りです。",
    "全部正常，结果如下：",
    "모두 정상입니다.",
    "Todos os testes passam:",
    "Alles funktioniert wie gewünscht.",
]
TABLE = ("\n\n| input | result |\n|---|---|\n| `pkg:react` | version 19 |\n"
         "| `pkg:../../etc/passwd` | `invalid package name`, exit code 1 |")


def _session(verdict: str, agent: str = "claude", tried: str = "./mycli 'pkg:../../etc/passwd'") -> list[dict]:
    tool, good = FORMATS[agent]("./mycli pkg:react")
    _, bad = FORMATS[agent](f'{tried} 2>&1; echo "exit code: $?"')
    return [user("Build it and try it out on a few packages."),
            assistant("Built. Trying each pattern.", call("a", tool, **good)),
            result("a", tool, '{"name": "react", "version": "19.2.4"}'),
            assistant(call("b", tool, **bad)),
            result("b", tool, "Error: invalid package name\nexit code: 1"),
            assistant(verdict + TABLE)]


def _open(summary: str) -> bool:
    fixes = [step for step in items(summary, "## Next Steps") if step.startswith("Fix")]
    return items(summary, "### Blocked") != ["(none)"] or bool(fixes)


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("verdict", VERDICTS)
def test_a_failed_try_of_a_batch_the_agent_says_all_worked_is_settled(verdict: str, agent: str) -> None:
    summary = summarize(_session(verdict, agent))
    assert not _open(summary)
    assert items(summary, "## Next Steps")[0].startswith("The last request is done")


@pytest.mark.parametrize("verdict", [
    "All tests work except the invalid name case:",
    "Hmm, all tests work but the passwd one should have printed a clearer message.",
    "Let me look at why the last one failed. All the others work.",
    "The results:",
    "全テスト正常動作、ただし passwd のケース以外。",
])
def test_a_verdict_with_an_exception_or_a_doubt_leaves_the_failure_open(verdict: str) -> None:
    assert _open(summarize(_session(verdict)))

