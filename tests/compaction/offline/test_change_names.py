"""The names a change brought in are the names of its code (issue 20, class 6): the component, function, type or
constant it defines and the names its code stands on, never markup or data: a JSX/HTML attribute or prop
(``className``, ``onClick``, ``aria-label``, ``key``, ``href``), a keyword argument, a member of something else, a word
of a string or a comment, a shell or template variable."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.definitions import new_names
from pi_compact.compaction.offline.details import NAMES_LABEL

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize

MARKUP_NAMES = ("className", "onClick", "onChange", "aria-label", "key", "href", "htmlFor", "tabIndex", "data-testid",
                "modelValue", "userName")
OLD = "export function ProfileCard() {\n  return null;\n}\n"
EDITS = st.sampled_from([
    ("src/ProfileCard.tsx", '''export function ProfileCard({ user, onClick, className }: ProfileCardProps) {
  const displayName = formatDisplayName(user);
  return (
    <div className={`card ${className}`} onClick={onClick} aria-label="profile" key={user.id}>
      <a href={user.homepage} tabIndex={0} data-testid="profile_link">{displayName}</a>
      <label htmlFor="user_name_input">Name</label>
      <input id="user_name_input" onChange={(e) => setDraft(e.target.value)} />
    </div>
  );
}

export interface ProfileCardProps { user: User; onClick?: () => void; className?: string }
'''),
    ("src/components/ProfileCard.vue", '''<template>
  <div class="card" :modelValue="userName" @click="onClick" :aria-label="label">
    <a :href="homepage" :key="user.id">{{ formatDisplayName(user) }}</a>
  </div>
</template>
<script setup lang="ts">
export function ProfileCard() {}
const displayName = formatDisplayName(props.user)
</script>
<style>
.profile-card { display: flex; }
</style>
'''),
    ("templates/profile.html", '''<div class="card" onClick="openProfile()" aria-label="profile">
  <a href="/users/{{ user_id }}" tabIndex="0" data-testid="profile_link">Open</a>
</div>
<script>
function ProfileCard() {}
function formatDisplayName(user) { return user.name }
const displayName = formatDisplayName(window.userData)
</script>
'''),
])


def _names(summary: str) -> dict[str, list[str]]:
    """The names line of the summary, per file."""
    if NAMES_LABEL not in summary:
        return {}
    block = summary.split(NAMES_LABEL, 1)[1].split("\n- ", 1)[0]
    return {m.group(1): re.findall(r"`([^`]+)`", m.group(2)) for m in re.finditer(r"`([^`]+)`: (.*)", block)}


@EXAMPLES
@given(edit=EDITS)
def test_markup_attributes_and_props_are_no_names_the_change_brought_in(edit: tuple) -> None:
    path, text = edit
    messages = [user("Show the display name on the profile card."),
                assistant(call("e", "edit", path=path, oldText=OLD, newText=text)), result("e", "edit", "ok")]
    named = _names(summarize(messages)).get(path.rsplit("/", 1)[-1], [])  # named by its short name (short_paths)
    assert named and not set(named) & set(MARKUP_NAMES), named
    assert {"displayName", "formatDisplayName"} & set(named) or "ProfileCardProps" in named


PROJECT = {"call_model", "compile_pattern", "makeTableName"}
"""What the project defines (:func:`.definitions.defined_names` of the region): the calls below are to its own."""


@given(st.sampled_from([
    ('result = call_model(\n    max_tokens=3,\n    user_id=uid,\n)\n', "svc/api.py", {"call_model"}),
    ('t.Errorf("got %s\\nPlease retry", x)\nok := strings.HasPrefix(x, "a")\n', "x_test.go", set()),
    ('# ReDoS guard for the_pattern\nsafe_pattern = compile_pattern(raw)\n', "lint.py",
     {"safe_pattern", "compile_pattern"}),
    ('skill_name="$1"\ncp -r "$skill_name" "$platform_path"\n', "install.sh", {"skill_name"}),
    ("const table = `chkit_e2e_${suffix}`\nconst tableName = makeTableName(table)\n", "e2e.test.ts",
     {"table", "tableName", "makeTableName"}),
]))
def test_words_of_strings_comments_arguments_and_members_are_no_names(case: tuple) -> None:
    text, path, expected = case
    assert set(new_names(text, "unrelated()", path, PROJECT)) == expected


def test_a_stylesheet_names_the_classes_it_defines() -> None:
    assert new_names(".card-header {\n  color: red;\n}\n&.is-active {\n}\n", "", "src/card.scss") == \
        ["card-header", "is-active"]
