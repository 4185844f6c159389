"""A conclusion that settles a question: the answer the agent gives to "should we … or …?", said as settled.

"The answer is clear: blocking sockets are correct for std.Io", "Short answer: keep the cache", "結論：SQLiteで十分です",
"The most reliable way is to record it in memory", "一番確実なのは、メモリに記録しておくことです": the question is closed,
the next agent must not reopen it. An opening that only announces ("Conclusion:" heading a list), a question, or a
way said under a condition or as a guess is no verdict (:func:`.decided.decisions_in` drops those)."""

from __future__ import annotations

import re

from .languages import any_language

VERDICT = {
    "en": r"the (?:short )?answer is(?: clear| simple| yes| no)?|short answer|bottom line|in conclusion|conclusion"
          r"|verdict|tl;?dr",
    "pt": r"a resposta (?:curta )?é|resposta curta|(?:em )?conclusão|veredito",
    "es": r"la respuesta (?:corta )?es|respuesta corta|(?:en )?conclusión|veredicto",
    "fr": r"la réponse (?:courte )?est|réponse courte|(?:en )?conclusion|verdict",
    "de": r"die (?:kurze )?antwort ist|kurze antwort|fazit|ergebnis",
    "ja": r"結論(?:として|から言うと|を言うと|は)?|答えは",
    "ko": r"결론(?:적으로|은|부터 말하면)?|답은",
    "zh": r"结论(?:是)?|答案是|总之",
}
"""Words that open a sentence with the answer the agent settled on ("The answer is clear:", "Fazit:", "結論："), before
a colon or a dash (a comma in the unspaced languages)."""

BEST_WAY = {
    "en": r"the (?:best|simplest|safest|most reliable|most robust|cleanest) (?:way|option|approach|choice|fix|solution"
          r"|path)(?: here| forward)? is",
    "pt": r"(?:o|a) (?:melhor|mais (?:simples|segur[oa]|confiável)) (?:caminho|opção|solução|forma|jeito|abordagem) é",
    "es": r"(?:el|la|lo) (?:mejor|más (?:sencill[oa]|segur[oa]|simple|fiable))(?: (?:camino|opción|solución|forma"
          r"|manera|enfoque))? es",
    "fr": r"(?:le|la) (?:meilleure?|plus (?:simple|sûre?|fiable)) (?:solution|option|approche|façon|voie) est",
    "de": r"am (?:besten|sichersten|einfachsten) ist|die (?:beste|einfachste|sicherste) (?:lösung|option|variante) ist",
    "ja": r"(?:一番|最も)(?:確実|簡単|安全|シンプル|良い|いい|よい)な?(?:の|方法|やり方)(?:は|が)",
    "ko": r"가장 (?:확실한|좋은|간단한|안전한) (?:방법|것)은",
    "zh": r"最(?:好|简单|稳妥|可靠|安全)的(?:办法|方法|方案|做法)?是",
}
"""The way the agent settles on, said as the best of those it weighed ("The most reliable way is …", "一番確実なのは
…"): not "the best way to test this is …", a step of the work."""

_VERDICT = re.compile(rf"^\W{{0,3}}(?:{any_language(VERDICT)})\W{{0,2}}(?:[:：—–]|\s-\s|[、，,])\s{{0,3}}\S", re.I)
_BEST_WAY = re.compile(rf"^\W{{0,3}}(?:[^\W\d_]{{1,12}}[,、，]\s{{0,2}})?(?:{any_language(BEST_WAY)})", re.I)


def settles(sentence: str) -> bool:
    """True when ``sentence`` opens with a verdict or names the best way as the one taken."""
    return bool(_VERDICT.match(sentence) or _BEST_WAY.match(sentence.replace("*", "")))
