"""A change of the agent's own plan whose reason is the finding said just before it.

"I see — tasks return dicts. I'll modify the runner to read the key instead." "The test shows manifests can be
larger than diffs for tiny changes. Let me fix the test to just verify the metrics exist." The second sentence alone
is a step; with the finding before it, it is a choice the next agent must keep (the test checks less on purpose).
Each is read as ``finding — so: change``. A change with no "instead", "only" or "so that" is a plain step, and a
sentence before it that is no finding (a plan, a question) gives no reason."""

from __future__ import annotations

import re

from .text import clip_words, sentences

_FINDING = re.compile(
    r"^\W{0,3}(?:I see\b|(?:so|ok(?:ay)?|ah)\W{1,3}(?:it|the \w{2,20}) (?:turns out|seems)|it turns out|turns out"
    r"|the (?:test|tests|log|logs|output|error|trace|result|results|data|diff|failure)\s(?:shows?|says|means|reveals?)"
    r"|(?:this|that) (?:means|explains)|(?:entendi|vejo que|ya veo|entiendo|je vois|ich sehe|verstehe)\b"
    r"|なるほど|(?:ことが)?(?:分か|わか)りました|原来|明白了|알겠습니다|그렇군요)", re.I)
"""A sentence that reports what the agent just learnt ("I see — …", "The test shows …", "It turns out …", "なるほど")."""
_CHANGE = re.compile(
    r"^\W{0,3}(?:so\W{1,3})?(?:I'll|I will|let me|we'll|we will)\s{1,3}(?:modify|change|update|adjust|rewrite|fix"
    r"|make|switch|relax|loosen|simplify|restrict|limit)\b(?=[^.!?\n]{0,160}?(?:\binstead\b|\bto (?:just|only)\b"
    r"|\bonly\b|\bso (?:that|it)\b|\brather than\b))"
    r"|(?:だけ|のみ)を?[^。\n]{0,30}?(?:修正|変更)します|代わりに[^。\n]{0,40}?(?:修正|変更)します"
    r"|改(?:为|成)[^。\n]{0,40}?(?:只|仅)|대신[^.\n]{0,40}?(?:수정|변경)하겠습니다", re.I)
"""The agent's change of its own course, with the way it narrows or replaces the first ("to just verify …",
"instead", "so that …"; "…だけを確認するように修正します", "代わりに…")."""


def changed_on_finding(text: str) -> list[str]:
    """``finding — so: change`` for each change of course in ``text`` said right after a finding, cut to 240."""
    said = [" ".join(s.split()) for s in sentences(text[:20_000])]
    found = []
    for at in range(1, len(said)):
        before, change = said[at - 1], said[at]
        if (_CHANGE.search(change) and _FINDING.match(before) and len(before) <= 240 and len(change) <= 300
                and not before.endswith(("?", "？", ":", "：")) and not change.endswith(("?", "？"))):
            found.append(clip_words(f"{before.rstrip('.。')} — so: {change.rstrip(':：')}", 240))
    return found
