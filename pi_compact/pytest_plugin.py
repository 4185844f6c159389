"""The pytest plugin of pi-compact: recorded pi sessions as cassettes, and fixtures for agents on the store.

Installed with pi-compact (entry point ``pytest11``), it adds:

* ``fake_llm`` — a :class:`~pi_compact.testing.FakeLLMServer` for the real SDKs. Scripted (``push``) by
  default; with the marker ``@pytest.mark.pi_cassette("name.jsonl", leaf=None, match="strict")`` it
  replays that pi session, or records it, as ``--pi-record`` says. A request that does not match the
  cassette fails the test when the fixture ends, even if the agent caught the HTTP error (clear
  ``fake_llm.mismatches`` in a test that expects them).
* ``pi_session`` — a fresh :class:`~pi_compact.Session` in a file under ``tmp_path``.
* ``--pi-record=none|once|new_episodes|all|rewrite``, the record modes of vcrpy and pytest-recording
  (default ``none``: replay only, never reach a provider), and ``--pi-upstream URL``, the provider recorded
  in front of (or override the ``pi_upstream`` fixture). A session file is append-only, so ``all`` and
  ``rewrite`` record a new branch from the root, which becomes the path replayed; the old ones stay.

A cassette path is relative to the test file's folder; without one it is
``cassettes/<test module>/<test name>.jsonl`` there, as pytest-recording names its cassettes. Nothing of
pi-compact beyond its errors is imported until a fixture is used.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pi_compact import Session
    from pi_compact.testing import FakeLLMServer

RECORD_MODES = ("none", "once", "new_episodes", "all", "rewrite")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pi-compact", "pi-compact session cassettes")
    group.addoption("--pi-record", choices=RECORD_MODES, default=None, dest="pi_record",
                    help="record mode of pi_cassette tests (default: none, replay only)")
    group.addoption("--pi-upstream", default=None, dest="pi_upstream", metavar="URL",
                    help="base URL of the provider that pi_cassette tests record in front of")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "pi_cassette(path=None, *, leaf=None, match='strict'): the fake_llm fixture replays (or, with "
        "--pi-record, records) this pi session file",
    )


@pytest.fixture
def pi_record_mode(request: pytest.FixtureRequest) -> str:
    """The ``--pi-record`` mode, ``none`` unless given."""
    return request.config.getoption("pi_record") or "none"


@pytest.fixture
def pi_upstream(request: pytest.FixtureRequest) -> str | None:
    """The provider cassettes are recorded in front of (``--pi-upstream``); override it in a conftest."""
    return request.config.getoption("pi_upstream")


@pytest.fixture
def pi_cassette(request: pytest.FixtureRequest) -> Path | None:
    """The session file of the test's ``pi_cassette`` marker, or ``None`` when it has none."""
    marker = request.node.get_closest_marker("pi_cassette")
    if marker is None:
        return None
    folder = Path(request.node.path).parent
    given = marker.args[0] if marker.args else marker.kwargs.get("path")
    if given is not None:
        return folder / given
    name = re.sub(r"[^\w.-]", "_", request.node.name)
    return folder / "cassettes" / Path(request.node.path).stem / f"{name}.jsonl"


@pytest.fixture
def fake_llm(
    request: pytest.FixtureRequest, pi_cassette: Path | None, pi_record_mode: str, pi_upstream: str | None
) -> Iterator[FakeLLMServer]:
    """A fake LLM server: scripted, or the test's ``pi_cassette`` replayed or recorded."""
    from pi_compact.testing import fake_llm_server

    if pi_cassette is None:
        with fake_llm_server() as server:
            yield server
        return
    marker = request.node.get_closest_marker("pi_cassette")
    options = _cassette_options(pi_cassette, pi_record_mode, pi_upstream, marker.kwargs)
    with fake_llm_server(**options) as server:
        yield server
    if server.mismatches:  # also when the agent swallowed the HTTP error; clear the list to expect them
        listed = "\n".join(f"  {m.message}" for m in server.mismatches)
        pytest.fail(f"the requests did not match the cassette {pi_cassette}:\n{listed}", pytrace=False)


def _cassette_options(path: Path, mode: str, upstream: str | None, marked: dict[str, Any]) -> dict[str, Any]:
    """``fake_llm_server`` options for a cassette in a record mode (the vcrpy rules)."""
    replay = {"session": path, "leaf": marked.get("leaf"), "match": marked.get("match", "strict")}
    exists = path.is_file()
    if mode == "none" or (mode == "once" and exists):
        if not exists:
            pytest.fail(f"no cassette {path}: record it with --pi-record=once --pi-upstream URL", pytrace=False)
        return replay
    if upstream is None:
        pytest.fail(f"recording {path} (--pi-record={mode}) needs a provider: --pi-upstream URL "
                    "or a pi_upstream fixture", pytrace=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    recording = {"record": path, "upstream": upstream}
    return {**replay, **recording} if mode == "new_episodes" and exists else recording


@pytest.fixture
def pi_session(tmp_path: Path) -> Iterator[Session]:
    """A new, empty session whose file (``tmp_path / "session.jsonl"``) appears with the first append."""
    from pi_compact import Session

    session = Session.create_at(tmp_path / "session.jsonl", cwd=str(tmp_path))
    yield session
    session.close()
