"""An agreement on a way the agent later abandoned is no standing decision (issue 20): the user says the package
needs Deno, the agent answers "You're right — that package is trying to use Deno APIs." and works on; a few calls
on it finds the package unusable and says "Let me revert back to the original library". No word of the user's
reversed the agreement, but the way it was about is gone: the summary says it as history ("Was: … — now: …") or
leaves it out, never as a decision to honour. An agreement on something else stays, and so does a choice the user
made in words (the agent's retreat is not the user's word). Each case in three agents' shapes of the calls."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

FORMATS = {
    "pi": lambda command: ("bash", {"command": command}),
    "claude": lambda command: ("Bash", {"command": command, "description": "Run it"}),
    "codex": lambda command: ("exec_command", {"cmd": command}),
}
WAYS = [  # (the package, what the user says is wrong, the agent's agreement, why it leaves the way)
    ("@fusionstrings/swisseph-wasi", "i'm getting a Deno error. we are using node, not deno",
     "that package is trying to use Deno APIs.",
     "The browser wrapper is still trying to use Deno shims, which don't work with Vite. This package isn't truly "
     "browser-ready."),
    ("pdfkit-lite", "the pdf export crashes, it wants a canvas module",
     "the pdfkit-lite package is pulling in the native canvas module.",
     "The pdfkit-lite build still requires the native canvas module at runtime, even the browser bundle."),
    ("sqlite-wasm-fast", "the tests hang when the db opens",
     "the sqlite-wasm-fast package blocks on its worker startup under the test runner.",
     "The sqlite-wasm-fast worker startup still blocks under the test runner, whatever options are given."),
]
LEAVES = [
    "Let me revert back to the original library for now so we can get the app working.",
    "I've reverted to the previous implementation; we can revisit this later.",
    "I'm abandoning this approach and going back to the old code path.",
    "Let's go back to the original dependency until a fixed release exists.",
]


def _session(agent: str, way: tuple[str, str, str, str], leave: str) -> list[dict]:
    package, complaint, agreed, why = way
    tool, install = FORMATS[agent](f"npm install {package}")
    _, build = FORMATS[agent]("npm run build")
    _, uninstall = FORMATS[agent](f"npm uninstall {package}")
    return [user("Switch the chart maths to a real ephemeris package."),
            assistant(f"Installing {package}.", call("a", tool, **install)), result("a", tool, "added 6 packages"),
            user(complaint),
            assistant(f"You're right — {agreed} Let me look at its exports:", call("b", tool, **build)),
            result("b", tool, "build finished"),
            assistant(f"{why}\n\n{leave}", call("c", tool, **uninstall)), result("c", tool, "removed 6 packages"),
            assistant("Reverted; the app builds with the original library.", call("d", tool, **build)),
            result("d", tool, "build finished")]


def _standing(summary: str) -> list[str]:
    return [item for item in items(summary, "## Key Decisions") if not item.startswith("Was:")]


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("leave", LEAVES)
def test_an_agreement_on_an_abandoned_way_is_history(agent: str, way: tuple, leave: str) -> None:
    summary = summarize(_session(agent, way, leave))
    assert not any(way[2][:30] in item for item in _standing(summary)), summary


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("leave", LEAVES[:2])
def test_an_agreement_on_another_thing_stays(agent: str, leave: str) -> None:
    tool, build = FORMATS[agent]("npm run build")
    session = [user("Switch the chart maths to a real ephemeris package."),
               user("the chart wheel shows retrograde marks on planets that are direct"),
               assistant("You're right — the chart wheel draws its own retrograde marks from stale speeds. "
                         "Let me check the renderer:", call("a", tool, **build)), result("a", tool, "build finished"),
               assistant(f"The wasm package still fails to load under Vite.\n\n{leave}", call("b", tool, **build)),
               result("b", tool, "build finished")]
    summary = summarize(session)
    assert any("retrograde marks from stale speeds" in item for item in _standing(summary)), summary
