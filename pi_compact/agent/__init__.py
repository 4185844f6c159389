"""A coding agent on the session store: the loop, its tools, its providers and its slash commands.

    >>> from pi_compact import Session
    >>> from pi_compact.agent import Agent, make_provider
    >>> agent = Agent(Session.create("/my/project"), make_provider("anthropic"), cwd="/my/project")  # doctest: +SKIP
    >>> agent.prompt("Why does test_parser fail?")  # doctest: +SKIP

Nothing here draws on a terminal (``pi-compact chat`` in :mod:`pi_compact.cli.chat_cmds` does) and no SDK is
imported until a provider is built.
"""

from .commands import COMMANDS, CommandOutcome, Commands, CommandUI, ContextView, Reply, Stats, stats_of
from .loop import Agent, AgentEvent, ContextSize, PreFlight, TurnResult, deferred_interrupt
from .prompt import RulesFile, find_rules, system_prompt
from .providers import (
    PROVIDERS,
    THINKING_LEVELS,
    AnthropicProvider,
    Delta,
    ModelRequest,
    OpenAIProvider,
    Provider,
    ResponseStream,
    context_window,
    make_provider,
)
from .shell import BashRun, bash_execution_message, run_bash
from .tools import SPECS, Toolbox, ToolOutcome, ToolSpec, tool_result

__all__ = [
    "COMMANDS",
    "PROVIDERS",
    "SPECS",
    "THINKING_LEVELS",
    "Agent",
    "AgentEvent",
    "AnthropicProvider",
    "BashRun",
    "CommandOutcome",
    "CommandUI",
    "Commands",
    "ContextSize",
    "ContextView",
    "Delta",
    "ModelRequest",
    "OpenAIProvider",
    "PreFlight",
    "Provider",
    "Reply",
    "ResponseStream",
    "RulesFile",
    "Stats",
    "ToolOutcome",
    "ToolSpec",
    "Toolbox",
    "TurnResult",
    "bash_execution_message",
    "context_window",
    "deferred_interrupt",
    "find_rules",
    "make_provider",
    "run_bash",
    "stats_of",
    "system_prompt",
    "tool_result",
]
