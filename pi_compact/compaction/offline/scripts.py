"""What a script run inline evidently writes: ``python3 - <<'EOF'``, ``python3 -c``, ``node -e`` and friends.

Agents asked to do everything through an interpreter (or blocked from their edit tool) change files from code:
``open("src/app.py", "w").write(...)``, ``Path("README.md").write_text(...)``, ``fs.writeFileSync("a.json", ...)``.
Those are writes like ``sed -i``'s. This module reads the code for such calls on a literal path, or on a name the
code assigns one literal path once (``path = "src/app.py"`` … ``open(path, "w")``); a path built at run time
(``f"out/{name}.json"``, ``os.path.join(...)``, a loop variable) is not guessed.
"""

from __future__ import annotations

import re

_LITERAL = r"""[rRbBuU]?['"`]([^'"`\n\\$]{1,300})['"`]"""
_NAME = r"([A-Za-z_]\w{0,40})"
_TARGET = rf"(?:{_LITERAL}|{_NAME})"
"""A call's path argument: a string literal (no interpolation) or a plain name."""
_WRITING_MODE = r"""(?:mode[ \t]{0,2}=[ \t]{0,2})?['"][rbt+]{0,3}[wax]"""

_WRITES = (
    # Python: open(p, "w"), io/codecs.open; json.dump(x, open(p, "w")) is one
    re.compile(rf"\bopen\(\s{{0,4}}{_TARGET}\s{{0,4}},\s{{0,4}}{_WRITING_MODE}"),
    # Python: Path(p).write_text(...), p.write_bytes(...), p.open("w"), p.touch()
    re.compile(rf"(?:\bPath\(\s{{0,4}}{_LITERAL}\s{{0,4}}\)|\b{_NAME})"
               rf"\.(?:write_text\(|write_bytes\(|touch\(|open\(\s{{0,4}}{_WRITING_MODE})"),
    # Python: shutil.copy(src, p); Node: fs.copyFileSync(src, p): the second argument
    re.compile(rf"\b(?:shutil\.copy(?:file|2)?|copyFileSync|copyFile)\([^,()\n]{{1,200}},\s{{0,4}}{_TARGET}\s{{0,4}}[,)]"),
    # Node: fs.writeFileSync(p, ...), appendFileSync, fs.promises.writeFile; fs-extra's outputFile; Ruby File.write
    re.compile(rf"\b(?:writeFileSync|appendFileSync|writeFile|appendFile|outputFileSync|outputFile|writeJsonSync"
               rf"|File\.write|File\.binwrite)\(\s{{0,4}}{_TARGET}\s{{0,4}},"),
    # Ruby: File.open(p, "w")
    re.compile(rf"\bFile\.open\(\s{{0,4}}{_TARGET}\s{{0,4}},\s{{0,4}}['\"][wa]"),
)
_DELETES = (
    re.compile(rf"\b(?:os\.remove|os\.unlink|unlinkSync|rmSync|File\.delete)\(\s{{0,4}}{_TARGET}\s{{0,4}}[,)]"),
    re.compile(rf"(?:\bPath\(\s{{0,4}}{_LITERAL}\s{{0,4}}\)|\b{_NAME})\.unlink\("),
)
_ASSIGNED = re.compile(
    rf"^[ \t]{{0,40}}(?:(?:const|let|var)[ \t]{{1,4}})?{_NAME}[ \t]{{0,4}}=[ \t]{{0,4}}"
    rf"(?:(?:pathlib\.)?Path\([ \t]{{0,4}})?{_LITERAL}\)?[ \t]{{0,4}};?[ \t]{{0,4}}$",
    re.M,
)
"""``path = "src/app.py"``, ``p = Path('a.md')``, ``const out = 'dist/x.json';``: a name given one literal path."""
_CODE_CHARS = 50_000


def script_effects(code: str) -> tuple[list[str], list[str]]:
    """The paths inline code evidently writes and deletes, each in order of first appearance."""
    code = code[:_CODE_CHARS]
    names = _assigned_names(code)
    return _targets(_WRITES, code, names), _targets(_DELETES, code, names)


def _assigned_names(code: str) -> dict[str, str]:
    """Each name the code assigns a literal path exactly once (one given two paths names neither)."""
    seen: dict[str, set[str]] = {}
    for match in _ASSIGNED.finditer(code):
        seen.setdefault(match.group(1), set()).add(match.group(2))
    return {name: next(iter(paths)) for name, paths in seen.items() if len(paths) == 1}


def _targets(patterns: tuple[re.Pattern, ...], code: str, names: dict[str, str]) -> list[str]:
    found: dict[str, None] = {}
    for pattern in patterns:
        for match in pattern.finditer(code):
            literal, name = match.group(1), match.group(2)
            path = literal if literal is not None else names.get(name or "")
            if path:
                found[path] = None
    return list(found)


__all__ = ["script_effects"]
