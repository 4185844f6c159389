"""``pi-compact chat``: an interactive coding agent whose conversation is a pi session file.

Each line you type is a prompt (a trailing backslash continues it on the next line), a slash command
(``/help``), or a shell command (``!cmd``; ``!!cmd`` keeps it out of the model's context). Replies stream as
they arrive; a token bar after each turn shows how full the window is. Ctrl-C cancels the running reply, tool
or compaction and keeps what was written; Ctrl-D or ``/exit`` leaves. The session lives in pi's layout
(``~/.pi/agent/sessions/--cwd--/``), so ``pi --resume`` and ``pi-compact session show`` read it.

Everything runs in one thread, on purpose: a compaction runs to its end before the next line is read, so
nothing you type can race it. What you type meanwhile stays in the terminal's input buffer and becomes the
next line (input is queued, not lost), and tree navigation can only start once the compaction is done.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..errors import PiCompactError, UsageError
from .app import app

if TYPE_CHECKING:
    from ..compaction import CompactionSettings
    from ..session import Session

CHAT_SUMMARIZER = "model"
"""The ``--summarizer`` choice, besides the library's summarizers, that has the chat's own model write summaries."""
PROMPT = "> "
CONTINUATION = "… "


@app.command("chat")
def chat_command(
    provider: Annotated[Optional[str], typer.Option(help="anthropic or openai (default: the session's, else anthropic).")] = None,
    model: Annotated[Optional[str], typer.Option(help="Model id (default: the session's, else the provider's usual).")] = None,
    base_url: Annotated[Optional[str], typer.Option(help="API base URL, e.g. a local OpenAI-compatible server.")] = None,
    window: Annotated[Optional[int], typer.Option(min=1, metavar="TOKENS", help="Context window in tokens (default: the model's); the reserve and keep-recent defaults scale down to it.")] = None,
    reserve: Annotated[Optional[int], typer.Option(min=0, metavar="TOKENS", help="Tokens reserved for the answer (default: pi's 16,384, at most a quarter of the window).")] = None,
    keep_recent: Annotated[Optional[int], typer.Option(min=0, metavar="TOKENS", help="Tokens of recent conversation a compaction keeps verbatim (default: pi's 20,000, at most a quarter of the rest).")] = None,
    continue_: Annotated[bool, typer.Option("--continue", "-c", help="Continue the most recent session here.")] = False,
    resume: Annotated[Optional[str], typer.Option("--resume", "-r", help="Resume the session with this id (or id prefix).")] = None,
    session_file: Annotated[Optional[Path], typer.Option("--session", help="Use this session file (created if missing).")] = None,
    cwd: Annotated[Optional[Path], typer.Option(help="Working directory of the agent and its tools (default: a resumed session's own, else the current one).")] = None,
    summarizer: Annotated[Optional[str], typer.Option(help="Compaction summaries: model (the chat's, default), offline, anthropic or openai.")] = None,
    thinking: Annotated[Optional[str], typer.Option(help="Thinking level: off, minimal, low, medium, high, xhigh.")] = None,
    confine: Annotated[bool, typer.Option("--confine", help="The model's read/write/edit/ls/grep may only touch paths inside the working directory (bash is not confined).")] = False,
    confirm_bash: Annotated[bool, typer.Option("--confirm-bash", help="Ask y/N before each bash command the model runs.")] = False,
    summarizer_window: Annotated[Optional[int], typer.Option("--summarizer-window", min=1, metavar="TOKENS", help="The summarizer model's own context window (default: --window for the chat's model, else the model's).")] = None,
) -> None:
    """Chat with a coding agent (read, write, edit, bash, ls, grep, recall) in a pi session that compacts itself.

    Lines starting with / are commands (/help lists them), !cmd runs a shell command the model sees, !!cmd
    one it does not. Ctrl-C cancels what is running, Ctrl-D or /exit leaves. As in pi, the model's tools run
    unconfined and unconfirmed unless --confine and --confirm-bash say otherwise. A resumed session works in
    the directory it was recorded in (its tools, its AGENTS.md) unless --cwd says otherwise.
    """
    from ..agent import Agent, Toolbox
    from ..compaction import load_settings

    here = _workdir(cwd)
    session = _open_session(here, continue_, resume, session_file)
    workdir, moved = (here, None) if cwd is not None or len(session) == 0 else _session_workdir(session, here)
    settings = load_settings(workdir).replace(summarizer_window=summarizer_window)
    chosen = _provider_choice(provider, model, session)
    llm = _make_provider(*chosen, base_url)
    fit = window_fitter(settings, reserve=reserve, keep_recent=keep_recent)
    agent = Agent(session, llm, cwd=workdir, window=window, settings=settings, thinking_level=thinking,
                  summarizer=_summarizer(summarizer, settings, *chosen, base_url, window),
                  toolbox=Toolbox(workdir, confine=confine), speculate=True, recall=True, fit_settings=fit)
    _check_room(agent)
    repl = _Repl(agent, base_url, resumed=len(session) > 0, confirm_bash=confirm_bash, window_given=window is not None)
    if moved is not None:
        repl.view.line(moved, "yellow")
    repl.run()


MIN_CONVERSATION_TOKENS = 1000
"""The least room a window must leave for the conversation, past the reserve and the fixed part."""


def _check_room(agent) -> None:
    """Refuse a window that cannot hold the reserve, the system prompt and tools, and some conversation."""
    window, reserve = agent.current_window(), agent.settings.reserve_tokens
    if window <= reserve:
        raise UsageError(f"the window ({window:,}) must be larger than the reserve ({reserve:,}); "
                         "set a smaller --reserve or a larger --window")
    agent.context_size()  # sizes the fixed part: the system prompt with its rules files, and the tool schemas
    fixed = agent.preflight.fixed_tokens
    if window - reserve - fixed < MIN_CONVERSATION_TOKENS:
        raise UsageError(f"the window ({window:,}) leaves no room for the conversation: the reserve takes "
                         f"{reserve:,} tokens and the system prompt and tools {fixed:,}; use a larger --window")


def window_fitter(settings: CompactionSettings, *, reserve: int | None = None, keep_recent: int | None = None):
    """The chat's settings for a window: the reserve and the kept tail scaled down to it as ``session compact
    --window`` and ``replay`` scale them (:func:`~pi_compact.evaluation.replayer.settings_for_window`), then
    ``--reserve`` and ``--keep-recent`` as given. At pi's fixed 16,384 + 20,000 a 16k window could not start
    and a 30k one kept so much that every compaction had to drop messages instead of summarizing them."""
    from ..evaluation.replayer import settings_for_window

    def fit(window: int) -> CompactionSettings:
        return settings_for_window(window, settings).replace(reserve_tokens=reserve, keep_recent_tokens=keep_recent)

    return fit


def _workdir(cwd: Path | None) -> str:
    path = Path(cwd).expanduser() if cwd is not None else Path.cwd()
    if not path.is_dir():
        raise UsageError(f"--cwd {path}: not a directory")
    return os.path.abspath(path)


def _session_workdir(session: Session, here: str) -> tuple[str, str | None]:
    """Where a resumed session works: the directory it records (its tools ran there, its AGENTS.md is there),
    else, when that directory is gone, ``here`` and a one-line warning saying so."""
    recorded = session.cwd
    if not recorded or os.path.abspath(recorded) == here:
        return here, None
    if Path(recorded).is_dir():
        return os.path.abspath(recorded), None
    return here, f"warning: the session's directory {recorded} no longer exists; working in {here}"


def _open_session(workdir: str, continue_: bool, resume: str | None, session_file: Path | None) -> Session:
    from ..session import Session  # here, not at the top: `pi-compact --help` imports this module

    if continue_ + (resume is not None) + (session_file is not None) > 1:
        raise UsageError("use only one of --continue, --resume and --session")
    if session_file is not None:
        return Session.open(session_file) if session_file.exists() else Session.create_at(session_file, workdir)
    if resume is not None:
        return Session.open(_find_session(workdir, resume))
    if continue_:
        return Session.continue_recent(workdir)
    return Session.create(workdir)


def _find_session(workdir: str, ref: str) -> Path:
    """A session by id or id prefix, as every ``session`` command finds one: this project's first, then any."""
    from ..store.listing import find_session

    return find_session(ref, workdir)


def _provider_choice(provider: str | None, model: str | None, session: Session) -> tuple[str, str]:
    """The provider and model: the options, else the session's last model, else what the environment offers."""
    from ..agent.providers import DEFAULT_MODELS, PROVIDERS

    stored = session.build_context().model or {}
    if provider is None:
        if stored.get("provider") in PROVIDERS:
            provider = stored["provider"]
        elif not os.environ.get("ANTHROPIC_API_KEY") and (os.environ.get("OPENAI_API_KEY") or os.environ.get("OPENAI_BASE_URL")):
            provider = "openai"
        else:
            provider = "anthropic"
    if provider not in PROVIDERS:
        raise UsageError(f"unknown provider {provider!r}: use one of {', '.join(PROVIDERS)}")
    if model is None:
        same = stored.get("provider") == provider and isinstance(stored.get("modelId"), str)
        model = stored["modelId"] if same else DEFAULT_MODELS[provider]
    return provider, model


def _make_provider(name: str, model: str, base_url: str | None):
    from ..agent import make_provider

    return make_provider(name, model, base_url=base_url)


def _summarizer(choice: str | None, settings, provider: str, model: str, base_url: str | None,
                window: int | None = None):
    """Who writes compaction and branch summaries: by default the chat's own model, as in pi (with the chat's
    window unless a summarizer window is set)."""
    from ..llm import check_summarizer, check_summarizer_key, make_summarizer, summarizer_for
    from .compact_cmds import summarizer_origin

    flag = choice
    if choice is not None:
        check_summarizer(choice, also=(CHAT_SUMMARIZER,))
    if choice is None and settings.summarizer != "offline":
        choice = settings.summarizer
    if choice in (None, CHAT_SUMMARIZER):
        own_window = settings.summarizer_window or window or None
        return make_summarizer(provider, model=model, base_url=base_url, context_window=own_window)
    if choice == "offline":
        return make_summarizer("offline")
    check_summarizer_key(choice, origin=summarizer_origin(flag), base_url=settings.base_url)
    return summarizer_for(settings, choice)


class _Repl:
    """The read-eval loop: one line at a time, each handled to its end before the next is read."""

    _BAR_AFTER = ("compact", "tree", "checkout", "fork", "model")

    def __init__(self, agent, base_url: str | None, *, resumed: bool, confirm_bash: bool = False,
                 window_given: bool = False) -> None:
        from ..agent import Commands
        from .chat_view import ChatView
        from .render import stdout_console

        self.agent = agent
        self.resumed = resumed
        self.window_given = window_given
        self.view = ChatView(stdout_console(), ask=self._ask)
        self.agent.on_event = self.view.on_event
        if confirm_bash:
            self.agent.toolbox.confirm_bash = self.view.confirm_bash
        initial = agent.provider.name

        def provider_factory(name: str, model: str):
            return _make_provider(name, model, base_url if name == initial else None)

        self.commands = Commands(agent, self.view, provider_factory)
        self._editor_text: str | None = None
        from ..agent import COMMANDS
        from .chat_input import LineEditor

        self.editor = LineEditor([usage.split()[0] for usage, _ in COMMANDS] + ["/quit"])

    def run(self) -> None:
        self._banner()
        while True:
            line = self._read()
            if line is None:
                break
            try:
                if not self._handle(line):
                    break
            except KeyboardInterrupt:
                self.view.finish()
                self.view.line("Cancelled.", "yellow")
            except PiCompactError as exc:
                self.view.finish()
                self.view.line(str(exc), "bold red")
        self._goodbye()

    def _handle(self, line: str) -> bool:
        """Handle one line; False to leave."""
        text = line.strip()
        if not text:
            return True
        if text.startswith("!"):
            exclude = text.startswith("!!")
            command = text[2:] if exclude else text[1:]
            if command.strip():
                self.view.bash_result(self.agent.run_bash(command.strip(), exclude_from_context=exclude))
                self._bar()
            return True
        if self.commands.is_command(text):
            outcome = self.commands.run(text)
            self._editor_text = outcome.editor_text
            if outcome.editor_text:
                self.view.line("Your message is back in the input line: edit it and press Enter.", "dim")
            if text[1:].split(" ", 1)[0] in self._BAR_AFTER:
                self._bar()
            return not outcome.exit
        self.agent.prompt(line)
        self.view.finish()
        self._bar()
        return True

    def _bar(self) -> None:
        self.view.bar(self.agent.context_size(), self.agent.compactions())

    def _read(self) -> str | None:
        text, self._editor_text = self._editor_text, None
        self.editor.prefill(text)
        try:
            line = input(PROMPT)
            while line.endswith("\\"):  # a trailing backslash continues the prompt on the next line
                line = line[:-1] + "\n" + input(CONTINUATION)
            return line
        except EOFError:
            print()
            return None
        except KeyboardInterrupt:
            print()
            self.view.line("(Ctrl-D or /exit to leave)", "dim")
            return ""
        finally:
            self.editor.prefill(None)

    def _ask(self, question: str) -> str:
        try:
            return input(question)
        finally:
            self.editor.forget_last()

    def _banner(self) -> None:
        agent, session = self.agent, self.agent.session
        self.view.line(f"pi-compact chat · {agent.provider.name}/{agent.provider.model} · {self._window_words()} · "
                       f"thinking {agent.thinking_level}", "bold")
        state = "resumed" if self.resumed else "new"
        self.view.line(f"session {session.id} ({state}) · /help for commands · Ctrl-C cancels · Ctrl-D leaves", "dim")
        self.view.line(f"working in {agent.cwd}", "dim")
        guards = [text for on, text in ((agent.toolbox.confine, f"tools confined to {agent.cwd} (bash is not)"),
                                        (agent.toolbox.confirm_bash is not None, "bash asks first")) if on]
        self.view.line(" · ".join(guards) if guards else "tools run unconfined, bash without asking (as in pi)", "dim")
        size = agent.context_size()
        for rules in agent.rules:
            self.view.line(f"rules: {rules.path}", "dim")
        if self.resumed:
            messages = session.build_context().messages
            self.view.line(f"{len(messages)} messages on this branch", "dim")
            self.view.recap(messages)
            self.view.bar(size, agent.compactions())

    def _window_words(self) -> str:
        """``window 200,000 tokens``; a model whose window is not known is said to have an assumed one."""
        from ..agent.providers import known_window

        window = self.agent.current_window()
        if self.window_given or known_window(self.agent.provider.model) is not None:
            return f"window {window:,} tokens"
        return f"window {window:,} (assumed; set --window)"

    def _goodbye(self) -> None:
        self.view.finish()
        self.editor.save()
        path = self.agent.session.path
        if path is not None and path.exists():
            self.view.line(f"Session saved: {path}", "dim")
        else:
            self.view.line("Nothing was written.", "dim")
        self.agent.session.close()


__all__ = ["chat_command", "window_fitter"]
