"""The offline summarizer: a structured summary of a region written without any model.

It reads the region's facts (requests, rules, tool calls and their effects: ``facts``, ``shell``), works out
where the work stands (``state``, ``plans``), names the files in one spelling (``paths``), renders pi's
sections (``sections``) and fits the result to its budget (``compose``). ``summary`` puts it together as
:class:`OfflineSummarizer`, the pipeline's stage after the LLM and before truncation.
"""

from .summary import OfflineSummarizer

__all__ = ["OfflineSummarizer"]
