"""Slash commands of the chat, independent of the terminal: they act on an :class:`Agent` and its session.

A command shows its results through a :class:`CommandUI` (``show`` a :class:`Reply`, ``ask`` a question)
and returns a :class:`CommandOutcome` (leave the chat, or put text back in the input line). The terminal
decides how each reply looks; tests drive the same code with a scripted UI.

Tree navigation (``/tree``, ``/checkout``) holds the session's compaction lock while it moves, so it never
runs while a compaction of the same session (in another process) is writing, and a branch summary never
lands on the wrong branch. Inside one chat a compaction runs to its end before the next command is read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..accessors import content_text, entry_role
from ..compaction.compactor import compaction_lock_path
from ..convert import prepare_messages
from ..errors import PiCompactError, UsageError
from ..session import Session
from ..store.locks import try_exclusive
from .loop import Agent, ContextSize
from .prompt import RulesFile
from .providers import PROVIDERS, THINKING_LEVELS, Provider

COMMANDS: tuple[tuple[str, str], ...] = (
    ("/compact [instructions]", "Compact the conversation now (optional focus for the summary)"),
    ("/tree", "Show the session tree and go to another entry (offers a summary of the branch left)"),
    ("/checkout ID", "Go to an entry (id, id prefix, label or root), summarizing the branch left"),
    ("/label ID [TEXT]", "Label an entry (no text: clear the label)"),
    ("/name [TEXT]", "Name the session (no text: show the name)"),
    ("/fork [ID]", "Continue in a new session file holding the path to ID (default: here)"),
    ("/model [PROVIDER/MODEL]", "Switch model, e.g. /model anthropic/claude-sonnet-4-6"),
    ("/thinking [LEVEL]", f"Set the thinking level: {', '.join(THINKING_LEVELS)}"),
    ("/stats", "Tokens in and out, cost, compactions, entries"),
    ("/context", "What the model sees now, and its size"),
    ("/help", "This list"),
    ("/exit", "Leave (Ctrl-D works too)"),
)
_COMMAND = re.compile(r"^/([a-z][a-z-]*)(?:\s+(.*))?$", re.S)
NAVIGATION_BUSY = "A compaction of this session is running; tree navigation waits until it ends. Try again shortly."


@dataclass(frozen=True)
class Reply:
    """One thing to show. ``kind``: ``info``, ``warning``, ``error``, ``tree`` (``data``: the session),
    ``context`` (:class:`ContextView`), ``stats`` (:class:`Stats`), ``help`` (the command table),
    ``compaction`` (a ``CompactionResult``) or ``checkout`` (a ``CheckoutResult``)."""

    kind: str
    text: str = ""
    data: Any = None


@dataclass(frozen=True)
class CommandOutcome:
    exit: bool = False
    editor_text: str | None = None
    """Text to put back in the input line (pi does this when you go back to one of your own messages)."""


class CommandUI(Protocol):
    def show(self, reply: Reply) -> None: ...

    def ask(self, question: str) -> str | None:
        """The user's answer; ``None`` when they cancelled (Ctrl-C, Ctrl-D)."""
        ...

    # Optional: ``pick_entry(session) -> str | None``, an interactive tree selector for ``/tree``; it returns the
    # chosen reference ("" to stay), or ``None`` when it cannot run (no terminal) and the tree is asked for.


@dataclass(frozen=True)
class ContextView:
    """What ``/context`` shows: the messages the provider will get and what the request weighs."""

    messages: list[dict]
    """After pi's ``convertToLlm`` and tool-pair repair: exactly what is converted for the provider."""
    system_tokens: int
    fixed_tokens: int
    rules: list[RulesFile]
    size: ContextSize
    model: str
    thinking_level: str


@dataclass(frozen=True)
class Stats:
    session_id: str
    path: str | None
    name: str | None
    entries: int
    roles: dict[str, int]
    tool_calls: int
    input_tokens: int
    output_tokens: int
    cache_read: int
    cache_write: int
    cost: float | None
    """US dollars, ``None`` when no reply had a known price."""
    compactions: int
    branch_summaries: int
    size: ContextSize


@dataclass
class Commands:
    """Runs slash commands against an agent. ``provider_factory(name, model)`` builds the ``/model`` choice."""

    agent: Agent
    ui: CommandUI
    provider_factory: Callable[[str, str], Provider]
    on_session_change: Callable[[Session], None] | None = None
    _table: dict[str, Callable[[str], CommandOutcome | None]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._table = {
            "compact": self._compact, "tree": self._tree, "checkout": self._checkout, "label": self._label,
            "name": self._name, "fork": self._fork, "model": self._model, "thinking": self._thinking,
            "stats": self._stats, "context": self._context, "help": self._help, "exit": self._exit,
            "quit": self._exit,
        }

    @staticmethod
    def is_command(line: str) -> bool:
        """``/word …`` is a command; a line starting with a path (``/usr/bin/x fails``) is a prompt."""
        return _COMMAND.match(line.strip()) is not None

    def run(self, line: str) -> CommandOutcome:
        match = _COMMAND.match(line.strip())
        if match is None:
            raise UsageError(f"not a command: {line!r}")
        name, rest = match.group(1), (match.group(2) or "").strip()
        handler = self._table.get(name)
        if handler is None:
            self.ui.show(Reply("error", f"Unknown command /{name}. Type /help for the list of commands."))
            return CommandOutcome()
        try:
            return handler(rest) or CommandOutcome()
        except PiCompactError as exc:
            self.ui.show(Reply("error", str(exc)))
            return CommandOutcome()

    @property
    def session(self) -> Session:
        return self.agent.session

    # -- compaction and the tree ------------------------------------------------------------------------------

    def _compact(self, rest: str) -> None:
        result = self.agent.compact(rest or None)
        self.ui.show(Reply("compaction", data=result))

    def _tree(self, rest: str) -> CommandOutcome | None:
        pick = getattr(self.ui, "pick_entry", None)  # a terminal UI's selector (the arrow keys, as pi's)
        answer = pick(self.session) if pick is not None else None
        if answer is None:
            self.ui.show(Reply("tree", data=self.session))
            answer = self.ui.ask("Go to which entry? (id, id prefix, label or root; Enter to stay) ")
        if not answer or not answer.strip():
            return None
        return self._navigate(answer.strip(), ask=True)

    def _checkout(self, rest: str) -> CommandOutcome | None:
        if not rest:
            raise UsageError("usage: /checkout ID (an id, id prefix, label or root)")
        return self._navigate(rest, ask=False)

    def _navigate(self, ref: str, *, ask: bool) -> CommandOutcome | None:
        from ..branching import checkout, collect_abandoned

        self.session.refresh()
        target = self.session.resolve(ref)
        position, editor_text = _landing(self.session, target)
        if position == self.session.leaf_id:
            self.ui.show(Reply("info", "Already there."))
            return CommandOutcome(editor_text=editor_text)
        abandoned = collect_abandoned(self.session, self.session.leaf_id, position)
        summarize, instructions = True, None
        if ask and any(e.get("type") == "message" for e in abandoned):
            summarize, instructions = self._ask_summary()
            if summarize is None:
                return None
        with _navigation_lock(self.session):
            self.agent.begin()
            result = checkout(self.session, position, summarize=bool(summarize), instructions=instructions,
                              summarizer=self.agent.summarizer, settings=self.agent.settings,
                              persist_position=True)
        self.ui.show(Reply("checkout", data=result))
        return CommandOutcome(editor_text=editor_text)

    def _ask_summary(self) -> tuple[bool | None, str | None]:
        answer = self.ui.ask("Summarize the branch you leave? [Y]es / [n]o / [i]nstructions first ")
        if answer is None:
            return None, None
        choice = answer.strip().lower()[:1]
        if choice == "n":
            return False, None
        if choice == "i":
            focus = self.ui.ask("Focus of the summary: ")
            return (None, None) if focus is None else (True, focus.strip() or None)
        return True, None

    # -- naming and labels -------------------------------------------------------------------------------------

    def _label(self, rest: str) -> None:
        if not rest:
            raise UsageError("usage: /label ID [TEXT] (no text clears the label)")
        ref, _, text = rest.partition(" ")
        target = self.session.resolve(ref)
        if target is None:
            raise UsageError("root cannot carry a label")
        self.agent.begin()
        self.session.append_label(target, text.strip() or None)
        shown = f"Labelled {target} “{text.strip()}”." if text.strip() else f"Cleared the label of {target}."
        self.ui.show(Reply("info", shown))

    def _name(self, rest: str) -> None:
        if not rest:
            self.ui.show(Reply("info", f"Session name: {self.session.name}" if self.session.name else "No name yet."))
            return
        self.agent.begin()
        self.session.append_session_info(rest)
        self.ui.show(Reply("info", f"Session named “{self.session.name}”."))

    def _fork(self, rest: str) -> CommandOutcome | None:
        target = self.session.resolve(rest) if rest else self.session.leaf_id
        position, editor_text = _landing(self.session, target) if rest else (target, None)
        if position is None:
            raise UsageError("nothing to fork: there is no entry before that point")
        self.agent.begin()
        forked = self.session.fork(position)
        self.session.close()
        self.agent.session = forked
        if self.on_session_change is not None:
            self.on_session_change(forked)
        self.ui.show(Reply("info", f"Forked into a new session: {forked.path}"))
        return CommandOutcome(editor_text=editor_text)

    # -- model and thinking ---------------------------------------------------------------------------------

    def _model(self, rest: str) -> None:
        current = f"{self.agent.provider.name}/{self.agent.provider.model}"
        if not rest:
            self.ui.show(Reply("info", f"Model: {current} (window {self.agent.current_window():,} tokens)"))
            return
        name, _, model = rest.partition("/")
        if name not in PROVIDERS or not model:
            raise UsageError(f"usage: /model PROVIDER/MODEL, PROVIDER one of {', '.join(PROVIDERS)}")
        self.agent.set_provider(self.provider_factory(name, model))
        window = self.agent.current_window()
        self.ui.show(Reply("info", f"Model: {name}/{model} (window {window:,} tokens)"))

    def _thinking(self, rest: str) -> None:
        if not rest:
            self.ui.show(Reply("info", f"Thinking level: {self.agent.thinking_level} "
                                       f"(one of {', '.join(THINKING_LEVELS)})"))
            return
        changed = self.agent.set_thinking_level(rest.strip())
        self.ui.show(Reply("info", f"Thinking level: {rest.strip()}" + ("" if changed else " (unchanged)")))

    # -- reports --------------------------------------------------------------------------------------------

    def _stats(self, rest: str) -> None:
        self.ui.show(Reply("stats", data=stats_of(self.agent)))

    def _context(self, rest: str) -> None:
        request = self.agent.request()
        size = self.agent.context_size()
        from ..compaction.tokens import text_tokens

        view = ContextView(prepare_messages(request.messages), text_tokens(request.system),
                           self.agent.preflight.fixed_tokens, list(self.agent.rules), size,
                           f"{self.agent.provider.name}/{self.agent.provider.model}", request.thinking_level)
        self.ui.show(Reply("context", data=view))

    def _help(self, rest: str) -> None:
        self.ui.show(Reply("help", data=COMMANDS))

    def _exit(self, rest: str) -> CommandOutcome:
        return CommandOutcome(exit=True)


def _landing(session: Session, target: str | None) -> tuple[str | None, str | None]:
    """Where pi's ``/tree`` lands for a target: on one of your own messages, just before it, with its text
    back in the input line (to edit and send again); anywhere else, on the target itself."""
    entry = session.get(target)
    if entry is None:
        return target, None
    if entry_role(entry) == "user":
        return entry.get("parentId"), content_text(entry["message"].get("content"))
    if entry.get("type") == "custom_message":
        return entry.get("parentId"), content_text(entry.get("content"))
    return target, None


@contextmanager
def _navigation_lock(session: Session) -> Iterator[None]:
    """The session's compaction lock, held while moving; refused at once when a compaction holds it."""
    path = compaction_lock_path(session)
    if path is None or not path.parent.is_dir():
        yield
        return
    with try_exclusive(path) as acquired:
        if not acquired:
            raise UsageError(NAVIGATION_BUSY)
        yield


def stats_of(agent: Agent) -> Stats:
    """Totals over the whole session file (every branch): what was spent, and what the file holds."""
    entries = agent.session.entries()
    roles: Counter[str] = Counter()
    sums = Counter[str]()
    priced, cost, calls = False, 0.0, 0
    for entry in entries:
        message = entry.get("message") if entry.get("type") == "message" else None
        if not isinstance(message, dict):
            continue
        roles[str(message.get("role"))] += 1
        if message.get("role") != "assistant":
            continue
        calls += sum(1 for b in message.get("content") or [] if isinstance(b, dict) and b.get("type") == "toolCall")
        usage = message.get("usage") if isinstance(message.get("usage"), dict) else {}
        for key in ("input", "output", "cacheRead", "cacheWrite"):
            value = usage.get(key)
            sums[key] += value if isinstance(value, (int, float)) else 0
        total = (usage.get("cost") or {}).get("total") if isinstance(usage.get("cost"), dict) else None
        if isinstance(total, (int, float)) and total > 0:
            priced, cost = True, cost + total
    kinds = Counter(str(e.get("type")) for e in entries)
    return Stats(agent.session.id, str(agent.session.path) if agent.session.path else None, agent.session.name,
                 len(entries), dict(roles), calls, int(sums["input"]), int(sums["output"]), int(sums["cacheRead"]),
                 int(sums["cacheWrite"]), cost if priced else None, kinds["compaction"], kinds["branch_summary"],
                 agent.context_size())


__all__ = ["COMMANDS", "CommandOutcome", "CommandUI", "Commands", "ContextView", "Reply", "Stats", "stats_of"]
