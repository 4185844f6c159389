"""The user's pick of an option the agent laid out under labels, each label on its own line and its text below it.

"**案2（時系列を意識）:**" then "> のちに合同会社…を共同創業し…", "**Option B (footnote):**" then a paragraph, "### 方案 2" then
lines: the agent offers wordings or designs to choose from, and the user answers with the key alone ("2がいいかな。",
"B", "opção 2", "2번으로", "选2吧"). What the user chose is the label (its gloss names the idea) with the text
under it. A reply that asks back ("B, what would the text be?") or says more than a pick is no pick here (the
requests read it)."""

from __future__ import annotations

import re

from .text import clip_words

_LABEL = re.compile(r"^\W{0,6}(?:option|choice|variant|opção|opcao|opción|variante|案|옵션|안|选项|方案|版本)\s{0,2}"
                    r"([A-Ha-h]|[1-9])(?![A-Za-z0-9])\s{0,2}(?:[(（][^)）\n]{1,60}[)）]|[:：]\s{0,2}[^:：\n]{1,40})?\W{0,4}$", re.I)
"""A line that is a label only: "**案2（時系列を意識）:**", "### Option B (footnote)", "方案 2：" (its text is below)."""
_PICK = re.compile(
    r"^\W{0,3}(?:(?:let'?s\s{1,3})?(?:go with|go for|pick|take|use)\s{1,3}|vamos com\s{1,3}|me quedo con\s{1,3}"
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
                key, label, body = found.group(1).lower(), line.replace("**", "").strip().rstrip(":：").strip(), []
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
