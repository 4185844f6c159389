"""The summary's fixed room holds more distinct things: what it repeats is said once, in fewer words (issue 20).

Every new line of the main sections pushes detail lines out of the room (the summary's length is fixed), so the
repeats are what goes: a changed file's directories, which pi's ``<modified-files>`` list at the summary's end names
whole."""

from __future__ import annotations

import re

from pi_compact.compaction.offline.details import MET_LABEL, RAN_LABEL, in_project
from pi_compact.compaction.offline.short_paths import same_file, short_names
from pi_compact.compaction.offline.summary import _file_actions, _files_item, _merge_done

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import section

CWD = "/home/dev/shop"
DEEP = ["apps/web/src/services/pricing/rounding.ts", "apps/web/src/services/pricing/index.ts",
        "apps/web/src/components/cart/index.ts", "apps/web/src/components/cart/CartTotal.tsx", "README.md"]


def _edits(paths: list[str]) -> list[dict]:
    messages = [user("Round the cart's prices to whole cents everywhere and show the total with its tax.")]
    for number, path in enumerate(paths):
        messages += [assistant(call(f"e{number}", "edit", path=f"{CWD}/{path}", oldText=f"old_{number}",
                                    newText=f"new_{number}")),
                     result(f"e{number}", "edit", f"Successfully replaced text in {CWD}/{path}.")]
    return messages + [assistant("Prices are rounded to whole cents and the cart shows the total with tax.")]


def test_a_changed_file_is_named_by_the_shortest_ending_no_other_shares() -> None:
    names = short_names(DEEP)
    assert names["apps/web/src/services/pricing/rounding.ts"] == "rounding.ts"
    assert names["apps/web/src/components/cart/CartTotal.tsx"] == "CartTotal.tsx"
    assert names["apps/web/src/services/pricing/index.ts"] == "pricing/index.ts"  # two files are index.ts
    assert names["apps/web/src/components/cart/index.ts"] == "cart/index.ts"
    assert names["README.md"] == "README.md"
    assert short_names(["index.ts", "lib/index.ts"]) == {"index.ts": "index.ts", "lib/index.ts": "lib/index.ts"}


def test_the_done_list_of_changed_files_leaves_the_directories_to_the_list_at_the_end() -> None:
    text = summarize(_edits(DEEP), metadata={"cwd": CWD})
    done = "\n".join(section(text, "### Done"))
    done = done[done.index("Files changed (by last action):"):]
    assert "`rounding.ts`" in done and "`pricing/index.ts`" in done and "`cart/index.ts`" in done
    assert "apps/web/src" not in done  # each file once by its name; the <modified-files> list says where
    # the details do not list them again as files the Done list left out
    assert "Also changed" not in text


def test_a_file_an_earlier_summary_named_short_is_one_file_with_its_whole_path_now() -> None:
    earlier = _files_item({"apps/web/src/services/pricing/rounding.ts": "written", "README.md": "edited"})
    assert "`rounding.ts`" in earlier
    now = _files_item({"apps/web/src/services/pricing/rounding.ts": "edited"})
    merged = _merge_done([earlier], [now])
    actions = _file_actions(merged)
    assert list(actions.values()).count("edited") == 2 and len(actions) == 2  # rounding.ts once, its latest action
    assert re.search(r"edited: .*`rounding\.ts`", merged[-1])
    assert same_file("rounding.ts", "apps/web/src/services/pricing/rounding.ts")
    assert not same_file("ounding.ts", "apps/web/src/services/pricing/rounding.ts")


# -- details in fewer words: commands as typed in the project, a harness's error without its guidance ----------

def _run(call_id: str, command: str, output: str, failed: bool) -> list[dict]:
    return [assistant(call(call_id, "bash", command=command)),
            result(call_id, "bash", bash_fail(output, 2) if failed else output, error=failed)]


def _detail_line(text: str, label: str) -> str:
    return text.split(label, 1)[1].split("\n- ", 1)[0]


def test_a_command_names_the_projects_files_relative_to_it_and_without_its_redirections() -> None:
    messages = [user("Tidy the pricing module: remove the stale snapshot and format the code.")]
    messages += _run("a", f"rm {CWD}/apps/web/src/services/pricing/__snapshots__/rounding.test.ts.snap", "", False)
    messages += _run("b", "npm run format 2>&1", "formatted 12 files", False)
    messages += _run("c", "ls /opt/other/apps/web/src", "a b", False)
    messages += [assistant("The stale snapshot is gone and the code is formatted.")]
    ran = _detail_line(summarize(messages, metadata={"cwd": CWD}), RAN_LABEL)
    assert "`rm apps/web/src/services/pricing/__snapshots__/rounding.test.ts.snap`" in ran  # not cut off at 100
    assert "`npm run format`" in ran and "2>&1" not in ran
    assert in_project(f"cat /x{CWD}/a.ts {CWD}/b.ts", CWD) == f"cat /x{CWD}/a.ts b.ts"  # only a path that starts
    assert in_project(f"ls {CWD}/a", CWD, directory="/tmp") == f"ls {CWD}/a"  # ran after a cd elsewhere


def test_a_failure_met_says_what_failed_not_the_harnesss_advice_and_its_retry_as_it() -> None:
    messages = [user("Give the cart total a tax line.")]
    path = f"{CWD}/apps/web/src/components/cart/CartTotal.tsx"
    messages += [assistant(call("r", "edit", path=path, oldText="a", newText="b")),
                 result("r", "edit", "<tool_use_error>File has not been read yet. Read it first before writing to "
                                     "it.</tool_use_error>", error=True),
                 assistant(call("r2", "read", path=path)), result("r2", "read", "export const CartTotal = 1"),
                 assistant(call("e", "edit", path=path, oldText="1", newText="2")), result("e", "edit", "Edited.")]
    messages += _run("g", "git push origin tax-line", "error: failed to push some refs (fetch first)", True)
    messages += _run("f", "git pull --rebase origin tax-line", "Successfully rebased", False)
    messages += _run("g2", "git push origin tax-line", "done", False)
    messages += _run("t", "npm run typecheck", "error TS2304: Cannot find name 'taxRate'.", True)
    messages += _run("t2", "npm run typecheck", "ok", False)
    messages += [assistant("The cart total shows its tax line.")]
    met = _detail_line(summarize(messages, metadata={"cwd": CWD}), MET_LABEL)
    assert "File has not been read yet." in met
    assert "<tool_use_error>" not in met and "Read it first" not in met  # words to the agent that met it
    assert "then edited it" in met  # the file the line names already
    assert "`npm run typecheck`: error TS2304: Cannot find name 'taxRate'.; then ran it again" in met
    assert "then ran `git pull --rebase origin tax-line`" in met  # another command is named
