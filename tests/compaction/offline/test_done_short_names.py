"""A Done item that names the files a turn changed ("changed `…` and 2 more (asked: …)") names each by its shortest
ending that tells it from the turn's other files, as the summary's list of changed files does (:mod:`.short_paths`):
the folders of a deep project took the room of what was done. Two files of one name keep the folder that tells them
apart; the list of changed files still says where each one is."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_offline import changed_files, items, summarize

_DEEP = ["apps/demo/src/components/interactive/KeyfileDialog.tsx", "apps/demo/src/services/keyfile.ts",
         "apps/demo/src/services/index.ts", "apps/demo/src/atoms/index.ts", "apps/demo/src/atoms/session.ts",
         "apps/demo/src/atoms/vault.ts"]


def _pi(paths: list[str]) -> list[dict]:
    """pi's ``edit`` calls, one per path."""
    found = []
    for number, path in enumerate(paths):
        found += [assistant(call(f"e{number}", "edit", path=path, oldText="a", newText="b")),
                  result(f"e{number}", "edit", f"Successfully replaced text in {path}.")]
    return found


def _claude(paths: list[str]) -> list[dict]:
    """Claude Code's ``Edit`` calls (``file_path``, ``old_string``), one per path."""
    found = []
    for number, path in enumerate(paths):
        found += [assistant(call(f"t{number}", "Edit", file_path=path, old_string="a", new_string="b")),
                  result(f"t{number}", "Edit", f"The file {path} has been updated.")]
    return found


def _done(edits: list[dict]) -> list[str]:
    text = summarize([user("wire the keyfile dialog into the vault flow"), *edits, assistant("Done!")])
    return [line for line in items(text, "### Done") if line.startswith("changed `")]


@pytest.mark.parametrize("edits", [_pi, _claude], ids=["pi", "claude code"])
def test_a_turns_files_are_named_by_their_short_names(edits) -> None:
    done = _done(edits(_DEEP))
    assert done, done
    line = done[0]
    assert line.startswith("changed `KeyfileDialog.tsx`, `keyfile.ts`, `services/index.ts`, `atoms/index.ts` and 2 more"), line
    assert "apps/demo/src" not in line, line


def test_the_list_of_changed_files_still_tells_them_apart() -> None:
    text = summarize([user("wire the keyfile dialog into the vault flow"), *_pi(_DEEP), assistant("Done!")])
    assert {"services/index.ts", "atoms/index.ts"} <= set(changed_files(text)), text


def test_a_single_file_in_a_folder_is_named_by_its_name() -> None:
    done = _done(_pi(["cmd/strategy/hooks.go"]))
    assert done and done[0].startswith("changed `hooks.go`"), done
