"""``pi-compact session …``: look at one session file (show, tree, context, info), list a folder, and edit.

Read commands print for people by default and, with ``--json``, print one JSON document and nothing else on
stdout; problems found in a file go to stderr as warnings either way. The editing commands (label, name,
fork) append through the library, so they add lines and never rewrite what is there. rich is imported only
inside the commands (through :mod:`pi_compact.cli.render`) to keep ``--help`` fast.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from ..errors import NotASessionError, UsageError
from ..session import Session
from ..session_json import (
    RowsOf,
    entry_tokens,
    file_counted_tree,
    file_info_json,
    session_tree_json,
    show_json_digest,
    show_json_document,
)
from .app import session_app
from .output import write_json
from .params import FileArg, FileCommand

if TYPE_CHECKING:
    from ..compaction.estimate_cache import EstimateCache

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a drawing.")]
_T = TypeVar("_T")
EntryArg = Annotated[str, typer.Argument(metavar="ENTRY", help="An entry id, a unique id prefix or a label.", show_default=False)]


# -- read commands -------------------------------------------------------------------------------------------


@session_app.command("show", cls=FileCommand)
def show(
    file: FileArg,
    as_json: JsonOpt = False,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Read and estimate every line anew; neither read nor write the cache.")
    ] = False,
) -> None:
    """Show a session: header, counts and tree.

    The tree shows every branch, labels, the leaf and the path to it, compaction and branch-summary entries,
    and an estimated token count per message.

    The estimates, and each line's row of the tree (id, type, parent, time, and the start of its text as
    printed), are kept in a cache keyed by each line's content, 0600 under $PI_COMPACT_CACHE_DIR, else
    $XDG_CACHE_HOME/pi-compact, else ~/.cache/pi-compact, so that showing the session again reads only new
    or changed lines. PI_COMPACT_CACHE_DIR='' or --no-cache turns it off.

    Examples:

    \b
      pi-compact session show work.jsonl
      pi-compact session show -c --json
    """
    # Read in pieces, never held whole: memory is the index and what is printed, whatever the file's size.
    if as_json:
        cache = _estimate_cache(file, no_cache)
        session, roots, counts = _read(file_counted_tree, file, show_json_digest(cache), with_lines=True)
        data = show_json_document(session, roots, counts)
        _warn(session)
        _save(cache)
        write_json(data)
        _kept_to_exit(counts.entries, session, roots, cache)
        return
    from ..store.scan import _gc_paused
    from . import render

    estimate = render.token_estimator()
    cache = _estimate_cache(file, no_cache, estimate, rows=render.ROW_SOURCES)
    look = render.entry_look(cache.keyed(entry_tokens(estimate)))
    rows = RowsOf(cache, render.look_row, render.looks_of_rows) if cache.rows_version is not None else None
    # Paused to the end, not only while reading: the first collection after the read would walk every node and
    # digest of the tree (a tenth of a second for 100,000 entries) to find no cycle.
    with _gc_paused():
        session, roots, counts = _read(file_counted_tree, file, look, with_lines=True, rows=rows)
        on_path = frozenset(session.path_ids())
        _warn(session)
        _save(cache)
        console = render.stdout_console()
        render.key_values(console, _header_rows(session))
        render.print_counts(console, counts.entries, counts.types, counts.roles)
        console.print()
        render.print_tree(console, roots, render.TreeStyle(session.leaf_id, on_path))
        _kept_to_exit(counts.entries, session, roots, cache, on_path, look)


@session_app.command("tree", cls=FileCommand)
def tree(file: FileArg, as_json: JsonOpt = False) -> None:
    """Draw the entry tree.

    Under the tree, each branch summary: where it hangs and the abandoned branch it summarises.

    With --json: nested nodes {id, parentId, type, role?, label?, timestamp, children}.

    Examples:

    \b
      pi-compact session tree 0193a2
      pi-compact session tree work.jsonl --json
    """
    with _open(file) as session:
        if as_json:
            data = session_tree_json(session)
        else:
            from . import render

            roots = session.digest_tree(render.entry_look())
        on_path = frozenset(session.path_ids())  # walking it reports a parent cycle on the path, for the warnings
        _warn(session)
        if as_json:
            write_json(data)
            return
        from .branch_cmds import print_branch_summaries

        console = render.stdout_console()
        render.print_tree(console, roots, render.TreeStyle(session.leaf_id, on_path))
        print_branch_summaries(console, session)


@session_app.command("context", cls=FileCommand)
def context(
    file: FileArg,
    leaf: Annotated[
        str | None,
        typer.Option("--leaf", help="Build for this entry (id, prefix, label) instead of the leaf; 'root': empty."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print exactly pi's buildSessionContext object.")] = False,
) -> None:
    """Print the context the model sees.

    The messages, thinking level and model that pi's buildSessionContext gives at the leaf (or at --leaf).

    Examples:

    \b
      pi-compact session context -c
      pi-compact session context work.jsonl --leaf checkpoint --json
    """
    with _open(file) as session:
        built = session.build_context(session.resolve(leaf)) if leaf is not None else session.build_context()
        _warn(session)
        if as_json:
            write_json(built.to_json())
            return
        from . import render

        render.print_context(render.stdout_console(), built.to_json())


@session_app.command("info", cls=FileCommand)
def info(file: FileArg, as_json: JsonOpt = False) -> None:
    """Summarize a session in figures.

    Id, path, cwd, name, dates, message and entry counts, the leaf, labels, size, version, problems.

    Examples:

    \b
      pi-compact session info -c
      pi-compact session info work.jsonl --json
    """
    # In pieces: memory does not grow with the file. A line `session show` kept a row of is read from it.
    session, data = _read(file_info_json, file, _known_rows(file))
    _warn(session)
    if as_json:
        write_json(data)
        return
    rows = [(key, "—" if value is None else value) for key, value in data.items() if key != "problems"]
    rows = [(key, f"{value:,} bytes" if key == "fileSize" else value) for key, value in rows]
    rows.append(("problems", len(data["problems"])))
    from .plain import key_value_lines, rich_adds_nothing

    lines = key_value_lines(rows) if rich_adds_nothing() else None
    if lines is not None:  # rich's very lines, without importing it
        sys.stdout.write(lines)
        return
    from . import render

    render.key_values(render.stdout_console(), rows)


@session_app.command("list")
def list_(
    directory: Annotated[
        Path | None,
        typer.Argument(
            metavar="DIR", help="A folder of sessions [default: pi's folder for this directory].", show_default=False
        ),
    ] = None,
    all_projects: Annotated[bool, typer.Option("--all", help="Every project's sessions.")] = False,
    as_json: JsonOpt = False,
    agent: Annotated[
        str | None, typer.Option("--agent", metavar="AGENT", help="claude-code or codex: that agent's sessions for this directory.")
    ] = None,
) -> None:
    """List sessions, newest first.

    Examples:

    \b
      pi-compact session list
      pi-compact session list --all --json
      pi-compact session list --agent claude-code
    """
    if agent is not None:
        if all_projects or directory is not None:
            raise UsageError("--agent lists this directory's sessions; give no DIR or --all with it")
        from .import_cmds import print_agent_sessions

        print_agent_sessions(agent, as_json)
        return
    from ..store.listing import list_all_sessions, list_sessions
    from ..store.paths import default_session_dir

    if all_projects and directory is not None:
        raise UsageError("give a DIR or --all, not both")
    if directory is not None and not directory.is_dir():
        raise UsageError(f"{directory} is not a directory")
    folder = directory if directory is not None else default_session_dir(os.getcwd())
    found = list_all_sessions() if all_projects else list_sessions(folder)
    rows = [item.to_json() for item in found]
    if as_json:
        write_json(rows)
        return
    from . import render

    console = render.stdout_console()
    if not rows:
        where = "any project" if all_projects else render.visible(str(folder))
        console.print(render.Text(f"no sessions in {where}", style="dim"))
        return
    render.print_listing(console, rows, show_cwd=all_projects)


# -- editing commands ----------------------------------------------------------------------------------------


@session_app.command("label", cls=FileCommand)
def label(
    file: FileArg,
    entry: EntryArg,
    text: Annotated[str | None, typer.Argument(metavar="TEXT", help="The label.", show_default=False)] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Remove the entry's label.")] = False,
) -> None:
    """Label an entry (or --clear its label).

    Appends one label entry; ENTRY may be an id, a unique id prefix or a current label.

    Examples:

    \b
      pi-compact session label -c 4a8ad824 before-refactor
      pi-compact session label work.jsonl before-refactor --clear
    """
    if clear == (text is not None):
        raise UsageError("give a label TEXT or --clear (one of them)")
    if text is not None and not text.strip():
        raise UsageError("the label is empty; use --clear to remove a label")
    with _open(file) as session:
        target = _entry_id(session, entry)
        session.append_label(target, None if clear else text)
    from .render import one_line

    typer.echo(f"cleared the label of {one_line(target)}" if clear else f"labelled {one_line(target)}")


@session_app.command("name", cls=FileCommand)
def name(
    file: FileArg,
    new_name: Annotated[str, typer.Argument(metavar="NAME", help="The new name ('' clears it).", show_default=False)],
) -> None:
    """Name the session.

    Appends one session_info entry; an empty NAME clears the name.

    Examples:

    \b
      pi-compact session name -c "Refactor the store"
      pi-compact session name work.jsonl ''
    """
    with _open(file) as session:
        session.append_session_info(new_name)
        current = session.name
    typer.echo("name cleared" if current is None else "named the session")


@session_app.command("fork", cls=FileCommand)
def fork(
    file: FileArg,
    entry: EntryArg,
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="The new file [default: a new file next to FILE].", show_default=False),
    ] = None,
) -> None:
    """Fork the path to ENTRY into a new session.

    Copies the entries from the root to ENTRY into a new file that names FILE as its parent session,
    with the labels of those entries, and prints the new file's path.

    Examples:

    \b
      pi-compact session fork -c checkpoint
      pi-compact session fork work.jsonl 4a8ad824 -o experiment.jsonl
    """
    with _open(file) as session:
        with session.fork(_entry_id(session, entry), output) as forked:
            typer.echo(str(forked.path))


# -- helpers -------------------------------------------------------------------------------------------------


def _open(path: Path) -> Session:
    try:
        return Session.open(path)
    except NotASessionError as exc:
        raise NotASessionError(f"{path}: not a session file: {exc}") from None


def _read(read: Callable[..., _T], path: Path, *args: Any, **options: Any) -> _T:
    """``read(path, *args, **options)``, one of the session_json readers that take the file in pieces, with
    :func:`_open`'s error for a file that is no session."""
    try:
        return read(path, *args, **options)
    except NotASessionError as exc:
        raise NotASessionError(f"{path}: not a session file: {exc}") from None


def _entry_id(session: Session, ref: str) -> str:
    entry_id = session.resolve(ref)
    if entry_id is None:
        raise UsageError(f"{ref!r} names the position before the first entry, not an entry")
    return entry_id


def _estimate_cache(path: Path, off: bool, estimate: Callable[[dict], int] | None = None,
                    rows: tuple[str, ...] = ()) -> EstimateCache:
    """The token estimate cache of the session at ``path``, with the rows made by the package's files ``rows``
    (paths under the package) if any; an empty one, used by nobody, when ``off`` or when ``estimate`` is not
    the library's estimator (the cache's version describes that one only)."""
    from ..compaction.estimate_cache import EstimateCache, rows_version_of
    from ..compaction.tokens import estimate_tokens

    if off or (estimate is not None and estimate is not estimate_tokens):
        return EstimateCache(None)
    version = None
    if rows:
        package = Path(__file__).resolve().parents[1]
        try:
            version = rows_version_of(package / name for name in rows)
        except OSError:  # installed without its sources: no version to trust, so no rows
            pass
    return EstimateCache.open(path, rows_version=version)


def _known_rows(path: Path) -> Callable[[int], tuple | None] | None:
    """The rows ``session show`` keeps of the session at ``path`` (its cache's :meth:`EstimateCache.row
    <pi_compact.compaction.estimate_cache.EstimateCache.row>`), or ``None`` when there are none. Read only:
    the cache is never written here, a folder it cannot use is passed over in silence (nothing was written)."""
    from ..compaction.estimate_cache import EstimateCache, rows_version_of

    try:
        if not EstimateCache.exists(path):  # a session never shown: not even the drawing code imported
            return None
    except (OSError, ValueError):  # ValueError: a NUL in the variable
        return None
    from ..session_json import INFO_ROW_COLUMNS
    from ..store.scan import _gc_paused
    from .render import ROW_SOURCES

    package = Path(__file__).resolve().parents[1]
    try:
        version = rows_version_of(package / name for name in ROW_SOURCES)
    except OSError:  # installed without its sources: no version to trust, so no rows
        return None
    with _gc_paused():  # 100,000 rows made at once: a collection would walk them all to find no cycle
        cache = EstimateCache.open(path, rows_version=version, columns=INFO_ROW_COLUMNS, figures=False)
    return cache.row if cache.rows_read else None


KEPT_TO_EXIT_ENTRIES = 10_000
"""From this many entries on, what ``session show`` read is kept to the end of the process (:func:`_kept_to_exit`)."""
_kept: list[Any] = []


def _kept_to_exit(entries: int, *read: object) -> None:
    """Keep what a command read of a session of ``entries`` entries (its tree, index, rows) to the end of the
    process, never freed, when there are :data:`KEPT_TO_EXIT_ENTRIES` or more: the command ends when this
    returns, and freeing the objects of 100,000 entries one by one was a tenth of ``session show`` (the
    system takes the memory back at once). The output is written and the cache saved before, and the process
    ends as ever (streams flushed, exit handlers run); only the freeing is skipped.

    Held in a cycle moved out of the collector's reach (:func:`gc.freeze`): neither the end of the function
    nor the interpreter's last collection frees them. Not done for a smaller session, so that a caller running
    commands in one process (the tests) keeps no more than a few of them, and its collector stays whole."""
    if entries < KEPT_TO_EXIT_ENTRIES:
        return
    import gc

    if not _kept:
        _kept.append(_kept)  # the cycle: the module's reference, dropped when the interpreter ends, is not the last
    _kept.append(read)
    gc.freeze()


def _warn(session: Session) -> None:
    if session.problems:
        from . import render

        render.warn(session.problems)


def _save(cache: EstimateCache) -> None:
    """Write the estimate cache back (when it changed), and say once why it could not be used, if it could not."""
    cache.save()
    if cache.problem is not None:
        from . import render

        render.warn([cache.problem])


def _header_rows(session: Session) -> list[tuple[str, object]]:
    header = session.header
    version = str(header.get("version", session.version))
    if session.version != header.get("version"):
        version += f" (migrated in memory from v{session.version})"
    rows: list[tuple[str, object]] = [
        ("session", session.id),
        ("file", session.path),
        ("cwd", session.cwd),
        ("created", header.get("timestamp", "")),
        ("version", version),
    ]
    parent = header.get("parentSession") or header.get("branchedFrom")
    if parent:
        rows.append(("parent", parent))
    rows += [("name", session.name or "(none)"), ("leaf", session.leaf_id or "(before the first entry)")]
    return rows
