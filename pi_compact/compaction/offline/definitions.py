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
from collections.abc import Collection, Iterable

NAMES_PER_FILE = 6
_CODE_NAME = re.compile(r"[A-Za-z_$][\w$]{2,60}")
_FORMS = (r"def|defp|defmodule|defmacrop?|defguardp?|defdelegate|defprotocol|class|function|interface|type|struct"
          r"|enum|fn|func|trait|module|fun|object")
"""The words that open a definition in the languages agents work in (Python, Ruby, Elixir, JS/TS, Go, Rust,
Kotlin, Swift): what follows is a name the code defines."""
_MODIFIERS = (r"(?:(?:export|default|pub(?:\([\w:]{1,20}\))?|async|abstract|public|private|protected|internal|static"
              r"|final|unsafe|const|declare|sealed|data|open|override|inline|extern)[ \t]{1,4}){0,4}")
_RECEIVER = r"(?:\([^()\n]{0,80}\)[ \t]{0,4})?"
"""Go's method receiver, ``func (s *Store) Name(``."""
_NAME = r"([A-Za-z_$][\w$]{1,60}(?:\.[A-Za-z_$][\w$]{0,60}){0,4})"
"""A defined name; dotted for a module (Elixir's ``defmodule App.Accounts``)."""
_DEFINED = re.compile(
    rf"(?m)^[ \t]{{0,16}}{_MODIFIERS}(?:{_FORMS})[ \t]{{1,4}}{_RECEIVER}{_NAME}"
    r"(?![\w$])(?![ \t]{0,2}[,}])"  # not ``type Name,`` inside an import list
    r"|^(?:export[ \t]{1,4})?(?:const|let|var)[ \t]{1,4}([A-Za-z_$][\w$]{1,60})")
"""A definition: a function, class, module, type, or a top-level constant (a local variable is no news)."""
_METHOD = re.compile(
    r"(?m)^[ \t]{0,16}(?!(?:if|else|for|while|switch|catch|return|do|try|with|elif|when|unless|until|foreach|using"
    r"|lock|await|yield|throw|new|case|defer|go|select|match|loop)\b)"
    rf"{_MODIFIERS}(?:[A-Za-z_][\w<>\[\],.*&:?]{{0,60}}[ \t]{{1,4}}){{0,2}}([A-Za-z_$][\w$]{{1,60}})"
    r"[ \t]{0,4}\([^()\n]{0,200}\)[^\n{};=()]{0,80}\{[ \t]*$")
"""A method or a C-like function opening its body on its line, ``async fetchUser(id) {``, ``int parse(char *s) {``:
its arguments close on the line (a call handed a callback, ``describe("x", () => {``, leaves one open)."""
_DECLARED = re.compile(
    r"(?m)^[ \t]{0,16}(?:(?:export|pub|const|let|var|val|static|readonly|private|public|protected|local|final|mut)"
    r"[ \t]{1,4}){0,3}([A-Za-z_$][\w$]{1,60})"
    r"(?=[ \t]{0,4}(?:,[ \t]{0,4}[A-Za-z_$][\w$]{0,60}[ \t]{0,4}){0,4}(?::=|=(?![=>~])|\??:(?![:=])))")
"""A name a line opens by giving it a value or a type: ``repo_root = …``, ``repoRoot, err := …``, ``limit: int``."""
_GO_FIELD = re.compile(r"(?m)^[ \t]{1,16}([A-Z][\w]{1,60})[ \t]{1,16}[*\[\]]{0,4}[A-Za-z_][\w.]{0,60}"
                       r"[ \t]{0,16}(?:`|""|//|$)")
"""A field of a Go struct, ``AgentLines int `json:"agent_lines"```, its tag a string (``""``) once strings are
emptied."""
_ANYWHERE = re.compile(rf"\b(?:{_FORMS}|const|let|var|val)[ \t]{{1,4}}{_RECEIVER}([A-Za-z_$][\w$]{{1,60}})")
"""A definition anywhere in a text: in a file the agent read (its lines numbered, ``12→def f``), grep's output
(``src/a.py:12:def f``)."""
_CALL = re.compile(r"\b([A-Za-z_][\w]{2,60})[ \t]{0,2}\(")
_TEXT_CHARS = 200_000
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


def new_names(new: str, old: str, path: str = "", known: Collection[str] = ()) -> list[str]:
    """The names ``new`` (an edit's or a write's text; ``old``: what the edit replaced, ``""`` for a write) brings
    into the file at ``path``: its definitions first, then, of an edit, the other names of its code that it gives a
    value (``repo_root = …``) or that the project defines (``known``: :func:`defined_names` of the region). A call
    to anything else is a call to the language or a library (``is_integer(x)``, ``parseInt(s)``,
    ``assert_eq!(a, b)``): no name the change brought in."""
    before = set(_CODE_NAME.findall(old))
    if path.lower().endswith(_STYLES):
        found = _CSS_CLASS.findall(new)
    else:
        code = _code(new)
        found = _definitions(code)
        found += [name for block in _style_blocks(new) for name in _CSS_CLASS.findall(block)]
        if old:
            ours = _declared(code, path.lower()) | _project_calls(code, path.lower())
            found += [name for name in _code_names(code, path.lower()) if name in ours or name in known]
    return list(dict.fromkeys(name for name in found if name not in before))[:NAMES_PER_FILE]


def defined_names(texts: Iterable[str]) -> set[str]:
    """The names ``texts`` (what the agent wrote, read and searched) show defined: the project's own, which a change
    that calls them brings into a file as much as one that defines them."""
    found: set[str] = set()
    for text in texts:
        found.update(_ANYWHERE.findall(text[:_TEXT_CHARS]))
        # a module's own names: given a value at the top (``DOMAIN_KEYWORDS = {``), or exported from a block (Go's
        # ``var (`` … ``ErrNotFound = errors.New(…)``); a function's locals (``repoRoot :=``) are its own business
        found.update(m.group(1) for m in _DECLARED.finditer(text[:_TEXT_CHARS])
                     if m.group(1)[0].isupper() or not m.group(0)[0].isspace())
    return found


def _definitions(code: str) -> list[str]:
    found = [(a or b).rstrip(".") for a, b in _DEFINED.findall(code)]
    # a method is found by a looser form than a keyword's: a one-word one (``print(value) {`` of an object handed
    # to a call, ``render() {``) tells little
    return found + [name for name in _METHOD.findall(code) if _shaped(name)]


def _shaped(name: str) -> bool:
    """A ``snake_case`` or ``camelCase`` name: a name of the code, not a word."""
    return "_" in name.strip("_") or any(a.islower() and b.isupper() for a, b in zip(name, name[1:]))


def _project_calls(code: str, path: str) -> set[str]:
    """Go's calls of a bare name are to its own package: the language's built-ins are one lowercase word (``make``,
    ``append``: no code-shaped name) and its standard library is reached through a package (``strings.HasPrefix``)."""
    return set(_CALL.findall(code)) if path.endswith(".go") else set()


def _declared(code: str, path: str) -> set[str]:
    found = set(_DECLARED.findall(code))
    return found | set(_GO_FIELD.findall(code)) if path.endswith(".go") else found


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
        if not _shaped(name):
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


__all__ = ["NAMES_PER_FILE", "defined_names", "new_names"]
