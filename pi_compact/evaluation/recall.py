"""What of a region a continuing agent needs, and how much of it a summary holds (the scorer's *recall*).

Precision asks whether what a summary says is true; a summary that says little is rarely wrong, so precision
alone ranks a short summary above one that holds twice the facts. This module lists what the region shows a
continuing agent must know — the user's requests (the latest above all), the files changed, the failures still
open, the agent's last words (where the work stood, what it meant to do next), the commits made — each with the
words of the region that identify it (paths, identifiers, numbers, rare words), and measures how many of those
keys the summary holds, weighted by importance.

It reads the region as :class:`~.quality.RegionIndex` lists it and nothing of the summarizers it grades:
reusing their extraction would make the scorer agree with them by construction. Keys are matched tolerantly:
case-insensitive, a path by any of its tails down to its basename, a word by its first five letters (plural,
tense). A region that grows (a replay) keeps its needs incrementally; only the latest
:data:`RECENT_REQUESTS` requests and :data:`RECENT_FILES` changed files are weighed, so each score costs the
same however long the session has run.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .faults import CHANGING_TOOLS

_STEM = 5
_WORD = re.compile(r"[^\W\d_]{5,}", re.UNICODE)
_LONG_WORD = re.compile(r"[^\W\d_]{6,}", re.UNICODE)
"""A word that may identify a request (shorter ones are too common to tell one request from another)."""
_TOKEN = re.compile(r"[\w][\w./\\:@#$+-]*", re.UNICODE)
_SALIENT = re.compile(r"[/\\]|\w\.\w|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]|_")
_NUMBER = re.compile(r"\d{2,}")
_MEASURE = re.compile(r"\d+(?:\.\d+)?(?:ms|s|m|h|[kmg]i?b|x|%)", re.I)
"""A duration or a size (``0.46s``, ``12ms``, ``3.2MB``): it changes every run and identifies nothing."""
_CD = re.compile(r"^cd [^&;|\n]{1,300}&&\s*")
"""The directory a command runs in: where, not what."""
_MESSAGE_FLAG = re.compile(r"\s-\w{0,3}m\s*[\"']")
_COMMON = frozenset("""about above after again against because before being below between cannot could doing
    during every further having other should their there these those through under until where which while
    would yours please thanks think thing things maybe really something right going actually there's let's
    could check sure great perfect first second another already instead still using works working change changes
    changed update updated create created added remove removed again make file files code look looks looking
    possible without within currently called would should everything anything nothing""".split())
RECENT_REQUESTS = 8
"""The requests weighed: the latest is worth :data:`LATEST_WEIGHT`, each older one less."""
RECENT_FILES = 24
FILES_WEIGHT = 2.0
"""What the changed files weigh together."""
LATEST_WEIGHT = 3.0
GOAL_WEIGHT = 1.5
RECENT_PLAN = 20
OPEN_PLAN_WEIGHT = 2.0
"""An unfinished item of the agent's own task list: the next steps it set itself."""
RECENT_REMARKS = 32
REMARK_WEIGHT = 1.0
KEYS_PER_NEED = 8
WORD_KEYS = 3
"""At most this many of a need's keys are plain words (the rest are paths and identifiers, which a summary
cannot paraphrase)."""
CARRIED_LINES = 40
"""The lines of an earlier summary weighed (its last: the latest state)."""
CARRIED_WEIGHT = 4.0
"""What an earlier summary's facts weigh together (its lines share it)."""


@dataclass(frozen=True)
class Need:
    """One thing the region shows a continuing agent needs, and the words that identify it."""

    kind: str
    """``latest request``, ``request``, ``latest outcome`` (the agent's last words), ``outcome`` (its last
    words on an earlier request), ``remark`` (its words before them), ``decision`` (the user's answer to its
    question), ``plan item`` / ``plan item done`` (its own task list), ``last action`` (what its last calls
    worked on), ``open error``, ``carried`` (a fact of an earlier summary), ``changed file`` or ``commit``."""
    keys: tuple[str, ...]
    weight: float


@dataclass(frozen=True)
class Recall:
    """How much of the region's needs a summary holds."""

    value: float | None
    """Weighted share of the needs' keys found (``None``: the region shows nothing to need)."""
    missing: tuple[str, ...] = ()
    """``kind: key, key`` of each need the summary holds less than half of, most important first."""


class NeedIndex:
    """The needs of a region that grows: fed each of :class:`~.quality.RegionIndex`'s items in turn."""

    def __init__(self) -> None:
        self._turns: deque[list[str]] = deque(maxlen=RECENT_REQUESTS)
        self._first_kept = True
        """The region's first request is still among :attr:`_turns`."""
        """Per request: the request, and the agent's last words after it (its outcome)."""
        self._files: dict[str, None] = {}
        self._commits: deque[str] = deque(maxlen=RECENT_REQUESTS)
        self._frequency: Counter[str] = Counter()
        """Per word stem, how many items of the region hold it: a word said everywhere identifies nothing."""
        self._items = 0
        self._carried: list[str] = []
        self._answers: deque[str] = deque(maxlen=RECENT_REQUESTS)
        """The user's answers to the agent's questions (a question tool's results): decisions."""
        self._remarks: deque[str] = deque(maxlen=RECENT_REMARKS)
        """The agent's texts before its last words: what it found and settled on the way."""
        self._plan = _Plan()
        self._actions: deque[str] = deque(maxlen=3)
        """What the agent's last calls worked on: where the work stood at the cut."""

    def add(self, said: Any) -> None:
        self._items += 1
        if said.role in ("user", "assistant"):
            self._frequency.update({w[:_STEM] for w in _WORD.findall(said.text.lower())})
            self._add_text(said)
        elif said.role == "call" and isinstance(said.arguments, dict):
            self._plan.add(said.arguments)
        elif said.role == "command":
            message = _commit_message(said.text)
            if message:
                self._commits.append(message)
        elif said.role == "result":
            self._add_result(said)

    def _add_text(self, said: Any) -> None:
        words = said.own if said.role == "user" else ""  # pasted material is no request (:mod:`.userwords`)
        if words:
            self._first_kept = self._first_kept and len(self._turns) < RECENT_REQUESTS
            self._turns.append([words, ""])
            self._actions.clear()  # where the work stands is what was done since the latest request
        elif said.role == "assistant" and said.text.strip():
            if not self._turns:
                self._turns.append(["", ""])
            if self._turns[-1][1]:
                self._remarks.append(self._turns[-1][1])  # no longer the turn's last words: a remark on the way
            self._turns[-1][1] = said.text

    def _add_result(self, said: Any) -> None:
        tool, _, target = said.target.partition(":")
        if _asks_user(tool) and said.text.strip():
            self._answers.append(said.text)
        if said.failed or not target:
            return
        # what the last calls that worked were on (a failed look the agent moved past is nowhere it stands)
        self._actions.append(_CD.sub("", target))
        if said.target.lower().startswith(CHANGING_TOOLS) and target.strip():
            self._files.pop(target.strip(), None)
            self._files[target.strip()] = None
            if len(self._files) > RECENT_FILES:
                self._files.pop(next(iter(self._files)))

    def add_summary(self, summary: str) -> None:
        """An earlier summary inside the region: each of its lines naming paths or identifiers is a fact to
        carry on (the latest summary replaces the ones before it)."""
        lines = [line for line in summary.splitlines()[:2000] if _salient(line)]
        self._carried = lines[-CARRIED_LINES:]

    def needs(self, open_errors: Iterable[str] = ()) -> tuple[Need, ...]:
        found: list[Need] = []
        for age, (request, outcome) in enumerate(reversed(self._turns)):
            weight = LATEST_WEIGHT / (1 + age)
            if age == len(self._turns) - 1 and self._first_kept:
                weight = max(weight, GOAL_WEIGHT)  # the first request is the region's goal unless replaced
            # the agent's very last words are often the step under way narrated ("Let me check the config"):
            # they weigh as a remark; what the user asked weighs most
            outcome_weight = REMARK_WEIGHT if age == 0 else weight
            for kind, text, worth in (("request", request, weight), ("outcome", outcome, outcome_weight)):
                keys = self._keys(text)
                if keys:
                    found.append(Need(f"latest {kind}" if age == 0 else kind, keys, worth))
        for text, finished in self._plan.items():
            keys = self._keys(text, limit=4)
            if keys:
                found.append(Need("plan item done" if finished else "plan item", keys,
                                  REMARK_WEIGHT if finished else OPEN_PLAN_WEIGHT))
        for remark in self._remarks:
            keys = self._keys(remark, limit=4)
            if keys:
                found.append(Need("remark", keys, REMARK_WEIGHT))
        for answer in self._answers:
            keys = self._keys(answer, limit=4)
            if keys:
                found.append(Need("decision", keys, 1.5))
        for action in self._actions:
            keys = tuple(dict.fromkeys(_basename(t) for t in _salient(action) if _basename(t)))[:3]
            if keys:
                found.append(Need("last action", keys, 1.0))
        for error in open_errors:
            keys = self._keys(error, limit=4)
            if keys:
                found.append(Need("open error", keys, 2.0))
        for line in self._carried:
            keys = tuple(dict.fromkeys(_basename(t) for t in _salient(line) if _basename(t)))[:3]
            if keys:
                found.append(Need("carried", keys, CARRIED_WEIGHT / len(self._carried)))
        names = [_basename(f) for f in self._files if _basename(f)]
        # the files share one weight: two dozen edited files must not outweigh the request that edited them
        found.extend(Need("changed file", (name,), FILES_WEIGHT / len(names)) for name in names)
        for message in self._commits:
            keys = self._keys(message, limit=4)
            if keys:
                found.append(Need("commit", keys, 0.8))
        return tuple(found)

    def _keys(self, text: str, limit: int = KEYS_PER_NEED) -> tuple[str, ...]:
        """The words of ``text`` that identify it: its salient tokens first (paths by basename), then its
        rarest content words in the region."""
        salient = list(dict.fromkeys(k for k in (_basename(t) for t in _salient(text)) if k))
        words = {w[:_STEM]: w for w in _LONG_WORD.findall(text.lower()) if w not in _COMMON}
        rare = sorted(words, key=lambda stem: (self._frequency[stem], stem))
        room = max(WORD_KEYS, limit - len(salient))
        keys = salient[: max(limit // 2, limit - min(WORD_KEYS, len(rare)))]
        keys += [words[stem] for stem in rare if self._frequency[stem] <= max(3, self._items // 3)][:room]
        return tuple(dict.fromkeys(keys))[:limit]


class _Plan:
    """The agent's own task list, from its plan tool's calls whatever the agent: a whole list with a status per
    item (Claude Code's ``TodoWrite``, Codex's ``update_plan``), or tasks created one by one and updated by
    number (``TaskCreate`` / ``TaskUpdate``)."""

    def __init__(self) -> None:
        self._tasks: dict[str, list[str]] = {}
        """Task number (or position in the latest list) → [text, status]."""

    def add(self, arguments: dict) -> None:
        listed = next((v for v in arguments.values() if isinstance(v, list) and v
                       and all(isinstance(i, dict) and "status" in i for i in v)), None)
        if listed is not None:  # the whole list again: it replaces the last one
            self._tasks = {str(n): [_plan_text(i), str(i.get("status"))] for n, i in enumerate(listed, 1)}
        elif isinstance(arguments.get("subject"), str):
            self._tasks[str(len(self._tasks) + 1)] = [_plan_text(arguments), "pending"]
        elif "taskId" in arguments and str(arguments["taskId"]) in self._tasks and "status" in arguments:
            self._tasks[str(arguments["taskId"])][1] = str(arguments["status"])

    def items(self) -> list[tuple[str, bool]]:
        """Each task's text and whether it is finished, the last :data:`RECENT_PLAN` of them."""
        return [(text, status in _FINISHED) for text, status in list(self._tasks.values())[-RECENT_PLAN:]
                if status != "deleted"]


_FINISHED = frozenset({"completed", "complete", "done", "finished"})


def _plan_text(item: dict) -> str:
    return " ".join(v for k, v in item.items() if k in ("content", "step", "subject", "title", "description")
                    and isinstance(v, str))


def _asks_user(tool: str) -> bool:
    """A tool that asks the user (Claude Code's ``AskUserQuestion``, an MCP ``ask_user``): its result is the user's
    answer."""
    name = tool.lower()
    return "question" in name or ("ask" in name and "user" in name)


def _commit_message(command: str) -> str:
    """The first line of a ``git commit -m`` message, inline or in a here-document."""
    git = command.find("git ")
    at = command.find("commit", git) if git >= 0 else -1
    flag = _MESSAGE_FLAG.search(command, at) if at >= 0 else None
    if flag is None:
        return ""
    rest = command[flag.end():flag.end() + 600]
    if rest.startswith("$(cat"):
        rest = rest.partition("\n")[2]
    return rest.split("\n", 1)[0].strip("\"' ")


@lru_cache(maxsize=4096)
def _salient(text: str) -> tuple[str, ...]:
    """The paths, identifiers and numbers of ``text`` (asked again for the same texts at every compaction of a
    replay, hence remembered)."""
    tokens = []
    for found in _TOKEN.findall(text[:4000]):
        if found.startswith("http"):
            continue
        for token in found.split("::"):  # a test id (``tests/test_x.py::test_name``) names a file and a test
            token = token.rstrip(".,:;-+()")
            if len(token) >= 3 and (_SALIENT.search(token) or _NUMBER.fullmatch(token)) and not _MEASURE.fullmatch(token):
                tokens.append(token)
    return tuple(tokens)


def _basename(token: str) -> str:
    name = re.split(r"[/\\]", token.rstrip("/\\"))[-1]
    return name if len(name) >= 3 else ""


class _Summary:
    """A summary's text, lowered, and its word stems, for key questions."""

    def __init__(self, summary: str) -> None:
        self.lowered = summary.lower()
        self.stems = {w[:_STEM] for w in _WORD.findall(self.lowered)}

    def holds(self, key: str) -> bool:
        key = key.lower()
        if _WORD.fullmatch(key):
            return key[:_STEM] in self.stems
        return key in self.lowered


def recall(needs: Iterable[Need], summary: str) -> Recall:
    """The weighted share of the needs' keys ``summary`` holds; see the module docstring."""
    held = _Summary(summary)
    total = weight = 0.0
    missing: list[tuple[float, str]] = []
    for need in needs:
        share = sum(held.holds(k) for k in need.keys) / len(need.keys)
        total += need.weight * share
        weight += need.weight
        if share < 0.5:
            missing.append((need.weight, f"{need.kind}: {', '.join(need.keys)}"))
    if not weight:
        return Recall(None)
    return Recall(total / weight, tuple(text for _, text in sorted(missing, key=lambda m: -m[0])))


__all__ = ["LATEST_WEIGHT", "KEYS_PER_NEED", "Need", "NeedIndex", "RECENT_FILES", "RECENT_REQUESTS", "Recall",
           "recall"]
