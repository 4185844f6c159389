"""The in-memory index of a session tree: entries by id, children, labels, the name, and path walks.

It holds one :class:`~pi_compact.store.scan.Slot` per entry line in file order and parses an entry only when
somebody asks for it. Its rules are pi's: a duplicate id shadows the earlier entry, the last label entry for
a target wins, the newest ``session_info`` names the session. Unlike pi, walks never loop: a parent cycle
or a dangling parent ends the walk and is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from ..errors import EntryNotFoundError
from .jsonl import iso_to_ms, js_trim, js_truthy
from .scan import Problem, Slot, _gc_paused, parse_in_place, parse_slot, parse_slots


@dataclass(frozen=True)
class TreeNode:
    """One entry of :meth:`SessionIndex.tree`, with its children sorted by timestamp (oldest first)."""

    entry: dict
    children: tuple["TreeNode", ...]
    label: str | None = None
    label_timestamp: str | None = None

    @property
    def id(self) -> str:
        return self.entry["id"]


class DigestNode(NamedTuple):
    """One entry of :meth:`SessionIndex.digest_tree`: the caller's digest of the entry instead of the entry.

    A named tuple, unlike :class:`TreeNode`: a tree of a 100k-entry file makes 100,000 of them, made here
    without a Python-level ``__init__`` (a frozen dataclass was four times slower to make than a plain one,
    and a plain one twice slower than this)."""

    id: str
    digest: Any
    children: tuple["DigestNode", ...]
    label: str | None = None


_Node = TypeVar("_Node", TreeNode, DigestNode)


class SessionIndex:
    """Slots in file order plus the maps that tree queries need."""

    def __init__(self, data: bytes = b"", *, for_context: bool = True) -> None:
        self._data = data
        self.slots: list[Slot] = []
        self.by_id: dict[str, Slot] = {}
        self.labels: dict[str, tuple[str, str | None]] = {}
        self.name_entry: dict | None = None
        self.problems: list[Problem] = []
        self._children: dict[str | None, list[Slot]] | None = None
        self._thinking_at: dict[str, Slot | None] = {}
        """Per entry, the nearest thinking-level change at or above it (``None``: none), for context building."""
        self._trusted_chains = for_context
        """False once a duplicate id or a child before its parent makes :attr:`_thinking_at` unreliable (or
        when the index is not for building contexts: a pass over a file keeps no such map)."""

    # -- building ------------------------------------------------------------------------------------------

    def add(self, slot: Slot) -> bool:
        """Index one more line (file order); ``False`` when it holds nothing pi indexes (a header, no id)."""
        entry_id, kind, by_id = slot.id, slot.type, self.by_id
        # _admit's answer for nearly every line (a new string id, no header) without the call: opening a big
        # file or showing it indexes every line
        duplicate = False
        if kind == "session" or not isinstance(entry_id, str) or entry_id in by_id:
            duplicate = self._admit(slot, by_id)
            if duplicate is None:
                return False
        self.slots.append(slot)
        by_id[entry_id] = slot
        if self._trusted_chains:
            self._track_thinking(slot, duplicate)
        if self._children is not None:
            if duplicate:
                self._children = None  # the shadowed entry must leave its parent's list: rebuilt on demand
            else:
                self._children.setdefault(slot.parent_id, []).append(slot)
        if kind == "label" or kind == "session_info":  # the only types _read_fields reads
            self._read_fields(slot)
        return True

    def _admit(self, slot: Slot, known: Container[str]) -> bool | None:
        """Whether the line shadows an entry of an id in ``known``; ``None`` when pi indexes no entry of it.
        The problems either way are recorded."""
        if slot.type == "session":
            # A header repeated further down (pi's duplicate-header bug): pi indexes no "session" line.
            self.problems.append(Problem("extra_header", "another session header line, ignored", slot.line))
            return None
        if not isinstance(slot.id, str):
            self.problems.append(Problem("missing_id", "entry without a string id, skipped", slot.line))
            return None
        duplicate = slot.id in known
        if duplicate:
            self.problems.append(
                Problem("duplicate_id", f"id {slot.id} appears again; the later entry wins", slot.line, slot.id)
            )
        return duplicate

    def _read_fields(self, slot: Slot) -> None:
        """What the index keeps of an entry itself: labels and the session's name."""
        if slot.type == "label":
            self._apply_label(self.entry_of(slot))
        elif slot.type == "session_info":
            self.name_entry = self.entry_of(slot)

    def _track_thinking(self, slot: Slot, duplicate: bool) -> None:
        parent = slot.parent_id
        if duplicate or (parent and parent not in self._thinking_at):
            self._trusted_chains = False
            return
        self._thinking_at[slot.id] = slot if slot.type == "thinking_level_change" else (
            self._thinking_at[parent] if parent else None
        )

    def _apply_label(self, entry: dict) -> None:
        target, label = entry.get("targetId"), entry.get("label")
        if not isinstance(target, str):
            return
        if js_truthy(label):  # pi's `if (entry.label)`: a label of {} or [] is set, one of 0 is cleared
            self.labels[target] = (label, entry.get("timestamp"))
        else:
            self.labels.pop(target, None)

    # -- queries -------------------------------------------------------------------------------------------

    def entry_of(self, slot: Slot) -> dict:
        return slot.entry if slot.entry is not None else parse_slot(self._data, slot, report=self._report)

    def get(self, entry_id: str | None) -> dict | None:
        slot = self.by_id.get(entry_id) if entry_id is not None else None
        return self.entry_of(slot) if slot is not None else None

    def entry(self, entry_id: str) -> dict:
        found = self.get(entry_id)
        if found is None:
            raise EntryNotFoundError(f"Entry {entry_id} not found")
        return found

    def __len__(self) -> int:
        return len(self.slots)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self.by_id

    def iter_entries(self) -> Iterator[dict]:
        for slot in self.slots:
            yield self.entry_of(slot)

    def last_id(self) -> str | None:
        return self.slots[-1].id if self.slots else None

    def children(self, parent_id: str | None) -> list[dict]:
        """Entries whose parent is ``parent_id`` (``None``: the roots), in file order.

        As pi's ``getChildren`` (which walks ``byId``), a shadowed duplicate is not listed, and the entry
        that shadows it takes its place in the order.
        """
        if self._children is None:
            self._children = {}
            for slot in self.by_id.values():
                self._children.setdefault(slot.parent_id, []).append(slot)
        return [self.entry_of(slot) for slot in self._children.get(parent_id, [])]

    def walk(self, from_id: str | None) -> Iterator[Slot]:
        """Slots from ``from_id`` up to its root, leaf first; a parent cycle ends the walk and is reported."""
        seen: set[str] = set()
        by_id = self.by_id
        slot = by_id.get(from_id) if from_id is not None else None
        while slot is not None:
            if slot.id in seen:
                self._report(Problem("cycle", f"parent cycle through {slot.id}; path cut there", slot.line, slot.id))
                return
            seen.add(slot.id)
            yield slot
            parent = slot.parent_id  # parent_slot, inlined: a path may be 100,000 entries long
            slot = by_id.get(parent) if parent else None

    def parent_slot(self, slot: Slot) -> Slot | None:
        return self.by_id.get(slot.parent_id) if slot.parent_id else None  # pi stops at any falsy parentId

    def parse_batch(self, slots: list[Slot]) -> list[dict]:
        """The entries of ``slots``, parsed in one batch with the garbage collector paused."""
        return parse_slots(self._data, slots, self._report)

    @property
    def chains_trusted(self) -> bool:
        """Whether :meth:`nearest_thinking_change` can be trusted (no duplicate id, no child before its parent)."""
        return self._trusted_chains

    def nearest_thinking_change(self, slot: Slot) -> Slot | None:
        """The nearest ``thinking_level_change`` at or above ``slot``, from an index kept while appending."""
        return self._thinking_at.get(slot.id)

    def path(self, from_id: str | None) -> list[dict]:
        """Entries from the root down to ``from_id`` (root first); ``[]`` for ``None`` or an unknown id."""
        return [self.entry_of(self.by_id[i]) for i in self.path_ids(from_id)]

    def path_ids(self, from_id: str | None) -> list[str]:
        """The ids of :meth:`path`, root first, with the same problem reported; no entry is parsed."""
        ids: list[str] = []
        by_id, keep = self.by_id, ids.append
        slot = by_id.get(from_id) if from_id is not None else None
        # walk's loop without its generator and its set of ids seen (a path may be 100,000 entries long): a
        # path longer than the index holds entries has come back to one, a cycle, which walk finds and reports
        for _ in range(len(by_id)):
            if slot is None:
                break
            keep(slot.id)
            parent = slot.parent_id
            slot = by_id.get(parent) if parent else None
        if slot is not None:
            ids = [slot.id for slot in self.walk(from_id)]
        ids.reverse()
        return ids

    def _report(self, problem: Problem) -> None:
        """Record a problem found while querying, once however often the query runs."""
        if problem not in self.problems:
            self.problems.append(problem)

    report = _report

    def label(self, entry_id: str) -> str | None:
        found = self.labels.get(entry_id)
        return found[0] if found else None

    def name(self) -> str | None:
        """The newest ``session_info`` name, trimmed; an empty one clears the name (pi 0.73)."""
        if self.name_entry is None:
            return None
        name = self.name_entry.get("name")
        return (js_trim(name) or None) if isinstance(name, str) else None

    def tree(self) -> list[TreeNode]:
        """Roots (no parent, self-parent, missing parent) with children sorted by timestamp, as pi's getTree.

        Entries that no root reaches (a parent cycle) are reported and shown as extra roots.
        """
        with _gc_paused():  # as in parse_slots: an object per entry and none in a cycle, nothing to collect
            return self._build_tree(self._entry_node)

    def digest_tree(self, digest: Callable[[dict], Any], *, every_line: bool = False) -> list[DigestNode]:
        """:meth:`tree` with ``digest(entry)`` in place of each entry, for reading a big file in one pass.

        The entries are parsed in file order, handed to ``digest`` and dropped: an entry parsed here is not
        kept in its slot, so the tree costs the digests rather than every entry of the file parsed. With
        ``every_line``, ``digest`` also sees the shadowed duplicates (its result for them is dropped), that is
        exactly the entries :meth:`iter_entries` lists, so that a caller can tally the file in the same pass.
        """
        digests = {}
        # The collections a pass this size triggers would cost a third of it, and find nothing: as in parse_slots.
        data, by_id = self._data, self.by_id
        with _gc_paused():
            for slot in self.slots:  # file order: a later duplicate overwrites the earlier, as in by_id
                if every_line or by_id.get(slot.id) is slot:
                    entry = slot.entry
                    if entry is None:  # what _peek does, inlined: this loop runs once per line of the file
                        entry = parse_in_place(data, slot)
                        if entry is None:
                            entry = parse_slot(data, slot, keep=False, report=self._report)
                    digests[slot.id] = digest(entry)
            return self.digest_nodes(digests)

    def digest_nodes(self, digests: dict[str, Any]) -> list[DigestNode]:
        """:meth:`digest_tree` from digests already made, one per entry id (the entry that id names in
        :attr:`by_id`): a caller that read the file in pieces (:mod:`pi_compact.store.stream`) made them."""

        make = tuple.__new__

        def node(slot: Slot, children: tuple, label: tuple | None) -> DigestNode:
            entry_id = slot.id
            return make(DigestNode, (entry_id, digests[entry_id], children, label[0] if label else None))

        with _gc_paused():
            return self._build_tree(node, digests)

    def _peek(self, slot: Slot) -> dict:
        return slot.entry if slot.entry is not None else parse_slot(self._data, slot, keep=False, report=self._report)

    def peek(self, slot: Slot) -> dict:
        """The slot's entry, parsed if need be but not kept: one pass over a big file keeps no entry."""
        return self._peek(slot)

    @property
    def file_bytes(self) -> bytes:
        """The bytes read when the file was opened (what lazily parsed slots point into)."""
        return self._data

    def raw_line(self, slot: Slot) -> bytes | None:
        """The line's bytes as the file holds them, for a slot not parsed yet; ``None`` once it is parsed (or
        was never read from the file): a search tests the bytes before paying for the parse."""
        if slot.entry is not None or slot.start < 0:
            return None
        return self._data[slot.start : slot.end]

    def _entry_node(self, slot: Slot, children: tuple, label: tuple | None) -> TreeNode:
        return TreeNode(
            entry=self.entry_of(slot),
            children=children,
            label=label[0] if label else None,
            label_timestamp=label[1] if label else None,
        )

    def _build_tree(self, make: Callable[[Slot, tuple, tuple | None], _Node],
                    digests: dict[str, Any] | None = None) -> list[_Node]:
        """The tree's nodes, each made by ``make(slot, children, (label, label timestamp) or None)``; with
        ``digests``, ``make`` is :meth:`digest_nodes`' (a :class:`DigestNode` of the slot's digest)."""
        kids: dict[str, list[Slot]] = {}
        roots: list[Slot] = []
        by_id = self.by_id  # the loops run once per entry of the file: names held locally
        every_slot = len(by_id) == len(self.slots)  # no duplicate id: every slot is the one its id names
        for slot in self.slots:
            if not every_slot and by_id.get(slot.id) is not slot:
                continue  # shadowed duplicate
            parent = slot.parent_id
            if parent is None or parent == slot.id or parent not in by_id:
                roots.append(slot)
            elif (siblings := kids.get(parent)) is None:  # not setdefault: no list made for nothing per entry
                kids[parent] = [slot]
            else:
                siblings.append(slot)
        built = self._forward_nodes(kids, make, digests)
        if built is not None:
            return [built[root.id] for root in roots]
        reached: set[str] = set()
        nodes = [self._node(root, kids, reached, make) for root in roots]
        if len(reached) == len(by_id):
            return nodes  # every entry reached from a root: no cycle to look for
        for slot in self.slots:
            if slot.id not in reached and by_id.get(slot.id) is slot:
                self._report(Problem("cycle", f"entry {slot.id} is on a parent cycle", slot.line, slot.id))
                nodes.append(self._node(slot, kids, reached, make))
        return nodes

    def _forward_nodes(self, kids: dict[str, list[Slot]], make: Callable,
                       digests: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """The roots' nodes by id (every other node under them), built in one pass from the end of the file, or
        ``None`` when some entry comes before its parent (a hand-edited file, a parent cycle): the walk from the
        roots builds those. With ``digests``, the nodes are :meth:`digest_nodes`' made here, not by ``make``.

        pi appends an entry after its parent, so in a file it wrote every child comes later than its parent
        and the file read backwards builds children first: no walk, no stack. A child not built yet when its
        parent is reached is what a cycle (or a child before its parent) comes to, so nothing else is checked.
        """
        built: dict[str, Any] = {}
        by_id, labels, kids_of = self.by_id, self.labels.get, kids.get
        # A DigestNode made without a call to make (once per entry: a tenth of the tree's cost)
        new_node, digest_of = tuple.__new__, (digests.__getitem__ if digests is not None else None)
        for slot in reversed(self.slots):
            entry_id = slot.id
            if by_id[entry_id] is not slot:
                continue  # shadowed duplicate
            below = kids_of(entry_id)
            if below is None:
                children: tuple = ()
            elif len(below) == 1:  # most entries: no list to build, no timestamp to read, nothing to sort
                only = built.pop(below[0].id, None)  # taken out once used: the map holds the unplaced nodes only
                if only is None:
                    return None
                children = (only,)
            else:
                if any(child.id not in built for child in below):
                    return None
                children = tuple(built.pop(child.id) for child in sorted(below, key=lambda c: _sort_ms(c.timestamp)))
            if digest_of is None:
                built[entry_id] = make(slot, children, labels(entry_id))
            else:
                label = labels(entry_id)
                built[entry_id] = new_node(DigestNode, (entry_id, digest_of(entry_id), children, label[0] if label else None))
        return built

    def _node(self, root: Slot, kids: dict[str, list[Slot]], reached: set[str], make: Callable) -> _Node:
        # Iterative post-order build: deep linear sessions would overflow Python's recursion limit.
        order: list[Slot] = []
        stack = [root]
        pop, reach, keep, push, kids_of = stack.pop, reached.add, order.append, stack.extend, kids.get
        while stack:
            slot = pop()
            if slot.id in reached:
                continue
            reach(slot.id)
            keep(slot)
            below = kids_of(slot.id)
            if below is not None:
                push(below)
        built: dict[str, Any] = {}
        labels = self.labels.get
        for slot in reversed(order):
            below = kids_of(slot.id)
            if below is None:
                children: tuple = ()
            elif len(below) == 1:  # most entries: no list to build, no timestamp to read, nothing to sort
                only = built.get(below[0].id)
                children = () if only is None else (only,)
            else:
                present = [c for c in below if c.id in built]
                present.sort(key=lambda c: _sort_ms(c.timestamp))
                children = tuple(built[c.id] for c in present)
            built[slot.id] = make(slot, children, labels(slot.id))
        return built[root.id]


def _sort_ms(timestamp: object) -> float:
    ms = iso_to_ms(timestamp)
    return 0.0 if ms is None else float(ms)
