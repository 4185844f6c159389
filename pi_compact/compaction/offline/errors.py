"""Which failures of a region are still open: the same check run again, a file the error names changed since, a
lookup that found nothing, a call the user stopped or the harness turned back are settled; a check whose filtered
output shows errors failed whatever the filter's exit status (a command that only prints what is there, ``git show
… | grep``, ``git fsck | grep error``, found those errors: it did not fail).

A failure left open becomes a Blocked item and, when it is a command or a file change, a "Fix:" step; a settled
one is named once ("Resolved along the way"). Commands compare without their ``cd dir &&`` prefix and their
``| head``-like tail, so runs of the same check compare equal.

A failure is open only while nothing later dealt with its target: the same check run again, the same file changed
by any tool (an Edit whose old text was not found, then the whole file written, or rewritten by ``sed -i``), a
retry the user stopped (their word is the last on it), or the agent saying it takes another way right after it
("the module does not exist, so I'll write the plan by hand"), a program the shell could not find run since by a
command that succeeded (``docker`` not on the PATH, then ``/Applications/Docker.app/…/bin/docker info``): then the
failure is history, a decision at most. A failed ``which X`` (``command -v``, ``type``, ``whereis``) is a question
answered "not installed", a lookup, never an open error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from ...accessors import content_text
from .bad_input import bad_input, retried
from .chained import missing_script
from .cores import TRIAL_OPTIONS, Core, failed_core, passed_core
from .empty_answer import empty_answer, over_later, queries_only
from .explained import AgentWords, settled_by_words
from .diagnostics import is_telling, telling_line, with_assertion
from .facts import EDIT_TOOLS, USAGE_ERROR, WRITE_TOOLS, Attempt, error_lines, failed_test, is_shell_tool
from .goal import request_words
from .outcome import harness_refusal, stopped
from .paths import PathNames
from .retries import superseded
from .jobs import BUILD, FORMAT, LINT, SEARCH, TEST, TYPECHECK, Job, JobIndex, form_key, job_of, jobs_of
from .shell import command_words, final_folder, prints_only, shell_effects
from .text import clip_words, one_line
from .vcs import VcsLater
from .wider import WiderRuns

_CD_PREFIX = re.compile(
    r"""^\s{0,8}(?:cd|pushd|chdir|set-location)\s{1,4}(?:/d\s{1,4})?("[^"\n]{1,500}"|'[^'\n]{1,500}'|[^\s;&|"']{1,500})"""
    r"\s{0,4}(?:&&|;)\s{0,4}", re.I)
"""A change of directory before the command (``cd dir &&``, ``cd "C:\\My dir" ;``, ``cd /d D:\\x &&``,
``pushd dir &&``): where it ran, not what ran."""
_WAIT_PREFIX = re.compile(r"\s{0,8}sleep\s{1,4}[\d.]{1,10}[smh]?\s{0,4}(?:&&|;)\s{0,4}")
"""A pause before the command (``sleep 30 && brew install x``): a retry after a wait is the same check."""
_OUTPUT_FILTER = re.compile(r"\s*(?:head|tail|grep|less|wc|sort|cat)\b")
"""A pipeline stage that only trims what a command prints (matched at a stage's start; split on ``|`` first, since
one pattern over the whole tail backtracks on hostile text)."""
_TOKEN = re.compile(r"\S+")
_HARNESS_ERROR = re.compile(r"\s*<[a-z]+_[a-z_]+>")
"""An error the agent's harness wrapped in its own tag: the call was turned back before it ran."""


def command_key(command: str) -> str:
    """A command without its ``cd dir &&`` and ``sleep 5 &&`` prefixes and its ``| head``-like tail: runs of the
    same check compare equal."""
    command = without_cd(command)[0]
    while (wait := _WAIT_PREFIX.match(command)) and command[wait.end():].strip():
        command = command[wait.end():]
    return _without_output_filters(command)


def without_cd(command: str) -> tuple[str, str]:
    """``command`` on one line without the changes of directory that open it, and the directory the last one went
    to (``""`` when none does): ``cd web && npm test`` → (``npm test``, ``web``). A bare ``cd dir`` is kept (the
    change is then the command)."""
    command, directory = one_line(command), ""
    while (step := _CD_PREFIX.match(command)) and command[step.end():].strip():
        command, directory = command[step.end():], step.group(1).strip("\"'")
    return command, directory


def _filtered(command: str) -> bool:
    """True when ``command`` pipes its output through a filter (``| grep``, ``| tail``): its exit status is the
    filter's."""
    command = without_cd(command)[0]
    return "|" in command and _without_output_filters(command) != command.removesuffix("2>&1").strip()


def _without_output_filters(command: str) -> str:
    stages = command.split("|")
    while len(stages) > 1 and _OUTPUT_FILTER.match(stages[-1]):
        stages.pop()
    kept = "|".join(stages).rstrip()
    return kept.removesuffix("2>&1").strip()


def _chain(command: str) -> list[str]:
    """A command and, when it is an ``&&`` chain, each of its parts (all of them ran when the chain succeeded)."""
    parts = [command_key(part) for part in command.split("&&")] if "&&" in command else []
    return [command, *(part for part in parts if part)]


def _fixed_later(attempts: tuple[Attempt, ...], names: PathNames) -> list[bool]:
    """Per attempt: whether a later attempt dealt with the same target: the same command (or one with the same first
    three words, or a chain that ran it: ``git add . && git commit``; for a failed chain, its goal) succeeded
    or was stopped by the user, a file it was to change was changed (or deleted) by any tool, the same tool worked on
    the same target, a program it found missing ran in a command that succeeded. The targets are indexed once, from
    the end, so no failure is compared with every later attempt (which was quadratic)."""
    ran: set[str] = set()
    done = _DoneLater()
    commands: set[str] = set()
    heads: set[tuple[str, ...]] = set()
    changed: set[str] = set()
    others: set[tuple[str, str]] = set()
    fixed = [False] * len(attempts)
    checked = _ChecksLater()  # the checks (tests, build, lint, types) that passed later, and where
    cores = _CoresLater()  # the cores of the commands that succeeded later (a retry under a prefix), and where
    wider = WiderRuns(names)  # the checks that passed later, by what they ran (a wider set holds a narrow failure)
    vcs = VcsLater()  # the VCS subcommands that succeeded later, and the files later VCS reads showed
    for position in range(len(attempts) - 1, -1, -1):
        attempt = attempts[position]
        if attempt.failed and not attempt.aborted and is_subagent(attempt.tool):
            fixed[position] = checked.settle(attempt) or (attempt.tool, attempt.target) in others
            continue
        if attempt.failed and not attempt.aborted:
            if is_shell_tool(attempt.tool):
                first = command_key(attempt.target)
                fixed[position] = any(key in commands or tuple(_TOKEN.findall(key)[:3]) in heads
                                      for key in (first, _goal(first))) \
                    or _files_changed_later(attempt.target, changed, names) \
                    or missing_program(attempt.error, attempt.target) in ran \
                    or misused_program(attempt.error, attempt.target) in ran \
                    or done.settles(attempt) or done.read_since(attempt) or cores.settle(attempt) \
                    or wider.settles(attempt.target, attempt.folder) or vcs.settles(attempt.target, _place(attempt))
            elif attempt.tool.lower() in _CHANGES:
                fixed[position] = names.name(attempt.target) in changed
            else:
                fixed[position] = (attempt.tool, attempt.target) in others
            continue
        if is_shell_tool(attempt.tool):
            if _filtered(attempt.target) and attempt.error:
                continue  # `bun verify | grep FAIL` exits with grep's status; the errors it printed are the check's
            for second in _chain(command_key(attempt.target)) if _shows_its_status(attempt) else ():
                commands.add(second)
                heads.add(tuple(_TOKEN.findall(second)[:3]))
            if not attempt.failed:  # (a stopped command may have changed nothing)
                checked.add(attempt)
                effects = shell_effects(attempt.target)
                changed.update(names.name(path) for path in (*effects.writes, *effects.deletes))
                ran.update(program.lower() for program in effects.programs)
                done.add(attempt)
                cores.add(attempt)
                if _shows_its_status(attempt):
                    wider.add(attempt.target, attempt.folder)
                    vcs.add(attempt.target, _place(attempt))
        elif attempt.tool.lower() in _CHANGES:
            if not attempt.failed:
                changed.add(names.name(attempt.target))
        else:
            others.add((attempt.tool, attempt.target))
            if not attempt.failed and _SEARCH_TOOL.search(attempt.tool):
                done.jobs.add(Job(SEARCH, frozenset()), None)
    return fixed


def _shows_its_status(attempt: Attempt) -> bool:
    """Whether a command's ending says how what it ran went: not when it went to the background (``npm run e2e &``)
    or a last step hid its status (``make deploy; echo done``, ``… || true``) and its output shows no pass."""
    return not _BACKGROUND.search(attempt.target[:4000]) and not (masked(attempt.target) and not attempt.passed)


class _CoresLater:
    """The cores (:mod:`.cores`) of the commands that succeeded later, each with the places it ran: a failure is
    settled by a later success whose core holds every part of the failed one's (``git rebase main`` by ``git stash
    && git rebase main``, ``pytest a.py`` by ``uv run pytest a.py -q``), run where it ran or where the shell stood
    (``cd web && npm test`` is not settled by ``cd api && npm test``)."""

    def __init__(self) -> None:
        self.places: dict[Core, set[str]] = {}

    def add(self, attempt: Attempt) -> None:
        if _BACKGROUND.search(attempt.target[:4000]):
            return  # (started, not finished: it proves nothing)
        place = _place(attempt) or ""
        for core in passed_core(attempt.target):
            self.places.setdefault(core, set()).add(place)

    def settle(self, attempt: Attempt) -> bool:
        place = _place(attempt) or ""
        cores = failed_core(attempt.target)
        # (a run that named no place ran where the shell stood, as a run of the failed one's place may have)
        return bool(cores) and all(core in self.places and (not place or place in self.places[core]
                                                            or "" in self.places[core]) for core in cores)


class _ChecksLater:
    """The checks that passed later and where each ran: a failure a sub-agent reports is settled by a later check
    of the same kind or any other that ran where the sub-agent stood, or in a folder its report names (``3 tests
    fail in pkg/cart`` and ``cd pkg/cart && go test``); a check of another package answers for none of it."""

    def __init__(self) -> None:
        self.jobs = JobIndex()
        self.places: set[str] = set()

    def add(self, attempt: Attempt) -> None:
        place = _place(attempt)
        for job in jobs_of(attempt.target):
            if job.kind in _CHECKS:
                self.jobs.add(job, place)
                if place:
                    self.places.add(place)

    def settle(self, attempt: Attempt) -> bool:
        folder = attempt.folder.rstrip("/").removeprefix("./") if attempt.folder else attempt.folder
        places = [folder, *(place for place in _folders_named(attempt.error) if place in self.places)]
        return any(self.jobs.covers(Job(kind, frozenset()), attempt.error, place)
                   for place in dict.fromkeys(places) for kind in _CHECKS)


_FOLDER_TOKEN = re.compile(r"[\w.-]{1,200}(?:/[\w.-]{1,200}){0,7}")
_MOST_FOLDERS = 8


def _folders_named(text: str) -> Iterator[str]:
    """Each path a report names (``pkg/cart``, ``packages/web/src/a.ts``) and the folders that open it
    (``packages``, ``packages/web``): where a check that answers for the failure may have run."""
    for token in _FOLDER_TOKEN.finditer(text[:4000]):
        path = token.group().removeprefix("./").rstrip("/.")
        yield path
        slash = path.find("/")
        for _ in range(_MOST_FOLDERS):
            if slash < 0:
                break
            yield path[:slash]
            slash = path.find("/", slash + 1)


_SEARCH_TOOL = re.compile(r"^(?!.*web).*(?:grep|glob|search|find)", re.I)
"""An agent's own search tool (Claude Code's Grep and Glob, opencode's grep, a ``search_files``), not a web search."""
_CHECKS = frozenset({TYPECHECK, TEST, BUILD, LINT, FORMAT})
_SUFFIX_WORDS = 8
_TRIAL_OPTIONS = TRIAL_OPTIONS
_BACKGROUND = re.compile(r"(?<![&>|<])&(?![&>])")
"""A command sent to the background (``python app.py > log 2>&1 &``): it returns at once, whatever it will do."""


class _DoneLater:
    """The jobs later commands that succeeded did (:func:`.jobs.job_of`) and the argument lists they ran, gathered
    from the end of the region: a failure is settled by a later success of the same job, not by the same
    command only."""

    def __init__(self) -> None:
        self.jobs = JobIndex()
        self.tails: set[tuple[str, ...]] = set()
        self.renamed: set[tuple[str, ...]] = set()
        """Each successful simple command's words with one of them left blank (:data:`_BLANK`): a failure that named
        something missing is settled by the same command run on another name."""
        self.forms: tuple[set[tuple[str, frozenset[str]]], ...] = (set(), set())
        """Of runs for real and of any runs (a dry run answers for a failed dry run only): each run's program and
        arguments, its options left out."""
        self.resources: set[tuple[str, str]] = set()
        """The remote things (a pull request, an issue, a review comment: :func:`service_resources`) a service's
        command line (``gh``, ``glab``) worked on and got."""

    def add(self, attempt: Attempt) -> None:
        if (job := job_of(attempt.target)) is not None:
            self.jobs.add(job, _place(attempt))
        background = not _shows_its_status(attempt)  # (started, not finished, or its status hidden: it proves nothing)
        for words in command_words(without_cd(attempt.target)[0]):
            program, ids = service_resources(words)
            self.resources.update((program, number) for number in ids)
            if len(words) <= _RENAME_WORDS:
                self.renamed.update(_blanked(words, at) for at in range(1, len(words)))
            self.tails.update(tuple(words[-size:]) for size in range(1, min(len(words), _SUFFIX_WORDS) + 1))
            for kind in () if background else (0, 1) if _TRIAL_OPTIONS.isdisjoint(words) else (1,):
                if (form := form_key(words)) is not None:
                    self.forms[kind].add((form[0], form[2]))

    def ran_in_another_form(self, command: str) -> bool:
        """Every simple command of ``command`` ran since in another form that succeeded: the same program or script
        on the same things, run another way (``./test.sh`` → ``bash test.sh``, ``node x.js`` → ``npx tsx x.js``),
        with other options or another environment (``npm install`` → ``npm install --legacy-peer-deps``), not on
        other or more things."""
        simple = command_words(without_cd(command)[0])
        return bool(simple) and all(self._ran(words) for words in simple)

    def _ran(self, words: list[str]) -> bool:
        if words[0] == "cd":
            return True
        kind = 0 if _TRIAL_OPTIONS.isdisjoint(words) else 1  # (a dry run does not do what a real run was to do)
        form = form_key(words)
        # the same arguments: one more narrows the run (`./test.sh` is not answered by `./test.sh tests/a.py`)
        return form is not None and (form[0], form[2]) in self.forms[kind]

    def read_since(self, attempt: Attempt) -> bool:
        """A failed read of a remote thing (``gh api …/pulls/112/comments/273…`` → 404, ``gh pr view 5`` failing
        on a GraphQL error) when a later command of the same service worked on that thing and succeeded (the
        comment replied to, ``gh pr view 5 --json state`` showing it merged): what it asked is known since."""
        for words in command_words(without_cd(attempt.target)[0]):
            program, ids = service_resources(words)
            last = _last_resource(words)
            if program and last in ids and _reads_only(words) and (program, last) in self.resources:
                return True
        return False

    def ran_on_another_name(self, attempt: Attempt) -> bool:
        """The failure says a thing the command named does not exist (:func:`missing_name`: ``No such container:
        web-1``) and the same command ran since, and succeeded, with another word in that place (``web``)."""
        name = missing_name(attempt.error)
        if not name:
            return False
        # each simple command that names it (`docker logs web-1 || docker ps -a | grep web-1`), at each place it does
        return any(_blanked(words, at) in self.renamed
                   for words in command_words(without_cd(attempt.target)[0]) if len(words) <= _RENAME_WORDS
                   for at in range(1, len(words)) if words[at] == name)

    def settles(self, attempt: Attempt) -> bool:
        """A failed check settled by a later passing check of the same kind that covered what it named (``bun run
        typecheck`` → ``tsc --noEmit``), or a program the shell could not find whose job a later command did
        (``mgrep`` → ``grep -rn``, the Grep tool) or that a later command ran the same arguments with
        (``python x.py`` → ``python3 x.py``)."""
        if self.ran_on_another_name(attempt):
            return True
        job, place = job_of(attempt.target), _place(attempt)
        if missing_program(attempt.error, attempt.target) is not None:
            words = (command_words(without_cd(attempt.target)[0]) or [[]])[0]
            named = any(not word.startswith("-") for word in words[1:])  # (not a bare `--version`)
            return (job is not None and self.jobs.covers(job)) or (
                named and len(words) <= _SUFFIX_WORDS and tuple(words[1:]) in self.tails)
        if not jobs_of(attempt.target):
            return self.ran_in_another_form(attempt.target)
        if job is not None and job.kind in _CHECKS and missing_script(attempt.error):
            # no such script where it ran (a setup slip, no failing check): a check of its kind that passed since,
            # wherever the agent found to run it (`bun run typecheck` at the root, then `cd app && tsc --noEmit`)
            return self.jobs.covers(Job(job.kind, frozenset()))
        if len(jobs_of(attempt.target)) != 1:
            return False  # (which check of `npm run build && npm test` failed is not known)
        return job is not None and job.kind in _CHECKS and self.jobs.covers(job, attempt.error, place)


_RENAME_WORDS = 40
_SERVICES = frozenset({"gh", "glab"})
"""Command lines of a code host's service: their commands name remote things by number."""
_READ_VERBS = frozenset({"view", "diff", "list", "ls"})
"""A service's commands that only fetch a thing (not ``checks``: its failure is the checks' verdict, which a later
look at the pull request does not settle)."""
_WRITE_OPTIONS = frozenset({"-f", "-F", "--field", "--raw-field", "--input", "-X", "--method"})
"""``gh api``'s options that send a body or another method than GET: a write, no read."""
_NUMBERED = ("/pull/", "/pulls/", "/issues/", "/merge_requests/")


def service_resources(words: list[str]) -> tuple[str, frozenset[str]]:
    """The service a command line calls (``gh``) and the numbers of the remote things it names: a pull request's,
    an issue's or a run's after its verb (``gh pr view 5``, ``gh pr checks #5``), the numeric parts of an ``api``
    path (``repos/o/r/pulls/112/comments/2734900785``) or of a web address (``…/pull/19``); ``("", ∅)`` for
    another program."""
    if not words or words[0] not in _SERVICES or len(words) < 2:
        return "", frozenset()
    found: list[str] = []
    if words[1] == "api":
        found = [part for word in words[2:] if "/" in word and not word.startswith("-")
                 for part in word.split("?", 1)[0].split("/") if part.isdigit()]
    else:
        found = [word.lstrip("#") for word in words[2:4] if word.lstrip("#").isdigit()]
        found += [part for word in words[2:] if any(mark in word for mark in _NUMBERED)
                  for part in word.split("#", 1)[0].split("/") if part.isdigit()]
    return words[0], frozenset(found)


def _last_resource(words: list[str]) -> str:
    """The number of the thing a service's command asks for: an ``api`` path's last number, else the first."""
    if len(words) > 1 and words[1] == "api":
        parts = [part for word in words[2:] if "/" in word and not word.startswith("-")
                 for part in word.split("?", 1)[0].split("/") if part.isdigit()]
        return parts[-1] if parts else ""
    return next(iter(sorted(service_resources(words)[1])), "")


def _reads_only(words: list[str]) -> bool:
    """A service's command that only reads (``gh api`` with no body or method, ``gh pr view|diff|checks``)."""
    if words[1] == "api":
        return _WRITE_OPTIONS.isdisjoint(words)
    return len(words) > 2 and words[2] in _READ_VERBS
_BLANK = "\0"
_MISSING_NAME = re.compile(
    r"\bno such (?:container|image|object|volume|network|service|host|pod|deployment|namespace|table|column|database"
    r"|bucket|key|remote|branch|ref|file or directory)\W{0,3}\s{0,2}[\"'`]?([^\s\"'`:]{1,200})"
    r"|\bpathspec [\"'`]([^\"'`\n]{1,200})[\"'`] did not match"
    r"|[\"'`]([^\s\"'`]{1,200})[\"'`]:? (?:not found|does not exist|is not found|was not found|no such file)", re.I)
"""Words of an error that name what the command asked for and is not there: ``No such container: web-1``,
``pathspec 'x.erb' did not match``, ``'prod' not found``."""


def missing_name(error: str) -> str:
    """The name :data:`_MISSING_NAME` finds in the first lines of ``error``, or ``""``."""
    found = _MISSING_NAME.search(error[:2000])
    return next((group for group in found.groups() if group), "") if found else ""


def _blanked(words: list[str], at: int) -> tuple[str, ...]:
    return (*words[:at], _BLANK, *words[at + 1:])


def _place(attempt: Attempt) -> str | None:
    """Where a command ran (``cd web && npm test``: ``web``): a check of one package answers for no other."""
    folder = final_folder(attempt.target, attempt.folder)
    return folder.rstrip("/").removeprefix("./") if folder else folder


_NOT_FOUND_AFTER = (": command not found", ": not found")
"""How shells end the line that says a program is not there (``bash: docker: command not found``, ``sh: 1: docker:
not found``); zsh puts the program last (``zsh:1: command not found: docker``)."""
_NOT_FOUND_BEFORE = "command not found: "
_NOT_RECOGNIZED = re.compile(r"'([^'\s]{1,200})' is not recognized as (?:an internal or external command|the name of)",
                             re.I)
"""cmd.exe's and PowerShell's words for a program that is not there."""


def missing_program(error: str, command: str) -> str | None:
    """The program of ``command`` that ``error`` says the shell could not find, lowercased, or ``None`` (a file an
    argument names that is not there is no missing program)."""
    found = set()
    for line in error[:2000].lower().splitlines():
        line = line.strip()
        if _NOT_FOUND_BEFORE in line:
            found.add(line.rsplit(_NOT_FOUND_BEFORE, 1)[1].strip())
        for ending in _NOT_FOUND_AFTER:
            if line.endswith(ending):
                found.add(line[:-len(ending)].rsplit(":", 1)[-1].strip())
        found.update(match.group(1) for match in _NOT_RECOGNIZED.finditer(line))
    if not found:
        return None
    runs = {program.lower() for program in shell_effects(command).programs}
    return next((program.rsplit("/", 1)[-1] for program in sorted(found) if program.rsplit("/", 1)[-1] in runs), None)


def misused_program(error: str, command: str) -> str | None:
    """The program of ``command`` that ``error`` says was called with a subcommand or option it does not know,
    lowercased, or ``None``: the one the error names, else the command's only program. A later successful run of
    that program (any subcommand) shows the agent found the right call; the mistyped one is history."""
    if not USAGE_ERROR.search(error[:2000]):
        return None
    # (not the filters its output went through: `jj file restore 2>&1 | head -5` misused jj, not head)
    programs = [program.lower().rsplit("/", 1)[-1]
                for program in shell_effects(_without_output_filters(without_cd(command)[0])).programs]
    said = set(_TOKEN.findall(error[:2000].lower().replace("'", " ").replace(":", " ")))
    named = [program for program in programs if program in said]
    return named[0] if named else programs[0] if len(set(programs)) == 1 else None


_PROGRAM_LOOKUPS = frozenset({"which", "whereis", "type", "hash"})
"""Programs that answer "is X installed?": their failure is the answer no."""


def asks_for_program(attempt: Attempt) -> bool:
    """A failed shell command that opened by asking whether a program is there (``which bfg && bfg --version``,
    ``command -v uv``): the answer was no, a finding the agent goes on from, not an error to fix."""
    if not is_shell_tool(attempt.tool):
        return False
    words = without_cd(attempt.target)[0].split(None, 2)
    if words[:2] == ["command", "-v"]:
        return True
    programs = shell_effects(attempt.target).programs
    return bool(programs) and programs[0] in _PROGRAM_LOOKUPS


def _goal(command: str) -> str:
    """What an ``&&`` chain ran for: its last part that does more than look (``git fetch && git rebase origin/main``
    is settled by a later ``git stash && git rebase origin/main``; a trailing ``&& ls dist/`` is no goal)."""
    parts = _chain(command)[1:]
    return next((part for part in reversed(parts) if not shell_effects(part).inspects_only), command)


_CHANGES = EDIT_TOOLS | WRITE_TOOLS
_FILE_PROGRAMS = frozenset({"cp", "mv", "rm", "rmdir", "mkdir", "touch", "tee", "ln", "install", "sed", "cat", "echo",
                            "printf", "chmod", "truncate"})
"""Programs a command runs when its whole purpose is to put files in place: its failure is that of those files."""


def _files_changed_later(command: str, changed: set[str], names: PathNames) -> bool:
    """True when ``command`` only puts files in place (``cp -r skills/x ~/.claude/skills/``, ``cat > notes.md``) and
    one of them was changed later by any tool: the agent put it there another way."""
    effects = shell_effects(command)
    return bool(effects.writes) and set(effects.programs) <= _FILE_PROGRAMS \
        and any(names.name(path) in changed for path in effects.writes)


def _changed_since(attempts: tuple[Attempt, ...]) -> list[bool]:
    """Per attempt: whether a file its error names (``src/retry.py:12: error: …``) was changed afterwards. The
    agent acted on the error, which counts as settled unless the check fails again (that failure is its own).
    The changed names are gathered from the end, and each error is read once, token by token."""
    changed: set[str] = set()
    settled = [False] * len(attempts)
    for position in range(len(attempts) - 1, -1, -1):
        attempt = attempts[position]
        if attempt.failed and attempt.error and changed:
            settled[position] = any(name in changed for name in _named_files(attempt.error))
        elif not attempt.failed and not attempt.aborted:
            # a file a command that only puts files in place wrote counts as one a tool wrote (a patch that did not
            # apply, then a heredoc); not one a program wrote on the side (`npm install x` and package.json)
            effects = shell_effects(attempt.target) if is_shell_tool(attempt.tool) else None
            written = (effects.writes if set(effects.programs) <= _FILE_PROGRAMS else []) if effects else \
                [attempt.target] if attempt.tool.lower() in EDIT_TOOLS | WRITE_TOOLS else []
            for path in written:
                name = path.rstrip("/").rsplit("/", 1)[-1]
                if len(name) >= 4 and "." in name:
                    changed.add(name)
    return settled


_PATH_TOKEN = re.compile(r"(?<![\w.-])[\w.-]{4,255}")


def _named_files(error: str) -> Iterator[str]:
    """The file names an error may mention: each token of word characters, dots and dashes, and its starts that end
    before a dot or a dash (``retry.py`` in ``retry.py.orig``), as a word boundary would end them."""
    for token in _PATH_TOKEN.finditer(error[:20_000]):
        text = token.group()
        yield text
        for cut, char in enumerate(text):
            if char in ".-" and cut >= 4:
                yield text[:cut]


_NOT_OURS_MARK = " (pre-existing, not of this change, the agent said)"


def open_and_resolved(attempts: tuple[Attempt, ...], settled_in_turn: Any,
                      names: PathNames, reported: Any = None,
                      messages: Sequence[dict] = (), said: AgentWords | None = None) -> tuple[list[str], list[str]]:
    """Open error lines (one per action, its latest error) and short labels of the resolved ones.
    ``settled_in_turn(index)`` says whether the failure at ``index`` was settled by what came after it in its turn
    (the turn ended finished, the agent took another way); ``reported(index)`` whether the agent's answer or the
    user's next request came after it, which settles a diagnostic's findings (:func:`diagnosed`). ``messages``
    (those the attempts' indices point into) hold the agent's words that settle a failure (:mod:`.explained`);
    ``said`` is what :func:`settled_by_words` read of them, when the caller has it already."""
    open_errors: dict[str, str] = {}
    failed_on: dict[str, str] = {}  # an open error's label -> what it failed on (a test, a diagnostic), else the label
    resolved: dict[str, None] = {}
    fixed_later, changed_since = _fixed_later(attempts, names), _changed_since(attempts)
    over, again, latest = over_later(attempts, messages), retried(attempts), superseded(attempts)
    said = said if said is not None else settled_by_words(messages, attempts)
    for position, attempt in enumerate(attempts):
        if not attempt.failed or attempt.aborted:
            continue
        label = action_label(attempt, names)
        # a call the harness turned back before it ran ("File has not been read yet") broke nothing; one refused
        # for its input is settled once the same tool worked (the agent fixed its call), else what it asked is undone
        fixed = (fixed_later[position] or changed_since[position] or over[position] or again[position]
                 or latest[position]
                 or (turned_back(attempt) and not bad_input(attempt)) or attempt.index in said.settled)
        findings = diagnosed(attempt) and reported is not None and reported(attempt.index)
        # a query that found nothing (`gh pr checks` with "no checks reported", `grep` with no match) answered
        looked = attempt.lookup or _looks_up(attempt.tool) or asks_for_program(attempt) \
            or empty_answer(attempt, messages)
        if fixed or looked or settled_in_turn(attempt.index) or findings:
            open_errors.pop(label, None)
            resolved[label] = None
        else:
            resolved.pop(label, None)
            error = _unrepeated(_with_why(attempt, messages), label)
            line = f"{label} failed: {error}" if error else f"{label} failed"
            open_errors[label] = line + _NOT_OURS_MARK if attempt.index in said.not_ours else line
            failed_on[label] = _finding(attempt.error) or label
    return _latest_per_finding(open_errors, failed_on), list(resolved)


def _latest_per_finding(open_errors: dict[str, str], findings: dict[str, str]) -> list[str]:
    """The open error lines, one per finding: a failing test or a located diagnostic that several commands met
    (``make check``, then ``pytest tests/x.py``, then ``pytest tests/x.py -v``) is one error to fix, named with the
    command that met it last."""
    last = {findings.get(label, label): label for label in open_errors}
    kept = set(last.values())
    return [line for label, line in open_errors.items() if label in kept]


_FAILED_NODE = "FAILED "


def _with_why(attempt: Attempt, messages: Sequence[dict]) -> str:
    """The error of a failure left open, a failing test's with why it failed (:func:`.diagnostics.with_assertion`:
    ``FAILED a.py::test_b — AssertionError: …``), read from its output in ``messages``: what the next agent fixes.
    (A settled failure keeps its short line.)"""
    if not attempt.error.startswith(_FAILED_NODE) or not 0 <= attempt.index < len(messages):
        return attempt.error
    return with_assertion(attempt.error, content_text(messages[attempt.index].get("content")))


def _unrepeated(error: str, label: str) -> str:
    """``error`` without the test file its failing test's node names when the command (``label``) names that file
    already (``pytest tests/test_a.py`` failed: ``FAILED test_a.py::test_b — …`` → ``FAILED test_b — …``): the line
    keeps its room for why the test failed."""
    if not error.startswith(_FAILED_NODE) or "::" not in error:
        return error
    path = error[len(_FAILED_NODE):].split("::", 1)[0]
    name = path.rsplit("/", 1)[-1]
    if len(name) < 4 or " " in path or name not in label:
        return error
    return _FAILED_NODE + error[len(_FAILED_NODE) + len(path) + 2:]


def _finding(error: str) -> str:
    """What ``error`` failed on when it names a failing test (its name: pytest's ``FAILED a.py::T::test_x — …``
    whatever path or reason came with it) or a located diagnostic (the line), else ``""``."""
    if not (failed_test(error) or is_telling(error)):
        return ""
    head = error.split(" — ", 1)[0].strip()
    return head.rsplit("::", 1)[-1].split(" ", 1)[0] if "::" in head else head


_LOOKUP_TOOL = re.compile(r"read|view|grep|glob|search|fetch|find|list|^ls$|^cat$", re.I)


def diagnosed(attempt: Attempt) -> bool:
    """A failed command that only prints what is there (``git fsck``, ``git status``, ``grep``: :func:`.shell.
    prints_only`): its exit status reports the problems it found, which the agent then tells or deals with; once the
    agent answered or the user went on, it is no failed step to fix (a check that changes or builds something is)."""
    return attempt.failed and is_shell_tool(attempt.tool) and prints_only(attempt.target)


def _looks_up(tool: str) -> bool:
    """A tool that only looks something up (reads a file, searches, fetches a page): when it fails, information was
    not obtained, nothing was broken; the agent looks elsewhere. Not a shell (its commands are judged one by one)."""
    return not is_shell_tool(tool) and tool.lower() not in EDIT_TOOLS | WRITE_TOOLS and bool(_LOOKUP_TOOL.search(tool))


def turned_back(attempt: Attempt) -> bool:
    """A failed call the harness turned back before it ran (``<tool_use_error>File has not been read yet``, a
    directory guard, a permission rule, a hook or a policy that refused it: :func:`.outcome.harness_refusal`): it
    broke nothing and changed nothing, and no "Fix:" undoes a limit the harness sets."""
    return attempt.failed and (bool(_HARNESS_ERROR.match(attempt.error)) or harness_refusal(attempt.error))


_CHATTER = re.compile(
    r"\b(?:has not been read|not been read yet|read it first|modified since|sibling tool|cancell?ed|interrupted"
    r"|InputValidationError|invalid (?:tool )?(?:input|param)|required param|unexpected param|does not exist"
    r"|not found|no such|permission|denied|not allowed|blocked)\b", re.I)
"""The harness's own words when it turns a call back for its protocol (read before edit, a sibling call failed, the
input did not fit the tool's schema, a missing file, a permission): chatter, no news about the work."""


def refused_call(attempt: Attempt) -> bool:
    """A call the tool itself refused for what it asked (``<tool_use_error>structured messages cannot be broadcast``)
    — not the harness's chatter (:data:`_CHATTER`) nor a permission rule (:func:`.outcome.harness_refusal`) — or
    refused the input it was given (:func:`.bad_input.bad_input`: ``InputValidationError``). When the same tool then
    worked, the agent changed its call: one settled line says what the tool does not do or wanted."""
    return turned_back(attempt) and bool(_HARNESS_ERROR.match(attempt.error)) \
        and not harness_refusal(attempt.error) and (not _CHATTER.search(attempt.error[:300]) or bad_input(attempt))


_WEB_STATUS = re.compile(r"\b(?:status(?: code)?:? 4(?:0[134]|10)|4(?:0[134]|10) (?:Not Found|Forbidden|Unauthorized|Gone)"
                         r"|HTTP(?:/[\d.]{1,4})? 4(?:0[134]|10))\b", re.I)
"""A web server's refusal of a page: ``Request failed with status code 404``, ``HTTP 403``, ``404 Not Found`` (not a
5xx: the server's passing fault, no page out of reach)."""


def out_of_reach(attempt: Attempt) -> bool:
    """A page at a web address that a fetch tool could not get (404 of a private repository, 403): the agent then
    gets at it another way or asks; which page is out of reach is worth one settled line."""
    return attempt.failed and not is_shell_tool(attempt.tool) and "://" in attempt.target \
        and bool(_WEB_STATUS.search(attempt.error[:300]))


def work_failure(attempt: Attempt) -> bool:
    """A failure a next step should fix: of a command or a file change, not stopped, not turned back (a failed
    read, search or web fetch is information not obtained, no work item)."""
    return attempt.failed and not attempt.aborted and not turned_back(attempt) and (
        is_shell_tool(attempt.tool) or attempt.tool.lower() in EDIT_TOOLS | WRITE_TOOLS)


def action_label(attempt: Attempt, names: PathNames) -> str:
    if is_shell_tool(attempt.tool):
        return f"`{clip_words(command_key(attempt.target), 120)}`"
    target = _short_address(attempt.target) if "://" in attempt.target else \
        names.name(attempt.target) if attempt.target else ""
    return f"{attempt.tool} `{target}`" if target else attempt.tool  # a web address whole, not as a path


_ADDRESS_CHARS = 60


def _short_address(address: str) -> str:
    """A long web address as its host and its last part (``docs.example.com/…/datum.md``): what tells the page; the
    whole would fill the line that lists it."""
    if len(address) <= _ADDRESS_CHARS:
        return address
    rest = address.split("://", 1)[1].split("?", 1)[0].split("#", 1)[0].rstrip("/")
    host, _, path = rest.partition("/")
    last = path.rsplit("/", 1)[-1]
    if last and last != path:
        return f"{host}/…/{last}"
    return rest[:_ADDRESS_CHARS] + "…" if len(rest) > _ADDRESS_CHARS else rest


def with_filtered_errors(messages: list[dict], attempts: tuple[Attempt, ...]) -> tuple[Attempt, ...]:
    """The attempts, a successful command whose output went through a filter (``| grep``, ``| tail``) or whose
    status a last step masks (``|| true``, ``; echo "exit $?"``) and shows an error and no pass given that error
    line, and failed unless it only inspects files: the filter's exit status hid the check's failure. So is a check
    (tests, a build, a linter, a type check) that reported success while its output names a failing test or counts
    failures (``3 failed, 10 passed``): a harness that does not flag exit codes, or a runner that exits 0. make's
    verdict (``make: *** [lint] Error 1``, :func:`make_failed`) says a filtered run failed, whatever an earlier step
    of it printed ("All checks passed!"). The error is what the check found (:func:`.diagnostics.telling_line`)."""
    found = []
    for attempt in attempts:
        text = content_text(messages[attempt.index].get("content"))[-20_000:] if not attempt.failed \
            and not attempt.aborted and is_shell_tool(attempt.tool) and 0 <= attempt.index < len(messages) else ""
        # a step's own pass (ruff's "All checks passed!") is no verdict on a `make` whose later step failed
        verdict = make_failed(text) if text else ""
        if text and (not attempt.passed or verdict):
            hidden = masked(attempt.target)
            # (`docker rm -f web || true` ignores an error it expects: only a check's hidden failure counts)
            hidden = hidden if hidden and (_CHECKS & {job.kind for job in jobs_of(hidden)} or failed_test(text)
                                           or failure_count(text)) else ""
            if _filtered(attempt.target) or hidden:
                lines = error_lines(text, 1) or ([verdict] if verdict else [])
                if lines:  # a check (not a lookup) whose output shows errors failed
                    looked = attempt.lookup or queries_only(attempt.target) or bool(  # (`git fsck | grep error`)
                        hidden and (prints_only(hidden) or shell_effects(hidden).inspects_only))
                    error = failed_test(text) or telling_line(text) or lines[0]
                    attempt = replace(attempt, error=error, failed=not looked)
            elif (job := job_of(attempt.target)) is not None and job.kind in _CHECKS and not attempt.lookup:
                said = failed_test(text) or failure_count(text)
                if said:
                    attempt = replace(attempt, error=telling_line(text) or said, failed=True)
        elif bad_input(attempt) and attempt.error.rstrip().endswith(":") and 0 <= attempt.index < len(messages):
            attempt = replace(attempt, error=_with_reason(attempt.error, content_text(
                messages[attempt.index].get("content"))[:2000]))
        elif not attempt.failed and not attempt.aborted and is_subagent(attempt.tool) \
                and 0 <= attempt.index < len(messages):
            said = reported_failure(content_text(messages[attempt.index].get("content"))[:20_000])
            attempt = replace(attempt, error=said, failed=True) if said else attempt
        found.append(attempt)
    return tuple(found)


_MAKE_FAILED = re.compile(r"^[ \t]{0,4}g?make(?:\[\d{1,4}\])?: \*\*\* [^\n]{0,300}?\bError \d{1,4}[ \t]*$", re.M)
"""make's verdict on a recipe that failed (``make: *** [lint] Error 1``, ``make[1]: *** [Makefile:12: test] Error
2``); not one it ignored (``Error 1 (ignored)``)."""


def make_failed(text: str) -> str:
    """make's verdict that a recipe failed, among the last lines of ``text``, or ``""``: its run failed whatever a
    filter after it (``| tail``) exited with or an earlier step printed ("All checks passed!")."""
    found = _MAKE_FAILED.search(text[-2000:])
    return found.group().strip() if found else ""


def with_hidden_make_failures(messages: list[dict], attempts: tuple[Attempt, ...]) -> tuple[Attempt, ...]:
    """The attempts, each ``make`` run whose filter (``make check 2>&1 | tail -20``) hid the failure make's verdict
    shows (:func:`make_failed`) failed, with what it found as its error: the checks a Makefile chains (lint, format,
    types, tests) fail one at a time, and each is a finding the agent then fixed."""
    filtered = with_filtered_errors(messages, attempts)
    return tuple(after if after.failed and not before.failed and 0 <= before.index < len(messages) and make_failed(
        content_text(messages[before.index].get("content"))[-20_000:]) else before
                 for before, after in zip(attempts, filtered))


def _with_reason(error: str, text: str) -> str:
    """A refusal's line that ends announcing its reason (``InputValidationError: Task failed due to the following
    issue:``) with the line of ``text`` that follows it (``The required parameter `description` is missing``)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    head = error.strip()
    for at, line in enumerate(lines[:-1]):
        if line == head or line.endswith(head.removeprefix("<tool_use_error>")):
            return clip_words(f"{head} {lines[at + 1]}".replace("</tool_use_error>", ""), 300)
    return error


_SUBAGENT = re.compile(r"^(?:task|agent|sub_?agent|spawn_?agent|dispatch_?agent|delegate(?:_?task)?|run_?agent)$",
                       re.I)
"""A tool that hands work to a sub-agent (:mod:`.reports`): its result is the sub-agent's report."""
_REPORTED_COUNT = re.compile(r"\b[1-9]\d{0,4} (?:\w{1,20} )?(?:tests?|specs?|checks?|suites?) "
                             r"(?:are |were |still |now )?(?:fail(?:s|ed|ing)?|broken)\b", re.I)
"""A sub-agent's count of checks that fail, in prose (``2 tests fail``, ``3 unit tests are failing``)."""
_NOT_NOW = re.compile(r"\b(?:fixed|resolved|now pass|all pass|pre-?existing|were failing|used to)\b", re.I)
"""Words that put the failure a line counts in the past or outside the work (``fixed the 2 failing tests``)."""


def is_subagent(tool: str) -> bool:
    """True for a tool that runs a sub-agent (Claude Code's ``Task``, codex's ``spawn_agent``)."""
    return bool(_SUBAGENT.match(tool))


def reported_failure(report: str) -> str:
    """The failure a sub-agent's report says it met, in its words: a failing test it names (``FAILED a.py::x``,
    ``--- FAIL: TestX``), a located compiler diagnostic, else its count of failing tests (``2 tests fail: …``);
    ``""`` when it reports none, or only ones it fixed or found there before."""
    for line in report.splitlines()[:400]:
        if _REPORTED_COUNT.search(line) and not _NOT_NOW.search(line):
            detail = _named_failure(report)
            return clip_words(f"{line.strip(' -*#')} {detail}".strip() if detail else line.strip(" -*#"), 300)
    said = _named_failure(report)
    return said if said and not _NOT_NOW.search(report[:2000]) else ""


def _named_failure(report: str) -> str:
    """A failing test the report names, else a compiler's located error it quotes (``a.ts(3,7): error TS2345``;
    not a review's ``cache.py:45: no bounds check``, a finding, not a failure)."""
    found = failed_test(report)
    if found:
        return found
    located = telling_line(report)
    return located if _SAYS_ERROR.search(located) else ""


_SAYS_ERROR = re.compile(r"\berror\b", re.I)


_MASKS = ("true", ":", "exit 0", "echo", "printf")
"""A last step after ``||`` or ``;`` that exits 0 whatever the command before it did (``pytest || true``, ``go vet
./...; echo "exit: $?"``): the command's own status is lost, its output is the only verdict."""


def masked(command: str) -> str:
    """The command before the last step of ``command`` when that step (after ``||`` or ``;``) hides its status
    (``|| true``, ``|| :``, ``; exit 0``, ``; echo done``; not ``&& echo ok``, which runs only when the command
    passed), else ``""``."""
    line = without_cd(command)[0]
    cut = max(line.rfind("||"), line.rfind(";"))
    if cut < 0 or "&&" in line[cut:]:
        return ""
    tail, head = line[cut:].lstrip("|;").strip(), line[:cut].strip()
    return head if any(tail == mask or tail.startswith(mask + " ") for mask in _MASKS) else ""


_COUNT_LINES = 40
_FAILURE_COUNT = re.compile(r"(?<![\w.-])[1-9]\d{0,5} (?:failed|failing|failures?|errors?)\b", re.I)
"""A runner's count of failures (``3 failed, 10 passed``, ``Found 2 errors``, ``4 failing``); never ``0 failed``."""


def failure_count(text: str) -> str:
    """The last line of ``text``'s last :data:`_COUNT_LINES` lines that counts failures, trimmed, or ``""``."""
    lines = text[-6_000:].splitlines()[-_COUNT_LINES:]
    said = [line.strip(" =\t") for line in lines if _FAILURE_COUNT.search(line)]
    return clip_words(said[-1], 200) if said else ""


def with_stops(messages: list[dict], attempts: tuple[Attempt, ...]) -> tuple[Attempt, ...]:
    """The attempts, those whose failed result the user's interruption notice follows (``[Request interrupted by
    user for tool use]``) marked aborted: the user stopped the call, often saying why in the result itself."""
    notices = {index - 1 for index, message in enumerate(messages) if message.get("role") == "user"
               and not request_words(content_text(message.get("content")))
               and stopped(content_text(message.get("content")))}
    return tuple(replace(a, aborted=True) if a.failed and a.index in notices else a for a in attempts)


__all__ = ["action_label", "command_key", "make_failed", "masked", "misused_program", "without_cd",
           "open_and_resolved", "out_of_reach", "refused_call", "turned_back", "with_filtered_errors",
           "with_hidden_make_failures", "with_stops", "work_failure"]
