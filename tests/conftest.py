"""Fixtures shared across the test packages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pi_compact.testing import FakeLLMServer, fake_llm_server


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    """A local HTTP server speaking the Anthropic and OpenAI APIs, with scripted replies (the real SDKs talk to it)."""
    with fake_llm_server() as fake:
        yield fake
