"""Choosing a vocab size: what each size costs a model and what it saves on held-out text.

One trained tokenizer holds every smaller one: its first k merges are exactly the tokenizer of
vocab size ``256 + k + specials`` (:mod:`bpe_core.lifetimes`), so a single pass over the held-out
text (:mod:`bpe_core.emission`) gives, at every size from the smallest to the tokenizer's own (any family
:mod:`.ladder` takes: a byte-level Tokenizer, a Hugging Face pipeline such as DeepSeek V4, a SentencePiece
model such as Mistral 7B v3, each cut to its first k merges by its own rule):

- **bytes per token** and **tokens per 1,000 characters** of the held-out text;
- the **gain of 1,000 more merges**: the share of the tokens saved going from size v to
  v + 1,000, ``(T(v) - T(v + 1000)) / T(v)``, measured to the last size where v + 1,000 is past it;
- the **embedding parameters** the vocabulary costs a model: ``vocab × d_model``, twice that when
  the output layer is not tied to the input embeddings;
- **rare tokens**: tokens of the vocabulary at that size (special tokens aside) that the held-out
  text uses fewer than ``min_uses`` times, the ones a model trained on such text learns poorly.

>>> import bpe_core
>>> tokenizer = bpe_core.train("low lower lowest newest widest " * 20, 270).tokenizer
>>> [row.tokens for row in size_table(tokenizer, "lowest newest", [256, 262, 270])]
[13, 6, 4]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .emission import usage_steps
from .ladder import Ladder, ladder

if TYPE_CHECKING:
    from ..encoding.shape import TokenizerShape
    from .emission import Emissions

__all__ = ["SizeCurve", "SizeRow", "Suggestion", "embedding_parameters", "size_curve", "size_table", "suggest_size"]


def embedding_parameters(vocab_size: int, d_model: int = 768, *, tied: bool = True) -> int:
    """Parameters a vocabulary costs a model: one row of ``d_model`` per token in the input
    embedding, and as many again for the output layer when it is not tied to it.

    >>> embedding_parameters(50_257), embedding_parameters(50_257, tied=False)
    (38597376, 77194752)
    """
    return int(vocab_size) * int(d_model) * (1 if tied else 2)


def _gains(counts: np.ndarray, per_merges: int) -> np.ndarray:
    """Share of tokens saved going from k to k + per_merges merges (to the last k past the end)."""
    later = counts[np.minimum(np.arange(len(counts)) + per_merges, len(counts) - 1)]
    return (counts - later) / np.maximum(counts, 1)


@dataclass(frozen=True)
class SizeCurve:
    """The held-out text at every vocab size, as arrays indexed by k (merges), k = 0 .. num_merges."""

    vocab_sizes: np.ndarray
    token_counts: np.ndarray
    n_bytes: int
    n_chars: int
    rare_tokens: np.ndarray | None  # tokens used fewer than min_uses times, at every size
    min_uses: int | None

    @property
    def bytes_per_token(self) -> np.ndarray:
        return self.n_bytes / np.maximum(self.token_counts, 1)

    @property
    def tokens_per_1000_chars(self) -> np.ndarray:
        return self.token_counts * 1000 / max(self.n_chars, 1)

    def gains(self, per_merges: int = 1000) -> np.ndarray:
        """The share of tokens saved by ``per_merges`` more merges from each size (see the module)."""
        return _gains(self.token_counts, per_merges)


def size_curve(tokenizer: TokenizerShape, heldout: str, *, min_uses: int | None = 10) -> SizeCurve:
    """Every vocab size from ``vocab_size_of(tokenizer, 0)`` to the tokenizer's own, in one pass.

    ``min_uses=None`` skips the rare-token counts. An empty held-out text is a ValueError.

    >>> import bpe_core
    >>> curve = size_curve(bpe_core.train("aaabdaaabac", 259).tokenizer, "aaabdaaabac", min_uses=2)
    >>> curve.vocab_sizes.tolist(), curve.token_counts.tolist(), curve.rare_tokens.tolist()
    ([256, 257, 258, 259], [11, 9, 7, 5], [254, 254, 256, 258])
    """
    sizes = ladder(tokenizer)
    emissions = _emissions(sizes, heldout)
    rare = None
    if min_uses is not None:
        steps = usage_steps(emissions, sizes.first_k)
        rare = steps.count_by_size(steps.emitted < min_uses)
    counts = emissions.token_counts()
    return SizeCurve(
        vocab_sizes=sizes.sizes.copy(),
        token_counts=counts,
        n_bytes=len(heldout.encode("utf-8", errors="surrogatepass")),
        n_chars=len(heldout),
        rare_tokens=rare,
        min_uses=min_uses,
    )


def _emissions(sizes: Ladder, heldout: str) -> Emissions:
    if not isinstance(heldout, str):
        raise TypeError(f"the held-out text must be str, not {type(heldout).__name__}")
    if not heldout:
        raise ValueError("the held-out text is empty: there is nothing to count tokens on")
    return sizes.emissions(heldout)


@dataclass(frozen=True)
class SizeRow:
    """One typed vocab size, measured exactly (see the module docstring for each number)."""

    requested: int  # what the caller asked for
    vocab_size: int  # the size measured: requested, clamped into the tokenizer's range
    merges: int
    note: str | None  # why vocab_size differs from requested, if it does
    tokens: int
    bytes_per_token: float
    tokens_per_1000_chars: float
    gain: float  # share of tokens saved by per_merges more merges
    per_merges: int
    embedding_parameters: int
    rare_tokens: int
    min_uses: int


def size_table(
    tokenizer: TokenizerShape,
    heldout: str,
    sizes: list[int],
    *,
    d_model: int = 768,
    tied: bool = True,
    min_uses: int = 10,
    per_merges: int = 1000,
) -> list[SizeRow]:
    """A row for each of ``sizes``, in the order given; a size outside the tokenizer's range is
    measured at the nearest end and says so in ``note``.

    >>> import bpe_core
    >>> row = size_table(bpe_core.train("aaabdaaabac", 259).tokenizer, "aaabdaaabac", [9000])[0]
    >>> row.vocab_size, row.tokens, row.note
    (259, 5, 'above the largest size (259): measured at 259')
    """
    sized = ladder(tokenizer)
    emissions = _emissions(sized, heldout)
    counts = emissions.token_counts()
    gains = _gains(counts, per_merges)
    first_k = sized.first_k
    n_bytes = len(heldout.encode("utf-8", errors="surrogatepass"))
    smallest, largest = sized.vocab_size(0), sized.vocab_size()
    rows = []
    for requested in sizes:
        if isinstance(requested, bool) or not isinstance(requested, (int, np.integer)):
            raise TypeError(f"a vocab size must be an integer, not {requested!r}")
        k = sized.merges_for(int(requested))
        vocab_size = sized.vocab_size(k)
        note = None
        if requested < smallest:
            note = f"below the smallest size ({smallest:,}): measured at {vocab_size:,}"
        elif requested > largest:
            note = f"above the largest size ({largest:,}): measured at {vocab_size:,}"
        elif vocab_size != requested:  # one step of several tokens (SentencePiece pieces of equal score)
            note = f"no vocabulary of exactly {int(requested):,} tokens: measured at {vocab_size:,}"
        in_vocab = (first_k >= 0) & (first_k <= k)
        rows.append(
            SizeRow(
                requested=int(requested),
                vocab_size=vocab_size,
                merges=k,
                note=note,
                tokens=int(counts[k]),
                bytes_per_token=n_bytes / int(counts[k]),
                tokens_per_1000_chars=int(counts[k]) * 1000 / len(heldout),
                gain=float(gains[k]),
                per_merges=per_merges,
                embedding_parameters=embedding_parameters(vocab_size, d_model, tied=tied),
                rare_tokens=int(np.count_nonzero(in_vocab & (emissions.emitted_at(k) < min_uses))),
                min_uses=min_uses,
            )
        )
    return rows


@dataclass(frozen=True)
class Suggestion:
    """A suggested vocab size and the rule's reason, in words, with its numbers."""

    vocab_size: int
    merges: int
    gain: float  # what per_merges more merges save from there
    min_gain: float
    per_merges: int
    reason: str
    at_end: bool  # the curve ended within per_merges of the suggestion: a bigger tokenizer may go further
    dips_at: int | None = None
    """The first size below the suggestion where the gain falls under ``min_gain`` (and rises above it
    again later): the gain goes up and down, so the rule's answer depends on the threshold. None: it never does."""


def suggest_size(curve: SizeCurve, *, min_gain: float = 0.005, per_merges: int = 1000) -> Suggestion:
    """The largest vocab size where ``per_merges`` more merges still save at least ``min_gain`` of
    the held-out tokens (the smallest size when none does). Where the gain dips below ``min_gain``
    before that size and rises again, ``dips_at`` says where and the reason warns (the app shows the
    same sentence; the command line prints it to stderr).

    >>> import bpe_core
    >>> curve = size_curve(bpe_core.train("aaabdaaabac", 259).tokenizer, "aaabdaaabac", min_uses=None)
    >>> suggest_size(curve, min_gain=0.2, per_merges=1).vocab_size
    258
    >>> suggest_size(curve, min_gain=0.2, per_merges=1).dips_at  # 1 merge saves 18% at 256, 22% at 257
    256
    """
    if per_merges < 1:
        raise ValueError(f"per_merges must be at least 1, not {per_merges}")
    gains = curve.gains(per_merges)
    counts = curve.token_counts
    last = len(counts) - 1
    good = np.flatnonzero(gains >= min_gain)
    k = int(good[-1]) if len(good) else 0
    later = min(k + per_merges, last)
    size, next_size = int(curve.vocab_sizes[k]), int(curve.vocab_sizes[later])
    saved = f"going to {next_size:,} saves {gains[k]:.2%} ({int(counts[k]):,} → {int(counts[later]):,} tokens)"
    more = f"{per_merges:,} more merges" if per_merges != 1 else "1 more merge"
    save = "save" if per_merges != 1 else "saves"
    if len(good):
        reason = (
            f"{size:,} is the largest vocab size where {more} still {save} at least {min_gain:.2%} of the held-out "
            f"tokens: {saved}; from {size + 1:,} on, the saving is smaller."
        )
    else:
        reason = f"Even from the smallest size, {size:,}, {more} {save} less than {min_gain:.2%}: {saved}."
    below = np.flatnonzero(gains[:k] < min_gain) if len(good) else np.empty(0, np.intp)
    dips_at = int(curve.vocab_sizes[below[0]]) if len(below) else None
    if dips_at is not None:
        reason += (
            f" The saving first falls below {min_gain:.2%} at {dips_at:,} and rises above it again later (a "
            "stretch of the text that new merges suddenly fit): read the gain curve before you choose."
        )
    at_end = k + per_merges > last
    if at_end:
        reason += (
            f" The tokenizer ends at {int(curve.vocab_sizes[-1]):,}, so the gains near its end count only "
            "the merges it has: train a bigger one to see further."
        )
    return Suggestion(size, k, float(gains[k]), min_gain, per_merges, reason, at_end, dips_at)
