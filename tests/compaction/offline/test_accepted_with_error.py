"""A reply that both accepts (or redirects to) a way and reports an error ("yes let's switch to swiss eph after we
figure this out. i'm getting the following error now … Error: Custom orb must be <= 12", or the error first and the
switch after): the switch is a decision (rules.py: the offer the yes accepted, with what the user added up to the
error; the user's own "let's switch to X" after a yes), the error is no change the user asked for and no rule of
theirs (facts.py: the program's "must" is not the user's), and the step the agent had planned on the old way is not
the next step."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.facts import constraint_sentences

from ..messages import assistant, call, result, user
from .test_offline import items, section, summarize

_OFFER = ("I've raised the orbs in `astrology.ts` to 15°.\n\nNext I'll tune the Moon's orbs in `astrology.ts` further.\n\n"
          "## Re: {way}\n\n{way} would be ideal for a professional tool.\n\n"
          "**Want me to research the best {way} integration for your project?** I can:\n"
          "1. Find the best npm package\n2. Create a migration plan\n3. Keep it open source\n\n"
          "Let me know if you want to tackle that after the current calculations work!")
_ERROR = 'Error: Custom orb "conjunction" must be <= 12.\n    at calculateHoraryChart (astrology.ts:29:21)'
_WAYS = ["Swiss Ephemeris", "Moshier ephemeris", "the astronomia library"]


def _edit(tool: str) -> list[dict]:
    if tool == "codex":
        patch = "*** Begin Patch\n*** Update File: src/utils/astrology.ts\n@@\n-8\n+15\n*** End Patch"
        return [assistant(call("p1", "apply_patch", input=patch)), result("p1", "apply_patch", "Success.")]
    name, key = ("Edit", "file_path") if tool == "claude code" else ("edit", "path")
    return [assistant(call("e1", name, **{key: "src/utils/astrology.ts", "old_string" if tool == "claude code"
                                          else "oldText": "8", "new_string" if tool == "claude code" else "newText": "15"})),
            result("e1", name, "ok")]


def _messages(tool: str, way: str, reply: str) -> list[dict]:
    return [user("the moon's separating aspect is missing, widen the orbs"), *_edit(tool),
            assistant(_OFFER.format(way=way)), user(reply)]


@pytest.mark.parametrize("tool", ["pi", "claude code", "codex"])
@pytest.mark.parametrize("way", _WAYS)
@pytest.mark.parametrize("order", ["yes first", "error first"])
def test_a_switch_said_with_an_error_is_decided(tool: str, way: str, order: str) -> None:
    short = way.split()[-2] if way.startswith("the ") else way.split()[0]
    reply = (f"yes let's switch to {short} after we figure this out. i'm getting the following error now {_ERROR}"
             if order == "yes first" else f"that fails with {_ERROR}\nok let's switch to {short} instead")
    text = summarize(_messages(tool, way, reply))
    decisions = items(text, "## Key Decisions")
    assert any(f"switch to {short}" in line for line in decisions), text
    assert not any("must be <= 12" in line for line in decisions), decisions
    rules = section(text, "## Constraints & Preferences")
    assert not any("must be <= 12" in line for line in rules), rules
    steps = section(text, "## Next Steps")
    assert not any("tune the Moon" in line for line in steps), steps


@pytest.mark.parametrize("said, kept", [
    ("i'm getting the following error now Error: Custom orb must be <= 12.", []),
    ("yes and i got this error: TypeError: value must be a string", []),
    ("never push to main. also that fails with Error: port must be a number", ["never push to main."]),
    ("If you hit an error, always stop and tell me.", ["always stop and tell me."]),
])
def test_an_error_the_user_pasted_is_no_rule(said: str, kept: list[str]) -> None:
    assert constraint_sentences(said) == kept
