"""A question the user asks the agent about its course ("should you be following this guide: <url>", "is that the
right port?", "why are you mocking the database?").

Such a message sets no work of its own: the agent answers it, and perhaps acts on the answer, inside the work it
was doing. Told as a request "under way" it would read as open work the next agent must finish, when the work
under way is the earlier request the question steered (:func:`.state.region_state` names that one instead).
A polite request worded as a question ("can you add a flag?", "could you also fix X?") asks for work and is no
such question.
"""

from __future__ import annotations

import re

from .goal import request_words, word_count
from .text import sentences

_OPENING = re.compile(
    r"\W{0,3}(?:(?:and|so|but|also|wait|hmm+|ok(?:ay)?|hold on),?\s{1,3})?"
    r"(?:(?:should(?:n'?t)?|are(?:n'?t)?|is(?:n'?t)?|was(?:n'?t)?|were(?:n'?t)?|did(?:n'?t)?|do(?:n'?t)?|does(?:n'?t)?"
    r"|have(?:n'?t)?|has(?:n'?t)?|would(?:n'?t)?|wo(?:uld)?n'?t)\s{1,3}(?:you|we|it|this|that|these|those|there|they"
    r"|the)\b|why\b|how come\b)", re.I)
"""The opening of a question about the agent's course: a yes/no question on what it does or did, or a why. "would
you …" asks for work and is left out by :data:`_ASKS_WORK`."""
_ASKS_WORK = re.compile(r"\b(?:can|could|will|would)\s{1,3}(?:you|u)\b|\bplease\b|\blet'?s\b|\b(?:how|what) about\b",
                        re.I)
"""Words that turn a question into a request for work ("would you add …", "can you …", "how about a flag?")."""
_MAX_WORDS = 60
"""A question longer than this carries an instruction of its own beside it."""


def asks_agent(request: str) -> bool:
    """True when ``request`` is only a question to the agent about its course (see the module docstring): every
    sentence a question (a mark, or a question's opening), the first opening as :data:`_OPENING` does, none asking
    for work, and short."""
    words = request_words(request).strip()
    if not words or word_count(words) > _MAX_WORDS or _ASKS_WORK.search(words[:2000]):
        return False
    said = sentences(words)
    if not said or not _OPENING.match(said[0]):
        return False
    return all(s.rstrip().endswith(("?", "？")) or _OPENING.match(s) for s in said)
