"""A summary item is counted wrong once, however many checks it fails: a finished request also given as the next
step, a declined write both reported as a blocker and listed as modified. One bad line must not outweigh the
good ones beside it, while two distinct wrong items still cost more than one (issue 20)."""

from __future__ import annotations

import pytest

from pi_compact.evaluation.coverage import coverage
from pi_compact.evaluation.quality import RegionIndex, score_quality
from tests.compaction.messages import assistant, call, result, user

DECLINED = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
            "edit, the new_string was NOT written to the file).")


def _declined_region() -> RegionIndex:
    return RegionIndex([
        user("tidy src/client.go, bump the version in version.txt and note it in CHANGELOG.md"),
        assistant(call("d", "Edit", file_path="/w/proj/src/client.go", old_string="a", new_string="b")),
        result("d", "Edit", DECLINED, error=True),
        assistant(call("v", "Edit", file_path="/w/proj/version.txt", old_string="1.4.1", new_string="1.4.2")),
        result("v", "Edit", "The file /w/proj/version.txt has been updated."),
        assistant(call("c", "Edit", file_path="/w/proj/CHANGELOG.md", old_string="## 1.4.1", new_string="## 1.4.2")),
        result("c", "Edit", "The file /w/proj/CHANGELOG.md has been updated."),
        assistant("Bumped version.txt to 1.4.2 and noted it in CHANGELOG.md; the client.go edit was declined."),
    ])


def _answered_region() -> RegionIndex:
    return RegionIndex([
        user("add a --dry-run flag to deploy.sh and document the retry policy of the upload worker in README.md"),
        assistant(call("f", "edit", path="deploy.sh", oldText="a", newText="b")),
        result("f", "edit", "Successfully replaced text in deploy.sh."),
        assistant(call("r", "edit", path="README.md", oldText="a", newText="b")),
        result("r", "edit", "Successfully replaced text in README.md."),
        assistant("Done: `deploy.sh` has a --dry-run flag and README.md documents the upload worker retry policy."),
    ])


CASES = {
    # (region, one bad item failing two checks + the good lines, one bad item failing one check, fewer good lines)
    "declined write as a blocker and a modified file": (
        _declined_region,
        "## Done\n- Bumped `version.txt` to 1.4.2 and noted it in `CHANGELOG.md`\n\n## Blocked\n"
        "- The edit of `src/client.go` failed: the tidy-up is not applied\n\n"
        "<modified-files>\nsrc/client.go\nversion.txt\nCHANGELOG.md\n</modified-files>\n",
        "## Done\n- Bumped `version.txt` to 1.4.2 and noted it in the changelog\n\n"
        "<modified-files>\nsrc/client.go\nversion.txt\n</modified-files>\n",
    ),
    "finished request stale and given as the next step": (
        _answered_region,
        "## Done\n- Added the --dry-run flag to `deploy.sh`\n\n## Next Steps\n"
        "1. Document the retry policy of the upload worker in README.md\n",
        "## Done\n- Added the --dry-run flag to `deploy.sh`\n- Documented the worker retry policy in README.md\n\n"
        "## Progress\n- Checked `deploy.sh\n",
    ),
}


@pytest.mark.parametrize(("region", "one_item", "less"), CASES.values(), ids=list(CASES))
def test_one_bad_item_is_counted_once(region, one_item, less):
    quality = score_quality(region(), one_item)
    assert coverage(one_item, {}, quality).wrong == 1
    assert len(quality.wrong) == 1, quality.wrong
    assert len(quality.wrong[0][1]) >= 2, quality.wrong  # the classes it shows are kept for the report


@pytest.mark.parametrize(("region", "one_item", "less"), CASES.values(), ids=list(CASES))
def test_one_bad_item_does_not_outweigh_the_good_ones_beside_it(region, one_item, less):
    area = region()
    holding, thin = score_quality(area, one_item), score_quality(area, less)
    assert len(thin.faults) == 1 and holding.recall > thin.recall, (thin.faults, holding.recall, thin.recall)
    assert holding.score > thin.score, (holding.faults, thin.faults)


SECOND_WRONG = {
    "declined write as a blocker and a modified file": "\n## Progress\n- Checked `version.txt\n",
    "finished request stale and given as the next step": "2. Add the --dry-run flag to deploy.sh\n",
}


@pytest.mark.parametrize(("region", "one_item", "second"),
                         [(CASES[k][0], CASES[k][1], v) for k, v in SECOND_WRONG.items()], ids=list(SECOND_WRONG))
def test_two_distinct_wrong_items_still_cost_more_than_one(region, one_item, second):
    area = region()
    one, two = score_quality(area, one_item), score_quality(area, one_item + second)
    assert two.score < one.score
    assert coverage(one_item + second, {}, two).wrong == 2
    assert len(two.wrong) == 2, two.wrong
