"""An intention the agent later set aside: the summary says it as history with the way that replaced it.

"Let me fix this by adding a deprecated field with migration in `NormalizeAfterLoad()`." — and later in the region
"instead of adding backward compat migration on the consolidation branch, I created a patch PR on main". Carried as a
decision, the first sends the next agent back the way the agent itself left. An intention (the agent's next move said
as its own: "Let me … by …", "I'll …", "we will …", "Vou …", "…します") is *set aside* when a later sentence of the
agent's says "instead of X" / "rather than X" (:data:`.languages.INSTEAD`) and X shares :data:`_SHARED` content-word
stems with the intention. It becomes ``Was: <intention> — now: “<the later sentence>”``: the next agent needs the new
way, and the old one named so it does not take it again. Findings, agreements, picks and negated intentions are no
intentions here and stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...accessors import content_text
from .facts import message_dicts
from .languages import ANNOUNCE, ANNOUNCE_CLOSING, INSTEAD, any_language, spaced, unspaced
from .text import clip_words, one_line, sentences

_INTENTION = re.compile(
    r"^\W{0,3}(?:(?:ok(?:ay)?|so|then|alright|right|now|first|actually),?\s{1,3})?"
    r"(?:let me|let's|I'll|I will|we'll|we will|I'm going to|we're going to|I am going to|we are going to"
    rf"|{spaced(ANNOUNCE, english=False)})\b|^\W{{0,3}}(?:{unspaced(ANNOUNCE)})",
    re.I)
"""The agent's own next move, said as an intention ("Let me fix this by …", "I'll add …", "Vou adicionar …")."""
_INTENTION_CLOSING = re.compile(ANNOUNCE_CLOSING)
"""The same at a Japanese or Korean sentence's end ("…を追加します。", "…추가하겠습니다.")."""
_NEGATED = re.compile(r"\b(?:not|never|won'?t|don'?t|no longer|não|nunca|nicht|kein\w{0,2}|jamais|pas)\b"
                      r"|しません|しない|않|不|没", re.I)
"""An intention not to do a thing ("I'll not add a migration", "Let's not …"): passing a way over is what it says."""
_PASSED_AFTER = re.compile(r"\b(?:instead of|rather than|em vez de|ao invés de|no lugar de|en lugar de|en vez de"
                           r"|au lieu de|plutôt que|anstatt|statt|anstelle von)\s{1,3}([^,;:.!?\n]{3,120})"
                           r"|(?:而不是|而非|代替|取代)\s{0,2}([^，。；,;.!?\n]{2,60})", re.I)
"""The way passed over when it follows its marker ("instead of adding a migration", "而不是添加迁移")."""
_PASSED_BEFORE = re.compile(r"([^，。、；,;.!?\n]{2,60}?)\s{0,2}(?:ではなく|じゃなく|の代わりに|대신|改为|改成)")
"""The way passed over when it comes before its marker ("移行を追加するのではなく", "마이그레이션 추가 대신", "X改为Y")."""
_ANY_INSTEAD = re.compile(any_language(INSTEAD), re.I)
_LATIN = re.compile(r"[^\W\d_\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af][^\W\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2,}")
_HAN = re.compile(r"[\u3400-\u9fff]{2,}")
_KATAKANA = re.compile(r"[\u30a0-\u30ff]{2,}")
_HANGUL = re.compile(r"[\uac00-\ud7af]{2,}")
_STOP = frozenset("""the and for but not you are was its can now all our out use any has had how who why yes this that
    with from have will would should could then them they there what when which while into also just more only some
    such than very make sure want need like does done your their these those here about after before because being
    other over same still where let's lets instead rather fix fixed fixing add this""".split())
_SHARED = 2
"""Stems the way passed over must share with the intention: one shared word ("the test") is a coincidence."""
_NEWEST = 40
"""The newest decisions checked: a summary shows the last ten (and the check stays linear in the region)."""
_PROBE = 60
_OLD_CHARS, _NEW_CHARS = 90, 150


def stems(text: str) -> set[str]:
    """Content-word stems of ``text``: spaced words by their first five letters, Han runs by their bigrams, a
    katakana word whole, a Hangul word by its first three syllables (its particle left off)."""
    found = {word[:5].lower() for word in _LATIN.findall(text) if word.lower() not in _STOP}
    for run in _HAN.findall(text):
        found |= {run[at : at + 2] for at in range(len(run) - 1)}
    found |= set(_KATAKANA.findall(text))
    found |= {word[:3] for word in _HANGUL.findall(text)}
    return found


def intention(item: str) -> bool:
    """True when the decision ``item`` is the agent's own intention, not negated (no label: a finding, an agreement,
    a pick or a correction the summary labels is no intention)."""
    text = one_line(item).replace("**", "")
    return bool(_INTENTION.match(text) or _INTENTION_CLOSING.search(text.rstrip("…"))) and not _NEGATED.search(text)


def passed_over(sentence: str) -> tuple[str, int]:
    """The way ``sentence`` says it passed over ("instead of X", "Xではなく") and where its words of passing over
    start, or ``("", -1)``."""
    if sentence.endswith(("?", "？")) or not _ANY_INSTEAD.search(sentence) and not _PASSED_BEFORE.search(sentence):
        return "", -1
    found = _PASSED_AFTER.search(sentence) or _PASSED_BEFORE.search(sentence)
    return (next(group for group in found.groups() if group), found.start()) if found else ("", -1)


def _quoted(sentence: str, start: int) -> str:
    """The later sentence for the summary: whole when short; else from its words of passing over on ("Since the field
    was merged today, instead of adding a migration, I created …" keeps "instead of …, I created …")."""
    if len(sentence) <= _NEW_CHARS or start <= 0:
        return clip_words(sentence, _NEW_CHARS)
    return "…" + clip_words(sentence[start:], _NEW_CHARS - 1)


def _setting_aside(messages: Sequence[dict]) -> tuple[str, list[tuple[int, set[str], str]]]:
    """The agent's words as one text, and each sentence in it that passes a way over: ``(offset, stems, sentence)``."""
    joined, found = [], []
    offset = 0
    for message in message_dicts(messages):
        if message.get("role") != "assistant":
            continue
        for sentence in sentences(content_text(message.get("content"))[:20_000]):
            flat = re.sub(r"^(?:[-*+•]\s+|\d+[.)]\s+)", "", one_line(sentence).replace("**", ""))
            way, start = passed_over(flat) if len(flat) <= 400 else ("", -1)
            if way:
                found.append((offset, stems(way), _quoted(flat, start)))
            joined.append(flat)
            offset += len(flat) + 1
    return "\n".join(joined), found


def set_aside(decisions: list[str], messages: Sequence[dict]) -> list[str]:
    """``decisions`` with each intention a later sentence set aside said as ``Was: … — now: “…”`` (or left out when
    that sentence is a decision already)."""
    checked = [at for at in range(max(0, len(decisions) - _NEWEST), len(decisions)) if intention(decisions[at])]
    if not checked:
        return decisions
    joined, asides = _setting_aside(messages)
    if not asides:
        return decisions
    result = list(decisions)
    for at in checked:
        probe = one_line(decisions[at]).replace("**", "").rstrip("…")[:_PROBE]
        said = joined.find(probe)
        wanted = stems(decisions[at])
        later = next((sentence for offset, words, sentence in asides
                      if offset > said >= 0 and len(words & wanted) >= _SHARED), None)
        if later is None:
            continue
        if any(clip_words(later.lstrip("…"), 60).rstrip("…") in other for other in decisions):
            result[at] = ""  # the new way is a decision already: the stale one goes
        else:
            result[at] = (f"Was: {clip_words(decisions[at], _OLD_CHARS)} — now: "
                          f"“{later}”")
    return [decision for decision in result if decision]
