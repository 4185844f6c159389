"""``pi-compact session search FILE QUERY``: find text, a file path or an entry id anywhere in a session.

The search of :func:`pi_compact.recall`, over every entry of the file by default (the file read in pieces,
never held whole: each line's bytes are tested and only the likely matches parsed). ``--compacted`` limits it
to what the chat's ``recall`` tool searches: the entries behind the current branch's compactions, and with
``--all-branches`` the abandoned branches too.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..errors import UsageError
from .app import session_app
from .params import FileArg, FileCommand, number


@session_app.command("search", cls=FileCommand)
def search_command(
    file: FileArg,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="Text, a file path, or an entry id (prefix).",
                                         show_default=False)],
    limit: Annotated[int, typer.Option(parser=number("--limit", 1, 50), metavar="N", help="Show at most this many matches (1-50).")] = 10,
    compacted: Annotated[bool, typer.Option("--compacted", help="Only what the context no longer holds (the "
                                            "entries behind the current branch's compactions), as recall.")] = False,
    all_branches: Annotated[bool, typer.Option("--all-branches", help="With --compacted: abandoned branches too "
                                               "(without it every branch is searched anyway).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Search a session's entries by text, file path or entry id, newest first.

    Text matches without regard to case: the phrase, else all of its words. Every entry of the file is
    searched (hits off the current branch are marked); --compacted searches only what compaction took out
    of the context, which stays in the file.

    Examples:

    \b
      pi-compact session search work.jsonl ENOENT
      pi-compact session search -c "config.yml" --limit 3 --json
      pi-compact session search work.jsonl parser --compacted --all-branches
    """
    from ..recaller import recall, recall_file
    from .output import write_json
    from .session_cmds import _open, _read, _warn

    if not query.strip():
        raise UsageError("QUERY is empty")
    # The whole session is searched in pieces, the file never held whole; what that declines, opened whole
    read = None if compacted else _read(recall_file, file, query, limit=limit)
    if read is not None:
        session, found = read
        _warn(session)
    else:
        with _open(file) as session:
            found = recall(session, query, limit=limit, include_abandoned=all_branches, whole_session=not compacted)
            _warn(session)
    if as_json:
        write_json({
            "query": found.query,
            "byId": found.by_id,
            "totalMatches": found.total_matches,
            "entriesSearched": found.entries_searched,
            "hits": [{"id": h.entry_id, "kind": h.kind, "timestamp": h.timestamp, "abandoned": h.abandoned,
                      "excerpt": h.excerpt} for h in found.hits],
        })
        return
    _print_human(found, compacted)


def _print_human(found, compacted: bool) -> None:
    import sys

    from .plain import rich_adds_nothing, soft_wrapped

    lines = _human_lines(found, compacted)
    if rich_adds_nothing():  # rich's very lines, without importing its console
        sys.stdout.write(soft_wrapped("".join(text for text, _ in line) for line in lines))
        return
    from rich.text import Text

    from .render import stdout_console

    console = stdout_console()
    for line in lines:
        console.print(Text.assemble(*((text, style) for text, style in line)), soft_wrap=True)


def _human_lines(found, compacted: bool) -> list[list[tuple[str, str]]]:
    """The lines of the report as (text, style) parts; each printed whole, never wrapped (a pipe gets them as
    they are, a narrow terminal folds them)."""
    from .plain import counted
    from .visible import visible, visible_line

    kind = ("compacted and abandoned " if any(h.abandoned for h in found.hits) else "compacted ") if compacted else ""
    lines = [[(f"{counted(found.total_matches, 'match', 'matches')} in "
               f"{counted(found.entries_searched, kind + 'entry', kind + 'entries')}", "bold")]]
    for hit in found.hits:
        where = (" · abandoned branch" if compacted else " · another branch") if hit.abandoned else ""
        lines.append([(visible_line(f"{hit.entry_id} "), "bold"),
                      (visible_line(f"{hit.kind}{where} {hit.timestamp or ''}"), "dim")])
        lines.append([("  " + visible(hit.excerpt).replace("\n", "\n  "), "")])
    if found.total_matches > len(found.hits):
        lines.append([(f"… {found.total_matches - len(found.hits)} more (use --limit)", "dim")])
    return lines


__all__ = ["search_command"]
