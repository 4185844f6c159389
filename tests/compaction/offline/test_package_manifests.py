"""A package manager's command changes the manifest (issue 20, class 6): ``bun add zod`` rewrites ``package.json``,
``uv add httpx`` ``pyproject.toml``, ``cargo add serde`` ``Cargo.toml``, ``go get`` ``go.mod``, in the directory the
command ran in (a ``cd`` of the line, the persistent shell's, an option's). The manifest is listed as modified, not
as read; lock files are left out (the tool regenerates them); ``pip install``, a bare ``npm install``, a global
install change no manifest."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.manifests import manifest_changes
from pi_compact.compaction.offline.shell import shell_effects

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES
from .test_missing_files import _lists

ADDING = st.sampled_from([
    ("bun add zod", "package.json"), ("npm install -D vitest", "package.json"),
    ("npm i --save-dev eslint", "package.json"), ("yarn add react@18", "package.json"),
    ("pnpm add -D typescript", "package.json"), ("npm uninstall lodash", "package.json"),
    ("uv add httpx", "pyproject.toml"), ("uv add --dev pytest", "pyproject.toml"),
    ("poetry add requests", "pyproject.toml"),
    ("pdm remove rich", "pyproject.toml"), ("cargo add serde -F derive", "Cargo.toml"),
    ("go get github.com/spf13/cobra@v1.8.0", "go.mod"), ("composer require monolog/monolog", "composer.json"),
    ("dart pub add http", "pubspec.yaml"), ("bundle add rspec", "Gemfile"), ("pipenv install flask", "Pipfile"),
])
NOT_ADDING = st.sampled_from([
    "pip install requests", "npm install", "npm ci", "bun install 2>&1 | tail -5", "npm install -g pnpm",
    "yarn global add serve", "uv pip install -e .", "uv sync", "npm run build", "bun run test", "go build ./...",
    "cargo install ripgrep", "npm i --no-save left-pad", "yarn workspace web add zod", "pnpm --filter web add zod",
    "cargo add -p core serde", "dotnet add package Serilog", "bunx prettier --write .",
])


@given(adding=ADDING, folder=st.sampled_from(["", "web", "services/api"]))
def test_a_package_manager_command_changes_the_manifest_where_it_ran(adding: tuple, folder: str) -> None:
    command, manifest = adding
    line = f"cd {folder} && {command}" if folder else command
    assert shell_effects(line).writes == [f"{folder}/{manifest}" if folder else manifest]


@given(command=NOT_ADDING)
def test_a_command_that_adds_to_no_manifest_changes_none(command: str) -> None:
    assert shell_effects(command).writes == []


@given(st.sampled_from([("npm", ["--prefix", "web", "install", "zod"], "web/package.json"),
                        ("pnpm", ["-C", "apps/web", "add", "zod"], "apps/web/package.json"),
                        ("bun", ["add", "--cwd=pkg", "zod"], "pkg/package.json"),
                        ("uv", ["add", "--project", "svc", "httpx"], "svc/pyproject.toml"),
                        ("cargo", ["add", "--manifest-path", "crates/a/Cargo.toml", "serde"], "crates/a/Cargo.toml"),
                        ("go", ["-C", "svc", "get", "golang.org/x/sync"], "svc/go.mod"),
                        ("dotnet", ["add", "src/App.csproj", "package", "Serilog"], "src/App.csproj")]))
def test_an_option_naming_the_directory_or_manifest_places_it(case: tuple) -> None:
    program, args, manifest = case
    assert manifest_changes(program, args) == [manifest]


@EXAMPLES
@given(adding=ADDING)
def test_a_manifest_read_then_changed_by_the_package_manager_is_listed_as_modified(adding: tuple) -> None:
    command, manifest = adding
    path = f"web/{manifest}"
    messages = [user("Add the dependency to the web app."),
                assistant(call("r", "read", path=path)), result("r", "read", "{}"),
                assistant(call("c", "bash", command=f"cd web && {command}")), result("c", "bash", "added 1 package")]
    assert _lists(messages) == ([], [path])


@given(st.sampled_from([("Bash", "cd frontend", "bun add zod"),
                        ("shell", None, ["bash", "-lc", "cd frontend && bun add zod"])]))
def test_the_shell_the_command_ran_in_places_the_manifest(case: tuple) -> None:
    tool, move, command = case  # Claude Code's shell keeps a `cd` of its own; Codex wraps the line in `bash -lc`
    moved = [assistant(call("m", tool, command=move)), result("m", tool, "")] if move else []
    messages = [user("Add zod to the frontend."), *moved,
                assistant(call("c", tool, command=command)), result("c", tool, "installed zod@3.23.8")]
    assert _lists(messages) == ([], ["frontend/package.json"])
