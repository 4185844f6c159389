"""One vocabulary, per concept, of the words agents and users say it with in the languages they work in.

A decision, a lasting rule, work done, an assent: each is said by the same grammar in every language — a verb of
deciding ("decidi", "決めました", "결정했습니다"), the way passed over ("em vez de", "ではなく", "대신", "而不是"), an
adverb that outlives the request ("a partir de agora", "앞으로"), a verb in the past of a result ("adicionei",
"agregué"). The modules that find them (decided, rules, progress, findings) read the forms here, so a concept is known
in the same languages everywhere: English, Portuguese, Spanish, French, German (spaced scripts, matched as whole
words) and Japanese, Korean, Chinese (unspaced: matched without word boundaries, often at the end of a clause).

Each concept is a dict of language → alternation (a regex fragment with no groups that capture). :func:`spaced`
joins the spaced languages' forms between word boundaries, :func:`unspaced` the CJK forms, :func:`any_language`
both. English is listed where the modules' English patterns do not already carry the concept in more detail; the
modules keep those (their English grammar is finer than one list)."""

from __future__ import annotations

SPACED = ("en", "pt", "es", "fr", "de")
UNSPACED = ("ja", "ko", "zh")

DECIDED = {
    "pt": r"decid(?:i|imos|iu)|opt(?:ei|amos|ou)|escolh(?:i|emos)|ficamos com|fiquei com",
    "es": r"decid(?:í|imos|ió)|opt(?:é|amos|ó)|eleg(?:í|imos)|escog(?:í|imos)|nos quedamos con|me quedo con",
    "fr": r"décidé|décidons|opté|optons|(?:j'ai|nous avons|on a) choisi",
    "de": r"entschieden|entscheide mich|entscheiden uns",
    "ja": r"ことに(?:しま(?:した|す)|した|する)|を採用|方針(?:として|は|で|に)|に決め|決定し"
          r"|は[^。、\n]{1,40}?にしま(?:した|す)",
    "ko": r"기로\s?(?:했|결정|하겠)|결정했|결정하였|로 결정|로 정했",
    "zh": r"决定|改用|选择|采用",
}
"""A verb of deciding, in the past or said as settled ("Optei por…", "Nos quedamos con…", "…を使うことにしました",
"保存はSQLiteにしました", "…하기로 했습니다", "决定用…"): the same sign as "decided" in English."""

COURSE = {
    "pt": r"(?:vou|vamos|iremos)(?: [^\W\d_]{1,15}){0,2}? (?:usar|utilizar|manter|ficar com|trocar para|mudar para|adotar)"
          r"|usaremos|utilizaremos|manteremos|adotaremos|vou ficar com",
    "es": r"(?:voy a|vamos a)(?: [^\W\d_]{1,15}){0,2}? (?:usar|utilizar|mantener|quedarnos con|cambiar a|adoptar)"
          r"|usaremos|utilizaremos|mantendremos|adoptaremos",
    "fr": r"(?:je vais|nous allons|on va)(?: [^\W\d_]{1,15}){0,2}? (?:utiliser|garder|rester sur|passer à|adopter)"
          r"|(?:on|nous) (?:utilise|utilisons|garde|gardons|part sur|partons sur|passe à|passons à)"
          r"|j'utilise|je garde|nous utiliserons|on utilisera",
    "de": r"(?:ich werde|wir werden) [^.;!?\n]{0,60}?(?:verwenden|benutzen|nutzen|nehmen|behalten|bleiben|wechseln)"
          r"|wir (?:nehmen|verwenden|nutzen|benutzen|behalten|bleiben bei|wechseln zu)"
          r"|ich (?:nehme|verwende|nutze|benutze|behalte|bleibe bei|wechsle zu)",
    "ja": r"を使(?:います|う|いましょう)|を使用します|で進めます|に切り替えます|を採用します",
    "ko": r"(?:사용하|유지하|쓰|바꾸|전환하)겠습니다|사용합니다|씁니다|로 하겠습니다|로 갑니다|로 바꿉니다",
    "zh": r"我们将|我会改|我们会|(?:我们|我)(?:就|将|会)?(?:使用|采用|改用|用)",
}
"""The speaker's own course, said with a verb of taking a way (use, keep, switch to, adopt): a decision with the way
passed over or a reason (:data:`INSTEAD`, :data:`BECAUSE`); without them, a step."""

INSTEAD = {
    "en": r"instead of|rather than",
    "pt": r"em vez de|ao invés de|no lugar de",
    "es": r"en lugar de|en vez de",
    "fr": r"au lieu de|plutôt que",
    "de": r"anstatt|statt|stattdessen|anstelle von",
    "ja": r"ではなく|じゃなく|の代わりに|より(?=[^。\n]{0,40}?(?:使|採用|にし))",
    "ko": r"대신",
    "zh": r"而不是|而非|代替|取代",
}
"""The way passed over ("em vez de JSON", "JSONファイルではなく", "JSON 파일 대신", "而不是 JSON")."""

BECAUSE = {
    "en": r"because|since|so that",
    "pt": r"porque|pois|já que",
    "es": r"porque|ya que|puesto que",
    "fr": r"parce que|puisque|car",
    "de": r"weil|denn|da",
    "ja": r"ため(?:です|に|、)|ので",
    "ko": r"때문|므로|니까",
    "zh": r"因为|由于",
}
"""A reason given for a course."""

HYPOTHETICAL = {
    "en": r"if|suppose|what if",
    "pt": r"se|caso",
    "es": r"si|en caso de que",
    "fr": r"si|au cas où",
    "de": r"wenn|falls|ob",
    "ja": r"もし",
    "ko": r"만약|만일",
    "zh": r"如果|假如|要是",
}
"""What opens a condition: a course said under it ("Se usarmos SQLite em vez de JSON…", "もしSQLiteを使うなら…") is
weighed, not taken."""

ORDER = {
    "pt": r"sempre|nunca|jamais|não (?:use|usar|faça|mude|altere|mexa|toque|adicione|remova|crie|apague|rode|execute"
          r"|commite|faça|envie|instale)|certifique-se|garanta que|lembre-se de",
    "es": r"siempre|nunca|jamás|no (?:uses|usar|hagas|cambies|toques|modifiques|añadas|borres|ejecutes|instales)"
          r"|asegúrate|asegúrese|recuerda",
    "fr": r"toujours|jamais|n'utilise (?:pas|jamais)|ne (?:touche|modifie|change|supprime|fais|pousse|lance|mets)"
          r" (?:pas|jamais)|assure-toi|assurez-vous|veille à",
    "de": r"immer|niemals|nie|stell sicher|stellen Sie sicher|achte darauf|achten Sie darauf"
          r"|[^\W\d_]{2,20} (?:(?:du|ihr|Sie|bitte) )?(?:nie|niemals|keinesfalls)",
    "ko": r"항상|절대|반드시|꼭",
}
"""What opens a rule in the spaced languages (and Korean, whose adverbs come first too): always, never, don't, make
sure ("Sempre use…", "No toques…", "Assure-toi de…", "Pushe nie direkt…", "반드시 …"): as a sentence's first words
only, where they order (further in, "o app sempre mostra…" describes)."""

ORDER_CLOSING = {
    "ja": r"ないで(?:ください|下さい|ね)?|てはいけません|てはだめ|ないこと",
    "ko": r"하지\s?마(?:세요|십시오|라|요)?|지\s?마(?:세요|십시오)",
}
"""A prohibition said at a clause's end, where Japanese and Korean say it ("プッシュしないでください", "푸시하지
마세요")."""

ORDER_ADVERB_CJK = {
    "ja": r"必ず|常に|絶対に?|決して|毎回",
    "ko": r"반드시|항상|절대|꼭|매번",
}
"""Always, never, every time, in Japanese and Korean: a rule when the clause ends in an order
(:data:`IMPERATIVE_CJK`), a description otherwise ("このテストは必ず失敗する")."""

IMPERATIVE_CJK = {
    "ja": r"ください|下さい|すること|しろ|してね|お願いします",
    "ko": r"세요|십시오|해\s?줘|하라|주세요",
}

FROM_NOW_ON = {
    "en": r"from now on|going forward|moving forward|henceforth|from here on",
    "pt": r"a partir de agora|daqui (?:pra|para a) frente|de agora em diante|doravante",
    "es": r"a partir de ahora|de ahora en adelante|en adelante",
    "fr": r"à partir de maintenant|désormais|dorénavant",
    "de": r"ab jetzt|von nun an|künftig|ab sofort|in Zukunft",
    "ja": r"今後|これから(?:は)?|以後",
    "ko": r"앞으로(?:는)?|이제부터|지금부터",
    "zh": r"今后|以后|从现在起|从现在开始",
}
"""A time that outlasts the request: what makes an instruction a standing rule."""

RESULT = {
    "pt": r"criad[oa]s?|adicionad[oa]s?|corrigid[oa]s?|removid[oa]s?|atualizad[oa]s?|implementad[oa]s?|movid[oa]s?"
          r"|renomead[oa]s?|alterad[oa]s?|passa(?:m|ram)|funciona(?:m)?|aparece(?:m)?|agora"
          r"|criei|adicionei|corrigi|removi|atualizei|implementei|movi|renomeei|alterei|ajustei|troquei|mudei"
          r"|substituí|escrevi|configurei",
    "es": r"cread[oa]s?|añadid[oa]s?|agregad[oa]s?|corregid[oa]s?|eliminad[oa]s?|actualizad[oa]s?|pasan|funcionan?"
          r"|ahora|implementad[oa]s?|arreglad[oa]s?"
          r"|creé|añadí|agregué|corregí|eliminé|actualicé|implementé|arreglé|cambié|moví|reemplacé|escribí|configuré",
    "fr": r"créée?s?|ajoutée?s?|corrigée?s?|supprimée?s?|mise? à jour|implémentée?s?|passent|fonctionne(?:nt)?"
          r"|désormais|maintenant|remplacée?s?|modifiée?s?|renommée?s?|déplacée?s?",
    "de": r"erstellt|hinzugefügt|behoben|korrigiert|entfernt|aktualisiert|implementiert|bestehen|funktioniert|jetzt"
          r"|ersetzt|geändert|umbenannt|verschoben|angelegt",
    "ja": r"追加|作成|修正|削除|更新|実装|変更|通過|成功|完了|パスし|置き換え|移動",
    "ko": r"추가|생성|수정|삭제|업데이트|구현|변경|통과|성공|완료|교체|이동",
    "zh": r"添加|新增|创建|修复|删除|实现|修改|通过|完成|替换|更新|移动",
}
"""A result: the past participles and first-person pasts of a change ("adicionei", "agregué", "ajoutée"), "now", a
check that passes; the nouns of one in Japanese, Korean and Chinese ("全テスト通過", "구현 완료", "修复了")."""

REVERSAL = {
    "pt": r"na verdade|pensando bem|em vez disso|volt(?:a|e|ar) (?:para|pro|a usar)|reverta|desfaça"
          r"|melhor (?:usar|manter|voltar)|não quero mais",
    "es": r"en realidad|pensándolo bien|en su lugar|mejor (?:usa|usar|mantén|volver)|vuelve a|revierte|deshaz|ya no",
    "fr": r"en fait|finalement|à la place|reviens à|revenons à|annule",
    "de": r"eigentlich|doch lieber|lieber doch|stattdessen|zurück zu|rückgängig|doch nicht|nicht mehr",
    "ja": r"やっぱり|やはり|代わりに|元に戻|取り消|戻して",
    "ko": r"역시|대신에|되돌려|원래대로|취소",
    "zh": r"还是用|改回|换回|算了|撤销|不用了",
}
"""Words that reverse or replace a way said before ("na verdade, use…", "mejor usa…", "en fait…", "doch lieber…",
"やっぱり…", "改回…"): as "actually", "instead.", "go back to", "no longer" in English; "au lieu de", "plutôt que"
alone contrast, they replace nothing."""

ASSENT = {
    "pt": r"sim|pode|claro|beleza|bora|perfeito|com certeza",
    "es": r"sí|vale|dale|adelante|perfecto|de acuerdo",
    "fr": r"oui|d'accord|vas-y|parfait|bien sûr",
    "de": r"ja|genau|klar|passt|einverstanden|perfekt",
    "ja": r"はい|了解|承知|お願いします",
    "ko": r"네|예|응|좋아|그래|ㅇㅋ",
    "zh": r"好的|可以|没问题|同意|是的",
}
"""A reply that accepts what was offered ("Sim", "Dale", "Vas-y", "Ja, bitte", "はい", "네", "好的"), as its first
words."""

OFFER = {
    "pt": r"quer que eu|queres que eu|devo|posso|prefere que eu",
    "es": r"quieres que|debo|puedo|prefieres que",
    "fr": r"veux-tu que je|voulez-vous que je|dois-je",
    "de": r"soll ich|möchtest du|darf ich",
}
"""An offer in the spaced languages: the action follows, as in English, and it offers only in a question ("can I",
"should I")."""

PROPOSE = {
    "pt": r"sugiro|recomendo|proponho",
    "es": r"sugiero|recomiendo|propongo",
    "fr": r"je propose|je suggère|je recommande",
    "de": r"ich schlage vor|ich empfehle",
    "ja": r"しますか|しましょうか|よろしいですか",
    "ko": r"할까요|하시겠습니까",
    "zh": r"要我|需要我|我建议",
}
"""A proposal ("Sugiro…", "Ich empfehle…"), and in Japanese, Korean and Chinese the question's form of an offer
("…しますか", "…할까요", "要我…")."""

DONE_LEAD = {
    "en": r"perfect|great|excellent|awesome|done|ok(?:ay)?|good|nice",
    "pt": r"pronto|perfeito|ótimo|feito",
    "es": r"listo|perfecto|hecho",
    "fr": r"parfait|terminé|c'est fait",
    "de": r"fertig|erledigt|perfekt",
}
"""A cheer before a report ("Pronto!", "Listo:", "C'est fait :"): no part of what was done."""

NOT_YET = {
    "pt": r"ainda não|não consegui|não foi possível",
    "es": r"aún no|todavía no|no pude|no he podido|no fue posible",
    "fr": r"pas encore|je n'ai pas pu|n'a pas pu",
    "de": r"noch nicht|noch kein|konnte nicht|nicht möglich",
    "ja": r"まだ|できていません|未実装|未完了",
    "ko": r"아직|못했",
    "zh": r"还没|尚未|未能",
}
"""Words that deny a result ("Ainda não adicionei…", "まだ実装していません", "还没有修复"): no work done. Not a bare
negation: "ya no falla", "エラーは発生しませんでした", "修复后没有报错" state results."""

GO_ON = {
    "en": r"go ahead with the next|send (?:me )?the next|keep (?:them|it) coming|(?:tell|let) me know what(?:ever)? "
          r"(?:else )?you (?:notice|find|spot|see)|as you (?:read|go|review) (?:on|through|along)|next one whenever",
    "pt": r"pode continuar|(?:me )?(?:mande|envie) o próximo|conforme (?:for )?lendo",
    "es": r"puedes continuar|(?:mándame|envíame) el siguiente|a medida que (?:leas|avances)",
    "fr": r"vous pouvez continuer|envoyez(?:-moi)? le suivant|au fil de (?:votre|ta) lecture",
    "de": r"mach(?:en Sie)? (?:einfach )?weiter|schick(?:en Sie)? (?:mir )?(?:den|das) nächste",
    "ja": r"引き続き|続けてどうぞ|読み進め|気づいた点",
    "ko": r"계속 (?:진행|말씀)해 주세요|다음 (?:것|부분)(?:을|도) 알려",
    "zh": r"请继续|继续发给我|接着(?:看|读)",
}
"""Words of an agent's closing that hand the ongoing work back to the user ("引き続きどうぞ", "Send me the next one",
"Tell me what you notice as you read on"): the user goes on, item by item; the way they agreed to work is the step."""

TENTATIVE = {
    "en": r"maybe|perhaps|probably|possibly|i think|i guess|i suspect|i wonder|i believe|i'm not sure|not sure"
          r"|i'?m arguing|i'?d argue|i would argue|wondering|might|could be|my guess"
          r"|let me (?:check|see|verify|test|confirm|find out|figure out) (?:whether|if)",
    "pt": r"talvez|acho que|provavelmente|possivelmente|pode ser que|será que|não tenho certeza",
    "es": r"quizás?|tal vez|creo que|probablemente|posiblemente|puede que|no estoy seguro",
    "fr": r"peut-être|je pense que|je crois que|probablement|il se peut|pas sûr",
    "de": r"vielleicht|ich glaube|ich denke|wahrscheinlich|möglicherweise|eventuell|vermutlich",
    "ja": r"かもしれ|たぶん|多分|おそらく|と思います|と思う|でしょうか|気がします",
    "ko": r"아마|것 같|지도 모르|인 듯",
    "zh": r"也许|或许|可能是|我觉得|我认为|大概|应该是",
}
"""Words of the agent thinking aloud ("maybe the cache…", "I think the issue is…", "Let me check whether…",
"talvez…", "vielleicht…", "かもしれません", "我觉得…"): a guess, a hypothesis or an argument, neither a result that
exists nor a choice that was settled."""

ANNOUNCE = {
    "en": r"let me|let's|i'll|i will|i need to|now (?:i'll|let me)|first,? (?:let me|i'll)",
    "pt": r"(?:agora )?vou|vamos",
    "es": r"voy a|vamos a",
    "fr": r"je vais|on va|nous allons",
    "de": r"ich werde|lass mich|wir werden",
    "zh": r"让我|我来|我将|接下来",
}
"""What opens a turn to the speaker's next move ("Vou corrigir…", "Lass mich…", "让我…")."""

LEFT_TO_DO = {
    "en": r"what(?:'s| is) left(?=[ \t]{0,2}:)|not (?:done|implemented|wired|updated) yet|todo(?=[ \t]{0,2}:)",
    "pt": r"faltam?(?! de\b)|ainda (?:falta|precisa)|próximos? passos?|pendente:",
    "es": r"faltan?(?! de\b)|quedan? por hacer|próximos? pasos?|siguientes? pasos?|pendiente:",
    "fr": r"il reste|reste à faire|prochaines? étapes?|à faire:",
    "de": r"noch offen|noch zu tun|fehlt noch|nächste[rn]? schritte?",
    "ja": r"残り|次のステップ|未対応|やること",
    "ko": r"남은 작업|다음 단계|해야 할 일",
    "zh": r"下一步|剩下|还需要|待办",
}
"""Words that say what is still to do in the agent's closing answer ("Falta atualizar o `README`", "Il reste à …",
"Nächste Schritte: …", "残りは…", "下一步：…", "What's left: …"): the next step, though the request reads done."""

ANNOUNCE_CLOSING = r"(?:します|しましょう|してみます|겠습니다|할게요|하겠어요)[。.!！]?$"
"""The same at a sentence's end, where Japanese and Korean say it ("クエリを追加します。", "추가하겠습니다.")."""


NO_THING = {
    "pt": r"sem|nada de|nenhum|nenhuma|chega de",
    "es": r"sin|nada de|ningún|ninguna|basta de|no más",
    "fr": r"pas de|pas d'|aucun|aucune|sans|jamais de|fini les",
    "de": r"kein|keine|keinen|keinem|keinerlei|ohne|schluss mit",
}
"""What opens a prohibition without a verb, a thing turned down by its name ("Sem Docker.", "Nada de ORM.", "Pas
d'ORM.", "Keine Mocks in den Tests."): the spaced languages' "no X", as a sentence's first words."""

REPORTED = {
    "en": r"errors?|warnings?|failures?|issues?|problems?|problemo|results?|match(?:es)?|output|luck|idea|worries|worry"
          r"|need|rush|hurry|thanks|thank|way|doubt|clue|differences?|response|reply|answer|one|longer|matter|wonder"
          r"|sign|trace|hits?|data|progress|success|updates?|news|effect|change|changes(?!\s{1,3}to\b)|difference"
          r"|big deal|prob(?:lem)?s?|offense|offence|kidding|joke|surprise|wonder|comment|objection|complaints?",
    "pt": r"erros?|problemas?|dúvidas?|novidades?|resultados?|sucesso|mudanças?|alterações|ideia|pressa|respostas?"
          r"|falhas?|avisos?|jeito|stress|estresse|querer",
    "es": r"errores?|problemas?|dudas?|embargo|novedades?|resultados?|éxito|cambios?|idea|prisa|respuestas?|fallos?"
          r"|advertencias?|avisos?|más",
    "fr": r"erreurs?|problèmes?|soucis?|doute|nouvelles?|résultats?|succès|changements?|idée|réponses?|échecs?"
          r"|avertissements?|quoi|chance|souci",
    "de": r"fehlern?|probleme?n?|zweifel|ahnung|ergebnisse?|erfolg|änderungen|antwort|warnungen?|sorgen?|ursache"
          r"|frage|ende|zweifel|idee|eile",
}
"""Nouns a "no" reports or waves off rather than forbids ("No errors.", "No worries", "Sin embargo", "Keine
Ahnung", "Pas de souci"): after :data:`NO_THING` they state a fact or a courtesy, no rule."""

PREFER_WAY = {
    "pt": r"prefiro(?: que(?: a gente| nós| você)?)? (?:não )?(?:mant|us|fiq|fic|sig|evit|coloq|guard|escrev)",
    "es": r"prefiero(?: que)? (?:no )?(?:mant|us|qued|sig|evit|pong|guard|escrib)",
    "fr": r"je préfère(?: qu'on| que| ne pas)? (?:pas )?(?:gard|utilis|rest|évit|mett|écri)",
    "de": r"ich (?:bevorzuge|hätte (?:gerne|lieber)|möchte lieber|will lieber)|mir wäre (?:es )?lieber",
}
"""A preference for a way of working, in the first person ("Prefiro manter a config em TOML", "Je préfère garder
…", "Ich hätte lieber …"): a rule the user states as a wish (a stem of a verb of keeping, using or avoiding)."""


WISH = {
    "pt": r"(?:eu )?(?:gostaria|queria|quero|prefiro) que|seria (?:bom|legal|ótimo|ideal) se|o ideal (?:seria|é)"
          r"|idealmente,?",
    "es": r"(?:me gustaría|quisiera|quiero|prefiero) que|sería (?:bueno|ideal|genial) (?:que|si)|lo ideal (?:sería|es)"
          r"|idealmente,?",
    "fr": r"(?:j'aimerais|je voudrais|je veux|je préfère)(?: bien)? qu[e']|ce serait (?:bien|mieux|idéal) qu[e']"
          r"|l'idéal (?:serait|est) qu[e']|idéalement,?",
    "de": r"ich (?:möchte|will|hätte gern|hätte gerne|wünsche mir),? dass|es wäre (?:schön|gut|besser|ideal),? wenn"
          r"|idealerweise|am besten",
    "ja": r"て(?:ほしい|欲しい|もらいたい)|(?:たら|れば)(?:いい|良い)(?:な|です)|ようにしたい|理想(?:的に)?は",
    "ko": r"(?:했|하|되었|됐)으면 (?:좋겠|해)|(?:하|되)(?:기를|길) (?:원|바랍)|이상적으로(?:는)?",
    "zh": r"我?希望|我想要|我要求|最好|理想(?:情况下|的话|上)",
}
"""A wish of the user's ("gostaria que…", "me gustaría que…", "j'aimerais que…", "ich möchte, dass…", "…てほしい",
"…했으면 좋겠어요", "希望…"): a standing rule when what it wishes holds for every thing of a kind
(:data:`WISH_SCOPE`), a one-off request otherwise ("gostaria que você corrigisse o bug")."""

WISH_SCOPE = {
    "pt": r"(?:todos|todas|nenhum|nenhuma|cada|os|as)(?!\w)|não (?:haja|tenha|exista)",
    "es": r"(?:todos|todas|ningún|ninguna|ninguno|cada|los|las)(?!\w)|no (?:haya|tenga|exista)",
    "fr": r"(?:tous|toutes|aucun|aucune|chaque|les)(?!\w)|il n'y ait (?:pas|plus|aucun)",
    "de": r"(?:alle|jede[rsnm]?|kein(?:e|en|er)?|die)(?!\w)",
    "ja": r"全て|すべて|全部|各|どの[^。！？\n]{1,20}?も|[^\s。、こそあど]{1,20}?は(?!ず)",
    "ko": r"모든|각 |어떤 [^.!?\n]{1,20}?도|[^\s.!?]{1,20}?[은는](?=\s)",
    "zh": r"所有|每个|每一|任何|全部|一律|都|不要有|别有|不再有",
}
"""What makes a wish a rule (:data:`WISH`): every thing of a kind, none of it, or (in the spaced languages) a plural
article right after the wish ("que os testes usem…", "dass die Tests…"); in Japanese and Korean a topic the wish is
about ("テストは…てほしい", "테스트는 …했으면 좋겠어요") when nothing points at one thing (:data:`POINTS_AT_ONE`)."""

POINTS_AT_ONE = {
    "en": r"this|these|those|here|now|for now|once|temporarily|today|yet|right now",
    "pt": r"este|esta|esse|essa|isso|isto|aqui|agora",
    "es": r"este|esta|ese|esa|eso|esto|aquí|ahora",
    "fr": r"ce|cet|cette|ceci|cela|ici|maintenant",
    "de": r"diese[rsnm]?|das hier|hier|jetzt",
    "ja": r"この|その|あの|これ|それ|あれ|ここ|今",
    "ko": r"이것|그것|저것|여기|지금|(?<!\S)(?:이|그|저)(?=\s)",
    "zh": r"这个|那个|这里|这次|现在",
}
"""Words that tie a wish to one thing or to now ("I'd like this test to pass", "このボタンは青にしてほしい"): a
request for one change, no rule."""


INTENT = {
    "pt": r"quero|queria|gostaria|preciso|precisamos|vamos|por favor|pode(?:ria)?s? (?:adicionar|criar|fazer|corrigir"
          r"|implementar)",
    "es": r"quiero|quisiera|me gustaría|necesito|necesitamos|vamos a|por favor|puedes|podrías",
    "fr": r"je veux|je voudrais|j'aimerais|il faut|on doit|nous devons|s'il te plaît|s'il vous plaît|peux-tu|pouvez-vous",
    "de": r"ich will|ich möchte|ich hätte gern|wir brauchen|ich brauche|wir müssen|bitte|kannst du|könntest du",
    "ja": r"たい(?:です)?[。！!]?$|てほしい|て欲しい|ください|下さい|お願い",
    "ko": r"싶어|싶습니다|싶어요|주세요|해\s?줘|원해|부탁",
    "zh": r"我想|我要|我需要|请|帮我|希望",
}
"""What says the user wants work done ("quero um sistema de plugins", "ich möchte …", "…を作りたいです", "…해 주세요",
"我想要…"): the English forms live in :mod:`.goal`, finer."""

COMPLAINT = {
    "en": r"why\b[^?.!\n]{0,120}?(?:\b(?:still|not|never|again|anymore|keeps?|always)\b|n't\b)"
          r"|how come\b|(?:is|are|does|do)\s(?:it|this|that|they)\s(?:still|again)\b",
    "pt": r"por ?que\b[^?.!\n]{0,120}?\b(?:ainda|não|nunca|de novo|continua)\b",
    "es": r"por ?qué\b[^?.!\n]{0,120}?\b(?:todavía|aún|sigue|siguen|no|nunca|otra vez)\b",
    "fr": r"pourquoi\b[^?.!\n]{0,120}?\b(?:toujours|encore|pas|jamais|plus)\b",
    "de": r"warum\b[^?.!\n]{0,120}?\b(?:immer noch|noch|nicht|nie|wieder)\b",
    "ja": r"(?:なぜ|何故|どうして|なんで)[^？?。\n]{0,60}?(?:まだ|また|ない|ません|できない)",
    "ko": r"왜[^?？.\n]{0,60}?(?:아직|여전히|또|안\s|않|못)",
    "zh": r"(?:为什么|为啥|怎么)[^？?。\n]{0,60}?(?:还|仍|又|不|没)",
}
"""A complaint asked as a question ("why is the chart still tiny?", "por que ainda não funciona?", "どうしてまだ動かない
の？", "为什么还是报错？"): the user reports that something is still wrong and wants it fixed, a request."""

ASKS_OPINION = {
    "en": r"(?:do|did|would|should)\s{1,3}you\s{1,3}(?:think|believe|say|suggest|feel|prefer|want)|in your (?:view|opinion)",
    "pt": r"(?:você|tu) (?:acha|achas|pensa|pensas|acredita|sugere)|na sua opinião",
    "es": r"(?:crees|piensas|opinas|sugieres)|en tu opinión",
    "fr": r"(?:tu penses|vous pensez|tu crois|vous croyez|selon toi|selon vous)",
    "de": r"(?:denkst|glaubst|meinst|findest) du|denken Sie|glauben Sie|deiner Meinung",
    "ja": r"と思(?:う|います)(?:か|の)|と考え(?:る|ます)(?:か|の)",
    "ko": r"(?:생각하|보)(?:세요|시나요|나요|니)",
    "zh": r"你(?:觉得|认为|怎么看)",
}
"""A question about the agent's view ("why do you think logs shouldn't be overwritten?", "warum denkst du …"): it
asks for a reason, no complaint (:data:`COMPLAINT`)."""


ISSUE_WORDS = {
    "en": r"PR|MR|pull request|merge request|issue|ticket",
    "pt": r"issue|ticket|chamado",
    "es": r"incidencia|ticket|issue",
    "fr": r"ticket|issue|demande de fusion",
    "de": r"Ticket|Issue",
    "ja": r"プルリク(?:エスト)?|イシュー|チケット",
    "ko": r"풀\s?리퀘스트|이슈|티켓",
    "zh": r"拉取请求|合并请求|议题|工单",
}
"""Names of a pull request or an issue, before its number ("PR #12", "イシュー#4", "이슈 #7", "工单 #3")."""


def _forms(concept: dict[str, str], languages: tuple[str, ...]) -> str:
    return "|".join(concept[language] for language in languages if language in concept)


def spaced(concept: dict[str, str], english: bool = True) -> str:
    """The concept's forms in the spaced languages, as whole words (``(?<!\\w)…(?!\\w)``: "não" and "für" hold
    letters that ``\\b`` under ASCII rules would split)."""
    languages = SPACED if english else SPACED[1:]
    return rf"(?<!\w)(?:{_forms(concept, languages)})(?!\w)"


def unspaced(concept: dict[str, str]) -> str:
    """The concept's forms in Japanese, Korean and Chinese, with no boundaries: their words are not spaced."""
    return f"(?:{_forms(concept, UNSPACED)})"


def any_language(concept: dict[str, str], english: bool = True) -> str:
    """Every language's forms of the concept: :func:`spaced` or :func:`unspaced`."""
    return f"{spaced(concept, english)}|{unspaced(concept)}" if _forms(concept, UNSPACED) else spaced(concept, english)


def wide_length(text: str) -> int:
    """``text``'s length with each character of an unspaced script counted twice: "SQLite를 쓰기로 했습니다" says as
    much as an English sentence twice its characters, and a length floor made for English must not drop it."""
    return len(text) + sum(1 for char in text if "\u3040" <= char <= "\u9fff" or "\uac00" <= char <= "\ud7af")


__all__ = ["ANNOUNCE", "ANNOUNCE_CLOSING", "ASKS_OPINION", "ASSENT", "BECAUSE", "COMPLAINT", "COURSE", "DECIDED", "DONE_LEAD", "FROM_NOW_ON", "GO_ON",
           "HYPOTHETICAL", "IMPERATIVE_CJK", "INSTEAD", "INTENT", "ISSUE_WORDS", "LEFT_TO_DO", "NO_THING", "NOT_YET", "OFFER", "ORDER",
           "ORDER_ADVERB_CJK", "ORDER_CLOSING", "POINTS_AT_ONE", "PREFER_WAY", "PROPOSE", "REPORTED", "RESULT", "REVERSAL", "TENTATIVE", "WISH", "WISH_SCOPE",
           "any_language", "spaced", "unspaced",
           "wide_length"]
