"""The token corpus is what its generator and its fit say: the committed generated files regenerate byte for
byte, and fitting the calibration half gives exactly the weights the estimator ships."""

from __future__ import annotations

import pytest

from bench.token_corpus import HERE, fit
from bench.token_corpus.make_generated import generated
from pi_compact.compaction.tokens import WEIGHTS


@pytest.mark.parametrize("file_name, text", sorted(generated().items()))
def test_generated_files_are_committed_as_generated(file_name, text) -> None:
    assert (HERE / file_name).read_text("utf-8") == text


def test_fitting_the_calibration_half_gives_the_shipped_weights() -> None:
    assert fit.fit() == WEIGHTS
