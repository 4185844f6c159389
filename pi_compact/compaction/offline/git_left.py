"""Work git has not saved when the region ends: commits not pushed in a session that pushes, edits not committed in
a session that commits, a commit that failed and was not made since.

The agent's last words may say "done" while the repository is left in a state the next agent must know about and
usually finish: ``git commit`` ran after the last successful ``git push`` (or ``git status`` says "Your branch is
ahead of 'origin/x' by 3 commits"), files were edited after the last commit, or a commit was stopped by its
pre-commit hook. Each repository (the folder a ``cd X && git …`` or ``git -C X …`` works in) is followed apart, by
what git printed: a commit's ``[branch sha] message`` header, a push's ``old..new  src -> dst`` line or its
rejection, ``git status``'s words on its upstream and its working tree. A later command that undoes the state (a
push, ``git reset --hard``, ``git stash``, ``git checkout .``) clears it; a user who said not to commit or push
is not second-guessed.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Callable

from ...accessors import content_text
from .facts import EDIT_TOOLS, WRITE_TOOLS, Attempt, is_agent_own, is_patch_tool, is_scratch, is_shell_tool
from .shell import placed_commands, shell_effects
from .text import clip_words

_HEADER = re.compile(r"^\[([\w./+-]{1,120})(?: \(root-commit\))? ([0-9a-f]{7,40})\] (.{0,300})$", re.M)
"""``git commit``'s (and cherry-pick's, revert's) first line: ``[main a821905] fix: …``."""
_PUSHED = re.compile(r"^[ \t]{0,4}(?:[+*=-][ \t]{1,4})?(?:[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}|\[new branch\])[ \t]{1,40}"
                     r"\S{1,120} -> \S{1,120}|^Everything up-to-date", re.M)
"""``git push``'s line for a branch it moved (``   ed29cd6..197e4e6  main -> main``), or its word that nothing was
left to push."""
_REJECTED = re.compile(r"^[ \t]{0,4}! \[(?:rejected|remote rejected)\][^\n]{0,300}|^error: failed to push[^\n]{0,300}"
                       r"|^(?:fatal|remote): [^\n]{1,300}", re.M)
"""``git push``'s words that it moved nothing: ``! [rejected]  main -> main (fetch first)``."""
_AHEAD = re.compile(r"^Your branch is ahead of '([^'\n]{1,200})' by (\d{1,6}) commits?\b"
                    r"|^## [^.\s]{1,200}\.\.\.(\S{1,200}) \[ahead (\d{1,6})\]", re.M)
"""``git status``'s words that local commits are not on the upstream (long form, ``-sb`` form). A branch that has
diverged from its upstream is not among them: whether to rebase or force it is the user's call."""
_IN_SYNC = re.compile(r"^Your branch is (?:up to date with|behind) '([^'\n]{1,200})'"
                      r"|^## [^.\s]{1,200}\.\.\.(\S{1,200})(?: \[behind \d{1,6}\])?$", re.M)
"""``git status``'s words that the upstream holds every local commit (it names the upstream; that one exists says
nothing of whether the session pushes)."""
_CLEAN = re.compile(r"^nothing to commit,? \(?working (?:tree|directory) clean", re.M)
_CHANGED = re.compile(r"^(?:Changes not staged for commit|Changes to be committed):", re.M)
_LISTED = re.compile(r"^\t(?:modified|new file|deleted|renamed|typechange):\s{1,12}(\S[^\n]{0,300})$", re.M)
_SHORT = re.compile(r"^(?:[MADRCU][ MADRCU]|[ MADRCU][MADRCU]) (\S[^\n]{0,300})$", re.M)
"""``git status --short``'s line of a changed file (untracked ``??`` ones are no edit of the work)."""
_HOOK = re.compile(r"^- hook id: [^\n]{1,120}|^husky - [^\n]{1,200}|^[^\n]{0,80}\bhook\b[^\n]{0,40}\b(?:failed|exited)"
                   r"[^\n]{0,200}|^✖[^\n]{1,200}", re.M | re.I)
"""A commit hook's words that it stopped the commit (pre-commit's ``- hook id: black``, husky's, lint-staged's)."""
_NOTHING_ADDED = re.compile(r"^(?:nothing added to commit but untracked files present|no changes added to commit)"
                            r"[^\n]{0,100}", re.M)
_NEGATED = re.compile(r"\b(?:don'?t|do not|never|no need to|not|without|stop|avoid|i'?ll|i will|let me|leave it)"
                      r"\b[^.!?\n]{0,40}?\b(commit|push)", re.I)
_ASKS = re.compile(r"\b(commit|push)", re.I)
_MERGE_MESSAGE = re.compile(r"Merge (?:branch|remote-tracking branch|pull request|tag|commit) ")
_FILES_SHOWN = 2
_LINE_CHARS = 200


@dataclass
class _Repo:
    """What git said of one repository, as the region went."""

    branch: str = ""
    upstream: str = ""
    unpushed: int = 0
    last_commit: str = ""
    """``a821905 “fix: …”``: the latest commit made."""
    committed: bool = False
    pushes: bool = False
    """The session pushes this repository's commits: a push went through, or ``git status`` named an upstream."""
    push_command: str = ""
    push_failed: str = ""
    commit_failed: str = ""
    edited: list[str] = field(default_factory=list)
    """Files changed since the last commit (``git status``'s list, or the region's own edits)."""


@dataclass(frozen=True)
class GitLeft:
    """What :func:`git_left` found."""

    steps: tuple[str, ...] = ()
    """The next steps for what git has not saved, per repository."""
    saved: bool = False
    """The region committed after its last file change and no commit failed since: no edit waits on a commit."""


def git_left(messages: list[dict], attempts: tuple[Attempt, ...], name: Callable[[str], str],
             requests: tuple[str, ...] = (), under_way: bool = False) -> GitLeft:
    """What git has not saved when the region ends, per repository (see the module docstring). ``name`` spells a
    path or folder as the summary does (relative to the working directory); ``requests`` are the user's, whose last
    word on committing or pushing ("don't push yet") rules; ``under_way``: the region ends while the agent works on
    the latest request (its edits are committed once that work is done)."""
    repos: dict[str, _Repo] = {}
    for attempt in sorted(attempts, key=lambda a: a.index):
        if attempt.aborted or attempt.refused:
            continue
        if is_shell_tool(attempt.tool):
            _shell(attempt, _output(messages, attempt.index), repos, name)
        elif not attempt.failed and attempt.target and (attempt.tool.lower() in WRITE_TOOLS | EDIT_TOOLS
                                                        or is_patch_tool(attempt.tool)):
            _edited(name(attempt.target), repos)
    saved = any(repo.committed for repo in repos.values()) and not any(
        repo.edited or repo.commit_failed for repo in repos.values())
    if _in_flight(messages):
        return GitLeft((), saved)  # the region ends while a git command runs: what it did is not known
    refused = _refused(requests)
    steps = []
    for folder, repo in repos.items():
        steps += _steps(folder if len(repos) > 1 else "", repo, refused, under_way)
    return GitLeft(tuple(steps), saved)


def _output(messages: list[dict], index: int) -> str:
    message = messages[index] if 0 <= index < len(messages) else {}
    if message.get("role") == "bashExecution":
        return str(message.get("output") or "")[:20_000]
    return content_text(message.get("content"))[:20_000]


def _shell(attempt: Attempt, output: str, repos: dict[str, _Repo], name: Callable[[str], str]) -> None:
    """One shell command: each git command in it, in order, then the files its other programs wrote."""
    pieces = placed_commands(attempt.target, attempt.folder)
    gits = [(words, folder) for words, folder in pieces if words and words[0].rsplit("/", 1)[-1] == "git"]
    for number, (words, folder) in enumerate(gits):
        args, place = _globals(words[1:], folder)
        if not args or place is None:
            continue
        repo = repos.setdefault(_holder(_key(place, name), repos), _Repo())
        last = number == len(gits) - 1 and pieces[-1][0] == words
        _git(args[0], args[1:], attempt, output, repo, last)
    if not gits and not attempt.failed and not attempt.lookup:
        for path in shell_effects(attempt.target[:2000], attempt.folder).writes:
            _edited(name(path), repos)


def _globals(args: list[str], folder: str | None) -> tuple[list[str], str | None]:
    """The git command's words after its global options, and the folder it works in (``-C X`` moves it)."""
    while args and args[0].startswith("-"):
        if args[0] == "-C" and len(args) > 1:
            folder = None if folder is None or args[1].startswith(("~", "$")) else \
                posixpath.normpath(posixpath.join(folder, args[1]))
            args = args[2:]
        else:
            args = args[2:] if args[0] in ("-c", "--git-dir", "--work-tree") else args[1:]
    return args, folder


def _key(folder: str, name: Callable[[str], str]) -> str:
    spelled = name(folder) if folder else ""
    return "" if spelled in (".", "") else spelled


def _holder(key: str, repos: dict[str, _Repo]) -> str:
    """The repository a folder's git command works on: the nearest folder above it (the working directory's, ``""``,
    above any relative one) where git already worked, a monorepo's ``apps/demo`` being part of the repository its
    root commits to; else the folder itself (a workspace of several repositories, each first met in its own)."""
    if key in repos or key.startswith(("/", "..")):
        return key
    above = [folder for folder in repos if folder == "" or key.startswith(folder + "/")]
    return max(above, key=len, default=key)


def _git(subcommand: str, rest: list[str], attempt: Attempt, output: str, repo: _Repo, last: bool) -> None:
    if subcommand == "status":
        _status(output, repo)
    elif subcommand in ("commit", "cherry-pick", "revert", "merge"):
        _commit(subcommand, rest, attempt, output, repo, last)
    elif subcommand == "push" and not {"--dry-run", "-n", "--tags", "--delete", "-d"} & set(rest):
        _push(attempt, output, repo)
    elif subcommand == "reset" and not attempt.failed:
        _reset(rest, repo)
    elif subcommand == "stash" and not attempt.failed:
        repo.edited = [] if not rest or rest[0] in ("push", "save", "-u", "--include-untracked") else \
            repo.edited or (["(the stash popped back)"] if rest[0] in ("pop", "apply") else [])
    elif subcommand in ("checkout", "restore") and not attempt.failed and ("." in rest and "--staged" not in rest):
        repo.edited = []  # `git checkout .`, `git restore .`: the tree put back as committed


def _status(output: str, repo: _Repo) -> None:
    ahead, in_sync = _AHEAD.search(output), _IN_SYNC.search(output)
    if ahead:
        repo.upstream = ahead.group(1) or ahead.group(3)
        repo.unpushed = int(ahead.group(2) or ahead.group(4))
        repo.pushes = True
    elif in_sync:
        repo.upstream, repo.unpushed, repo.push_failed = in_sync.group(1) or in_sync.group(2), 0, ""
    if _CLEAN.search(output):
        repo.edited = []
    elif _CHANGED.search(output):
        repo.edited = [line.strip() for line in _LISTED.findall(output)] or ["(files `git status` lists)"]
    elif _SHORT.search(output):
        repo.edited = [line.strip() for line in _SHORT.findall(output)]


def _commit(subcommand: str, rest: list[str], attempt: Attempt, output: str, repo: _Repo, last: bool) -> None:
    header = _HEADER.search(output)
    if header:  # git printing the commit proves it, whatever failed after it on the line
        repo.branch, repo.committed, repo.commit_failed, repo.edited = header.group(1), True, "", []
        repo.unpushed = max(repo.unpushed, 1) if "--amend" in rest else repo.unpushed + 1
        said = header.group(3).strip()  # (git's own message of a merge names the branches again: the id will do)
        repo.last_commit = header.group(2) if _MERGE_MESSAGE.match(said) else \
            f"{header.group(2)} “{clip_words(said, 60)}”"
    elif subcommand == "merge" and not attempt.failed and re.search(r"^Merge made by", output, re.M):
        repo.unpushed, repo.committed = repo.unpushed + 1, True
    elif subcommand == "commit" and _CLEAN.search(output):
        repo.edited = []  # nothing was left to commit
    elif subcommand == "commit" and attempt.failed and (last or _HOOK.search(output) or _NOTHING_ADDED.search(output)):
        reason = _HOOK.findall(output) or _NOTHING_ADDED.findall(output) or [attempt.error]
        repo.commit_failed = "; ".join(dict.fromkeys(line.strip() for line in reason[:3] if line.strip()))[:_LINE_CHARS]
        repo.committed = True  # the session commits its work: this one is still to make


def _push(attempt: Attempt, output: str, repo: _Repo) -> None:
    rejected = _REJECTED.search(output)
    if _PUSHED.search(output) and not (rejected and rejected.group(0).lstrip().startswith("!")):
        repo.unpushed, repo.pushes, repo.push_failed = 0, True, ""
    elif attempt.failed or rejected:
        repo.push_failed = clip_words((rejected.group(0) if rejected else attempt.error).strip(), _LINE_CHARS)
        repo.pushes = True
    else:
        repo.unpushed, repo.pushes, repo.push_failed = 0, True, ""
    repo.push_command = clip_words(" ".join(attempt.target.split()), 120) if len(attempt.target) < 200 else "git push"


def _reset(rest: list[str], repo: _Repo) -> None:
    named = [word for word in rest if not word.startswith("-")]
    target = named[0] if named else "HEAD"
    back = re.fullmatch(r"(?:HEAD|@)(?:~(\d{1,4})|(\^{1,4}))?", target)
    if back is None and "/" in target:  # `git reset --hard origin/main`: the upstream's commits, none of its own
        repo.unpushed = 0
    elif back is not None:
        steps = int(back.group(1)) if back.group(1) else len(back.group(2) or "")
        repo.unpushed = max(0, repo.unpushed - steps)
        if steps and "--hard" not in rest:
            repo.edited = repo.edited or ["(the changes of the commits reset)"]
    if "--hard" in rest:
        repo.edited = []


def _edited(path: str, repos: dict[str, _Repo]) -> None:
    """A file the region changed: an edit of the repository that holds it (the working directory's when no other
    folder does), unless it is scratch or the agent's own bookkeeping."""
    if not path or is_scratch(path) or is_agent_own(path):
        return
    holder = max((folder for folder in repos if folder and (path == folder or path.startswith(folder + "/"))),
                 key=len, default="")
    if not holder and path.startswith(("~", "..")) or holder not in repos:
        return  # outside the repositories git worked in (an absolute path: the agent's spelling of a project file)
    repo = repos[holder]
    if repo.committed and path not in repo.edited:
        repo.edited.append(path)


def _in_flight(messages: list[dict]) -> bool:
    """The region's last message calls git to commit or push and no result of it follows."""
    last = messages[-1] if messages else {}
    blocks = last.get("content") if last.get("role") == "assistant" else None
    return isinstance(blocks, list) and any(
        isinstance(block, dict) and block.get("type") == "toolCall"
        and re.search(r"\bgit\b[^\n|;&]{0,80}\b(?:commit|push)\b", str(block.get("arguments"))[:2000])
        for block in blocks)


def _refused(requests: tuple[str, ...]) -> set[str]:
    """What the user's last word on each keeps from being done: ``{"commit", "push"}`` after "don't commit",
    ``{"push"}`` after "don't push yet" ("I'll push it myself" too); a later request that asks for it lifts it."""
    said: dict[str, bool] = {}
    for request in requests:
        negated = {m.group(1).lower(): m.end() for m in _NEGATED.finditer(request[:4000])}
        for found in _ASKS.finditer(request[:4000]):
            kind = found.group(1).lower()
            said[kind] = negated.get(kind) == found.end()
    refused = {kind for kind, no in said.items() if no}
    return refused | ({"push"} if "commit" in refused else set())


def _steps(folder: str, repo: _Repo, refused: set[str], under_way: bool) -> list[str]:
    where = f" in `{folder}`" if folder else ""
    steps = []
    if repo.commit_failed and "commit" not in refused:
        steps.append(f"The last commit{where} failed ({repo.commit_failed}) and none was made since: fix that and "
                     f"commit.")
    elif repo.edited and repo.committed and "commit" not in refused:
        shown = ", ".join(p if p.startswith("(") else f"`{p}`" for p in repo.edited[:_FILES_SHOWN])
        more = f" and {len(repo.edited) - _FILES_SHOWN} more" if len(repo.edited) > _FILES_SHOWN else ""
        shown += more + ","
        if under_way and not repo.edited[0].startswith("("):  # the work under way's own files, named with it
            shown = f"{len(repo.edited)} file{'s' if len(repo.edited) > 1 else ''}"
        since = f" `{repo.last_commit.split(' ', 1)[0]}`" if repo.last_commit else ""
        when = " once the work under way is done" if under_way else ""
        push = " and push" if repo.pushes and "push" not in refused else ""
        steps.append(f"Not committed yet{where}: {shown} changed since the last commit{since} (the session "
                     f"commits its work): commit {'them' if len(repo.edited) > 1 else 'it'}{push}{when}.")
    if repo.unpushed and repo.pushes and "push" not in refused:
        count = f"{repo.unpushed} commit{'s' if repo.unpushed > 1 else ''}"
        on = f" on `{repo.branch}`" if repo.branch else ""
        ahead = f" ahead of `{repo.upstream}`" if repo.upstream else ""
        # the commit by its id: its message is under Done already, and quoted here it reads as the work to do again
        last = f" (last `{repo.last_commit.split(' ', 1)[0]}`)" if repo.last_commit else ""
        failed = f"; the last push failed ({repo.push_failed}): deal with that, then push" if repo.push_failed else \
            f": push {'them' if repo.unpushed > 1 else 'it'}"
        how = f" (`{repo.push_command}` pushed before)" if repo.push_command and not repo.push_failed else ""
        steps.append(f"Not pushed yet{where}: {count}{on}{ahead}{last}{failed}{how}.")
    return steps


__all__ = ["GitLeft", "git_left"]
