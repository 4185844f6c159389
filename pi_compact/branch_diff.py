"""How two branches of a session compare: where their paths meet, and what each holds after that point.

This is ``pi-compact session diff``; it only reads. Either side may be ``None``, the position before the
first entry (``root``). Each side is read as a branch summary would read it (:func:`~pi_compact.branching.
prepare_branch`): its messages by role, their estimated tokens, and the files they read and modified.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .branching import branch_message, collect_abandoned, common_ancestor, prepare_branch
from .session import ROOT, Session

RELATIONS = ("same", "a-before-b", "b-before-a", "diverged", "separate-roots")
"""What :attr:`BranchDiff.relation` may be: one entry, one side on the path to the other, two branches of one
tree, or two trees (no common entry)."""


@dataclass(frozen=True)
class BranchSide:
    """The entries of one side after the point where the paths meet, oldest first."""

    entries: int
    first_entry_id: Any
    """The ``id`` of the first of them as the file has it (``None`` when the side is empty)."""
    last_entry_id: Any
    messages: int
    by_kind: Mapping[str, int]
    """Messages by role (``user``, ``assistant``, ...) and the other entries that enter a context, by type."""
    tokens: int
    read_files: tuple[str, ...]
    modified_files: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "entries": self.entries,
            "firstEntryId": self.first_entry_id,
            "lastEntryId": self.last_entry_id,
            "messages": self.messages,
            "byKind": dict(self.by_kind),
            "tokens": self.tokens,
            "readFiles": list(self.read_files),
            "modifiedFiles": list(self.modified_files),
        }


@dataclass(frozen=True)
class BranchDiff:
    """Where the paths to ``a`` and ``b`` meet, and each side after that point."""

    a: str
    """The first entry compared, or :data:`~pi_compact.session.ROOT`."""
    b: str
    relation: str
    """One of :data:`RELATIONS`."""
    common_ancestor: str | None
    """The deepest entry both paths hold; ``None`` when they share none."""
    common_ancestor_type: str | None
    """Its role when it is a message, else its entry type."""
    shared_entries: int
    """Entries from the root down to the common ancestor."""
    side_a: BranchSide
    side_b: BranchSide

    def to_json(self) -> dict[str, Any]:
        """As ``session diff --json`` prints it."""
        return {
            "a": self.a,
            "b": self.b,
            "relation": self.relation,
            "commonAncestor": self.common_ancestor,
            "commonAncestorType": self.common_ancestor_type,
            "sharedEntries": self.shared_entries,
            "sides": {"a": self.side_a.to_json(), "b": self.side_b.to_json()},
        }


def diff_branches(session: Session, a: str | None, b: str | None) -> BranchDiff:
    """Compare the branches ending at ``a`` and ``b`` (entry ids, or ``None`` for root)."""
    ancestor = common_ancestor(session, a, b)
    only_a, only_b = collect_abandoned(session, a, b), collect_abandoned(session, b, a)
    base = session.get(ancestor)
    return BranchDiff(
        a=a if a is not None else ROOT,
        b=b if b is not None else ROOT,
        relation=_relation(a, b, ancestor, only_a, only_b),
        common_ancestor=ancestor,
        common_ancestor_type=_kind(base) if base is not None else None,
        shared_entries=len(session.ancestor_ids(ancestor)) if ancestor is not None else 0,
        side_a=_side(only_a),
        side_b=_side(only_b),
    )


def _relation(a: str | None, b: str | None, ancestor: str | None, only_a: list[dict], only_b: list[dict]) -> str:
    if a == b:
        return "same"
    if not only_a:
        return "a-before-b"
    if not only_b:
        return "b-before-a"
    return "diverged" if ancestor is not None else "separate-roots"


def _side(entries: list[dict]) -> BranchSide:
    prep = prepare_branch(entries)
    kinds: dict[str, int] = {}
    for entry in entries:
        if branch_message(entry) is not None:
            kinds[_kind(entry)] = kinds.get(_kind(entry), 0) + 1
    return BranchSide(
        entries=len(entries),
        first_entry_id=entries[0].get("id") if entries else None,
        last_entry_id=entries[-1].get("id") if entries else None,
        messages=prep.total_messages,
        by_kind=kinds,
        tokens=prep.total_tokens,
        read_files=tuple(prep.files.read_files),
        modified_files=tuple(prep.files.modified_files),
    )


def _kind(entry: dict) -> str:
    # Not accessors.entry_role: a role that is not a string is still shown (as its text), not taken for a type.
    message = entry.get("message")
    if entry.get("type") == "message" and isinstance(message, dict):
        return str(message.get("role"))
    return str(entry.get("type"))
