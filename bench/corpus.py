"""The compaction regions of the bundled transcripts of other agents (``sessions_fixtures/agents``): each region
with the summary the original agent's LLM wrote of it (the reference) and the offline summary of the same region,
split by repository into a calibration half and a validation half (``sessions_fixtures/labels/split.json``).

``python -m bench.corpus dump FILE COMPACTION_ID`` prints a region's user requests, the agent's texts and the
failing tool results, and never its summaries: what the hand labels are written from. ``python -m bench.corpus
unlabelled`` lists the regions no label file names yet.
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pi_compact import Session
from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.offline.compose import compose
from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.prepare import collect_files, message_for_summary
from pi_compact.compaction.summarizer import SummaryRequest
from pi_compact.importers import read_transcript, reference_summaries, write_session
from sessions_fixtures import AGENTS_DIR, HERE

SPLIT = HERE / "labels" / "split.json"
LABELS = HERE / "labels" / "agents"
CALIBRATION_LABELS = HERE / "labels" / "calibration"
"""Hand labels of calibration regions (kept apart: ``agents/`` holds the validation half's labels only)."""


@dataclass(frozen=True)
class Region:
    file: str
    repository: str
    compaction_id: str
    entries: tuple[dict, ...]
    """The entries the reference summary stands for (an earlier compaction's entry included)."""
    reference: str
    previous: str | None
    """The summary of the compaction before this one on the path (what the region's summary updates)."""
    cwd: str

    @property
    def key(self) -> str:
        return f"{Path(self.file).name.split('.jsonl')[0]}#{self.compaction_id}"

    def messages(self) -> tuple[dict, ...]:
        return tuple(m for m in (message_for_summary(e) for e in self.entries) if m is not None)

    def offline(self) -> str:
        """The summary as a compaction stores it: the offline summarizer's text with pi's ``<read-files>`` /
        ``<modified-files>`` lists of the region appended (what the continuing agent reads; the reference
        summaries hold their own file sections)."""
        messages = self.messages()
        request = SummaryRequest(system="", prompt="", max_tokens=13_000, kind="compaction",
                                 messages=messages, previous_summary=self.previous,
                                 metadata={"cwd": self.cwd})
        body = OfflineSummarizer().summarize(request).text
        files = collect_files(list(self.entries), messages)
        return compose(body, first_request=None, current_request=None, dropped_note=None,
                       read_files=files.read_files, modified_files=files.modified_files, cwd=self.cwd,
                       gone=extract_facts(list(messages)).gone)


@cache
def regions() -> tuple[Region, ...]:
    index = json.loads((AGENTS_DIR / "INDEX.json").read_text(encoding="utf-8"))
    found, seen = [], set()
    with tempfile.TemporaryDirectory() as folder:
        for row in index["files"]:
            if not row.get("readableSummaries"):
                continue
            out = write_session(read_transcript(AGENTS_DIR / row["file"]), Path(folder) / "s.jsonl")
            with Session.open(out) as session:
                by_id = {e["id"]: e for e in session.entries()}
                previous = None
                for reference in reference_summaries(session, all_branches=True):
                    entries = tuple(by_id[i] for i in reference.region if i in by_id)
                    unique = (row["repository"], reference.compaction_id)
                    if reference.messages and unique not in seen:
                        seen.add(unique)
                        earlier = [e for e in entries if e.get("type") == "compaction"]
                        found.append(Region(row["file"], row["repository"], reference.compaction_id, entries,
                                            reference.summary, earlier[-1]["summary"] if earlier else previous,
                                            session.cwd or ""))
                    previous = reference.summary
            Path(out).unlink()
    return tuple(found)


def split() -> dict[str, list[str]]:
    """Repositories per half."""
    return json.loads(SPLIT.read_text(encoding="utf-8"))["halves"]


def half_of(region: Region) -> str:
    return next((name for name, repos in split().items() if region.repository in repos), "unsplit")


def dump(file: str, compaction_id: str) -> None:
    """The region's text for labelling: requests, the agent's words, failing results; no summary."""
    region = next(r for r in regions() if r.file.endswith(file) and r.compaction_id == compaction_id)
    for message in region.messages():
        role = message.get("role")
        content = message.get("content")
        text = content if isinstance(content, str) else "\n".join(
            b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")
        calls = [f"{b.get('name')}({json.dumps(b.get('arguments'))[:160]})" for b in content or []
                 if isinstance(b, dict) and b.get("type") == "toolCall"] if isinstance(content, list) else []
        if role == "user" and text.strip():
            print(f"\n[USER] {text[:1500]}")
        elif role == "assistant":
            if text.strip():
                print(f"[AGENT] {text[:800]}")
            for call in calls:
                print(f"  call {call}")
        elif role == "toolResult" and message.get("isError"):
            print(f"  ! {text[:300]}")
        elif role == "toolResult" and "question" in str(message.get("toolName", "")).lower():
            print(f"  = {text[:400]}")  # the user's answers to the agent's questions
        elif role in ("compactionSummary", "branchSummary"):
            print("[an earlier summary stands here]")


def main(argv: list[str]) -> None:
    if argv[:1] == ["dump"]:
        dump(argv[1], argv[2])
    elif argv[:1] == ["unlabelled"]:
        for region in unlabelled():
            print(f"{half_of(region):12} {region.repository:30} {region.key}")
    else:
        for region in regions():
            print(f"{half_of(region):12} {region.repository:30} {region.key:50} {len(region.entries):5} entries "
                  f"prev={'y' if region.previous else 'n'}")



def labels_for(region: Region) -> dict | None:
    """The hand labels of ``region``, when it has some (matched by compaction id)."""
    for path in sorted(LABELS.glob("*.json")) + sorted(CALIBRATION_LABELS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("region", {}).get("compactionId") == region.compaction_id:
            return data
    return None


def label_files() -> dict[str, Path]:
    """Every hand-label file of the corpus by the compaction id it names (validation and calibration folders)."""
    paths = sorted(LABELS.glob("*.json")) + sorted(CALIBRATION_LABELS.glob("*.json"))
    return {json.loads(p.read_text(encoding="utf-8"))["region"]["compactionId"]: p for p in paths}


def unlabelled() -> list[Region]:
    """The corpus regions no label file names: the labelling work left (``python -m bench.corpus unlabelled``)."""
    named = label_files()
    return [region for region in regions() if region.compaction_id not in named]


BEFORE_SCRIPT = """
import json, sys
from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.summarizer import SummaryRequest
out = {}
for row in json.load(open(sys.argv[1])):
    request = SummaryRequest(system="", prompt="", max_tokens=13_000, kind="compaction", messages=tuple(row["messages"]),
                             previous_summary=row["previous"], metadata={"cwd": row["cwd"]})
    out[row["key"]] = OfflineSummarizer().summarize(request).text
json.dump(out, open(sys.argv[2], "w"))
"""


def summaries_at_commit(commit: str, wanted: list[Region]) -> dict[str, str]:
    """The offline summaries the summarizer of ``commit`` writes of ``wanted`` (its package unpacked to a temporary
    folder and run there in a fresh interpreter: the "before" of a before/after table)."""
    import subprocess

    project = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", commit, "pi_compact"], cwd=project, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        rows = [{"key": r.key, "messages": list(r.messages()), "previous": r.previous, "cwd": r.cwd} for r in wanted]
        (Path(folder) / "in.json").write_text(json.dumps(rows), encoding="utf-8")
        subprocess.run([sys.executable, "-c", BEFORE_SCRIPT, "in.json", "out.json"], cwd=folder, check=True,
                       env={"PYTHONPATH": folder, "PATH": "/usr/bin:/bin"})
        return json.loads((Path(folder) / "out.json").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main(sys.argv[1:])
