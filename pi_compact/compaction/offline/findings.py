"""The agent's conclusions: what it found out, in its own words ("Found the bug! We iterate in CommitterTime order
and stop at the first commit reachable from main instead of skipping it").

An investigation ends in a sentence that says what was wrong or why; the fix that follows is in the changed files,
but the reason is only there, in the agent's text, among dozens of "Let me check …" lines. The next agent needs the
reason more than the trail: it tells what not to try again and why the code is the way it is. A finding is
recognized by how the agent opens it (``Found it``, ``I see the issue``, ``The root cause is``, ``**Problem:**``,
``Maybe the real issue is``: a hedged diagnosis is still the one it works from), not
by what it is about; it is kept up to the point where the agent turns to what it will do (``Let me fix that``).
"""

from __future__ import annotations

import re

from .languages import ANNOUNCE, ANNOUNCE_CLOSING, spaced, unspaced
from .text import clip_words, sentences

_OPENS = re.compile(
    r"^\W{0,6}(?:"
    r"found (?:it|the (?:real |actual )?(?:bug|problem|issue|cause|culprit))"
    r"|(?:now |ok(?:ay)?,? )?i (?:see|found|understand|get) (?:the|what)(?: real| actual)? (?:problem|issue|bug|cause)"
    r"|(?:so |but )?(?:(?:maybe|perhaps|probably|i think|i suspect|i believe|it (?:looks|seems) like) )?"
    r"the (?:real |actual |underlying )?(?:root cause|cause|problem|issue|bug|culprit) (?:is|was|here is)\b"
    r"|root cause\b|the fix(?: is)?:|(?:problem|issue|bug|cause|diagnosis|conclusion|finding)s?\*{0,2}:"
    r"|(?:encontrei|achei|entendi|encontré|j'ai trouvé|ich habe)\s(?:o |a |el |la |le |das |den |die )?"
    r"(?:problema|bug|erro|error|causa|problème|cause|Problem|Fehler|Ursache)"  # Portuguese, Spanish, French, German
    r"|(?:o|a|el|la|le|das|die)\s(?:verdadeiro |real |vrai |eigentliche )?(?:problema|causa|problème|cause|Problem"
    r"|Ursache)(?: raiz| raíz| racine)?\s(?:é|era|está|es|está|est|était|vient|ist|war|liegt)\b"
    r"|(?:problema|causa|problème|ursache|fehler)\s?\*{0,2}\s?:"
    r"|(?:根本)?原因[はが：:]|問題[はが：:]|原因을|원인[은이:]|문제[는가:]|(?:根本)?原因(?:是|在于|[:：])|问题(?:是|在于|出在|[:：])"
    r"|找到(?:了)?(?:问题|原因|bug)|原因が(?:分かり|わかり)|見つけました|찾았습니다"  # Japanese, Korean, Chinese
    r")",
    re.I,
)
"""How a conclusion opens: at the start of a line of the agent's text (after list markers and bold)."""
_ANNOUNCES = re.compile(rf"^\W{{0,3}}(?:{spaced(ANNOUNCE)}|{unspaced(ANNOUNCE)})", re.I)
"""Words that turn from the conclusion to what the agent does next, in English and the languages of :data:`_OPENS`."""
_WILL_DO = re.compile(ANNOUNCE_CLOSING)
"""The same at a sentence's end, where Japanese and Korean say it ("クエリを追加します。", "추가하겠습니다.")."""
_MARKER_ONLY = 30
"""A first sentence this short only says a finding follows (``Found it!``, ``I see the issue now.``)."""
_LINES = 5
"""Lines of the text read from the opening line on (a list of causes under ``The issue is:``)."""
_CHARS = 320
_INTRO_WORDS = 7
"""A sentence ending in a colon with fewer words only introduces what follows."""
_TEXT_CHARS = 8_000


def findings(texts: list[str]) -> list[str]:
    """The conclusions in the agent's ``texts`` (in order), each once, in its words, cut before what it will do."""
    found: dict[str, None] = {}
    for text in texts:
        lines = text[:_TEXT_CHARS].splitlines()
        for number, line in enumerate(lines):
            if _OPENS.match(_plain(line)):
                finding = _conclusion(lines[number : number + _LINES])
                if finding:
                    found[finding] = None
    return list(found)


def _plain(line: str) -> str:
    return line.replace("**", "").replace("__", "").strip()


def _conclusion(lines: list[str]) -> str:
    """The finding that starts on ``lines[0]``: its sentences up to a blank line after some text, a code block, or
    a sentence that announces what the agent will do."""
    kept: list[str] = []
    for line in lines:
        plain = _plain(line)
        if plain.startswith("```") or (not plain and kept):
            break
        if kept and _OPENS.match(plain):
            break  # the next finding
        for sentence in sentences(re.sub(r"^(?:[-*+•]|\d+[.)])\s+", "", plain)):
            if _ANNOUNCES.match(sentence) or _WILL_DO.search(sentence) or sentence.endswith(("?", "？")):
                return _joined(kept)  # what it will do, or what it still asks itself: no conclusion
            if not (not kept and len(sentence) < _MARKER_ONLY and _OPENS.match(sentence)
                    and sentence.rstrip().endswith(("!", ".", ":"))):
                kept.append(sentence)
    return _joined(kept)


def _joined(kept: list[str]) -> str:
    """The sentences as one line; none that only introduces what did not follow (``The fix options are:``; a
    statement before a code block stays: ``The regex captures the file name, not the full path:``)."""
    while kept and kept[-1].rstrip("*").endswith(":") and len(kept[-1].split()) < _INTRO_WORDS:
        kept = kept[:-1]
    text = " ".join(kept).strip()
    return clip_words(text, _CHARS) if len(text) >= 20 else ""


__all__ = ["findings"]
