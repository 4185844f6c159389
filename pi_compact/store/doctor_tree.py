"""The doctor's checks of the tree: parent links, cycles, and the ids that labels and compactions name.

After this pass every entry kept in a repaired copy has a parent that is kept too (or none), and no walk
from an entry to its root can loop: broken links are re-attached to the entry before them in file order,
which is where pi's own v1 migration would have hung them, unless that would close a cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .doctor_fields import MISSING, js_type

if TYPE_CHECKING:
    from .doctor import Doctor, Entry


def check_links(doctor: "Doctor") -> None:
    for entry in doctor.entries:
        if entry.value.get("type") == "label" and not entry.drop:
            _check_label(doctor, entry)
    for entry in doctor.entries:
        _link(doctor, entry)
    kept = [entry for entry in doctor.entries if not entry.drop]
    for entry in kept:
        entry.parent = _kept_ancestor(entry)
    _break_cycles(doctor, kept)
    _reattach(doctor, kept)
    for entry in kept:
        if entry.value.get("type") == "compaction":
            _check_first_kept(doctor, entry)


def _check_label(doctor: "Doctor", entry: "Entry") -> None:
    ref = entry.value["targetId"]
    target = doctor.resolve(ref, entry)
    if target is None or target.drop:
        why = "is not in the file" if target is None else "is left out of a repaired copy"
        doctor.warning("label_target_missing", f"the labelled entry {ref} {why}", entry.line, entry.id or None)
        entry.drop = f"label of a missing entry {ref}"
    elif target.id != ref:
        entry.value["targetId"] = target.id
        entry.changed = True


def _link(doctor: "Doctor", entry: "Entry") -> None:
    ref = entry.value.get("parentId", MISSING)
    if ref is None:
        return
    if not isinstance(ref, str):
        doctor.error("bad_parent", f"parentId is {js_type(ref)}, not a string or null", entry.line, entry.original_id)
        entry.orphan = True
        return
    target = doctor.resolve(ref, entry)
    if target is not None:
        entry.parent = target
    elif ref == entry.original_id:
        doctor.error("self_parent", f"entry {ref} is its own parent", entry.line, ref)
        entry.orphan = True
    else:
        doctor.error("dangling_parent", f"parent {ref} is not in the file", entry.line, entry.original_id)
        entry.orphan = True


def _kept_ancestor(entry: "Entry") -> "Entry | None":
    """The nearest ancestor a repaired copy keeps; entries left out pass their children up to their parent.

    Path compression keeps this linear over a whole file; an entry whose ancestry is broken becomes an orphan.
    """
    walked: dict[int, Entry] = {}
    parent, broken = entry.parent, False
    while parent is not None and parent.drop:
        if parent.orphan or id(parent) in walked:  # a broken link, or a cycle made only of left-out entries
            parent, broken = None, True
            break
        walked[id(parent)] = parent
        parent = parent.parent
    for skipped in walked.values():
        skipped.parent, skipped.orphan = parent, broken
    entry.orphan = entry.orphan or broken
    return parent


def _break_cycles(doctor: "Doctor", kept: list["Entry"]) -> None:
    done: set[int] = set()
    for start in kept:
        walk: dict[int, Entry] = {}
        node = start
        while node is not None and id(node) not in done and id(node) not in walk:
            walk[id(node)] = node
            node = node.parent
        if node is not None and id(node) in walk:
            members = list(walk.values())
            _cut_cycle(doctor, members[members.index(node):])
        done.update(walk)


def _cut_cycle(doctor: "Doctor", cycle: list["Entry"]) -> None:
    first = min(cycle, key=lambda e: e.index)
    ids = " → ".join(e.id for e in sorted(cycle, key=lambda e: e.index)[:6]) + (" …" if len(cycle) > 6 else "")
    message = f"parent cycle through {ids} ({len(cycle)} entries): no root reaches them"
    doctor.error("cycle", message, first.line, first.id)
    first.parent, first.orphan = None, True


def _reattach(doctor: "Doctor", kept: list["Entry"]) -> None:
    """Hang every orphan from the entry before it in file order, unless that entry descends from it."""
    roots: dict[int, Entry] = {}
    previous: Entry | None = None
    for entry in kept:
        if entry.orphan:
            if previous is not None and _root(previous, roots) is not entry:
                entry.parent = roots[id(entry)] = previous
                where = f"re-attached under {previous.id} (the entry before it)"
            else:
                where = "made a root"
            doctor.actions.append(f"line {entry.line}: {entry.id} {where}")
        previous = entry


def _root(entry: "Entry", roots: dict[int, "Entry"]) -> "Entry":
    """The root of ``entry``'s tree as it stands, with path compression (``roots`` holds shortcuts)."""
    path = []
    node = entry
    while True:
        step = roots.get(id(node), node.parent)
        if step is None or step is node:
            break
        path.append(node)
        node = step
    for visited in path:
        roots[id(visited)] = node
    return node


def _check_first_kept(doctor: "Doctor", entry: "Entry") -> None:
    ref = entry.value.get("firstKeptEntryId", MISSING)
    if not isinstance(ref, str):
        doctor.error("bad_field", f"compaction firstKeptEntryId is {js_type(ref)}, not a string", entry.line, entry.id)
        _keep_nothing(entry)
        return
    if ref in (entry.original_id, entry.id):
        return  # the compaction names itself: nothing before it is kept
    target = doctor.resolve(ref, entry)
    path = _ancestors(entry)
    if target is None:
        doctor.error("first_kept_missing", f"compaction keeps from {ref}, which is not in the file", entry.line,
                     entry.id)
        _keep_nothing(entry)
    elif target.drop:
        _keep_from(entry, next((e for e in path if e.index > target.index), entry))
    elif target not in path:
        doctor.error("first_kept_not_ancestor", f"compaction keeps from {ref}, which is not on its branch",
                     entry.line, entry.id)
        _keep_nothing(entry)
    elif target.id != ref:
        _keep_from(entry, target)


def _ancestors(entry: "Entry") -> list["Entry"]:
    """Root first, ``entry`` excluded."""
    path: list[Entry] = []
    node = entry.parent
    while node is not None:
        path.append(node)
        node = node.parent
    path.reverse()
    return path


def _keep_nothing(entry: "Entry") -> None:
    """pi keeps nothing before a compaction whose first kept entry it cannot find; naming itself says so."""
    _keep_from(entry, entry)


def _keep_from(entry: "Entry", first_kept: "Entry") -> None:
    entry.value["firstKeptEntryId"] = first_kept.id
    entry.changed = True
