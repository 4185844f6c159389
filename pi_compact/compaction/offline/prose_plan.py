"""A plan the agent states in its own words and then carries out: which of its parts are done, which are left.

Agents often plan in prose, not with a task tool: "Let me add the safety check. I'll need to: 1. Add a `--force`
flag 2. Create a helper … 3. Check timestamps before overwriting", then edit and run commands. When the region ends
mid-work, the agent's last words name the part it is on; the parts after it are the rest of the work, which
nothing else names. A part counts as done when what came after the plan shows it: a file it names was changed, a
name it quotes comes up in a later command or in the agent's later words, or the agent's later words say most of
its words again ("Now let me add helper functions for the timestamp extraction"). Agents carry a plan out in its
order, so every part before the last one shown done is done too; the parts after it are left.
"""

from __future__ import annotations

import re

from .text import clip_words, sentences

_INTRO = re.compile(
    r"^\W{0,3}(?:(?:now|next|first|so|ok(?:ay)?|then),?\s{1,3})?(?:i'll|i will|i need to|i'll need to|i have to"
    r"|i'm going to|let me|let's|we'll|we need to|we have to|the plan(?: is)?|my plan(?: is)?|here'?s (?:the|my) plan"
    r"|plan|steps?|to do this)\b[^\n]{0,120}:$", re.I)
"""The sentence that opens the agent's own plan ("I'll need to:", "Here's my plan:", "Let me: …")."""
_ITEM = re.compile(r"^[ \t]{0,3}(?:\d{1,2}[.)]|[-*•])[ \t]{1,4}(\S[^\n]{0,400})$")
_INLINE = re.compile(r"(?:^|[\s,;])\(?(\d{1,2})[.)][ \t]{1,3}")
"""A part numbered inside a sentence ("I'll: 1. add the payload, 2. mark code, 3. …")."""
_PARTS = 10
_LIST_LINES = 60
"""A plan's list is read this far below its intro (each intro scans its own list only: linear in the text)."""
_PATH = re.compile(r"(?<![\w/.-])([\w.@-]{0,80}(?:/[\w.@-]{1,80}){0,8}\.[A-Za-z]{1,6})(?![\w/])")
_SOURCE = re.compile(r"\.(?:py|pyi|js|jsx|ts|tsx|mjs|cjs|go|rs|rb|java|kt|swift|c|h|cc|cpp|hpp|cs|php|css|scss|html"
                     r"|vue|svelte|md|json|ya?ml|toml|sql|sh)$", re.I)
_TICKED = re.compile(r"`([^`\n]{2,80})`")
_WORD = re.compile(r"[^\W\d_]{3,}")
_STOP = frozenset("the and for with that this then into from each per its all any new add use make sure also them"
                  " there their when what which have has will should need needs".split())
_SAID_AGAIN = 0.5
"""A later text of the agent's that holds this share of a part's words says it is doing or did that part."""
_SHOWN = 4
_PART_CHARS = 120


def plan_parts(text: str) -> tuple[str, list[str]]:
    """The plan ``text`` states: ``(its intro sentence, its parts)``; ``("", [])`` when it states none. The parts
    are the list items under an intro line (:data:`_INTRO`), or the numbered parts that follow the intro's colon in
    the same paragraph."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        said = sentences(line.strip().replace("**", ""))
        head, colon, rest = line.partition(":")
        if said and _INTRO.match(said[-1]) and line.rstrip().endswith(":"):
            parts = []
            for item in lines[number + 1:number + 1 + _LIST_LINES]:
                found = _ITEM.match(item)
                if found:
                    parts.append(found.group(1).strip())
                elif item.strip() and not item.startswith((" ", "\t")) or (not item.strip() and parts):
                    break
            if len(parts) >= 2:
                return said[-1], parts[:_PARTS]
        elif colon and _INTRO.match(f"{sentences(head.strip())[-1] if sentences(head.strip()) else ''}:"):
            parts = _inline(rest)
            if len(parts) >= 2:
                return sentences(head.strip())[-1] + ":", parts[:_PARTS]
    return "", []


def _inline(rest: str) -> list[str]:
    """The parts numbered 1, 2, 3 … in order in ``rest`` (the words after an intro's colon)."""
    marks = [found for found in _INLINE.finditer(rest[:3000])]
    kept, expected = [], 1
    for found in marks:
        if int(found.group(1)) == expected:
            kept.append(found)
            expected += 1
    if len(kept) < 2:
        return []
    spans = [(mark.end(), kept[n + 1].start() if n + 1 < len(kept) else len(rest)) for n, mark in enumerate(kept)]
    return [rest[start:end].strip(" ,;.\n") for start, end in spans]


def _words(text: str) -> set[str]:
    return {word[:5] for word in _WORD.findall(text.lower()[:5_000]) if word not in _STOP}


def _shown_done(part: str, later: list[str], changed: tuple[str, ...], ran: tuple[str, ...]) -> bool:
    """What came after the plan shows ``part`` done or under way (see the module docstring)."""
    names = {path.rsplit("/", 1)[-1] for path in _PATH.findall(part) if _SOURCE.search(path)}
    if names and any(path.rsplit("/", 1)[-1] in names for path in changed):
        return True
    ticked = [name for name in _TICKED.findall(part) if not _SOURCE.search(name)]
    if any(name in text for name in ticked for text in (*later, *ran)):
        return True
    wanted = _words(part)
    return len(wanted) >= 2 and any(len(wanted & _words(text)) >= _SAID_AGAIN * len(wanted) for text in later)


def plan_progress(texts: tuple[str, ...], changed: tuple[str, ...], ran: tuple[str, ...], working: bool = False) -> str:
    """The step for the plan the agent stated in prose in one of its ``texts`` (the latest turn's, in order) and
    went on to carry out (texts after it, files ``changed``, commands ``ran``): its parts done, then those left as
    the rest of the work. ``""`` when no text before the last states a plan (the last one too when the agent was
    ``working`` after it: its calls came after its words), or every part is shown done."""
    for number in range(len(texts) - (1 if working else 2), -1, -1):
        intro, parts = plan_parts(texts[number])
        if parts:
            break
    else:
        return ""
    later = list(texts[number + 1:])
    shown = [n for n, part in enumerate(parts) if _shown_done(part, later, changed, ran)]
    upto = shown[-1] + 1 if shown else 0
    left = parts[upto:]
    if not left:
        return ""
    done = "; ".join(f"{n + 1}. {clip_words(part, _PART_CHARS)}" for n, part in enumerate(parts[:upto][-_SHOWN:]))
    rest = "; ".join(f"{upto + n + 1}. {clip_words(part, _PART_CHARS)}" for n, part in enumerate(left[:_SHOWN]))
    more = f"; and {len(left) - _SHOWN} more" if len(left) > _SHOWN else ""
    so_far = f"; done so far: {done}" if done else "; none of its parts is shown done yet"
    return f"Left of the plan the agent stated (“{clip_words(intro, _PART_CHARS)}”): {rest}{more}{so_far}."


__all__ = ["plan_parts", "plan_progress"]
