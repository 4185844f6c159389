"""A document the user pastes to ask about it (a design, a skill's text) is no list of the user's rules: its "must"
and "always" describe the design. A document handed over as the work (a plan to implement) keeps its rules."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.pasted import own_words

from ..messages import assistant, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

DOCUMENTS = st.sampled_from([
    "# Ledger Sync\n\nThe sync worker must never hold more than 512 entries in its queue.\n\n## Parts\n"
    "1. **Index** (name + offset) — always in memory.\n2. **Journal** — loaded on demand.",
    "## Ticket Router design\n\nRouters don't keep state between requests.\n- Each queue must stay under 40 ms.\n"
    "### Storage\nAlways append, never rewrite a segment.",
])
QUESTIONS = st.sampled_from(["did we build something like this already?", "Is any of this in the repository yet?",
                             "what would it take to do this?"])
RULES = st.sampled_from(["Don't touch the public API of the client.", "Never push to main without asking me."])
DOCUMENT_WORDS = ("512 entries", "always in memory", "don't keep state", "40 ms", "never rewrite")


@EXAMPLES
@given(document=DOCUMENTS, question=QUESTIONS, inline=st.booleans())
def test_the_rules_of_a_document_asked_about_are_no_constraints(document: str, question: str, inline: bool) -> None:
    request = f"{question}{' ' if inline else chr(10)}{document}"
    text = summarize([user(request), assistant("Not yet: nothing in the repository implements it.")])
    rules = " ".join(items(text, "## Constraints & Preferences"))
    assert not any(words in rules for words in DOCUMENT_WORDS)


@EXAMPLES
@given(document=DOCUMENTS, rule=RULES)
def test_a_document_handed_over_as_the_work_keeps_its_rules(document: str, rule: str) -> None:
    text = summarize([user(f"Implement the following plan. {rule}\n\n{document}"),
                      assistant("I'll start with the worker.")])
    rules = " ".join(items(text, "## Constraints & Preferences"))
    assert rule.rstrip(".") in rules
    assert any(words in rules for words in DOCUMENT_WORDS)


def test_a_heading_inside_a_code_block_opens_no_document() -> None:
    request = "Never force-push.\n```bash\n# rebuild the index\nmake index\n```\nAlways run `make check` first."
    assert own_words(request) == request
    assert own_words("Is this done? # Title\nAlways x.") == "Is this done?"
    assert own_words("Do this: # Title\nAlways x.") == "Do this: # Title\nAlways x."
