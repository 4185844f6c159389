"""Files the region deleted or moved away (issue 20, class 6): listed as read or modified they send the next agent
to a path that is not there (a fault); stated as moved or deleted in Progress they are what the ``mv``/``rm``
shows (supported)."""

from __future__ import annotations

import pytest

from pi_compact.evaluation.faults import find_faults
from pi_compact.evaluation.quality import RegionIndex, score_quality
from tests.compaction.messages import assistant, call, result, user

CWD = "/w/shop"


def _region(*commands: str, then: tuple[dict, ...] = ()) -> list[dict]:
    messages = [user("tidy the billing package"),
                assistant(call("r0", "Read", file_path=f"{CWD}/billing/invoice.py")), result("r0", "Read", "x = 1")]
    for number, command in enumerate(commands):
        messages += [assistant(call(f"c{number}", "bash", command=command)), result(f"c{number}", "bash", "")]
    return messages + list(then)


def _listed(kind: str, *paths: str) -> str:
    return f"## Goal\ntidy the billing package\n\n<{kind}>\n" + "\n".join(paths) + f"\n</{kind}>\n"


def _gone_faults(messages: list[dict], summary: str) -> list[str]:
    return [f for f in find_faults(RegionIndex(messages).said, summary) if " file in <" in f]


@pytest.mark.parametrize("kind", ["read-files", "modified-files"])
@pytest.mark.parametrize(("command", "listed"), [
    ("rm billing/invoice.py", "billing/invoice.py"),
    ("git rm -q billing/invoice.py", "billing/invoice.py"),
    ("git mv billing/invoice.py billing/invoices.py", "billing/invoice.py"),
    (f"mv {CWD}/src/billing {CWD}/src/payments", "src/billing/invoice.py"),  # inside a folder moved away
    ("cd billing && rm -rf ./legacy", "legacy/old.py"),
])
def test_a_path_deleted_or_moved_away_in_a_file_list_is_a_fault(kind, command, listed):
    assert _gone_faults(_region(command), _listed(kind, listed))


@pytest.mark.parametrize(("commands", "then", "listed"), [
    (("git mv billing/invoice.py billing/invoices.py",), (), "billing/invoices.py"),  # the destination is there
    (("rm billing/invoice.py", "git checkout billing/invoice.py"), (), "billing/invoice.py"),  # restored
    (("mv billing/invoice.py /tmp/i.py", "mv /tmp/i.py billing/invoice.py"), (), "billing/invoice.py"),  # moved back
    (("rm billing/invoice.py",), (assistant(call("w", "Write", file_path=f"{CWD}/billing/invoice.py", content="y")),
                                  result("w", "Write", "File written")), "billing/invoice.py"),  # written again
    (("rm ./entire",), (), "cmd/entire/main.go"),  # a built binary of the same name as a folder of the project
    (("rm -rf /tmp/scratch/billing",), (), "billing/invoice.py"),  # another folder of the same name
])
def test_a_path_that_is_there_again_or_another_one_is_no_fault(commands, then, listed):
    assert not _gone_faults(_region(*commands, then=then), _listed("modified-files", listed))


@pytest.mark.parametrize(("command", "line"), [
    ("git mv billing/invoice.py billing/invoices.py", "moved: `billing/invoice.py`"),
    ("git mv billing/invoice.py billing/invoices.py", "renamed `billing/invoice.py`"),
    ("rm billing/invoice.py", "deleted: `billing/invoice.py`"),
    ("git rm billing/invoice.py", "removed `billing/invoice.py`"),
])
def test_a_move_or_deletion_the_region_shows_is_supported(command, line):
    summary = f"## Progress\n### Done\n- [x] {line}\n"
    assert score_quality(_region(command), summary).unsupported == ()
    # the same claim of a file the region only read is not shown by anything
    other = "git mv billing/tax.py billing/taxes.py" if "mv" in command else "rm billing/tax.py"
    assert score_quality(_region(other), summary).unsupported == (line,)
