"""BPE inside pre-tokens, exactly as tiktoken does it, for many pre-tokens at once.

The rule: inside a pre-token, repeatedly merge the adjacent pair whose concatenation has the
lowest merge rank (leftmost first on equal ranks); a pre-token that is itself a token is emitted
whole. Four paths give the same ids:

- a pre-token that is a whole token: one dict lookup (most pre-tokens of prose);
- many new numbers (`` ?[0-9]+``; a table of random ones never repeats one):
  :mod:`bpe_core.digit_runs`, the batch below on small integers instead of bytes objects;
- many other new pre-tokens at once (a text's distinct pre-tokens):
  :meth:`PieceEncoder._merge_batch` runs the rule on all of them together with numpy, one merge
  per pre-token per step, so the Python work per step is a handful of array operations, not a
  loop over the pieces;
- a few pre-tokens, or one longer than :data:`LONG_PIECE_BYTES` (a whole text with no
  pre-tokenization): tiktoken's loop, or the boundary lifetimes (a heap, n log n).

A server lives long, so the distinct pre-tokens remembered (each is encoded once per text) are
bounded: at most :data:`CACHE_LIMIT` entries of at most :data:`CACHED_PIECE_CHARS` characters.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache, cached_property, reduce
from itertools import compress, repeat
from operator import iadd, is_not, not_
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

_NO_RANK = 1 << 30  # above every rank: "this pair does not merge"
# A step's key is rank << 32 | position: its minimum is the lowest rank, leftmost.
_INDEX_BITS = 32
_POSITION_MASK = (1 << _INDEX_BITS) - 1

if TYPE_CHECKING:
    import numpy as np

    from .digit_runs import DigitRunEncoder


class PieceEncoder:
    """Pre-tokens -> ids for one vocabulary (see the module docstring)."""

    def __init__(self, token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int]):
        self._token_id = token_id
        self._merge_rank = merge_rank
        # Ranks that do not fit the batch's keys (a hand-made vocab) take the one-piece loop.
        self._batch_ok = max(merge_rank.values(), default=0) < _NO_RANK
        self._cache: dict[str, list[int] | tuple[int, ...]] = {}
        self._byte_pairs: np.ndarray | None = None

    def __getstate__(self) -> dict:
        # A tokenizer is pickled back from the job process that trained it: the caches stay there.
        # They are rebuilt on use, and the numpy array among them would make the receiving server
        # import numpy (~0.1 s, measured on a Compare deep link) only to unpickle the result.
        return {**self.__dict__, "_cache": {}, "_byte_pairs": None}

    def encode_pieces(self, pieces: list[str]) -> list[int]:
        """The ids of a list of pre-tokens, each distinct one encoded once."""
        with _cycle_collector_paused():
            return self._encode_pieces(pieces)

    def _encode_pieces(self, pieces: list[str]) -> list[int]:
        cache = self._cache
        new_pieces = set(pieces).difference(cache)
        if len(cache) + len(new_pieces) > CACHE_LIMIT:
            cache.clear()
            new_pieces = set(pieces)
        self._add_to_cache(list(new_pieces))
        # map and reduce(iadd) (list += list) run in C: a Python loop over millions of pre-tokens
        # costs more than BPE. The first list is a fresh one, so no cached list is changed.
        ids: list[int] = reduce(iadd, map(cache.__getitem__, pieces), [])
        if new_pieces and max(map(len, new_pieces)) > CACHED_PIECE_CHARS:
            for piece in new_pieces:
                if len(piece) > CACHED_PIECE_CHARS:
                    del cache[piece]
        return ids

    def _add_to_cache(self, pieces: list[str]) -> None:
        # Sorted into whole tokens and the rest with map and compress, which run in C: one
        # Python statement per piece costs as much as the BPE of the rest (random numbers).
        cache, token_id = self._cache, self._token_id
        encoded = list(map(str.encode, pieces))  # UTF-8
        wholes = list(map(token_id.get, encoded))
        is_whole = list(map(is_not, wholes, repeat(None)))
        cache.update(zip(compress(pieces, is_whole), zip(compress(wholes, is_whole))))  # (id,) each
        is_rest = list(map(not_, is_whole))
        rest_pieces, rest_bytes = list(compress(pieces, is_rest)), list(compress(encoded, is_rest))
        if not rest_bytes:
            return
        if len(rest_bytes) < BATCH_MIN_PIECES or not self._batch_ok:
            cache.update(zip(rest_pieces, map(self.encode_piece, rest_bytes)))
            return
        if max(map(len, rest_bytes)) > LONG_PIECE_BYTES:
            is_long = [len(data) > LONG_PIECE_BYTES for data in rest_bytes]
            (long_pieces, long_bytes), (rest_pieces, rest_bytes) = _partition(is_long, rest_pieces, rest_bytes)
            cache.update(zip(long_pieces, map(self.encode_piece, long_bytes)))
        from .digit_runs import DIGIT_RUN  # with numpy, which the batches below need anyway

        is_number = list(map(bool, map(DIGIT_RUN.fullmatch, rest_bytes)))
        if any(is_number) and self._digit_runs is not None:
            # Numbers (a table of random ones never repeats one): BPE on small integers.
            (number_pieces, number_bytes), (rest_pieces, rest_bytes) = _partition(is_number, rest_pieces, rest_bytes)
            self._digit_runs.encode_into(cache, number_pieces, number_bytes)
        if rest_bytes:
            cache.update(zip(rest_pieces, self._merge_batch(rest_bytes)))

    @cached_property
    def _digit_runs(self) -> DigitRunEncoder | None:
        """The batch for number pre-tokens (None if this vocabulary has too many number tokens)."""
        from .digit_runs import digit_run_encoder  # numpy, as in _merge_batch

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

    def _merge_batch(self, pieces: list[bytes]) -> list[list[int]]:
        """tiktoken's rule on many pieces (none a whole token, each 2..LONG_PIECE_BYTES bytes) at once.

        All pieces' symbols (bytes objects) sit in one array, piece after piece, as linked lists
        (a merge absorbs the right symbol into the left one and unlinks it), with the key of the
        pair each symbol starts: rank << 32 | position, so that a piece's smallest key is its
        lowest rank, leftmost. Each step finds every piece's smallest key at once
        (``minimum.reduceat``), merges those pairs and re-keys the (at most two) pairs touching
        each new token. numpy adds the bytes objects and the rank lookups are ``map``s of
        ``dict.get``: a step has no Python loop over its pieces.
        """
        token_id = self._token_id
        import numpy as np  # here, not at the top: importing bpe_core (say, in a job process) stays light

        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        data = np.frombuffer(b"".join(pieces), dtype=np.uint8)
        symbols = _single_bytes()[data]
        positions = np.arange(len(data))
        next_of = positions + 1  # the next live symbol of the same piece (or the piece's end)
        previous_of = positions - 1
        alive = np.ones(len(data), dtype=bool)
        ranks = np.append(self._byte_pair_ranks()[(data[:-1].astype(np.int64) << 8) | data[1:]], _NO_RANK)
        starts = np.cumsum(lengths) - lengths
        ends = starts + lengths
        ranks[ends - 1] = _NO_RANK  # a piece's last symbol starts no pair
        keys = (ranks << _INDEX_BITS) | positions
        ranks_of = self._ranks

        def merge(at: np.ndarray, absorbed: np.ndarray) -> None:
            symbols[at] = symbols[at] + symbols[absorbed]

        def rekey(left: np.ndarray, right: np.ndarray) -> None:
            keys[left] = (ranks_of(symbols[left] + symbols[right]) << _INDEX_BITS) | left

        merge_steps(keys, starts, ends, next_of, previous_of, alive, _NO_RANK << _INDEX_BITS, merge, rekey)
        # A tuple, so that its slices are tuples: the cycle collector stops tracking tuples of ints,
        # while each list in the cache would be walked by every full collection.
        flat = tuple(map(token_id.__getitem__, symbols[alive].tolist()))
        counts = np.add.reduceat(alive, starts, dtype=np.int64)
        stops = np.cumsum(counts)
        ids = list(map(flat.__getitem__, map(slice, (stops - counts).tolist(), stops.tolist())))
        return ids

    def _ranks(self, tokens: np.ndarray) -> np.ndarray:
        """The merge rank of each bytes object (_NO_RANK for those that are no merge)."""
        import numpy as np

        ranks = map(self._merge_rank.get, tokens.tolist(), repeat(_NO_RANK))  # a list iterates faster
        return np.fromiter(ranks, dtype=np.int64, count=len(tokens))

    def _byte_pair_ranks(self) -> np.ndarray:
        """The merge rank of every pair of bytes (the first step's pairs), indexed by byte << 8 | byte."""
        if self._byte_pairs is None:
            import numpy as np

            singles = _single_bytes()
            self._byte_pairs = self._ranks(np.repeat(singles, 256) + np.tile(singles, 256))
        return self._byte_pairs


def merge_steps(
    keys: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    next_of: np.ndarray,
    previous_of: np.ndarray,
    alive: np.ndarray,
    no_key: int,
    merge: Callable[[np.ndarray, np.ndarray], None],
    rekey: Callable[[np.ndarray, np.ndarray], None],
) -> None:
    """The batch's steps, shared by :meth:`PieceEncoder._merge_batch` and :mod:`bpe_core.digit_runs`.

    Pieces lie in one array as linked lists of symbols (``next_of``, ``previous_of``); ``keys`` hold
    rank << 32 | position of the pair each symbol starts (``no_key`` and above: none). Each step
    takes every piece's smallest key (its lowest rank, leftmost), lets ``merge(at, absorbed)`` make
    the new symbols at ``at``, unlinks the absorbed ones, and has ``rekey(left, right)`` key the (at
    most two) pairs touching each new symbol. The segments reduceat takes run from one merging
    piece's start to the next one's, over finished pieces too, whose keys change no minimum.
    """
    import numpy as np

    merging_starts, merging_ends = starts, ends
    while len(merging_starts):
        lowest = np.minimum.reduceat(keys[: merging_ends[-1]], merging_starts)
        merging = lowest < no_key
        merging_starts, merging_ends, lowest = merging_starts[merging], merging_ends[merging], lowest[merging]
        at = lowest & _POSITION_MASK  # each piece's merge: the symbol at `at` absorbs the next
        absorbed = next_of[at]
        merge(at, absorbed)
        alive[absorbed] = False
        keys[absorbed] = no_key
        after = next_of[absorbed]
        next_of[at] = after
        has_right = after < merging_ends
        previous_of[after[has_right]] = at[has_right]
        # Re-key the pair the new symbol starts (none if it is now last) and the one it ends.
        keys[at] = no_key
        right = at[has_right]
        rekey(right, next_of[right])
        ending = at[at > merging_starts]
        rekey(previous_of[ending], ending)


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


@cache
def _single_bytes() -> np.ndarray:
    """The 256 one-byte bytes objects, as a numpy object array."""
    import numpy as np

    return np.array([bytes([byte]) for byte in range(256)], dtype=object)


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
