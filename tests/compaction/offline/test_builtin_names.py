"""A name a change brought in is one it defines (``def``/``defp``/``defmodule``, ``function``, ``class``, ``func``,
``fn``, a method, a top-level constant) or one of the project's own that it calls, never a call to the language or
its standard library (issue 20, names): Elixir's ``is_integer``/``Enum.map``, Python's ``isinstance``/``len``, JS's
``parseInt``/``JSON.stringify``, Go's ``make``/``append``, Rust's ``assert_eq!``/``unwrap``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.definitions import defined_names, new_names

from ..messages import assistant, call, result, user
from .test_change_names import _names
from .test_classes import summarize

CASES = [
    ("lib/app/accounts.ex", '''defmodule App.Accounts do
  def fetch_user(id) when is_integer(id) do
    ids |> Enum.map(&to_string/1) |> Enum.filter(&is_binary/1)
  end

  defp check_name(name) when is_binary(name) and byte_size(name) > 0, do: {:ok, name}
end
''', {"fetch_user", "check_name"}, {"is_integer", "is_binary", "to_string", "byte_size", "Enum.map", "map"}),
    ("svc/users.py", '''def load_users(rows):
    if not isinstance(rows, list) or len(rows) == 0:
        return sorted(set(rows))
    return [str(r) for r in rows]
''', {"load_users"}, {"isinstance", "len", "sorted"}),
    ("src/api.js", '''export function loadUser(raw) {
  const count = parseInt(raw, 10);
  setTimeout(() => console.log(JSON.stringify({ count })), 10);
  return encodeURIComponent(String(count));
}
''', {"loadUser"}, {"parseInt", "setTimeout", "stringify", "encodeURIComponent", "JSON.stringify"}),
    ("store/store.go", '''func (s *Store) SaveAll(items []Item) error {
	buf := make([]byte, 0, len(items))
	for _, it := range items {
		buf = append(buf, it.Bytes()...)
	}
	return nil
}
''', {"SaveAll"}, {"make", "append", "len"}),
    ("src/totals.rs", '''pub fn parse_total(text: &str) -> u32 {
    let total: u32 = text.trim().parse().unwrap();
    assert_eq!(total % 1, 0);
    debug_assert!(total < 1_000_000);
    total
}
''', {"parse_total"}, {"assert_eq", "debug_assert", "unwrap", "parse", "trim"}),
]


@pytest.mark.parametrize("path, text, defined, builtin", CASES, ids=[c[0] for c in CASES])
def test_an_edit_names_what_it_defines_never_the_languages_own(path: str, text: str, defined: set,
                                                               builtin: set) -> None:
    messages = [user("Add the loader."),
                assistant(call("e", "edit", path=path, oldText="// loader here\n", newText=text)),
                result("e", "edit", "ok"), assistant("Added.")]
    named = set(_names(summarize(messages)).get(path.rsplit("/", 1)[-1], []))  # its short name (short_paths)
    assert defined <= named, named
    assert not named & builtin, named


@given(st.sampled_from(["    12→def compute_total(items):\n", "src/totals.py:12:def compute_total(items):\n",
                        "export function compute_total(items) {\n"]))
def test_a_call_of_the_projects_own_function_is_named(shown: str) -> None:
    """The region showed ``compute_total`` defined (a file read with its lines numbered, grep's output, a write):
    a change that starts calling it brings it into the file."""
    known = defined_names([shown])
    assert "compute_total" in known
    assert new_names("    total = compute_total(rows)\n", "    total = 0\n", "svc/report.py", known) == \
        ["compute_total"]
    assert new_names("    total = compute_total(rows)\n", "    total = 0\n", "svc/report.py") == []


def test_a_module_constant_shown_at_the_top_of_a_file_is_the_projects() -> None:
    known = defined_names(['DOMAIN_KEYWORDS = {\n    "security": ["auth"],\n}\n',
                           "var (\n\tErrNotFound = errors.New(\"not found\")\n)\n",
                           "func run() {\n\trepoRoot := paths.Root()\n}\n"])
    assert {"DOMAIN_KEYWORDS", "ErrNotFound"} <= known
    assert "repoRoot" not in known  # a function's local is no name of the project
