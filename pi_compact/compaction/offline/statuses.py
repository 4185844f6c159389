"""A status table the agent reports: the state of things, read as done work by the names it gives them.

An agent that checks where things stand (``gh pr list``, a feature checklist, a verification run) often answers with
a table whose rows each carry a state: "| #33 | MERGED | Chapter 11 |", "| `--verbose` flag | ✅ Done |",
"| Session 1 | 4,813 | **PASS** |". Those rows are what exists now, and the next agent needs them by their names
(the PR numbers, the features, the runs), whether or not the turn changed anything: the commands that found them
are not the point, their state is. A row whose state is not reached (open, pending, failed, ❌) states no done work
and is left out; so is a table with no state column (a comparison, a list of options).
"""

from __future__ import annotations

import re

from .state import clip_words

_DONE_STATES = (
    # English: what a tracker, a checklist or a test run says of a finished thing
    r"merged|closed|done|complete|completed|finished|fixed|resolved|shipped|deployed|released|landed|implemented"
    r"|pass|passed|passing|ok|success|succeeded|verified|green"
    # Japanese, Chinese, Korean
    r"|完了|済み?|マージ済み?|対応済み?|実装済み?|クローズ済?み?|成功|合格|已完成|完成|已合并|已关闭|已修复|通过"
    r"|완료|통과|병합됨|닫힘|성공"
    # Portuguese, Spanish, French, German
    r"|concluído|concluida|concluída|feito|aprovado|mesclado|fechado|hecho|completado|terminado|fusionado|aprobado"
    r"|cerrado|terminé|fait|fusionné|réussi|fermé|erledigt|fertig|bestanden|gemergt|abgeschlossen|geschlossen"
)
_STATE_CELL = re.compile(rf"^(?:[✅✔☑🟢]\ufe0f?(?:\s{{0,3}}(?:{_DONE_STATES}))?|(?:{_DONE_STATES}))\s{{0,3}}[.!]?$", re.I)
"""A cell that is only a reached state: a word of :data:`_DONE_STATES`, a check mark, or both (``MERGED``, ``✅ Done``,
``**PASS**``, ``完了``)."""
REACHED = re.compile(rf"(?<![A-Za-z])(?:{_DONE_STATES})(?![A-Za-z])", re.I)
"""A word of a reached state anywhere in a sentence ("PR #5 successfully merged!", "issue #12 closed")."""
_RULE = re.compile(r"^\|?\s{0,3}:?-{2,}:?\s{0,3}(?:\|\s{0,3}:?-{2,}:?\s{0,3})*\|?$")
_PROSE_STATE = re.compile(
    r"\b[0-9]{1,5} commits? (?:ahead of|behind) [`'\"]?[\w./-]{1,60}"
    r"|\bno (?:PR|MR|pull request|merge request)\b(?: (?:exists|is open|opened|yet|for this branch)){0,3}"
    r"|\b(?:PR|MR|pull request|merge request) (?:is )?not (?:yet )?(?:opened|created|open)\b"
    r"|\b(?:branch|it) (?:is )?(?:not (?:yet )?)?pushed\b", re.I)
"""Where a branch stands, said in prose beside a status table ("22 commits ahead of main", "No PR exists yet", "branch
pushed, PR not opened"): the state of what the rows are part of."""
_PROSE_MOST = 3
STATUS_LABEL = "status reported:"
_ROWS_MOST = 8
"""Rows named in the status item: a longer table is a checklist whose first rows say what it is about."""
_ITEM_CHARS = 240


def _cells(line: str) -> list[str]:
    return [cell.strip().replace("**", "").replace("__", "").strip() for cell in line.strip().strip("|").split("|")]


def _state(cell: str) -> bool:
    return bool(cell) and len(cell) <= 40 and _STATE_CELL.match(cell) is not None


def status_rows(answer: str) -> list[tuple[str, str]]:
    """The rows of ``answer``'s markdown tables that carry a reached state, each as its name (the first cell that is
    not the state) and that state: ``("#33", "MERGED")``, ``("`--verbose` flag", "✅ Done")``. A row is read only in
    a table's body (under its rule line); a row of a state not reached is none."""
    rows, in_body = [], False
    for line in answer.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            in_body = False
        elif _RULE.match(line):
            in_body = True
        elif in_body:
            cells = _cells(line)
            states = [cell for cell in cells if _state(cell)]
            name = next((cell for cell in cells if cell and not _state(cell)), "")
            if states and name:
                rows.append((clip_words(name, 60), states[-1]))
    return rows


def status_item(answer: str) -> str:
    """One Done item for the status tables of ``answer``: the names of their rows with a reached state (the first
    :data:`_ROWS_MOST`), grouped by state in the order the agent gave them (``CLOSED: #29; MERGED: #33, #58``), or
    ``""`` when it has none."""
    rows = status_rows(answer)
    if not rows:
        return ""
    by_state: dict[str, list[str]] = {}
    for name, state in rows[:_ROWS_MOST]:
        by_state.setdefault(state, []).append(name)
    more = f" (+{len(rows) - _ROWS_MOST} more)" if len(rows) > _ROWS_MOST else ""
    listed = "; ".join(f"{state}: {', '.join(names)}" for state, names in by_state.items())
    prose = list(dict.fromkeys(found.group().rstrip(".") for found in _PROSE_STATE.finditer(answer.replace("**", ""))))
    branch = "; ".join(prose[:_PROSE_MOST]) + "; " if prose else ""
    return clip_words(f"{STATUS_LABEL} {branch}{listed}{more}", _ITEM_CHARS + len(branch))


__all__ = ["REACHED", "STATUS_LABEL", "status_item", "status_rows"]
