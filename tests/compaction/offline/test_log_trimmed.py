"""The work log is cut a line at a time when the summary runs over its budget (the oldest request's sentences
first), not dropped whole: a summary a few tokens over its budget lost every request's quoted words."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.details import LOG_LABEL, trimmed_log
from pi_compact.compaction.offline.sections import Sections
from pi_compact.compaction.offline.summary import _fit
from pi_compact.compaction.tokens import text_tokens

LOG = "\n".join([
    LOG_LABEL,
    "Request “rename the parser module”:",
    "  > Renamed `parser.py` to `reader.py` and updated its three importers.",
    "  > The old name stays as a shim that warns once.",
    "Request “make the cache expire after an hour”:",
    "  > Added `ttl_seconds=3600` to `CacheConfig`; entries older than that are refetched.",
])


@pytest.mark.parametrize("cuts, expected_last_lines", [
    (1, ["  > Renamed `parser.py` to `reader.py` and updated its three importers.",
         "Request “make the cache expire after an hour”:"]),
    (2, ["Request “rename the parser module”:", "Request “make the cache expire after an hour”:"]),
    (3, ["Request “make the cache expire after an hour”:",
         "  > Added `ttl_seconds=3600` to `CacheConfig`; entries older than that are refetched."]),
])
def test_the_oldest_requests_sentences_go_first(cuts: int, expected_last_lines: list[str]) -> None:
    log = LOG
    for _ in range(cuts):
        log = trimmed_log(log)
    lines = log.splitlines()
    assert lines[0] == LOG_LABEL
    assert all(line in lines for line in expected_last_lines)
    assert len(lines) == len(LOG.splitlines()) - cuts


def test_a_log_with_nothing_left_under_its_label_is_gone() -> None:
    log = LOG
    for _ in range(len(LOG.splitlines()) - 2):
        log = trimmed_log(log)
    assert log.splitlines() == [LOG_LABEL, "Request “make the cache expire after an hour”:"]  # the latest goes last
    assert trimmed_log(log) == ""


def test_a_summary_a_little_over_its_budget_keeps_the_latest_requests_words() -> None:
    sections = Sections()
    sections.items["goal"].append("Keep the service's configuration in one place")
    sections.items["critical"].append(LOG)

    def draw() -> str:
        return "\n\n".join("\n".join(items) for items in sections.items.values() if items)

    whole = text_tokens(draw())
    text = _fit(sections, whole - 5, draw)
    assert text_tokens(text) <= whole - 5
    assert "ttl_seconds=3600" in text  # the latest request's words stay
    assert "warns once" not in text  # the oldest request's last sentence went first
