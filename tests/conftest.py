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
def ctrl_c_delivered() -> Iterator[None]:
    """Python's own Ctrl-C handler for the run, and the default disposition for every process a test starts. A test
    run started in the background by a non-interactive shell (``make test &``, a CI runner's job) inherits SIGINT
    ignored, and Python then installs no handler: the tests that press Ctrl-C (the agent loop, its tools, the
    terminal chat) would fail for the way they were started, not for the code."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a handler, unlike SIG_IGN, is not inherited by exec
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.fixture(autouse=True, scope="session")
def estimate_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where every test, and every process a test starts, keeps token estimate caches (``session show`` writes
    one): a folder of this run, never the user's ``~/.cache``."""
    folder = tmp_path_factory.mktemp("estimate-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_ENV, str(folder))
        yield folder


@pytest.fixture(scope="module")
def draws_independent_of_other_modules() -> Iterator[None]:
    """Hypothesis (6.131 on) now and then draws a constant read from the source of every local module imported so
    far (test files left out), read again whenever ``sys.modules`` grows, so a derandomized property's draws
    depend on which test files were collected and ran before it (a token property passed alone and failed in the
    suite). No setting turns that pool off or pins it (``derandomize`` and ``seed`` fix the random choices, not
    the pool they choose from); a test module that uses this fixture draws from hypothesis' own constants only.
    Nothing to do on a version without such a pool."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:
        yield
        return
    if not (hasattr(providers, "_get_local_constants") and hasattr(providers, "CONSTANTS_CACHE")):
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(providers, "_get_local_constants", Constants)  # an empty pool each time it is read
        providers.CONSTANTS_CACHE.cache.clear()  # the constants each kind of draw may take, cached per pool
        yield
    providers.CONSTANTS_CACHE.cache.clear()


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
