"""Which of the user's words still bind the work, and what user and agent settled between them.

A sentence with "make sure" in a request is an instruction for that request; once the request is finished it is
history, not a constraint ("Can we make it so that the logs go to their own file", done long ago). A rule that
lasts says so: never, always, don't, only, at most, keep … unchanged, from now on. A rule that names a thing
the session has since replaced or removed ("make sure `toolText` is also used", and later "replaced `toolText`
with `render()`") no longer applies. And a decision is not only a sentence with "decided" in it: the agent's
proposal the user then accepted ("Shall I keep the cache in memory?" — "yes"; a plan, then "the approach is good,
but …" or "方針は良いです。ただし…", the changes kept with it) and the user's own choice ("use SQLite instead of JSON
files") are decisions too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .alternatives import chosen_way
from .clause import clause_cut
from .languages import (ASSENT, FROM_NOW_ON, IMPERATIVE_CJK, INSTEAD, NO_THING, OFFER, ORDER, ORDER_ADVERB_CJK,
                        ORDER_CLOSING, POINTS_AT_ONE, PREFER_WAY, PROPOSE, REPORTED, WISH, WISH_SCOPE, spaced,
                        unspaced)
from .plan_points import plan_choices, plan_rule
from .text import clip_words, sentences

_LASTING = re.compile(
    r"\b(?:never|always|don'?t|dont|do not|must ?n[o']t|must never|no more than|at most|not allowed|forbidden"
    r"|only|avoid|from now on|going forward|in general|every time|whenever|unchanged|untouched|intact|as it is"
    r"|as is|alone)\b|不要|不能|别|永远|始终|总是|禁止|不许|不得|不可|只能|只用|切勿|请勿"
    r"|ないで|てはいけない|ないこと|必ず|常に|決して|絶対"
    r"|(?<!\w)(?:sempre|nunca|jamais|jamás|siempre|toujours|immer|niemals|nie|항상|절대)(?!\w)",
    re.I,
)
"""Words of a rule that outlives the request it came with (and "always"/"never" in Portuguese, Spanish, French,
German and Korean)."""
ORDER_ABROAD = re.compile(
    r"^\W{0,3}(?:(?:e|y|et|und|mas|pero|aber|mais|por favor|s'il te plaît|bitte),?\s{1,3}"
    r"|(?:não|nao|no|non|nein)\s{0,2}[,.!]\s{1,3})?"
    rf"{spaced(ORDER, english=False)}|^\W{{0,3}}{unspaced(ORDER)}"
    rf"|^(?=[^。！？\n]{{0,200}}?(?:{unspaced(ORDER_CLOSING)}|{unspaced(ORDER_ADVERB_CJK)}[^。！？\n]{{0,80}}?"
    rf"{unspaced(IMPERATIVE_CJK)}))", re.I)
"""A rule opened by "always", "never", "don't" or "make sure" in Portuguese, Spanish, French, German or Korean
("Sempre use SwiftData", "No toques el esquema", "Ne modifie pas les migrations", "Assure-toi de…"): as the
sentence's first words only (after a "no," that turns down what the agent did: "não, não use Redis"), where they
order (further in, "o app sempre mostra…" describes); in Japanese and Korean
also a prohibition closing the sentence ("…プッシュしないでください", "…푸시하지 마세요") or "always" in a clause that
orders ("コミット前に必ずテストを実行してください") (:mod:`.languages`)."""
_ONCE = r"\s{1,3}(?:of|in|on|about|somewhere|here|there)\b"
"""After "make a note": one note written once ("make a note of this in the README"), no rule to keep."""
_STANDING = re.compile(
    r"\b(?:from now on|going forward|moving forward|henceforth|from here on|for the rest of (?:this|the) (?:session"
    r"|project|conversation|work)|(?:every|each|next) time you|whenever you|in (?:the )?future,? (?:you|please|always"
    r"|never|do ?n[o']t)|as a (?:general )?rule)\b"
    r"|^\W{0,3}(?:(?:please|pls|and|also|so)\s{1,3})?(?:make (?:it |this |that )?(?:a|an) (?:\w+ )?"
    rf"(?:rule|note(?!{_ONCE})|habit)|make a (?:mental )?note(?!{_ONCE})"
    r"|(?:add|write down|save|store|record) (?:it |this |that )?as a (?:\w+ )?(?:rule|note"
    r"|memory))\b"
    rf"|{spaced(FROM_NOW_ON, english=False)}|{unspaced(FROM_NOW_ON)}",
    re.I,
)
"""Words that ask the agent to keep a rule beyond the request, however the request is phrased: a time that outlasts
it ("from now on", "going forward", "next time you …") or, said to the agent (first in the sentence), making it a
rule or a note ("make a rule to always …", "make a note to never …"; not "the tool would make a note to fix it", nor
"make a note of this in the README", which asks for one note written once); in every language of
:data:`.languages.FROM_NOW_ON` too ("a partir de agora", "désormais", "ab jetzt", "앞으로", "今後")."""
_KEEP_IN_MIND = re.compile(r"\b(?:remember (?:that|to)|keep in mind|bear in mind|do ?n[o']t forget|do not forget)\b"
                           r"|记住|覚えて", re.I)
"""Words that ask the agent to keep something in mind: a standing rule when the message gives nothing else to do
("Remember that the staging database is shared."), a point of the work asked for when it does ("Summarize the
feature set. Keep in mind that manual commits may hold human edits.")."""
_INSTRUCTIONS_STORE = re.compile(
    r"\b(?:CLAUDE|AGENTS|GEMINI|MEMORY|CONVENTIONS)\.md\b|\.cursorrules\b|\b(?:your|the agent'?s|project) (?:memory"
    r"|rules|instructions|guidelines|system prompt)\b", re.I)
_ALWAYS_OR_NEVER = re.compile(r"\b(?:always|never|do ?n[o']t ever|every time)\b", re.I)
_PREFERS = re.compile(r"^\W{0,3}(?:please\s{1,3})?(?:keep|prefer|use|stick (?:to|with)|leave|stay|let'?s (?:not|keep|use"
                      r"|stick))\b", re.I)
"""A sentence that states how the user wants the work done, in the imperative."""
_CHANGED_AWAY = (
    r"(?:replac\w*|remov\w*|renam\w*|drop\w*|delet\w*|got rid of|get rid of|no longer (?:use|need)\w*)"
)
_NAME = r"`?([A-Za-z_][\w.-]{2,60})`?"
_NAME_ALONE = r"`?(?<![A-Za-z_])([A-Za-z_][\w.-]{2,60})`?"
"""A name that starts where its word does (tried inside a word, it is tried 60 characters on at every letter)."""
_REPLACED = re.compile(
    rf"\b{_CHANGED_AWAY}\s+(?:the\s+)?(?:old\s+)?{_NAME}|\binstead of\s+(?:the\s+)?{_NAME}"
    rf"|{_NAME_ALONE}\s+(?:is|was|has been|got|are|were|have been)\s+(?:now\s+)?(?:replaced|removed|renamed|gone|deleted"
    rf"|dropped|obsolete)\b",
    re.I,
)
"""A sentence saying a named thing was replaced or removed."""
_CODE_NAME = re.compile(r"[a-z][A-Z]|_|\.\w|[A-Z][a-z]+[A-Z]")
_APPROVAL = re.compile(
    r"^\W{0,3}(?:yes|yep|yeah|yup|sure|ok(?:ay)?|sounds good|agreed|i agree|go (?:ahead|for it)|do it|let'?s do (?:it|that)"
    r"|please do|perfect|exactly|correct|right|that works|lgtm|ship it|the (?:first|second|third|last) one"
    r"|option \w+)(?!\w)"
    rf"|^\W{{0,3}}{spaced(ASSENT, english=False)}|^\W{{0,3}}{unspaced(ASSENT)}",
    re.I,
)
"""A reply that accepts what the agent proposed, in English or any language of :data:`.languages.ASSENT`."""
_THANKS = re.compile(r"^\W{0,3}(?:thanks?(?: you)?|thx|ありがとう(?:ございます)?|確認しました|拝見しました|谢谢)[\s\W]{0,5}", re.I)
"""Thanks before the approval ("Thanks! The approach is good", "ありがとうございます。方針は良いです"): no part of it."""
_JUDGED_GOOD = re.compile(
    r"^\W{0,3}(?:(?:overall|i think|i guess|so)\W{1,3})?(?:(?:the|this|that|your|its|my)\s{1,3})?(?:[\w-]{1,20}\s{1,3}){0,3}?"
    r"(?:is|looks|sounds|seems|reads)\s{1,3}(?:(?:all|really|very|mostly|pretty|quite|totally)\s{1,3})?"
    r"(?:good|great|fine|right|ok(?:ay)?|reasonable|sensible|solid|correct|sound|perfect)\b"
    r"|^\W{0,3}(?:(?:a\s{1,3})?(?:good|great|solid|nice) (?:plan|approach|design|idea|proposal)|makes sense|works for me"
    r"|love it|looks right|sounds right)\b"
    r"|^[^。！？\n]{0,24}?(?:(?:良い|よい|いい(?!え)|良さそう|よさそう|OK|ＯＫ)(?:です|と思|ね|よ|。|、|！|$)|問題(?:ない|ありません)"
    r"|大丈夫|賛成"
    r"|(?<!不)(?:可以|不错|很好|没问题))",
    re.I,
)
"""A reply that judges the proposal good ("The approach is good, but …", "方針は良いです。ただし…", "这个方案可以"):
an approval in other words, with the user's changes after it. A judgement is about what came before; the
negated forms ("is not good", "いいえ", "不可以") say no."""
_CHANGES_LEAD = re.compile(r"^(?:[\s\W]|(?:but|though|however|just|with|except)\b|(?:です|でした|と思います|思います)[がねよ]?"
                           r"|ただし|但し|でも|けど|但是|不过|只是)+", re.I)
"""What joins an approval to the changes the user asks for with it."""
_CHANGES_WORDS = 3
_CHANGES_CJK = 4
"""Fewer words (characters of Chinese or Japanese) after an approval change nothing ("yes, go", "yes SOLiD")."""
_CHANGES_CHARS = 160
_ADDED_WORDS = 4
_CONDITION = re.compile(r"^(?:but|and(?: also)?|also|plus|except|without|with|only|keeping|mas|mais|pero|aber|und|e|y|et"
                        r"|sem|sin|sans|ohne|com|con|avec|mit|ただし|でも|但是|不过|但|하지만|대신)(?!\w)", re.I)
"""What opens a condition on a picked option ("but keep …", "and also …", "except …", "mas …", "ただし…")."""
_ADDED_CJK = 6
"""Fewer words (characters of Chinese or Japanese) after a pick's key add nothing to it ("2 for now", "B please")."""
_REPLY_CHARS = 400
"""A longer reply is a request of its own, not an answer to the proposal."""
_REFUSES = re.compile(r"^\W{0,3}(?:no\b|nope|not (?:quite|yet|now)|wrong|wait\b|stop\b|hold on|actually\b|revert|undo"
                      r"|don'?t\b|instead\b)|^\W{0,3}(?:いいえ|いや|違|ちが|待って|やめ|不是|不要|不行|不对|别|先别)", re.I)
"""A reply that turns the proposal down or stops it."""
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_PROPOSAL = re.compile(
    r"\b(?:shall I|should I|want me to|would you like(?: me)? to|do you want(?: me)? to|I (?:suggest|propose|recommend)\b"
    r"|I'?d (?:suggest|propose|recommend|go with|use|pick|choose)\b|we could|option \w+|the (?:better|simplest|cleanest) (?:approach|way|option))"
    rf"|{spaced(OFFER, english=False)}(?=[^.!?\n]{{0,200}}\?)|{spaced(PROPOSE, english=False)}|{unspaced(PROPOSE)}",
    re.I,
)
"""An offer or a proposal, in English and in the languages agents answer their users in (Portuguese, Spanish, French,
German: the action follows, as in English, and "can I", "should I" offer only in a question; Japanese, Korean,
Chinese: the question's form)."""
_POINTS_BACK = re.compile(r"\b(?:that|this|it|these|those|them)\W*$", re.I)
_CHOICE = re.compile(
    r"\b(?:instead of|rather than|let'?s (?:use|go with|keep|stick with|switch to|move to|migrate to)"
    r"|we(?:'ll| will) (?:use|go with|switch to)"
    r"|go with|stick with)\b|\binstead\W{0,3}$"
    r"|(?:,\s{0,2}not|\bprefer\b[^.,;!?\n]{1,60}?\bover)\s{1,3}(?!(?:yet|now|just|only|sure|all|there|here|it|this|that"
    r"|them|really|needed|working)\b)[`'\"]?[\w.-]{2,40}[`'\"]?(?:\s{1,3}(?:here|too|please|for now|anymore))?\W{0,3}$"
    rf"|{spaced(INSTEAD, english=False)}|{unspaced(INSTEAD)}",
    re.I,
)
"""A user's sentence that picks one way over another: "use SQLite instead of JSON", "switch to SQLite instead",
"use pnpm, not npm", "prefer composition over inheritance", and
the way passed over in other languages ("usa SQLite en lugar de Redis", "Redisじゃなくて、SQLiteを使って")."""
_CHOOSER = re.compile(r"^\W{0,3}(?:(?:no|nah|nope|yes|yeah|yep|ok(?:ay)?|sure)\b[\s,.!;:—–-]{1,4})?"
                      r"(?:let'?s|we(?:'ll| will| should)?|i(?:'d| would)?|use|go|stick|keep|please|switch|move|change"
                      r"|prefer|write|run|call|put|make)\b"
                      r"|\b(?:i'?d go with|let'?s go with|we'?ll (?:use|go with))\b"
                      rf"|{spaced(INSTEAD, english=False)}|{unspaced(INSTEAD)}", re.I)
"""The user speaking (an imperative, "I", "we", "let's", after a no or a yes: "yes let's switch to X instead"): a
review comment pasted in ("This eliminates … rather than …") picks nothing."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")
_PICK = re.compile(r"^\W{0,3}(?:(?:yes|yeah|yep|ok(?:ay)?|sure|sounds good|great|perfect)\b[\s,.!;:—–-]{1,4})?"
                   r"(?:(?:let'?s|we'?ll|i'?ll|i'?d)\s{1,3}(?:go with|do|take|pick|use)\s{1,3}(?:the\s{1,3})?(?=opt|cho|num|first|second|third|fourth|fifth|last)"
                   r"|(?:i think|i'?d say|i'?d (?:rather )?(?:prefer|pick|choose|go with)|i prefer|i (?:pick|choose)"
                   r"|(?:let'?s\s{1,3})?(?:go with|go for|going with|pick|choose|take|do)"
                   r"|vamos\s{1,3}(?:com|de|na|no|pela|pelo|con|por)(?:\s{1,3}(?:a|o|la|el))?|prefiro|prefiero"
                   r"|nehmen wir|ich nehme|je prends|on part sur|on prend)\s{1,3}|选择?|用)?"
                   r"(?:(?:option|choice|number|approach|strategy|solution|alternative|opção|opcao|opción|variante"
                   r"|옵션|选项|方案|#)\s{0,3}(\w{1,2})\b"
                   r"|([1-9])(?![\d.,:/]\d)\b"
                   r"|([A-Ha-h])\W{0,3}$|([A-Ha-h])(?:[.),:]\s|\s{1,3}(?:please|pls|is (?:best|fine|good)|for now)\b)"
                   r"|([A-Ha-h1-9])\s{0,2}(?:案|안|번|番|号)?\s{0,2}(?:で|に|로|으로|가|吧|好|。|！)"
                   r"|(?:the\s{1,3})?(first|second|third|fourth|fifth|last)"
                   r"(?:\s{1,3}(?:one|option|choice)\b|\W{0,3}$))", re.I)
"""A reply that picks one of the agent's listed options: "1 fix it and do it right", "Option B", "b", "the second one",
"second", "let's go with option 1", "let's do B", "go with B, we already run Redis", "go for B"; in other languages
"vamos com a 2", "opción B", "nehmen wir B", "Bでお願いします", "B로 가자", "选B", "用方案2"."""
_NAMED_KEY = re.compile(r"\b(?:option|choice)\s{0,3}(\w{1,2})\b", re.I)
_OPTION = re.compile(r"^\W{0,8}(?:option|choice|approach|strategy|solution|alternative|opção|opcao|opción|variante|옵션"
                     r"|选项|方案)?\s{0,3}(\w{1,2})"
                     r"\s{0,2}(?:[.):：]|[—–]|-(?=\s))\s{0,4}(\S.{2,240})$", re.I)
"""A listed option: "1. Keep the cache", "**Option 2: Implement AST manually** (faster)", "B) Rewrite it",
"**A** — drive it to done in one push" (the key set off by a dash)."""
_ASKS = re.compile(r"\b(?:shall I|should I|should we|shall we|(?:do )?you want me to|want me to|would you like me to"
                   r"|would you like to|do you want to|can I|may I|okay to|ok to|quer que eu|queres que eu|devo|posso"
                   r"|prefere que eu|quieres que|debo|puedo|prefieres que|veux-tu que je|voulez-vous que je|dois-je"
                   r"|soll ich|darf ich)\s{1,3}(?:go ahead and\s{1,3})?", re.I)
"""Where a question offers an action: what follows is the action."""
_ALTERNATIVES = re.compile(r"\bor\b|\?\s", re.I)
"""A question that offers more than one thing ("commit now, or reply first?"): a bare "yes" picks none."""
_VAGUE = re.compile(r"^(?:go ahead|proceed|continue|start|do (?:so|it|that|this)|apply|make the changes?|let'?s (?:do|go)\b)\b"
                    r"|\b(?:implementation|a fix|the fix|the change|the changes|the plan|it|this|that|these|those|them|both"
                    r"|all)\W{0,3}$", re.I)
"""An action that says nothing without what came before ("proceed with implementation", "do that")."""
_VAGUE_WORDS = 6
"""Longer changes that end on "them" say what they want ("also check the other modules … and replace them")."""
_HEDGE = re.compile(r"^(?:so,?\s{1,3})?(?:i'?d say|i think|i'?d (?:suggest|recommend|propose)|i (?:suggest|recommend|propose)"
                    r"|my recommendation(?: is)?:?)\s{1,3}(?:that\s{1,3})?(?:we\s{1,3}(?:just\s{1,3})?|just\s{1,3})?", re.I)
_RECOMMENDS = re.compile(r"\b(?:i'?d say|i think|suggest|recommend|propose|the (?:better|simplest|cleanest|best)"
                         r"|could|should|need to|i'?d go with|instead|option \w{1,2})\b", re.I)
"""A sentence that recommends: the reason for the action the question then offers."""
_MARKERS = re.compile(r"\s{0,3}(?:[-*+•]|\d{1,2}[.)])\s{1,3}")
"""A list item's marker: an item of a list is one of several things, not the agent's recommendation."""
_RECOMMENDED = re.compile(r"\s{0,3}\((?:recommended|default|suggested)\)", re.I)
_LISTED = 4
_CHOICES = 5
_CHOSEN = re.compile(r"(?i:\b(?:choose|chose|pick|go with|take|keep|prefer))\s{1,3}(?i:the\s{1,3})?"
                     r"([A-Z][\w-]{1,30}\s{1,3}(?:[A-Z]|\d{1,2})\b(?![\w.])|`[^`\n]{2,60}`)")
"""A reply that chooses an alternative by its name: "choose Version B", "pick Plan 2", "go with `LruCache`" (a bare
"2" or "B" is a pick by key: :data:`_PICK`)."""
"""More listed items than this are findings or steps, not options to choose from."""
_ASKS_TO_CHOOSE = re.compile(r"\b(?:which|prefer|either|options?|choose|pick|rather)\b|どちら|哪", re.I)
"""A closing question that asks the user to choose among what was listed ("Which approach do you prefer?")."""
_PLANS = re.compile(r"\b(?:propos\w*|suggest\w*|recommend\w*|plan|approach|design)\b|提案|方針|計画|設計|案|推奨|アプローチ"
                    r"|建议|方案|计划|设计", re.I)
"""Words of a line that introduces a proposed plan."""
_CLOSING_CHARS = 300
_PROPOSES = re.compile(
    r"\b(?:I (?:propose|suggest|recommend)|I'?d (?:propose|suggest|recommend)|my (?:proposal|recommendation)"
    r"|(?:proposed|recommended|suggested) (?:plan|approach|design|fix|solution|changes?|structure)"
    r"|here'?s (?:the|my) (?:plan|proposal|approach))\b|提案|推奨|お勧め|おすすめ|建议|推荐",
    re.I,
)
"""Words of a sentence that proposes."""
_PROPOSAL_HEADING = re.compile(r"^#{1,6}\s{1,3}(?:\*\*)?(?:(?:my|the|our|updated|revised|final|practical)\s{1,3}){0,2}"
                               r"(?:proposed|proposal|recommended|recommendation|suggested)\b", re.I)
"""A heading that names the agent's proposal (not "### Recommendations" of a review, a list of findings)."""
_OFFERS_CHOICES = re.compile(r"\b(?:options?|alternatives?|next steps?|order|staging|adjustments)\b", re.I)
_PLAN_LINES = 60
"""How far above the closing question a plan's intro is looked for."""
_INVITES = re.compile(r"[?？]|\blet me know\b|ご確認|ご指示|お知らせ|教えてください|确认|告诉我", re.I)
"""A closing line that hands the decision to the user: a question, or a request to confirm."""
_PART_CHARS = 90
_INTRO_CHARS = 60
_PLAN_CHARS = 260
_BRIEF_CHARS = 120
"""An approved plan tool's plan is kept whole elsewhere (the plan file): its title says which."""
_ACKNOWLEDGES = re.compile(
    r"^\W{0,3}(?:got it|understood|makes sense|noted|agreed|perfect|exactly|(?:you'?re|you are) (?:absolutely |quite )?right"
    r"|good (?:call|catch|point)|fair point)\s{0,2}(?:[.!,:;]|\s[-–—])[\s\-–—!]{0,3}",
    re.I,
)
"""The agent's first words on the user's reply that accept it ("You're right —", "Got it.", "Good catch!"); "You're right
to ask" and "Great question" accept nothing."""
_GOES_ON = re.compile(r"^\W{0,3}(?:let me|let'?s|i'?ll|i will|now|next|first|then|here'?s|here is|before|ok(?:ay)?|so,)\b",
                      re.I)
"""A sentence that narrates what the agent does next: what it accepted ends there."""
_MOVES_ON = re.compile(r"^\W{0,3}(?:(?:we|i)(?:'ll|'re|'m| will| are| am)\s{1,3})?(?:now\s{1,3})?(?:"
                       r"mov(?:e|ing)\s{1,3}(?:on|over|ahead|to)|proceed(?:ing)?\s{1,3}(?:with|to)"
                       r"|continu(?:e|ing)\s{1,3}(?:with|on)|(?:start|head|turn|go)(?:ing)?\s{1,3}(?:on|over|to|ahead)"
                       r"|back\s{1,3}to|on\s{1,3}it)\b", re.I)
"""A sentence that says the agent goes on to the next thing ("moving on to the chart wheel.", "proceeding with the
migration", "we'll move on to the export then"): the user's word to move on is the request it follows, not a way
the two settled; "Switching to pnpm from now on" or "skipping the e2e suite for now" say a way, and stay."""
_GOES_ON_INSIDE = re.compile(r"[-–—;,:]\s{0,2}(?:let me|let'?s|i'?ll|i will)\b", re.I)
"""A sentence that turns to narration halfway ("The output was truncated — let me re-run it"): it ends there too."""
_RESTATED = 2
_SAYS_SOMETHING = 5
_OF_ITSELF = re.compile(r"^\W{0,3}I(?:\b|')", re.I)
"""The agent speaking of itself after the acknowledgement, not of what the user settled."""
"""Sentences of the agent's acknowledgement kept: what it took the user's point to be."""
"""Items of a list an offer introduced that the decision names."""
_RETRACTS = re.compile(
    r"\b(?:my mistake|my bad|I was (?:wrong|mistaken)|I stand corrected|I misspoke|I misread|I incorrectly"
    r"|I misdiagnosed|(?:was|is) (?:a|my) misdiagnosis|(?:my|the) (?:earlier|previous|first) (?:claim|statement"
    r"|diagnosis|analysis|explanation) was wrong|the (?:real|actual) (?:issue|cause|problem|culprit|bug|root cause)"
    r" (?:is|was)\b(?! (?:likely|probably|possibly|maybe|perhaps)))\b"
    r"|間違えました|私の(?:誤り|間違い)|訂正します|実際の原因は|我(?:搞|说|弄)?错了|更正一下|实际(?:的)?原因是",
    re.I,
)
"""Words that retract what the agent said or believed before ("My mistake! It's actually `LOG_LEVEL`", "the cache
bug was a misdiagnosis. The actual issue was …"): the correction outlives the turn, the first claim must not."""
_HEDGED = re.compile(r"\b(?:maybe|perhaps|possibly|probably|likely|might|could be)\b|かもしれ|可能", re.I)
_CORRECTION_CHARS = 240
_CORRECTION_MIN = 60
"""A retraction shorter than this ("I was wrong.") takes the sentences after it: what is true instead."""


_WORDS = re.compile(r"[A-Za-z]{4,}")
_TABLE_CELLS = re.compile(r"\s{0,3}\|\s{0,3}(?=\S)")
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5"}


_SETUP = re.compile(
    r"\b(?:i|we)(?:'m|'re|\s(?:am|are))?\s(?:(?:now|currently|always|only)\s)?(?:run|use|have|(?:am|are|'m|'re)?\s?"
    r"(?:on|using|running)|changed\s(?:it\s)?to|set\s(?:it\s)?to|switched\s(?:it\s)?to|upgraded\s(?:it\s)?to"
    r"|restarted\s(?:it\s)?with|start(?:ed)?\s(?:it\s)?with)\b"
    r"|\b(?:my|our)\s(?:machine|server|gpu|box|laptop|setup|env|environment|cluster|database|db|host|vm)\s"
    r"(?:has|is|runs|uses)\b"
    r"|^\W{0,3}(?:(?:done|ok(?:ay)?)\W{1,3})?(?:changed|set|switched|upgraded|restarted)\s(?:it\s)?(?:to|with)\b"
    r"|\b(?:eu\s)?(?:uso|rodo|estou usando|mudei para|troquei para|tengo|estoy usando|cambié a|ejecuto)\b"
    r"|\bich\s(?:nutze|verwende|benutze|habe)\b|auf\s\S{1,30}\s(?:umgestellt|geändert)"
    r"|使っています|で動かして|に変更しました|に変えました|我(?:用|使用|在用)|改成了|사용하고 있|쓰고 있|로 바꿨|으로 바꿨",
    re.I)
"""Words of the user's that state their own setup: "I run llama-server with …", "we're on Python 3.9", "my GPU has
…", "done, changed to 128k", "eu uso …", "ich verwende …", "…で動かしています"."""
_SETTING = re.compile(r"(?<![a-z\d])\d[\d.,]{0,12}\s?(?:[kmgt]i?b|[kmgt]|gib|mib|ms|cores?|threads?|gpus?)(?![a-z\d])"
                      r"|(?:^|\s)--?[a-z][\w-]{0,30}[\s=]\d|\bv?\d{1,3}\.\d{1,4}\b|\b\d{4,}\b", re.I)
"""A value of a setup: a size ("128k", "16 GB"), a count of cores, a flag with its number ("-c 131072"), a version
("3.11"), a long number."""


SETUP_LABEL = "The user's setup: "
"""How a constraint that states the user's environment (:func:`states_setup`) opens: a fact of theirs, not a step
("done, changed to 128k" alone reads as finished work)."""


def states_setup(sentence: str) -> bool:
    """True when the user states a fact of their own environment that the work has to respect (:data:`_SETUP` with
    a value of it, :data:`_SETTING`): "I run llama-server with a 128K context, -c 131072", "we're on Node 18.20",
    "done, changed to 128k"; never a question or a condition ("if you use 16 GB …")."""
    said = sentence.strip()
    return not said.endswith(("?", "？")) and not re.match(r"\W{0,3}(?:if|when|what if|should|could)\b", said, re.I) \
        and bool(_SETUP.search(said)) and bool(_SETTING.search(said))


_METHOD = re.compile(
    r"\b(?:use|using|with|via|follow|following|do it|apply|stick to|in|by)\s(?:strict\s|proper\s)?"
    r"(?:tdd|bdd|atdd|test[- ]driven(?:\sdevelopment)?|test[- ]first|red[- /]green(?:[- /]refactor)?"
    r"|conventional commits|semantic versioning|semver|trunk[- ]based(?:\sdevelopment)?|git ?flow|pair programming"
    r"|property[- ]based test\w{0,3}|mutation test\w{0,3}|domain[- ]driven design)\b"
    r"|\bwrite (?:the\s)?(?:failing\s)?tests? first\b"
    r"|\b(?:tdd|bdd)\s?(?:で|로|으로)|(?:用|采用)\s?(?:tdd|bdd)|\b(?:com|con|mit|en|avec)\s(?:tdd|bdd)\b", re.I)
"""A method of work the user asks for by its name ("use TDD", "follow conventional commits", "write the tests
first", "TDDで進めて", "com TDD", "mit TDD"): it binds the way every change is made."""


def names_method(sentence: str) -> bool:
    """True when ``sentence`` asks for a method of work by its name (:data:`_METHOD`), not a question about one."""
    said = sentence.strip()
    return not said.endswith(("?", "？")) and bool(_METHOD.search(said))


def lasting(rule: str) -> bool:
    """True when a rule says it outlives its request (never, always, only, from now on, make it a rule, …)."""
    return bool(_LASTING.search(rule) or ORDER_ABROAD.match(rule)) or standing(rule, kept_in_mind=False) or \
        stated_rule(rule) or rule.startswith(SETUP_LABEL) or states_setup(rule) or names_method(rule)


def standing(sentence: str, kept_in_mind: bool = True) -> bool:
    """True when ``sentence`` asks the agent to keep a rule from now on, even phrased as a request ("Make a rule to
    always run the linter", "please update CLAUDE.md to always follow the workflow": the rule is what the
    instructions file is to say), or, with ``kept_in_mind``, to keep something in mind ("remember that …": standing
    only when its message asks nothing else, see :data:`_KEEP_IN_MIND`); a request to do something once ("update
    CLAUDE.md with the new commands") is not one."""
    return bool(_STANDING.search(sentence)) or bool(kept_in_mind and _KEEP_IN_MIND.search(sentence)) or bool(
        _INSTRUCTIONS_STORE.search(sentence) and _ALWAYS_OR_NEVER.search(sentence))


_STANDING_OPENER = (
    r"(?:from now on|going forward|moving forward|henceforth|from here on|in (?:the )?future|always|never(?! mind)"
    r"|do ?n[o']t ever|do not ever|under no circumstances|at no point)\b"
    r"|(?:à partir de maintenant|désormais|dorénavant|ab jetzt|von nun an|künftig|a partir de ahora"
    r"|de ahora en adelante|sempre|nunca|jamais|jamás|siempre|toujours|immer|niemals)(?!\w)"
)
_CJK_STANDING_OPENER = r"以后|今后|从现在起|从现在开始|永远|始终|总是|一律|今後|これから|必ず|絶対|常に|決して"
_PASSING = re.compile(
    r"(?:[,;:]|\s[—–-]|\s\()\s{0,3}(?:(?:and|also|but|plus|oh|so|then|please|et|und|y|aussi)\b,?\s{1,3}){0,3}"
    rf"(?={_STANDING_OPENER})"
    rf"|\s(?:and|also|but|plus)\s{{1,3}}(?:please\s{{1,3}})?(?={_STANDING_OPENER})"
    rf"|[，、；：]\s{{0,2}}(?:(?:而且|并且|还有|另外|也|还|そして|あと|また)\s{{0,2}})?(?={_CJK_STANDING_OPENER})",
    re.I,
)
"""Where a standing rule said in passing opens a clause of a longer sentence: after a clause's mark (a comma, a
dash, a semicolon; their CJK forms) and the conjunctions that join it ("and", "also", "but please"), or after a bare
"and", a standing adverb ("from now on", "always", "never", "don't ever", "以后", "今後", "désormais", "ab jetzt")."""
_STATES = re.compile(r"^\W{0,3}(?:i|we|it|he|she|they|this|that|there|you|the \w+|an? \w+)\b", re.I)
"""A sentence that opens with a subject states what happened ("I checked and never saw it"): its "and never …" is no
order to the agent. So does its last clause ("Since 500 >= 400, a 5xx error would be caught by the 500 handler first
and never reach the new check"): the "and" joins that clause's verbs, whatever the sentence opened with."""
_CLAUSE_MARK = re.compile(r"[,;:]\s")
_ELLIPTIC = re.compile(r"(?:always|never)\s{1,3}(?:in|on|at|for|to|from|with|by|into|inside|as|than|the|a|an|any|more"
                       r"|less|when|if|there|here)\b", re.I)
"""An "always"/"never" clause with no verb of its own ("… add it to the website build, and never in the artifacts"):
it shares the verb of the words before it, so it is no rule alone."""


def _open_quote(text: str) -> bool:
    """``text`` leaves a quote open: a straight double quote unpaired, or an opening curly one not closed."""
    return text.count('"') % 2 == 1 or text.count("“") > text.count("”")


def passing_rule(sentence: str) -> tuple[str, str]:
    """A standing rule said in passing in a longer sentence ("Fix the login bug — and never push to main without
    asking me", "修复登录的问题，以后一律用 pnpm"): ``(the words before it, the rule's clause)``, the clause from its
    standing adverb to the sentence's end, without the marks and conjunctions that joined it; ``("", "")`` when the
    sentence holds none, or opens with it (the whole sentence is the rule)."""
    for match in _PASSING.finditer(sentence[:2000]):
        head, joined = sentence[: match.start()].strip(), match.group(0)
        if not head or (joined[:1].isspace() and joined[1:2].isalpha()
                        and (_STATES.match(head) or _STATES.match(_CLAUSE_MARK.split(head)[-1]))):
            continue  # (a bare "and" after a subject: "I checked and never saw it")
        if _open_quote(head):
            continue  # inside a quote: a message's words ("Warn users: \"stored in the browser only, never sent\"")
        clause = sentence[match.end():].strip()
        if _ELLIPTIC.match(clause):
            continue
        return head.rstrip(" ,;:—–-("), clause
    return "", ""


_NO_LEAD = re.compile(r"^\W{0,3}(?:no|nope|nah|actually|rather|wait)\b[\s,.!;:—–-]{1,4}", re.I)
_STOP_DOING = re.compile(r"^\W{0,3}(?:please\s{1,3})?(?:stop|quit|no more)\s{1,3}[a-z]{2,20}ing\b", re.I)
"""A user's "stop editing the generated files": not to do that again."""


def said_on_declining(reason: str) -> list[str]:
    """The sentences of what the user said on declining a call that set a way of working ("don't mock the LLM",
    "keep it in one module"); a question ("is testenv getting too large?"), a fact ("the other branch just got
    merged") or a one-off redirect ("have a look at this first") is the decision the declined call records, no
    lasting rule."""
    found = []
    for sentence in _SENTENCE.split(reason[:4000]):
        sentence = " ".join(sentence.split())
        if not sentence or sentence.endswith(("?", "？")):
            continue
        told = _NO_LEAD.sub("", sentence, count=1)  # "no, use pnpm not npm": the "no" turns down the call
        if lasting(sentence) or _PREFERS.match(told) or _STOP_DOING.match(told):
            found.append(sentence)
    return found


def replaced_names(texts: Sequence[str]) -> set[str]:
    """Code-like names (``toolText``, ``old_parser``, ``config.yaml``) the texts say were replaced or removed."""
    found: set[str] = set()
    for text in texts:
        for match in _REPLACED.finditer(text[:20_000]):
            name = next((group for group in match.groups() if group), "").rstrip(".-")
            if _CODE_NAME.search(name):
                found.add(name.lower())
    return found


def names_any(rule: str, names: set[str]) -> bool:
    """True when ``rule`` names one of ``names`` (as a whole word)."""
    lowered = rule.lower()
    return any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", lowered) for name in names)


def user_choices(request: str) -> list[str]:
    """Sentences of a user's request that pick one way over another ("use SQLite instead of JSON files")."""
    return [_ASSENT_LEAD.sub("", " ".join(s.split()), count=1) for s in _SENTENCE.split(request[:10_000])
            if 12 <= len(s.strip()) <= 300 and _CHOICE.search(s) and _CHOOSER.search(s)
            and not s.strip().endswith(("?", ":")) and not _PICKS_RECOMMENDED.match(s.strip())]


_ASSENT_LEAD = re.compile(r"^\W{0,3}(?:yes|yeah|yep|ok(?:ay)?|sure)\b[\s,.!;:—–-]{1,4}(?=\w)", re.I)
"""The yes before a user's choice ("yes let's switch to X instead"): the choice is what follows it."""


def acknowledged(text: str) -> str:
    """What the agent took the user's reply to settle, in its own words: the sentences after an acknowledgement that
    opens its answer ("Got it — the local journal is being removed, ClickHouse is the only store."; "You're right -
    we shouldn't continue with an empty `baseCommit`."), up to the first that narrates its next step; ``""`` when
    the answer opens with no acknowledgement or goes straight on ("You're right, let me update the script")."""
    ack = _ACKNOWLEDGES.match(text)
    if not ack:
        return ""
    paragraph = text[ack.end():2000].split("\n\n", 1)[0]
    kept: list[str] = []
    for line in paragraph.splitlines():
        if _MARKERS.match(line) or line.lstrip().startswith(("#", "```", "|", ">")):
            break
        for sentence in _SENTENCE.split(line.replace("**", "")):
            sentence = " ".join(sentence.split())
            if not sentence:
                continue
            if _GOES_ON.match(sentence) or _MOVES_ON.match(sentence) or _GOES_ON_INSIDE.search(sentence) \
                    or sentence.endswith((":", "?", "？")) \
                    or len(kept) == _RESTATED:
                return _said(kept)
            kept.append(sentence)
    return _said(kept)


def corrections(text: str) -> list[str]:
    """The agent's corrections of itself in ``text`` (:data:`_RETRACTS`), each as "Corrected: …": the retracting
    sentence and, while it says too little alone, the ones after it (a code block or a question ends it). A hedged
    guess ("the real issue is likely …") corrects nothing yet."""
    found = [" ".join(s.replace("**", "").split()) for s in _SENTENCE.split(text[:20_000])]
    kept: list[str] = []
    taken = 0  # sentences up to here are in a correction already
    for at, sentence in enumerate(found):
        if at < taken or not _RETRACTS.search(sentence) or _HEDGED.search(sentence) or sentence.endswith(("?", "？")):
            continue
        said, taken = [sentence], at + 1
        for following in found[at + 1 : at + 4]:  # "… was a misdiagnosis. The actual issue was: <what>"
            if (len(" ".join(said)) >= _CORRECTION_MIN and not said[-1].endswith((":", "："))) \
                    or following.startswith(("```", "|", "#")) or following.endswith(("?", "？")):
                break
            said.append(following)
            taken += 1
        kept.append(clip_words("Corrected: " + " ".join(said).rstrip(":："), _CORRECTION_CHARS))
    return kept[-1:]  # the last word on it: an earlier retraction in the same answer leads up to it


def _said(kept: list[str]) -> str:
    said = " ".join(kept)
    if len(said.split()) < _SAYS_SOMETHING or _OF_ITSELF.match(said):
        return ""  # "I was wrong.", "I have everything I need.": nothing of what the user settled
    return said


_PICKS_RECOMMENDED = re.compile(
    r"^\W{0,3}(?:(?:ok(?:ay)?|yes|sure|sounds good)\W{1,3})?(?:let'?s\s{1,3})?(?:(?:go|going)\s{1,3}(?:with|for)|do|take|pick|use"
    r"|follow)\s{1,3}(?:the\s{1,3}|your\s{1,3})?(?:recomm?end(?:ed|ation)|suggest(?:ed|ion))\b"
    r"|^\W{0,3}(?:(?:let'?s\s{1,3})?do\s{1,3})?what(?:ever)?\s{1,3}you\s{1,3}(?:recomm?end(?:ed)?|suggest(?:ed)?)\b"
    r"|^\W{0,3}(?:as|per)\s{1,3}(?:you\s{1,3})?(?:recomm?end(?:ed)?|suggest(?:ed)?|your recomm?endation)\b", re.I)
"""A reply that picks the option the agent recommended: "go for recommended" (also misspelt "recomended"), "let's go
with your recommendation", "do what you suggest", "as you recommended"."""
_RECOMMEND_LINE = re.compile(r"^\W{0,4}(?:recommend(?:ed|ation)?|my recommendation|i'?d recommend|i recommend"
                             r"|suggest(?:ed|ion)?)\b\W{0,4}", re.I)
"""The line or sentence where the agent says which it recommends ("**Recommend:** B — …", "I recommend B.")."""


def recommended_option(answer: str) -> tuple[str, str]:
    """``(key, text)`` of the option the answer recommends: the listed option marked "(recommended)", else the one the
    agent's recommending line names by its key, else that line itself with no key; ``("", "")`` when none."""
    listed = _options(answer)
    marked = [key for key, text in listed.items() if _RECOMMENDED.search(text)]
    if len(marked) == 1:
        return marked[0], listed[marked[0]]
    lines = answer[-6000:].splitlines()
    at = next((n for n in range(len(lines) - 1, -1, -1) if _RECOMMEND_LINE.match(lines[n].replace("**", "").strip())),
              None)
    if at is None:
        return "", ""
    said = lines[at].replace("**", "").strip()
    rest = _RECOMMEND_LINE.sub("", said, count=1)
    if said.endswith((":", "：")):  # "**Recommend (hybrid, built at runtime):**" and the list under it
        return "", _plan_under(said.rstrip(":："), _own_list(lines[at + 1 :])) or rest.strip(" ()（）:：")
    key = re.match(r"\(?(?:option\s{0,3})?(\w{1,2})\b", rest, re.I)
    if key and key.group(1).lower() in listed and (len(key.group(1)) == 1 or key.group(1).isdigit()):
        return key.group(1).lower(), listed[key.group(1).lower()]
    return "", rest.rstrip(" .:")


def _asks_to_choose(answer: str) -> bool:
    """True when the answer lists options and closes by asking which."""
    closing = next((line for line in reversed(answer[-6000:].splitlines()) if line.strip()), "")
    return 2 <= len(_options(answer)) <= _CHOICES and bool(_ASKS_TO_CHOOSE.search(closing)) \
        and closing.rstrip().endswith(("?", "？"))


def picked_key(reply: str) -> str:
    """The key a reply picks a listed item by (:data:`_PICK`: "#1 please" → ``1``, "the second one" → ``2``, "B로
    가자" → ``b``, "the last one" → ``last``), ``""`` for none."""
    pick = _PICK.match(reply.strip())
    wanted = next((group for group in pick.groups() if group), "").lower() if pick else ""
    return _ORDINALS.get(wanted, wanted)


def picked_option(answer: str, reply: str) -> str:
    """The option of the agent's answer that the user's reply picks by its number, letter or rank, as listed, or as
    the one the agent recommended."""
    if _PICKS_RECOMMENDED.match(reply.strip()):
        return recommended_option(answer)[1]
    pick = _PICK.match(reply.strip())
    if not pick:
        return ""
    listed = _options(answer)
    wanted = next(group for group in pick.groups() if group).lower()
    if wanted == "last":
        return list(listed.values())[-1] if listed else ""
    return listed.get(_ORDINALS.get(wanted, wanted), "")


def _options(answer: str) -> dict[str, str]:
    """The options the answer listed last, by key (``1``, ``b``)."""
    listed: dict[str, str] = {}
    for line in answer[-6000:].splitlines():
        option = _OPTION.match(line.replace("**", "").strip())
        if option and (option.group(1).isdigit() or len(option.group(1)) == 1):
            key = option.group(1).lower()
            if key in ("1", "a"):
                listed = {}  # a list starts: the options are the last list, after what the agent found
            listed[key] = " ".join(option.group(2).split())
    return listed


def listed_options(answer: str) -> dict[str, str]:
    """The options (or proposals) the answer listed last, by key (``1``, ``b``): see :func:`_options`."""
    return _options(answer)


def _described(answer: str, reply: str) -> str:
    """The listed option a short reply describes in words only that option uses ("put them into a dist dir" for
    ``1. Add outDir: "dist"`` over ``2. Run the .ts files directly``), with the reply: the user chose it, whatever
    the question the answer closed on offered. ``""`` when the reply asks, is long, or matches no option alone, or
    the answer does not close by asking the user to choose."""
    said = " ".join(reply.split())
    listed = _options(answer)
    closing = next((line for line in reversed(answer[-6000:].splitlines()) if line.strip()), "")
    if not 2 <= len(listed) <= _CHOICES or not _ASKS_TO_CHOOSE.search(closing) or not said \
            or len(said) > _REPLY_CHARS or said.endswith(("?", "？")):
        return ""  # a long list (findings), or steps of a plan the answer asks to proceed with, offer no choice
    named = _NAMED_KEY.search(said)
    if named and named.group(1).lower() in listed:  # "(I'd go with option 4 now)": the key said outright decides
        best = named.group(1).lower()
        text = _TABLE_CELLS.sub(": ", _RECOMMENDED.sub("", listed[best])).strip(" |:")
        return f"option {best.upper() if best.isalpha() else best}: {text} — the user: “{clip_words(said, _CHANGES_CHARS)}”"
    words = {key: {w.lower() for w in _WORDS.findall(text)} for key, text in listed.items()}
    used = {w.lower() for w in _WORDS.findall(said)}
    hits = {key: len(used & own.difference(*(w for k, w in words.items() if k != key))) for key, own in words.items()}
    best = max(hits, key=hits.__getitem__)
    if not hits[best] or sorted(hits.values())[-2] == hits[best]:
        return ""
    text = _TABLE_CELLS.sub(": ", _RECOMMENDED.sub("", listed[best])).strip(" |:")
    return f"option {best.upper() if best.isalpha() else best}: {text} — the user: “{clip_words(said, _CHANGES_CHARS)}”"


def _named(answer: str, reply: str) -> str:
    """The alternative a short reply chooses by the name the answer gave it ("choose Version B", "go with
    `LruCache`"): the answer's last sentence naming it, with the reply. ``""`` when the reply names none the answer
    mentions, asks, or is long."""
    said = " ".join(reply.split())
    chosen = _CHOSEN.search(said)
    if not chosen or len(said) > _REPLY_CHARS or said.endswith(("?", "？")):
        return ""
    label = re.compile(r"(?<![\w`])" + r"\s+".join(map(re.escape, chosen.group(1).split())) + r"(?![\w`])", re.I)
    naming = [s for s in (" ".join(s.split()) for s in _SENTENCE.split(answer[-4000:])) if label.search(s)
              and not s.endswith(("?", "？"))]
    return f"{clip_words(naming[-1], _PLAN_CHARS)} — the user: “{clip_words(said, _CHANGES_CHARS)}”" if naming else ""


_NUMBERED = re.compile(r"^\W{0,8}(\d{1,2})\s{0,2}[.):]\s{1,4}(\S.{2,300})$")
_ANSWER_KEY = re.compile(r"(?:^|(?<=[\n,;]))\s{0,3}(?:q(?:uestion)?\s{0,2})?(\d{1,2})\s{0,2}[.):=-]\s{0,4}(?=\S)", re.I)
"""A numbered answer in the user's reply: at its start, on a new line, or after a comma or a semicolon ("1. yes,
2. use Postgres", "1) …\n2) …", "Q3: skip")."""
_QUESTION_CHARS = 110
_ANSWER_CHARS = 80
_ANSWERS_CHARS = 600
_PLAN_BRIEF_CHARS = 120


_SUBJECT = re.compile(r"([^:?\n]{3,40}?)\s{0,2}[:—–]\s")
"""A question that opens with its subject ("Depth limit: how far back should we look?")."""


def _subject(question: str) -> str:
    """What a question is about: the subject it opens with, else the question itself, cut short."""
    subject = _SUBJECT.match(question)
    return subject.group(1).strip() if subject else clip_words(question, _QUESTION_CHARS)


def answered_questions(answer: str, reply: str) -> str:
    """The agent's numbered questions the user answered one by one, by number ("1. yes, 2. use Postgres, 3. skip
    auth for now"), each question with its answer: every answer settles a point of the design, so together they
    are the decisions of that review. ``""`` unless the answer's last numbered list holds at least two questions
    and the reply answers at least two of them."""
    questions: dict[str, str] = {}
    for line in answer[-6000:].splitlines():
        numbered = _NUMBERED.match(line.replace("**", "").strip())
        if numbered:
            if numbered.group(1) == "1":
                questions = {}  # a list starts: the questions are the last list
            questions[numbered.group(1)] = " ".join(numbered.group(2).split())
    questions = {key: text for key, text in questions.items() if "?" in text or "？" in text}
    said = reply.strip()[:_ANSWERS_CHARS]
    if len(questions) < 2 or len(reply.strip()) > _ANSWERS_CHARS:
        return ""
    keys = list(_ANSWER_KEY.finditer(said))
    answers = {key.group(1): said[key.end():keys[n + 1].start() if n + 1 < len(keys) else len(said)]
               for n, key in enumerate(keys)}
    settled = [f"{_subject(questions[key])} → “{clip_words(' '.join(text.split()).strip(' ,;'), _ANSWER_CHARS)}”"
               for key, text in answers.items() if key in questions and text.strip(" ,;\n")]
    if len(settled) < 2:
        return ""
    plan = _proposed_plan(answer)  # the proposal the questions were about, when the answer laid one out
    lead = f"{clip_words(plan, _PLAN_BRIEF_CHARS)} — the user answered its questions: " if plan else \
        "the agent's questions, answered: "
    return lead + "; ".join(settled)


def accepted_proposal(answer: str, reply: str) -> str:
    """What the user agreed to, as a statement: the option the reply picks when the answer listed options; else the
    agent's proposal (the last sentence of its answer that proposes, or the plan it listed before its question) when
    the reply accepts it, in yes-words or as a judgement ("the approach is good", "方針は良いです"), with the changes
    the user asked for in the same reply; the agent's numbered questions answered one by one, each with its answer
    (:func:`answered_questions`). A proposal asked as a question says what it would do ("Shall I keep the
    cache in memory?" → "keep the cache in memory"); one that only points back ("Want me to go ahead?") is the
    recommendation before it; a question between alternatives ("fix it here, or open an issue?") that a bare "yes"
    answers decides nothing, one that names a way does (:func:`.alternatives.chosen_way`)."""
    picked = answered_questions(answer, reply) or _picked(answer, reply) or _described(answer, reply) \
        or _named(answer, reply)
    if picked:
        return picked
    changes = _approving(reply)
    if changes is None:
        return chosen_way(answer, reply)  # "Redis or SQLite?" — "SQLite": no yes, the way named
    if _asks_to_choose(answer) and not re.search(r"\w", _past_approval(reply) or ""):
        return _picked(answer, "go for recommended")  # "Go for it" to "A or B — which one?": the recommended one
    agreed = _proposal(answer, reply)
    changes = _before_error(changes)
    if agreed and changes and "the user:" not in agreed:
        return f"{agreed} — the user added: “{clip_words(changes, _CHANGES_CHARS)}”"
    return agreed


_REPORTS_ERROR = re.compile(
    r"\b(?:i'?m|i am|we'?re|still|now)\s{1,3}(?:getting|seeing|hitting)\b|\b(?:getting|got|seeing|hit)\s{1,3}(?:the\s{1,3}"
    r"following|this|these|an?)\s{1,3}(?:errors?|exceptions?)\b|\b(?:it|that|this)\s{1,3}(?:fails|failed|crashes|crashed"
    r"|throws|threw)\b|(?-i:\b[A-Z]?\w{0,40}(?:Error|Exception)\s{0,2}:\s)|\bTraceback\b", re.I)
"""Where a reply turns to report an error ("i'm getting the following error now …", "that fails with …",
"TypeError: …"): what follows is the error, not what the user asked to change."""


def _before_error(changes: str) -> str:
    """The user's changes with an approval, up to the error the same reply reports (:data:`_REPORTS_ERROR`): "yes
    let's switch to X after we figure this out. i'm getting the following error now …" changed the way to X."""
    found = _REPORTS_ERROR.search(changes)
    if not found:
        return changes
    kept = changes[:found.start()].strip(" ,;:-—–")
    return kept if len(kept.split()) >= _CHANGES_WORDS else ""


def answered_proposal(answer: str, reply: str) -> str:
    """A plan the agent proposed before its closing question (see :func:`_proposed_plan`) and the user's reply to it
    in words no approval list knows ("Proceed, but keep the old flag", "その方針で、テストも追加して"): the reply
    settles the plan one way or another, so both are kept, the reply verbatim. ``""`` when nothing was proposed, or
    the reply asks, refuses or is long (a new request, pasted output)."""
    said = " ".join(reply.split())
    first = next((s for s in _SENTENCE.split(reply.strip()[:2000]) if s.strip()), "")
    if not said or len(said) > _REPLY_CHARS or first.rstrip().endswith(("?", "？")) or _REFUSES.match(said):
        return ""
    plan = _proposed_plan(answer)
    return f"{plan} — the user: “{clip_words(said, _CHANGES_CHARS)}”" if plan else ""


_GENERIC_TITLE = re.compile(r"\b(?:the|an?|(?:implementation|proposed|final|revised|updated|my|our|action|work)"
                            r"|plan|design|approach|overview|summary)\b|[^\w\s]", re.I)
"""Words of a plan's title that name no part of it ("# Implementation Plan", "# Plan"): such a title says nothing of
what was approved, the plan's first items do."""


def plan_in_brief(plan: str) -> str:
    """A plan the user approved through the agent's plan tool, in brief: its title (the plan itself is kept in a
    file the next agent can read) when it names something, else its first list items."""
    lines = [line.strip() for line in plan[:20_000].splitlines()]
    title = next((line.lstrip("#").strip() for line in lines if line.startswith("#")), "")
    if len(_GENERIC_TITLE.sub("", title).split()) >= 2:
        return clip_words(title, _BRIEF_CHARS)
    items = [line[m.end():].replace("**", "").strip() for line in lines for m in [_MARKERS.match(line)] if m]
    return clip_words("; ".join(items[:_LISTED]) or title, _BRIEF_CHARS)


def _past_approval(reply: str) -> str | None:
    """What a reply says after the words that accept ("yeah, sounds good, go ahead — but later" → "but later");
    ``None`` when it does not open by accepting."""
    said = _THANKS.sub("", reply.strip(), count=1)
    first = next((s for s in _SENTENCE.split(said[:2000]) if s.strip()), "")
    approval = _APPROVAL.match(said) or (_JUDGED_GOOD.match(said) if not first.rstrip().endswith(("?", "？")) else None)
    if not approval:
        return None  # ("is the approach good?" judges nothing)
    while approval:  # approvals only
        said = _CHANGES_LEAD.sub("", said[approval.end():], count=1)
        approval = (_APPROVAL.match(said) or _JUDGED_GOOD.match(said)) if said else None
    return said


def _approving(reply: str) -> str | None:
    """The changes a reply that accepts the proposal asks for with it (``""`` for none: "yes", "sounds good, go
    ahead"); ``None`` when the reply does not accept (it asks, refuses, or says something else)."""
    said = _past_approval(reply)
    if said is None:
        return None
    said = " ".join(said.split())
    enough = len(said.split()) >= _CHANGES_WORDS or len(_CJK.findall(said)) >= _CHANGES_CJK
    vague = _VAGUE.match(said) or (len(said.split()) <= _VAGUE_WORDS and _VAGUE.search(said))
    return said if enough and not vague and not said.endswith(("?", "？")) else ""  # a question changes nothing


def _proposal(answer: str, reply: str) -> str:
    """The proposal of ``answer`` the reply accepted (see :func:`accepted_proposal`)."""
    found = [" ".join(s.split()) for s in _SENTENCE.split(answer[-4000:]) if s.strip()]
    at = next((n for n in range(len(found) - 1, -1, -1) if _PROPOSAL.search(found[n])), None)
    if at is None:
        return _proposed_plan(answer) or _headed_proposal(answer)
    before = found[at - 1] if at else ""
    if found[at].endswith(":"):  # "Want me to implement this with both:": what it offers is the list after it
        return _offered_list(found[at], _lines_after(answer[-4000:], found[at]) or found[at + 1 :])
    if not found[at].endswith(("?", "？")):
        if len(found[at].split()) < 7 or _POINTS_BACK.search(found[at]):  # "Option B it is, then."
            return _list_before(answer[-4000:], found[at]) or f"{before} {found[at]}".strip()
        return found[at]
    plan = _proposed_plan(answer)
    if plan and not _offers_action(found[at]):  # "Shall I proceed?" after the plan: the plan is what was agreed
        return plan
    return _agreed_action(found[at], before, reply) or plan


def _list_before(answer: str, sentence: str) -> str:
    """The list a short proposal points back to ("With `tenacity` we get: - retries; - jitter. I'd use it."): the
    list that ends right before the sentence, with its intro line; ``""`` when the sentence follows no list."""
    lines = answer.splitlines()
    at = next((n for n in range(len(lines) - 1, -1, -1) if sentence[:40] in " ".join(lines[n].split())), None)
    end = at
    while end and not lines[end - 1].strip():
        end -= 1
    if not end or not _MARKERS.match(lines[end - 1]):
        return ""
    first = end - 1
    while first and _MARKERS.match(lines[first - 1]):
        first -= 1
    intro = lines[first - 1].replace("**", "").strip() if first else ""
    return _plan_under(intro, lines[first:end]) if intro and not _MARKERS.match(intro) else ""


def _offers_action(question: str) -> bool:
    """True when a question names the action it offers ("Should I remove the unused helper?"), not only points back
    ("Shall I proceed?", "Want me to implement it?")."""
    asks = None
    for asks in _ASKS.finditer(question):
        pass
    action = question[asks.end():].rstrip("?？ ").strip() if asks else ""
    return len(action.split()) >= 3 and not _POINTS_BACK.search(action) and not _VAGUE.search(action)


def _proposed_plan(answer: str) -> str:
    """The proposal an answer makes before the question it ends on: the nearest line above the question that
    introduces a plan ("I propose the following design:", "## 実装方針", "**Recommended approach:**") with the first
    items or sub-headings under it, or the nearest sentence that proposes ("I recommend we keep the parser inline.").
    A list nothing proposes (what the agent found, open questions, a summary of changes) is not what a "yes" accepts."""
    lines = [line.strip() for line in answer[-6000:].splitlines()]
    end = max((n for n, line in enumerate(lines) if line), default=-1)
    if end < 1 or len(lines[end]) > _CLOSING_CHARS or not _INVITES.search(lines[end]):
        return ""
    fenced = False
    for at in range(end - 1, max(end - _PLAN_LINES, -1), -1):
        line = lines[at]
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not line or line.startswith(("```", "|")):
            continue
        bare = line.lstrip("#>").replace("**", "").strip()
        if _introduces_plan(line, bare):
            return _plan_under(bare, lines[at + 1 : end])
        if _PROPOSES.search(bare) and not _MARKERS.match(bare):
            proposing = [s.strip() for s in _SENTENCE.split(bare) if _PROPOSES.search(s)]
            if not proposing or proposing[-1].endswith((":", "：")):
                return ""  # "Here's my proposed structure:" over a tree: what it proposes is not in words
            return clip_words(_HEDGE.sub("", proposing[-1]), _PLAN_CHARS)
    return ""


def _headed_proposal(answer: str) -> str:
    """The proposal under the answer's last heading that names one ("## Proposed Refactor", "## My Recommendation",
    "### Recommended: per-file pools"), when no closing question hands it over: the user's yes to the answer is
    the yes to it. The heading's own title and its first items say what was agreed; a heading of options or next
    steps offers choices, which a bare yes does not pick."""
    lines = [line.strip() for line in answer[-6000:].splitlines()]
    fenced, found = False, None
    for at, line in enumerate(lines):
        fenced = fenced != line.startswith("```")
        if not fenced and _PROPOSAL_HEADING.match(line) and not _OFFERS_CHOICES.search(line):
            found = at
    if found is None:
        return ""
    bare = lines[found].lstrip("#").replace("**", "").strip()
    title = bare.split(":", 1)[1].strip() if ":" in bare else ""
    return _plan_under(bare, _own_list(lines[found + 1:])) or (
        clip_words(bare, _PLAN_CHARS) if len(title.split()) >= 2 else "")


def _own_list(below: list[str]) -> list[str]:
    """The lines of the list right under a heading, up to the next heading or the prose after the list ("This
    cleanly separates:" and its own list explain the proposal, they are not its parts)."""
    kept, fenced, listed = [], False, False
    for line in below:
        fenced = fenced != line.startswith("```")
        if not (fenced or line.startswith("```") or not line):
            if line.startswith("#") or (listed and not _MARKERS.match(line)):
                break
            listed = listed or bool(_MARKERS.match(line))
        kept.append(line)
    return kept


def _introduces_plan(line: str, bare: str) -> bool:
    """A heading that names a plan ("## Proposed design", "### 実装方針"), or a short line before a colon that does
    ("Recommended approach:"); a sentence that says what the code does ("Auto-commit uses a different approach - it
    skips X:") or what the user suggested ("you're suggesting:") introduces none."""
    if not _PLANS.search(bare) or re.search(r"\byou", bare, re.I):
        return False
    return line.startswith("#") or (bare.endswith((":", "：")) and (len(bare) <= _INTRO_CHARS or bool(
        _PROPOSES.search(bare))))


def _plan_under(intro: str, below: list[str]) -> str:
    """A plan's intro line and the first items or sub-headings under it, each cut short: the plan's parts by name."""
    parts, fenced = [], False
    for line in below:
        if line.startswith("```"):
            fenced = not fenced
            continue
        bare = line.lstrip("#").replace("**", "").strip()
        marker = _MARKERS.match(bare)
        if fenced or not bare or not (marker or line.startswith("#")):
            continue
        parts.append(clip_words(bare[marker.end():] if marker else bare, _PART_CHARS))
        if len(parts) == _LISTED:
            break
    if not parts:
        return ""  # the plan is a table, a tree or prose: its intro alone names nothing
    intro = [s for s in _SENTENCE.split(intro) if s.strip()][-1].strip()
    return clip_words(f"{_HEDGE.sub('', intro).rstrip(': ：')}: {'; '.join(parts)}", _PLAN_CHARS)


def _picked(answer: str, reply: str) -> str:
    """The option the reply picks, named by its key (``option 2: …``): a list of questions offers no option."""
    pick = _PICK.match(reply.strip())
    text = picked_option(answer, reply)
    if _PICKS_RECOMMENDED.match(reply.strip()):
        key, text = recommended_option(answer)
        text = _TABLE_CELLS.sub(": ", _RECOMMENDED.sub("", text)).strip(" |:")
        named = f"option {key.upper() if key.isalpha() else key}: {text}" if key else text
        return f"{named} (as the agent recommended)" if text and not text.endswith(("?", "？")) else ""
    if not pick or not text or text.endswith(("?", "？")):
        return ""
    key = next(group for group in pick.groups() if group).lower()
    key = _ORDINALS.get(key, key)
    text = _TABLE_CELLS.sub(": ", _RECOMMENDED.sub("", text)).strip(" |:")
    picked = text if key == "last" else f"option {key.upper() if key.isalpha() else key}: {text}"
    added = _added_to_pick(reply.strip()[pick.end():])
    return f"{picked} — the user added: “{added}”" if added else picked


def _added_to_pick(rest: str) -> str:
    """What a pick says past its key ("b, and also add an index on user_id", "option A but keep the TTL at 5
    minutes", "B, mas mantenha a tabela antiga"): the user's condition on the option, opened by "but", "and also",
    "except", … (:data:`_CONDITION`), part of what was settled; ``""`` for a courtesy, a few words, a remark or a
    request of its own ("B please", "2 for now", "1 — this has happened twice now", "2, can you file the issue?")."""
    said = " ".join(rest.split()).strip(" ,;:.!-–—")
    if not _CONDITION.match(said) or said.endswith(("?", "？")):
        return ""  # (a remark, a new request or a question after the pick is not a condition on the option)
    enough = len(said.split()) >= _ADDED_WORDS or len(_CJK.findall(said)) >= _ADDED_CJK
    return clip_words(said, _CHANGES_CHARS) if enough else ""


def _lines_after(text: str, sentence: str) -> list[str]:
    """The lines of ``text`` after the one that ends on ``sentence`` (read whole: a sentence split would cut a
    numbered item's "1." from its words); ``[]`` when no line ends on it."""
    lines = text.splitlines()
    tail = sentence[-40:]
    at = next((n for n in range(len(lines) - 1, -1, -1) if " ".join(lines[n].split()).endswith(tail)), None)
    return [] if at is None else [line.strip() for line in lines[at + 1:] if line.strip()]


_BARE_OFFER = re.compile(r"\W{0,3}(?:(?:would|do) you (?:like|want) me to|want me to|shall I|should I|I can)\W{0,3}",
                         re.I)
"""An offer that says nothing but that it offers ("Would you like me to:"): the list after it is what it offers."""


def _offered_list(question: str, after: list[str]) -> str:
    """An offer that introduces a list, with the list's first items: what the user said yes to."""
    asks = None
    for asks in _ASKS.finditer(question):
        pass
    listed = []
    for line in after[:_LISTED]:
        marker = _MARKERS.match(line)
        if not marker:
            break
        listed.append(line[marker.end():].strip())
    if not listed:
        return ""
    action = (question[asks.end():] if asks else question).replace("**", "")
    action = action.split("?", 1)[0] if "?" in action else action  # "Want me to X? I can:": X
    action = "" if _BARE_OFFER.fullmatch(action) else action.rstrip(": ")  # "Would you like me to:": the list says
    listed = [item.replace("**", "") for item in listed]
    return f"{action}: {'; '.join(listed)}" if action else "; ".join(listed)


def _answered(alternatives: str, reply: str) -> str:
    """A question between alternatives and the user's words past the "yes" (``yes - commit, push, reply``): what
    they chose, in their words; a bare "yes" chose nothing."""
    said = reply.strip()
    approval = _APPROVAL.match(said)
    if not approval:
        return ""
    while approval:  # "yeah, let's do it": approvals only
        said = said[approval.end():].strip(" -–—,.:;!")
        approval = _APPROVAL.match(said) if said else None
    said = next(iter(_SENTENCE.split(said)), "").strip()
    offered = {word.lower() for word in _WORDS.findall(alternatives)}
    if len(said.split()) < 2 or said.endswith(("?", "？")) or not offered & {w.lower() for w in _WORDS.findall(said)}:
        return ""  # an answer about something else ("okay, so what have we got?") chose none of them
    return f"{alternatives} — the user: “{said}”"


_OFFER_ASKS = re.compile(r"(?:をしますか|しますか|しましょうか|してもよろしいですか|してもいいですか|할까요|하시겠습니까"
                         r"|해 드릴까요)[？?]\s{0,3}$")
_OFFER_AFTER_ZH = re.compile(r"^\W{0,3}(?:要我|需要我)(?P<zh>[^。！？?!\n]{2,120}?)吗?[？?]\s{0,3}$")
_SENTENCE_STOP = re.compile(r"[。！？?!\n]")
_OFFER_CHARS = 120


def _offered_before(question: str) -> str:
    """The action a question offers before its asking words, as Japanese and Korean do ("コミットしますか？",
    "커밋할까요?": up to :data:`_OFFER_CHARS` of its sentence before them), or after "要我" in Chinese ("要我提交吗？").
    The asking words are found first and the action read back from them, so a long run of text is read once."""
    text = question[-300:]
    zh = _OFFER_AFTER_ZH.search(text)
    if zh:
        return zh.group("zh").strip()
    asks = _OFFER_ASKS.search(text)
    if not asks:
        return ""
    action = _SENTENCE_STOP.split(text[: asks.start()])[-1][-_OFFER_CHARS:].strip()
    return action if len(action) >= 2 else ""


def _agreed_action(question: str, before: str, reply: str = "") -> str:
    """The action a question offered ("Should I remove the unused `StageFiles()`?"), as a statement, with the
    recommendation before it when there is one; a question that only points back is that recommendation."""
    asks = None
    for asks in _ASKS.finditer(question):
        pass
    if asks is None:
        return _offered_before(question)
    if _ALTERNATIVES.search(question[asks.end():]):
        return _answered(question[asks.end():].rstrip("?？ ").strip(), reply)
    action = question[asks.end():].rstrip("?？ ").strip()
    listed = _MARKERS.match(before)
    context = _HEDGE.sub("", before[listed.end():] if listed else before).strip()
    usable = not listed and len(context.split()) >= 6 and not context.endswith(("?", "？", ":")) \
        and not context.startswith(("```", "|"))
    if _offers_action(question):
        return f"{action}: {context}" if usable and _RECOMMENDS.search(before) else action
    if not usable:
        return ""
    return context if _RECOMMENDS.search(before) else f"{action}: {context}"


_DECISIONS_HEADING = re.compile(
    r"^\s{0,3}(?:#{1,6}\s{1,3}|\*\*)?(?:(?:key|user|design|architectural|architecture|technical|main|major|important"
    r"|final|our|agreed|confirmed|implementation)\s{1,3}){0,3}decisions?(?:\s{1,3}(?:already\s{1,3})?(?:made|taken"
    r"|settled))?\s{0,3}(?:\*\*)?(?::\s{0,3}(?:\*\*)?\s{0,3}$|\s{0,3}[-–—(]|$)",
    re.I,
)
"""A heading that lists choices made ("## User Decisions", "**Key design decisions:**", "## Decisions — do not
relitigate"); one that lists choices to make ("## Open decisions", "## Decision Drivers", "## Decision Point")
has a word after "decision" other than made/taken/settled, so it does not match; nor does "**Decision:** implement
it by hand, since:", which says the choice itself (its list gives the reasons)."""
_LIST_ITEM = re.compile(r"^\s{0,1}(?:[-*+•]|\d{1,2}[.)])\s{1,3}(\S.*)$")
_LISTED_DECISIONS = 5
_EXPECTED_READ = 4_000
_EXPECTED_CHARS = 200
_EXPECTED_MOST = 2
_LISTED_CHARS = 200
_ITEM_READ_CHARS = 1000
"""An item's wrapped lines are read up to this many characters (its first sentences are what is kept)."""


def _whole_item(item: str) -> str:
    """A listed decision as whole sentences: those that fit in :data:`_LISTED_CHARS`, else the first cut at the end
    of a clause (a hard-wrapped item read by its first line alone ends mid-clause: "… Drop")."""
    said = " ".join(item.replace("**", "").split())
    if len(said) <= _LISTED_CHARS:
        return said
    kept = ""
    for sentence in sentences(said):
        if len(kept) + len(sentence) + 1 > _LISTED_CHARS:
            break
        kept = f"{kept} {sentence}".strip()
    return kept or clause_cut(said, _LISTED_CHARS)


def listed_decisions(text: str) -> list[str]:
    """The items of a list under a heading of decisions made (:data:`_DECISIONS_HEADING`) in ``text``: a plan the
    user hands over ("Implement the following plan: … ## User Decisions - **Policy**: …") or the agent's report
    ("## Key design decisions - …") states its choices there, each an item with its reason, in words no sentence
    rule reads as a choice. At most :data:`_LISTED_DECISIONS` per list, the first line of each item."""
    found: list[str] = []
    lines = text[:50_000].splitlines()
    for at, line in enumerate(lines):
        if not _DECISIONS_HEADING.match(line):
            continue
        items: list[str] = []
        for below in lines[at + 1:]:
            if not below.strip():
                continue
            item = _LIST_ITEM.match(below)
            if item:
                items.append(item.group(1))
            elif below.startswith((" ", "\t")) and items:
                if len(items[-1]) < _ITEM_READ_CHARS:  # an item's own further lines: a wrapped sentence goes on
                    items[-1] += " " + below.strip()
                continue
            else:
                break  # the list ended: a heading, a paragraph, a rule
            if len(items) >= _LISTED_DECISIONS:
                break
        found += [_whole_item(item) for item in items if len(item) >= 12]
    found += [chosen for chosen in plan_choices(text) if chosen not in found]  # a plan's tables, replacements
    return found + _expectations(text)


def _expectations(text: str) -> list[str]:
    """The user's expectations of how the thing should work (:data:`_EXPECTED`), as what the user expects: a
    design point the agent is to follow, not a rule that outlives the request."""
    found = []
    for sentence in sentences(text[:_EXPECTED_READ]):
        expected = _EXPECTED.match(sentence)
        if expected and not sentence.rstrip().endswith("?"):
            found.append(clip_words(f"The user expects: {sentence[expected.end(1):].strip()}", _EXPECTED_CHARS))
    return found[:_EXPECTED_MOST]


_DANGLING = frozenset("""of for to in on at by with from into onto over under about via than as per without within
    between through toward towards against and or but nor so because since while whereas although though if unless
    until when where whether that which who whose the a an this these those its their our my your we i they he she
    is are was were be been will would should can could must has have had using""".split())
"""Words no clause ends on: a preposition, a conjunction, an article or determiner, a subject or an auxiliary
left without what it governs ("and use the cache for the", "which means that we", "… manually since:")."""
_MOST_DANGLING = 4
_CUT_MARKS = " \t,;:—–-(*_"
_CLAUSE_LABEL = re.compile(r"^[A-Z][\w ]{0,40}: (?:\*\*[^*\n]{1,40}\*\*:? )?")
"""The label an item carries before its words ("Agreed with the user: ", "**Decision:** ")."""
_JOINED_ON = re.compile(r"(?:and|or|but|so|then|also)\s{1,3}(?=[a-z`])")
"""A lower-case conjunction an item opens on: the rest of a sentence whose head was cut off."""
_RELATIVE = re.compile(r"(?:which|whereas|whose|who)\s")
"""A relative word an item opens on: it qualifies a head the item lost, it reads as no clause alone."""
_CLAUSE_WORDS = re.compile(r"[^\W\d_]{2,}")
_CLAUSE_MIN = 3


def whole_clause(item: str) -> str:
    """``item`` (a Key Decision) as a whole clause: the words a cut left dangling at its end (:data:`_DANGLING`,
    with the colon that opened a list) dropped, and an opening conjunction whose head was lost dropped with them;
    ``""`` when no clause is left (an item opening on a relative word, or a cut one of fewer than :data:`_CLAUSE_MIN`
    words).
    An item its writer ended (a full stop, a question mark) is left alone, as is one ending on a quote, a parenthesis
    or the mark of a cut (``…``): what ends there was meant to."""
    if item.rstrip().endswith((".", "!", "?", "。", "！", "？")):
        return item  # a sentence its writer ended ("the file we depend on.")
    label = _CLAUSE_LABEL.match(item)
    head, core = (item[:label.end()], item[label.end():]) if label else ("", item)
    if _RELATIVE.match(core):
        return ""
    joined = _JOINED_ON.match(core)
    text, cut = core[joined.end():].rstrip() if joined else core.rstrip(), bool(joined)
    for _ in range(_MOST_DANGLING):
        body = text.rstrip(_CUT_MARKS)
        before, _, last = body.rpartition(" ")
        if not before or last.lower().strip("*_`") not in _DANGLING:
            break
        text, cut = before.rstrip(_CUT_MARKS), True
    if not cut:
        return item
    return head + text if len(_CLAUSE_WORDS.findall(text)) >= _CLAUSE_MIN else ""



# -- the gate: is a sentence a rule? ------------------------------------------------------------------------------

# A rule addressed to the agent. "must"-like words state one whoever the subject is; "don't"-like words only as an
# imperative (not after "I", "it", "you", "will", …: "I don't understand", "it never worked" state facts).
_RULE = re.compile(
    r"\b(?:must|mustn'?t|make sure|no more than|at most|not allowed|forbidden|only (?:want|use|need|touch|change|edit))\b"
    r"|^(?:please\s+)?only\b|不要|不能|必须|务必|禁止|切勿|请勿|不许|不得|不可|只能|只用|确保|记得|永远|始终|总是"
    r"|(?<![特区分类级个识告差性判鉴辨派离道久])别(?![人的处名])",
    re.I | re.A,
)
_IMPERATIVE = re.compile(r"\b(?:don'?t|dont|do not|never(?! mind)|always|avoid|ensure)\b", re.I | re.A)
_KEEP_RULE = re.compile(r"^(?:please\s{1,5})?(?:keep|leave)\b(?:[^.,;\n]|\.(?=\S)){0,120}?\b(?:unchanged|stable|intact|as it is|as is"
                        r"|backwards? compatible|alone|untouched|the same)\b", re.I | re.A)
"""``Keep the public API `parse_file(path)` unchanged.``: a rule without must/never (not "keep going")."""
_DESCRIBING_VERBS = frozenset({"has", "had", "is", "was", "were", "does", "did", "gets", "got"})
_NOT_A_RULE = re.compile(r"\b(?:instead|should|shouldn'?t)\b", re.I | re.A)
_SUBJECTS = frozenset({"i", "we", "it", "that", "this", "they", "he", "she", "which", "who", "you", "there", "what",
                       "it's", "that's", "i'm", "you're", "we're", "they're", "will", "would", "can", "could", "does",
                       "did", "may", "might", "to", "almost", "just", "also", "i'd", "we'd", "you'd", "i've", "and",
                       "or", "if", "when", "but", "so", "because", "still", "people", "users", "agents", "one"})


def is_rule(sentence: str, stated: bool = True) -> bool:
    """True when ``sentence`` states a rule addressed to the agent (see :func:`.facts.constraint_sentences`), or asks the
    agent to keep one from now on (:func:`standing`: "going forward you should …" rules too), or states one in a
    form with no "must" or "never" (:func:`stated_rule`: a preference, a verbless "no X", a style rule, a scope),
    unless not ``stated`` (a bare line of a longer message, which may be pasted output)."""
    if standing(sentence) or (stated and stated_rule(sentence)):
        return True
    if _NOT_A_RULE.search(sentence):
        return False
    if _RULE.search(sentence) or _KEEP_RULE.match(sentence) or ORDER_ABROAD.match(sentence):
        return True
    for match in _IMPERATIVE.finditer(sentence):
        before = sentence[: match.start()].rstrip().rsplit(None, 1)
        if (not before or before[-1].lower().strip("(\"'*_") not in _SUBJECTS) and not _describes(match, sentence):
            return True
    return False


def _describes(match: re.Match[str], sentence: str) -> bool:
    """True when "always"/"never" qualifies a verb in the third person or a participle ("always requires a fee",
    "never inspected"): a description of what some code does, not an order to the agent ("always run the tests")."""
    if match.group(0).lower() not in ("always", "never"):
        return False
    following = re.match(r"\W{0,3}([A-Za-z]+)", sentence[match.end() :])
    word = following.group(1).lower() if following else ""
    if word in _DESCRIBING_VERBS:
        return True
    if len(word) > 3 and word.endswith("s") and word[-2:] not in ("ss", "us", "is", "as"):
        return True
    return len(word) > 3 and word.endswith("ed") and not word.endswith(("eed", "bed"))




_LEAD = (r"^\W{0,3}(?:(?:no|nope|nah|não|nao|non|nein|nee)\s{0,2}[,.!;:—–-]{1,2}\s{0,3})?"
         r"(?:(?:and|also|but|so|oh|again|please|pls|e|y|et|und|mas|pero|mais|aber|bitte|por favor),?\s{1,3}){0,2}")
"""What may open a rule before its form: a "no," that turns down what the agent did ("Nein, kein Redis"), a
conjunction, a please."""
_END = (r"(?:,\s{0,3}(?:please|pls|thanks|por favor|bitte|s'il (?:te|vous) pla[iî]t|obrigad[oa]|gracias|merci|danke))?"
        r"\s{0,3}[.!]{0,3}\s{0,3}$")
"""What may close it: a courtesy and a full stop."""
_NO_THING = re.compile(
    _LEAD + r"(?:(?<!\w)(?P<en>no(?:\s{1,3}more)?|zero)\s{1,3}|(?<!\w)(?:" + "|".join(NO_THING.values()) + r")"
    r"(?:(?<=')|\s{1,3}))(?P<rest>[^\s,;:.!?\n][^,;:.!?\n]{0,119})" + _END, re.I)
"""A prohibition without a verb: "No mocks in the integration tests.", "No more emojis.", "No, no Redis.", "Nein,
kein Redis.", "Não, sem Docker.", "No, nada de ORM.", "Pas d'ORM." — the whole sentence a "no" and a thing (with
where it may not go); :func:`_forbids` reads the thing."""
_REPORTED = re.compile("|".join(rf"(?:{forms})(?!\w)" for forms in REPORTED.values()), re.I)
_FINITE = frozenset("""is are was were be been being has have had did does do done will would could can may might
    found failed passed broke ran run worked works showed shows appeared appears exist exists existed seem seems
    seemed remain remains remained left came come got get gets returned returns happened happens changed occurred
    yet so far anymore é são foi foram tem têm há houve está estão ficou es son fue fueron hay hubo tiene tienen est
    sont était ont ist sind war waren hat haben wurde wurden gibt gab""".split())
"""Finite verbs and the like: a "no X" with one states a fact ("No tests failed", "Kein Test ist rot")."""
_PREPOSITIONS = frozenset("""in on to for from into at inside outside within without unless until anywhere across
    under near over before after em no na nos nas para en para dans sur pour avant après im in auf für vor nach""".split())
_NO_THING_WORDS = 12


def _forbids(match: re.Match[str]) -> bool:
    """True when the thing a "no" names is one the agent could bring in (not a report: "No errors", "Keine Ahnung")
    and nothing after it is a verb that states what happened ("No tests failed", "No changes were made"); a word in
    -ed right after the thing is such a verb ("no files changed"), one before it qualifies it ("no hardcoded paths")."""
    rest = match.group("rest")
    words = [word.lower().strip("`'\"*_()") for word in rest.split()]
    if not words or len(words) > _NO_THING_WORDS or _REPORTED.match(rest) or any(w in _FINITE for w in words):
        return False
    for word in words[1:]:
        if word in _PREPOSITIONS:
            break
        if match.group("en") and len(word) > 3 and word.endswith("ed") and not word.endswith("eed"):
            return False
    return True


_NOTHING = re.compile(r"^\W{0,3}nothing\s{1,3}(?:(?:in|under|inside|outside|from|within)\s[^.;!?\n]{1,80}?\s"
                      r"(?:may|shall|is to|are to|goes|gets|ever)\s|(?:goes|gets|lands|ships|merges?|is merged"
                      r"|is pushed|is committed)\s[^.;!?\n]{1,80}?\b(?:without|unless|until|before)\b)", re.I)
"""A prohibition on a whole scope: "Nothing in core may import from the CLI", "Nothing gets merged without review"
(not "nothing in the logs shows it": a report)."""
_WAY_VERBS = (r"(?:keep|use|stick|stay|store|put|write|go with|have|avoid|leave|add|touch|change|run|name|format|pin"
              r"|target|default|rely|depend|mock|call|ship|split|spell|log)")
_PREFERENCE = re.compile(
    _LEAD + r"(?:i|we)(?:'d|\s{1,3}would)?\s{1,3}(?:(?:really|much|strongly|still|definitely)\s{1,3})?"
    r"(?:prefer|rather)\s{1,3}(?:(?:that\s{1,3})?(?:we|you|it|they)\s{1,3})?"
    r"(?:(?:not|never|always|just|only|didn'?t|don'?t)\s{1,3})?(?:to\s{1,3})?(?:(?:not|never|always|just|only)\s{1,3})?"
    + _WAY_VERBS + r"\b"
    r"|" + _LEAD + r"(?:(?:i|we)(?:'d|\s{1,3}would)?\s{1,3}(?:(?:really|much|strongly|still|definitely)\s{1,3})?)?"
    r"prefer\s{1,3}[^.;!?\n]{1,80}?\s(?:over|rather than|to using|to writing)\s"
    r"|(?<!\w)(?:" + "|".join(PREFER_WAY.values()) + ")",
    re.I)
"""A preference for a way of working, said as a wish: "I'd prefer we keep the config in TOML", "I'd rather you
didn't add dependencies", "I prefer tabs over spaces", "Prefer composition over inheritance", "Prefiro manter …"; not
"I'd prefer not to say" (no way of working in it) nor "I'd like you to fix the bug" (a request)."""
_WANTS_ALL = re.compile(
    _LEAD + r"(?:i|we)\s{1,3}(?:(?:always|really|just)\s{1,3})?(?:want|need|expect|'d like|would like)\s{1,3}"
    r"(?:all|every|each|any)\s{1,3}(?:(?:of\s{1,3})?(?:the|our|my|your)\s{1,3})?(?:[\w-]{1,30}\s{1,3}){1,3}?"
    r"(?:(?:to\s{1,3}(?:be|use|stay|go through|follow|have|live|come|pass through)|written|formatted|kept|stored|named"
    r"|prefixed|typed|tested|documented|logged)\b"
    r"|(?:in|as|using)\s{1,3}[\w.+#-]{1,30}(?:\s{1,3}[\w.+#-]{1,30})?" + _END + ")",
    re.I)
"""A requirement on every thing of a kind: "I want all dates in UTC", "We need every endpoint to have a test" (not
"I want all the tests to pass", a goal, nor "I want all files in the repo listed", a request)."""
_HOW_VERB = re.compile(
    _LEAD + r"(?:use|write|keep|name|format|spell|put|store|indent|stick\s{1,3}(?:to|with)|default\s{1,3}to|target"
    r"|pin|wrap|log|document|comment|follow|prefix|suffix|type|annotate|sort|order|return|raise|prefer)\s", re.I)
_CLASS_SCOPE = re.compile(
    r"\b(?:in|for|across|throughout|on|to|with|inside|within|from)\s{1,3}(?:all|every|each|any|new|future)\b"
    r"|\b(?:everywhere|throughout|consistently|by default)\b|\bacross\s{1,3}the\s{1,3}(?:codebase|project|repo"
    r"|repository|board|code)\b|\bin\s{1,3}(?:the\s{1,3})?(?:codebase|project|repo|repository|code ?base)\b"
    r"|\b(?:in|for|inside|within)\s{1,3}(?:the\s{1,3}|our\s{1,3})?(?:[\w-]{1,20}\s{1,3})?(?:docs|tests|comments"
    r"|commit messages|commits|messages|logs|log lines|names|variables|functions|methods|classes|files|modules"
    r"|components|strings|identifiers|configs|config files|scripts|migrations|apis|endpoints|prs|pull requests"
    r"|branches|headings|titles|prose|documentation|docstrings|errors|exceptions|types|imports|dates|timestamps"
    r"|tables|columns|queries|handlers|routes|templates|specs|fixtures|readmes|changelogs)\b",
    re.I)
"""Where a style or tool rule holds: on every thing of a kind ("in all files", "for new code", "everywhere",
"in the docs", "for commit messages"), not on one thing ("in this paragraph")."""
_ONE_OFF = re.compile(r"\b(?:this|these|those|that|it|here|now|first|then|next|again|for now|once|temporarily"
                      r"|today|yet)\b|\bto\s{1,3}(?:fix|debug|check|test|find|see|get|solve|reproduce|figure)\b", re.I)
"""Words that tie an instruction to the work at hand ("Use the helper to fix this", "use these in the tests")."""
_SCOPE_LIMIT = re.compile(
    _LEAD + r"(?:(?:limit|restrict|confine|scope)\s{1,3}(?:(?:your|the|all|any)\s{1,3})?(?:changes?|edits?|work"
    r"|yourself|the\s{1,3}(?:change|diff|scope)|it)\s{1,3}to\b|stay\s{1,3}(?:within|inside|out\s{1,3}of|away\s{1,3}from)\b"
    r"|keep\s{1,3}(?:(?:your|the|all|any|each|every)\s{1,3})?(?:changes?|edits?|diffs?|work|it|everything|files?"
    r"|functions?|modules?|commits?|prs?|pull\s{1,3}requests?|methods?|classes|lines?|tests?|components?)\s{1,3}"
    r"(?:(?:small|minimal|focused|short|simple|tight|scoped|under|below|within|inside|out\s{1,3}of"
    r"|away\s{1,3}from|separate|atomic|self-contained|lean)\b))", re.I)
"""A limit on the work's scope or size: "Limit changes to the parser", "Stay out of vendor/", "Keep files small",
"Keep commits atomic"."""
_STATES_FACT = re.compile(r"^\W{0,3}(?:i|we|it|he|she|they|this|that|there|you|the\s{1,3}\w+|[\w-]+s)\b|^\W{0,3}`"
                          r"|^\W{0,3}(?-i:[a-z]{1,30}[A-Z]|[A-Z][a-z]{1,30}[A-Z])", re.I)
"""A clause that opens on its subject, a pronoun, a thing ("the hook", "hooks") or a name the code uses (`` `x` ``,
``LakeObserver``, ``runTask``): it says what happens, where an imperative would open on the verb."""
_FRONTED_OCCASION = re.compile(r"^\W{0,3}(?:before|after|on|at)\s{1,3}(?:each|every|any)\b[^,;:\n]{0,120}?,\s{0,3}", re.I)
""""After every tool execution, …": the occasion said first; the clause after the comma says who acts."""
_EVERY_TIME = re.compile(
    r"\b(?:before|after)\s{1,3}(?:each|every|any)\b"
    r"|\bbefore\s{1,3}(?:you\s{1,3})?(?:say(?:ing)?|declar(?:e|ing)|report(?:ing)?|claim(?:ing)?|call(?:ing)?|mark(?:ing)?)"
    r"\s{1,3}(?:(?:it|that|anything|something|the\s{1,3}task|a\s{1,3}task|you(?:'re|\s{1,3}are))\s{1,3})?(?:is\s{1,3})?"
    r"(?:done|complete|finished|ready|fixed)\b", re.I)
"""A step tied to every occasion of a kind, not to this one: "run the tests before each commit", "run `task ci`
before saying done" (an imperative: "the hook runs before each commit" describes)."""


_WISH_FRAME = (r"(?:(?:i|we)(?:'d|\s{1,3}would)?\s{1,3}(?:(?:really|also|just|much)\s{1,3})?(?:like|love|want|prefer)"
               r"|it(?:'d|\s{1,3}would)\s{1,3}be\s{1,3}(?:nice|good|great|better|ideal|cleaner)\s{1,3}if)")
_WISH = re.compile(
    _LEAD + _WISH_FRAME + r"\s{1,3}(?:(?:there\s{1,3}(?:to\s{1,3}be|were|was)\s{1,3})?(?:no|zero)\s{1,3}[a-z][\w-]{1,30}"
    r"|(?<=if\s)\s{0,2}(?:all|every|each|any|none)\b"
    r"|(?!(?:the|this|these|those|my|our|your|its|their|all)\b)(?:[a-z][\w-]{1,30}\s{1,3})?[a-z][\w-]{1,30}(?<!ss)(?<!')s\s{1,3}(?:to\s{1,3})?"
    r"(?!(?:the|a|an|my|our|your|of|in|on|for|and|or|with)\b)[a-z]{2,20}\b)"
    rf"|{spaced(WISH, english=False)}\s{{1,3}}{spaced(WISH_SCOPE, english=False)}|{unspaced(WISH)}", re.I)
"""A wish that states a rule for every thing of a kind: "I'd like no comments that just restate the code", "I
want tests to hit the real API", "it would be nice if all functions had type hints", "gostaria que os testes usem a API real", "ich möchte, dass die Tests …", "テストは本物のAPIを叩いて
ほしい", "希望所有测试都…" (a Japanese, Korean or Chinese wish is read whole by :func:`_wished`); not "I'd like you to
fix the bug" (a request to the agent) nor "I want the button blue", nor "what we want it to show ideally is …": the
outcome wished of one feature, a request that is done once the feature is, not a rule that outlives it."""
_WISH_CJK = re.compile(unspaced(WISH))
_WISH_SCOPE_CJK = re.compile(unspaced(WISH_SCOPE))
_ONE_THING = re.compile(rf"{spaced(POINTS_AT_ONE)}|{unspaced(POINTS_AT_ONE)}", re.I)


def _wished(sentence: str) -> bool:
    """True when ``sentence`` wishes for a rule (:data:`_WISH`) and nothing in it points at one thing or at now
    (:data:`.languages.POINTS_AT_ONE`: "I'd like these tests to pass" asks for one change); in Japanese, Korean and
    Chinese, where the wish closes the sentence, also what makes it one for every thing of a kind
    (:data:`.languages.WISH_SCOPE`: "テストは…てほしい", "希望所有测试…")."""
    wish = _WISH.search(sentence)
    if not wish or _ONE_THING.search(sentence):
        return False
    cjk = _WISH_CJK.search(sentence)
    return not cjk or bool(_WISH_SCOPE_CJK.search(sentence))


_EXPECTED = re.compile(
    _LEAD + r"(?:i|we)(?:'d|\s{1,3}would)\s{1,3}have\s{1,3}(?:thought|expected|assumed)(\s{1,3}(?:that\s{1,3})?)"
    r"[^.;!?\n]{3,120}?\s(?:would|should|to)\s{1,3}(?!be\s{1,3}(?:fine|ok(?:ay)?|easy|simple)\b)\w", re.I)
"""The user's expectation of how the thing should work, said against what it does ("I would have thought the
runtime would start them when needed", "I'd have expected the cache to expire"): the behaviour wanted, a rule for
the work; not a judgement of the task ("I would have thought this would be easy")."""


def stated_rule(sentence: str) -> bool:
    """True when ``sentence`` states a standing rule in a form with no "must", "never" or "always": a preference for
    a way of working ("I'd prefer we keep the config in TOML"), a requirement on every thing of a kind ("I want all
    dates in UTC"), a prohibition without a verb ("No mocks in the integration tests", "Nein, kein Redis"), a style
    or tool rule with the scope it holds on ("Use British spelling in the docs"; "Use the helper to fix this" is a
    step), a limit on the work's scope ("Keep files small") or a step for every occasion ("run `task ci` before
    saying done"). Each still binds once the request it came with is done."""
    said = sentence.strip()[:400]
    if _PREFERENCE.search(said) or _WANTS_ALL.match(said) or _NOTHING.match(said) or _SCOPE_LIMIT.match(said) \
            or _wished(said) or plan_rule(said):
        return True
    no_thing = _NO_THING.match(said)
    if no_thing and _forbids(no_thing):
        return True
    how = _HOW_VERB.match(said)
    if how and _CLASS_SCOPE.search(said, how.end()) and not _ONE_OFF.search(said):
        return True
    if not _EVERY_TIME.search(said):
        return False
    fronted = _FRONTED_OCCASION.match(said)
    return not _STATES_FACT.match(said[fronted.end():] if fronted else said)


__all__ = ["SETUP_LABEL", "accepted_proposal", "names_method", "states_setup", "listed_options", "acknowledged", "answered_proposal", "answered_questions", "corrections", "is_rule", "lasting",
           "listed_decisions",
           "names_any", "passing_rule", "picked_key", "picked_option", "plan_in_brief", "replaced_names", "said_on_declining", "standing",
           "stated_rule", "user_choices", "whole_clause"]
