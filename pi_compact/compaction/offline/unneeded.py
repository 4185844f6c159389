"""A way the agent could take and declines as not needed, with its reason: a choice not to do something.

"We could add a pre-push hook, but since the branch has no remote tracking it is never pushed by accident; not
needed", "pre-push の設定もできますが、このブランチにはリモート追跡がないので…。現状で十分安全です。": the next agent
must not add what was judged unneeded. The offer, the reason and the judgement may share a sentence, or the judgement
may follow in the next, short one. A tip to the user ("you can also run …"), an offer with no reason, or one not
judged unneeded ("we could cache it, but it needs a lock") is no decision."""

from __future__ import annotations

import re

from .languages import BECAUSE, any_language
from .text import clip_words, sentences

OFFERED = {
    "en": r"(?:we|I)(?: also)? (?:could|can)(?: also)?\b[^.;!?]{3,160}?,?\s(?:but|though|however)",
    "pt": r"(?:poderíamos|podemos|poderia|dá para|daria para)\b[^.;!?]{3,160}?,?\smas",
    "es": r"(?:podríamos|podemos|se podría|se puede)\b[^.;!?]{3,160}?,?\spero",
    "fr": r"(?:on pourrait|nous pourrions|on peut|je pourrais)\b[^.;!?]{3,160}?,?\smais",
    "de": r"(?:wir könnten|man könnte|ich könnte|wir können)\b[^.;!?]{3,160}?,?\saber",
    "ja": r"(?:でき(?:ます|る)|可能です)が",
    "ko": r"(?:수도|수는) 있지만",
    "zh": r"也可以[^。！？]{2,80}?(?:但|不过)",
}
"""A way offered and set against what follows ("we could also …, but", "…もできますが", "也可以…，但")."""

UNNEEDED = {
    "en": r"not (?:needed|necessary|required|worth it)|unnecessary|no need|isn'?t needed|is enough|are enough"
          r"|safe enough|sufficient|overkill",
    "pt": r"não (?:é|será) (?:necessário|preciso)|desnecessário|basta|(?:é )?suficiente",
    "es": r"no (?:es|hace) (?:necesario|falta)|innecesario|basta|(?:es )?suficiente",
    "fr": r"pas (?:nécessaire|besoin)|inutile|suffit|suffisant",
    "de": r"nicht (?:nötig|notwendig|erforderlich)|unnötig|reicht|genügt|ausreichend",
    "ja": r"不要|必要(?:は|も)?(?:ありません|ない)|十分|いりません|要りません",
    "ko": r"필요(?:는|가)? 없|충분",
    "zh": r"不需要|没必要|不必|足够",
}
"""A judgement that the offered way is not needed ("not needed", "十分", "没必要", "nicht nötig")."""

_OFFERED = re.compile(any_language(OFFERED), re.I)
_UNNEEDED = re.compile(any_language(UNNEEDED), re.I)
_BECAUSE = re.compile(rf"{any_language(BECAUSE)}|\bas\s|から[、,]", re.I)
_TO_USER = re.compile(r"\byou\b|\?|？")
"""A tip or a question to the user: the user's to take, not the agent's choice."""
_JUDGEMENT_CHARS = 80
"""A longer next sentence says more than a judgement of the sentence before it."""


def unneeded_ways(text: str) -> list[str]:
    """The sentences of ``text`` (the agent's words) that decline an offered way as not needed, with the reason;
    each with its judgement when that is the next sentence, cut to 240 characters."""
    said = [" ".join(s.split()) for s in sentences(text[:20_000])]
    found = []
    for at, sentence in enumerate(said):
        if len(sentence) > 400 or not _OFFERED.search(sentence) or _TO_USER.search(sentence):
            continue
        following = said[at + 1] if at + 1 < len(said) else ""
        judged = _UNNEEDED.search(sentence) or (len(following) <= _JUDGEMENT_CHARS and _UNNEEDED.search(following)
                                                and not _TO_USER.search(following))
        if judged and _BECAUSE.search(sentence):
            whole = sentence if _UNNEEDED.search(sentence) else f"{sentence} {following}"
            found.append(clip_words(whole, 240))
    return found
