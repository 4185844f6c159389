"""Fits the per-class weights of ``pi_compact.compaction.tokens`` on the calibration half of this corpus.

The real token counts come from anthropic-tokenizer. For each calibration file (and, with less say, each
~600-character piece of it cut at line ends) the estimate/real ratio is a linear function of the weights:
class counts . weights / real tokens. Gradient descent on log-weights (so they stay positive) minimises

- for the classes the estimate is judged on (``JUDGED``): (log ratio - log TARGET)^2, plus a steep penalty
  below FLOOR, since undercounting is the costly error;
- for the other classes (code in Java/Go/C#, Markdown, other scripts): only that penalty below FLOOR, so
  they may come out high (a linear per-character model cannot tell PascalCase identifiers from base64);
- a small pull of every weight toward a prior (what a lone character of that class costs), which keeps the
  weights of classes the corpus barely has (tabs, Greek, emoji) sensible.

The ``*.holdout.txt`` files are never fitted; the ratios on both halves are printed with the weights.

    python -m bench.token_corpus.fit          # prints WEIGHTS to paste into tokens.py
"""

from __future__ import annotations

import numpy as np
from anthropic_tokenizer import count_tokens

from pi_compact.compaction.tokens import UNFITTED, UNITS_PER_TOKEN, WEIGHTS, char_class

from . import FORMATS, JUDGED, LANGUAGES, UNLIKE, corpus

PIECE_CHARS = 600
PIECE_SAY = 0.3
FORMAT_SAY = 0.2
"""The formats of issue 23.7 (CSS, SQL, diffs…) pull less than the classes judged for accuracy."""
TARGET = 1.04
FLOOR = 0.98
STEEP = 50.0
PRIOR_PULL = 0.003
STEPS = 20_000
RATE = 0.05
PRIORS = {
    "lower": 0.2, "upper": 0.8, "digit": 0.6, "space": 0.1, "tab": 0.5, "newline": 0.8, "quote": 0.7,
    "bracket": 0.7, "stop": 0.5, "joiner": 0.5, "rule": 0.3, "symbol": 0.7, "control": 1.0,
    "latin": 0.8, "greek": 1.1, "cyrillic": 0.5, "rtl": 1.0, "indic": 1.1, "u1000": 1.0, "symbols": 0.9,
    "kana": 1.0, "han": 0.9, "hangul": 1.2, "fullwidth": 1.0, "thai": 1.2, "georgian": 1.0,
}
NAMES = list(WEIGHTS)
MIN_WEIGHTS = {"space": 0.125, "lower": 0.21875}
"""Floors: the fit would trade lowercase letters against spaces, and text of short words (``line line …``, one
token per word) fell below the real count."""


def class_counts(text: str) -> np.ndarray:
    """Characters per fitted class."""
    counts = np.zeros(len(NAMES))
    for char in text:
        name = char_class(char)
        if name in WEIGHTS:
            counts[NAMES.index(name)] += 1
    return counts


def fixed_tokens(text: str) -> float:
    """What the characters of no fitted class weigh (the per-byte bound; astral characters twice)."""
    return sum(UNFITTED[name] * (2 if name == "astral" and ord(char) > 0xFFFF else 1)
               for char in text if (name := char_class(char)) in UNFITTED)


def pieces(text: str) -> list[str]:
    out, current = [], ""
    for line in text.splitlines(keepends=True):
        current += line
        if len(current) >= PIECE_CHARS:
            out.append(current)
            current = ""
    if current.strip():
        out.append(current)
    return out


def _rows() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Counts per real token, the fixed part per real token, how much each row weighs, whether it is judged."""
    rows, fixed, say, judged = [], [], [], []
    for name, text in corpus("calib").items():
        if name in UNLIKE:  # held to the bounds, not fitted: no weight per character could price them
            continue
        parts = pieces(text)
        whole = FORMAT_SAY if name in FORMATS else 1.0
        for part, share in [(text, whole)] + [(part, whole * PIECE_SAY / len(parts)) for part in parts]:
            real = count_tokens(part)
            rows.append(class_counts(part) / real)
            fixed.append(fixed_tokens(part) / real)
            say.append(share)
            judged.append(name in JUDGED or name in LANGUAGES)
    return np.array(rows), np.array(fixed), np.array(say), np.array(judged)


def fit() -> dict[str, float]:
    rows, fixed, say, judged = _rows()
    log_prior = np.log([PRIORS[name] for name in NAMES])
    log_floor = np.log([MIN_WEIGHTS.get(name, 1e-3) for name in NAMES])
    theta = log_prior.copy()
    for _ in range(STEPS):
        weights = np.exp(theta)
        estimate = rows @ weights + fixed
        log_ratio = np.log(estimate)
        below = np.minimum(log_ratio - np.log(FLOOR), 0)
        # d loss / d log ratio, per row
        slope = say * (2 * judged * (log_ratio - np.log(TARGET)) + 2 * STEEP * below)
        # d log ratio / d theta_g = count_g * w_g / estimate
        gradient = (slope / estimate) @ (rows * weights) + 2 * PRIOR_PULL * (theta - log_prior)
        theta -= RATE * gradient
        theta = np.maximum(theta, log_floor)
    return {name: round(float(w) * UNITS_PER_TOKEN) / UNITS_PER_TOKEN for name, w in zip(NAMES, np.exp(theta))}


def ratio(text: str, weights: dict[str, float]) -> float:
    linear = float(class_counts(text) @ np.array([weights[name] for name in NAMES])) + fixed_tokens(text)
    return linear / count_tokens(text)


def main() -> None:
    weights = fit()
    print("WEIGHTS = {")
    print("    " + ", ".join(f'"{name}": {value:g}' for name, value in weights.items()))
    print("}")
    calib, holdout = corpus("calib"), corpus("holdout")
    for name in calib:
        print(f"{name:14} calib {ratio(calib[name], weights):.2f}  holdout {ratio(holdout[name], weights):.2f}")


if __name__ == "__main__":
    main()
