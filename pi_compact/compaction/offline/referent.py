"""What a sentence that refers back means: the command it introduces.

An agent's pending step often names its subject only by a pronoun, because the command it stands over names it:
"# Once deployed, this should work:" heads the ``curl …`` that calls the tool, "Then run it again:" the test command
in the block below. Quoted alone, "this should work" tells the next agent nothing; carried with the command it
introduces (bounded), it says what to retry and how. A sentence introduces what follows when it ends on a colon or is
a comment line inside a code block; it refers back when it holds a pronoun and names nothing itself (no backticked
value, no path, no snake or camel case).
"""

from __future__ import annotations

import re

from .text import clip_words

_POINTS_BACK = re.compile(
    r"\b(?:this|that|it|these|those|they"  # English
    r"|isso|isto|esto|eso|esta|este"  # Portuguese, Spanish
    r"|cela|ça|ceci|il|elle"  # French
    r"|das|dies|es)\b"  # German
    r"|これ|それ|이것|그것|이거|그거|这个|那个|它",  # Japanese, Korean, Chinese
    re.I)
_NAMES = re.compile(r"`|\w/\w|\w_\w|[a-z][A-Z]|\w\.[A-Za-z]{1,5}\b")
"""Marks of a named thing in the sentence itself: then it needs no referent."""
_COMMENT = re.compile(r"^\s{0,8}(?:#|//)\s{0,3}")
_FENCE = "```"
_FOLLOWING = 800
_COMMAND_CHARS = 240


def refers_back(sentence: str) -> bool:
    """True when ``sentence`` points back by a pronoun and names nothing itself."""
    return _POINTS_BACK.search(sentence) is not None and _NAMES.search(sentence) is None


def introduced_command(answer: str, sentence: str) -> str:
    """The command the line of ``answer`` that holds ``sentence`` introduces: the code lines right after it, when
    that line ends on a colon or is a comment in a code block; joined into one line (continuations ``\\`` dropped),
    at most :data:`_COMMAND_CHARS`. ``""`` when the line introduces nothing or no code follows."""
    head = sentence.strip()[:40]
    at = answer.find(head) if head else -1
    end = answer.find("\n", at) if at >= 0 else -1
    if end < 0:
        return ""
    start = answer.rfind("\n", 0, at) + 1
    line = answer[start:end]
    in_code = answer.count(_FENCE, 0, start) % 2 == 1
    if not (line.rstrip().endswith(":") or (in_code and _COMMENT.match(line))):
        return ""
    lines = answer[end + 1 : end + 1 + _FOLLOWING].splitlines()
    if lines and lines[0].lstrip().startswith(_FENCE):
        lines, in_code = lines[1:], True
    if not in_code:
        return ""  # a colon before prose introduces a list or a thought, not a command
    taken = []
    for part in lines:
        if not part.strip() or part.lstrip().startswith(_FENCE) or _COMMENT.match(part):
            break
        taken.append(part.strip().removesuffix("\\").strip())
    return clip_words(" ".join(taken), _COMMAND_CHARS) if taken else ""


__all__ = ["introduced_command", "refers_back"]
