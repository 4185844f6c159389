"""What the edits of the request still under way did, in the agent's words at them.

A finished request is said by the agent's report (:mod:`.progress`); a request the region ends in the middle of has
no report yet, and its Done part would be a bare list of files. But the agent says what each edit is for just before
it ("The `_register_routes` function is too complex. I need to lower its complexity by extracting dispatch
helpers."): once the edit went through, that sentence is what the code now is. Kept are the sentences that name the
code they change (a backticked name, in the sentence or the one before it) with a verb of change, each at the
first edit after it that succeeded; the latest few.
"""

from __future__ import annotations

import re
from typing import Any

from ...accessors import content_text
from .facts import EDIT_TOOLS, WRITE_TOOLS, message_dicts
from .text import clip_words, sentences

_CHANGE = re.compile(
    r"^\W{0,6}(?:\*\*[^*\n]{1,40}\*\*:?\s{0,3})?(?:(?:now|next|then|first|so|ok(?:ay)?),?\s{1,3})?"
    r"(?:(?:let me|let's|i'll|i will|i need to|i can|i'm going to|we need to|we'll)\s{1,3})?"
    r"(?:refactor|extract|add|replac|renam|split|mov|remov|rewrit|introduc|reduc|lower|simplif|fix|updat|switch"
    r"|convert|wrap|inline|merg|separat|guard|cach)\w{0,8}\b", re.I)
"""A sentence that sets out the change the edit makes, its verb first (after a step's bold label, "Now", "Let me",
"I need to"): "I need to reduce its complexity by extracting …", "Now update `_route()` to …". A sentence that
only mentions a fix ("Even with the worktree fix, …") says what is wrong, not what the edit does."""
_NAME = re.compile(r"`[^`\n]{2,80}`")
_EDITS = EDIT_TOOLS | WRITE_TOOLS
_KEPT = 2
_CHARS = 160


def _intent(texts: list[str]) -> str:
    """The first sentence of ``texts`` that says a change and names its code (with the sentence before it when only
    that one names it)."""
    for text in texts:
        said = sentences(text[:4000])
        for number, sentence in enumerate(said):
            if not _CHANGE.match(sentence) or sentence.endswith("?"):
                continue
            if _NAME.search(sentence):
                return sentence.rstrip(":").rstrip()
            before = said[number - 1] if number else ""
            if before and _NAME.search(before) and not _CHANGE.match(before):
                return f"{before} {sentence.rstrip(':').rstrip()}"
    return ""


def edits_said(messages: Any, since: int) -> list[str]:
    """The agent's words at the edits after message ``since`` that succeeded (see the module docstring), in order,
    the latest :data:`_KEPT`."""
    listed = list(message_dicts(messages))
    # ids are read as strings only: a junk file may hold a list there, which is unhashable
    failed = {str(message.get("toolCallId")) for message in listed[since + 1:]
              if message.get("role") == "toolResult" and message.get("isError") is True}
    found: list[str] = []
    pending: list[str] = []
    for message in listed[since + 1:]:
        if message.get("role") == "user":
            pending = []
        if message.get("role") != "assistant":
            continue
        text = content_text(message.get("content"))
        pending += [text] if text.strip() else []
        content = message.get("content") if isinstance(message.get("content"), list) else []
        edits = [block for block in content if isinstance(block, dict) and block.get("type") == "toolCall"
                 and str(block.get("name") or "").lower() in _EDITS and str(block.get("id")) not in failed]
        if edits and pending:
            intent = _intent(pending)
            if intent and intent not in found:
                found.append(clip_words(intent, _CHARS))
            pending = []
    return found[-_KEPT:]
