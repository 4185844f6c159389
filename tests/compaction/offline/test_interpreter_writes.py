"""Writes made through an interpreter or a shell idiom are writes (issue 20, class 1): code run by ``python3 -``
from a heredoc, ``python3 -c``, ``node -e``, a script the same command wrote and ran, ``perl -pi``, besides
``sed -i``, ``tee``, ``cat >`` and ``cp``. The file is changed (listed among the modified files) and the change
settles an earlier failed edit of it. A path the code builds at run time is not guessed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.scripts import script_effects
from pi_compact.compaction.offline.shell import shell_effects

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

_PYTHON_WRITES = [
    "with open('{p}', 'w') as f:\n    f.write(text)",
    "open(\"{p}\", \"a\").write('more')",
    "json.dump(data, open('{p}', 'w'), indent=2)",
    "from pathlib import Path\nPath('{p}').write_text(new)",
    "target = '{p}'\ntext = open(target).read().replace('a', 'b')\nopen(target, 'w').write(text)",
    "p = Path(\"{p}\")\np.write_text(p.read_text().replace('30', '60'))",
    "shutil.copy('/tmp/draft', '{p}')",
    "with open('{p}', mode='wb') as out:\n    out.write(blob)",
]
_JS_WRITES = [
    "require('fs').writeFileSync('{p}', JSON.stringify(pkg, null, 2))",
    "const out = '{p}';\nfs.writeFileSync(out, text);",
    "fs.appendFileSync(`{p}`, line)",
]


@pytest.mark.parametrize("code", _PYTHON_WRITES + _JS_WRITES)
def test_code_that_writes_a_literal_path_writes_it(code: str) -> None:
    assert script_effects(code.format(p="src/settings.json")) == (["src/settings.json"], [])


@pytest.mark.parametrize("code", [
    "print(open('src/app.py').read())",  # read, not written
    "for name in ['a.py', 'b.py']:\n    open(name, 'w').write('')",  # a loop variable
    "open(f'out/{name}.json', 'w')",  # built at run time
    "open(os.path.join(root, 'x.py'), 'w')",
    "out = 'a.txt'\nout = 'b.txt'\nopen(out, 'w')",  # a name given two paths names neither
    "fs.writeFileSync(`dist/${name}.js`, code)",
    "if mode == 'w': pass",
])
def test_code_names_no_path_it_does_not_evidently_write(code: str) -> None:
    assert script_effects(code)[0] == []


def test_code_that_deletes_a_file_deletes_it() -> None:
    assert script_effects("import os\nos.remove('old/notes.md')\nPath('tmp.txt').unlink()") == \
        ([], ["old/notes.md", "tmp.txt"])


@pytest.mark.parametrize(("command", "reads", "writes"), [
    ("python3 - <<'EOF'\nopen('cfg/app.toml', 'w').write(s)\nEOF", [], ["cfg/app.toml"]),
    ("cd /repo && python3 <<EOF\nPath('README.md').write_text(t)\nEOF", [], ["README.md"]),
    ("cat <<'PY' | python3 -\nopen('notes.txt', 'a').write('x')\nPY", [], ["notes.txt"]),
    ("uv run python - <<'EOF'\nopen('pkg/version.py', 'w').write(v)\nEOF", [], ["pkg/version.py"]),
    ("python3 -c \"import json; json.dump(d, open('data/index.json', 'w'))\"", [], ["data/index.json"]),
    ("node -e \"require('fs').writeFileSync('package.json', s)\"", [], ["package.json"]),
    ("cat > /tmp/fix.py <<'EOF'\nopen('lib/core.py', 'w').write(s)\nEOF\npython3 /tmp/fix.py",
     [], ["/tmp/fix.py", "lib/core.py"]),
    ("perl -pi -e 's/old/new/g' src/a.c src/b.c", [], ["src/a.c", "src/b.c"]),
    ("perl -i.bak -pe 's/x/y/' lib/M.pm", [], ["lib/M.pm"]),
    ("perl -ne 'print if /TODO/' notes.md", ["notes.md"], []),
    ("install -m 644 build/app.conf etc/app.conf", [], ["etc/app.conf"]),
    # code that is data, or a script nobody showed: nothing named
    ("python3 tool.py <<'EOF'\nopen('x.txt', 'w')\nEOF", [], []),
    ("python3 -m json.tool in.json", [], []),
    ("cat > notes.md <<'EOF'\nopen('x.txt', 'w')\nEOF", [], ["notes.md"]),
], ids=lambda v: v if isinstance(v, str) else None)
def test_shell_effects_of_interpreters_and_in_place_editors(command: str, reads: list[str], writes: list[str]) -> None:
    effects = shell_effects(command)
    assert (effects.reads, effects.writes) == (reads, writes)


def _through_python(path: str) -> str:
    return f"python3 - <<'EOF'\np = '{path}'\nopen(p, 'w').write(open(p).read().replace('30', '60'))\nEOF"


def _through_node(path: str) -> str:
    return f"node -e \"const fs = require('fs'); fs.writeFileSync('{path}', 'timeout = 60')\""


def _through_perl(path: str) -> str:
    return f"perl -pi -e 's/timeout = 30/timeout = 60/' {path}"


PATHS = st.sampled_from(["src/config/loader.py", "docs/guide.md", "web/app.ts"])
WAYS = st.sampled_from([_through_python, _through_node, _through_perl])
FAILED = st.sampled_from([
    ("edit", {"oldText": "timeout = 30", "newText": "timeout = 60"},
     "Could not find the exact text in {path}. The old text must match exactly."),
    ("write", {"content": "timeout = 60\n"}, "EACCES: permission denied, open '{path}'"),  # (a hook's block: none)
])


@EXAMPLES
@given(path=PATHS, way=WAYS)
def test_a_file_written_through_an_interpreter_is_modified(path: str, way) -> None:
    messages = [user("Raise the timeout to 60 seconds; do everything through python3 or node."),
                assistant(call("w", "bash", command=way(path))), result("w", "bash", "")]
    assert extract_facts(messages).modified_files == (path,)
    assert f"`{path.rsplit('/', 1)[-1]}`" in summarize(messages)  # named by its short name (short_paths)


@EXAMPLES
@given(path=PATHS, way=WAYS, failed=FAILED)
def test_an_interpreter_write_settles_the_failed_edit_of_its_file(path: str, way, failed: tuple) -> None:
    tool, arguments, error = failed
    messages = [user("Raise the timeout to 60 seconds."),
                assistant(call("f", tool, path=path, **arguments)),
                result("f", tool, error.format(path=path), error=True),
                assistant("That did not apply; writing it another way.", call("o", "bash", command=way(path))),
                result("o", "bash", ""),
                assistant(call("t", "bash", command="make check")), result("t", "bash", "all good")]
    summary = summarize(messages)
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps"))
    assert items(summary, "### Blocked") == ["(none)"]


@EXAMPLES
@given(path=PATHS, failed=FAILED)
def test_an_interpreter_write_of_another_file_leaves_the_failure_open(path: str, failed: tuple) -> None:
    tool, arguments, error = failed
    messages = [user("Raise the timeout to 60 seconds."),
                assistant(call("f", tool, path=path, **arguments)),
                result("f", tool, error.format(path=path), error=True),
                assistant(call("o", "bash", command=_through_python("notes/elsewhere.txt"))), result("o", "bash", ""),
                assistant("Let me look at why it did not apply.")]
    summary = summarize(messages)
    assert any(step.startswith("Fix") and path.rsplit("/", 1)[-1] in step for step in items(summary, "## Next Steps"))
