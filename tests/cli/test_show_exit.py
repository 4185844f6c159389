"""``session show`` keeps what it read of a big session to the end of the process, unfreed (freeing it was a
tenth of the command); a small session's is freed as ever, and the collector left whole."""

from __future__ import annotations

import gc
import weakref

import pytest

from pi_compact.cli import session_cmds


class _Read:
    """Stands for a tree or an index read: an object that can be watched for being freed."""


@pytest.fixture
def kept_list(monkeypatch: pytest.MonkeyPatch):
    kept: list = []
    monkeypatch.setattr(session_cmds, "_kept", kept)
    yield kept
    kept.clear()
    gc.unfreeze()  # the objects frozen by the test go back to the collector of the test run


@pytest.mark.parametrize(("entries", "kept"), [
    (0, False),
    (session_cmds.KEPT_TO_EXIT_ENTRIES - 1, False),
    (session_cmds.KEPT_TO_EXIT_ENTRIES, True),
    (100_000, True),
])
def test_what_a_big_session_read_is_never_freed(kept_list, entries, kept):
    frozen_before = gc.get_freeze_count()
    read = _Read()
    watched = weakref.ref(read)
    session_cmds._kept_to_exit(entries, read)
    del read
    gc.collect()
    assert (watched() is not None) == kept
    assert (gc.get_freeze_count() > frozen_before) == kept  # out of the collector's reach only when kept
