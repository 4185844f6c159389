"""The one exception tree of pi-compact.

Every error the library raises on purpose derives from :class:`PiCompactError`, so a caller (and the CLI,
which turns each into one line on stderr and exit code 2) can catch them all in one place::

    PiCompactError
    ├── UsageError                  the caller asked for something that cannot be done
    │   ├── EntryNotFoundError      no entry with that id, prefix or label
    │   └── AmbiguousEntryError     a prefix or label that names more than one entry
    ├── SessionFileError            the file on disk cannot be used as a session
    │   ├── NotASessionError        empty, or no valid session header
    │   ├── CorruptEntryError       a line that looked valid at open failed to parse later
    │   └── ConcurrentModificationError  the file was replaced or shrunk under us
    ├── LockTimeoutError            another process held the session's lock for too long
    ├── TranscriptError             another agent's transcript cannot be imported (unknown format, --strict)
    ├── CompactionError             compaction could not run (nothing to compact, already compacted, ...)
    │   ├── NothingToCompactError   a refusal, not a failure: already compacted, or everything fits as it is
    │   └── CompactionInProgressError  another compaction of the same session is running
    └── SummarizerError             a summarizer (LLM provider or offline) failed
        └── SummarizerOverflowError  its model refused a request larger than its context window
"""

from __future__ import annotations


class PiCompactError(Exception):
    """Base class of every error pi-compact raises deliberately."""


class UsageError(PiCompactError):
    """The caller misused the API (bad argument, unknown id, impossible request)."""


class EntryNotFoundError(UsageError):
    """No entry matches the given id, id prefix or label."""


class AmbiguousEntryError(UsageError):
    """A prefix or label matches more than one entry."""


class SessionFileError(PiCompactError):
    """A file cannot be read or written as a session."""


class NotASessionError(SessionFileError):
    """The file is empty or has no valid session header (its bytes are left untouched)."""


class CorruptEntryError(SessionFileError):
    """A line that passed the cheap checks at open time failed to parse when it was needed."""


class ConcurrentModificationError(SessionFileError):
    """The file shrank or was replaced by someone else while we had it open."""


class LockTimeoutError(PiCompactError):
    """Another process held the session's lock longer than we were willing to wait."""


class TranscriptError(PiCompactError):
    """Another agent's transcript (Claude Code, Codex) cannot be imported: unknown format, or a bad line under
    ``strict``."""


class CompactionError(PiCompactError):
    """Compaction could not run (nothing to compact, already compacted, fixed part too large, ...)."""


class NothingToCompactError(CompactionError):
    """Nothing to do: the leaf is a compaction already, there are no messages, or the whole conversation fits in
    ``keepRecentTokens`` (and the window). A refusal, not a failure: nothing is recorded in the file."""


class CompactionInProgressError(CompactionError):
    """Another compaction of the same session is already running (possibly in another process)."""


class SummarizerError(PiCompactError):
    """A summarizer failed: provider error, timeout, empty or malformed answer."""


class SummarizerOverflowError(SummarizerError):
    """The summarizer's model refused a request as larger than its context window (the caller may retry smaller)."""
