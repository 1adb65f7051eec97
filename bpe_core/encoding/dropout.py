"""BPE-dropout (Provilkov, Emelianenko and Voita, ACL 2020): one text, many valid segmentations.

Encoding runs the usual merge loop inside each pre-token, with one change: at every step each
candidate merge (each adjacent pair that has a rank, at each position) is dropped independently
with probability ``p``; the lowest-ranked surviving candidate is applied (leftmost among equal
ranks); the ones dropped are candidates again at the next step; when every candidate is dropped
in one step (or none is left), the pre-token is done. This is Hugging Face ``tokenizers``' rule
(``Word::merge_all``: pop candidates best first, set each aside with probability p, apply the
first kept, put the set-aside ones back), except that a stale queue entry is discarded before
drawing for it, so only real candidates consume randomness.

- ``p = 0`` is plain encoding, exactly: the same ids as ``Tokenizer.encode``, tiktoken's rule that
  a pre-token which is a whole token is emitted whole included.
- ``p > 0``: that whole-token shortcut does not apply (it would skip the merges the dropout is
  about; Hugging Face keeps it when ``ignore_merges`` is set). Every pre-token occurrence gets its
  own draws, so nothing is cached across occurrences or calls.
- Seeded: the same tokenizer, text, ``p`` and ``seed`` give the same ids (``random.Random(seed)``,
  drawn in text order). Decoding always gives the text back (classic BPE: as ``decode(encode(text))``).

>>> import bpe_core
>>> tokenizer = bpe_core.train("low lower lowest " * 20, 266).tokenizer
>>> def pieces(ids): return [tokenizer.decode([i]) for i in ids]
>>> pieces(encode_with_dropout(tokenizer, " lowest", 0.0, seed=1))
[' lowest']
>>> [pieces(ids) for ids in dropout_samples(tokenizer, " lowest", 0.5, seed=1, n=2)]
[[' ', 'l', 'o', 'w', 'e', 's', 't'], [' lowe', 'st']]
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from numbers import Real

# Everything this module needs from the engine, in one place.
from ..pretokenize import normalize, pretokenize, replace_surrogates, split_on_special
from .classic import END, ClassicTokenizer
from .shape import TokenizerShape
from .tokenizer import Tokenizer

RankOf = Callable[[int, int, int], int | None]
"""rank_of(start, middle, stop): the rank of joining atoms start..middle with middle..stop, or None."""


def dropout_spans(n: int, rank_of: RankOf, p: float, draw: Callable[[], float]) -> list[tuple[int, int]]:
    """The (start, stop) of each part after merging n atoms with dropout (see the module docstring).

    A heap of candidates over a linked list of parts, as in ``lifetimes.merge_lifetimes``: n log n
    for p = 0, so a whole text as one pre-token is fine.

    >>> ranks = {(0, 2): 0, (0, 3): 1}
    >>> dropout_spans(3, lambda start, middle, stop: ranks.get((start, stop)), 0.0, random.random)
    [(0, 3)]
    """
    end = list(range(1, n + 1))  # end[start]: where the part that begins at start ends
    previous = list(range(-1, n - 1))  # previous[start]: where the part before it begins
    alive = [True] * n
    heap = [(rank, start) for start in range(n - 1) if (rank := rank_of(start, start + 1, start + 2)) is not None]
    heapq.heapify(heap)
    while heap:
        dropped = []
        while heap:
            rank, start = heapq.heappop(heap)
            middle = end[start] if alive[start] else n
            if middle >= n or rank_of(start, middle, end[middle]) != rank:
                continue  # stale: a part it joined has grown since it was queued
            if p and draw() < p:
                dropped.append((rank, start))
                continue
            stop = end[start] = end[middle]
            alive[middle] = False
            if stop < n:
                previous[stop] = start
                if (new_rank := rank_of(start, stop, end[stop])) is not None:
                    heapq.heappush(heap, (new_rank, start))
            before = previous[start]
            if before >= 0 and (new_rank := rank_of(before, start, stop)) is not None:
                heapq.heappush(heap, (new_rank, before))
            break
        else:
            break  # every candidate was dropped in this step (or none was left)
        for entry in dropped:
            heapq.heappush(heap, entry)
    spans, start = [], 0
    while start < n:
        spans.append((start, end[start]))
        start = end[start]
    return spans


class _Encoder:
    """One tokenizer's tables, read once for any number of samples."""

    def __init__(self, tokenizer: TokenizerShape):
        if isinstance(tokenizer, Tokenizer):
            self.encode = self._byte_level
            self._token_id = tokenizer.mergeable_ranks
            self._rank = tokenizer.merge_rank
            self._special_ids = tokenizer.special_tokens
            self._pattern = tokenizer.pattern
            self._normalization = tokenizer.normalization
        elif isinstance(tokenizer, ClassicTokenizer):
            self.encode = self._classic
            self._pair_rank = tokenizer._merge_rank
            self._symbol_id = tokenizer._id
            self._unknown = tokenizer.unknown_id
        else:
            raise TypeError(f"tokenizer must be a Tokenizer or a ClassicTokenizer, not {type(tokenizer).__name__}")

    def _byte_level(self, text: str, p: float, draw: Callable[[], float]) -> list[int]:
        ids: list[int] = []
        token_id, rank = self._token_id, self._rank
        text = normalize(text, self._normalization)
        for piece, is_special in split_on_special(replace_surrogates(text), self._special_ids):
            if is_special:
                ids.append(self._special_ids[piece])
                continue
            for pretoken in pretokenize(piece, self._pattern):
                data = pretoken.encode("utf-8")
                whole = token_id.get(data) if p == 0 else None  # tiktoken's shortcut, only without dropout
                if whole is not None:
                    ids.append(whole)
                    continue

                def rank_of(start: int, _middle: int, stop: int, data: bytes = data) -> int | None:
                    return rank(data[start:stop])  # a join's rank is that of the token it makes

                ids.extend(token_id[data[start:stop]] for start, stop in dropout_spans(len(data), rank_of, p, draw))
        return ids

    def _classic(self, text: str, p: float, draw: Callable[[], float]) -> list[int]:
        ids: list[int] = []
        for word in text.split():
            atoms = (*word, END)

            def rank_of(start: int, middle: int, stop: int, atoms: tuple[str, ...] = atoms) -> int | None:
                return self._pair_rank.get((atoms[start:middle], atoms[middle:stop]))

            for start, stop in dropout_spans(len(atoms), rank_of, p, draw):
                ids.append(self._symbol_id.get(atoms[start:stop], self._unknown))
        return ids


def _checked(text: str, p: float, seed: int) -> None:
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if isinstance(p, bool) or not isinstance(p, Real) or not 0 <= p < 1:
        raise ValueError(f"p (the probability of dropping a merge) must be a number in [0, 1), got {p!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")


def encode_with_dropout(tokenizer: TokenizerShape, text: str, p: float, *, seed: int) -> list[int]:
    """The ids of ``text`` with each merge dropped with probability ``p`` (see the module docstring).

    Special tokens are recognised as ``Tokenizer.encode`` does.
    """
    _checked(text, p, seed)
    return _Encoder(tokenizer).encode(text, float(p), random.Random(seed).random)


def sample_seeds(seed: int, n: int) -> list[int]:
    """The seeds of ``dropout_samples``' n samples, drawn from ``seed``.

    >>> sample_seeds(7, 2) == sample_seeds(7, 3)[:2]
    True
    """
    master = random.Random(seed)
    return [master.getrandbits(64) for _ in range(n)]


def supports_dropout(tokenizer: TokenizerShape) -> bool:
    """Whether :func:`dropout_samples` draws for ``tokenizer``: byte-level BPE by ranks and classic BPE (a Hugging Face
    pipeline and a SentencePiece model encode by their own rules, which it does not sample).

    >>> from bpe_core import train
    >>> supports_dropout(train("low lower", 258).tokenizer)
    True
    """
    return isinstance(tokenizer, (Tokenizer, ClassicTokenizer))


def dropout_samples(tokenizer: TokenizerShape, text: str, p: float, *, seed: int, n: int) -> list[list[int]]:
    """``n`` segmentations of ``text`` side by side: sample i is ``encode_with_dropout`` with seed
    ``sample_seeds(seed, n)[i]`` (the tokenizer's tables are read once for all of them)."""
    _checked(text, p, seed)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    encoder = _Encoder(tokenizer)
    return [encoder.encode(text, float(p), random.Random(each).random) for each in sample_seeds(seed, n)]
