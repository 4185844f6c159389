"""A Done item holds results, not the agent's announcements (issue 20, class 4 of wrong20c): a sentence that says what
the agent does next ("Let me first show you what I just added", "Now I'll wire the new parser in") is no result,
whatever result words it uses; the result sentences around it are kept."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.progress import report


@pytest.mark.parametrize(("answer", "result"), [
    ("The exporter is now split into `csv.py` and `xlsx.py`. Let me first show you what I just added, then we'll "
     "split the tests too.", "csv.py"),
    ("Now I'll wire the parser I added into the CLI. The parser now skips blank lines in `load_rows()`.",
     "load_rows()"),
    ("Next, let me check that the changed config still loads. I raised the pool size to 12.", "12"),
    ("I'm going to update the docs for the renamed flag. Renamed `--out` to `--output` everywhere.", "--output"),
])
def test_an_announcement_is_no_result(answer: str, result: str) -> None:
    said = report(answer)
    assert result in " ".join(said)
    assert not any(sentence.lower().startswith(("let me", "now i'll", "next, let me", "i'm going to"))
                   for sentence in said)


def test_a_title_over_a_result_stays_with_it() -> None:
    said = report("### Now let's split it up\nYou're right: `memory.py` is now 550 lines.")
    assert said == ["Now let's split it up: You're right: `memory.py` is now 550 lines."]
