"""A settled failure is said once (details.py): the "Resolved along the way" list drops a command the settled
failures quote already, however differently each cut it short; a whole command that only begins a longer quoted
one is another command and stays."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.details import MET_LABEL, _unsaid

LABEL = "Resolved along the way:"
MET = (f"{MET_LABEL}\n  > `make deploy STAGE=qa && ./scripts/smoke.sh --region eu…`: smoke test timed out; then ran"
       " `./scripts/smoke.sh --region eu --retries 3`")


@pytest.mark.parametrize("resolved", [
    "`make deploy STAGE=qa && ./scripts/smoke.sh --region eu --retries 0 --verbose…`",  # cut later
    "`make deploy STAGE=qa && ./scripts/smoke…`",  # cut sooner
    "`make deploy STAGE=qa && ./scripts/smoke.sh --region eu…`",  # cut alike
])
def test_a_command_the_settled_failures_quote_leaves_the_resolved_list(resolved: str) -> None:
    critical = ["Earlier request: ship it", f"{LABEL} {resolved}", MET]
    _unsaid(critical, LABEL, MET)
    assert critical == ["Earlier request: ship it", MET]


@pytest.mark.parametrize("other", ["`make deploy`", "`./scripts/lint.sh…`", "`make deploy STAGE=prod…`"])
def test_another_command_stays_beside_one_said_already(other: str) -> None:
    critical = [f"{LABEL} `make deploy STAGE=qa && ./scripts/smoke…`, {other}", MET]
    _unsaid(critical, LABEL, MET)
    assert critical == [f"{LABEL} {other}", MET]
