"""The line of a failed command's output that names what failed, in any tool's shape.

A check's output often opens or ends with its runner's verdict (``[lint] ERROR task failed``, ``FAIL pkg [build
failed]``, ``Automatic merge failed``), which names nothing the next agent could act on or must not retry. The
finding itself is further in: a compiler's or linter's located diagnostic (``a.go:12:5: not enough arguments in call
to Init``, ``x.ts(3,7): error TS2345``, ``a.py:4: error: …``), git's ``CONFLICT (content): Merge conflict in a.go``
or ``! [rejected] main -> main (fetch first)``. Every function reads the output line by line, once.

A check that fails on several kinds of finding (a linter's codes ``I001`` and ``F401``) is named by each kind once,
compactly (the first whole, then ``also F401 `x` imported but unused (a.py:7)``), up to a few; ruff's full format
(the code and message, then ``--> path:3:1`` under them) reads as a located diagnostic; a formatter's check (black's
``would reformat a.py``, ruff's ``Would reformat: a.py``, rustfmt's ``Diff in a.rs at line 3:``) is named by the files
it would reformat; and git's ``fatal:`` line, which follows the ``warning:`` that says less, when nothing else tells.
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
_REFORMAT_LABEL = "would reformat:"
_REFORMAT_PREFIXES = ("would reformat ", "would reformat: ")
_RUSTFMT_PREFIX, _RUSTFMT_AT = "Diff in ", " at line "
_REFORMAT_NAMED = 3
_SCAN_FILES = 200
"""Files to reformat counted at most (the line names a few and how many more)."""
_FATAL = "fatal: "
_ARROW = "--> "
_MORE_KINDS = 2
"""Further kinds of finding named after the first (each by its code, its message and where): more is a list."""
_KIND_CHARS = 70
_CODE_CHARS_MAX = 4
_FIXABLE = "[*] "
"""ruff's mark of a finding ``--fix`` can fix: no part of what is wrong."""


def telling_line(text: str) -> str:
    """The line that names what failed: git's merge conflicts (with every conflicted file), else the pre-commit hooks
    that failed, else the first located diagnostic (with the source line a linter prints under it, and the linters
    golangci-lint's tally names when there are several, or else the findings' own tags, or else each further rule
    code once), else git's push rejection, else the files a formatter would reformat, else git's ``fatal:`` line;
    ``""`` when none."""
    lines = text[:_SCAN_CHARS].splitlines()
    conflicts: list[str] = []
    hooks: list[str] = []
    linters: list[str] = []
    tags: list[str] = []
    kinds: dict[str, str] = {}  # a finding's code -> the finding, compact (the first of each code)
    reformat: list[str] = []
    located, rejected, fatal, header = "", "", "", ""
    for number, line in enumerate(lines):
        stripped = line.strip()
        if header and stripped.startswith(_ARROW):  # ruff's full format: the finding, then where it is
            stripped, line = f"{stripped[len(_ARROW):].strip()}: {header}", ""
        header = _coded_header(stripped) if not line[:1].isspace() else ""
        if stripped.endswith(_HOOK_FAILED) and stripped[: -len(_HOOK_FAILED)].endswith("..."):
            hooks.append(stripped[: -len(_HOOK_FAILED)].rstrip(".").strip())
        elif stripped.startswith(_CONFLICT_PREFIX):
            at = stripped.lower().rfind(_CONFLICT_IN)
            conflicts.append(stripped[at + len(_CONFLICT_IN):].strip() if at >= 0 else stripped)
        elif is_located(stripped):
            tags.append(_linter_tag(stripped))
            code, compact = _coded(stripped)
            if code and len(kinds) <= _MORE_KINDS:
                kinds.setdefault(code, compact)
            if not located:
                below = lines[number + 1] if line and number + 1 < len(lines) else ""
                located = _with_source(stripped.replace(_FIXABLE, "", 1), below)
        elif not rejected and stripped.startswith(_REJECTED):
            rejected = stripped
        elif stripped.startswith("* ") and _tallied(stripped):
            linters.append(stripped[2:].partition(":")[0])
        elif len(reformat) < _SCAN_FILES and (named := _reformatted(stripped)):
            reformat.append(named)
        elif not fatal and stripped.startswith(_FATAL) and len(stripped) > len(_FATAL) + 8:
            fatal = stripped
    found = located or rejected or _reformat_line(reformat) or fatal or tree_error(text)
    linters = list(dict.fromkeys(linters or [tag for tag in tags if tag]))  # no tally: the findings' own tags
    if located and len(linters) > 1:  # the first finding says one linter's words; the tally names them all
        found = f"findings by {', '.join(linters)}; the first: {located}"
    elif located and len(kinds) > 1:  # findings of several codes: each code once, the first whole
        first = f"({located.partition(':')[0].rsplit('/', 1)[-1]}:"
        found = f"{located}; also {'; '.join(kind.replace(first, '(line ') for kind in list(kinds.values())[1:])}"
    if conflicts:
        named = list(dict.fromkeys(conflicts))
        more = f" and {len(named) - _CONFLICTS_NAMED} more" if len(named) > _CONFLICTS_NAMED else ""
        found = f"CONFLICT: merge conflict in {', '.join(named[:_CONFLICTS_NAMED])}{more}"
    elif hooks:
        found = f"{_HOOKS_LABEL} {', '.join(dict.fromkeys(hooks))}"
    found = found[:_LINE_CHARS]
    return found if found.count("`") % 2 == 0 else found.replace("`", "'")  # a quote cut by the line's end


_PYTEST_DETAIL = "E "
"""pytest's mark before each line of a failure's explanation (``E       AssertionError: …``)."""
_NODE = "::"
_HEADER = "____"
"""The opening of pytest's header over one test's failure (``_____ TestA.test_b _____``)."""
_NODE_PREFIX = "FAILED "
_REASON_CHARS = 140


def with_assertion(failed: str, text: str) -> str:
    """A failing test's line (``FAILED tests/unit/test_a.py::TestA::test_b``) with why it failed, from pytest's
    explanation of that test in ``text`` (under its ``____ TestA.test_b ____`` header: ``E   AssertionError: Files
    must hold one class:`` and, when that line announces a list, its first item): ``FAILED test_a.py::test_b —
    AssertionError: …``. The node keeps its file's name and the test's: the reason is what the next agent needs, the
    directories it can find. ``failed`` as it is when ``text`` holds no explanation of it, or the line says it
    already (``-ra``'s ``FAILED a.py::t - AssertionError: …``)."""
    if not failed.startswith(_NODE_PREFIX) or _NODE not in failed or " - " in failed:
        return failed
    node = failed[len(_NODE_PREFIX):].split(" ", 1)[0]
    path, _, rest = node.partition(_NODE)
    test = rest.rsplit(_NODE, 1)[-1]
    reason = _assertion(text, test.split("[", 1)[0])
    if not reason:
        return failed
    found = f"{_NODE_PREFIX}{path.rsplit('/', 1)[-1]}{_NODE}{test} — {reason}"
    return found if found.count("`") % 2 == 0 else found.replace("`", "'")


def _assertion(text: str, test: str) -> str:
    """pytest's first explanation line (``E   AssertionError: …``, ``E   assert 3 == 4``) under the header of
    ``test``'s failure (anywhere, when the output holds no header and names one failing test) and, when it ends with a colon, the first line under it (``- a.py: Middleware not imported``),
    clipped; ``""`` when none."""
    lines = text[:_SCAN_CHARS].splitlines()
    # output cut above the headers (``| tail -30``) with one test failing: its explanation is the one shown
    inside = _HEADER not in text[:_SCAN_CHARS] and sum(line.startswith(_NODE_PREFIX) for line in lines) == 1
    for number, line in enumerate(lines):
        if line.startswith(_HEADER):
            inside = bool(test) and f" {test} " in line.replace(".", " ")
        elif inside and line.startswith(_PYTEST_DETAIL) and (said := line[len(_PYTEST_DETAIL):].strip()):
            if said.endswith(":"):
                below = [other[len(_PYTEST_DETAIL):].strip(" -*\t") for other in lines[number + 1:number + 3]
                         if other.startswith(_PYTEST_DETAIL)]
                said = f"{said} {below[0]}" if below and below[0] else said
            said = _short_paths(said)  # (a module's repr or an item names a file by its whole path)
            return said if len(said) <= _REASON_CHARS else said[:_REASON_CHARS - 1] + "…"
    return ""


def _short_paths(line: str) -> str:
    """``line`` with each path of more than two parts cut to its last two (``src/app/pkg/routes.py`` →
    ``pkg/routes.py``): which file, in fewer characters."""
    return " ".join("/".join(word.rsplit("/", 2)[-2:]) if word.count("/") > 1 else word for word in line.split(" "))


def _coded_header(line: str) -> str:
    """ruff's full format's first line of a finding (``I001 [*] Import block is un-sorted``, ``C901 `f` is too
    complex (12 > 10)``), without its fixable mark, or ``""``: a code of capitals and digits, then the message."""
    code, space, message = line.partition(" ")
    message = message.removeprefix(_FIXABLE).strip()
    return f"{code} {message}" if space and _is_code(code) and len(message) >= 8 else ""


def _is_code(word: str) -> bool:
    """A linter's rule code: a few capitals and digits (``E501``, ``W0613``, ``I001``, ``SIM102``)."""
    letters = len(word) - len(word.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    digits = word[letters:]
    return 1 <= letters <= _CODE_CHARS_MAX and 2 <= len(digits) <= 4 and digits.isdigit()


def _coded(diagnostic: str) -> tuple[str, str]:
    """The rule code a located diagnostic's message opens with (``a.py:3:1: F401 [*] `x` imported but unused``,
    pylint's ``W0613: Unused argument``) and the finding compact: ``F401 `x` imported but unused (a.py:3)``;
    ``("", "")`` when the message opens with no code."""
    where, _, rest = diagnostic.partition(": ")
    if "(" in where and where.endswith(")"):  # tsc: src/a.ts(12,5): error TS2345: …
        return "", ""
    code, _, message = rest.partition(" ")
    code = code.rstrip(":")
    if not _is_code(code):
        return "", ""
    path, _, place = where.partition(":")
    message = message.removeprefix(_FIXABLE).strip()
    compact = f"{code} {message} ({path.rsplit('/', 1)[-1]}:{place.partition(':')[0]})"
    return code, compact if len(compact) <= _KIND_CHARS else f"{code} {message[:_KIND_CHARS - len(code) - 2]}…"


def _reformatted(line: str) -> str:
    """The file a formatter's check says it would reformat (black's ``would reformat /r/src/a.py``, ruff's ``Would
    reformat: src/a.py``, rustfmt's ``Diff in /r/src/a.rs at line 3:``), as its last two parts, or ``""``."""
    lowered = line.lower()
    prefix = next((prefix for prefix in _REFORMAT_PREFIXES if lowered.startswith(prefix)), "")
    if prefix:
        path = line[len(prefix):].strip()
    elif line.startswith(_RUSTFMT_PREFIX) and _RUSTFMT_AT in line:
        path = line[len(_RUSTFMT_PREFIX):line.rfind(_RUSTFMT_AT)].strip()
    else:
        return ""
    if not path or " " in path or not _file_name(path):
        return ""
    return "/".join(path.rstrip("/").rsplit("/", 2)[-2:])


def _reformat_line(files: list[str]) -> str:
    if not files:
        return ""
    named = list(dict.fromkeys(files))
    more = f" and {len(named) - _REFORMAT_NAMED} more" if len(named) > _REFORMAT_NAMED else ""
    return f"{_REFORMAT_LABEL} {', '.join(named[:_REFORMAT_NAMED])}{more}"


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


_BRANCHES = ("└", "├")
"""The glyphs before a node of a drawn tree (``└ hooks``, ``├── src``)."""
_TREE_TRIM = " \t─-│┃|"
_TREE_LINES = 400
_ABOVE = 4
"""Non-empty lines above a tree searched for its title (``Settings Error``) and its root (the file)."""
_SAYS_WRONG = ("error", "invalid", "expected", "failed", "must ", "required", "missing", "unknown", "not allowed")


def tree_error(text: str) -> str:
    """The error a program drew as a tree (a settings validator's ``Settings Error`` over ``/x/settings.json``, then
    ``└ hooks`` ``└ PostToolUse`` ``└ 0`` ``└ hooks: Expected array, but received undefined``): its message sits
    at the leaf, where the tree's branches say where in the file it is. Given as ``Settings Error (settings.json):
    hooks.PostToolUse.0.hooks: Expected array, but received undefined``; ``""`` when no leaf holds a message or
    nothing says it is an error (a ``tree`` listing is none)."""
    lines = text[:_SCAN_CHARS].splitlines()[:_TREE_LINES]
    path: list[str] = []
    leaf, start = "", -1
    for number, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith(_BRANCHES):
            if leaf:
                break  # (the first tree with a message at its leaf)
            path = [] if stripped else path
            continue
        start = number if not path else start
        node = stripped.lstrip("└├").strip(_TREE_TRIM)
        name, colon, message = node.partition(": ")
        if colon and message.strip():  # (quoted: the message is what identifies the error)
            said = f"{'.'.join([*path, name])}: {message.strip()}".replace("`", "'")
            leaf = f"`{said}`"
        else:
            path.append(node)
    if not leaf or start < 0:
        return ""
    above = [line.strip() for line in lines[max(0, start - 2 * _ABOVE):start] if line.strip()][-_ABOVE:]
    title = next((line for line in reversed(above) if any(word in line.lower() for word in _SAYS_WRONG)), "")
    if not title and not any(word in leaf.lower() for word in _SAYS_WRONG):
        return ""
    root = above[-1] if above and above[-1] != title else ""
    where = f" ({root.rstrip('/').rsplit('/', 1)[-1]})" if root and " " not in root else ""
    found = f"{title}{where}: {leaf}" if title else leaf
    return found if len(found) <= _LINE_CHARS else found[:_LINE_CHARS - 2] + "…`"


def is_telling(line: str) -> bool:
    """True for a line :func:`telling_line` gives: a located diagnostic, git's conflicts, rejection or ``fatal:``
    line, pre-commit's failed hooks, a formatter's files to reformat."""
    return line.startswith(("CONFLICT", _HOOKS_LABEL, "findings by ", _REFORMAT_LABEL, _FATAL, *_REJECTED)) \
        or is_located(line)


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


__all__ = ["is_located", "is_telling", "telling_line", "tree_error", "with_assertion"]
