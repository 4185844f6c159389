"""The token estimate on a natural line written over and over (issue 23.7): within 0.9-1.3 times a real Claude
tokenizer's count (anthropic-tokenizer, the oracle). A tokenizer cuts each copy as it cut the first, and the
bounds that tell random letters from a language must read a copy as no further sign of either: read 600 times, the
pairs of one short line (``output`` holds ``tp``, which English seldom writes) outweighed the doubt of 6,000 letters
and priced ``output line`` × 600 as random letters, 1.78 times its count (the conformance test's fixture)."""

from __future__ import annotations

import anthropic_tokenizer
import pytest

from pi_compact.compaction.tokens import text_tokens

LINES = {
    "conformance fixture": "output line\n",  # tests/conformance/test_compaction_conformance.py
    "log with a time": "[09:32:10] notice: application idna exited, stopped\n",
    "log with a date": "[2025-01-14 09:32:10] worker started, waiting for input\n",
    "prose": "Attempt the upload again and strip the messages if it succeeds.\n",
    "tool output": "[notice] Application idna exited: :stopped\n",  # a bundled session's (tensiondriven-athena)
    "code": "    return remapped\n",  # a bundled session's read file (obsessiondb-chkit)
}


@pytest.mark.parametrize("copies", [100, 600])
@pytest.mark.parametrize("line", LINES.values(), ids=LINES)
def test_a_natural_line_repeated_is_priced_near_its_count(line, copies) -> None:
    text = line * copies
    real = anthropic_tokenizer.count_tokens(text)
    assert 0.9 * real <= text_tokens(text) <= 1.3 * real
