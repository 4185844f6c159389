"""A key path is no file, wherever the shell stood (issue 20, class 6): ``.metadata.entity_name`` given to ``jq``
after ``--arg name value``, or in a shell a ``cd`` moved (``web/.metadata.entity_name``), is kept off the lists."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.paths import is_file_name
from pi_compact.compaction.offline.shell import shell_effects

from ..messages import assistant, call, result, user
from .test_missing_files import _lists


@given(st.sampled_from(["web/.metadata.entity_name", "/srv/app/.spec.replica_count", ".data.items_total"]))
def test_a_key_path_under_a_directory_is_no_file_name(path: str) -> None:
    assert not is_file_name(path)


@given(st.sampled_from(["web/.eslintrc.json", "config/.env.local", ".github/workflows/ci.yml", "src/app.test.ts"]))
def test_dotted_files_under_a_directory_are_file_names(path: str) -> None:
    assert is_file_name(path)


def test_jq_arguments_are_no_files() -> None:
    assert shell_effects("jq --arg id 42 --argjson n 3 '.items[] | .id' data.json").reads == ["data.json"]


def test_a_filter_read_in_a_moved_shell_is_not_listed() -> None:
    messages = [user("What is the entity name?"),
                assistant(call("m", "Bash", command="cd web")), result("m", "Bash", ""),
                assistant(call("j", "Bash", command="jq --arg k v .metadata.entity_name data.json")),
                result("j", "Bash", '"orders"')]
    assert _lists(messages) == (["web/data.json"], [])
