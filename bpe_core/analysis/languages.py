"""What the same content costs in tokens in different languages.

A parallel text says the same thing, line by line, in several languages, so the tokens each
language needs compare fairly. The **premium** of language X is its tokens ÷ the baseline
language's tokens for the same sentences (1.0 for the baseline itself; 2.0: twice as many tokens,
so twice the cost and half the context for the same content).

The spread of premiums across languages is summed up two ways: **max/min** (the dearest language
÷ the cheapest), and the **Gini coefficient** of the premiums, the mean absolute difference of
every ordered pair over twice the mean, ``G = Σ_i Σ_j |x_i − x_j| / (2 n² x̄)``: 0 when every
language costs the same, towards 1 − 1/n when one language takes all the cost. It does not
change when every premium is multiplied by the same number, so it is the same for premiums and
token counts, whichever language is the baseline.

The package ships a parallel sample written for this project (:mod:`.parallel`, ``bpe_core/data/parallel``,
see its README): 40 everyday sentences in 21 languages.

>>> import bpe_core
>>> costs = language_costs(bpe_core.reference("cl100k_base"), parallel_sample())
>>> costs.row("en").premium, costs.row("en").tokens
(1.0, 531)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .ladder import ladder
from .parallel import LANGUAGE_BY_CODE, LANGUAGES, Language, parallel_sample, read_parallel

__all__ = [
    "LANGUAGES",
    "LANGUAGE_BY_CODE",
    "Language",
    "LanguageCost",
    "LanguageCosts",
    "PremiumCurve",
    "gini",
    "language_costs",
    "parallel_sample",
    "premiums_by_size",
    "read_parallel",
]


def gini(values: Sequence[float]) -> float:
    """The Gini coefficient ``Σ_i Σ_j |x_i − x_j| / (2 n² x̄)`` of non-negative values (see the
    module docstring); 0.0 for equal values, an empty list or all zeros.

    >>> gini([1, 1, 1]), gini([0, 0, 0, 1]), round(gini([1, 2, 3]), 4)
    (0.0, 0.75, 0.2222)
    """
    column = np.asarray(values, dtype=float).reshape(-1, 1)
    return float(_gini_columns(column)[0]) if len(column) else 0.0


def _gini_columns(values: np.ndarray) -> np.ndarray:
    """The Gini coefficient of each column, from the sorted values (i = 1..n, ascending):
    ``2 Σ_i i·x_(i) / (n Σ x) − (n + 1) / n``, which equals the pairwise formula."""
    ordered = np.sort(values, axis=0)
    n = len(ordered)
    totals = ordered.sum(axis=0)
    ranks = np.arange(1, n + 1)[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        coefficients = 2 * (ranks * ordered).sum(axis=0) / (n * totals) - (n + 1) / n
    # Equal values give exactly 0 (the formula leaves a rounding error of ~1e-16 there).
    equal = ordered[0] == ordered[-1]
    return np.where((totals > 0) & ~equal, np.maximum(coefficients, 0.0), 0.0)


@dataclass(frozen=True)
class LanguageCost:
    """One language's cost for the parallel text."""

    code: str
    name: str  # English name when known, else the code
    sentences: int
    tokens: int
    tokens_per_sentence: float
    bytes: int  # UTF-8
    characters: int
    premium: float  # tokens ÷ the baseline language's tokens


@dataclass(frozen=True)
class LanguageCosts:
    rows: list[LanguageCost]  # in the order of the texts given
    baseline: str
    vocab_size: int | None  # the size measured at, None for the tokenizer's own
    max_min_ratio: float  # highest premium ÷ lowest
    gini: float  # Gini coefficient of the premiums

    def row(self, code: str) -> LanguageCost:
        return next(row for row in self.rows if row.code == code)


def _check_texts(texts: Mapping[str, Sequence[str]], baseline: str) -> None:
    if baseline not in texts:
        raise ValueError(f"the baseline language {baseline!r} is not among the texts ({', '.join(texts)})")
    counts = {code: len(lines) for code, lines in texts.items()}
    if len(set(counts.values())) > 1:
        raise ValueError(f"the texts must have the same number of sentences, not {counts}")
    if not counts[baseline]:
        raise ValueError("the texts have no sentences")


def _sizes(tokenizer: Any) -> np.ndarray:
    """The vocab size at every k: classic BPE's symbols count as its base; every other family as :mod:`.ladder`
    says (a byte-level Tokenizer, a Hugging Face pipeline, a SentencePiece model)."""
    if hasattr(tokenizer, "symbols"):  # classic: characters and </w>, one more symbol per merge
        return len(tokenizer.symbols) - tokenizer.num_merges + np.arange(tokenizer.num_merges + 1)
    return ladder(tokenizer).sizes


def _truncated(tokenizer: Any, vocab_size: int) -> Any:
    """The tokenizer cut to ``vocab_size``: the most merges whose vocabulary holds at most that many tokens."""
    sizes = _sizes(tokenizer)
    k = int(np.searchsorted(sizes, int(vocab_size), side="right")) - 1
    return tokenizer.truncated(max(0, min(k, len(sizes) - 1)))


def language_costs(
    tokenizer: Any, texts: Mapping[str, Sequence[str]], *, baseline: str = "en", vocab_size: int | None = None
) -> LanguageCosts:
    """Tokens, bytes, characters and premium per language, each sentence encoded on its own with
    ``encode`` (special tokens recognised, as :func:`premiums_by_size` does). ``tokenizer`` is any
    tokenizer (byte-level, classic, a Hugging Face pipeline, a SentencePiece model); ``vocab_size`` measures it
    cut to that size by its own rule instead (clamped to its range); :func:`premiums_by_size` gives every size.

    >>> import bpe_core
    >>> costs = language_costs(bpe_core.reference("gpt2"), {"en": ["Good morning"], "de": ["Guten Morgen"]})
    >>> [(row.code, row.tokens, row.premium) for row in costs.rows], costs.max_min_ratio
    ([('en', 2, 1.0), ('de', 4, 2.0)], 2.0)
    """
    _check_texts(texts, baseline)
    if vocab_size is not None:
        tokenizer = _truncated(tokenizer, vocab_size)
    tokens = {code: sum(len(tokenizer.encode(sentence)) for sentence in lines) for code, lines in texts.items()}
    base = max(tokens[baseline], 1)
    rows = [
        LanguageCost(
            code=code,
            name=LANGUAGE_BY_CODE[code].english if code in LANGUAGE_BY_CODE else code,
            sentences=len(lines),
            tokens=tokens[code],
            tokens_per_sentence=tokens[code] / len(lines),
            bytes=sum(len(sentence.encode("utf-8", errors="surrogatepass")) for sentence in lines),
            characters=sum(map(len, lines)),
            premium=tokens[code] / base,
        )
        for code, lines in texts.items()
    ]
    premiums = [row.premium for row in rows]
    return LanguageCosts(
        rows=rows,
        baseline=baseline,
        vocab_size=vocab_size,
        max_min_ratio=max(premiums) / min(premiums) if min(premiums) > 0 else float("inf"),
        gini=gini(premiums),
    )


@dataclass(frozen=True)
class PremiumCurve:
    """Premiums at every vocab size (arrays indexed by k, the number of merges)."""

    vocab_sizes: np.ndarray
    token_counts: dict[str, np.ndarray]
    premiums: dict[str, np.ndarray]
    gini: np.ndarray
    baseline: str


def premiums_by_size(tokenizer: Any, texts: Mapping[str, Sequence[str]], *, baseline: str = "en") -> PremiumCurve:
    """Every language's tokens and premium, and their Gini coefficient, at every vocab size, from
    one segmentation of each sentence (boundary lifetimes: with k merges a sentence has
    1 + #(boundaries with lifetime >= k) tokens). Any family (see :func:`language_costs`).

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("good morning guten morgen " * 9, 266).tokenizer
    >>> curve = premiums_by_size(tokenizer, {"en": ["good morning"], "de": ["guten morgen"]})
    >>> [round(float(premium), 3) for premium in curve.premiums["de"][[0, -1]]]  # 12 bytes each; 5 tokens vs 6
    [1.0, 0.833]
    """
    _check_texts(texts, baseline)
    sizes = _sizes(tokenizer)
    n = len(sizes) - 1  # the steps segment() counts (SentencePiece: score ranks, not its derived merges)
    counts = {}
    for code, lines in texts.items():
        segmentations = [tokenizer.segment(sentence) for sentence in lines]
        lifetimes = np.concatenate([np.asarray(s.lifetimes, dtype=np.int64) for s in segmentations] + [[]])
        atoms = sum(1 for s in segmentations if len(s.data))  # a non-empty sentence starts one token
        below = np.cumsum(np.bincount(np.clip(lifetimes, -1, n).astype(np.int64) + 1, minlength=n + 2))
        counts[code] = atoms + len(lifetimes) - below[: n + 1]  # below[k]: boundaries with lifetime < k
    premiums = {code: count / np.maximum(counts[baseline], 1) for code, count in counts.items()}
    gini_by_size = _gini_columns(np.vstack(list(premiums.values())))
    return PremiumCurve(sizes.copy(), counts, premiums, gini_by_size, baseline)
