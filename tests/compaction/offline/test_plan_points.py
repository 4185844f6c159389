"""A written plan's choices and limits stated by its structure (:mod:`pi_compact.compaction.offline.plan_points`):
mapping tables of chosen images or versions, replacements, labelled design points, out-of-scope lists, and the
sentence forms of a plan's limits (out of scope, a fallback when a thing is missing, a step that keeps)."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.plan_points import plan_choices, plan_rule, scope_lists
from pi_compact.compaction.offline.rules import is_rule, listed_decisions

from ..messages import assistant, user
from .test_offline import items, summarize

_PLAN = """Implement the following plan:

# Plan: Per-tenant caches

## Context

Each tenant gets its own cache instead of the shared one.

## Approach

### 1. Create `TenantCache` (`app/cache/tenant.py`)

- Cache key: prefix every key with `tenant:{id}:` so tenants never collide
- Eviction policy: least recently used, `maxsize=512` per tenant
- Delete handlers: drop the cache
- `get()`: look the tenant up first

| Backend | kind | image | port |
|---------|------|-------|------|
| Sessions | `kv` | `valkey:8` | 6379 |
| Search | `index` | `meilisearch:1.9` | 7700 |
| Reports | `sql` | `mariadb:11` | 3306 |
| Queues | `kv` | `valkey:8` | 6379 |

### 2. Change the settings

- Replace `shared_cache: Cache | None = None` with `tenant_cache: TenantCache | None = None` on `Settings`
- Replace `read_url`/`write_url` with `read_pool`/`write_pool` on `DbState`
- Replace `shared_cache: Cache | None` with `tenant_cache: TenantCache` on `Worker`
"""


def test_a_table_mapping_things_to_chosen_images_is_one_line_grouped_by_image() -> None:
    found = plan_choices(_PLAN)
    table = next(item for item in found if item.startswith("image per backend:"))
    assert "valkey:8 for Sessions, Queues" in table and "meilisearch:1.9 for Search" in table, table
    assert "6379" not in table  # the other columns are no choice


def test_replacements_in_a_plan_are_pairs_of_names_once_each() -> None:
    replaced = next(item for item in plan_choices(_PLAN) if item.startswith("Replaced in the plan:"))
    assert "`shared_cache` → `tenant_cache`" in replaced and "`read_url/write_url` → `read_pool/write_pool`" in replaced
    assert replaced.count("shared_cache") == 1 and "Cache | None" not in replaced


def test_labelled_design_points_name_code_and_are_capped() -> None:
    found = plan_choices(_PLAN)
    assert any(item.startswith("Cache key: prefix every key") for item in found), found
    assert any(item.startswith("Eviction policy:") for item in found), found
    assert not any(item.startswith(("Delete handlers", "`get()`")) for item in found), found


def test_a_bold_labelled_approach_is_a_choice_without_its_long_aside() -> None:
    plan = ("# Plan: Batch writes\n\n## Steps\n\n- **Two-phase approach**: First phase checks every guard (from the "
            "explicit guards and from the writes that carry a guard). If one fails, return `BatchAborted` with "
            "per-item `Reasons`. Second phase applies the writes.\n")
    point = next(item for item in plan_choices(plan) if item.startswith("Two-phase approach:"))
    assert "`BatchAborted`" in point and "explicit guards" not in point, point


@pytest.mark.parametrize("text", [
    "Results:\n\n| Package | version | size |\n|---|---|---|\n| left-pad | 1.3.0 | 2k |\n| chalk | 5.3.0 | 40k |\n",
    "Here is what I found.\n\n- Replace `old_name` with `new_name` where the tests need it\n",
])
def test_a_text_that_is_no_plan_states_no_plan_choices(text: str) -> None:
    assert plan_choices(text) == []


def test_an_out_of_scope_list_is_one_line() -> None:
    plan = "# Plan: Exports\n\n## Out of scope\n\n- PDF export\n- **Scheduled** exports\n\n## Steps\n\n- write it\n"
    assert scope_lists(plan) == ["Out of scope: PDF export; Scheduled exports"]


@pytest.mark.parametrize("sentence", [
    "PDF and XLSX exports are out of scope (no renderer for them).",
    "If Redis is unavailable or the key is not set → return `None` (fall back to the in-memory cache)",
    "When the GPU is not available, run the model on the CPU and log a warning.",
    "**Keep the legacy handlers in api/old.py** — their routes and fixtures stay; new handlers go alongside.",
])
def test_a_plan_sentence_that_sets_a_limit_is_a_rule(sentence: str) -> None:
    assert plan_rule(sentence) and is_rule(sentence), sentence


@pytest.mark.parametrize("sentence", [
    "When I run it offline, the build fails.",
    "If you want, I can keep going.",
    "Keep the tests small.",
])
def test_a_report_or_a_step_is_no_plan_limit(sentence: str) -> None:
    assert not plan_rule(sentence), sentence


def test_a_plans_limits_and_choices_reach_the_summary() -> None:
    summary = summarize([
        user(_PLAN + "\nPDF exports are out of scope (no renderer).\n\n"
             "- If Redis is unavailable → use the in-memory cache\n"),
        assistant("I'll start with the tenant cache module."),
    ])
    rules = items(summary, "## Constraints & Preferences")
    assert any("out of scope" in rule for rule in rules), rules
    assert any(rule.startswith("If Redis is unavailable") for rule in rules), rules
    decisions = items(summary, "## Key Decisions")
    assert any("valkey:8 for Sessions" in item for item in decisions), decisions


def test_the_users_expectation_of_the_behaviour_is_kept() -> None:
    found = listed_decisions("the workers all start when the app boots. is that right? I would have thought the "
                             "scheduler would start them when a job arrives.")
    assert found == ["The user expects: the scheduler would start them when a job arrives."], found
    assert listed_decisions("I would have thought this would be easy.") == []


def test_a_plans_out_of_scope_list_is_a_constraint() -> None:
    summary = summarize([
        user("Implement the following plan:\n\n# Plan: Exports\n\n## Out of scope\n\n- PDF export\n- Scheduled exports"
             "\n\n## Steps\n\n1. Add the CSV writer\n2. Wire it to the menu\n"),
        assistant("I'll start with the CSV writer."),
    ])
    rules = items(summary, "## Constraints & Preferences")
    assert "Out of scope: PDF export; Scheduled exports" in rules, rules
