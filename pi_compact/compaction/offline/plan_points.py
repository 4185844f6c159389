"""The choices and limits a written plan states in its structure, not in sentences of choosing.

A plan the user hands over ("Implement the following plan: # Plan: …") or the agent writes settles much of the work
in forms no sentence rule reads: a table that maps each thing to the image, version or backend chosen for it
("| Service | image | port |"), steps that replace one name with another ("Replace `a_endpoint` with
`a_manager`"), a labelled design point ("**Two-pass approach**: first …", "- Dynamic port: pass …"), and a list of
what is out of scope or a non-goal. The next agent must not swap the images back or widen the scope. Each form is
kept compact: a table as one line grouped by the value chosen, replacements as pairs of names, labelled points
clipped, a scope list as one line, with a cap on each.

Sentence-level forms of a plan's limits ("X is out of scope", "If Docker is unavailable, fall back to …", "**Keep**
…") are read by :func:`plan_rule`, which :func:`.rules.stated_rule` consults for every user sentence."""

from __future__ import annotations

import re

from .text import clip_words

_PLAN_MARK = re.compile(
    r"^\s{0,3}#{1,4}\s{1,3}[^\n]{0,60}?\bplan\b|\bimplement\s{1,3}(?:the\s{1,3}following|this)\s{1,3}plan\b"
    r"|^\s{0,3}#{1,4}\s{1,3}(?:approach|design|architecture|implementation|out of scope|non-?goals)\b",
    re.I | re.M)
"""What marks a text as a plan: a heading that names one ("# Plan: …", "## Implementation plan"), the words that hand
one over, or a plan's own section heading."""
_HANDED_OVER = re.compile(r"\b(?:implement|execute|carry out)\s{1,3}(?:the\s{1,3}following|this|the)\s{1,3}plan\b"
                          r"|\A\s{0,40}#{1,3}\s{1,3}[^\n]{0,60}?\bplan\b", re.I)
"""A text handed over as a plan: the words that hand it over, or a plan's title at its very top ("# Plan: …")."""
_PLAN_HEAD = 3_000
"""Where the mark is looked for: a plan says so at its top."""
_READ = 50_000

# -- tables that map things to the chosen ---------------------------------------------------------------------------

_CHOSEN_COLUMN = re.compile(
    r"^\W{0,3}(?:(?:base|docker|container)\s)?(?:image|images|version|versions|backend|backends|engine|engines"
    r"|library|libraries|driver|drivers|database|db|model|models|runtime|runtimes|provider|providers|framework"
    r"|frameworks|package|packages|tool|tools|technology|tech|stack|store|storage|broker|choice|chosen|uses?"
    r"|implementation)\W{0,3}$", re.I)
"""A column that holds what was chosen for each row's thing ("image", "version", "backend", "library")."""
_RULE_ROW = re.compile(r"^[\s|:-]{3,}$")
_TABLE_ROWS = 12
_TABLE_CHARS = 240


def _cells(line: str) -> list[str]:
    return [cell.strip().strip("`* ") for cell in line.strip().strip("|").split("|")]


def _mapping(lines: list[str], header: int) -> str:
    """The table whose header is ``lines[header]`` as one line, "column: value for thing, thing; value for …",
    when a column other than the first holds the thing chosen per row (the first names the thing)."""
    cells = _cells(lines[header])
    column = next((n for n, cell in enumerate(cells) if n and _CHOSEN_COLUMN.match(cell)), None)
    if column is None or header + 1 >= len(lines) or not _RULE_ROW.match(lines[header + 1]):
        return ""
    by_value: dict[str, list[str]] = {}
    for line in lines[header + 2: header + 2 + _TABLE_ROWS]:
        if not line.lstrip().startswith("|"):
            break
        row = _cells(line)
        if len(row) > column and row[0] and row[column] and row[column] not in ("—", "-", "n/a", "none"):
            by_value.setdefault(row[column], []).append(row[0])
    if len(by_value) < 2:
        return ""  # one value for every row chooses nothing between things
    said = "; ".join(f"{value} for {', '.join(things)}" for value, things in by_value.items())
    return clip_words(f"{cells[column]} per {cells[0].lower() or 'item'}: {said}", _TABLE_CHARS)


# -- replacements ---------------------------------------------------------------------------------------------------

_REPLACE = re.compile(r"^\W{0,3}(?:replace|swap|switch)\s{1,3}`([^`\n]{1,80})`(?:\s{0,2}/\s{0,2}`([^`\n]{1,80})`)?"
                      r"\s{1,3}(?:with|by|for|to)\s{1,3}`([^`\n]{1,80})`(?:\s{0,2}/\s{0,2}`([^`\n]{1,80})`)?", re.I)
"""A plan's step that replaces one name with another ("Replace `a: str` with `b: Manager` on `Config`",
"Replace `x`/`y` with `x_m`/`y_m`")."""
_PAIRS = 4
_PAIRS_CHARS = 240


def _name(span: str | None) -> str:
    """A backticked span's name: ``a: str | None = None`` names ``a``."""
    return re.split(r"[:=(\s]", span or "", maxsplit=1)[0]


def _replacements(lines: list[str]) -> str:
    pairs: dict[str, None] = {}
    for line in lines:
        step = _REPLACE.match(line.strip())
        if not step:
            continue
        old = "/".join(filter(None, (_name(step.group(1)), _name(step.group(2)))))
        new = "/".join(filter(None, (_name(step.group(3)), _name(step.group(4)))))
        if old and new and old != new:
            pairs[f"`{old}` → `{new}`"] = None
        if len(pairs) >= _PAIRS:
            break
    return clip_words("Replaced in the plan: " + ", ".join(pairs), _PAIRS_CHARS) if pairs else ""


# -- labelled design points -----------------------------------------------------------------------------------------

_BOLD_WAY = re.compile(
    r"^\s{0,3}(?:[-*+]|\d{1,2}[.)])?\s{0,3}\*\*([^*\n]{2,50}?\s(?:approach|strategy|design|model|pattern|scheme))"
    r"(?:\*\*\s{0,2}[:—–-]|\s{0,2}[:—–-]\s{0,2}\*\*|\s{0,2}:\s{0,2}([^*\n]{3,120})\*\*)\s{0,3}(.*)$", re.I)
"""A design point labelled in bold by the way it takes ("**Two-pass approach**: first …", "**Container strategy:
warm containers**")."""
_DESIGN_HEADING = re.compile(r"^\s{0,3}#{1,6}\s{1,3}(?:\d{1,2}[.)]\s{1,3})?(?:approach|design|architecture"
                             r"|technical (?:approach|design)|how it works|implementation)\b", re.I)
_ANY_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s")
_LABELLED = re.compile(r"^\s{0,3}[-*+]\s{1,3}([A-Z][a-z]{2,20}(?:\s[a-z]{2,20}){1,2}):\s{1,3}(\S[^`\n]{0,120}`.{3,})$")
"""A point under a design heading labelled by plain words, whose value names code ("- Dynamic port: pass `ports=…`",
"- Container name: `lws-{id}`"); not a one-word label, a step's verb or a note ("- Add: `KEY`", "- Note: …"), nor one labelled by a name the code uses ("- `start()`: …": a step on that
name), nor one that names no code ("- Delete handlers: stop the container": a step)."""
_LABELLED_MOST = 2
_POINTS = 4
_POINT_CHARS = 220
_ASIDE = re.compile(r"\s{0,2}\([^()\n]{20,300}\)")
"""A long parenthesis inside a point: detail that the point reads without ("(from ConditionCheck items AND …)")."""


def _design_points(lines: list[str]) -> list[str]:
    found: list[str] = []
    design_level = 0  # the level of the design heading the lines are under, 0 when none
    labelled = 0
    labels: set[str] = set()
    for line in lines:
        heading = _ANY_HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            if _DESIGN_HEADING.match(line):
                design_level = level
            elif design_level and level <= design_level:
                design_level = 0
            continue
        way = _BOLD_WAY.match(line)
        if way and way.group(1).strip().lower() in labels:
            continue  # ("**Reusable Pattern**: Based on …" under every component: the way said once)
        if way:
            labels.add(way.group(1).strip().lower())
            said = f"{way.group(1).strip()}: {(way.group(2) or '') + ' ' + way.group(3)}".replace("**", "")
            found.append(clip_words(_ASIDE.sub("", " ".join(said.split())), _POINT_CHARS))
        elif design_level and labelled < _LABELLED_MOST and (point := _LABELLED.match(line)):
            labelled += 1
            found.append(clip_words(_ASIDE.sub("", f"{point.group(1)}: {point.group(2)}"), _POINT_CHARS))
        if len(found) >= _POINTS:
            break
    return found


# -- sections of choices -------------------------------------------------------------------------------------------

_CHOICE_HEADING = re.compile(
    r"^\s{0,3}(?:#{1,6}\s{1,3}|\*\*)(?:\d{1,2}[.)]\s{1,3})?(?:(?:the|our|chosen|proposed|recommended|technical"
    r"|high[- ]level|overall)\s{1,3})?(?:approach|design|architecture|solution|strategy"
    r"|(?:(?:key|main|design|architectural|technical)\s{1,3})?decisions?)\b[^\n]{0,60}$", re.I)
"""A section that states the way the work takes ("## Approach", "## Proposed Solution", "### Decision", "**Design:**",
"## Key decisions"); not one of the starting state ("## Problem", "## Context") nor of steps ("## Implementation")."""
_DECISION_WORD = re.compile(r"decisions?\b", re.I)
"""A decisions section's list is read by :func:`.rules.listed_decisions`: here only its sentences outside a list."""
_CHOICE_WORD = re.compile(
    r"\b(?:use|uses|using|instead of|rather than|keep|keeps|behind|via|replace|replaces|switch to|adopt|prefer"
    r"|choose|chose|go with|no longer|without|reuse|reuses)\b", re.I)
"""A word by which a line states a choice ("use SQLite instead of JSON files", "keep the old API behind a flag"),
preferred over a line that only describes ("The store has two layers")."""
_LIST_LINE = re.compile(r"^\s{0,12}(?:[-*+\u2022]|\d{1,2}[.)])\s{1,3}(\S.*)$")
_BOXED = re.compile(r"\[[ xX]\]\s")
_STEP_LABEL = re.compile(r"^[^\s:`]{1,30}(?:\s[^\s:`]{1,30}){0,3}:\s")
"""A point opened by a short label ("Identify candidates: Query …", "Where: …"): a labelled step or note, read by
:func:`_design_points` when it is a design point, not a sentence of choosing."""
_FIRST_SENTENCE = re.compile(r"(?<=[^\s.][.!?])\s{1,3}(?=[A-Z`*])")
_SECTION_CHOICES = 3
_SECTION_CHOICE_CHARS = 200


def _first_sentence(line: str) -> str:
    """A line's first sentence, markup of emphasis removed: the shortest complete form of what it chose."""
    said = " ".join(line.replace("**", "").replace("__", "").split())
    return _FIRST_SENTENCE.split(said, maxsplit=1)[0]


def _section_choices(lines: list[str]) -> list[str]:
    """The choices stated under a plan's approach, design or decision headings (:data:`_CHOICE_HEADING`): each list
    item's or paragraph line's first sentence that has a word of choosing (:data:`_CHOICE_WORD`), a few at most. Labelled design
    points are :func:`_design_points`' ; a line ending on a colon opens a list; code blocks and tables are not read."""
    found: list[tuple[bool, int, str]] = []
    level = 0  # the level of the choice heading the lines are under, 0 when none (a bold label: 7, to its end)
    lists = True  # the section's list items are read (not a decisions heading's: rules.listed_decisions reads them)
    fenced = False
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        heading = _ANY_HEADING.match(line)
        if fenced or (heading and level and len(heading.group(1)) > level):
            continue  # (a subsection of the choices goes on with them)
        if heading or _CHOICE_HEADING.match(line):
            chosen = _CHOICE_HEADING.match(line)
            level = (len(heading.group(1)) if heading else 7) if chosen else 0
            lists = not (chosen and _DECISION_WORD.search(line))
            continue
        item = _LIST_LINE.match(line)
        text = item.group(1) if item else line.strip()
        if _BOXED.match(text) or _STEP_LABEL.match(text.replace("**", "")):
            continue  # a checklist item is a task, done or left, not a choice
        if not level or not text or (item and not lists) or text.startswith("|") or _BOLD_WAY.match(line) \
                or _LABELLED.match(line) or line.rstrip().endswith(":") or line.startswith((" ", "\t")) and item:
            continue
        said = _first_sentence(text)
        if len(said) >= 15 and _CHOICE_WORD.search(said) and not said.endswith(("?", "？")) \
                and not plan_rule(said) and not _REPLACE.match(said):  # (a rule, a replacement: read elsewhere)
            found.append(clip_words(said, _SECTION_CHOICE_CHARS))
        if len(found) >= _SECTION_CHOICES:
            break
    return found


def approach_choices(text: str) -> list[str]:
    """The choices under the approach or design headings of ``text`` (:func:`_section_choices`), for a plan known to
    be one (the agent's plan the user approved), whatever its title."""
    return _section_choices(text[:_READ].splitlines())


# -- scope --------------------------------------------------------------------------------------------------------

_SCOPE_HEADING = re.compile(r"^\s{0,3}(?:#{1,6}\s{1,3}|\*\*)?(?:out[- ]of[- ]scope|non-?goals?|not in scope"
                            r"|explicitly out of scope|what we (?:won'?t|will not) do|not doing)\s{0,3}(?:\*\*)?:?"
                            r"\s{0,3}(?:\*\*)?\s{0,3}$", re.I)
_ITEM = re.compile(r"^\s{0,3}(?:[-*+•]|\d{1,2}[.)])\s{1,3}(\S.{0,200})")
_SCOPE_ITEMS = 5
_SCOPE_CHARS = 240


def scope_lists(text: str) -> list[str]:
    """The lists under an "Out of scope" or "Non-goals" heading of ``text``, each as one line."""
    lines = text[:_READ].splitlines()
    found = []
    for at, line in enumerate(lines):
        if not _SCOPE_HEADING.match(line):
            continue
        items: list[str] = []
        for below in lines[at + 1: at + 40]:
            if not below.strip():
                if items:
                    break
                continue
            item = _ITEM.match(below)
            if not item:
                break
            items.append(item.group(1).replace("**", "").strip())
            if len(items) >= _SCOPE_ITEMS:
                break
        if items:
            found.append(clip_words("Out of scope: " + "; ".join(items), _SCOPE_CHARS))
    return found


def is_plan(text: str) -> bool:
    return bool(_PLAN_MARK.search(text[:_PLAN_HEAD]))


def plan_choices(text: str) -> list[str]:
    """The choices a plan in ``text`` states by its structure (see the module): mapping tables, replacements,
    labelled design points; when it states none so and is handed over as a plan (:data:`_HANDED_OVER`: an agent's
    answer with a "## Design" heading is a report or a discussion, its lines no choices made), the lines under its
    approach or design headings. Nothing when ``text`` is not a plan (a report's table of versions found is no choice)."""
    if not is_plan(text):
        return []
    lines = text[:_READ].splitlines()
    found = [mapped for at, line in enumerate(lines)
             if line.lstrip().startswith("|") and line.count("|") >= 3 and (mapped := _mapping(lines, at))][:2]
    found += [replaced for replaced in (_replacements(lines),) if replaced]
    found += _design_points(lines)
    return found or (_section_choices(lines) if _HANDED_OVER.search(text[:_PLAN_HEAD]) else [])


# -- sentences that state a plan's limit ---------------------------------------------------------------------------

_OUT_OF_SCOPE = re.compile(r"\b(?:is|are|stays?|remains?|left|kept|considered)\s{1,3}(?:\w{1,12}\s{1,3})?"
                           r"(?:out[- ]of[- ]scope|not in scope|a non-?goal|non-?goals)\b|^\W{0,3}out of scope:\s", re.I)
"""A thing put outside the work: "Glacier and S3 Tables are out of scope", "Windows support stays out of scope"."""
_FALLBACK = re.compile(
    r"^\W{0,3}(?:if|when|where)\s{1,3}(?!(?:i|we|you)\b)[^.;!?\n]{1,60}?\b(?:is\s{1,3}|are\s{1,3})?(?:not\s{1,3}(?:available|installed"
    r"|running|reachable|present|found|pulled|configured|set)|unavailable|missing|absent|unreachable|down|offline)\b"
    r"[^.;!?\n]{0,40}?(?:,|→|->|—|:|\bthen\b)\s{0,3}\S", re.I)
"""A fallback rule: what the work does when a thing it relies on is missing ("If Docker is unavailable, return None
and use a synthetic endpoint", "When the key is not set → skip the upload")."""
_KEEP_STEP = re.compile(r"^\W{0,3}\*\*(?:keep|preserve|retain|leave)\s[^*\n]{3,80}\*\*\s{0,3}(?:[—–:-]|$)", re.I)
"""A plan's step titled by what it keeps ("**Keep special code in conftest.py** — the checks stay")."""


REQUIREMENT_NAMES = (r"(?:(?:key|hard|user|the user'?s?|our|design|project|technical|non-functional|functional"
                     r"|core)\s{1,3}){0,2}(?:requirements?|constraints?|rules|ground rules|guardrails|invariants"
                     r"|priorities|non-negotiables|must[- ]haves|principles|the user wants(?:\s{1,3}to)?"
                     r"|user wants(?:\s{1,3}to)?)")
"""The names of a list of what the work must keep to ("Constraints", "User Priorities", "The user wants to")."""
_REQUIREMENTS_SAID = re.compile(rf"^{REQUIREMENT_NAMES}\s{{0,2}}:\s", re.I)
"""A line that gives such a list's items after its name (:func:`.plan_sections.requirement_lists` writes them so)."""


def plan_rule(sentence: str) -> bool:
    """True when ``sentence`` states a limit a plan sets: a thing out of scope, a fallback when a thing relied on
    is missing, a step that keeps something as it is, a list of requirements by its name (those bind as long as
    the plan's work goes on, not only for the request that handed it over)."""
    said = sentence.strip()
    return bool(_OUT_OF_SCOPE.search(said) or _FALLBACK.match(said) or _KEEP_STEP.match(said)
                or _REQUIREMENTS_SAID.match(said))


__all__ = ["REQUIREMENT_NAMES", "approach_choices", "is_plan", "plan_choices", "plan_rule", "scope_lists"]
