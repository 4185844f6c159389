"""What a command is for, by the role of the program it runs: a type check, tests, a build, a lint, a format, a
search, whatever wrapper runs it (``npx tsc``, ``pnpm exec tsc``, ``python -m pytest``, ``uv run pytest``, ``bun
run typecheck``, ``make test``).

Two commands of the same job are two ways to the same answer: ``bun run typecheck`` fails because the script is
missing, ``tsc --noEmit`` then passes, and the project type checks; ``mgrep retry`` is not installed, ``grep -rn
retry`` then finds it. :mod:`.errors` settles the first by the second. A run narrowed to some files or tests
(``pytest tests/test_a.py``, ``vitest run -t retry``) answers for those only: its *scope* says which.

Work sent to the background (:func:`awaited`: sub-agents launched with ``run_in_background``, a command run the same
way) answers later, in a notice or an output call: when the region ends before that, collecting it is the next step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...accessors import content_text
from .shell import XARGS_VALUES, after_options, command_words

TYPECHECK, TEST, BUILD, LINT, FORMAT, SEARCH = "type check", "tests", "build", "lint", "format", "search"

_TOOLS = {
    TYPECHECK: {"tsc", "vue-tsc", "svelte-check", "mypy", "dmypy", "pyright", "basedpyright", "pyre", "flow",
                "tsgo"},
    TEST: {"pytest", "py.test", "vitest", "jest", "mocha", "ava", "jasmine", "karma", "rspec", "phpunit", "nose2",
           "unittest", "ctest", "tox", "nox"},
    BUILD: {"vite", "webpack", "rollup", "esbuild", "tsup", "parcel", "next", "nuxt", "astro", "turbo"},
    LINT: {"eslint", "flake8", "pylint", "ruff", "oxlint", "stylelint", "golangci-lint", "shellcheck", "rubocop",
           "clippy-driver", "biome", "standard", "xo"},
    FORMAT: {"prettier", "black", "isort", "gofmt", "rustfmt", "dprint", "autopep8", "yapf", "clang-format"},
    SEARCH: {"grep", "egrep", "fgrep", "rg", "ag", "ack", "mgrep", "ugrep", "sift", "pt", "find", "fd", "fdfind",
             "locate"},
}
_BY_TOOL = {tool: kind for kind, tools in _TOOLS.items() for tool in tools}
_BUILD_NEEDS_WORD = frozenset({"vite", "next", "nuxt", "astro", "turbo"})
"""Tools whose bare run serves or develops: a build only with the word ``build`` (``vite build``, ``next build``)."""
_SUBCOMMANDS = {
    "cargo": {"check": TYPECHECK, "test": TEST, "nextest": TEST, "build": BUILD, "clippy": LINT, "fmt": FORMAT},
    "go": {"vet": LINT, "test": TEST, "build": BUILD, "fmt": FORMAT},
    "bun": {"test": TEST, "build": BUILD},
    "deno": {"check": TYPECHECK, "test": TEST, "lint": LINT, "fmt": FORMAT},
    "dotnet": {"test": TEST, "build": BUILD, "format": FORMAT},
    "mix": {"test": TEST, "compile": BUILD, "format": FORMAT},
    "ruff": {"check": LINT, "format": FORMAT},
    "biome": {"lint": LINT, "check": LINT, "format": FORMAT},
    "git": {"grep": SEARCH},
    "swift": {"test": TEST, "build": BUILD},
    "gradle": {"test": TEST, "build": BUILD}, "./gradlew": {"test": TEST, "build": BUILD},
    "mvn": {"test": TEST, "compile": BUILD, "package": BUILD},
}
_WRAPPERS = {"npx": 1, "bunx": 1, "pnpx": 1, "uvx": 1, "nice": 1, "timeout": 2}
"""Programs that run the program after them (and how many words, the wrapper's own included, they take)."""
_RUN_WORDS = {"uv": "run", "poetry": "run", "pipenv": "run", "pdm": "run", "rye": "run", "hatch": "run",
              "pnpm": "exec", "yarn": "exec", "npm": "exec", "bun": "x", "conda": "run"}
"""Package managers that run a tool with a word (``uv run pytest``, ``pnpm exec tsc``; ``pnpm dlx``, ``yarn dlx``
too)."""
_SCRIPT_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun", "make", "just", "task", "deno"})
"""Programs that run a project's named script or target (``npm run typecheck``, ``make test``, ``just lint``)."""
_SCRIPT_KINDS = {"typecheck": TYPECHECK, "type-check": TYPECHECK, "types": TYPECHECK, "check-types": TYPECHECK,
                 "tsc": TYPECHECK, "test": TEST, "tests": TEST, "build": BUILD, "lint": LINT, "format": FORMAT,
                 "fmt": FORMAT}
_SCRIPT_PART = re.compile(r"[:_.-]")
_NARROWING = frozenset({"-k", "-t", "-m", "-run", "--run", "--grep", "-g", "--testNamePattern", "--testPathPattern",
                        "--filter", "-p", "--package", "--project", "--workspace", "-w", "--lib", "--bin",
                        "--test", "--selectProjects"})
"""Options of runners that narrow the run to some tests or packages: their value is part of the run's scope."""
_INTERPRETER = re.compile(r"^python[\d.]{0,6}$|^py$|^pypy3?$")


@dataclass(frozen=True)
class Job:
    """A command's job: its ``kind`` (:data:`TYPECHECK`, :data:`TEST`, …) and the files, tests or scripts it was
    narrowed to (``scope``; empty for the whole project)."""

    kind: str
    scope: frozenset[str]


def job_of(command: str) -> Job | None:
    """The job of ``command``'s last simple command that has one (``cd web && npx tsc --noEmit`` is a type check),
    or ``None`` (an install, a push, a script of its own)."""
    found = jobs_of(command)
    return found[-1] if found else None


def jobs_of(command: str) -> list[Job]:
    """The jobs of ``command``'s simple commands, in order (``npm run build && npm test``: a build, then tests)."""
    return [job for words in command_words(command) if (job := _job(words)) is not None]


def _job(words: list[str]) -> Job | None:
    words = _unwrapped(words)
    if not words:
        return None
    program = words[0].rsplit("/", 1)[-1].lower()
    rest = words[1:]
    subcommand = next((word for word in rest if not word.startswith("-")), "")
    if program in _SCRIPT_RUNNERS and not (program in _SUBCOMMANDS and subcommand in _SUBCOMMANDS[program]):
        script = rest[1] if rest[:1] == ["run"] and len(rest) > 1 else subcommand
        return _script_job(script, rest)
    if program in _SUBCOMMANDS and subcommand in _SUBCOMMANDS[program]:
        kind = _SUBCOMMANDS[program][subcommand]
        return Job(kind, frozenset() if kind == SEARCH else _scope(rest[rest.index(subcommand) + 1:]))
    kind = _BY_TOOL.get(program)
    if kind is None or (program in _BUILD_NEEDS_WORD and "build" not in rest):
        return None
    if kind == BUILD or kind == SEARCH:
        return Job(kind, frozenset())  # (a search's words are what it looks for, a build's are its options)
    return Job(kind, _scope([word for word in rest if word not in ("run", "check", "test")]))


@dataclass(frozen=True)
class Selection:
    """What a check was run on: its ``kind``, its ``runner`` (the tool, ``pytest``, ``bun``, ``jest``; ``""`` for a
    project's script, ``npm test``, ``make test``, which may run any), the ``paths`` it was given (``src/tests``,
    ``tests/a.py::test_b``; none: all of where it ran), whether an option narrowed it further (``-k refund``, ``-t
    total``) and whether it ran a script of its own name (``npm run test:e2e``: what ``npm test`` may not run);
    ``arguments``: a tool's words after its subcommand as given (``src/tests/``, ``--bail``), which a runner may
    read as filters (:mod:`.wider`)."""

    kind: str
    runner: str
    paths: frozenset[str]
    narrowed: bool
    named: bool
    arguments: tuple[str, ...] = ()


def selection(words: list[str]) -> Selection | None:
    """The :class:`Selection` of a simple command that runs a check, or ``None``."""
    job = _job(words)
    if job is None:
        return None
    words = _unwrapped(words)
    program = words[0].rsplit("/", 1)[-1].lower()
    rest = words[1:]
    subcommand = next((word for word in rest if not word.startswith("-")), "")
    script = program in _SCRIPT_RUNNERS and not (program in _SUBCOMMANDS and subcommand in _SUBCOMMANDS[program])
    values = _narrowing_values(rest)
    name = (rest[1] if rest[:1] == ["run"] and len(rest) > 1 else subcommand).lower() if script else ""
    named = bool(name) and name not in _SCRIPT_KINDS  # (`test:e2e` runs what `test` may not)
    arguments = () if script else tuple(rest[rest.index(subcommand) + 1:]) if program in _SUBCOMMANDS else \
        tuple(word for word in rest if word not in ("run", "check", "test"))
    return Selection(job.kind, "" if script else program, job.scope - values - {name}, bool(values), named,
                     arguments)


def _narrowing_values(words: list[str]) -> frozenset[str]:
    """The values of the options that narrow a run (``-k refund``, ``--testNamePattern=total``)."""
    found = {word.split("=", 1)[1] for word in words if "=" in word and word.split("=", 1)[0] in _NARROWING}
    found.update(value for option, value in zip(words, words[1:]) if option in _NARROWING)
    return frozenset(found)


def _unwrapped(words: list[str]) -> list[str]:
    """The words of the tool a wrapper runs: ``npx tsc`` → ``tsc``, ``python -m pytest`` → ``pytest``, ``uv run
    pytest`` → ``pytest``, ``pnpm exec tsc`` → ``tsc``."""
    for _ in range(4):
        if not words:
            return words
        program = words[0].rsplit("/", 1)[-1].lower()
        if program == "xargs":  # its options that take a value (`-I {}`) are skipped with it
            words = after_options(words[1:], XARGS_VALUES)
        elif program in _WRAPPERS:
            words = words[_WRAPPERS[program]:]
            while words and words[0].startswith("-"):
                words = words[1:]
        elif _INTERPRETER.match(program) and words[1:2] == ["-m"] and len(words) > 2:
            words = words[2:]
        elif program in _RUN_WORDS and words[1:2] in ([_RUN_WORDS[program]], ["dlx"]):
            words = words[2:]
        else:
            return words
    return words


def _script_job(script: str, rest: list[str]) -> Job | None:
    """The job of a project script (``typecheck``, ``test:unit``, ``lint-fix``): by its name's first part; a name
    that says more than its kind (``test:e2e``) is the run's scope."""
    name = script.lower()
    kind = _SCRIPT_KINDS.get(name) or _SCRIPT_KINDS.get(_SCRIPT_PART.split(name, 1)[0])
    if kind is None:
        return None
    extra = [word for word in rest[rest.index(script) + 1:] if word != "--"] if script in rest else []
    scope = _scope(extra) | ({name} if name not in _SCRIPT_KINDS else set())
    return Job(kind, frozenset(scope))


def _scope(words: list[str]) -> frozenset[str]:
    """What a run was narrowed to: its arguments that are not options, and the values of narrowing options."""
    scope, skip = set(), False
    for word in words:
        if skip:
            scope.update({word} - {".", "./"})
            skip = False
        elif word in _NARROWING:
            skip = True
        elif word.startswith("-"):
            if "=" in word and word.split("=", 1)[0] in _NARROWING:
                scope.add(word.split("=", 1)[1])
        elif word not in (".", "./", "./...", "..."):
            scope.add(word.rstrip("/"))
    return frozenset(scope)


def covers(later: Job, earlier: Job, error: str = "") -> bool:
    """True when a run of ``later`` answers for ``earlier``'s: the same kind, and ``later`` ran the whole project or
    every file and test ``earlier`` was narrowed to and ``error`` names (a failing ``pytest tests/test_a.py`` is not
    answered by a passing ``pytest tests/test_b.py``)."""
    if later.kind != earlier.kind:
        return False
    if not later.scope:
        return True
    named = set(earlier.scope) | _named_tests(error)
    return bool(named) and all(any(_within(item, scope) for scope in later.scope) for item in named)


_TEST_FILE = re.compile(r"(?<![\w./-])((?:[\w.-]{1,100}/){0,12}[\w.-]{1,100}\.(?:py|ts|tsx|js|jsx|mjs|go|rs|rb))"
                        r"(?:::|\b)")


def _named_tests(error: str) -> set[str]:
    return {match.group(1) for match in _TEST_FILE.finditer(error[:2000])}


def _within(item: str, scope: str) -> bool:
    item, scope = item.split("::", 1)[0].removeprefix("./"), scope.split("::", 1)[0].removeprefix("./")
    return item == scope or item.startswith(scope.rstrip("/") + "/")


_ANYWHERE = "\0anywhere"
_MOST_FOLDERS = 64


class JobIndex:
    """The jobs later commands did, indexed by where they ran and their kind, so asking whether they answer for a
    failure costs what the failure names, not the number of jobs (a region of n failed and n passing runs with
    other scopes would otherwise compare every pair). Unlike :func:`covers` of one run, several narrowed runs
    together answer for the files each covered."""

    def __init__(self) -> None:
        self._whole: set[tuple[str | None, str]] = set()
        self._scopes: dict[tuple[str | None, str], set[str]] = {}

    def add(self, job: Job, place: str | None) -> None:
        for key in ((place, job.kind), (_ANYWHERE, job.kind)):
            if job.scope:
                self._scopes.setdefault(key, set()).update(_normal(scope) for scope in job.scope)
            else:
                self._whole.add(key)

    def covers(self, earlier: Job, error: str = "", place: str | None = _ANYWHERE) -> bool:
        """True when the jobs added, run in ``place`` (by default anywhere), answer for ``earlier``'s run."""
        key = (place, earlier.kind)
        if key in self._whole:
            return True
        scopes = self._scopes.get(key)
        named = set(earlier.scope) | _named_tests(error)
        return bool(scopes) and bool(named) and all(_within_any(item, scopes) for item in named)


def _normal(name: str) -> str:
    return name.split("::", 1)[0].removeprefix("./").rstrip("/")


def _within_any(item: str, scopes: set[str]) -> bool:
    """``item`` is one of ``scopes`` or inside one of them: each of its folders is looked up, not each scope."""
    item = _normal(item)
    if item in scopes:
        return True
    slash = item.find("/")
    for _ in range(_MOST_FOLDERS):
        if slash < 0:
            return False
        if item[:slash] in scopes:
            return True
        slash = item.find("/", slash + 1)
    return False


# -- the same run in another form ---------------------------------------------------------------------------

_SCRIPT_HOSTS = re.compile(r"^(?:bash|sh|zsh|dash|ksh|fish|python[\d.]{0,6}|py|pypy3?|node|nodejs|bun|deno|ruby|perl"
                           r"|php|tsx|ts-node|ts-node-esm|esno|jiti|Rscript|lua|pwsh|powershell)$")
"""Programs that run a script file named after them (``bash x.sh``, ``node x.js``, ``npx tsx x.ts``)."""
_CODE_OPTIONS = frozenset({"-c", "-e", "--eval", "-p", "--print", "-m", "-Command", "-command"})
"""Options after which a host runs code or a module, not a script file."""
_SCRIPT_FILE = re.compile(r"^[\w.~/-]{0,300}\.[A-Za-z][A-Za-z0-9]{0,5}$|^\.{0,2}/[\w.~/-]{1,300}$")
_MOST_WORDS = 16


def script_of(words: list[str]) -> str | None:
    """The script file a simple command runs, however it is run: ``./scripts/test.sh``, ``bash scripts/test.sh``,
    ``node x.js`` and ``npx tsx x.js`` run ``scripts/test.sh`` and ``x.js``; ``None`` for a program on the PATH or
    code given inline (``python -c …``)."""
    found = script_words(words)
    return found[0] if found else None


def script_words(words: list[str]) -> list[str] | None:
    """The words of a simple command from the script file it runs on (``python3 manage.py migrate --fake`` →
    ``manage.py migrate --fake``), the path without its ``./``, or ``None`` (see :func:`script_of`)."""
    words = _unwrapped(words)
    for _ in range(3):
        if not words:
            return None
        program = words[0].rsplit("/", 1)[-1]
        if not _SCRIPT_HOSTS.match(program):
            break
        words = words[1:] if words[1:2] != ["run"] else words[2:]  # (`deno run x.ts`)
        while words and words[0].startswith("-"):
            if words[0] in _CODE_OPTIONS:
                return None
            words = words[1:]
    return [words[0].removeprefix("./"), *words[1:]] if words and _SCRIPT_FILE.match(words[0]) else None


def form_key(words: list[str]) -> tuple[str, str, frozenset[str]] | None:
    """A simple command as its program, its first argument and all its arguments, its options left out: two runs of
    the same program on the same things with other options (``npm install`` and ``npm install
    --legacy-peer-deps``, ``docker compose up -d`` and ``docker compose up --build``) have the same key. A script is its program however it is
    run (``./manage.py migrate`` and ``python3 manage.py migrate``: ``manage.py``, ``migrate``)."""
    script = script_words(words)
    words = script or _unwrapped(words)
    if not words:
        return None
    arguments = [word for word in words[1:_MOST_WORDS] if not word.startswith("-")]
    program = words[0] if script else words[0].rsplit("/", 1)[-1].lower()
    return program, arguments[0] if arguments else "", frozenset(arguments)


# -- work sent to the background --------------------------------------------------------------------------------

_LAUNCHED = re.compile(r"\b(?:async agent launched|(?:working|running|runs|started|launched) in (?:the )?background"
                       r"|background (?:task|job|agent|shell) (?:started|launched|id))\b", re.I)
"""A call's result that says its work goes on in the background (Claude Code: "Async agent launched successfully.",
"Command running in background with ID: bash_1")."""
_BACKGROUND_ID = re.compile(r"\b(?:agent_?id|task_?id|shell_?id|bash_?id|with id)\W{0,3}([\w-]{3,64})", re.I)
_NOTICE_ID = re.compile(r"<(?:task|agent|shell)[-_]id>\s{0,3}([\w-]{3,64})\s{0,3}</", re.I)
_NOTICE_NAME = re.compile(r"<summary>[^<\n]{0,40}?[\"“]([^\"”\n]{3,120})[\"”]", re.I)
_ID_TOKEN = re.compile(r"[\w-]{3,64}")
_STILL_RUNNING = re.compile(r"<status>\s{0,3}(?:running|pending)|<retrieval_status>\s{0,3}(?:timeout|not_ready|pending)"
                            r"|\bstatus\W{0,3}running\b|\b(?:still|is) running\b|not (?:yet )?(?:finished|complete)",
                            re.I)
"""An output call's result that says the work is not done yet (it collects nothing)."""
_SERVES = re.compile(r"\b(?:serve|server|dev|watch|start|up|tail\s{1,3}-f|logs\s{1,3}-f|--watch)\b", re.I)
"""A command that runs until stopped (a dev server, a watcher): nothing to wait for."""
_BACKGROUND_TITLE_KEYS = ("description", "title", "name", "task")
_BACKGROUND_CHARS = 120


@dataclass(frozen=True)
class Background:
    """Work sent to the background that had not reported when the region ends: what it was sent to do (a
    sub-agent's description, a command), and whether it is a sub-agent's."""

    what: str
    agent: bool
    at: int = -1
    """Index (in the messages) of the launch's result."""


def awaited(messages: list[dict]) -> list[Background]:
    """The sub-agents and commands the agent ran in the background (the call's ``run_in_background``, or a result
    that says it goes on in the background) whose report never came: no notice names their id or their
    description (``<task-notification>``), no later call that names their id (``TaskOutput``, ``BashOutput``,
    ``KillShell``) got more than "still running". A command that serves until stopped is none. One pass over the
    messages; ids are looked up, not compared with each launch. A sub-agent whose call has no result yet when the
    region ends is still at work too, sent to the background or not."""
    calls: dict[str, tuple[str, bool, list[str]]] = {}
    running: dict[str, Background] = {}  # by the id the harness gave it (or the call's, when it gave none)
    for index, message in enumerate(messages):
        role = message.get("role")
        if role == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall" and isinstance(block.get("id"), str):
                    arguments = block.get("arguments") if isinstance(block.get("arguments"), dict) else {}
                    named = [token for value in arguments.values() if isinstance(value, str)
                             for token in _ID_TOKEN.findall(value[:2000]) if token in running]
                    calls[block["id"]] = (*_launch(str(block.get("name", "")), arguments), named, index)
        elif role == "toolResult":
            text = content_text(message.get("content"))[:2000]
            what, agent, named, _ = calls.pop(str(message.get("toolCallId")), ("", False, [], index))
            if not message.get("isError") and what and (_LAUNCHED.search(text) or what.startswith("\0")):
                found = _BACKGROUND_ID.search(text)
                key = found.group(1) if found else str(message.get("toolCallId"))
                running[key] = Background(what.lstrip("\0"), agent, index)
            elif not _STILL_RUNNING.search(text):
                for key in named:
                    running.pop(key, None)  # its output collected, or the work stopped
        elif role in ("user", "custom") and running:
            text = content_text(message.get("content"))[:4000]
            if text.lstrip().startswith("<"):
                for key in _NOTICE_ID.findall(text):
                    running.pop(key, None)
                named_in = _NOTICE_NAME.search(text)
                said = named_in.group(1).strip() if named_in else ""
                for key in [key for key, job in running.items() if said and job.what == said][:1]:
                    running.pop(key)
    # a sub-agent still at work when the region ends: its call has no result yet, whether sent to the background
    sent = [Background(what.lstrip("\0"), agent, at) for what, agent, _, at in calls.values()
            if what and (agent or what.startswith("\0"))]
    return list(running.values()) + sent


def _launch(name: str, arguments: dict) -> tuple[str, bool]:
    """What a call sends to the background and whether a sub-agent does it: ``("\\0" + what, …)`` when its
    arguments say so (``run_in_background``), ``(what, …)`` when only its result may (a sub-agent's launch), else
    ``("", False)``."""
    agent = any(key in arguments for key in ("subagent_type", "agent_type", "prompt"))
    command = arguments.get("command") if isinstance(arguments.get("command"), str) else ""
    title = next((arguments[k].strip() for k in _BACKGROUND_TITLE_KEYS if isinstance(arguments.get(k), str)
                  and arguments[k].strip()), "")
    what = title if agent or not command else f"`{' '.join(command.split())[:_BACKGROUND_CHARS]}`"
    if not what or (command and not agent and _SERVES.search(command[:400])):
        return "", False
    marked = arguments.get("run_in_background") is True or arguments.get("background") is True
    return ("\0" if marked else "") + what[:_BACKGROUND_CHARS], agent


__all__ = ["Background", "awaited", "BUILD", "FORMAT", "LINT", "SEARCH", "TEST", "TYPECHECK", "Job", "JobIndex", "covers", "form_key", "job_of",
           "jobs_of", "script_of", "script_words", "Selection",
           "selection"]
