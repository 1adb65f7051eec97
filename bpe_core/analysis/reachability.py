"""Which tokens encoding can never produce from their own text, and why: a property of the
vocabulary and the pattern alone, no text needed.

A token is *reachable* when encoding its own text gives it back: ``encode(decode(id)) == [id]``.
As in the glitch-token literature ("SolidGoldMagikarp"; Land and Bartolo, *Fishing for
Magikarp*, 2024, whose UNDECODEABLE / UNREACHABLE classes these follow), the reasons it may not:

- its bytes are not valid UTF-8 on their own, so no text *is* that token (:data:`PARTIAL_CHARACTER`
  when it holds no whole character at all, :data:`INVALID_UTF8` otherwise);
- the pre-tokenization pattern cuts its text into several pre-tokens (:data:`PATTERN_SPLIT`);
  BPE never merges across them.

A pre-token that is itself a token is emitted whole (tiktoken's rule, and this engine's), so a
valid token whose text is one pre-token is always reachable. Still, the merges applied to its
bytes in rank order may end somewhere else (:data:`MERGE_ORDER`, possible in loaded vocabularies):
it is then emitted only for a pre-token that is exactly its text, never inside a longer one.

**Every vocab size.** A token is in the vocabulary from its merge rank on (k > rank). The first
two reasons do not depend on k. Merging with the first k merges runs the same steps as with all
of them and stops at the first step of rank >= k (:mod:`bpe_core.lifetimes`), so the merges build
a token at size k iff they build it with the full vocabulary and k > the highest rank its build
applies (``built_from``): for most vocabularies that is its own rank, but a build that applies a
higher-ranked merge first becomes possible only later, and the counts follow that exactly.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from ..encoding.lifetimes import PERMANENT, Segmentation, merge_lifetimes
from ..encoding.tokenizer import Tokenizer
from ..pretokenize import pretokenize
from .emission import token_first_k

__all__ = [
    "CLASS_EXPLANATIONS",
    "INVALID_UTF8",
    "MERGE_ORDER",
    "PARTIAL_CHARACTER",
    "PATTERN_SPLIT",
    "REACH_CLASSES",
    "ReachTable",
    "token_reach",
]

PARTIAL_CHARACTER = "partial character"
INVALID_UTF8 = "not valid UTF-8 alone"
PATTERN_SPLIT = "split by the pattern"
MERGE_ORDER = "only as a whole pre-token"
NEVER_BUILT = "never built by the merges"
REACH_CLASSES = (PARTIAL_CHARACTER, INVALID_UTF8, PATTERN_SPLIT, NEVER_BUILT, MERGE_ORDER)
"""The static classes, most severe first; a token has at most one of them."""

CLASS_EXPLANATIONS = {
    PARTIAL_CHARACTER: (
        "Its bytes are only pieces of characters, so no text typed on its own gives it: it appears "
        "only inside a longer text, where a character is split across tokens."
    ),
    INVALID_UTF8: (
        "It holds a whole character and a piece of another, so it is not valid text on its own: "
        "encoding can only produce it inside a longer text."
    ),
    PATTERN_SPLIT: (
        "The pre-tokenization pattern cuts its own text into several pre-tokens, and BPE never merges "
        "across them, so encoding its text gives other tokens."
    ),
    NEVER_BUILT: (
        "Merging its own characters or bytes by the tokenizer's rule ends in other tokens, and this tokenizer has no "
        "rule that emits a whole pre-token as one token: no text gives it."
    ),
    MERGE_ORDER: (
        "Merging its bytes in rank order ends in other tokens: it is emitted only where a pre-token is "
        "exactly its text (the rule for whole tokens), never inside a longer pre-token."
    ),
}
"""One plain sentence per class, for a person reading the list."""


@dataclass(frozen=True)
class ReachTable:
    """The static facts of a tokenizer's regular tokens (arrays indexed by id)."""

    num_merges: int
    first_k: np.ndarray  # merges from which the token is in the vocabulary; -1: not a regular token
    built_from: np.ndarray  # merges from which merging its bytes builds it (0 for bytes); num_merges + 1: never
    classes: dict[int, str]  # id -> its class in REACH_CLASSES, for the tokens that have one
    reasons: dict[int, str]  # id -> the class's facts for that token, in words
    # the class of a token in the vocabulary before its merges can build it (without the whole-token rule: NEVER_BUILT)
    late_class: str = MERGE_ORDER

    def counts_by_size(self) -> dict[str, np.ndarray]:
        """How many tokens of each class the vocabulary holds with the first k merges, k = 0..n (of the two classes
        of tokens the merges do not build, the one this tokenizer's rule has: :attr:`late_class`)."""
        n = self.num_merges
        counts = {}
        for name in REACH_CLASSES:
            if name in (NEVER_BUILT, MERGE_ORDER) and name != self.late_class:
                continue
            ids = np.fromiter((i for i, c in self.classes.items() if c == name), dtype=np.int64)
            start, stop = self.first_k[ids], np.full(len(ids), n + 1)
            if name == self.late_class:  # also the tokens whose build becomes possible only later
                later = np.flatnonzero((self.first_k >= 0) & (self.built_from > self.first_k))
                later = later[~np.isin(later, list(self.classes))]
                start = np.concatenate([start, self.first_k[later]])
                stop = np.concatenate([stop, np.minimum(self.built_from[later], n + 1)])
            change = np.bincount(start, minlength=n + 2) - np.bincount(stop, minlength=n + 2)
            counts[name] = np.cumsum(change)[: n + 1]
        return counts


_CACHE: weakref.WeakKeyDictionary[Any, ReachTable] = weakref.WeakKeyDictionary()


def token_reach(tokenizer: Any) -> ReachTable:
    """The :class:`ReachTable` of a byte-level tokenizer, or of any family :func:`.ladder.ladder` takes (computed
    once per tokenizer object; see :func:`shape_reach`).

    >>> from bpe_core import Tokenizer
    >>> vocab = {**{i: bytes([i]) for i in range(256)}, 256: b"a ", 257: b"\\xc3\\xa9"}
    >>> table = token_reach(Tokenizer(vocab, [(b"a", b" "), (b"\\xc3", b"\\xa9")]))
    >>> {name: int(counts[-1]) for name, counts in table.counts_by_size().items()}
    {'partial character': 128, 'not valid UTF-8 alone': 0, 'split by the pattern': 1, 'only as a whole pre-token': 0}
    >>> table.reasons[256]
    "its text is cut into 2 pre-tokens: 'a' | ' '"
    """
    table = _CACHE.get(tokenizer)
    if table is None:
        table = _CACHE[tokenizer] = _build(tokenizer) if isinstance(tokenizer, Tokenizer) else shape_reach(tokenizer)
    return table


def _lifetimes(token: bytes, ranks: dict[bytes, int]) -> list[int]:
    """The boundary lifetimes of a token's own bytes, merged by rank (no whole-token shortcut)."""
    return merge_lifetimes(len(token), lambda start, _middle, stop: ranks.get(token[start:stop]))


def _build(tokenizer: Tokenizer) -> ReachTable:
    n = tokenizer.num_merges
    ranks = tokenizer.merge_ranks
    first_k = token_first_k(tokenizer)
    built_from = np.zeros(len(first_k), dtype=np.int64)
    classes: dict[int, str] = {}
    reasons: dict[int, str] = {}
    for token, identifier in tokenizer.mergeable_ranks.items():
        parts = [token]
        if len(token) > 1:
            lifetimes = _lifetimes(token, ranks)
            highest = max(lifetimes)
            built_from[identifier] = n + 1 if highest == PERMANENT else highest + 1
            if highest == PERMANENT:  # cut where no merge joins
                cuts = Segmentation(token, lifetimes, n).boundaries_at(n)
                parts = [token[start:stop] for start, stop in pairwise(cuts)]
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError as error:
            whole_characters = token.decode("utf-8", errors="ignore")
            classes[identifier] = INVALID_UTF8 if whole_characters else PARTIAL_CHARACTER
            reasons[identifier] = f"bytes {token.hex(' ').upper()}: {error.reason} at byte {error.start}" + (
                "; and merging them never builds it, so no text at all gives it" if len(parts) > 1 else ""
            )
            continue
        pieces = pretokenize(text, tokenizer.pattern)
        if pieces != [text]:
            classes[identifier] = PATTERN_SPLIT
            shown = " | ".join(map(repr, pieces))
            reasons[identifier] = (
                f"its text is cut into {len(pieces)} pre-token{'s' if len(pieces) != 1 else ''}: {shown}"
            )
        elif len(parts) > 1:
            classes[identifier] = MERGE_ORDER
            reasons[identifier] = "merging its bytes by rank gives " + " + ".join(map(repr, parts))
    return ReachTable(n, first_k, built_from, classes, reasons)


def shape_reach(tokenizer: Any) -> ReachTable:
    """The static classes of a tokenizer that says its sizes (a Hugging Face pipeline, a SentencePiece model): its
    bytes (``token_bytes``), its text cut by its own pre-tokenization (``pretokenize``: more than one piece), and
    its own symbols merged by its rule (``own_lifetimes``). Neither family emits a whole pre-token that its merges
    do not build (Hugging Face's ``ignore_merges`` aside), so a token they never build is :data:`NEVER_BUILT`."""
    from .ladder import ladder  # (the ladder imports emission, which this module's callers import first)

    sizes = ladder(tokenizer)
    n, first_k = sizes.num_merges, sizes.first_k
    built_from = np.zeros(len(first_k), dtype=np.int64)
    classes: dict[int, str] = {}
    reasons: dict[int, str] = {}
    for identifier in np.flatnonzero(first_k >= 0).tolist():
        token = tokenizer.token_bytes(identifier)
        never = False
        if first_k[identifier] > 0:
            lifetimes = tokenizer.own_lifetimes(identifier)
            never = PERMANENT in lifetimes
            built_from[identifier] = n + 1 if never else max(lifetimes, default=-1) + 1
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError as error:
            classes[identifier] = INVALID_UTF8 if token.decode("utf-8", errors="ignore") else PARTIAL_CHARACTER
            reasons[identifier] = f"bytes {token.hex(' ').upper()}: {error.reason} at byte {error.start}" + (
                "; and merging them never builds it, so no text at all gives it" if never else ""
            )
            continue
        pieces = tokenizer.pretokenize(text) if first_k[identifier] > 0 else [text]
        if len(pieces) > 1:
            classes[identifier] = PATTERN_SPLIT
            shown = " | ".join(map(repr, pieces))
            reasons[identifier] = f"its text is cut into {len(pieces)} pre-tokens: {shown}"
        elif never:
            classes[identifier] = NEVER_BUILT
            reasons[identifier] = "merging its own symbols by the tokenizer's rule never joins them into it"
    return ReachTable(n, first_k, built_from, classes, reasons, NEVER_BUILT)
