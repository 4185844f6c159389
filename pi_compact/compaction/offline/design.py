"""A design choice the agent states while it works: where a thing goes, a label naming the approach, a table of
choices with their reasons, a list of the choices its report made.

Agents settle most of a design in their work narrative, not in a sentence with "decided" in it: "I'll put the
shared `Store` interface in `internal/store` so both packages can fake it", "The shared types go in `pkg/types`",
"Key design: the daemon owns the socket", a report's "| Decision | Reason |" table or its "Design choices:" list.
The next agent must not move the interface back or reopen the split. A choice is told from a step by what it says:
a thing (a name the code uses: a backticked span, a path, a file, a CamelCase or snake_case name) put in a place, with
the reason or the way passed over; "Let me read `parse.go`" moves nothing, "I'll put a print in `main.go`" gives no
reason. Thinking aloud ("maybe", "I could") and a fragment opening mid-thought are left to :mod:`.decided`'s
filters."""

from __future__ import annotations

import re
from itertools import islice

_NAMED = re.compile(r"`[^`\n]{1,80}`|\b\w{1,40}(?:[./]\w{1,40}){1,6}\b|\b[a-z]{1,30}[A-Z]\w{0,40}|\b[A-Z][a-z]{1,30}[A-Z]\w{0,40}"
                    r"|\b[a-z]{1,30}_\w{1,40}")
"""A name the code uses: ```Store```, ``internal/store``, ``parse.go``, ``newStore``, ``SessionStore``, ``max_retries``."""
_OWN = (r"(?:I'll|I will|we'll|we will|let's|let us|I'm going to|we're going to|I(?:'ve| have)|we(?:'ve| have)|I|we)"
        r"(?:\s{1,3}(?:also|now|just|then|instead))?")
_LEAD = r"(?:(?:ok(?:ay)?|so|then|alright|right|but|and|instead),?\s{1,3})?"
"""Words a course may open on ("OK, I'll …", "But I'll keep …")."""
_PLACING_VERB = (r"(?:put|putting|place[ds]?|placing|keep|kept|keeping|move[ds]?|moving|store[ds]?|storing|extract(?:ed)?"
                 r"|extracting|split|splitting|pull(?:ed)?|pulling|define[ds]?|defining|declare[ds]?|declaring"
                 r"|group(?:ed)?|grouping|colocate[ds]?|consolidate[ds]?|centrali[sz]e[ds]?)")
_PLACED = re.compile(
    rf"^\W{{0,3}}{_LEAD}{_OWN}\s{{1,3}}{_PLACING_VERB}\s"
    r"[^.!?\n]{1,120}?\s(?:in|into|inside|under|to|out of|by|across|next to|alongside|behind)\s",
    re.I)
"""The agent putting a thing in a place, as its course ("I'll put the interface in …", "We've moved the parser into
…", "I'm going to split the module by concern into …"), in English."""
_PLACED_ABROAD = re.compile(
    r"\b(?:vou|vamos|iremos)\s(?:colocar|mover|manter|deixar|separar|extrair|definir|agrupar|pôr)\b"
    r"|\b(?:voy a|vamos a)\s(?:poner|colocar|mover|mantener|dejar|separar|extraer|definir|agrupar)\b"
    r"|\b(?:je vais|nous allons|on va)\s(?:mettre|placer|déplacer|garder|séparer|extraire|définir|regrouper)\b"
    r"|\b(?:ich|wir)\s(?:lege|legen|verschiebe|verschieben|packe|packen|behalte|behalten|trenne|trennen|lagere"
    r"|lagern)\b|\b(?:kommt|kommen|gehört|gehören)\s(?:in|nach)\b"
    r"|に(?:置き|配置し|移し|分け|まとめ|切り出し|移動し)(?:ます|ました)"
    r"|(?:放在|放到|移到|移动到|拆分为|拆分成|拆成|抽取到|提取到|集中到)"
    r"|(?:에|로)\s?(?:두겠|배치하겠|옮기겠|분리하겠|두었|옮겼|분리했)",
    re.I)
"""The same course in Portuguese, Spanish, French, German, Japanese, Chinese and Korean ("Vou colocar … em …", "Je
vais mettre … dans …", "Ich lege … in … ab", "…に置きます", "放在…", "…에 두겠습니다")."""
_GOES = re.compile(
    r"^\W{0,3}(?:the\s{1,3})?[^.!?\n,;:]{1,80}?\s(?:goes|go|belongs?|should (?:go|live|stay)|will (?:go|live|stay)"
    r"|now (?:lives?|goes))\s(?:in|into|under|inside|next to|alongside)\s", re.I)
"""A thing put in its place said of the thing ("The shared types go in `pkg/types`", "`Retry` belongs in the client
package", "The parser will live in `parse.go`"): a placement settled; "lives in" alone describes code found."""
_WHY = re.compile(
    r"\b(?:because|since|so that|instead of|rather than|to avoid|to prevent|to keep|which (?:keeps|lets|means"
    r"|avoids)|so\s(?:that\s)?[\w`' -]{1,60}?\s(?:can(?:not|'t)?|won't|will|stays?|keeps?|don't|doesn't|need(?:s)?"
    r"|agree|share|match(?:es)?|reuse|import|only))\b|,\s{0,2}as\s"
    r"|\b(?:para que|porque|pois|já que|ya que|pour que|afin que|parce que|puisque|damit|weil|um\s\w{1,30}\szu)\b"
    r"|ため|ので|这样|以便|以免|因为|때문|도록|므로", re.I)
"""The reason or the way passed over that makes a placement a choice: "so both packages can fake it", "so the
renderer stays free of IO", "rather than in each caller", "para que", "damit", "ため", "这样", "도록"."""
_MADE = re.compile(
    rf"^\W{{0,3}}{_LEAD}{_OWN}\s{{1,3}}(?:made|make|introduced?|added|add|created?|extracted|extract|defined?)\s[^.!?\n]{{0,80}}?"
    r"\b(?:constant|interface|type|enum|trait|protocol|wrapper|abstraction|base class|helper|setting|option|flag)\b",
    re.I)
"""A constant, interface or type the agent introduced ("I made `MaxRetries` a constant so the tests and the worker
agree", "I've added a `Clock` interface so tests can fix the time"): a choice when said with its reason."""
_SPLIT = re.compile(r"^\W{0,3}(?:split|separate|break up|divide)\s[^.!?\n]{1,60}?\s(?:by|into|across)\s", re.I)
"""A module split said as the design ("Split the module by concern: `parse.go`, `render.go`"): with two names."""
_LABEL = re.compile(
    r"^[*_\s]{0,4}(?:the\s{1,3}|my\s{1,3}|our\s{1,3})?(?:(?:key|main|core|chosen|overall|final)\s{1,3})?"
    r"(?:approach|design|design (?:choice|decision)|architecture|strategy|solution|trade-?off)"
    r"\s{0,2}(?:\*\*\s{0,2}:|:\s{0,2}\*\*|:)\s{0,3}(?=[^\s*])", re.I)
"""A label naming the choice before it ("The approach: wrap the client …", "**Key design:** the daemon owns …",
"Design choice: `Store` is an interface …"); "Plan:" opens steps, not a choice."""
_STEP_AFTER_LABEL = re.compile(r"^\W{0,3}(?:let me|let's|first|now|next|I'll|I will|read|check|look|see|find|run)\b", re.I)
"""What follows a label when it opens steps ("Approach: first read the config, then …")."""


def opens_steps(sentence: str) -> bool:
    """True when ``sentence`` is a label of the approach over steps, not a choice ("Approach: first read …")."""
    label = _LABEL.match(sentence)
    return bool(label and _STEP_AFTER_LABEL.match(sentence[label.end():]))


def states_design(sentence: str) -> bool:
    """True when ``sentence`` (one sentence of the agent's words) states a design choice it made: a thing the code
    names put in a place with its reason, a thing's place settled, or a label naming the approach."""
    label = _LABEL.match(sentence)
    if label:
        return not _STEP_AFTER_LABEL.match(sentence[label.end():])
    if not _NAMED.search(sentence):
        return False
    if _PLACED.match(sentence) or _PLACED_ABROAD.search(sentence) or _MADE.match(sentence):
        return bool(_WHY.search(sentence))
    if _SPLIT.match(sentence):
        return len(_NAMED.findall(sentence)) >= 2
    return bool(_GOES.match(sentence)) and not sentence.lstrip().lower().startswith(("it ", "this ", "that "))


_CHOICE_COLUMN = re.compile(r"^\W{0,3}(?:(?:key|design)\s)?(?:decisions?|choices?|chosen|approach|option chosen|what)\W{0,3}$",
                            re.I)
_REASON_COLUMN = re.compile(r"^\W{0,3}(?:reasons?|rationale|why|because|justification)\W{0,3}$", re.I)
"""The header cells of a table of choices ("| Decision | Reason |", "| Choice | Rationale |", "| What | Why |")."""
_RULE_ROW = re.compile(r"^[\s|:-]{3,}$")
_TABLE_ROWS = 8
"""At most this many choices from one table: a long table is a report to read, the summary keeps its head."""
_CHOICES_HEADING = re.compile(
    r"^\s{0,3}(?:#{1,6}\s{1,3}|\*\*)?(?:(?:key|main|the)\s{1,3})?(?:design (?:choices|notes)|choices made|trade-?offs"
    r"(?: made)?|why this (?:approach|design))\s{0,3}(?:\*\*)?:?\s{0,3}(?:\*\*)?\s{0,3}$", re.I)
"""A heading over a list of the choices a report made ("Design choices:", "## Trade-offs", "**Why this approach**");
"decisions" headings are read by :func:`.rules.listed_decisions`."""
_ITEM = re.compile(r"^\s{0,3}(?:[-*+•]|\d{1,2}[.)])\s{1,3}(\S.{0,300})")
_LISTED = 6


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _table_choices(lines: list[str], header: int) -> list[str]:
    """The rows of the table whose header is ``lines[header]``, each as "choice — reason", when the header names a
    choice column and a reason column."""
    cells = _cells(lines[header])
    choice = next((n for n, cell in enumerate(cells) if _CHOICE_COLUMN.match(cell)), None)
    reason = next((n for n, cell in enumerate(cells) if _REASON_COLUMN.match(cell)), None)
    if choice is None or reason is None or header + 1 >= len(lines) or not _RULE_ROW.match(lines[header + 1]):
        return []
    found = []
    for line in lines[header + 2: header + 2 + _TABLE_ROWS]:
        if not line.lstrip().startswith("|"):
            break
        row = _cells(line)
        if len(row) > max(choice, reason) and row[choice] and row[reason]:
            found.append(f"{row[choice]} — {row[reason]}")
    return found


def listed_designs(text: str) -> list[str]:
    """The choices ``text`` lists: the rows of a table of choices with their reasons, and the items under a heading of
    design choices (the first line of each, at most :data:`_LISTED` per list)."""
    lines = text[:50_000].splitlines()
    found: list[str] = []
    for at, line in enumerate(lines):
        if line.lstrip().startswith("|") and line.count("|") >= 3:
            found += _table_choices(lines, at)
        elif _CHOICES_HEADING.match(line):
            items = []
            for below in islice(lines, at + 1, None):  # no copy of the rest per heading
                if not below.strip():
                    if items:
                        break
                    continue
                item = _ITEM.match(below)
                if not item or len(items) >= _LISTED:
                    break
                items.append(item.group(1).strip())
            found += [item for item in items if len(item) >= 12]
    return found
