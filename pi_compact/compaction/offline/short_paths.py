"""Files named by the fewest path segments that still tell them apart.

Every stored summary ends with pi's ``<modified-files>`` list (:func:`.compose.compose`), which names each changed
file by its whole path. A list of the same files inside the summary ("Files changed (by last action):") repeated
those paths whole: in a project of deep folders (``apps/demo/src/components/interactive/…``) the directories took a
fifth of the summary's room, the room the details need. Inside the summary a file is named by its shortest ending
of whole segments that no other file of the list shares (``keyfile.ts``, and ``services/index.ts`` beside
``atoms/index.ts``); the list at the end says where each one is.
"""

from __future__ import annotations

from collections import Counter


def _ending(path: str, depth: int) -> str:
    """The last ``depth`` segments of ``path`` (the whole path when it has no more)."""
    return "/".join(path.split("/")[-depth:])


def short_names(paths: list[str]) -> dict[str, str]:
    """Each of ``paths`` by its shortest ending of whole segments that no other of ``paths`` ends with. One pass
    per depth over the paths still shared, so the cost is the paths times their deepest shared ending."""
    unique = list(dict.fromkeys(paths))
    names: dict[str, str] = {}
    pending, depth = unique, 1
    while pending:
        counts = Counter(_ending(path, depth) for path in unique)
        left = []
        for path in pending:
            ending = _ending(path, depth)
            if counts[ending] == 1 or ending == path:
                names[path] = ending
            else:
                left.append(path)
        pending, depth = left, depth + 1
    return names


def endings(path: str) -> list[str]:
    """Every ending of whole segments of ``path``, the shortest first: the names a summary may give the file."""
    parts = path.split("/")
    return ["/".join(parts[-depth:]) for depth in range(1, len(parts) + 1)]


def same_file(one: str, other: str) -> bool:
    """Two names of one file: equal, or the one a whole-segment ending of the other (``keyfile.ts`` of
    ``apps/demo/src/services/keyfile.ts``), as a summary and the region name it."""
    short, long = sorted((one, other), key=len)
    return short == long or long.endswith("/" + short)


__all__ = ["endings", "same_file", "short_names"]
