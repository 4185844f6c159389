"""How a thing was settled, said without a word of choosing: the way a failure was fixed, and a thing kept for a stage.

"I'll reduce the complexity by extracting the AND/OR handlers into helpers", "Fixed the flaky test by pinning the
seed": how a failure was fixed is a decision the next agent must not undo (it would put the handlers back, or unpin
the seed). "Keeping the PNG for Phase 1", "The `v1` endpoint stays for now": a thing kept for a stage is settled
until that stage ends. Neither says "decided", nor gives a reason, so :mod:`.decided`'s rules pass them by.

Near-misses left out: a step said with "by" ("Let me start by reading the config", "I'll check it by running the
tests": how the agent looks, not how it fixed), a fix not yet made under a condition or a guess (left to
:mod:`.decided`'s filters), a thing that stays of itself ("the error stays until the cache expires": behaviour
described, no course taken)."""

from __future__ import annotations

import re

from .design import _NAMED

_OWN = (r"(?:(?:ok(?:ay)?|so|then|alright|right|but|and),?\s{1,3})?"
        r"(?:(?:I|we)(?:'ll|\s{1,3}will|'ve|\s{1,3}have|'m going to|'re going to|'m|'re|\s{1,3}am|\s{1,3}are)?\s{1,3}(?:also\s{1,3}|now\s{1,3}"
        r"|then\s{1,3}|just\s{1,3})?)?")
"""The agent's own course, or none ("Fixed … by …" opens on the verb)."""
_FIXING = (r"(?:fix(?:ed)?|resolve[ds]?|solve[ds]?|reduce[ds]?|work(?:ed)? around|address(?:ed)?|avoid(?:ed)?"
           r"|got around|get around|silence[ds]?|satisf(?:y|ied)|cut|lower(?:ed)?|unblock(?:ed)?)")
_LOOKING = (r"(?:read|look|check|inspect|examin|search|grep|run|view|open|explor|investigat|study|review|start"
            r"|begin|understand|verify|confirm|test|see|find|try|trying|trac|debugg|print|log)\w{0,3}ing\b")
"""A gerund that looks rather than fixes ("by reading", "by running the tests", "by checking")."""
_FIX_METHOD = re.compile(
    rf"^\W{{0,3}}(?:{_OWN}|(?:now|next|let me|let's)\s{{1,3}}){_FIXING}\s[^!?\n]{{1,100}}?\sby\s{{1,3}}(?!{_LOOKING})\w{{2,30}}ing\b"
    r"|^\W{0,3}(?:the\s{1,3})?[^!?\n,;:]{1,80}?\s(?:was|were|is|are|got|has been|have been)\s{1,3}"
    rf"{_FIXING}\s{{1,3}}by\s{{1,3}}(?!{_LOOKING})\w{{2,30}}ing\b",
    re.I)
"""A fix said with its way ("I'll reduce complexity by extracting …", "Now fix the C901 issues by extracting helper
functions", "Fixed the race by holding the lock across the write", "The flake was fixed by pinning the seed"), in
English: the agent's announced fix is its course, whatever narrating word opens it."""
_FIX_METHOD_ABROAD = re.compile(
    r"\b(?:corrigi|corrigimos|resolvi|resolvemos|reduzi|reduzimos)\s[^!?\n]{1,100}?\s(?:ao|extraindo|movendo"
    r"|trocando|usando|removendo|adicionando|separando)\b"
    r"|\b(?:corregí|corregimos|resolví|resolvimos|reduje|redujimos)\s[^!?\n]{1,100}?\s(?:al|extrayendo|moviendo"
    r"|cambiando|usando|quitando|añadiendo|separando)\b"
    r"|\b(?:j'ai|nous avons|on a)\s(?:corrigé|résolu|réduit|contourné)\s[^!?\n]{1,100}?\sen\s\w{2,30}ant\b"
    r"|\b(?:behoben|gelöst|reduziert|umgangen),?\sindem\s(?:ich|wir)\b"
    r"|ことで(?:修正|解決|解消|回避|削減)(?:し|しま)"
    r"|通过[^。\n]{1,60}?(?:修复|解决|降低|规避)了?"
    r"|(?:하여|해서|함으로써)\s?(?:수정|해결|줄였|회피)",
    re.I)
"""The same fix with its way in Portuguese, Spanish, French, German, Japanese, Chinese and Korean ("Corrigi o erro
extraindo …", "J'ai corrigé … en extrayant …", "…, indem ich …", "…することで修正しました", "通过…修复了", "…하여
해결했습니다")."""
_STAGE = (r"(?:for\s{1,3}(?:now|the time being|the moment|phase\s{1,3}\d{1,2}|v\d{1,2}|the first (?:pass|version"
          r"|release|phase|iteration)|this (?:PR|release|phase|stage|iteration|version|round|pass))\b|until\s{1,3}\S)")
"""A stage a thing is kept for ("for now", "for Phase 1", "for this PR", "until the encoder lands")."""
_KEPT = re.compile(
    rf"^\W{{0,3}}{_OWN}(?:keep(?:ing)?|leav(?:e|ing)|stick(?:ing)? with)\s{{1,3}}"
    r"(?!(?:it|this|that|them|these|those|an eye|track|in mind|going|looking|trying|\w{2,20}ing)\b)"
    rf"[^!?\n;:]{{1,80}}?\s{_STAGE}",
    re.I)
"""The agent keeping a thing for a stage ("Keeping the PNG for Phase 1", "We'll leave the old route until the
clients move"): not "keep it" (what?), nor "keep looking"."""
_STAYS = re.compile(
    r"^\W{0,3}(?:the\s{1,3})?[^!?\n,;:]{1,60}?\s(?:stays|remains|stay|will stay|will remain|can stay|should stay)"
    r"\s{1,3}(?:as[- ]is\s{1,3}|in place\s{1,3}|unchanged\s{1,3})?(?:for\s{1,3}(?:now|the time being|phase\s{1,3}\d{1,2}"
    r"|v\d{1,2}|this (?:PR|release|phase|stage|iteration|version)|the first (?:pass|version|release|phase)))\b",
    re.I)
"""A named thing kept for a stage, said of the thing ("`hero.png` stays for Phase 1", "The `v1` route stays as is for
now"): not "until …" (the error stays until the cache expires: behaviour, no course)."""
_KEPT_ABROAD = re.compile(
    r"\b(?:vou|vamos) (?:manter|deixar)\s[^!?\n]{1,80}?\s(?:por enquanto|por agora|até)\b"
    r"|\b(?:voy a|vamos a) (?:mantener|dejar)\s[^!?\n]{1,80}?\s(?:por ahora|de momento|hasta)\b"
    r"|\b(?:je garde|on garde|nous gardons|je vais garder|on va garder)\s[^!?\n]{1,80}?\s(?:pour l'instant"
    r"|pour le moment|jusqu'à)"
    r"|\b(?:ich|wir) (?:behalte|behalten|lasse|lassen)\s[^!?\n]{1,80}?\s(?:vorerst|vorläufig|fürs Erste|bis)\b"
    r"|(?:当面|ひとまず|しばらく)[^。\n]{0,40}?(?:残し|維持し|そのままにし)(?:ます|ました)"
    r"|(?:暂时|暂且|先)(?:保留|保持|不动)"
    r"|(?:당분간|일단)[^.\n]{0,40}?(?:유지|남겨)",
    re.I)
"""The same keeping for a stage in Portuguese, Spanish, French, German, Japanese, Chinese and Korean."""


_OPTIONS = re.compile(r"\bor\s{1,3}by\s|\bif\s{1,3}(?:available|possible|needed|it works)\b"
                      r"|\bou\s(?:en|ao|al)\s|\boder\sindem\b|或者|또는", re.I)
"""Ways offered, not one taken ("fix it by using a pointer, or by using `omitzero` if available")."""


def fix_method(sentence: str) -> bool:
    """True when ``sentence`` says how a failure was (or is being) fixed: the fix with its one way."""
    return bool(_FIX_METHOD.match(sentence) or _FIX_METHOD_ABROAD.search(sentence)) and not _OPTIONS.search(sentence)


def kept_for_stage(sentence: str) -> bool:
    """True when ``sentence`` keeps a thing for a stage: the agent's course, or a named thing that stays."""
    if _KEPT.match(sentence) or _KEPT_ABROAD.search(sentence):
        return True
    return bool(_STAYS.match(sentence) and _NAMED.search(sentence))


def names_nothing(sentence: str) -> bool:
    """True when ``sentence`` names no thing the code uses ("Keeping the PNG for Phase 1"): it points back at the
    sentence before it, which names the thing, and is read with that sentence."""
    return not _NAMED.search(sentence)


def settled_how(sentence: str) -> bool:
    """True when ``sentence`` (one sentence of the agent's words, its opening interjection read past) settles how a
    failure was fixed or keeps a thing for a stage."""
    return fix_method(sentence) or kept_for_stage(sentence)
