"""The line of a failed command's output that names what failed, in any tool's shape.

A check's output often opens or ends with its runner's verdict (``[lint] ERROR task failed``, ``FAIL pkg [build
failed]``, ``Automatic merge failed``), which names nothing the next agent could act on or must not retry. The
finding itself is further in: a compiler's or linter's located diagnostic (``a.go:12:5: not enough arguments in call
to Init``, ``x.ts(3,7): error TS2345``, ``a.py:4: error: …``), git's ``CONFLICT (content): Merge conflict in a.go``
or ``! [rejected] main -> main (fetch first)``. Every function reads the output line by line, once.
"""

from __future__ import annotations

_SCAN_CHARS = 200_000
_LINE_CHARS = 300
_CODE_CHARS = 120
"""Longest source line kept after a diagnostic (linters print the offending line under it)."""
_CONFLICT_PREFIX = "CONFLICT ("
_CONFLICT_IN = "conflict in "
_CONFLICTS_NAMED = 6
_REJECTED = ("! [rejected]", "! [remote rejected]")
_HOOK_FAILED = "Failed"
_HOOKS_LABEL = "pre-commit hooks failed:"
"""pre-commit's verdict per hook: ``Detect secrets........Failed``."""


def telling_line(text: str) -> str:
    """The line that names what failed: git's merge conflicts (with every conflicted file), else the pre-commit hooks
    that failed, else the first located diagnostic (with the source line a linter prints under it, and the linters
    golangci-lint's tally names when there are several, or else the findings' own tags), else git's push rejection;
    ``""`` when none."""
    lines = text[:_SCAN_CHARS].splitlines()
    conflicts: list[str] = []
    hooks: list[str] = []
    linters: list[str] = []
    tags: list[str] = []
    located, rejected = "", ""
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.endswith(_HOOK_FAILED) and stripped[: -len(_HOOK_FAILED)].endswith("..."):
            hooks.append(stripped[: -len(_HOOK_FAILED)].rstrip(".").strip())
        elif stripped.startswith(_CONFLICT_PREFIX):
            at = stripped.lower().rfind(_CONFLICT_IN)
            conflicts.append(stripped[at + len(_CONFLICT_IN):].strip() if at >= 0 else stripped)
        elif is_located(stripped):
            tags.append(_linter_tag(stripped))
            if not located:
                located = _with_source(stripped, lines[number + 1] if number + 1 < len(lines) else "")
        elif not rejected and stripped.startswith(_REJECTED):
            rejected = stripped
        elif stripped.startswith("* ") and _tallied(stripped):
            linters.append(stripped[2:].partition(":")[0])
    found = located or rejected
    linters = list(dict.fromkeys(linters or [tag for tag in tags if tag]))  # no tally: the findings' own tags
    if located and len(linters) > 1:  # the first finding says one linter's words; the tally names them all
        found = f"findings by {', '.join(linters)}; the first: {located}"
    if conflicts:
        named = list(dict.fromkeys(conflicts))
        more = f" and {len(named) - _CONFLICTS_NAMED} more" if len(named) > _CONFLICTS_NAMED else ""
        found = f"CONFLICT: merge conflict in {', '.join(named[:_CONFLICTS_NAMED])}{more}"
    elif hooks:
        found = f"{_HOOKS_LABEL} {', '.join(dict.fromkeys(hooks))}"
    found = found[:_LINE_CHARS]
    return found if found.count("`") % 2 == 0 else found.replace("`", "'")  # a quote cut by the line's end


def _linter_tag(diagnostic: str) -> str:
    """The linter a finding ends with, in parentheses (golangci-lint's ``… is unwrapped (wrapcheck)``), else ``""``:
    a long run's findings name, between them, what kinds of problem the check raised."""
    if not diagnostic.endswith(")"):
        return ""
    tag = diagnostic.rpartition("(")[2][:-1]
    return tag if 2 <= len(tag) <= 30 and tag[:1].isalpha() and tag.replace("-", "").isalnum() and tag.islower() else ""


def _tallied(line: str) -> bool:
    """golangci-lint's count per linter under its findings: ``* errcheck: 2``."""
    name, colon, count = line[2:].partition(": ")
    return bool(colon) and count.strip().isdigit() and name.replace("-", "").isalnum()


def is_telling(line: str) -> bool:
    """True for a line :func:`telling_line` gives: a located diagnostic, git's conflicts or rejection, pre-commit's
    failed hooks."""
    return line.startswith(("CONFLICT", _HOOKS_LABEL, "findings by ", *_REJECTED)) or is_located(line)


def is_located(line: str) -> bool:
    """True for a diagnostic that opens with where it is: ``path.ext:line[:col]: message`` (go, gcc, golangci-lint,
    mypy, ruff, eslint's unix format) or ``path.ext(line,col): message`` (tsc, msbuild); the message says something
    (not go's ``too many errors``)."""
    head, colon, rest = line.partition(":")
    if not colon or " " in head or len(head) > 300:
        return False
    if head.endswith(")") and "(" in head:  # tsc: src/a.ts(12,5): error TS2345
        head, _, where = head[:-1].rpartition("(")
        if not where.replace(",", "").isdigit():
            return False
        message = rest
    else:
        number, colon, message = rest.partition(":")
        if not colon or not number.isdigit():
            return False
        column, colon, after = message.partition(":")
        if colon and column.isdigit():
            message = after
    message = message.strip()
    # not go's "too many errors", a package header (``a.go:1: : # pkg``), a traceback's frame (pytest's ``: in f``)
    return _file_name(head) and len(message) >= 8 and message != "too many errors" \
        and not message.startswith((":", "#", "in "))


def _file_name(head: str) -> bool:
    """``pkg/a.go``, ``./src/x.test.ts``: a path whose last part has an extension of letters and digits."""
    stem, dot, extension = head.rsplit("/", 1)[-1].rpartition(".")
    return bool(dot and stem and 1 <= len(extension) <= 10 and extension.isalnum() and extension[:1].isalpha())


def _with_source(diagnostic: str, below: str) -> str:
    """The diagnostic and the source line a linter prints under it (``worktreePath, _ := GetWorktreePath()``, after a
    finding tagged with its linter: ``(errcheck)``), or the indented line that goes on with it (go's ``have (string,
    string)``): it names what the finding is about. A caret line, another diagnostic or a count is neither."""
    code = below.strip()
    tagged = diagnostic.endswith(")") and diagnostic.rpartition("(")[2][:-1].replace("-", "").isalnum()
    if not (tagged or below[:1].isspace()) or not code or len(code) > _CODE_CHARS or is_located(code) \
            or not any(char.isalpha() for char in code) or code[0].isdigit() \
            or code.startswith(("*", "#", "FAIL", "ok ", "---", "===")):
        return diagnostic
    return f"{diagnostic} — {code.replace('`', chr(39))}"


__all__ = ["is_located", "is_telling", "telling_line"]
