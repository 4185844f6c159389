"""The extension in the real pinned pi (``pi --mode rpc``), with a fake OpenAI-compatible model of a small window.

One pi session is prompted until pi auto-compacts (pi-compact's summary, by pi's own model, is what pi writes),
then a scripted model calls ``recall`` and gets the exact error the summary dropped, a second compaction
updates the first one's summary and keeps its file list, then a tree navigation writes pi-compact's branch
summary; the file opens with the same context in pi and here. A second pi session has a broken, outdated,
wrong-protocol, slow and then missing pi-compact: pi's own compaction runs each time, with one notice.
pi starts slowly, so each session is run once (module fixtures) and the tests read what it left.
"""

from __future__ import annotations

import json
import os
import random
import stat
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import orjson
import pytest

from pi_compact import Session
from pi_compact.pi_extension import extension_path
from pi_compact.testing import FakeReply, fake_llm_server
from tests.conformance.pi_ref import pi_context

from tests.pi_extension.pi_rpc import API_KEY, PiRpc, agent_dir, entries

LLM_SUMMARY = ("## Goal\nMap the parser's folders (FAKE-LLM-SUMMARY).\n\n## Constraints & Preferences\n- (none)\n\n"
               "## Progress\n### Done\n- [x] listed folders\n\n## Key Decisions\n- (none)\n\n"
               "## Next Steps\n1. continue with the parser\n\n## Critical Context\n- (none)")
MISSING_DIR = "no-such-dir-q7"
LS_ERROR = f"ls: cannot access '{MISSING_DIR}': No such file or directory"
SETTINGS = {"compaction": {"reserveTokens": 8_000, "keepRecentTokens": 1_500}}
WINDOW = 32_000
TREE_COMMAND = Path(__file__).with_name("tree_command.js")


def words(topic: str, n: int) -> str:
    return " ".join(f"{topic}-{i}" for i in range(n))


@dataclass
class Run:
    file: Path
    events: list[dict]
    notices: list[str]
    requests: list = field(default_factory=list)
    sleeping_before_exit: list[str] = field(default_factory=list)
    sleeping_after_exit: list[str] = field(default_factory=list)
    args: str = ""
    """What the stub was started with (the failing run's first request)."""
    stdin: dict = field(default_factory=dict)
    after_recall: list = field(default_factory=list)
    """The model's requests up to the answer after the recall tool's result."""


@pytest.fixture(scope="module")
def with_extension(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """Compaction (automatic), recall, a second compaction, then a tree navigation, in one pi session."""
    root = tmp_path_factory.mktemp("pi-ext")
    (root / "work").mkdir()
    (root / "work" / "notes.txt").write_text("parser notes\n" * 50)
    with fake_llm_server(default_text=LLM_SUMMARY) as server:
        agent = agent_dir(root, server.url, context_window=WINDOW, settings=SETTINGS)
        with PiRpc(agent=agent, cwd=root / "work", extensions=[extension_path(), TREE_COMMAND]) as pi:
            server.push(FakeReply(tool_calls=[{"name": "read", "arguments": {"path": "notes.txt"}}], usage=(2_500, 20)),
                        FakeReply(tool_calls=[{"name": "bash", "arguments": {"command": f"ls {MISSING_DIR}"}}],
                                  usage=(3_000, 20)),
                        FakeReply(text="That folder does not exist.", usage=(3_500, 20)))
            pi.prompt("Read the notes, then list the parser's folder, please. " + words("intro", 300))
            compact_after(pi, server, (9_000, 15_000, 26_000))  # the last one passes 32,000 - 8,000
            server.push(FakeReply(tool_calls=[{"name": "recall", "arguments": {"query": MISSING_DIR}}],
                                  usage=(6_000, 20)),
                        FakeReply(text="ls said the folder was missing.", usage=(6_500, 20)))
            pi.prompt("What exactly did ls say about the folder at the start?")
            after_recall = list(server.requests)
            compact_after(pi, server, (12_000, 27_000))  # a second compaction, over the first one's summary
            file = pi.session_file()
            first_answer = next(e for e in entries(file) if e.get("message", {}).get("role") == "assistant")
            mark = len(pi.events)
            assert pi.call({"type": "prompt", "message": f"/tree-to {first_answer['id']}"})["success"]
            pi.wait(lambda e: "tree-to done" in str(e.get("message")), 60, "the tree navigation", since=mark)
            return Run(file, list(pi.events), pi.notices(), list(server.requests), after_recall=after_recall)


def compact_after(pi: PiRpc, server, usages: tuple[int, ...]) -> None:
    """Prompt once per usage figure (what the fake model reports) and wait for the compaction the last one causes."""
    mark = len(pi.events)
    for n, usage in enumerate(usages):
        server.push(FakeReply(text=f"Step {n} done. " + words(f"reply{n}", 150), usage=(usage, 50)))
        pi.prompt(f"Step {n} at {usage}: " + words(f"step{n}", 500))
    pi.wait(lambda e: e.get("type") == "compaction_end", 60, "compaction_end", since=mark)


def only(items: list[dict], what: str) -> dict:
    assert len(items) == 1, f"{what}: {items}"
    return items[0]


def test_pi_writes_pi_compacts_summary_by_pis_own_model(with_extension: Run) -> None:
    compaction = [e for e in entries(with_extension.file) if e["type"] == "compaction"][0]
    assert compaction["fromHook"] is True  # pi's mark for a compaction an extension made
    details = compaction["details"]
    assert details["strategy"] == "summarize" and details["summarizer"] == "openai"
    assert details["generator"].startswith("pi-compact ") and details["readFiles"] == ["notes.txt"]
    assert "FAKE-LLM-SUMMARY" in compaction["summary"]
    assert LS_ERROR not in compaction["summary"]  # dropped by the summary: recall's job below
    summarizer_calls = [r for r in with_extension.requests if r.body["messages"][0]["content"].startswith(
        "You are a context summarization assistant")]
    assert len(summarizer_calls) >= 2
    assert summarizer_calls[0].headers["authorization"] == "Bearer fake-key-not-a-secret-7f3a"
    assert with_extension.notices.count("pi-compact: compacted (summarize, by openai)") == 2
    line = next(line for line in with_extension.file.read_text().splitlines() if compaction["id"] in line[:40])
    print("\ncompaction entry written by pi through the extension (-s shows it):\n" + line)


def test_a_second_compaction_updates_the_first_summary_and_keeps_its_files(with_extension: Run) -> None:
    first, second = [e for e in entries(with_extension.file) if e["type"] == "compaction"]
    assert second["fromHook"] is True and second["details"]["strategy"] == "summarize"
    # pi carries no file list of an extension's compaction forward (fromHook); ours are carried
    assert "notes.txt" in second["details"]["readFiles"] and "notes.txt" in second["summary"]
    updating = [r for r in with_extension.requests if r not in with_extension.after_recall
                and "<previous-summary>" in str(r.body["messages"][-1]["content"])]
    assert len(updating) >= 1 and "FAKE-LLM-SUMMARY" in updating[0].body["messages"][-1]["content"]


def test_the_file_opens_with_the_same_context_in_pi_and_here(with_extension: Run) -> None:
    ours = orjson.loads(orjson.dumps(Session.open(with_extension.file).build_context().to_json()))
    assert pi_context(with_extension.file) == ours
    assert ours["messages"][-1]["role"] == "branchSummary"  # the navigation ended on the branch summary


def test_the_model_recalls_the_exact_error_the_summary_dropped(with_extension: Run) -> None:
    results = [e["message"] for e in entries(with_extension.file)
               if e.get("message", {}).get("role") == "toolResult" and e["message"]["toolName"] == "recall"]
    result = only(results, "recall results")
    assert result["isError"] is False
    assert LS_ERROR in result["content"][0]["text"]
    # and the model was sent it on its next request
    assert LS_ERROR in json.dumps(with_extension.after_recall[-1].body)


def test_a_tree_navigation_writes_pi_compacts_branch_summary(with_extension: Run) -> None:
    summary = only([e for e in entries(with_extension.file) if e["type"] == "branch_summary"], "branch summaries")
    assert summary["fromHook"] is True
    assert summary["details"]["generator"].startswith("pi-compact ")
    assert summary["details"]["strategy"] == "summarize"
    assert summary["summary"].startswith("The user explored a different conversation branch")
    assert "FAKE-LLM-SUMMARY" in summary["summary"]


# -- pi-compact failing: pi's own compaction --------------------------------------------------------------


STUB = """#!/bin/sh
mode=$(cat "{mode}")
case "$mode" in
  fail) printf '%s\n' "$@" > "{args}"; cat > "{stdin}"; echo "Traceback (most recent call last): boom" >&2; exit 3 ;;
  old) exec "{real}" no-such-command serve ;;
  protocol) echo '{{"protocol": 0, "ok": false, "code": "protocol", "error": "protocol 1 is not spoken here"}}'; exit 2 ;;
  slow) exec sleep {sleep} ;;
esac
"""
FAILURES = [  # (stub mode, what the one notice line says)
    ("fail", "failed (exit 3): Traceback (most recent call last): boom"),
    ("old", "is too old for this extension (no 'extension serve'): upgrade it"),
    ("protocol", "speaks protocol 0, this extension 1"),
    ("slow", "took longer than 8 s"),
    ("missing", "not found on PATH"),
]


@pytest.fixture(scope="module")
def with_failing_pi_compact(tmp_path_factory: pytest.TempPathFactory) -> Run:
    root = tmp_path_factory.mktemp("pi-ext-fail")
    (root / "work").mkdir()
    stub, mode = root / "bin" / "pi-compact-stub", root / "mode"
    stub.parent.mkdir()
    sleep = f"97.{random.randrange(10**6):06d}"  # a duration no other process here sleeps: how we find ours
    stub.write_text(STUB.format(mode=mode, real=Path(sys.executable).parent / "pi-compact", sleep=sleep,
                                args=root / "args.txt", stdin=root / "stdin.json"))
    stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
    env = {"PI_COMPACT_COMMAND": str(stub), "PI_COMPACT_TIMEOUT_MS": "8000"}
    with fake_llm_server(default_text=LLM_SUMMARY) as server:
        agent = agent_dir(root, server.url, context_window=WINDOW, settings=SETTINGS)
        with PiRpc(agent=agent, cwd=root / "work", extensions=[extension_path()], env=env) as pi:
            for n, (failure, _) in enumerate(FAILURES):
                server.push(FakeReply(text=f"Noted {n}. " + words(f"note{n}", 200), usage=(5_000 + n * 100, 30)))
                pi.prompt(f"Part {n}: " + words(f"part{n}", 700))
                mode.write_text(failure)
                if failure == "missing":
                    stub.unlink()
                response = pi.call({"type": "compact", "customInstructions": f"Keep part {n}"}, timeout=60)
                assert response["success"], response
            run = Run(pi.session_file(), list(pi.events), pi.notices())
            run.args, run.stdin = (root / "args.txt").read_text(), json.loads((root / "stdin.json").read_text())
            # pi quits (SIGTERM) while pi-compact is still summarizing: the child goes with it
            stub.write_text(STUB.format(mode=mode, real="", sleep=sleep, args="/dev/null", stdin="/dev/null"))
            stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
            mode.write_text("slow")
            pi.prompt("One more part. " + words("last", 700))
            pi.send({"type": "compact"})
            run.sleeping_before_exit = wait_for_sleepers(sleep, 10)
            pi.process.terminate()
            pi.process.wait(timeout=10)
            time.sleep(0.5)  # a moment for the kill to land (a killed process leaves no command line)
            run.sleeping_after_exit = sleepers(sleep)
            return run


def sleepers(seconds: str) -> list[str]:
    """Our processes running the slow stub's ``sleep SECONDS``."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and (proc / "cmdline").read_bytes() == f"sleep\0{seconds}\0".encode() \
                    and proc.stat().st_uid == os.getuid():
                found.append(proc.name)
        except OSError:
            continue
    return found


def wait_for_sleepers(sleep: str, seconds: float) -> list[str]:
    """The sleepers, waiting up to ``seconds`` for one to appear."""
    end = time.monotonic() + seconds
    while not (found := sleepers(sleep)) and time.monotonic() < end:
        time.sleep(0.1)
    return found


def test_the_key_travels_on_stdin_never_on_the_command_line(with_failing_pi_compact: Run) -> None:
    assert with_failing_pi_compact.args.split() == ["extension", "serve"]
    request = with_failing_pi_compact.stdin
    assert request["type"] == "compact" and request["protocol"] == 1
    assert request["model"]["apiKey"] == API_KEY and request["model"]["contextWindow"] == WINDOW
    assert request["customInstructions"] == "Keep part 0"  # /compact's instructions
    assert request["preparation"]["firstKeptEntryId"] in [e["id"] for e in request["branchEntries"]]


def test_pis_own_compaction_runs_each_time_pi_compact_fails(with_failing_pi_compact: Run) -> None:
    compactions = [e for e in entries(with_failing_pi_compact.file) if e["type"] == "compaction"]
    assert len(compactions) == len(FAILURES)
    for compaction in compactions:
        assert compaction["fromHook"] is False  # pi's own
        assert set(compaction["details"]) == {"readFiles", "modifiedFiles"}
        assert "FAKE-LLM-SUMMARY" in compaction["summary"]


def test_each_failure_is_one_notice_line(with_failing_pi_compact: Run) -> None:
    notices = with_failing_pi_compact.notices
    assert len(notices) == len(FAILURES)
    for notice, (_, says) in zip(notices, FAILURES):
        assert notice.startswith("pi-compact: ") and says in notice and "\n" not in notice
        assert notice.endswith("; pi's own compaction runs instead")


def test_the_session_is_intact_after_the_failures(with_failing_pi_compact: Run) -> None:
    session = Session.open(with_failing_pi_compact.file)
    assert session.problems == []
    ours = orjson.loads(orjson.dumps(session.build_context().to_json()))
    assert pi_context(with_failing_pi_compact.file) == ours


def test_a_slow_pi_compact_is_killed_at_the_timeout_and_when_pi_quits(with_failing_pi_compact: Run) -> None:
    # the slow stub is `exec sleep 97.…`: its process is the extension's child itself
    assert with_failing_pi_compact.sleeping_before_exit != []  # it was running when pi got SIGTERM
    assert with_failing_pi_compact.sleeping_after_exit == []  # and was killed with pi (and the earlier one at the timeout)
