"""BPE inside pre-tokens, exactly as tiktoken does it, for many pre-tokens at once.

The rule: inside a pre-token, repeatedly merge the adjacent pair whose concatenation has the
lowest merge rank (leftmost first on equal ranks); a pre-token that is itself a token is emitted
whole. Four paths give the same ids:

- a pre-token that is a whole token: one dict lookup (most pre-tokens of prose);
- many new numbers (`` ?[0-9]+``; a table of random ones never repeats one):
  :mod:`bpe_core.digit_runs`, the same batch with a dense table of the pairs that merge;
- many other new pre-tokens at once (a text's distinct pre-tokens):
  :class:`bpe_core.byte_batch.ByteBatch` runs the rule on all of them together with numpy;
- a few pre-tokens, or one longer than :data:`LONG_PIECE_BYTES` (a whole text with no
  pre-tokenization): tiktoken's loop, or the boundary lifetimes (a heap, n log n).

A server lives long, so the distinct pre-tokens remembered (each is encoded once per text) are
bounded: at most :data:`CACHE_LIMIT` entries of at most :data:`CACHED_PIECE_CHARS` characters.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cached_property
from itertools import compress, repeat
from operator import is_not, not_
from typing import TYPE_CHECKING

from .lifetimes import PERMANENT, piece_lifetimes

CACHE_LIMIT = 1 << 17
"""Pre-tokens remembered per tokenizer; the cache is emptied when it would grow past this."""
CACHED_PIECE_CHARS = 256
"""Longer pre-tokens (a whole text with no pre-tokenization) are not worth caching."""
LONG_PIECE_BYTES = 64
"""Longer pre-tokens go to the heap (n log n); the batch's steps grow with the longest piece."""
BATCH_MIN_PIECES = 32
"""Below this many new pre-tokens, numpy's fixed cost per step outweighs what it saves."""
BATCH_BUILD_MIN_PIECES = 2048
"""New pre-tokens from which building the batch (~0.03 s for cl100k, ~0.06 s for o200k) pays,
against tiktoken's loop at ~10 us a piece: a short text's first encode stays quick."""
NUMBERS_MIN_PIECES = 1024
"""Pre-tokens of one call from which a table of numbers takes its own path (numpy's fixed cost)."""
NEW_NUMBERS_MIN = 1024
"""New number pre-tokens from which the digit-run batch pays for building its table (~0.09 s)."""

_NO_RANK = 1 << 30  # above every rank: "this pair does not merge"

if TYPE_CHECKING:
    from .byte_batch import ByteBatch
    from .digit_runs import DigitRunEncoder


class PieceEncoder:
    """Pre-tokens -> ids for one vocabulary (see the module docstring)."""

    def __init__(self, token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int], vocab: Mapping[int, bytes]):
        self._token_id = token_id
        self._merge_rank = merge_rank
        self._vocab = vocab
        self._cache: dict[str, tuple[int, ...]] = {}

    def __getstate__(self) -> dict:
        # A tokenizer is pickled back from the job process that trained it: the caches stay there.
        # They are rebuilt on use, and the numpy arrays among them would make the receiving server
        # import numpy (~0.1 s, measured on a Compare deep link) only to unpickle the result.
        state = {**self.__dict__, "_cache": {}}
        state.pop("_digit_runs", None)  # cached_properties holding numpy arrays
        state.pop("_byte_batch", None)
        return state

    def encode_pieces(self, pieces: list[str]) -> list[int]:
        """The ids of a list of pre-tokens, each distinct one encoded once."""
        with _cycle_collector_paused():
            return self._encode_pieces(pieces)

    def encode_text(self, text: str, split: Callable[[str], list[str]]) -> list[int]:
        """The ids of a text that ``split`` cuts into pre-tokens. The collector stays paused until the
        pre-tokens are freed: a collection while they live would walk all of them (~0.04 s for 10 MB)."""
        with _cycle_collector_paused():
            return self._encode_pieces(split(text))

    def _encode_pieces(self, pieces: list[str]) -> list[int]:
        if len(pieces) >= NUMBERS_MIN_PIECES and self._is_a_table(pieces):
            return self._encode_with_numbers(pieces)
        return self._encode_cached(pieces)

    def _encode_cached(self, pieces: list[str]) -> list[int]:
        """Each pre-token's ids from the cache, the new ones encoded together."""
        return _concatenated(self._ids_of_each(pieces))

    def _ids_of_each(self, pieces: list[str]) -> list[Sequence[int]]:
        """Each pre-token's ids, in order, in one pass over the pre-tokens (see :class:`_CallLookup`):
        the pieces not in the cache are encoded together afterwards, into the lists the pass left."""
        lookup = _CallLookup(self._cache)
        ids_of_each: list[Sequence[int]] = list(map(lookup.__getitem__, pieces))
        unseen = lookup.unseen
        if unseen:
            encoded: dict[str, tuple[int, ...]] = {}
            self._encode_into(encoded, unseen)
            deque(map(list.extend, map(lookup.__getitem__, unseen), map(encoded.__getitem__, unseen)), maxlen=0)
            self._remember(encoded, unseen)
        return ids_of_each

    def _is_a_table(self, pieces: list[str]) -> bool:
        """Whether over a tenth of the pre-tokens are digit runs that are not whole tokens (a table's
        numbers; cl100k's have 1 to 3 digits, all whole tokens, which the cache serves better).
        Judged on two stretches of 512: a stride would see one column of a table whose row length
        it divides."""
        middle = len(pieces) // 2
        sample = pieces[:512] + pieces[middle : middle + 512]
        numbers = list(compress(sample, map(str.isdigit, sample)))
        if len(numbers) * 10 <= len(sample) or self._digit_runs is None:
            return False
        return len(self._digit_runs.not_whole(numbers)) * 10 > len(sample)

    def _encode_with_numbers(self, pieces: list[str]) -> list[int]:
        """A table's pre-tokens: its numbers, which hardly ever repeat, skip the cache (see
        :meth:`DigitRunEncoder.encode_flat`); the rest (commas, words) use it. Both kinds' ids are
        put back in order with numpy."""
        is_number = list(map(str.isdigit, pieces))
        numbers = list(compress(pieces, is_number))
        if not "".join(numbers).isascii():  # str.isdigit also holds for other scripts' digits
            return self._encode_cached(pieces)
        import numpy as np  # loaded already by the digit-run encoder

        from .byte_batch import interleave

        others = list(compress(pieces, map(not_, is_number)))
        cached = self._ids_of_each(others)
        other_ids = np.array(_concatenated(cached), dtype=np.int64)
        other_counts = np.fromiter(map(len, cached), dtype=np.int64, count=len(cached))
        assert self._digit_runs is not None
        number_ids, number_counts = self._digit_runs.encode_flat(numbers)
        flags = np.array(is_number, dtype=bool)
        return interleave(flags, number_ids, number_counts, other_ids, other_counts)[0].tolist()

    def _remember(self, encoded: dict[str, tuple[int, ...]], pieces: list[str]) -> None:
        """Add newly encoded pieces (encoded's keys, in text order) to the cache, emptying it first if
        it would outgrow CACHE_LIMIT; pieces of over CACHED_PIECE_CHARS are not kept."""
        cache = self._cache
        if len(cache) + len(encoded) > CACHE_LIMIT:
            cache.clear()
        if max(map(len, pieces)) > CACHED_PIECE_CHARS:  # the list in text order: mostly in memory order
            encoded = {piece: ids for piece, ids in encoded.items() if len(piece) <= CACHED_PIECE_CHARS}
        cache.update(encoded)

    def _encode_into(self, cache: dict[str, tuple[int, ...]], pieces: list[str]) -> None:
        """Each piece's ids into cache (a fresh dict).

        Sorted into whole tokens and the rest with map and compress, which run in C: one Python
        statement per piece costs as much as the BPE of the rest (random numbers)."""
        token_id = self._token_id
        encoded = list(map(str.encode, pieces))  # UTF-8
        wholes = list(map(token_id.get, encoded))
        is_whole = list(map(is_not, wholes, repeat(None)))
        cache.update(zip(compress(pieces, is_whole), zip(compress(wholes, is_whole))))  # (id,) each
        is_rest = list(map(not_, is_whole))
        rest_pieces, rest_bytes = list(compress(pieces, is_rest)), list(compress(encoded, is_rest))
        if not rest_bytes:
            return
        batch_built = "_byte_batch" in vars(self)  # the cached_property has run
        if len(rest_bytes) < (BATCH_MIN_PIECES if batch_built else BATCH_BUILD_MIN_PIECES) or self._byte_batch is None:
            cache.update(zip(rest_pieces, map(tuple, map(self.encode_piece, rest_bytes))))
            return
        if max(map(len, rest_bytes)) > LONG_PIECE_BYTES:
            is_long = [len(data) > LONG_PIECE_BYTES for data in rest_bytes]
            (long_pieces, long_bytes), (rest_pieces, rest_bytes) = _partition(is_long, rest_pieces, rest_bytes)
            cache.update(zip(long_pieces, map(tuple, map(self.encode_piece, long_bytes))))
        from .digit_runs import DIGIT_RUN  # with numpy, which the batches below need anyway

        is_number = list(map(bool, map(DIGIT_RUN.fullmatch, rest_bytes)))
        # A few numbers in prose cost the byte batch less than building the digit-run table does.
        if sum(is_number) >= NEW_NUMBERS_MIN and self._digit_runs is not None:
            # Numbers (a table of random ones never repeats one): BPE on small integers.
            (number_pieces, number_bytes), (rest_pieces, rest_bytes) = _partition(is_number, rest_pieces, rest_bytes)
            cache.update(zip(number_pieces, self._digit_runs.encode(number_bytes)))
        if rest_bytes:
            cache.update(zip(rest_pieces, self._byte_batch.encode(rest_bytes)))

    @cached_property
    def _byte_batch(self) -> ByteBatch | None:
        """The batch for this vocabulary; None for a hand-made one it does not fit (the loop then)."""
        from .byte_batch import ByteBatch  # numpy, only when a batch is needed

        if not ByteBatch.supports(self._merge_rank):
            return None
        return ByteBatch(self._token_id, self._merge_rank, self._vocab)

    @cached_property
    def _digit_runs(self) -> DigitRunEncoder | None:
        """The batch for number pre-tokens (None if this vocabulary has too many number tokens)."""
        from .digit_runs import digit_run_encoder  # numpy, as in _byte_batch

        return digit_run_encoder(self._token_id, self._merge_rank)

    def encode_piece(self, piece: bytes) -> list[int]:
        """The ids of one pre-token's bytes."""
        token_id = self._token_id
        whole = token_id.get(piece)
        if whole is not None:
            return [whole]
        if len(piece) > LONG_PIECE_BYTES:
            lifetimes = piece_lifetimes(piece, self._merge_rank)
            return [token_id[token] for token in _split_at_permanent(piece, lifetimes)]
        # tiktoken's loop: keep each adjacent pair's rank, and after a merge re-rank only the
        # two pairs that touch the new part.
        merge_rank = self._merge_rank
        parts = [piece[i : i + 1] for i in range(len(piece))]
        ranks = [merge_rank.get(piece[i : i + 2], _NO_RANK) for i in range(len(piece) - 1)]
        while ranks:
            lowest = min(ranks)
            if lowest == _NO_RANK:
                break
            index = ranks.index(lowest)
            parts[index : index + 2] = [parts[index] + parts[index + 1]]
            del ranks[index]
            if index < len(ranks):
                ranks[index] = merge_rank.get(parts[index] + parts[index + 1], _NO_RANK)
            if index > 0:
                ranks[index - 1] = merge_rank.get(parts[index - 1] + parts[index], _NO_RANK)
        return [token_id[part] for part in parts]


@contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Python's cycle collector runs whenever enough containers (the cache's lists) have been made,
    and its full runs walk every live list, a text's millions of pre-tokens and ids included: about
    a tenth of encoding a big text. Encoding makes no reference cycles, so the collector is paused
    meanwhile, as Mercurial's ``util.nogc`` does. It is process-wide: another thread encoding at the
    same time may turn it back on early, which only costs that speed."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class _CallLookup(dict):
    """One call's view of the cache. A pre-token not in this dict is looked up in the cache; one
    not there either is recorded in ``unseen`` and gets an empty list, filled once all of them are
    encoded. So the call's pre-tokens are read in one pass, not one to find the new ones and one
    to look them up: on a heap fragmented by earlier big calls that pass costs ~0.1 s per 10 MB.
    Each call has its own view, so threads sharing a tokenizer never see another's empty lists."""

    def __init__(self, cache: dict[str, tuple[int, ...]]):
        super().__init__()
        self.cache = cache
        self.unseen: list[str] = []

    def __missing__(self, piece: str) -> Sequence[int]:
        ids: Sequence[int] | None = self.cache.get(piece)
        if ids is None:
            ids = []
            self.unseen.append(piece)
        self[piece] = ids
        return ids


def _concatenated(parts: Iterable[Sequence[int]]) -> list[int]:
    """One list of all parts' ids, in C: a Python loop over millions of pre-tokens costs more than
    their BPE. ``list.extend`` mapped over them and drained by a zero-length deque measured 0.20 s
    for 10 MB of cl100k, ``reduce(iadd)`` 0.25 s and ``chain.from_iterable`` 0.24 s.

    >>> _concatenated([(1, 2), (3,)])
    [1, 2, 3]
    """
    ids: list[int] = []
    deque(map(ids.extend, parts), maxlen=0)
    return ids


def _partition(flags: list[bool], pieces: list[str], data: list[bytes]) -> tuple[tuple[list, list], tuple[list, list]]:
    """(pieces, data) where the flag is set, and where it is not; compress runs in C."""
    others = list(map(not_, flags))
    return (list(compress(pieces, flags)), list(compress(data, flags))), (
        list(compress(pieces, others)),
        list(compress(data, others)),
    )


def _split_at_permanent(piece: bytes, lifetimes: list[int]) -> list[bytes]:
    """Cut piece at the boundaries no merge removed: its tokens with the full vocabulary."""
    parts, start = [], 0
    for index, lifetime in enumerate(lifetimes):
        if lifetime == PERMANENT:
            parts.append(piece[start : index + 1])
            start = index + 1
    parts.append(piece[start:])
    return parts
