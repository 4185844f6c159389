"""The user's pick of an option the agent laid out under labels, each label on its own line and its text below it.

"**案2（時系列を意識）:**" then "> のちに合同会社…を共同創業し…", "**Option B (footnote):**" then a paragraph, "### 方案 2" then
lines: the agent offers wordings or designs to choose from, and the user answers with the key alone ("2がいいかな。",
"B", "opção 2", "2번으로", "选2吧"). What the user chose is the label (its gloss names the idea) with the text
under it. A reply that asks back ("B, what would the text be?") or says more than a pick is no pick here (the
requests read it)."""

from __future__ import annotations

import re

from .text import clip_words

_LABEL = re.compile(r"^\W{0,6}(?:option|choice|variant|approach|strategy|solution|alternative|opção|opcao|opción"
                    r"|variante|案|옵션|안|选项|方案|版本)\s{0,2}"
                    r"([A-Ha-h]|[1-9])(?![A-Za-z0-9])\s{0,2}(?:[(（][^)）\n]{1,60}[)）]|(?:[:：]|[—–-](?=\s))\s{0,2}[^:：\n]{1,60})?"
                    r"\W{0,4}$", re.I)
"""A line that is a label only: "**案2（時系列を意識）:**", "### Option B (footnote)", "方案 2：", "**Approach C —
Co-located suites** ✅ Recommended" (its text is below)."""
_PICK = re.compile(
    r"^\W{0,3}(?:(?:yes|yeah|yep|ok(?:ay)?|sure)\b[\s,.!;:—–-]{1,4})?(?:(?:let'?s\s{1,3})?(?:go with|go for|pick|take|use)\s{1,3}|vamos com\s{1,3}|me quedo con\s{1,3}"
    r"|nehmen wir\s{1,3}|je prends\s{1,3}|选\s{0,2})?"
    r"(?:option|choice|variant|opção|opcao|opción|variante|案|옵션|选项|方案)?\s{0,2}([A-Ha-h]|[1-9])\s{0,2}(?:案|番|번|号)?"
    r"(?![A-Za-z0-9.,:/-])\s{0,2}(?:がいい|が良い|がよい|がベスト|で(?:お願い|いこう|行こう|進め)?|にし|(?:으로|로|가|이)\s{0,2}(?:좋|하|갑)"
    r"|吧|好|please|pls|is (?:best|fine|good)|for now|por favor|bitte|s'il te plaît)?([^?？\n]{0,14})$", re.I)
"""A reply that is a pick by key, with a few words of assent after it at most ("2がいいかな。", "B please", "选2吧")."""
_OPTION_CHARS = 200


def labelled(answer: str) -> dict[str, str]:
    """The options of the answer's last run of labels, by key (``2``, ``b``): each label with the text under it."""
    options: dict[str, str] = {}
    key, label, body = "", "", []
    for line in [*answer[-6000:].splitlines(), "\0"]:
        found = _LABEL.match(line.replace("**", "").strip()) if line != "\0" else None
        if found or line == "\0":
            if key and body:
                options[key] = f"{label}: {' '.join(body)}"
            if found:
                label = line.replace("**", "").strip().lstrip("#").strip().rstrip(":：").strip()  # (no heading mark)
                key, body = found.group(1).lower(), []
                options = {} if key in ("1", "a") else options  # a list starts: the options are the last list
            continue
        text = line.strip().lstrip(">").strip()
        if key and text and not text.startswith(("#", "|", "```")) and len(body) < 4:
            body.append(text)
        elif key and body and not text:
            options[key], key, body = f"{label}: {' '.join(body)}", "", []  # the text ends at a blank line
    return options


def picked_labelled(answer: str, reply: str) -> str:
    """``The user chose <label>: <text>`` for the labelled option of ``answer`` that ``reply`` picks by its key;
    ``""`` when the reply is no bare pick or the answer lays out fewer than two labelled options."""
    pick = _PICK.match(" ".join(reply.split()))
    options = labelled(answer)
    if not pick or len(options) < 2 or pick.group(1).lower() not in options:
        return ""
    return clip_words(f"The user chose {options[pick.group(1).lower()]}", _OPTION_CHARS)


_NUMBERED = re.compile(r"^\s{0,3}(?:\*\*)?\s{0,2}([1-9])[.)](?:\*\*)?\s{1,3}(\S[^\n]{2,300})$")
"""An item of a numbered list the agent laid out ("1. **Merge main into the PR branch** - …", "**2. Rebase**")."""
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "1st": "1", "2nd": "2", "3rd": "3",
             "primeira": "1", "segunda": "2", "terceira": "3", "primera": "1", "tercera": "3", "première": "1",
             "premier": "1", "seconde": "2", "troisième": "3", "erste": "1", "zweite": "2", "dritte": "3"}
_EMBEDDED = re.compile(
    r"(?:\b(?:option|choice|variant|approach|opção|opcao|opción|variante|number|no\.|nº)\s{0,2}#?\s{0,2}([1-9]|(?-i:[A-H])(?![\w'-]))"
    r"|#([1-9])|(?:方案|选项|案|옵션)\s{0,2}([1-9])|([1-9])\s{0,2}(?:番|번|号|案)"
    r"|\b(?:go with|go for|pick|choose|take|do|try|use|let'?s do)\s{1,3}([1-9])(?=\s{0,2}(?:$|[,.!;:]|and\b|then\b"
    r"|please\b|pls\b|for now\b))"
    r"|^\W{0,3}([1-9])\s{0,2}(?:で(?:お願い|いこう|行こう|進め|やって)|(?:으로|로)\s{0,2}(?:해|하|가|갑|부탁)|吧)"
    r"|\bthe\s{1,3}(first|second|third|fourth|fifth|1st|2nd|3rd)\s{1,3}(?:one|option|approach|way|choice)\b"
    r"|\b(?:a|la|o|le|die|das|den)\s{1,3}(primeira|segunda|terceira|primera|tercera|première|premier|seconde"
    r"|troisième|erste|zweite|dritte)\s{1,3}(?:opção|opción|option|variante|Option))(?![0-9])", re.I)
"""A pick of a numbered option inside a request for the work: "can you fix option 1", "go with 2 and fix it",
"1でお願い、直して", "the second one", "方案2", "2番"; not a count ("fix 2 files": no pick word)."""
_NOT_PICKED = re.compile(r"(?:\b(?:not|no|don'?t|skip|without|instead of|rather than|never ?mind|forget)\W{1,3}"
                         r"(?:\w{1,10}\s{1,3}){0,2}$|(?:じゃなく|ではなく|말고|不要|不是)\s{0,2}$)", re.I)
"""Words just before a pick that take it back or turn it down ("not option 1", "skip #2", "forget option 1")."""
_TAKEN_BACK = re.compile(r"\b(?:never ?mind|forget (?:it|that)|scratch that|on second thought|actually,? no)\b"
                         r"|やっぱり(?:やめ|いい)|算了|됐어", re.I)
_NUMBERED_THING = re.compile(r"\b(?:PR|pull request|pull|issue|ticket|bug|step|task|item)\s{0,2}$", re.I)
""""PR #5", "issue #2": a number of a thing, not of an option."""
_MENTIONS = 6


def numbered(answer: str) -> dict[str, str]:
    """The items of the answer's last numbered list, by number: each with its text on its line."""
    options: dict[str, str] = {}
    for line in answer[-6000:].splitlines():
        item = _NUMBERED.match(line)
        if item:
            options = {} if item.group(1) == "1" else options  # a list starts: the options are the last list
            options[item.group(1)] = item.group(2).replace("**", "").strip()
    return options


def picked_in_request(answer: str, reply: str) -> str:
    """``The user chose option N: <text>`` for the one numbered or labelled option of ``answer`` that the request
    ``reply`` picks in its words ("can you fix option 1"); ``""`` when it picks none, several, or takes its pick back,
    or the answer lists fewer than two options."""
    said = " ".join(reply.split())[:600]
    options = labelled(answer)
    named = bool(options)  # a label names its option ("Option B (footnote)"); a list item has only its number
    options = options or numbered(answer)
    if len(options) < 2 or _TAKEN_BACK.search(said):
        return ""
    picks = set()
    for found in list(_EMBEDDED.finditer(said))[:_MENTIONS]:
        key = next(group for group in found.groups() if group).lower()
        before = said[max(0, found.start() - 30) : found.start()]
        if not _NOT_PICKED.search(before) and not (found.group(2) and _NUMBERED_THING.search(before)):
            picks.add(_ORDINALS.get(key, key))
    if len(picks) != 1 or (key := picks.pop()) not in options:
        return ""
    chosen = options[key] if named else f"option {key}: {options[key]}"
    return clip_words(f"The user chose {chosen}", _OPTION_CHARS)
