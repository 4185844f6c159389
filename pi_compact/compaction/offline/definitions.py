"""The names a change to a file brought in: what it defines, not every word of code it happens to contain.

The details name, per changed file, the functions, classes, components, types and constants an edit or a write
added (:data:`NAMES_LABEL` of :mod:`.details`): the next agent can look them up. An edit's other code-shaped names
(``snake_case``, ``camelCase``) count too where they stand as names of the code (``FilterAndNormalizePaths(paths)``
called by a new test, ``repoRoot := …``), never where they are markup or data: a JSX/HTML attribute or a component's
prop (``className="…"``, ``onClick={…}``, ``<Card title=…>``, ``({ className, onClick })``), a keyword argument
(``f(max_tokens=3)``), a member of something else (``strings.HasPrefix``, ``props.onClick``), a component used as a
tag (``<Button``), a word of a string, a comment or an escape (``"\\nPlease"`` is no ``nPlease``), a shell or
template variable (``$skill_name``, ``chkit_e2e_${id}``). Of a stylesheet (and a component's ``<style>``) the
classes it defines are the names (``.card-header {``).
"""

from __future__ import annotations

import re

NAMES_PER_FILE = 6
_CODE_NAME = re.compile(r"[A-Za-z_$][\w$]{2,60}")
_DEFINED = re.compile(
    r"(?m)^[ \t]{0,16}(?:export[ \t]{1,4})?(?:default[ \t]{1,4})?(?:pub[ \t]{1,4})?(?:async[ \t]{1,4})?"
    r"(?:def|class|function|interface|type|struct|enum|fn|func|trait|module)[ \t]{1,4}([A-Za-z_$][\w$]{1,60})"
    r"(?![\w$])(?![ \t]{0,2}[,}])"  # not ``type Name,`` inside an import list
    r"|^(?:export[ \t]{1,4})?(?:const|let|var)[ \t]{1,4}([A-Za-z_$][\w$]{1,60})")
"""A definition: a function, class, type, or a top-level constant (a local variable is no news)."""
_STYLES = (".css", ".scss", ".sass", ".less", ".styl")
_MARKUP = (".jsx", ".tsx", ".vue", ".svelte", ".html", ".htm", ".astro")
_CSS_CLASS = re.compile(r"(?m)^[ \t]{0,16}(?:&[ \t]{0,2})?\.([A-Za-z_][\w-]{0,60})(?=[^\n{};()]{0,200}\{)")
"""A rule of a stylesheet that defines a class (``.card-header {``, ``.card, .panel {``, Sass's ``&.active {``)."""
_SHELL = (".sh", ".bash", ".zsh", ".env", ".envrc")
"""Files where ``name=value`` opening a line assigns a variable (elsewhere it is a keyword argument or an attribute)."""
_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*+"|'(?:[^'\\\n]|\\.)*+'|`[^`\n]*+`""")
_LINE_COMMENT = re.compile(r"(?m)^[ \t]*+(?://|#|--|\*|/\*|<!--|\{/\*).*$|[ \t](?://|#)[ \t].*$")
_BLOCK_MARKS = (('"""', '"""'), ("'''", "'''"), ("`", "`"), ("/*", "*/"), ("<!--", "-->"))
"""What may span lines: Python's docstrings, template literals (and Go's raw strings), block comments."""
_DESTRUCTURED = re.compile(r"\([ \t]{0,4}\{[^{}()\n]{0,400}\}")
"""``({ className, onClick })``: a component's props taken apart, or an object's fields: names it is given."""


def new_names(new: str, old: str, path: str = "") -> list[str]:
    """The names ``new`` (an edit's or a write's text; ``old``: what the edit replaced, ``""`` for a write) brings
    into the file at ``path``: its definitions first, then, of an edit, the other names of its code."""
    before = set(_CODE_NAME.findall(old))
    if path.lower().endswith(_STYLES):
        found = _CSS_CLASS.findall(new)
    else:
        code = _code(new)
        found = [a or b for a, b in _DEFINED.findall(code)]
        found += [name for block in _style_blocks(new) for name in _CSS_CLASS.findall(block)]
        if old:
            found += _code_names(code, path.lower())
    return list(dict.fromkeys(name for name in found if name not in before))[:NAMES_PER_FILE]


def _code(text: str) -> str:
    """``text`` without its comments and the words of its strings (each string left as ``""``)."""
    for opening, closing in _BLOCK_MARKS:
        if opening in text:
            text = _without_blocks(text, opening, closing)
    return _LINE_COMMENT.sub("", _STRING.sub('""', text))


def _without_blocks(text: str, opening: str, closing: str) -> str:
    kept, position = [], 0
    while (start := text.find(opening, position)) >= 0:
        kept.append(text[position:start])
        end = text.find(closing, start + len(opening))
        if end < 0:
            return "".join(kept)
        kept.append("" if opening in ("/*", "<!--") else '""')
        position = end + len(closing)
    kept.append(text[position:])
    return "".join(kept)


def _style_blocks(text: str) -> list[str]:
    """What the ``<style>`` elements of a component or a page hold."""
    found, position, lowered = [], 0, text.lower()
    while (start := lowered.find("<style", position)) >= 0:
        opened = lowered.find(">", start)
        end = lowered.find("</style>", opened) if opened >= 0 else -1
        if end < 0:
            break
        found.append(text[opened + 1 : end])
        position = end + 8
    return found


def _code_names(code: str, path: str) -> list[str]:
    """The ``snake_case``/``camelCase`` names of ``code`` that stand as names of the code, not as markup or data: a
    name the text uses as an attribute or a prop anywhere is one everywhere (``onClick={onClick}``)."""
    hidden = [(m.start(), m.end()) for m in _DESTRUCTURED.finditer(code)]
    found, markup = [], set()
    for match in _CODE_NAME.finditer(code):
        name = match.group()
        if not ("_" in name.strip("_") or any(a.islower() and b.isupper() for a, b in zip(name, name[1:]))):
            continue
        if "$" in name or any(start <= match.start() < end for start, end in hidden) or \
                _attribute_or_member(code, match.start(), match.end(), path):
            markup.add(name)
        else:
            found.append(name)
    return [name for name in found if name not in markup]


def _attribute_or_member(code: str, start: int, end: int, path: str) -> bool:
    """Whether the name at ``code[start:end]`` is markup or belongs to something else: a member (``x.name``), a tag
    (``<Name``), an escape (``\\nName``), an attribute or prop (``name={…}``, ``name="…"``), a keyword argument
    (``f(max_tokens=3)``, on a line of its own too: an assignment is spaced, ``max_tokens = 3``, or a shell's)."""
    before = code[start - 1] if start else ""
    if (before and before in ".\\<@/") or (before == ":" and code[end : end + 1] == "="):
        return True  # `x.name`, `<Name`, `</Name`, `\nName`, Vue's `@click=`, `:value=`
    after = code[end : end + 2]
    if not after.startswith("=") or after in ("==", "=>"):
        return False
    line_start = code.rfind("\n", 0, start) + 1
    ahead = code[line_start:start].strip()
    if after == "={" or path.endswith(_MARKUP) and after[1:] in ('"', "'"):
        return True  # JSX's `onClick={handler}`, never an assignment; an attribute of markup
    if after[1:].isspace() or not after[1:]:
        return ahead[-1:] in ("(", ",")  # `x = 3` assigns; `f(a, b = 1)` is an argument
    return not (path.endswith(_SHELL) and ahead in ("", "export", "local", "readonly"))  # `name=x`: a shell's


__all__ = ["NAMES_PER_FILE", "new_names"]
