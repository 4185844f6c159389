"""The summarization prompts: pi's structure (headings exact), our wording.

The same system prompt serves compactions, split-turn prefixes and branch summaries. Required headings
are listed in :data:`REQUIRED_SECTIONS`, which is how an LLM answer is checked before it is stored.
"""

from __future__ import annotations

SYSTEM_PROMPT = (
    "You are a context summarization assistant. Your task is to read a conversation between a user and an AI "
    "coding assistant, then produce a structured summary following the exact format specified.\n\n"
    "Do NOT continue the conversation. Do NOT respond to any questions in the conversation. "
    "ONLY output the structured summary."
)

_SECTIONS = """## Goal
[What the user is trying to accomplish; keep the user's own words where they matter]

## Constraints & Preferences
- [Every rule, requirement or preference the user stated, verbatim where possible, or "(none)"]

## Progress
### Done
- [x] [Completed work: files changed, commands run and their outcome]

### In Progress
- [ ] [Work started and not finished at the end of the conversation]

### Blocked
- [Problems not yet solved, with the exact error messages, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [What should happen next, in order]
"""

_UPDATE_SECTIONS = """## Goal
[Keep the previous goal; widen it only if the user widened the task]

## Constraints & Preferences
- [Keep the previous ones and add every new rule the user stated, or "(none)"]

## Progress
### Done
- [x] [The previous done items, plus what the new messages finished]

### In Progress
- [ ] [Only work still unfinished at the end of the new messages]

### Blocked
- [Problems still unsolved; remove those the new messages resolved]

## Key Decisions
- **[Decision]**: [Brief rationale] (keep the previous ones, add new ones)

## Next Steps
1. [What comes next, given where the work stands now]

## Critical Context
- [Keep what is still needed, add new exact values and errors, or "(none)"]
"""

_CRITICAL = """
## Critical Context
- [Exact values, error messages, identifiers and data needed to continue, or "(none)"]
"""

_CLOSING = "\nKeep each section concise. Preserve exact file paths, function names, and error messages."

INITIAL_PROMPT = (
    "The messages above are a conversation to summarize. Create a structured context checkpoint summary that "
    "another LLM will use to continue the work.\n\nUse this EXACT format:\n\n" + _SECTIONS + _CRITICAL + _CLOSING
)

UPDATE_PROMPT = (
    "The messages above are NEW conversation messages to merge into the existing summary given in "
    "<previous-summary> tags.\n\nUpdate the summary with these rules:\n"
    "- Keep every piece of information from the previous summary that is still relevant\n"
    "- Add the new progress, decisions and context\n"
    "- Move items from In Progress to Done once they are finished\n"
    "- Update Next Steps to reflect the current state\n"
    "- Keep exact file paths, function names and error messages\n"
    "- Drop only what is clearly no longer relevant\n\n"
    "Use this EXACT format:\n\n" + _UPDATE_SECTIONS + _CLOSING
)

TURN_PREFIX_PROMPT = (
    "This is the PREFIX of a turn that was too large to keep. The SUFFIX (recent work) is retained.\n\n"
    "Summarize the prefix to provide context for the retained suffix:\n\n"
    "## Original Request\n[What the user asked for in this turn, verbatim if short]\n\n"
    "## Early Progress\n- [Key decisions and work done in the prefix]\n\n"
    "## Context for Suffix\n- [What is needed to understand the kept suffix]\n\n"
    "Be concise. Focus on what's needed to understand the kept suffix."
)

BRANCH_PROMPT = (
    "Create a structured summary of this conversation branch for context when returning later.\n\n"
    "Use this EXACT format:\n\n" + _SECTIONS + _CLOSING
)

REQUIRED_SECTIONS: dict[str, tuple[str, ...]] = {
    "compaction": ("## Goal", "## Constraints & Preferences", "## Progress", "## Key Decisions", "## Next Steps",
                   "## Critical Context"),
    "branch": ("## Goal", "## Constraints & Preferences", "## Progress", "## Key Decisions", "## Next Steps"),
    "turn_prefix": ("## Original Request", "## Early Progress", "## Context for Suffix"),
}


def compaction_prompt(conversation: str, previous_summary: str | None, instructions: str | None) -> str:
    """The single user message of a compaction request."""
    text = f"<conversation>\n{conversation}\n</conversation>\n\n"
    if previous_summary:
        text += f"<previous-summary>\n{previous_summary}\n</previous-summary>\n\n"
    text += UPDATE_PROMPT if previous_summary else INITIAL_PROMPT
    if instructions:
        text += f"\n\nAdditional focus: {instructions}"
    return text


def turn_prefix_prompt(conversation: str) -> str:
    return f"<conversation>\n{conversation}\n</conversation>\n\n{TURN_PREFIX_PROMPT}"


def branch_prompt(conversation: str, instructions: str | None, replace_instructions: bool = False) -> str:
    if instructions and replace_instructions:
        body = instructions
    elif instructions:
        body = f"{BRANCH_PROMPT}\n\nAdditional focus: {instructions}"
    else:
        body = BRANCH_PROMPT
    return f"<conversation>\n{conversation}\n</conversation>\n\n{body}"


def missing_sections(text: str, kind: str) -> list[str]:
    """Required headings absent from ``text`` (an LLM answer)."""
    lines = {line.strip().lower() for line in text.splitlines()}
    return [h for h in REQUIRED_SECTIONS.get(kind, ()) if h.lower() not in lines]
