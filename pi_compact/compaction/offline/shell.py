"""What a shell command evidently does to files: a heuristic read of ``cat``, ``sed -i``, ``>``, ``mv`` and friends.

pi tracks the files an agent read and changed only through its read, write and edit tools; agents just as often
``cat`` a file or rewrite it with ``sed -i``, ``perl -pi`` or a script (``python3 - <<'EOF'``, ``node -e``, a
script the same command wrote and ran; :mod:`.scripts` reads the code), or through a package manager (``npm i -D x``
rewrites ``package.json``; :mod:`.manifests`). This module reads a command line
(pipelines, ``&&``, redirections, heredocs) well enough to name those files. It follows a ``cd DIR`` within the
command (``cd web && sed -i … src/app.ts`` changes ``web/src/app.ts``; a subshell's ``cd`` ends with it), and does
not expand variables or globs.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .manifests import manifest_changes
from .scripts import script_effects

_READERS = frozenset({"cat", "head", "tail", "less", "more", "bat", "nl", "wc", "diff", "sort", "jq", "yq", "sed", "awk"})
_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag"})
_INSPECTORS = frozenset({"ls", "find", "pwd", "cd", "echo", "tree", "which", "file", "stat", "du"}) \
    | _READERS | _SEARCHERS
INSPECTORS = _INSPECTORS
"""Programs that only look at files (``ls``, ``cat``, ``grep``, …)."""
_MODIFIERS = frozenset({"rm", "rmdir", "unlink", "trash", "touch", "mkdir", "truncate"})
_GIT_READERS = frozenset({"show", "log", "diff", "fsck", "cat-file", "ls-files", "ls-tree", "status", "grep", "blame",
                          "rev-parse", "rev-list", "reflog", "shortlog", "describe", "for-each-ref", "show-ref",
                          "count-objects", "merge-base", "name-rev", "whatchanged", "verify-pack"})
"""git subcommands that print what the repository holds (``git fsck`` too: its ``error:`` lines are findings)."""
_GIT_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree"})
GIT_VALUES = _GIT_VALUES
"""git's own options that take a value (``git -C web rebase``)."""
_PREFIXES = frozenset({"sudo", "env", "time", "nohup", "command", "exec", "builtin", "then", "do", "else"})
# options whose value is the next word, by program (a value is not a file)
_SEARCH_VALUES = frozenset({"-e", "-f", "-m", "-A", "-B", "-C", "-g", "-t", "--glob", "--type", "--max-count"})
_LINE_VALUES = frozenset({"-n", "-c", "--lines", "--bytes"})
_COPY_VALUES = frozenset({"-t", "-S", "--target-directory"})
_VALUE_OPTIONS = {"head": _LINE_VALUES, "tail": _LINE_VALUES, "sed": frozenset({"-e", "-f"}), "cp": _COPY_VALUES,
                  "mv": _COPY_VALUES, **{p: _SEARCH_VALUES for p in ("grep", "egrep", "fgrep", "rg", "ag")}}
_INTERPRETER = re.compile(r"^(?:python[\d.]{0,6}|py|pypy3?|node|nodejs|bun|ruby)$")
_RUNNERS = frozenset({"uv", "poetry", "pipenv", "pdm", "rye", "hatch"})
"""``uv run python …`` runs python."""
_CODE_OPTIONS = frozenset({"-c", "-e", "--eval", "-p", "--print"})
_INTERPRETER_VALUES = frozenset({"-W", "-X", "-r", "--require", "-I", "--import", "--loader"})
_PERL_VALUE_CLUSTER = ("M", "m", "I")
"""``perl -Mlib`` / ``-Iinc``: a value, whose letters (``i`` of ``lib``) are no in-place flag."""
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
_HEREDOC = re.compile(r"(?<!<)<<(?!<)-?\s*(['\"]?)([A-Za-z_][\w.-]*)\1")
_PLAIN_ARG = re.compile(r"^[^\s*?$`|&;<>(){}\[\]'\"\\]+$")
_DRIVE_ROOT = re.compile(r"^[A-Za-z]:[\\/]")
"""An absolute Windows path (``D:/proj``, ``C:\\Users``): a ``cd`` before it does not move it."""
_FILE_NAME = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
_SEPARATOR = re.compile(r"^[;&|()\n]+$")
# A token never starts inside a word or quotes (a word runs on through ``#``), so a ``#`` that starts one starts a
# shell word: a comment to the end of the line. Backslash-newline joins lines outside comments, not within them.
_TOKEN = re.compile(
    r"""(?P<comment>#[^\n]*)|\\\n"""
    r"""|(?P<op>&>>?|[<>]+[&|]?|[;&|()\n]+)"""
    r"""|(?P<word>(?:[^\s;&|()<>'"\\]+|\\[^\n]|\\\Z|'[^']*(?:'|$)|"(?:[^"\\]|\\.)*(?:"|$))+)""",
    re.S,
)
_DOUBLE_ESCAPE = re.compile(r'\\([\\"$`])')
_UNQUOTE = re.compile(r"""'([^']*)'?|"((?:[^"\\]|\\.)*)"?|\\(.?)""", re.S)


@dataclass
class ShellEffects:
    """What a shell command evidently reads and changes, and which programs it runs."""

    reads: list[str]
    writes: list[str]
    programs: list[str]
    deletes: list[str] = field(default_factory=list)
    """The paths that no longer exist afterwards (``rm``, ``git rm``, the source of ``mv``)."""

    @property
    def inspects_only(self) -> bool:
        """True when every program only looks at files (``cat``, ``grep``, ``ls``, …), changing nothing."""
        return bool(self.programs) and not self.writes and all(p in _INSPECTORS for p in self.programs)


def shell_effects(command: str, start: str | None = "") -> ShellEffects:
    """Paths a shell command evidently reads or modifies (a heuristic: no expansion; a ``cd`` is followed), named
    from where the session started when the shell ran it in ``start`` (a persistent shell's directory, left by an
    earlier call's ``cd``; ``None`` when not known)."""
    if command.lstrip().startswith("apply_patch") and _PATCH_FILE.search(command[:200_000]):
        patched = patch_effects(command)  # Codex's patch as a command: its body is no shell (its paths are the folder's)
        return ShellEffects(*([_within(start, path) for path in paths] for paths in (patched.reads, patched.writes)),
                            patched.programs, [_within(start, path) for path in patched.deletes])
    effects = ShellEffects([], [], [])
    stripped, heredocs = _split_heredocs(command[:20_000])
    scripts: dict[str, str] = {}  # a heredoc written to a file (``cat > fix.py <<'EOF'``), by that file
    for opener, body in heredocs:
        for segment in _segments(_tokens(opener)):
            fed = ShellEffects([], [], [])
            _segment_effects(segment, fed, {})
            if fed.programs[-1:] == ["cat"]:
                scripts.update(dict.fromkeys(fed.writes, body))
            elif _reads_code_from_stdin(segment):
                _add_script(body, effects)
    for segment, folder in _placed(_tokens(stripped), start):
        found = ShellEffects([], [], [])
        _segment_effects(segment, found, scripts)
        effects.programs.extend(found.programs)
        for mine, theirs in ((effects.reads, found.reads), (effects.writes, found.writes),
                             (effects.deletes, found.deletes)):
            mine.extend(_within(folder, path) for path in theirs)
    return effects


_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: ([^\n]{1,1000})$|^\*\*\* Move to: ([^\n]{1,1000})$", re.M)
"""A file of a patch in Codex's ``apply_patch`` format (``*** Update File: src/app.py``, then perhaps
``*** Move to:``)."""


def patch_effects(patch: str) -> ShellEffects:
    """The files a patch in Codex's ``apply_patch`` format adds or changes (``writes``) and deletes or moves away
    (``deletes``, also among the writes, as ``rm``'s)."""
    effects = ShellEffects([], [], ["apply_patch"])
    updated = ""
    for match in _PATCH_FILE.finditer(patch[:200_000]):
        kind, path, moved_to = match.group(1), (match.group(2) or "").strip(), (match.group(3) or "").strip()
        if moved_to and updated:
            effects.deletes.append(updated)
            effects.writes.append(moved_to)
        elif path:
            effects.writes.append(path)
            effects.deletes.extend([path] if kind == "Delete" else [])
            updated = path if kind == "Update" else ""
    return effects


def final_folder(command: str, start: str | None = "", failed: bool = False) -> str | None:
    """Where a persistent shell (one that keeps its directory from call to call, as Claude Code's ``Bash`` tool
    does) stands after ``command``, having stood in ``start``: a ``cd`` of the line moves it (``cd web && npm test``
    leaves it in ``web``), one in a subshell does not, nor one after ``||`` (the fallback runs only when what came
    before failed). Of a line that ``failed``, only the ``cd``s that open it are known to have run: a move after
    another program leaves the place not known (``None``)."""
    folder = start
    for words, opening in _moves(command):
        if failed and not opening:
            return None
        folder = _moved(folder, words)
    return folder


def cd_moves(command: str) -> int:
    """How many ``cd``s of ``command`` would move a persistent shell (see :func:`final_folder`)."""
    return sum(1 for _ in _moves(command))


def _moves(command: str) -> Iterator[tuple[list[str], bool]]:
    """Each ``cd``/``pushd`` of the line outside any subshell and not after ``||``, and whether only ``cd``s came
    before it (it opens the line: it ran even when a later program failed)."""
    depth, fallback, opening = 0, False, True
    for segment in _segments(_tokens(_split_heredocs(command[:20_000])[0]), keep_separators=True):
        if _SEPARATOR.match(segment[0]):
            for mark in segment[0]:
                depth = depth + 1 if mark == "(" else max(depth - 1, 0) if mark == ")" else depth
            fallback = "||" in segment[0]
            continue
        words = _words(segment)
        if not words:
            continue
        if words[0] not in ("cd", "pushd"):
            opening = False
        elif depth == 0 and not fallback:
            yield words, opening


def working_folder(path: str) -> str | None:
    """The folder a tool's own working directory argument names (Codex's ``workdir``), as a ``cd`` there from where
    the session started would (``""`` for that folder itself)."""
    path = path.strip()
    if path.startswith(("~", "$")):
        return None  # (a home or a variable: somewhere the call does not say)
    place = posixpath.normpath(path.replace("\\", "/") if _DRIVE_ROOT.match(path) else path) if path else "."
    return "" if place == "." else place


def placed_commands(command: str, start: str | None = "") -> list[tuple[list[str], str | None]]:
    """The simple commands of ``command`` (as :func:`command_words` gives them), each with the folder it ran in:
    ``start`` moved by the ``cd`` before it on the line (``None``: a place not known)."""
    return [(words, folder) for segment, folder in _placed(_tokens(_strip_heredocs(command[:20_000])), start)
            if (words := _words(segment))]


def _placed(tokens: list[str], start: str | None = "",
            outermost: bool = False) -> Iterator[tuple[list[str], str | None]]:
    """Each simple command with the directory an earlier ``cd``/``pushd`` of the line moved to (``start``, ``""``
    unless given: where the line started; ``None``: a place not known, as ``cd $DIR`` or ``cd ~``). A subshell's
    ``cd`` ends at its ``)``; ``outermost`` gives only the commands outside any subshell."""
    folder: str | None = start
    outer: list[str | None] = []
    for segment in _segments(tokens, keep_separators=True):
        if not _SEPARATOR.match(segment[0]):
            if not (outermost and outer):
                yield segment, folder
            folder = _moved(folder, _words(segment))
            continue
        for mark in segment[0]:
            if mark == "(":
                outer.append(folder)
            elif mark == ")" and outer:
                folder = outer.pop()


def _moved(folder: str | None, words: list[str]) -> str | None:
    if not words or words[0] not in ("cd", "pushd"):
        return folder
    target = next((word for word in words[1:] if not word.startswith("-")), "")
    if not _is_path(target) or target.startswith("~") or (folder is None and not target.startswith("/")
                                                          and not _DRIVE_ROOT.match(target)):
        return None  # home, the previous directory, a variable: somewhere this line does not say
    target = target.replace("\\", "/") if _DRIVE_ROOT.match(target) else target
    place = posixpath.normpath(target if _DRIVE_ROOT.match(target) else posixpath.join(folder or "", target))
    return "" if place == "." else place  # (a drive's root, `D:/proj`, is where it says, wherever the shell was)


def _within(folder: str | None, path: str) -> str:
    """``path`` as named from where the line started, given the directory the command ran in."""
    if not folder or path.startswith(("/", "~")) or _DRIVE_ROOT.match(path):
        return path
    joined = posixpath.normpath(posixpath.join(folder, path))
    return joined + "/" if path.endswith("/") and joined != "/" else joined  # (`src/` names a folder: it stays one)


def command_words(command: str) -> list[list[str]]:
    """The simple commands of a command line, each as its words (quotes removed) without redirections and the
    prefixes that run it (``sudo``, ``env``, ``X=1``): ``cd x && gh issue close 3`` gives ``[["cd", "x"], ["gh",
    "issue", "close", "3"]]``."""
    return [words for segment in _segments(_tokens(_strip_heredocs(command[:20_000]))) if (words := _words(segment))]


def runnable(command: str) -> str:
    """``command`` without its comment lines (``# Check if the fixture exists``), the runnable part the shell ran:
    ``""`` when nothing is left (a call of comments only is no command: no work done, no last action, no failure).
    A ``#`` line inside a heredoc's body or a quoted string is text, kept; a comment after code on its line stays
    with it. Blank lines around what is left are dropped."""
    if "#" not in command:
        return command
    kept: list[str] = []
    for chunk, body in _chunks(command):
        kept.append(_without_comment_lines(chunk))
        kept.extend(body)
    left = "\n".join(line for line in kept if line is not None).strip("\n")
    return left if left.strip() else ""


def _chunks(command: str) -> Iterator[tuple[str, list[str]]]:
    """The lines of ``command`` as code, each piece up to a line that opens a heredoc, with that heredoc's body (and
    terminator) after it: comments are looked for in the code only."""
    code: list[str] = []
    lines = iter(command.split("\n"))
    for line in lines:
        code.append(line)
        opened = _HEREDOC.search(_code(line)) if "<<" in line else None
        if opened is None:
            continue
        body = []
        for inner in lines:
            body.append(inner)
            if inner.strip() == opened.group(2):
                break
        yield "\n".join(code), body
        code = []
    if code:
        yield "\n".join(code), []


def _without_comment_lines(code: str) -> str | None:
    """``code`` without the lines that hold only a comment (a ``#`` that starts a shell word at the line's start, not
    one inside a quoted string running over lines), ``None`` when no line is left."""
    dropped: list[tuple[int, int]] = []
    for match in _TOKEN.finditer(code):
        if match.lastgroup == "comment":
            start = code.rfind("\n", 0, match.start()) + 1
            if not code[start:match.start()].strip():
                dropped.append((start, match.end()))
    if not dropped:
        return code
    parts, at = [], 0
    for start, end in dropped:
        parts.append(code[at:start])
        at = end + 1  # (the line's newline goes with it)
    parts.append(code[at:])
    left = "".join(parts)
    return left if left.strip() else None


def prints_only(command: str) -> bool:
    """True when every simple command of ``command`` only prints what is there (``cat``, ``grep``, ``git show``,
    ``git fsck``) and writes nothing: error-like words in its output are what it found, not a failure of its own."""
    commands = command_words(command)
    return bool(commands) and not shell_effects(command).writes and all(_prints(words) for words in commands)


XARGS_VALUES = frozenset({"-I", "-i", "-n", "-P", "-L", "-l", "-d", "-E", "-e", "-s", "-a"})
"""The options of ``xargs`` that take a value (``-I {}``, ``-n 1``)."""


def _prints(words: list[str]) -> bool:
    program = words[0].rsplit("/", 1)[-1]
    while program == "xargs":  # `… | xargs git ls-tree HEAD` prints what the command it runs prints (a loop: a
        words = after_options(words[1:], XARGS_VALUES)  # command of 3,000 `xargs` is no recursion)
        if not words:
            return True
        program = words[0].rsplit("/", 1)[-1]
    if program != "git":
        return program in _INSPECTORS
    rest = iter(words[1:])
    for word in rest:
        if word in _GIT_VALUES:
            next(rest, None)
        elif not word.startswith("-"):
            return word in _GIT_READERS
    return False


def after_options(words: list[str], valued: frozenset[str]) -> list[str]:
    """``words`` from the first that is no option nor an option's value on."""
    position = 0
    while position < len(words) and words[position].startswith("-"):
        position += 2 if words[position] in valued else 1
    return words[position:]


def simple_commands(command: str) -> list[tuple[str, list[str]]]:
    """The simple commands of a command line, each with how it joins the one before (``""`` for the first, ``&&``,
    ``||``, ``|``, ``;`` for a ``;`` or a line break, ``&`` after one sent to the background) and its words without
    redirections, the prefixes that run it kept (``sudo -E docker compose up`` keeps ``sudo -E``). A line break
    after ``&&``, ``||`` or ``|`` continues it; parentheses join nothing."""
    found: list[tuple[str, list[str]]] = []
    joint = ""
    for segment in _segments(_tokens(_strip_heredocs(command[:20_000])), keep_separators=True):
        if _SEPARATOR.match(segment[0]):
            joint = joint or _joint(segment[0])
        elif words := _words(segment, keep_prefixes=True):
            found.append((joint if found else "", words))
            joint = ""
    return found


def _joint(separator: str) -> str:
    """How a separator token joins two commands (see :func:`simple_commands`), ``""`` for parentheses only."""
    marks = separator.replace("(", "").replace(")", "")
    bare = marks.replace("\n", "")
    if bare.startswith(("&&", "||")):
        return bare[:2]
    if bare.startswith("|"):
        return "|"
    if bare.startswith("&"):
        return "&"
    return ";" if ";" in bare or "\n" in marks else ""


def _words(segment: list[str], keep_prefixes: bool = False) -> list[str]:
    """A simple command's words without its redirections and (unless ``keep_prefixes``) the prefixes that run it."""
    words, skip = [], False
    for token in segment:
        if skip:
            skip = False
        elif token and not token.strip("<>&|"):
            skip = True  # a redirection's target (a file, ``&1``'s ``1``) is no word of the command
            if words and words[-1] in ("0", "1", "2"):
                words.pop()  # the descriptor of ``2>&1``
        else:
            words.append(token)
    while not keep_prefixes and words and (words[0] in _PREFIXES or _ASSIGNMENT.match(words[0])):
        words.pop(0)
    return words


def _strip_heredocs(command: str) -> str:
    return _split_heredocs(command)[0]


def _split_heredocs(command: str) -> tuple[str, list[tuple[str, str]]]:
    """The command without its heredoc bodies, and each body with the line (its code) that opened it."""
    if "<<" not in command:
        return command, []
    kept: list[str] = []
    heredocs: list[tuple[str, str]] = []
    body: list[str] = []
    terminator: str | None = None
    for line in command.split("\n"):
        if terminator is not None:
            if line.strip() == terminator:
                terminator = None
                heredocs.append((_code(kept[-1]), "\n".join(body)))
            else:
                body.append(line)
            continue
        kept.append(line)
        match = _HEREDOC.search(_code(line))
        terminator, body = (match.group(2), []) if match else (None, body)
    if terminator is not None:  # unclosed: the body runs to the end
        heredocs.append((_code(kept[-1]), "\n".join(body)))
    return "\n".join(kept), heredocs


def _code(line: str) -> str:
    """The line without its comment: ``# see cat <<EOF`` opens no heredoc."""
    if "#" in line:
        for match in _TOKEN.finditer(line):
            if match.lastgroup == "comment":
                return line[:match.start()]
    return line


def _tokens(command: str) -> list[str]:
    """Shell words and operators, quotes removed: ``shlex`` semantics for what matters here, but by regex
    (``shlex`` reads a character at a time and dominated extraction time). Unclosed quotes run to the end;
    comments and backslash-newlines are dropped."""
    tokens: list[str] = []
    for match in _TOKEN.finditer(command):
        if match.lastgroup == "op":
            tokens.append(match.group())
        elif match.lastgroup == "word":
            word = match.group()
            tokens.append(_UNQUOTE.sub(_unquote, word) if any(c in word for c in "'\"\\") else word)
    return tokens


def _unquote(match: re.Match) -> str:
    single, double, escaped = match.groups()
    if single is not None:
        return single
    if double is not None:
        return _DOUBLE_ESCAPE.sub(r"\1", double)
    return escaped or ""


def _segments(tokens: list[str], keep_separators: bool = False) -> Iterable[list[str]]:
    """The simple commands of ``tokens``; with ``keep_separators``, each separator too, as a segment of its own."""
    segment: list[str] = []
    for token in tokens:
        if _SEPARATOR.match(token):
            if segment:
                yield segment
            segment = []
            if keep_separators:
                yield [token]
        else:
            segment.append(token)
    if segment:
        yield segment


def _segment_effects(tokens: list[str], effects: ShellEffects, scripts: dict[str, str]) -> None:
    args: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        target = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token in (">", ">>", "&>", ">|", "&>>"):
            if _is_path(target) and target != "/dev/null":
                effects.writes.append(target)
            index += 2
        elif token == "<":
            if _is_path(target):
                effects.reads.append(target)
            index += 2
        elif not token or token.strip("<>&|"):
            args.append(token)
            index += 1
        else:  # ">&", "<<", "<<<" and other redirections that name no file
            index += 2
    while args and (args[0] in _PREFIXES or _ASSIGNMENT.match(args[0])):
        args.pop(0)
    if not args:
        return
    program = args[0].rsplit("/", 1)[-1]
    effects.programs.append(program)
    _program_effects(program, args[1:], effects, scripts)


def _program_effects(program: str, args: list[str], effects: ShellEffects, scripts: dict[str, str]) -> None:
    if program in _RUNNERS and args[:1] == ["run"] and len(args) > 1:
        program, args = args[1].rsplit("/", 1)[-1], args[2:]
    manifests = manifest_changes(program, args)
    if manifests:  # `bun add x`, `uv add x`: the package manager rewrote the manifest (before `bun` as interpreter)
        effects.writes.extend(path for path in manifests if _is_path(path))
        return
    if _INTERPRETER.match(program):
        kind, value = _interpreter_input(args)
        if kind == "code" or (kind == "script" and value in scripts):
            _add_script(value if kind == "code" else scripts[value], effects)
        return
    if program == "perl":
        _perl_effects(args, effects)
        return
    if program == "git" and args[:1] in (["rm"], ["mv"]):
        program, args = args[0], args[1:]  # git rm / git mv change files as rm / mv do
    if program == "git" and args[:1] in (["restore"], ["checkout"]):
        effects.writes.extend(_restored(args[0], args[1:]))
        return
    if program == "git":
        effects.reads.extend(_git_read(args))
        return
    in_place = program == "sed" and any(a == "-i" or a.startswith(("-i", "--in-place")) for a in args)
    operands = _operands(args, _VALUE_OPTIONS.get(program, frozenset()))
    if program == "sed" and not any(a in ("-e", "-f") for a in args):
        operands = operands[1:]  # the script
    elif program in _SEARCHERS and not any(a in ("-e", "-f") for a in args):
        operands = operands[1:]  # the pattern
    elif program in ("awk", "jq", "yq"):
        operands = operands[1:]  # the program or the filter (``.metadata.name``), not a file
    paths = [a for a in operands if _is_path(a)]
    if in_place or program in _MODIFIERS or program == "mv":
        effects.writes.extend(paths)
        if program in ("rm", "rmdir", "unlink", "trash", "mv"):
            effects.deletes.extend(paths if program != "mv" else paths[:-1])
    elif program in ("cp", "tee", "install", "ln"):
        effects.writes.extend(paths[-1:] if program != "tee" else paths)
    elif program in _READERS or program in _SEARCHERS:
        effects.reads.extend(paths)


def _restored(subcommand: str, args: list[str]) -> list[str]:
    """The files ``git restore`` / ``git checkout -- …`` put back: every operand of ``restore``; those after ``--``
    of ``checkout``, and without ``--`` only names with a file's extension (``src/app.tsx``): a branch or a commit
    (``main``, ``feature/login``, ``v1.2``) is named there as often as a file."""
    if "--staged" in args and not {"--worktree", "-W"} & set(args):
        return []  # only the index is put back: the files stay as they are
    files = _operands(args, frozenset({"-s", "--source", "-b", "-B"}))
    if subcommand == "checkout":
        files = args[args.index("--") + 1:] if "--" in args else [a for a in files if _FILE_NAME.search(a)]
    return [path for path in files if _is_path(path) and path != "."]


_GIT_FILE_READERS = frozenset({"diff", "show", "log", "blame", "cat-file"})
"""git subcommands whose named files the agent reads: their text or their history (``git diff a..b -- x.zig``)."""
_REVISION_PATH = re.compile(r"^[^\s:]{1,200}:(?!/)([^\s:]+)$")
"""``HEAD~1:src/a.py``, ``main:docs/x.md``: a file as a revision holds it (``git show``)."""


def _git_read(args: list[str]) -> list[str]:
    """The files a reading git command shows: those after ``--`` (``git diff a..b -- x.zig``, ``git log -p -- a.py``;
    ``blame`` names its file without one) and a revision's file (``git show HEAD:src/a.py``); a bare word is as often a
    branch or a revision as a file, so it is taken only with a file's extension."""
    folder = ""
    while args and args[0].startswith("-"):
        if args[0] == "-C" and len(args) > 1:
            folder = _within(folder or None, args[1])
        args = args[2:] if args[0] in _GIT_VALUES else args[1:]  # git -C dir diff …, git --no-pager show …
    if not args or args[0] not in _GIT_FILE_READERS:
        return []
    subcommand, rest = args[0], args[1:]
    if "--" in rest:
        named = rest[rest.index("--") + 1:]
    else:
        named = []
        for arg in _operands(rest, frozenset()):
            shown = _REVISION_PATH.match(arg) if subcommand in ("show", "cat-file") else None
            if shown:
                named.append(shown.group(1))
            elif ".." not in arg and _FILE_NAME.search(arg):
                named.append(arg)
    return [_within(folder or None, path) for path in named if _is_path(path) and path != "."]


def _interpreter_input(args: list[str]) -> tuple[str, str]:
    """Where an interpreter's code comes from: ``("code", text)`` given inline (``-c``, ``-e``), ``("script", path)``,
    ``("stdin", "")`` (``python3 -``, a bare ``node``), or ``("", "")`` (a module: ``python -m pytest``)."""
    skip = False
    for position, arg in enumerate(args):
        if skip:
            skip = False
        elif arg in _CODE_OPTIONS:
            return "code", args[position + 1] if position + 1 < len(args) else ""
        elif arg == "-m":
            return "", ""
        elif arg in _INTERPRETER_VALUES:
            skip = True
        elif arg == "-":
            return "stdin", ""
        elif not arg.startswith("-"):
            return "script", arg
    return "stdin", ""


def _reads_code_from_stdin(segment: list[str]) -> bool:
    """Whether a simple command is an interpreter that reads its code from stdin (the heredoc its line opens)."""
    words = _words(segment)
    program, args = (words[0].rsplit("/", 1)[-1], words[1:]) if words else ("", [])
    if program in _RUNNERS and args[:1] == ["run"] and len(args) > 1:
        program, args = args[1].rsplit("/", 1)[-1], args[2:]
    return bool(_INTERPRETER.match(program)) and _interpreter_input(args)[0] == "stdin"


def _add_script(code: str, effects: ShellEffects) -> None:
    writes, deletes = script_effects(code)
    effects.writes.extend(path for path in writes if _is_path(path))
    effects.deletes.extend(path for path in deletes if _is_path(path))
    effects.writes.extend(path for path in deletes if _is_path(path))  # a deletion changes the file, as ``rm``'s


def _perl_effects(args: list[str], effects: ShellEffects) -> None:
    """``perl -pi -e 's/a/b/' x.py`` rewrites its files in place as ``sed -i`` does; without ``-i`` it reads them.
    In a cluster, ``i`` takes the rest as the backup suffix and an ``e`` that ends it takes the next word as code."""
    in_place, code_given, operands, code_next = False, False, [], False
    for arg in args:
        if code_next:
            code_next, code_given = False, True
        elif arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            letters = arg[1:]
            if letters.startswith(_PERL_VALUE_CLUSTER):
                continue
            if "i" in letters:
                in_place, letters = True, letters[:letters.index("i")]
            code_next = letters.endswith(("e", "E"))
        elif not arg.startswith("--"):
            operands.append(arg)
    paths = [arg for arg in (operands if code_given else operands[1:]) if _is_path(arg)]
    (effects.writes if in_place else effects.reads).extend(paths)


_TWO_VALUES = frozenset({"--arg", "--argjson", "--slurpfile", "--rawfile"})
"""jq's options that take a name and a value (``--arg id 42``): neither is a file."""


def _operands(args: list[str], value_options: frozenset[str]) -> list[str]:
    operands: list[str] = []
    skip = 0
    for arg in args:
        if skip:
            skip -= 1
        elif arg in _TWO_VALUES:
            skip = 2
        elif arg in value_options:
            skip = 1
        elif arg and (arg == "-" or not arg.startswith("-")):  # "" is never a file (BSD `sed -i ''`)
            operands.append(arg)
    return operands


def _is_path(arg: str) -> bool:
    return bool(arg) and arg != "-" and not arg.startswith("-") and bool(_PLAIN_ARG.match(arg)) \
        and not arg.replace(",", "").replace(".", "").isdigit() and not arg.startswith("/dev/")
