"""A decision the user later set aside is no current decision (superseded.py; issue 20): the user accepted a switch
("yes let's switch to swiss eph after we figure this out") and later postponed it ("let's move on for now but come
back to the swiss ephemeris", "park the X for now", "let's not do X after all"), or declined the call that would have
carried it out with such words. Key Decisions says the way as set aside ("Postponed: … — the user: “…”") or as
history ("Was: … — now: “…”"), never as a standing decision, in every harness's form."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

_OFFER = ("I've raised the orbs in `astrology.ts` to 15°.\n\n"
          "**Want me to research the best {way} integration for your project?** I can:\n"
          "1. Find the best npm package\n2. Create a migration plan\n3. Keep it open source\n\n"
          "Let me know if you want to tackle that after the current calculations work!")
_WAYS = [("Swiss Ephemeris", "swiss ephemeris", "swisseph"), ("Moshier Ephemeris", "moshier ephemeris", "moshier"),
         ("Astronomia Library", "astronomia library", "astronomia")]
_LATER = [
    "ok the orbs work now. let's move on for now but come back to the {name} when it becomes relevant",
    "the orbs work. park the {name} integration for now, we'll revisit it later",
    "the orbs work now. let's not do the {name} integration after all",
    "the orbs work now. put the {name} integration on hold, fix the chart wheel first",
]
_REFUSALS = {
    "pi": "The user declined this tool call. The user said: {}",
    "claude code": ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a "
                    "file edit, the new_string was NOT written to the file). To tell you how to proceed, the user "
                    "said:\n{}"),
    "codex": "exec command rejected by user\nReason: {}",
}


def _install(tool: str, package: str) -> dict:
    command = f"npm install {package}"
    if tool == "codex":
        return call("i1", "shell", command=["bash", "-lc", command])
    return call("i1", "Bash" if tool == "claude code" else "bash", command=command)


def _edit(tool: str) -> list[dict]:
    if tool == "codex":
        patch = "*** Begin Patch\n*** Update File: src/astrology.ts\n@@\n-8\n+15\n*** End Patch"
        return [assistant(call("p1", "apply_patch", input=patch)), result("p1", "apply_patch", "Success.")]
    if tool == "claude code":
        return [assistant(call("e1", "Edit", file_path="src/astrology.ts", old_string="8", new_string="15")),
                result("e1", "Edit", "ok")]
    return [assistant(call("e1", "edit", path="src/astrology.ts", oldText="8", newText="15")), result("e1", "edit", "ok")]


def _accepted(way: str, name: str) -> list[dict]:
    return [user("the moon's separating aspect is missing, widen the orbs"), assistant(_OFFER.format(way=way)),
            user(f"yes let's switch to {name} after we figure this out"),
            assistant(f"Great, I'll finish the orbs first and then start the {way} integration.")]


def _standing(text: str, name: str) -> list[str]:
    decisions = items(text, "## Key Decisions")
    return [d for d in decisions if name.split()[0] in d.lower()
            and not d.startswith(("Was:", "The user declined", "Postponed:"))]


@pytest.mark.parametrize("tool", ["pi", "claude code", "codex"])
@pytest.mark.parametrize("way, name, package", _WAYS)
@pytest.mark.parametrize("later", _LATER)
def test_a_switch_the_user_postponed_later_is_no_standing_decision(tool: str, way: str, name: str, package: str,
                                                                   later: str) -> None:
    messages = [*_accepted(way, name), *_edit(tool), assistant("The orbs are fixed."),
                user(later.format(name=name)), assistant("Understood.")]
    text = summarize(messages)
    assert not _standing(text, name), items(text, "## Key Decisions")


@pytest.mark.parametrize("tool", ["pi", "claude code", "codex"])
@pytest.mark.parametrize("way, name, package", _WAYS)
def test_a_switch_whose_install_the_user_declined_for_later_is_no_standing_decision(tool: str, way: str, name: str,
                                                                                   package: str) -> None:
    plan = (f"Create a new `src/utils/{package}.ts` to replace `astrology.ts`; Install {package}-wasm and set up the "
            "migration; Test side-by-side before fully switching over")
    install = _install(tool, f"{package}-wasm")
    said = f"let's move on for now but come back to the {name} if and when it becomes relevant"
    messages = [*_accepted(way, name), assistant(f"Here is the migration plan:\n\n{plan}\n\nShall I start?"),
                user("and start the migration"), assistant("Installing the package.", install),
                result("i1", install["name"], _REFUSALS[tool].format(said), error=True),
                assistant("Understood, leaving the migration for later.")]
    text = summarize(messages)
    decisions = items(text, "## Key Decisions")
    assert not [d for d in decisions if "Install" in d and not d.startswith(("Was:", "The user declined", "Postponed:"))], decisions
    assert not _standing(text, name), decisions
