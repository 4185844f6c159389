"""Fixtures shared across the test packages."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from pi_compact.compaction.estimate_cache import CACHE_DIR_ENV
from pi_compact.testing import FakeLLMServer, fake_llm_server


@pytest.fixture(autouse=True, scope="session")
def estimate_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where every test, and every process a test starts, keeps token estimate caches (``session show`` writes
    one): a folder of this run, never the user's ``~/.cache``."""
    folder = tmp_path_factory.mktemp("estimate-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_ENV, str(folder))
        yield folder


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    """A local HTTP server speaking the Anthropic and OpenAI APIs, with scripted replies (the real SDKs talk to it)."""
    with fake_llm_server() as fake:
        yield fake


@pytest.fixture
def deadline() -> Callable[[float, str], AbstractContextManager[None]]:
    """``with deadline(seconds, what):`` fails the test when the block is still running after ``seconds``.

    A guard against hangs, so that a regression fails one test instead of stalling the run: nothing is
    measured or compared, and a block that ends in time is not otherwise affected (main thread only: SIGALRM).
    """

    @contextmanager
    def guard(seconds: float, what: str) -> Iterator[None]:
        def expire(signum: int, frame: object) -> None:
            pytest.fail(f"{what}: still running after {seconds:g} s", pytrace=False)

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    return guard
