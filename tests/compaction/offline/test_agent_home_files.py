"""The agent's own bookkeeping in its home folder is no file of the work (issue 20, file lists): Claude Code's plan
file (``~/.claude/plans/NAME.md``), its todo lists and auto-memory (``~/.claude/projects/…/memory/MEMORY.md``), Codex's
and pi's session logs are kept off ``<read-files>``/``<modified-files>`` and the summary's changed files, while a plan
with open items is still followed as the plan. A file the user keeps in their home on purpose (``~/.bashrc``, an
app's ``config.toml``, a skill installed in ``~/.claude/skills``) stays a real file."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.details import OWN_LABEL
from pi_compact.compaction.offline.facts import is_agent_own
from pi_compact.compaction.offline.plans import open_plan_items

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_missing_files import _lists

AGENT_OWN = st.sampled_from([
    "/Users/alex/.claude/plans/witty-spinning-cake.md",
    "/home/u/.claude/plans/curious-noodling-sloth.md",
    "~/.claude/plans/humble-orbiting-pearl.md",
    "~/.claude/todos/3f2a-agent.json",
    "/Users/marc/.claude/projects/-Users-marc-work-app/memory/MEMORY.md",
    "C:\\Users\\jande\\.claude\\projects\\D--app\\memory\\MEMORY.md",
    "/root/.codex/sessions/2026/01/02/rollout-1.jsonl",
    "/home/u/.pi/agent/sessions/--home-u-app--/s.jsonl",
    "$HOME/.claude/todos/a.json",
    "/Users/ann/.local/share/opencode/storage/session/x.json",
])
USER_KEPT = st.sampled_from([
    "/home/u/.bashrc", "~/.config/app/config.toml", "~/.claude/settings.json",
    "/Users/sam/.claude/skills/review/SKILL.md", "~/.codex/config.toml",
    "/home/u/app/.claude/plans/design.md",  # a project's own folder named like the agent's: the project's file
])
PLAN = "# Plan: cache the parser\n\n- [x] WP1: measure\n- [ ] WP2: add the cache to `src/parser.py`\n"


@given(AGENT_OWN)
def test_the_agents_bookkeeping_is_its_own(path: str) -> None:
    assert is_agent_own(path)


@given(USER_KEPT)
def test_what_the_user_keeps_at_home_is_a_real_file(path: str) -> None:
    assert not is_agent_own(path)


def _session(path: str, tools: tuple[str, str, str] = ("Edit", "Write", "Read")) -> list[dict]:
    """Claude Code's tools by default; pi's (``edit``, ``write``, ``read``) when asked."""
    edit, write, read = tools
    return [user("Start on the parser cache, and keep a plan of it."),
            assistant(call("e", edit, file_path="/home/u/app/src/parser.py", old_string="def parse(",
                           new_string="def parse_cached(")),
            result("e", edit, "ok"),
            assistant(call("w", write, file_path=path, content=PLAN)), result("w", write, "ok"),
            assistant(call("r", read, file_path=path)), result("r", read, PLAN),
            assistant("The parser now has `parse_cached`; the plan is written.")]


@EXAMPLES
@given(AGENT_OWN)
def test_an_agent_file_is_in_no_file_list(path: str) -> None:
    read, modified = _lists(_session(path), cwd="/home/u/app")
    assert modified == ["src/parser.py"] and read == []


@EXAMPLES
@given(USER_KEPT)
def test_a_file_kept_at_home_on_purpose_is_listed(path: str) -> None:
    read, modified = _lists(_session(path), cwd="/home/u/app")
    assert len(modified) == 2 and "src/parser.py" in modified, modified


def test_the_plan_is_followed_as_the_plan_not_as_a_changed_file() -> None:
    path = "/home/u/.claude/plans/witty-spinning-cake.md"
    messages = _session(path, ("edit", "write", "read"))
    text = summarize(messages, metadata={"cwd": "/home/u/app"})
    plan = open_plan_items(messages)
    assert plan is not None and plan.path == path and plan.open  # still followed as the plan, with its open item
    assert f"edited: `{path}`" not in text and f"written: `{path}`" not in text
    assert f"changed `{path}`" not in text


@given(AGENT_OWN)
def test_the_agents_own_file_is_named_as_its_own(path: str) -> None:
    """Off the project's lists, the file is still named once, as the agent's own or as the plan whose items are
    still unchecked (Claude Code's ``Write`` of it is followed): the next agent can read its plan there again."""
    text = summarize(_session(path), metadata={"cwd": "/home/u/app"})
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    own = [line for line in text.splitlines() if line.lstrip("- ").startswith(OWN_LABEL)
           or line.lstrip("0123456789. ").startswith("Still unchecked in the plan")]
    assert len(own) == 1 and f"{name}`" in own[0], own
