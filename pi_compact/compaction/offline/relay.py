"""A user's message relayed by a bridge: the words inside the envelope are the user's request.

An agent driven from a chat or a mail box gets the user's words wrapped by the bridge that carried them: a header
naming the platform, the channel and the sender before the text ("[Discord #dev] alice: …", "Message from @bob on
Slack:", a mail's ``From:``/``Subject:`` lines), a tag whose attributes say who sent it and where
(``<message from="…" channel="…">…</message>``), or a JSON object with the text in a field beside the sender's.
Read as it stands, such a message is either no request at all (a message that opens with a tag is the harness's
markup) or a request that starts with the bridge's metadata. The envelope is told by its form (metadata, then a
body), the platform's name being one sign of it among ``#channel`` and ``@handle``; what is inside is the body.
A harness's own notices (a reminder, a hook's output, a task notification) carry no sender: they stay markup.

An envelope need not name its sender: an agent team delivers a teammate's or the lead's words as one element whose
tag says it is a message (``<teammate-message teammate_id="lead">…</teammate-message>``, ``<message>``,
``<inbound-message>``, ``<user-input>``, ``<task>``), with or without attributes. Such a tag is told by its name's
last word (a message, a request, a task, a prompt, a query; an input only when the user's), a harness's notice by a
word of its own (``task-notification``, ``command-message``, ``local-command-stdout``, ``system-reminder``,
``bash-input``, a hook's output): these stay markup. A body that is only a protocol object of the team's
(``{"type": "idle_notification", …}``) is no request either.
"""

from __future__ import annotations

import re

import orjson

_PLATFORM = (r"discord|slack|telegram|matrix|whatsapp|signal|irc|teams|mattermost|zulip|imessage|sms|e-?mail"
             r"|wechat|feishu|lark|messenger|rocket\.?chat|webex|twitch")
_MARKS = re.compile(rf"\b(?:{_PLATFORM})\b|(?:^|[\s(\[])[#@][A-Za-z][\w.:-]{{0,60}}", re.I)
"""A sign that a header names where a message came from: a platform, a ``#channel``, an ``@handle``."""
_BRACKET = re.compile(r"\[([^\]\n]{1,160})\][ \t]{0,3}")
"""A bracketed header at the message's start ("[Discord #dev]", "[Telegram Alice (@alice) id:42 10:02]")."""
_FROM_LINE = re.compile(r"(?:new[ \t]{1,3})?(?:message|dm|direct message|mention|reply|mail|email)[ \t]{1,3}from"
                        r"[ \t]{1,3}([^\n]{1,120}?)[ \t]{0,3}:[ \t]{0,3}(?:\n|$)", re.I)
"""A header line of its own ("Message from @bob on Slack:"), the body on the lines after it."""
_MAIL_FROM = re.compile(r"from:[ \t]{0,3}\S[^\n]{0,200}\n", re.I)
_MAIL_FIELD = re.compile(r"(?:to|cc|date|subject|reply-to|message-id):[ \t]{0,3}[^\n]{0,300}\n", re.I)
_OPEN_TAG = re.compile(r"<([A-Za-z][\w-]{0,30})((?:\s{1,5}[\w:-]{1,40}=(?:\"[^\"\n]{0,200}\"|'[^'\n]{0,200}'))"
                       r"{0,12})\s{0,5}>")
_ENVELOPE_NOUNS = frozenset("message msg request task prompt query".split())
"""The last word of a tag's name that says the element is a message to the agent (``teammate-message``, ``task``).
Not "instructions": Codex injects a project's AGENTS.md as ``<user_instructions>``, standing rules, no request."""
_USER_WORDS = frozenset("user human".split())
"""An input tag is the user's words when named for them (``user-input``, ``human_input``)."""
_NOTICE_WORDS = frozenset("command local system hook bash shell tool notification reminder stdout stderr output "
                          "result error status caveat".split())
"""Words of a tag's name that make it a harness's notice, not a message (``task-notification``, ``command-message``,
``local-command-stdout``, ``bash-input``, ``user-prompt-submit-hook``)."""
_SENDER_ATTRIBUTE = re.compile(r"\s(?:from|sender|user|username|author|source|platform|channel|chat|chat_id|room"
                               r"|thread)=", re.I)
"""Attributes that say who sent a message and where: a relay's tag, not a harness's notice."""
_BODY_KEYS = ("text", "content", "message", "body", "prompt")
_META_KEYS = frozenset("user username sender from author channel chat chat_id platform source room thread thread_ts "
                       "ts user_id sender_id guild".split())
_SENDER_WORDS = 4
_MOST = 20_000


def relayed(text: str) -> str:
    """The body of a relayed message (see the module docstring); ``text`` as it is when it is no envelope."""
    stripped = text.strip()[: _MOST + 1]
    if not stripped or len(stripped) > _MOST:
        return text
    body = _tagged(stripped) or _json_body(stripped) or _bracketed(stripped) or _from_line(stripped) \
        or _mail(stripped)
    return body if body and body.strip() else text


def _bracketed(text: str) -> str:
    """The body after a bracketed header that names a platform, a channel or a handle, a sender's "name: " cut."""
    header = _BRACKET.match(text)
    if not header or not _MARKS.search(header.group(1)):
        return ""
    return _without_sender(text[header.end():])


def _without_sender(rest: str) -> str:
    """``rest`` without the sender's name that opens it ("alice: …", "@alice:matrix.org: …")."""
    first, _, _ = rest.partition("\n")
    name, colon, _ = first[:100].partition(": ")
    if colon and 0 < len(name.split()) <= _SENDER_WORDS and not re.search(r"[.,!?;`]\s|[.!?]$", name):
        return rest[len(name) + 2:].strip()
    return rest.strip()


def _from_line(text: str) -> str:
    """The lines after a "Message from X on Y:" header that names a platform, a channel or a handle."""
    header = _FROM_LINE.match(text)
    if not header or not _MARKS.search(header.group(1)):
        return ""
    return text[header.end():].strip()


def _mail(text: str) -> str:
    """A mail's body: what follows its ``From:`` line and the header fields after it, up to the blank line."""
    header = _MAIL_FROM.match(text)
    if not header:
        return ""
    position, fields = header.end(), 0
    while field := _MAIL_FIELD.match(text, position):
        position, fields = field.end(), fields + 1
    rest = text[position:]
    return rest.strip() if fields and rest.startswith("\n") else ""


def _tagged(text: str) -> str:
    """The bodies of the message's tags whose attributes name a sender or a channel, or whose name says they carry
    a message (:func:`_envelope_name`), when the message is nothing but such tags (a batch of relayed messages is
    one request of their bodies, in order)."""
    bodies: list[str] = []
    position = 0
    while position < len(text):
        tag = _OPEN_TAG.match(text, position)
        if not tag or not (_SENDER_ATTRIBUTE.search(tag.group(2)) or _envelope_name(tag.group(1))):
            return ""
        end = text.find(f"</{tag.group(1)}>", tag.end())
        if end < 0:
            return ""
        bodies.append(text[tag.end():end].strip())
        position = end + len(tag.group(1)) + 3
        while position < len(text) and text[position].isspace():
            position += 1
    return "\n\n".join(body for body in bodies if body and not _protocol_object(body))


def _envelope_name(name: str) -> bool:
    """True for a tag whose name says it carries a message to the agent (see the module docstring)."""
    words = [word for word in re.split(r"[-_]", name.lower()) if word]
    if not words or _NOTICE_WORDS.intersection(words):
        return False
    return words[-1] in _ENVELOPE_NOUNS or (words[-1] == "input" and bool(_USER_WORDS.intersection(words)))


def _protocol_object(body: str) -> bool:
    """True for a body that is a JSON object of a team's protocol (``{"type": "idle_notification", …}``): it has a
    type and no text for a person to read."""
    if not (body.startswith("{") and body.endswith("}")):
        return False
    try:
        value = orjson.loads(body)
    except ValueError:
        return False
    return isinstance(value, dict) and "type" in value and not any(key in value for key in _BODY_KEYS)


def _json_body(text: str) -> str:
    """The text field of a JSON object that also says who sent it (``{"user": …, "channel": …, "text": …}``), or
    of the message object inside it (``{"message": {"from": …, "text": …}}``)."""
    if not (text.startswith("{") and text.endswith("}")):
        return ""
    try:
        value = orjson.loads(text)  # not json: its recursion would crash on a pasted array nested 5,000 deep
    except ValueError:
        return ""
    for _ in range(2):
        if not isinstance(value, dict):
            return ""
        body = next((value[key] for key in _BODY_KEYS if key in value), None)
        if isinstance(body, dict):
            value = body
            continue
        return body if isinstance(body, str) and _META_KEYS & {key.lower() for key in value} else ""
    return ""


__all__ = ["relayed"]
