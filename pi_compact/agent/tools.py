"""The tools the model may call, with pi's names, arguments and limits, and their results as pi stores them.

``read`` (``offset``/``limit`` in lines, images as image blocks), ``write``, ``edit`` (one exact, unique
replacement), ``bash`` (timeout; long output cut to its tail, the whole kept in a file), ``ls`` and ``grep``.
:meth:`Toolbox.run` turns one ``toolCall`` block into one ``toolResult`` message: a failing tool is a result
with ``isError: true`` the model can read and act on, never an exception. Paths are relative to the working
directory; absolute paths and ``~`` work too, as in pi, unless the toolbox is *confined*: then every path
must lie inside the working directory once symlinks and ``..`` are resolved (``bash`` only starts there: a
shell command cannot be confined this way). With ``confirm_bash`` set, each ``bash`` call is asked for first
and a refusal becomes the result the model reads.
"""

from __future__ import annotations

import base64
import difflib
import fnmatch
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..store.jsonl import now_ms
from .fileio import FileRefused, confined, read_regular, replace_file
from .shell import MAX_BYTES, run_bash, truncate_head

GREP_LINE_CHARS = 500
"""A matching line longer than this is cut (minified files would drown the model)."""
GREP_SKIP_DIRS = frozenset({".git", "node_modules", "__pycache__", ".venv", ".hg", ".svn"})
_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
                ".webp": "image/webp"}
MIN_OUTPUT_BYTES = 2048
"""The least output a tool returns, however small the window (less could not show one error message)."""
CANCELLED_TEXT = "Cancelled by the user."
REFUSED_TEXT = "The user declined to run this command. Ask them or try another way."


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the model is told about it: name, description and a JSON schema of its arguments."""

    name: str
    description: str
    parameters: dict


@dataclass(frozen=True)
class ToolOutcome:
    """What a tool produced: text (and images) for the model, ``details`` for the file and the UI."""

    text: str
    details: dict | None = None
    is_error: bool = False
    images: tuple[dict, ...] = ()
    cancelled: bool = False


class ToolFailure(Exception):
    """Raised inside a tool to report an error to the model; :meth:`Toolbox.run` turns it into a result."""


def _schema(properties: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": properties, "required": required}


_STR = {"type": "string"}
_INT = {"type": "integer"}
_BOOL = {"type": "boolean"}

SPECS: tuple[ToolSpec, ...] = (
    ToolSpec("read", "Read a file. Text is returned with at most 2000 lines or 50KB; use offset/limit for the "
             "rest of a large file. Images (png, jpg, gif, webp) are returned as images.",
             _schema({"path": {**_STR, "description": "File to read (relative or absolute)"},
                      "offset": {**_INT, "description": "Line number to start from (1-indexed)"},
                      "limit": {**_INT, "description": "Maximum number of lines to read"}}, ["path"])),
    ToolSpec("write", "Write a file, creating it and its parent directories if needed; an existing file is "
             "overwritten.",
             _schema({"path": {**_STR, "description": "File to write"},
                      "content": {**_STR, "description": "The whole new content"}}, ["path", "content"])),
    ToolSpec("edit", "Edit a file by replacing one exact occurrence of oldText with newText. oldText must match "
             "exactly (whitespace included) and be unique in the file: add surrounding lines to make it unique.",
             _schema({"path": {**_STR, "description": "File to edit"},
                      "oldText": {**_STR, "description": "Exact text to find and replace"},
                      "newText": {**_STR, "description": "Replacement text"}}, ["path", "oldText", "newText"])),
    ToolSpec("bash", "Run a bash command in the working directory. Returns stdout and stderr; long output is cut "
             "to its last 2000 lines or 50KB and the whole output saved to a file.",
             _schema({"command": {**_STR, "description": "The command to run"},
                      "timeout": {"type": "number", "description": "Timeout in seconds"}}, ["command"])),
    ToolSpec("ls", "List a directory: entries sorted alphabetically, directories ending in '/', dotfiles included.",
             _schema({"path": {**_STR, "description": "Directory (default: the working directory)"},
                      "limit": {**_INT, "description": "Maximum entries (default 500)"}}, [])),
    ToolSpec("grep", "Search file contents for a regular expression (or literal text). Returns path:line: text "
             "lines; skips .git, node_modules and binary files.",
             _schema({"pattern": {**_STR, "description": "Regular expression (or literal text with literal=true)"},
                      "path": {**_STR, "description": "File or directory to search (default: the working directory)"},
                      "glob": {**_STR, "description": "Only files matching this glob, e.g. '*.py' or 'src/**/*.ts'"},
                      "ignoreCase": {**_BOOL, "description": "Case-insensitive search"},
                      "literal": {**_BOOL, "description": "Treat pattern as literal text"},
                      "context": {**_INT, "description": "Lines of context around each match"},
                      "limit": {**_INT, "description": "Maximum matches (default 100)"}}, ["pattern"])),
)


RECALL_SPEC = ToolSpec(
    "recall", "Search the parts of this conversation that were compacted into a summary (with branches=true, also "
    "abandoned branches): exact error messages, command output, file contents, earlier requests. Query by text "
    "(case-insensitive: the phrase, else all its words), a file path, or an entry id. Returns short excerpts with "
    "their entry ids, newest first; query an entry id to see more of that entry.",
    _schema({"query": {**_STR, "description": "Text, file path or entry id to look for"},
             "limit": {**_INT, "description": "Maximum matches (default 10)"},
             "branches": {**_BOOL, "description": "Also search abandoned branches"}}, ["query"]))


@dataclass
class Toolbox:
    """The tools bound to a working directory."""

    cwd: str
    bash_timeout: float | None = 600.0
    """Default timeout of a ``bash`` call when the model gives none (``None``: no limit)."""
    specs: tuple[ToolSpec, ...] = SPECS
    confine: bool = False
    """Refuse paths outside ``cwd`` (after resolving symlinks and ``..``)."""
    confirm_bash: Callable[[str], bool] | None = None
    """Asked before each ``bash`` command; ``False`` refuses it."""
    recall_session: Callable[[], Any] | None = None
    """The session ``recall`` searches (a callable: the agent's session may be replaced); ``None``: no tool."""
    max_bytes: int = MAX_BYTES
    """The longest output ``read``, ``bash`` and ``grep`` return (the agent sets it: :func:`output_limit`)."""
    _runners: dict[str, Callable[[dict], ToolOutcome]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._runners = {"read": self._read, "write": self._write, "edit": self._edit, "bash": self._bash,
                         "ls": self._ls, "grep": self._grep}
        if self.recall_session is not None:
            self.enable_recall(self.recall_session)

    def enable_recall(self, session: Callable[[], Any]) -> None:
        """Offer the ``recall`` tool over ``session()``."""
        self.recall_session = session
        self._runners["recall"] = self._recall
        if RECALL_SPEC not in self.specs:
            self.specs = (*self.specs, RECALL_SPEC)

    def run(self, call: dict) -> tuple[dict, bool]:
        """Run one ``toolCall`` block; return its ``toolResult`` message and whether the user cancelled it."""
        name = str(call.get("name"))
        runner = self._runners.get(name)
        try:
            if runner is None:
                raise ToolFailure(f"Tool {name} not found")
            arguments = call.get("arguments")
            outcome = runner(arguments if isinstance(arguments, dict) else {})
        except ToolFailure as exc:
            outcome = ToolOutcome(str(exc), is_error=True)
        except KeyboardInterrupt:
            outcome = ToolOutcome(CANCELLED_TEXT, is_error=True, cancelled=True)
        except FileRefused as exc:
            outcome = ToolOutcome(str(exc), is_error=True)
        except MemoryError:
            outcome = ToolOutcome("Out of memory: the result was too large. Read smaller parts.", is_error=True)
        except (OSError, ValueError, re.error) as exc:
            outcome = ToolOutcome(f"{type(exc).__name__}: {exc}", is_error=True)
        return tool_result(call, outcome), outcome.cancelled

    def resolve(self, raw: Any) -> Path:
        if not isinstance(raw, str) or not raw:
            raise ToolFailure("Missing required argument 'path'")
        path = Path(os.path.expanduser(raw.removeprefix("@")))
        path = path if path.is_absolute() else Path(self.cwd) / path
        return confined(path, self.cwd) if self.confine else path

    # -- read / write / edit ------------------------------------------------------------------------------

    def _read(self, args: dict) -> ToolOutcome:
        path = self.resolve(args.get("path"))
        if path.suffix.lower() in _IMAGE_TYPES:
            mime = _IMAGE_TYPES[path.suffix.lower()]
            image = {"type": "image", "data": base64.b64encode(read_regular(path)).decode(), "mimeType": mime}
            return ToolOutcome(f"Read image file [{mime}]", images=(image,))
        text = read_regular(path).decode("utf-8", "replace")
        lines = text.split("\n")
        start = max(_int(args, "offset", 1), 1) - 1
        if start >= len(lines) and start > 0:
            raise ToolFailure(f"Offset {start + 1} is beyond end of file ({len(lines)} lines total)")
        limit = _int(args, "limit", 0)
        chosen = lines[start : start + limit] if limit > 0 else lines[start:]
        cut = truncate_head("\n".join(chosen), max_bytes=self.max_bytes)
        if cut.output_lines == 0 and chosen and chosen[0]:
            size = len(chosen[0].encode()) // 1024
            return ToolOutcome(f"[Line {start + 1} is {size}KB, over the {_kb(self.max_bytes)} limit. Use bash: "
                               f"sed -n '{start + 1}p' {args['path']} | head -c {self.max_bytes}]",
                               {"truncation": cut.details()})
        shown_end = start + cut.output_lines
        body = cut.content
        if cut.truncated:
            body += f"\n\n[Showing lines {start + 1}-{shown_end} of {len(lines)}. Use offset={shown_end + 1} to continue.]"
            return ToolOutcome(body, {"truncation": cut.details()})
        if shown_end < len(lines):
            body += f"\n\n[{len(lines) - shown_end} more lines in file. Use offset={shown_end + 1} to continue.]"
        return ToolOutcome(body)

    def _write(self, args: dict) -> ToolOutcome:
        path = self.resolve(args.get("path"))
        content = args.get("content")
        if not isinstance(content, str):
            raise ToolFailure("Missing required argument 'content'")
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, content.encode())
        return ToolOutcome(f"Successfully wrote {len(content.encode())} bytes to {args['path']}")

    def _edit(self, args: dict) -> ToolOutcome:
        path = self.resolve(args.get("path"))
        old, new = args.get("oldText"), args.get("newText")
        if not isinstance(old, str) or not old:
            raise ToolFailure("Missing required argument 'oldText' (it must not be empty)")
        if not isinstance(new, str):
            raise ToolFailure("Missing required argument 'newText'")
        if not path.is_file():
            raise ToolFailure(f"File not found: {args['path']}")
        raw = read_regular(path).decode("utf-8")
        crlf = "\r\n" in raw
        text = raw.replace("\r\n", "\n") if crlf else raw
        old, new = old.replace("\r\n", "\n"), new.replace("\r\n", "\n")
        count = text.count(old)
        if count == 0:
            raise ToolFailure(f"Could not find the exact text in {args['path']}. The old text must match exactly, "
                              "including all whitespace and newlines.")
        if count > 1:
            raise ToolFailure(f"Found {count} occurrences of the text in {args['path']}. The text must be unique: "
                              "include more surrounding context to make it unique.")
        updated = text.replace(old, new, 1)
        if updated == text:
            raise ToolFailure(f"No changes made to {args['path']}: the replacement is identical to the old text.")
        replace_file(path, (updated.replace("\n", "\r\n") if crlf else updated).encode())
        first_line = text[: text.index(old)].count("\n") + 1
        details = {"diff": _diff(text, updated, str(args["path"])), "firstChangedLine": first_line}
        return ToolOutcome(f"Successfully replaced text in {args['path']}.", details)

    # -- bash --------------------------------------------------------------------------------------------

    def _bash(self, args: dict) -> ToolOutcome:
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            raise ToolFailure("Missing required argument 'command'")
        timeout = args.get("timeout")
        limit = float(timeout) if isinstance(timeout, (int, float)) and timeout > 0 else self.bash_timeout
        if self.confirm_bash is not None and not self.confirm_bash(command):
            return ToolOutcome(REFUSED_TEXT, is_error=True)
        run = run_bash(command, self.cwd, timeout=limit, max_bytes=self.max_bytes)
        text = run.output or "(no output)"
        details: dict | None = None
        if run.truncated:
            cut = run.truncation
            first = cut.total_lines - cut.output_lines + 1
            text += f"\n\n[Showing lines {first}-{cut.total_lines} of {cut.total_lines}. Full output: {run.full_output_path}]"
            details = {"truncation": cut.details(), "fullOutputPath": run.full_output_path}
        if run.cancelled:
            return ToolOutcome(text + "\n\nCommand aborted by the user", details, is_error=True, cancelled=True)
        if run.timed_out:
            return ToolOutcome(text + f"\n\nCommand timed out after {limit:g} seconds", details, is_error=True)
        if run.exit_code:
            return ToolOutcome(text + f"\n\nCommand exited with code {run.exit_code}", details, is_error=True)
        return ToolOutcome(text, details)

    # -- recall ------------------------------------------------------------------------------------------------

    def _recall(self, args: dict) -> ToolOutcome:
        from ..recaller import format_hits, recall

        query = args.get("query")
        if not isinstance(query, str) or not query.strip():
            raise ToolFailure("Missing required argument 'query'")
        found = recall(self.recall_session(), query, limit=_int(args, "limit", 10) or 10,
                       include_abandoned=bool(args.get("branches")))
        details = {"matches": found.total_matches, "entryIds": [hit.entry_id for hit in found.hits]}
        return ToolOutcome(format_hits(found), details)

    # -- ls / grep ---------------------------------------------------------------------------------------

    def _ls(self, args: dict) -> ToolOutcome:
        path = self.resolve(args.get("path") or ".")
        if not path.is_dir():
            raise ToolFailure(f"Not a directory: {args.get('path') or '.'}")
        limit = _int(args, "limit", 500) or 500
        names = sorted(os.listdir(path), key=str.lower)
        shown = [n + "/" if (path / n).is_dir() else n for n in names[:limit]]
        text = "\n".join(shown) or "(empty directory)"
        if len(names) > limit:
            text += f"\n\n[{limit} entries limit reached. Use limit={limit * 2} for more]"
        return ToolOutcome(text)

    def _grep(self, args: dict) -> ToolOutcome:
        pattern = args.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            raise ToolFailure("Missing required argument 'pattern'")
        source = re.escape(pattern) if args.get("literal") else pattern
        regex = re.compile(source, re.IGNORECASE if args.get("ignoreCase") else 0)
        root = self.resolve(args.get("path") or ".")
        if not root.exists():
            raise ToolFailure(f"Path not found: {args.get('path')}")
        limit = _int(args, "limit", 100) or 100
        context = max(_int(args, "context", 0), 0)
        lines, matches = [], 0
        for file in _files(root, args.get("glob"), self.cwd if self.confine else None):
            for is_match, line in _grep_file(file, regex, context, _shown_path(file, root)):
                matches += is_match
                lines.append(line)
                if matches >= limit:
                    break
            if matches >= limit:
                break
        if not matches:
            return ToolOutcome("No matches found")
        cut = truncate_head("\n".join(lines), max_bytes=self.max_bytes)
        text = cut.content
        if matches >= limit:
            text += f"\n\n[{limit} matches limit reached. Use limit={limit * 2} for more, or refine the pattern]"
        elif cut.truncated:
            text += f"\n\n[Output cut at {_kb(self.max_bytes)}. Refine the pattern or use a glob]"
        return ToolOutcome(text, {"matches": matches})


def output_limit(window: int) -> int:
    """The longest tool output, in bytes, for a ``window``-token model: pi's 50 KB, but at most half a byte per
    token of the window (an eighth of it in tokens, for ordinary text), so one result cannot fill a small window."""
    return max(MIN_OUTPUT_BYTES, min(MAX_BYTES, window // 2))


def _kb(size: int) -> str:
    return f"{size // 1024}KB" if size % 1024 == 0 else f"{size:,} bytes"


def tool_result(call: dict, outcome: ToolOutcome) -> dict:
    """pi's ``toolResult`` message for a call, keys in pi's order."""
    content = [{"type": "text", "text": outcome.text}, *outcome.images]
    message: dict[str, Any] = {"role": "toolResult", "toolCallId": call.get("id"), "toolName": call.get("name"),
                               "content": content}
    if outcome.details is not None:
        message["details"] = outcome.details
    message["isError"] = outcome.is_error
    message["timestamp"] = now_ms()
    return message


def _int(args: dict, key: str, default: int) -> int:
    value = args.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ToolFailure(f"Argument '{key}' must be an integer")
    try:
        return int(value)
    except ValueError:
        raise ToolFailure(f"Argument '{key}' must be an integer") from None


def _diff(before: str, after: str, name: str) -> str:
    lines = difflib.unified_diff(before.splitlines(), after.splitlines(), f"a/{name}", f"b/{name}", lineterm="", n=2)
    return "\n".join(lines)


def _files(root: Path, glob: Any, confine_to: str | None) -> Iterator[Path]:
    """The files under ``root`` to search; with ``confine_to``, a symlink leading outside it is skipped."""
    if root.is_file():
        yield root
        return
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in GREP_SKIP_DIRS)
        for name in sorted(files):
            path = Path(directory) / name
            if isinstance(glob, str) and glob and not _glob_match(path.relative_to(root).as_posix(), glob):
                continue
            if confine_to is not None:
                try:
                    confined(path, confine_to)
                except FileRefused:
                    continue
            yield path


def _glob_match(relative: str, glob: str) -> bool:
    if "/" not in glob:
        return fnmatch.fnmatch(relative.rsplit("/", 1)[-1], glob)
    return fnmatch.fnmatch(relative, glob) or fnmatch.fnmatch(relative, glob.replace("**/", ""))


def _shown_path(file: Path, root: Path) -> str:
    return file.name if root.is_file() else file.relative_to(root).as_posix()


def _grep_file(file: Path, regex: re.Pattern, context: int, shown: str) -> Iterator[tuple[bool, str]]:
    """``(is_match, line)`` for the matching lines and their context lines, in file order."""
    try:
        data = read_regular(file)
    except (OSError, FileRefused):  # a FIFO, a device or a huge file in the tree is skipped, not waited on
        return
    if b"\x00" in data[:8192]:
        return
    lines = data.decode("utf-8", "replace").split("\n")
    hits = [i for i, line in enumerate(lines) if regex.search(line)]
    wanted = sorted({j for i in hits for j in range(max(0, i - context), min(len(lines), i + context + 1))})
    hit_set = set(hits)
    for index in wanted:
        text = lines[index][:GREP_LINE_CHARS]
        if index in hit_set:
            yield True, f"{shown}:{index + 1}: {text}"
        else:
            yield False, f"{shown}-{index + 1}- {text}"


__all__ = ["CANCELLED_TEXT", "MIN_OUTPUT_BYTES", "RECALL_SPEC", "REFUSED_TEXT", "SPECS", "ToolFailure", "ToolOutcome",
           "ToolSpec", "Toolbox", "output_limit", "tool_result"]
