"""SessionFile.open reads only regular files: the library refuses what the CLI refuses (issue 13.6)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.errors import SessionFileError


def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


def unix_socket(tmp_path: Path) -> Path:
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))  # the bound name stays on disk after the socket is closed
    server.close()
    return path


@pytest.mark.parametrize(("make", "kind"), [
    (fifo, "a named pipe"),  # with no writer: opening must not block, reading must not wait
    (lambda tmp_path: Path("/dev/zero"), "a character device"),  # never ends
    (unix_socket, "a socket"),
    (lambda tmp_path: tmp_path, "a directory"),
])
def test_anything_but_a_regular_file_is_refused_before_it_is_read(tmp_path: Path, make, kind: str) -> None:
    path = make(tmp_path)
    with pytest.raises(SessionFileError, match=f"is {kind}, not a session file"):
        Session.open(path)


def test_a_symlink_to_a_session_file_opens(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    with Session.create_at(real, cwd="/w") as session:
        session.append_message({"role": "user", "content": "hi", "timestamp": 1})
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    with Session.open(link) as opened:
        assert [m["content"] for m in opened.build_context().messages] == ["hi"]


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(SessionFileError, match="no such file"):
        Session.open(tmp_path / "gone.jsonl")
