"""A step outside the code that succeeded is done work (progress.py): a deploy, a release, a migration, a push,
a merge. The turn that ran it acted, though it changed no file; the agent's report of it ("Deployed v42 to
https://…", "PR #87 is merged", "Publiquei a v1.4.0") is its Done item, and when the answer only says "Done." the
command names it ("ran `python manage.py migrate`"). Near misses are not done: a deploy that failed, a step the work
still waits on ("It needs to be deployed before it takes effect"), one denied ("not pushed yet"), one announced."""

from __future__ import annotations

import pytest

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items


def _done(request: str, command: str, output: str, answer: str, *, failed: bool = False, edit: str = "") -> list[str]:
    messages = [user(request)]
    if edit:
        messages += [assistant(call("e1", "edit", path=edit, oldText="a", newText="b")), result("e1", "edit", "Edited.")]
    messages += [assistant(call("b1", "bash", command=command)),
                 result("b1", "bash", bash_fail(output, 1) if failed else output, error=failed),
                 assistant(answer)]
    return [line for line in items(summarize(messages), "### Done") if not line.startswith("Files changed")]


@pytest.mark.parametrize("request_text, command, output, answer, named", [
    ("deploy the api to fly", "fly deploy", "--> v42 deployed successfully\nhttps://api-demo.fly.dev/",
     "Deployed v42 to https://api-demo.fly.dev/ — health check is green.", "https://api-demo.fly.dev/"),
    ("ship it", "npx vercel --prod", "Production: https://shop-x1.vercel.app [12s]",
     "Deployed to production: https://shop-x1.vercel.app", "https://shop-x1.vercel.app"),
    ("merge the PR once CI is green", "gh pr merge 87 --squash", "✓ Squashed and merged pull request #87",
     "PR #87 (coupon codes) is merged into `main`.", "#87"),
    ("publica a nova versão", "npm publish", "+ @acme/ui@1.4.0", "Published `@acme/ui@1.4.0` to npm.",
     "@acme/ui@1.4.0"),
])
def test_a_step_the_agent_reports_done_is_a_done_item(request_text: str, command: str, output: str, answer: str,
                                                     named: str) -> None:
    assert any(named in line for line in _done(request_text, command, output, answer))


@pytest.mark.parametrize("command", ["python manage.py migrate", "npx prisma migrate deploy", "git push origin main"])
@pytest.mark.parametrize("answer, edit", [("Done.", "migrations/0042_orders_index.py"), ("Pushed.", "")])
def test_a_step_the_answer_does_not_name_is_named_by_its_command(command: str, answer: str, edit: str) -> None:
    """("Pushed." is too short to be a result: the command still says what was done, not "answered".)"""
    done = _done("add the orders index and apply it", command, "OK", answer, edit=edit)
    assert any(f"ran `{command}`" in line for line in done)


@pytest.mark.parametrize("answer, failed", [
    ("The deploy failed: the Docker build could not find `requirements.txt`.", True),
    ("Built the image. It needs to be deployed with `fly deploy` before it takes effect.", False),
    ("The image is built but not deployed yet: `fly deploy` needs your token.", False),
    ("I'll deploy it once you confirm the new env vars.", False),
])
def test_a_step_not_done_is_no_done_item(answer: str, failed: bool) -> None:
    done = _done("deploy the api to fly", "fly deploy" if failed else "docker build .", "error" if failed else "ok",
                 answer, failed=failed)
    assert not any("deploy" in line.lower() for line in done)


@pytest.mark.parametrize("command", ["git push --dry-run origin main", "git stash push -m wip", "npm publish --dry-run"])
def test_a_rehearsed_step_is_no_done_item(command: str) -> None:
    assert not any(command in line for line in _done("check what would be pushed", command, "ok", "Done."))


@pytest.mark.parametrize("command", ["cargo build --release 2>&1 | tail -3", "npm run build -- --publish never",
                                     "make test --push-dir out", "go build -deploy-tag x ./cmd/app"])
def test_a_step_named_only_by_an_option_is_no_done_item(command: str) -> None:
    """``--release`` asks for an optimised build; it releases nothing (the words of a command, not its options)."""
    assert not any("ran `" in line for line in _done("build the binary", command, "Finished release [optimized]",
                                                   "Built."))
