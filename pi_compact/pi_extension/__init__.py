"""pi-compact inside pi: a pi extension that lends pi our compaction, branch summaries and recall.

The extension (:func:`extension_path`, a JavaScript file pi loads with no build step) handles pi's
``session_before_compact`` and ``session_before_tree`` events and registers a ``recall`` tool. For each it
starts ``pi-compact extension serve``, writes one JSON request to its stdin and reads one JSON response from
its stdout. Keys travel in the request, never on a command line. When pi-compact is missing, too old for the
extension's protocol, failing or slower than the extension's timeout (pi's abort signal kills it too), the
extension returns nothing and pi does what it always does, with one notice line.

The protocol (version :data:`PROTOCOL_VERSION`)
-----------------------------------------------

Every request is a JSON object with ``"protocol": 1`` and a ``"type"``; every response has ``"protocol"``
(the version this pi-compact speaks) and ``"ok"``. An error is ``{"ok": false, "code", "error"}`` with
``code`` one of ``bad_request`` (malformed JSON, a missing field or one of the wrong type),
``unknown_type``, ``protocol`` (a version this pi-compact does not speak; ``error`` says which side to
upgrade) or ``failed`` (the request was well formed but could not be answered); the exit status is then 2,
otherwise 0. Fields named below are required unless marked optional (:mod:`pi_compact.pi_extension.wire` has
them as ``TypedDict``s).

``version``
    → ``{"version": "0.1.0", "protocols": [min, max], "requests": [...]}``.
``compact``
    ``branchEntries`` (pi's path, root first), ``preparation`` (pi's, with ``fileOps`` as arrays:
    ``firstKeptEntryId``, ``messagesToSummarize``, ``turnPrefixMessages``, ``isSplitTurn``,
    ``tokensBefore``, ``previousSummary``, ``fileOps {read, written, edited}``, ``settings
    {reserveTokens, keepRecentTokens}``), optional ``customInstructions``, ``cwd``, ``model``,
    ``contextWindow`` (default: the model's), ``fixedTokens`` (system prompt and tools),
    ``deadlineSeconds``.
    → ``{"compaction": {"summary", "firstKeptEntryId", "tokensBefore", "details"}}``: what pi's handler
    returns; ``details`` holds ``strategy``, ``summarizer``, ``readFiles``, ``modifiedFiles``,
    ``tokensAfter``, ``messagesSummarized``, ``messagesDropped``, ``generator`` and, when the LLM was not
    used or failed, ``fallbackReason``.
``branch_summary``
    ``preparation`` (pi's ``session_before_tree`` preparation: ``entriesToSummarize``, optional
    ``customInstructions``), optional ``cwd``, ``model``, ``deadlineSeconds``.
    → ``{"summary": {"summary", "details"}}``, or ``{"summary": null}`` when the branch holds no message.
``recall``
    ``sessionFile``, ``query``, optional ``leafId`` (the branch to search behind), ``limit`` (1–50),
    ``branches`` (also abandoned branches).
    → ``{"text"}`` (what the model reads, at most :data:`~pi_compact.pi_extension.handlers.RECALL_MAX_CHARS`
    characters), ``totalMatches``, ``entriesSearched``, ``hits [{id, kind, abandoned}]``.

``model`` is pi's current model: ``{"provider", "id", "api", "baseUrl", "contextWindow", "apiKey"}``. By
default it writes the summaries (the Anthropic Messages and OpenAI dialects; others, or no key, give the
offline summary); the user's own settings' ``compaction.summarizer`` overrides it (see
:mod:`pi_compact.pi_extension.models`).

    >>> from pi_compact.pi_extension import serve_bytes
    >>> serve_bytes(b'{"protocol": 1, "type": "version"}')[0]["ok"]
    True
"""

from __future__ import annotations

from .install import EXTENSION_NAME, extension_path, install, installed_path, uninstall
from .protocol import MIN_PROTOCOL, PROTOCOL_VERSION, ProtocolError


def serve_bytes(raw: bytes) -> tuple[dict, int]:
    """Answer one raw request: ``(response, exit status)``; never raises for bad input."""
    from .handlers import HANDLERS
    from .protocol import serve

    return serve(raw, HANDLERS)


__all__ = [
    "EXTENSION_NAME",
    "MIN_PROTOCOL",
    "PROTOCOL_VERSION",
    "ProtocolError",
    "extension_path",
    "install",
    "installed_path",
    "serve_bytes",
    "uninstall",
]
