"""Evaluation: what compaction would have done to a recorded session, and how good its summaries are.

``replayer`` replays a session through a window and reports every compaction; ``quality`` scores a summary
against the region it replaced (and against hand labels where a region has them). Both sit above the
compaction pipeline and are never imported by it.
"""

from .quality import Quality, RegionLabels, score_quality
from .replayer import ReplayReport, replay

__all__ = ["Quality", "RegionLabels", "ReplayReport", "replay", "score_quality"]
