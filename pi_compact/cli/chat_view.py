"""How ``pi-compact chat`` draws on the terminal: streamed replies, tool runs, compaction status, token bar.

:class:`ChatView` receives the agent's events and the slash commands' replies and prints them with rich.
Everything the model, a tool or the session file says is untrusted and reaches the terminal only through
:func:`~pi_compact.cli.render.visible`, as plain :class:`~rich.text.Text` (never markup).
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.markdown import Markdown
from rich.segment import Segment, Segments
from rich.panel import Panel
from rich.text import Text

from ..agent import AgentEvent, ContextSize, Reply
from ..compaction.tokens import estimate_tokens
from . import render
from .plain import counted
from .render import one_line, visible

BAR_CELLS = 30
THINKING_STYLE = "dim italic"
CODE_THEME = "ansi_dark"
"""Code blocks in answers use the terminal's own colours."""
RESULT_LINES = 8
DIFF_LINES = 24
_LEVEL_STYLES = {"info": "cyan", "warning": "yellow", "error": "bold red"}
_SPECULATION_WORDS = {"summarizing": "summarizing…", "ready": "summary ready"}
_ROLE_STYLES = {"user": "bold cyan", "assistant": "bold green", "toolResult": "blue"}
RECAP_MESSAGES = 4
"""Messages shown when a session is resumed."""
_RECAP_LABELS = {"user": "you", "toolResult": "tool", "compactionSummary": "summary", "branchSummary": "branch",
                 "bashExecution": "shell"}


def bar_colour(size: ContextSize) -> str:
    """Green under the compaction threshold, orange past it, red past 90% of the window."""
    if size.fraction > 0.9:
        return "red"
    return "dark_orange" if size.tokens > size.threshold else "green"


def token_bar(size: ContextSize, compactions: int, cells: int = BAR_CELLS) -> Text:
    """``[━━━━━━━━━━━━━━━━━━━━━━━━━━━┃━━]  12,345 / 200,000 tokens (6%) · compact at 183,616 · 0 compactions``."""
    filled = min(cells, round(size.fraction * cells))
    mark = min(cells - 1, max(0, round(size.threshold / size.window * cells))) if size.window else cells
    colour = bar_colour(size)
    bar = Text("[")
    for start, end, style in ((0, min(filled, mark), colour), (min(filled, mark), mark, "grey30")):
        bar.append("━" * (end - start), style=style)
    if mark < cells:
        bar.append("┃", style="bold white")
        after = max(filled - mark - 1, 0)
        bar.append("━" * after, style=colour)
        bar.append("━" * (cells - mark - 1 - after), style="grey30")
    bar.append("]  ")
    percent = f"{size.fraction:.0%}" if size.window else "?"
    bar.append(f"{size.tokens:,} / {size.window:,} tokens ({percent})", style=colour)
    approx = "" if size.measured else " est."
    plural = "" if compactions == 1 else "s"
    bar.append(f"{approx} · compact at {size.threshold:,} · {compactions} compaction{plural}", style="dim")
    if size.speculation:
        bar.append(" · " + _SPECULATION_WORDS.get(size.speculation, size.speculation), style="cyan")
    return bar


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.M)


def complete_blocks(text: str) -> tuple[str, str]:
    """``text`` split after its last complete Markdown block (a blank line outside a code fence): what can be
    drawn now, and what must wait for more. Linear in ``text``: each fence and blank line is looked at once."""
    cut, open_fence = 0, None
    fences = [(m.start(), m.group(1)[0]) for m in _FENCE.finditer(text)]
    position = 0
    for start, mark in fences + [(len(text), None)]:
        if open_fence is None:
            blank = text.rfind("\n\n", position, start)
            if blank >= 0:
                cut = blank + 2
        if mark is None:
            break
        if open_fence is None:
            open_fence = mark
        elif mark == open_fence:
            open_fence = None
            end = text.find("\n", start)
            if end >= 0 and text.startswith("\n", end + 1):
                cut = end + 2
        position = start
    return text[:cut], text[cut:]


def compaction_outcome(result) -> str:
    """What a compaction did to the conversation, losses first: ``truncate: 6 messages dropped (summarizer
    failed: …)``, ``summarize: 14 messages summarized``. A loss the entry records is never left off the screen."""
    if result.messages_dropped:
        done = f"{_count(result.messages_dropped, 'message')} dropped"
    else:
        done = f"{_count(result.messages_summarized, 'message')} summarized"
    why = ""
    if result.fallback_reason:
        why = f" (summarizer failed: {result.fallback_reason})"
    elif result.messages_dropped:
        why = " (the summary and the kept messages did not fit otherwise)"
    return f"{result.strategy}: {done}{why}"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


class ChatView:
    """Draws one chat; also the :class:`~pi_compact.agent.CommandUI` the slash commands talk to."""

    def __init__(self, console: Console, ask=input) -> None:
        self.console = console
        self._input = ask
        self._status = None
        self._stream_kind: str | None = None
        self._answer = ""
        self._blocks = 0
        """Blocks of the current answer drawn so far."""

    # -- agent events ------------------------------------------------------------------------------------------

    def on_event(self, event: AgentEvent) -> None:
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is not None:
            handler(event)

    def _on_request(self, event: AgentEvent) -> None:
        self._end_stream()
        self._spin("Waiting for the model…")

    def _on_text(self, event: AgentEvent) -> None:
        """Answers are Markdown: each block is drawn (wrapped at words) once it is complete, the rest at the end."""
        if self._stream_kind != "text":
            self._end_stream()
            self._stream_kind, self._answer, self._blocks = "text", "", 0
        self._answer += event.text
        # a block ends only at a line break: other deltas need no look (a long code block stays linear)
        done, self._answer = complete_blocks(self._answer) if "\n" in event.text else ("", self._answer)
        if done:
            self._stop_spin()
            self._markdown(done)
        if self._answer:
            self._spin("Writing…")

    def _on_thinking(self, event: AgentEvent) -> None:
        """Thinking is drawn line by line as each line completes, wrapped at words (dim)."""
        if self._stream_kind != "thinking":
            self._end_stream()
            self._stream_kind, self._answer = "thinking", ""
        self._answer += event.text
        end = self._answer.rfind("\n") if "\n" in event.text else -1
        if end >= 0:
            self._stop_spin()
            self._print_trimmed(Text(visible(self._answer[:end]), style=THINKING_STYLE))
            self._answer = self._answer[end + 1 :]
        if self._answer:
            self._spin("Thinking…")

    def _on_tool_call(self, event: AgentEvent) -> None:
        self._end_stream()
        self._spin(f"Preparing the {one_line(event.text, 40)} call…")

    def _on_assistant(self, event: AgentEvent) -> None:
        self._stop_spin()
        self._end_stream()
        message = event.message or {}
        if message.get("stopReason") == "error":
            self.line(f"Error: {message.get('errorMessage', '')}", "bold red")
        elif message.get("stopReason") == "aborted":
            self.line("(reply cut short: what arrived is kept)", "yellow")
        elif message.get("stopReason") == "length":
            self.line("(the reply hit the output limit)", "yellow")

    def _on_tool_start(self, event: AgentEvent) -> None:
        self._stop_spin()
        self._end_stream()
        self.console.print(Text("● ", style="yellow") + Text(one_line(render.tool_call_line(event.call or {}), 300),
                                                             style="bold yellow"), soft_wrap=True)
        self._spin("Running…")

    def _on_tool_end(self, event: AgentEvent) -> None:
        self._stop_spin()
        result = event.message or {}
        details = result.get("details") if isinstance(result.get("details"), dict) else {}
        if result.get("toolName") == "edit" and not result.get("isError") and details.get("diff"):
            self._diff(str(details["diff"]))
            return
        text = render.text_of(result.get("content"))
        lines = text.splitlines() or [""]
        shown = "\n".join(lines[:RESULT_LINES]) + (f"\n… {len(lines) - RESULT_LINES} more lines"
                                                    if len(lines) > RESULT_LINES else "")
        style = "red" if result.get("isError") else "dim"
        self.console.print(Text(_indent(visible(shown)), style=style), soft_wrap=True)

    def _on_compaction(self, event: AgentEvent) -> None:
        found = event.compaction
        if found is None:
            return
        if found.type == "compaction_start":
            self._end_stream()
            before = f", {found.tokens_before:,} tokens" if found.tokens_before else ""
            self._spin(f"Compacting ({found.reason}{before})… input you type now is kept for later")
        elif found.type == "compaction_progress":
            self._spin(f"Compacting ({found.reason}): {found.stage}…")
        elif found.type == "compaction_done" and found.result is not None:
            self._stop_spin()
            r = found.result
            ahead = " · summary prepared in the background" if r.details.get("speculative") else ""
            lost = r.messages_dropped > 0 or r.fallback_reason is not None
            self.line(f"▣ Compacted ({found.reason}): {r.tokens_before:,} → {r.tokens_after:,} tokens · "
                      f"{compaction_outcome(r)} · {r.duration_s:.1f}s{ahead}", "bold red" if lost else "bold yellow")
        elif found.type in ("compaction_failed", "compaction_skipped"):
            self._stop_spin()
            if found.reason == "manual":
                return  # /compact reports its own failure
            word = "failed" if found.type == "compaction_failed" else "skipped"
            self.line(f"Compaction {word}: {found.error}", "red" if word == "failed" else "yellow")

    def _on_notice(self, event: AgentEvent) -> None:
        self._stop_spin()
        self._end_stream()
        self.line(event.text, _LEVEL_STYLES.get(event.level, ""))

    # -- command replies (CommandUI) -----------------------------------------------------------------------

    def show(self, reply: Reply) -> None:
        self._stop_spin()
        self._end_stream()
        handler = getattr(self, f"_show_{reply.kind}", None)
        if handler is not None:
            handler(reply)
        else:
            self.line(reply.text, _LEVEL_STYLES.get(reply.kind, ""))

    def ask(self, question: str) -> str | None:
        try:
            return self._input(question)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return None

    def pick_entry(self, session) -> str | None:
        """``/tree``'s selector (arrow keys); ``None`` when input is not a terminal (the tree is printed and asked)."""
        from .chat_picker import pick_entry

        self.finish()
        return pick_entry(self.console, session)

    def confirm_bash(self, command: str) -> bool:
        """``--confirm-bash``: ask y/N before the model's command runs (the call line is already on screen)."""
        self._stop_spin()
        self._end_stream()
        answer = self.ask(f"  Run `{one_line(command, 200)}`? [y/N] ")
        allowed = (answer or "").strip().lower() in ("y", "yes")
        if allowed:
            self._spin("Running…")
        return allowed

    def _show_tree(self, reply: Reply) -> None:
        session = reply.data
        on_path = frozenset(str(e.get("id")) for e in session.branch())
        roots = session.digest_tree(render.entry_look())
        render.print_tree(self.console, roots, render.TreeStyle(session.leaf_id, on_path))

    def _show_help(self, reply: Reply) -> None:
        width = max(len(usage) for usage, _ in reply.data) + 2
        for usage, what in reply.data:
            self.console.print(Text(usage.ljust(width), style="bold") + Text(what))
        self.console.print(Text("!cmd".ljust(width), style="bold") + Text("Run a shell command; the model sees it"))
        self.console.print(Text("!!cmd".ljust(width), style="bold") + Text("Run a shell command, kept out of context"))

    def _show_stats(self, reply: Reply) -> None:
        s = reply.data
        roles = ", ".join(f"{n} {role}" for role, n in s.roles.items()) or "none"
        rows = [
            ("session", f"{s.session_id}" + (f" “{s.name}”" if s.name else "")),
            ("file", s.path or "(in memory)"),
            ("entries", f"{s.entries} ({counted(s.compactions, 'compaction')}, "
                        f"{counted(s.branch_summaries, 'branch summary', 'branch summaries')})"),
            ("messages", roles),
            ("tool calls", s.tool_calls),
            ("tokens in", f"{s.input_tokens + s.cache_read + s.cache_write:,} (cache read {s.cache_read:,}, "
                          f"cache write {s.cache_write:,})"),
            ("tokens out", f"{s.output_tokens:,}"),
            ("cost", f"${s.cost:.4f}" if s.cost is not None else "unknown for this model"),
            ("context", f"{s.size.tokens:,} of {s.size.window:,} tokens"),
        ]
        render.key_values(self.console, rows)

    def _show_context(self, reply: Reply) -> None:
        view = reply.data
        size = view.size
        self.console.print(Text(f"{len(view.messages)} messages · {size.tokens:,} of {size.window:,} tokens "
                                f"({size.fraction:.0%}, {'measured + estimated' if size.measured else 'estimated'}) · "
                                f"model {view.model} · thinking {view.thinking_level}", style="bold"), soft_wrap=True)
        if size.speculation:
            self.line(f"next compaction: {_SPECULATION_WORDS.get(size.speculation, size.speculation)} "
                      "(prepared in the background)", "cyan")
        self.line(f"system prompt {view.system_tokens:,} tokens + tool schemas "
                  f"{view.fixed_tokens - view.system_tokens:,} tokens", "dim")
        for rules in view.rules:
            self.line(f"rules: {rules.path}", "dim")
        for index, message in enumerate(view.messages, 1):
            role = str(message.get("role"))
            preview = one_line(render.message_preview(message), max(20, self.console.width - 32))
            head = Text(f"{index:>4} ") + Text(role.ljust(11), style=_ROLE_STYLES.get(role, "bold"))
            self.console.print(head + Text(f"{estimate_tokens(message):>7,}  ", style="dim") + Text(preview),
                               no_wrap=True, overflow="ellipsis")

    def _show_compaction(self, reply: Reply) -> None:
        result = reply.data
        lines = result.summary.splitlines()
        shown = "\n".join(lines[:15]) + (f"\n… {len(lines) - 15} more lines" if len(lines) > 15 else "")
        self.console.print(Panel(Text(visible(shown)), title="summary", border_style="yellow"))

    def _show_checkout(self, reply: Reply) -> None:
        r = reply.data
        if not r.changed:
            self.line("Already there.", "cyan")
            return
        where = r.target or "root"
        text = (f"Moved to {where}; left {r.abandoned_entries} entries ({r.abandoned_messages} messages, "
                f"~{r.abandoned_tokens:,} tokens)")
        if r.summary_entry is not None:
            text += f"; branch summary {r.summary_entry['id']} ({r.strategy})"
        self.line(text, "bold magenta")

    # -- other output --------------------------------------------------------------------------------------------

    def bash_result(self, message: dict) -> None:
        output = str(message.get("output") or "")
        if output:
            self.console.print(Text(visible(output), style="dim"), soft_wrap=True)
        if message.get("cancelled"):
            self.line("(command cancelled)", "yellow")
        elif message.get("exitCode") not in (None, 0):
            self.line(f"(exit code {message.get('exitCode')})", "red")
        if message.get("fullOutputPath"):
            self.line(f"(output truncated; full output: {message['fullOutputPath']})", "dim")
        if message.get("excludeFromContext"):
            self.line("(not sent to the model)", "dim")

    def recap(self, messages: list[dict]) -> None:
        """The last messages of a resumed branch, one line each, so the conversation can be picked up."""
        shown = messages[-RECAP_MESSAGES:]
        if len(messages) > len(shown):
            self.line(f"  … {len(messages) - len(shown)} earlier messages (/context lists them)", "dim")
        for message in shown:
            role = str(message.get("role"))
            label = _RECAP_LABELS.get(role, role)
            preview = one_line(render.message_preview(message), max(20, self.console.width - 16))
            self.console.print(Text(f"  {label:<10} ", style=_ROLE_STYLES.get(role, "bold")) + Text(preview),
                               no_wrap=True, overflow="ellipsis")

    def bar(self, size: ContextSize, compactions: int) -> None:
        self._stop_spin()
        self._end_stream()
        self.console.print(token_bar(size, compactions), soft_wrap=True)

    def line(self, text: str, style: str = "") -> None:
        self.console.print(Text(visible(text), style=style), soft_wrap=True)

    def finish(self) -> None:
        self._stop_spin()
        self._end_stream()

    def _diff(self, diff: str) -> None:
        lines = diff.splitlines()[2:]  # the ---/+++ header says nothing the call line did not
        for line in lines[:DIFF_LINES]:
            style = "green" if line.startswith("+") else "red" if line.startswith("-") else "dim"
            self.console.print(Text(_indent(visible(line)), style=style), soft_wrap=True)
        if len(lines) > DIFF_LINES:
            self.line(f"  … {len(lines) - DIFF_LINES} more diff lines", "dim")

    def _end_stream(self) -> None:
        if self._stream_kind is not None:
            self._stop_spin()
        if self._stream_kind == "text" and self._answer.strip():
            self._markdown(self._answer)
        elif self._stream_kind == "thinking" and self._answer:
            self._print_trimmed(Text(visible(self._answer), style=THINKING_STYLE))
        self._answer = ""
        self._stream_kind = None

    def _markdown(self, text: str) -> None:
        # visible(): the model's text reaches the terminal without its control characters; no hyperlinks
        # (a link's target is the model's to choose, and is shown as text instead)
        if self._blocks:
            self.console.print()  # the blank line rich puts between blocks it draws together
        self._blocks += 1
        self._print_trimmed(Markdown(visible(text), hyperlinks=False, code_theme=CODE_THEME))

    def _print_trimmed(self, renderable) -> None:
        """Print without the blanks rich pads wrapped lines with (they would come along with a copy-paste)."""
        lines = [_trimmed(line) for line in self.console.render_lines(renderable, pad=False, new_lines=False)]
        self.console.print(Segments([segment for line in lines for segment in (*line, Segment.line())]), end="")

    def _spin(self, text: str) -> None:
        if self._status is None:
            self._status = self.console.status(Text(text, style="cyan"))
            self._status.start()
        else:
            self._status.update(Text(text, style="cyan"))

    def _stop_spin(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None


def _trimmed(line: list[Segment]) -> list[Segment]:
    """A rendered line without its trailing blanks (those with a background, as in a code block, stay)."""
    line = list(line)
    while line and not (line[-1].style and line[-1].style.bgcolor) and not line[-1].control:
        text = line[-1].text.rstrip(" ")
        if text:
            line[-1] = Segment(text, line[-1].style)
            break
        line.pop()
    return line


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.split("\n"))


__all__ = ["ChatView", "bar_colour", "compaction_outcome", "complete_blocks", "token_bar"]
