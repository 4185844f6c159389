"""Assembling the stored summary text around a strategy's body.

Every summary, whatever produced it, carries the user's first request verbatim at the top (so the original
goal never decays through repeated compactions), the latest request verbatim when it is no longer in the
kept messages (so the agent resumes the current task), a note of anything dropped to fit the window, and
pi's ``<read-files>``/``<modified-files>`` lists at the end (one spelling per file, relative to the session's
``cwd``: :mod:`.paths`). These blocks are stripped from a previous
summary before it is updated, so they never pile up.
"""

from __future__ import annotations

import re

from .paths import listed_files
from ..serialize import format_file_operations
from ..tokens import text_tokens

REQUEST_CHARS = 2000
_QUOTE_MARK = re.compile(r"(?m)^[ \t]{0,8}>[ \t]?")
_GENERATED_TAGS = ("original-request", "current-request", "read-files", "modified-files", "dropped-to-fit")
_GENERATED_OPEN = re.compile(r"<(" + "|".join(_GENERATED_TAGS) + r")>")


def bounded(text: str, limit: int = REQUEST_CHARS) -> str:
    """Head and tail of a long text, with the cut said out loud."""
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 3 // 4], text[-limit // 4 :]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters omitted ...]\n{tail}"


def strip_generated(summary: str | None) -> str | None:
    """A previous summary without the blocks this module adds (they are re-made each time)."""
    if summary is None:
        return None
    parts, done, unclosed = [], 0, set()
    for opened in _GENERATED_OPEN.finditer(summary):
        tag = opened.group(1)
        if opened.start() < done or tag in unclosed:
            continue
        close = summary.find(f"</{tag}>", opened.end())
        if close < 0:  # no later block of this tag closes either: each open is not searched to the end again
            unclosed.add(tag)
            continue
        end = close + len(tag) + 3
        while end < len(summary) and summary[end].isspace():
            end += 1
        parts.append(summary[done : opened.start()])
        done = end
    return ("".join(parts) + summary[done:]).strip()


def compose(
    body: str,
    *,
    first_request: str | None,
    current_request: str | None,
    dropped_note: str | None,
    read_files: tuple[str, ...],
    modified_files: tuple[str, ...],
    cwd: str = "",
    gone: tuple[str, ...] = (),
) -> str:
    parts = []
    quoted = bool(first_request) and f"## Goal\n{first_request}\n" in body + "\n"
    if first_request and not quoted:  # a goal that is the whole request (offline summaries) needs no copy
        parts.append(f"<original-request>\n{bounded(first_request)}\n</original-request>")
    if body.strip():
        parts.append(body.strip())
    if current_request and current_request != first_request and not _quotes(body, current_request):
        parts.append(f"<current-request>\n{bounded(current_request)}\n</current-request>")
    if dropped_note:
        parts.append(f"<dropped-to-fit>\n{dropped_note}\n</dropped-to-fit>")
    return "\n\n".join(parts) + format_file_operations(*listed_files(read_files, modified_files, cwd, gone))


def _quotes(body: str, request: str) -> bool:
    """True when ``body`` already holds ``request`` whole, perhaps as a ``> `` block quote (the offline summary
    quotes the last request verbatim): a second copy would only take room."""
    if len(request.strip()) < 20:  # too short to tell a quote from a chance match
        return False
    quoted = " ".join(_QUOTE_MARK.sub("", line) for line in body.splitlines() if _QUOTE_MARK.match(line))
    return " ".join(request.split()) in " ".join(quoted.split())


def shorten_to(text: str, max_tokens: int) -> str:
    """Cut ``text`` so that it fits ``max_tokens``, saying so at the end."""
    marker = "\n[summary truncated to fit the window]"
    if text_tokens(text) <= max_tokens:
        return text
    budget = max_tokens - text_tokens(marker)
    if budget <= 0:
        return ""
    chars = min(len(text), budget * 4)
    while chars > 0 and text_tokens(text[:chars]) > budget:
        chars = int(chars * 0.9)
    return text[:chars] + marker
