"""What the requests do: pi's preparation compacted by pi-compact's pipeline with pi's own model (the real
``openai``/``anthropic`` SDKs against the fake server), the offline summary when that model cannot or does not
answer, the user's settings choosing otherwise, branch summaries, and bounded recall."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.branching import BRANCH_SUMMARY_PREAMBLE
from pi_compact.compaction import CompactionSettings, SummaryRequest
from pi_compact.compaction.prompts import SYSTEM_PROMPT
from pi_compact.errors import SummarizerError
from pi_compact.pi_extension import serve_bytes
from pi_compact.pi_extension.handlers import RECALL_MAX_CHARS
from pi_compact.pi_extension.models import Deadline, choose, pi_model
from pi_compact.testing import FakeLLMServer, FakeReply, ScriptedSummarizer
from tests.test_recaller import ERROR, compacted, worked_session

from tests.pi_extension.conftest import compact_request, openai_model, write_settings
from tests.prose import prose

LLM_SUMMARY = ("## Goal\nStart the app (FAKE-LLM-SUMMARY).\n\n## Constraints & Preferences\n- (none)\n\n"
               "## Progress\n### Done\n- [x] tried node server.js\n\n## Key Decisions\n- (none)\n\n"
               "## Next Steps\n1. fix the config path\n\n## Critical Context\n- (none)")
SECRET = "sk-ant-api03-" + "Zq7" * 30 + "AA"


def serve(request: dict) -> dict:
    response, status = serve_bytes(json.dumps(request).encode())
    assert status == 0, response
    return response


def session_with_secret() -> Session:
    session = worked_session()
    session.append_message({"role": "user", "content": f"Use the key {SECRET} for the deploy. " + prose(300),
                            "timestamp": 20})
    session.append_message({"role": "assistant", "content": [{"type": "text", "text": "Deploying. " * 200}],
                            "stopReason": "stop", "timestamp": 21})
    for n in range(3):
        session.append_message({"role": "user", "content": f"Then step {n}. " + prose(300), "timestamp": 22 + n})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": prose(200)}],
                                "stopReason": "stop", "timestamp": 22 + n})
    return session


def test_without_a_model_the_offline_summary_keeps_pis_cut() -> None:
    session = worked_session()
    request = compact_request(session)
    compaction = serve(request)["compaction"]
    assert compaction["firstKeptEntryId"] == request["preparation"]["firstKeptEntryId"]
    assert compaction["tokensBefore"] == request["preparation"]["tokensBefore"]
    details = compaction["details"]
    assert details["strategy"] in ("offline", "prune") and details["summarizer"] in ("offline", "none")
    assert details["generator"].startswith("pi-compact ")
    # the turn prefix of a split turn is summarized too (the cut depends on the token estimate)
    summarized = request["preparation"]["messagesToSummarize"] + request["preparation"]["turnPrefixMessages"]
    assert details["messagesSummarized"] == len(summarized)
    assert compaction["summary"].strip()


def test_pis_model_writes_the_summary_through_the_sdk_with_secrets_redacted(server: FakeLLMServer) -> None:
    server.push(FakeReply(text=LLM_SUMMARY))
    session = session_with_secret()
    request = compact_request(session, model=openai_model(server.url), customInstructions="Focus on the deploy")
    compaction = serve(request)["compaction"]
    assert compaction["details"]["strategy"] == "summarize" and compaction["details"]["summarizer"] == "openai"
    assert "FAKE-LLM-SUMMARY" in compaction["summary"] and "fallbackReason" not in compaction["details"]
    [sent] = server.requests
    assert sent.path == "/v1/chat/completions" and sent.body["model"] == "fake-coder"
    assert sent.headers["authorization"] == "Bearer sk-test-key-123"
    assert sent.body["messages"][0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert "Focus on the deploy" in sent.body["messages"][1]["content"]
    assert SECRET not in sent.raw.decode() and "deploy" in sent.raw.decode()


def test_an_anthropic_model_is_called_with_the_messages_api(server: FakeLLMServer) -> None:
    server.push(FakeReply(text=LLM_SUMMARY))
    model = {"provider": "anthropic", "id": "claude-sonnet-4-6", "api": "anthropic-messages", "baseUrl": server.url,
             "contextWindow": 200_000, "apiKey": "sk-ant-test"}
    compaction = serve(compact_request(session_with_secret(), model=model))["compaction"]
    assert compaction["details"]["summarizer"] == "anthropic"
    [sent] = server.requests
    assert sent.path == "/v1/messages"
    assert "sk-ant-test" in sent.headers.get("x-api-key", "") + sent.headers.get("authorization", "")


def test_the_summarizer_window_folds_the_input_in_chunks(server: FakeLLMServer, agent_folder: Path) -> None:
    write_settings(agent_folder, {"summarizerWindow": 3_000})
    server.push(*[FakeReply(text=LLM_SUMMARY)] * 10)
    compaction = serve(compact_request(session_with_secret(), model=openai_model(server.url)))["compaction"]
    assert compaction["details"]["strategy"] == "summarize"
    assert len(server.requests) > 1
    assert all(len(r.raw) // 4 < 3_000 for r in server.requests)


@pytest.mark.parametrize(("model", "reason"), [
    (None, "pi has no model selected"),
    ({"provider": "google", "id": "gemini-2.5-flash", "api": "google-generative-ai", "apiKey": "k"},
     "speaks google-generative-ai, which pi-compact cannot call"),
    ("no-key", "pi has no API key for fake/fake-coder"),
])
def test_a_model_pi_compact_cannot_use_gives_the_offline_summary_and_says_why(
        server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch, model, reason: str) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    if model == "no-key":
        model = openai_model(server.url, key=None)
    session = session_with_secret()
    compaction = serve(compact_request(session, model=model))["compaction"]
    assert compaction["details"]["strategy"] == "offline"
    assert reason in compaction["details"]["fallbackReason"]
    assert server.requests == []  # the environment's key never goes to pi's base URL


def test_a_failing_model_falls_back_to_the_offline_summary(server: FakeLLMServer) -> None:
    server.push(FakeReply(text="model overloaded", status=400))
    compaction = serve(compact_request(session_with_secret(), model=openai_model(server.url)))["compaction"]
    assert compaction["details"]["strategy"] == "offline"
    assert "openai API error 400: model overloaded" in compaction["details"]["fallbackReason"]
    assert "sk-test-key-123" not in json.dumps(compaction)


def test_the_users_settings_choose_the_summarizer(server: FakeLLMServer, agent_folder: Path) -> None:
    write_settings(agent_folder, {"summarizer": "offline"})
    compaction = serve(compact_request(session_with_secret(), model=openai_model(server.url)))["compaction"]
    assert compaction["details"]["strategy"] == "offline" and "fallbackReason" not in compaction["details"]
    assert server.requests == []


def test_a_projects_settings_cannot_redirect_the_summary(server: FakeLLMServer, tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".pi").mkdir(parents=True)
    (project / ".pi" / "settings.json").write_text(json.dumps({"compaction": {
        "summarizer": "openai", "baseUrl": server.url + "/v1", "model": "exfiltrate"}}))
    server.push(FakeReply(text=LLM_SUMMARY))
    request = compact_request(session_with_secret(), model=openai_model(server.url))
    compaction = serve({**request, "cwd": str(project)})["compaction"]
    assert compaction["details"]["summarizer"] == "openai"
    assert [r.body["model"] for r in server.requests] == ["fake-coder"]  # pi's model, not the project's


def test_a_small_window_shrinks_the_kept_region_to_fit() -> None:
    session = session_with_secret()
    request = compact_request(session, keep_recent=4_000, reserve=500, contextWindow=3_000)
    compaction = serve(request)["compaction"]
    ids = [e["id"] for e in request["branchEntries"]]
    assert compaction["details"]["strategy"] == "truncate"
    assert ids.index(compaction["firstKeptEntryId"]) > ids.index(request["preparation"]["firstKeptEntryId"])
    assert compaction["details"]["tokensAfter"] <= 3_000 - 500


def test_the_file_lists_join_pis_file_operations() -> None:
    request = compact_request(worked_session())
    request["preparation"]["fileOps"] = {"read": ["docs/a.md"], "written": ["out/b.txt"], "edited": ["src/c.py"]}
    details = serve(request)["compaction"]["details"]
    assert "docs/a.md" in details["readFiles"]
    assert {"out/b.txt", "src/c.py"} <= set(details["modifiedFiles"])


# -- branch summaries -------------------------------------------------------------------------------------


def test_a_branch_summary_by_pis_model_starts_with_pis_preamble(server: FakeLLMServer) -> None:
    server.push(FakeReply(text=LLM_SUMMARY))
    entries = worked_session().entries()
    response = serve({"protocol": 1, "type": "branch_summary", "model": openai_model(server.url),
                      "preparation": {"entriesToSummarize": entries, "customInstructions": "Mention the config"}})
    summary = response["summary"]
    assert summary["summary"].startswith(BRANCH_SUMMARY_PREAMBLE) and "FAKE-LLM-SUMMARY" in summary["summary"]
    assert summary["details"]["strategy"] == "summarize" and summary["details"]["messagesAbandoned"] == len(entries)
    assert "Mention the config" in server.requests[0].body["messages"][1]["content"]


def test_a_branch_summary_without_a_model_is_offline() -> None:
    entries = worked_session().entries()
    summary = serve({"protocol": 1, "type": "branch_summary", "preparation": {"entriesToSummarize": entries}})["summary"]
    assert summary["details"]["strategy"] == "offline" and summary["details"]["fallbackReason"] == "pi has no model selected"
    assert summary["summary"].startswith(BRANCH_SUMMARY_PREAMBLE)


def test_a_branch_without_messages_has_no_summary() -> None:
    entries = [{"type": "label", "id": "a1", "parentId": None, "timestamp": "2026-01-01T00:00:00.000Z",
                "targetId": "x", "label": "here"}]
    assert serve({"protocol": 1, "type": "branch_summary", "preparation": {"entriesToSummarize": entries}})["summary"] is None


# -- recall -----------------------------------------------------------------------------------------------


@pytest.fixture
def compacted_file(tmp_path: Path) -> Path:
    path = tmp_path / "s.jsonl"
    compacted(worked_session(path)).close()
    return path


def test_recall_finds_the_exact_error_the_summary_dropped(compacted_file: Path) -> None:
    before = compacted_file.read_bytes()
    response = serve({"protocol": 1, "type": "recall", "sessionFile": str(compacted_file), "query": "ENOENT"})
    assert ERROR in response["text"] and response["totalMatches"] == 1
    [hit] = response["hits"]
    assert hit["kind"] == "toolResult(bash)" and not hit["abandoned"]
    assert compacted_file.read_bytes() == before  # nothing written, not even a lock file's trace


def test_recall_searches_behind_the_given_leaf(compacted_file: Path) -> None:
    session = Session.open(compacted_file)
    first_user = session.branch()[0]["id"]
    session.close()
    response = serve({"protocol": 1, "type": "recall", "sessionFile": str(compacted_file), "query": "ENOENT",
                      "leafId": first_user})
    assert response["totalMatches"] == 0  # nothing is compacted away on the path to the first message


def test_recall_output_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    session = Session.create_at(path, "/srv/app")
    for n in range(60):
        session.append_message({"role": "user", "content": f"needle {n} " + prose(400), "timestamp": n})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": "needle seen " * 100}],
                                "stopReason": "stop", "timestamp": n})
    compacted(session).close()
    before = path.read_bytes()
    response = serve({"protocol": 1, "type": "recall", "sessionFile": str(path), "query": "needle", "limit": 500})
    assert len(response["text"]) <= RECALL_MAX_CHARS and len(response["hits"]) == 50
    assert response["totalMatches"] > 50
    assert path.read_bytes() == before


# -- deadlines, iterative and split-turn compactions --------------------------------------------------------


def test_a_slow_model_gives_the_offline_summary_within_the_deadline(server: FakeLLMServer) -> None:
    server.push(*[FakeReply(text=LLM_SUMMARY, delay=5)] * 3)  # the SDK retries twice
    request = compact_request(session_with_secret(), model=openai_model(server.url), deadlineSeconds=4)
    compaction = serve(request)["compaction"]
    assert compaction["details"]["strategy"] == "offline"
    assert "openai request timed out after 0.5s" in compaction["details"]["fallbackReason"]


def test_no_summarizer_request_starts_after_the_deadline_share() -> None:
    summarizer = Deadline(ScriptedSummarizer([LLM_SUMMARY] * 3, name="openai"), 0.0)
    with pytest.raises(SummarizerError, match="out of time: 0 s deadline"):
        summarizer.summarize(SummaryRequest("", "", 100))
    assert summarizer.inner.calls == []
    assert Deadline(ScriptedSummarizer([LLM_SUMMARY]), 60).summarize(SummaryRequest("", "", 100)).text == LLM_SUMMARY


def test_each_request_gets_a_share_of_the_deadline(server: FakeLLMServer) -> None:
    model = pi_model({"model": openai_model(server.url)})
    choice = choose(model, CompactionSettings(), deadline=80)
    assert isinstance(choice.summarizer, Deadline) and choice.summarizer.inner.timeout == 10


def test_a_second_compaction_updates_the_previous_summary(server: FakeLLMServer) -> None:
    session = session_with_secret()
    first = serve(compact_request(session))["compaction"]
    session.append_compaction(first["summary"], first["firstKeptEntryId"], first["tokensBefore"], first["details"])
    for n in range(4):
        session.append_message({"role": "user", "content": f"Later {n}. " + prose(300), "timestamp": 40 + n})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": prose(200)}],
                                "stopReason": "stop", "timestamp": 40 + n})
    server.push(FakeReply(text=LLM_SUMMARY))
    request = compact_request(session, model=openai_model(server.url))
    assert request["preparation"]["previousSummary"] == first["summary"]
    compaction = serve(request)["compaction"]
    assert compaction["details"]["strategy"] == "summarize"
    prompt = server.requests[0].body["messages"][1]["content"]
    assert "<previous-summary>" in prompt and "Later 0." in prompt


def test_a_split_turn_summarizes_the_turns_prefix_too(server: FakeLLMServer) -> None:
    session = Session.in_memory("/srv/app")
    session.append_message({"role": "user", "content": "Refactor the parser. " + prose(300), "timestamp": 1})
    for n in range(8):  # one long turn of tool calls
        session.append_message({"role": "assistant", "stopReason": "toolUse", "timestamp": 2 + n, "content": [
            {"type": "toolCall", "id": f"c{n}", "name": "read", "arguments": {"path": f"src/part{n}.py"}}]})
        session.append_message({"role": "toolResult", "toolCallId": f"c{n}", "toolName": "read", "isError": False,
                                "content": [{"type": "text", "text": f"def part{n}():\n" + "    pass\n" * 300}],
                                "timestamp": 2 + n})
    request = compact_request(session, keep_recent=2_000)
    assert request["preparation"]["isSplitTurn"] and request["preparation"]["turnPrefixMessages"]
    prefix_turns = "Turn Context (split turn)"
    server.push(FakeReply(text="## Original Request\nRefactor.\n\n## Early Progress\n- read\n\n"
                                 "## Context for Suffix\n- parts"))
    # instructions: a condensed transcript (no LLM) cannot follow them, so the model is asked
    compaction = serve({**request, "model": openai_model(server.url), "customInstructions": "Name the parts"})["compaction"]
    assert compaction["firstKeptEntryId"] == request["preparation"]["firstKeptEntryId"]
    assert "src/part0.py" in compaction["details"]["readFiles"]
    assert prefix_turns in compaction["summary"] and "## Early Progress" in compaction["summary"]
    [sent] = server.requests  # nothing before the turn: only its prefix is summarized
    assert "src/part0.py" in sent.body["messages"][1]["content"]


def test_a_system_prompt_that_leaves_no_room_is_a_failed_request() -> None:
    request = compact_request(worked_session(), contextWindow=4_000, fixedTokens=3_500)
    response, status = serve_bytes(json.dumps(request).encode())
    assert status == 2 and response["code"] == "failed" and "leaves no room" in response["error"]


@pytest.mark.parametrize(("generator", "carried"), [("pi-compact 0.1.0", True), ("another-extension 2.0", False)])
def test_the_file_lists_of_our_earlier_summaries_carry_over(generator: str, carried: bool) -> None:
    # pi marks what an extension returns fromHook and carries no file lists from such entries: ours it may trust
    session = worked_session()
    first = serve(compact_request(session))["compaction"]
    details = {**first["details"], "generator": generator, "readFiles": ["docs/earlier.md"],
               "modifiedFiles": ["src/earlier.py"]}
    session.append_compaction(first["summary"], first["firstKeptEntryId"], first["tokensBefore"], details, True)
    for n in range(4):
        session.append_message({"role": "user", "content": f"Later {n}. " + prose(300), "timestamp": 40 + n})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": prose(200)}],
                                "stopReason": "stop", "timestamp": 40 + n})
    compaction = serve(compact_request(session))["compaction"]
    assert ("docs/earlier.md" in compaction["details"]["readFiles"]) is carried
    assert ("src/earlier.py" in compaction["details"]["modifiedFiles"]) is carried
    assert ("src/earlier.py" in compaction["summary"]) is carried
