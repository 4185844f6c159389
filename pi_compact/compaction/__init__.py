"""Compaction: keep a conversation inside the model's window while losing as little as possible.

``compact(session, window=…)`` runs the pipeline (prune → LLM summary → offline summary → truncate) and
appends one pi-compatible ``compaction`` entry; :class:`AutoCompactor` is the pre-flight an agent runs before
every model request. Nothing here imports an LLM SDK: providers live in :mod:`pi_compact.llm`.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .compactor import AutoCompactor, CompactionEvent, CompactionResult, compact, ensure_fits
    from .cut import CutPoint, find_cut_point, find_turn_start, valid_cut_points
    from .prepare import CompactionPreparation, FileLists, prepare_compaction
    from .prompts import SYSTEM_PROMPT
    from .serialize import convert_to_llm, serialize_conversation
    from .settings import CompactionSettings, load_settings, settings_from_mapping, should_compact
    from .summarizer import Summarizer, SummaryRequest, SummaryResult
    from .tokens import ContextTokens, calculate_context_tokens, estimate_context_tokens, estimate_tokens

__all__ = [
    "SYSTEM_PROMPT",
    "AutoCompactor",
    "CompactionEvent",
    "CompactionPreparation",
    "CompactionResult",
    "CompactionSettings",
    "ContextTokens",
    "CutPoint",
    "FileLists",
    "Summarizer",
    "SummaryRequest",
    "SummaryResult",
    "calculate_context_tokens",
    "compact",
    "convert_to_llm",
    "ensure_fits",
    "estimate_context_tokens",
    "estimate_tokens",
    "find_cut_point",
    "find_turn_start",
    "load_settings",
    "prepare_compaction",
    "serialize_conversation",
    "settings_from_mapping",
    "should_compact",
    "valid_cut_points",
]

_LAZY = {
    **dict.fromkeys(("AutoCompactor", "CompactionEvent", "CompactionResult", "compact", "ensure_fits"), ".compactor"),
    **dict.fromkeys(("CutPoint", "find_cut_point", "find_turn_start", "valid_cut_points"), ".cut"),
    **dict.fromkeys(("CompactionPreparation", "FileLists", "prepare_compaction"), ".prepare"),
    "SYSTEM_PROMPT": ".prompts",
    **dict.fromkeys(("convert_to_llm", "serialize_conversation"), ".serialize"),
    **dict.fromkeys(("CompactionSettings", "load_settings", "settings_from_mapping", "should_compact"), ".settings"),
    **dict.fromkeys(("Summarizer", "SummaryRequest", "SummaryResult"), ".summarizer"),
    **dict.fromkeys(("ContextTokens", "calculate_context_tokens", "estimate_context_tokens", "estimate_tokens"),
                    ".tokens"),
}
"""Where each public name lives, imported on first use: ``session show`` needs the token estimate and its cache,
and importing them ran this file, which imported the whole pipeline (the offline summarizer: ~0.15 s a run)."""


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
