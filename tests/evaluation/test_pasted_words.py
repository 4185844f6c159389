"""What a user message pastes (a log, an error dump, a document, a file, a tool's output, a harness's envelope) is
not the user's words: a summary that gives pasted material as the user's goal or request quotes no request, one
that leaves it out misses none, and a rule or a goal found inside a paste is not the user's (issue 20)."""

from __future__ import annotations

import pytest

from pi_compact.evaluation.faults import find_faults
from pi_compact.evaluation.quality import RegionIndex, score_quality
from pi_compact.evaluation.userwords import harness_document, own_words
from tests.compaction.messages import assistant, call, result, user

REQUESTS = (
    # (the user's own request, a summary's line that holds it)
    ("Please make `retry_upload` in uploader.py back off exponentially.",
     "Make `retry_upload` in `uploader.py` back off exponentially"),
    ("Bitte `retry_upload` in uploader.py exponentiell zurückweichen lassen.",
     "`retry_upload` in `uploader.py` exponentiell zurückweichen lassen"),
    ("把 uploader.py 里的 `retry_upload` 改成指数退避。", "`uploader.py` 的 `retry_upload` 改成指数退避"),
)

PASTES = {
    "fenced traceback": "```\nTraceback (most recent call last):\n  File \"svc/queue_runner.py\", line 88, in lease\n"
                        "    renew_lease(job_4411)\n  File \"svc/lease_store.py\", line 12, in renew_lease\n"
                        "LeaseExpiredError: lease_token_9f3c expired\n```",
    "log lines": "2024-05-01 10:00:01 ERROR svc/queue_runner.py:88 lease_token_9f3c expired job_4411\n"
                 "2024-05-01 10:00:02 WARN svc/lease_store.py:12 renew_lease retry=3\n"
                 "2024-05-01 10:00:03 INFO svc/worker_pool.py:40 drained",
    "shell output": "$ make lease_check\npython -m svc.lease_store --job job_4411\nlease_token_9f3c expired\n"
                    "make: *** [lease_check] Error 1",
    "java frames": "LeaseExpiredError: lease_token_9f3c expired\n    at svc.QueueRunner.lease(QueueRunner.java:88)\n"
                   "    at svc.LeaseStore.renewLease(LeaseStore.java:12)\n    at svc.WorkerPool.run(WorkerPool.java:40)",
    "envelope": "<local-command-stdout>\nsvc/queue_runner.py lease_token_9f3c job_4411\nsvc/lease_store.py renew_lease\n"
                "</local-command-stdout>",
    "quoted block": "> svc/queue_runner.py: lease_token_9f3c expired for job_4411\n> svc/lease_store.py: renew_lease "
                    "gave up\n> svc/worker_pool.py: drained",
    "diff": "diff --git a/svc/lease_store.py b/svc/lease_store.py\n@@ -10,3 +10,3 @@\n-    renew_lease(job_4411)\n"
            "+    renew_lease(lease_token_9f3c)",
    "table": "| job | token | state |\n|---|---|---|\n| job_4411 | lease_token_9f3c | expired |\n"
             "| job_4412 | lease_token_77aa | renew_lease |",
    "file without fences": "def renew_lease(job_4411)\n    token = lease_token_9f3c\n    store = svc/lease_store.py\n"
                           "    return queue_runner(token)",
}
"""Each paste names paths and identifiers (``lease_token_9f3c``, ``svc/lease_store.py``) the request does not."""

PASTED_LINE = "Fix `lease_token_9f3c` expiring for `job_4411` in `svc/lease_store.py` and `renew_lease`"


def _region(request: str, paste: str, *, paste_first: bool) -> list[dict]:
    said = f"{paste}\n\n{request}" if paste_first else f"{request}\n\n{paste}"
    return [user(said), assistant("Looking at the uploader now.")]


@pytest.mark.parametrize("paste", PASTES.values(), ids=list(PASTES))
@pytest.mark.parametrize(("request_", "holds"), REQUESTS)
@pytest.mark.parametrize("paste_first", [True, False])
def test_a_summary_of_the_users_request_outranks_one_of_the_paste(request_, holds, paste, paste_first):
    region = RegionIndex(_region(request_, paste, paste_first=paste_first))
    of_request = score_quality(region, f"## Goal\n{holds}\n")
    of_paste = score_quality(region, f"## Goal\n{PASTED_LINE}\n")
    assert of_request.score > of_paste.score, (of_request.missing, of_paste.missing)
    assert of_request.recall == 1.0, of_request.missing  # leaving the paste out misses none of the user's words


@pytest.mark.parametrize("paste", PASTES.values(), ids=list(PASTES))
def test_pasted_material_is_no_words_of_the_user(paste):
    assert own_words(f"{paste}\n\nwhy does it expire?") == "why does it expire?"
    assert own_words(paste) == ""


@pytest.mark.parametrize("said", [
    "fix the login bug please",
    "Here is what I want:\n- fix the login bug\n- add tests\n- update the readme\n- cut a release",
    "修复登录错误\n不要修改测试",
    "The parser fails on empty lines. Make it skip them, and keep the old error message.",
    "Implement this plan, but keep the old API.\n\n# Plan\n## Step 1\nparse\n## Step 2\nrender",
])
def test_the_users_own_sentences_stay(said):
    assert own_words(said) == said.split("\n\n# Plan")[0]


@pytest.mark.parametrize("said", ["Implement the following plan:", "Base directory for this skill: /skills/x", ""])
def test_a_lead_in_to_a_document_is_no_request(said):
    assert own_words(f"{said}\n\n# Plan\n## Step 1\nparse the input\n## Step 2\nrender it\n") == ""


# -- a goal or a rule inside a paste is not the user's -----------------------------------------------------------


GOAL_PASTES = (
    "```\n# ROADMAP.md\nOur main focus is the billing dashboard redesign.\n```",
    "> From the design doc: the goal is the billing dashboard redesign.\n> Owners: payments team.",
    "<system-reminder>\nThe current goal is the billing dashboard redesign.\n</system-reminder>",
)


@pytest.mark.parametrize("paste", GOAL_PASTES)
def test_a_goal_stated_inside_a_paste_is_not_the_users_goal(paste):
    said = RegionIndex([
        user("The goal now is to migrate the export worker to the new queue."),
        assistant("Starting on the export worker."),
        user(f"FYI, from the repo:\n{paste}\nKeep going with the export worker."),
        assistant("Continuing with the export worker migration."),
    ]).said
    users = "## Goal\nMigrate the export worker to the new queue\n"
    pasted = "## Goal\nThe billing dashboard redesign\n"
    assert not [f for f in find_faults(said, users) if "stale goal" in f]
    assert [f for f in find_faults(said, pasted) if "stale goal" in f]


RULE_PASTES = (
    ("```\nAll exported metrics go through the registry module\n```", "All exported metrics go through the registry module"),
    ("> All exported metrics go through the registry module.", "All exported metrics go through the registry module."),
)


@pytest.mark.parametrize(("paste", "rule"), RULE_PASTES)
def test_a_rule_found_in_a_paste_is_no_finished_request(paste, rule):
    said = RegionIndex([
        user(f"This is from CONTRIBUTING:\n{paste}\nupdate the exporter accordingly"),
        assistant("Done: the exporter now registers its metrics through the registry module."),
        user("thanks, now run the tests"), assistant("Running them."),
    ]).said
    assert not [f for f in find_faults(said, f"## Constraints & Preferences\n- {rule}\n") if "kept as a rule" in f]


@pytest.mark.parametrize("paste", [PASTES["log lines"], PASTES["fenced traceback"], PASTES["table"]])
def test_an_answered_request_with_a_paste_given_as_the_next_step_is_a_fault(paste):
    region = RegionIndex([
        user(f"{paste}\n\nDocument the retry policy of the upload worker in the README."),
        assistant(call("e", "edit", path="README.md", oldText="a", newText="b")),
        result("e", "edit", "Successfully replaced text in README.md."),
        assistant("The README now documents the upload worker's retry policy."),
    ])
    stale = "## Next Steps\n1. Document the upload worker retry policy in the README\n"
    waiting = "## Done\n- Documented the upload worker retry policy in `README.md`\n\n## Next Steps\n1. Wait for the user's next request\n"
    assert [f for f in find_faults(region.said, stale) if "answered request" in f]
    assert score_quality(region, waiting).score > score_quality(region, stale).score


# -- bounds -----------------------------------------------------------------------------------------------------


def _message(n: int) -> str:
    """``n`` of every kind of line the reading tells apart, unclosed fences and envelopes among them."""
    kinds = ("plain words of the user", "$ make", "  at a.b(C.java:1)", "2024-01-01 10:00:00 INFO x", "| a | b |",
             "<system-reminder>", "```", "# Heading", "x" + " " * 40 + "y", "- item", "> quoted", "")
    return "\n".join(kinds[i % len(kinds)] + str(i) for i in range(n))


def test_own_words_grows_linearly_with_the_message():
    from tests.growth import growth

    texts = {size: _message(size) for size in (2000, 4000, 8000)}
    found = growth("own_words", lambda size: (lambda: own_words(texts[size])), 2000, runs=3)
    assert found.linear, str(found)


SKILL = "# Release skill\n\nUse this skill to cut a release.\n\n## Steps\n1. bump\n2. tag\n3. push\n4. announce\n"


@pytest.mark.parametrize(("before", "text", "harness"), [
    (result("s", "Skill", "Launching skill: release"), SKILL, True),
    (user("<command-name>/release</command-name>"), SKILL, True),
    (result("s", "Skill", "Launching skill: release"), "stop, use the staging tag instead", False),
    (assistant("Which tag?"), SKILL, False),  # the user answering with a document wrote it
])
def test_a_document_the_harness_puts_in_the_users_place_is_not_theirs(before, text, harness):
    assert harness_document(before, user(text)) is harness
