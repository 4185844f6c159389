"""Decisions the agent states in its work narrative (issue 20, decisions lost in the summary): a thing the code names
put in its place with the reason ("I'll put the shared `Store` interface in `internal/store` so both packages can
fake it"), a place settled ("The shared types go in `pkg/types`"), a label naming the approach ("Key design: …"), a
constant or interface introduced with its reason, a module split by concern, a table "| Decision | Reason |" and a
"Design choices:" list are Key Decisions, one line each with their names; in the corpus's languages too. Thinking
aloud, a way merely offered, a step ("Now let me read `parse.go`"), a placement without a reason and a fragment
opening mid-thought ("But the parsing needs to be in `x.go` …") are not."""

from __future__ import annotations

import pytest

from ..messages import assistant, user
from .test_offline import items, summarize

_WORK = "Add a storage layer to the sync tool and wire both commands to it."


def _decisions(*words: str) -> list[str]:
    found = items(summarize([user(_WORK), *(assistant(w) for w in words)]), "## Key Decisions")
    return [] if found == ["(none)"] else found


_PLACED = [
    ("I'll put the shared `Store` interface in `internal/store` so both packages can fake it.", "`internal/store`"),
    ("I'll move the parser into `parse.go` so the renderer stays free of IO.", "`parse.go`"),
    ("We'll keep the retry loop in `client.go` rather than in each command.", "`client.go`"),
    ("I've moved `loadConfig` to `config/load.go` because both binaries read it.", "`config/load.go`"),
    ("OK, I'm going to place the schema constants in `schema.ts` to avoid a cycle between the two modules.",
     "`schema.ts`"),
    ("The shared types go in `pkg/types` so that both binaries import one definition.", "`pkg/types`"),
    ("`RetryPolicy` belongs in the client package, since only the client retries.", "`RetryPolicy`"),
    ("I made `MaxRetries` a constant so the tests and the worker agree.", "`MaxRetries`"),
    ("I've added a `Clock` interface so the tests can fix the time.", "`Clock` interface"),
    ("But I'll keep the parser in `parse.go`, since the renderer must not read files.", "`parse.go`"),
    ("Split the module by concern: `parse.go`, `render.go`.", "`render.go`"),
    ("The approach: wrap the HTTP client in one retry helper rather than patching each caller.", "retry helper"),
    ("**Key design:** the daemon owns the socket and the CLI only sends requests.", "daemon owns the socket"),
    ("Design choice: `Store` is an interface so that the tests can pass a fake.", "`Store` is an interface"),
]
_ABROAD = [
    ("Vou colocar a interface `Store` em `internal/store` para que os dois pacotes possam simulá-la.", "`Store`"),
    ("Voy a poner la interfaz `Store` en `internal/store` para que ambos paquetes puedan simularla.", "`Store`"),
    ("Je vais mettre l'interface `Store` dans `internal/store` pour que les deux paquets puissent la simuler.",
     "`Store`"),
    ("Ich lege das Interface `Store` in `internal/store` ab, damit beide Pakete es ersetzen können.", "`Store`"),
    ("両方のパッケージでモックできるため、共有の `Store` インターフェースは `internal/store` に置きます。", "`Store`"),
    ("我把共享的 `Store` 接口放在 `internal/store` 中，这样两个包都可以模拟它。", "`Store`"),
    ("두 패키지가 모두 대체할 수 있도록 공유 `Store` 인터페이스를 `internal/store`에 두겠습니다.", "`Store`"),
]


@pytest.mark.parametrize(("words", "named"), _PLACED + _ABROAD)
def test_a_design_choice_in_the_work_is_a_decision(words: str, named: str) -> None:
    found = _decisions("Let me look at how the commands open the database.", words)
    assert [item for item in found if named in item], found
    assert len([item for item in found if named in item]) == 1, found  # one line, not repeated


@pytest.mark.parametrize("words", [
    "Now let me read `parse.go` to see how the tokens are built.",
    "I'll put a debug print in `main.go`.",  # a placement without a reason: a step
    "I think I'll put the helper in `util.go` since it is shared.",  # thinking aloud
    "Maybe the types should go in `pkg/types`.",
    "We could put the helper in `util.go` since both commands need it.",  # a way offered
    "But the parsing needs to be in `parse.go` and the tests too, since the renderer calls it.",  # mid-thought
    "But the fix is to do that in `parse.go` too.",
    "And the approach was to keep that for now.",
    "The config lives in `~/.config/sync` because the XDG spec says so.",  # code described, nothing placed
    "Approach: first read `store.go`, then check the callers.",  # a label opening steps
    "It goes in `pkg/types` since that is where the tool looks.",  # about "it": no thing named as placed
])
def test_not_a_design_choice(words: str) -> None:
    assert _decisions("Let me look at how the commands open the database.", words) == []


_TABLE = """Done. Summary of the storage layer:

| Decision | Reason |
|---|---|
| `Store` interface in `internal/store` | both commands can take a fake in tests |
| SQLite over JSON files | concurrent writers from the daemon |

All tests pass."""
_LIST = """Storage layer finished and committed.

Design choices:
- `Store` is an interface so that both commands can take a fake
- SQLite instead of JSON files, because the daemon writes concurrently

Next I can add the migration command."""


@pytest.mark.parametrize(("report", "named"), [
    (_TABLE, "`Store` interface in `internal/store` — both commands"),
    (_TABLE, "SQLite over JSON files — concurrent writers"),
    (_LIST, "`Store` is an interface"),
    (_LIST, "SQLite instead of JSON files"),
])
def test_a_report_lists_its_choices(report: str, named: str) -> None:
    found = _decisions(report)
    assert [item for item in found if named in item], found


def test_a_table_without_reasons_is_no_list_of_choices() -> None:
    report = "Files:\n\n| File | Change |\n|---|---|\n| `store.go` | new interface |\n| `main.go` | wiring |\n"
    assert _decisions(report) == []
