"""Compaction: keep a conversation inside the model's window while losing as little as possible.

``compact(session, window=…)`` runs the pipeline (prune → LLM summary → offline summary → truncate) and
appends one pi-compatible ``compaction`` entry; :class:`AutoCompactor` is the pre-flight an agent runs before
every model request. Nothing here imports an LLM SDK: providers live in :mod:`pi_compact.llm`.
"""

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
