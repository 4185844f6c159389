"""Test doubles shipped with the library, so users test their own code the way we test ours.

Three doubles, for three levels of a test:

* :class:`ScriptedSummarizer` stands in for any :class:`~pi_compact.compaction.summarizer.Summarizer`: it
  answers from a script and records what it was asked, with no network at all.
* :func:`fake_llm_server` runs a tiny local HTTP server that speaks enough of the Anthropic Messages API
  and the OpenAI Chat Completions and Responses APIs (plain JSON and SSE streaming) for the *real* SDKs to
  talk to it, answering from a script of :class:`FakeReply`.
* The same server replays a recorded pi session as a **cassette** (``fake_llm_server(session=PATH)``):
  each request gets the next assistant message of the session's path, and must carry the user messages
  and tool results recorded before it (a :class:`Mismatch` says what differs). ``record=PATH`` in front
  of a real provider writes such a session. The pytest plugin (:mod:`pi_compact.pytest_plugin`) wraps
  both in fixtures; :func:`assert_context_fits` and :func:`assert_facts_survive` check agents built on
  the store.

Nothing here is imported by the library itself; importing this package costs the standard library and the
summarizer protocol (the cassette modules load the store when a session is used).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .scripted import ScriptedSummarizer
from .server import DEFAULT_FAKE_TEXT, FakeLLMServer, FakeReply, Mismatch, RecordedRequest, fake_llm_server

if TYPE_CHECKING:
    from .assertions import assert_context_fits, assert_facts_survive

__all__ = [
    "DEFAULT_FAKE_TEXT",
    "FakeLLMServer",
    "FakeReply",
    "Mismatch",
    "RecordedRequest",
    "ScriptedSummarizer",
    "assert_context_fits",
    "assert_facts_survive",
    "fake_llm_server",
]


def __getattr__(name: str):
    if name in ("assert_context_fits", "assert_facts_survive"):
        from . import assertions

        return getattr(assertions, name)
    raise AttributeError(f"module 'pi_compact.testing' has no attribute {name!r}")
