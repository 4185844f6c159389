"""One list of summarizer names (``pi_compact.llm.SUMMARIZERS``) and one check against it."""

from __future__ import annotations

import pytest

from pi_compact.errors import PiCompactError, UsageError
from pi_compact.llm import SUMMARIZERS, check_summarizer, make_summarizer

REFUSAL = "unknown summarizer {name!r}: use one of offline, anthropic, openai"


def test_offline_is_the_default_and_first() -> None:
    assert SUMMARIZERS == ("offline", "anthropic", "openai")


@pytest.mark.parametrize("name", SUMMARIZERS)
def test_every_listed_name_passes_the_check(name: str) -> None:
    assert check_summarizer(name) == name


@pytest.mark.parametrize("name", ["gpt", "Offline", "offline ", "", "model"])
def test_any_other_name_is_a_usage_error_listing_the_summarizers(name: str) -> None:
    with pytest.raises(UsageError) as raised:
        check_summarizer(name)
    assert str(raised.value) == REFUSAL.format(name=name)
    assert isinstance(raised.value, PiCompactError)


def test_a_callers_extra_choices_are_accepted_and_listed_first() -> None:
    assert check_summarizer("model", also=("model",)) == "model"
    with pytest.raises(UsageError, match=r"^unknown summarizer 'x': use one of model, offline, anthropic, openai$"):
        check_summarizer("x", also=("model",))


def test_make_summarizer_refuses_with_the_same_check() -> None:
    with pytest.raises(UsageError) as raised:
        make_summarizer(" Gemini ")
    assert str(raised.value) == REFUSAL.format(name="gemini")


@pytest.mark.parametrize("name", SUMMARIZERS)
def test_make_summarizer_builds_every_listed_name(name: str) -> None:
    built = make_summarizer(f" {name.upper()} ", api_key="sk-test-not-used", base_url="http://127.0.0.1:9")
    assert built.name == name
