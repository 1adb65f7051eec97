"""Pre-tokens -> ids for one vocabulary, exactly as tiktoken gives them, fast: a cache of the
pre-tokens seen, and the paths of :func:`.routes.route` for the new ones.

A server lives long, so the distinct pre-tokens remembered (each is encoded once per text) are
bounded: at most :data:`CACHE_LIMIT` entries of at most :data:`CACHED_PIECE_CHARS` characters.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property, partial
from itertools import compress, repeat
from operator import is_not, not_
from typing import TYPE_CHECKING, Any, cast

from ...collector import collector_paused
from .one_piece import heap, loop
from .routes import BYTES, DIGITS, HEAP, cut_into_parts, is_a_table, route, route_parts

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .byte_batch import ByteBatch
    from .cuts import Crossings
    from .digit_runs import DigitRunEncoder

CACHE_LIMIT = 1 << 17
"""Pre-tokens remembered per tokenizer; the cache is emptied when it would grow past this."""
FRESH_MAX_PIECES = 1 << 18
"""Calls of up to this many pre-tokens on an empty cache take :meth:`PieceEncoder._encode_fresh`. It saves a
Python call per distinct pre-token and costs a second hashing pass over all of them: a gain where many are
distinct (Chinese, mixed text: 16,000 and 160,000 pre-tokens), a loss of ~5% on docs10m's 2.5 million, mostly
repeats (Llama 3, min of 16 runs: 1.31 s -> 1.36 s)."""
CACHED_PIECE_CHARS = 256
"""Longer pre-tokens (a whole text with no pre-tokenization) are not worth caching."""


class PieceEncoder:
    """Pre-tokens -> ids for one vocabulary (see the module docstring).

    >>> token_id = {**{bytes([b]): b for b in range(256)}, b"ab": 256}
    >>> PieceEncoder(token_id, {b"ab": 0}, {i: t for t, i in token_id.items()}).encode_pieces(["abc", "ab"])
    [256, 99, 256]
    """

    def __init__(self, token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int], vocab: Mapping[int, bytes]):
        self._token_id = token_id
        self._merge_rank = merge_rank
        self._vocab = vocab
        self._cache: dict[str, tuple[int, ...]] = {}
        # The parts of cut pre-tokens (see .cuts), by BPE alone: a part that is a token merges cannot reach is
        # not kept whole, as a pre-token would be, so the parts are remembered apart from the pre-tokens.
        self._part_cache: dict[str, tuple[int, ...]] = {}

    def __getstate__(self) -> dict[str, Any]:
        # A tokenizer is pickled back from the job process that trained it: the caches stay there.
        # They are rebuilt on use, and the numpy arrays among them would make the receiving server
        # import numpy (~0.1 s, measured on a Compare deep link) only to unpickle the result.
        state = {**self.__dict__, "_cache": {}, "_part_cache": {}}
        for table in _TABLES:  # cached_properties holding numpy arrays
            state.pop(table, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update({"_part_cache": {}, **state})  # pickled before parts were remembered: none yet

    def forget(self) -> None:
        """Empty the cache of pre-tokens already encoded, and the batches' tables (rebuilt on use)."""
        self._cache, self._part_cache = {}, {}
        for table in _TABLES:
            vars(self).pop(table, None)

    def encode_pieces(self, pieces: list[str]) -> list[int]:
        """The ids of a list of pre-tokens, each distinct one encoded once."""
        with collector_paused():
            return self._encode_pieces(pieces)

    def count_tokens(self, counts: Mapping[str, int]) -> int:
        """How many tokens pre-tokens make, each as many times as ``counts`` says: each distinct one encoded once,
        the new ones together (a training's pre-token counts: 55,766 of docs10m's in 0.33 s, one call each 1.95 s)."""
        pieces = list(counts)
        with collector_paused():
            return sum(len(ids) * counts[piece] for piece, ids in zip(pieces, self._ids_of_each(pieces)))

    def encode_text(self, text: str, split: Callable[[str], list[str]]) -> list[int]:
        """The ids of a text that ``split`` cuts into pre-tokens. The collector stays paused until the
        pre-tokens are freed: a collection while they live would walk all of them (see ``collector``)."""
        with collector_paused():
            return self._encode_pieces(split(text))

    def _encode_pieces(self, pieces: list[str]) -> list[int]:
        if is_a_table(pieces, lambda: self._digit_runs):
            return self._encode_table(pieces)
        if not self._cache and len(pieces) <= FRESH_MAX_PIECES:
            return self._encode_fresh(pieces)
        return _concatenated(self._ids_of_each(pieces))

    def _encode_fresh(self, pieces: list[str]) -> list[int]:
        """A call on an empty cache (a fresh tokenizer, or one just emptied) of FRESH_MAX_PIECES at most: every
        distinct pre-token is new, so they are found in C with ``dict.fromkeys``, not with one Python call each
        through :class:`_CallLookup` (the lookup measured 13 -> 5 ms on the Chinese classics, 78 -> 54 ms on the
        mixed text). With a warm cache the one pass of _CallLookup stays cheaper (docs10m 0.52 s against 0.76 s)."""
        if not pieces:
            return []
        distinct = list(dict.fromkeys(pieces))
        encoded = self._encode_new(distinct)
        self._remember(encoded, distinct)
        return _concatenated(map(encoded.__getitem__, pieces))

    def _ids_of_each(self, pieces: list[str]) -> list[Sequence[int]]:
        """Each pre-token's ids, in order, in one pass over the pre-tokens (see :class:`_CallLookup`):
        the pieces not in the cache are encoded together afterwards, into the lists the pass left."""
        lookup = _CallLookup(self._cache)
        ids_of_each: list[Sequence[int]] = list(map(lookup.__getitem__, pieces))
        unseen = lookup.unseen
        if unseen:
            encoded = self._encode_new(unseen)
            deque(map(list.extend, map(lookup.__getitem__, unseen), map(encoded.__getitem__, unseen)), maxlen=0)
            self._remember(encoded, unseen)
        return ids_of_each

    def _encode_table(self, pieces: list[str]) -> list[int]:
        """A table's pre-tokens (the TABLE path): its numbers skip the cache (see
        :meth:`DigitRunEncoder.encode_flat`); the rest (commas, words) use it. Both kinds' ids are
        put back in order with numpy."""
        is_number = list(map(str.isdigit, pieces))
        numbers = list(compress(pieces, is_number))
        digit_runs = self._digit_runs
        if digit_runs is None or not "".join(numbers).isascii():  # isdigit holds for other scripts' digits too
            return _concatenated(self._ids_of_each(pieces))
        import numpy as np  # loaded already by the digit-run encoder

        from .batch_steps import interleave

        others = list(compress(pieces, map(not_, is_number)))
        cached = self._ids_of_each(others)
        other_ids = np.array(_concatenated(cached), dtype=np.int64)
        other_counts = np.fromiter(map(len, cached), dtype=np.int64, count=len(cached))
        number_ids, number_counts = digit_runs.encode_flat(numbers)
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

    def _encode_new(self, pieces: list[str]) -> dict[str, tuple[int, ...]]:
        """Each new piece's ids: whole tokens first, the rest by the paths :func:`.routes.route` picks.

        Sorted with map and compress, which run in C: one Python statement per piece costs as much
        as the BPE of the rest (random numbers)."""
        encoded: dict[str, tuple[int, ...]] = {}
        data = list(map(str.encode, pieces))  # UTF-8
        wholes = list(map(self._token_id.get, data))
        is_whole = list(map(is_not, wholes, repeat(None)))
        whole_ids = cast("Iterable[int]", compress(wholes, is_whole))  # where is_whole holds, not None
        encoded.update(zip(compress(pieces, is_whole), zip(whole_ids)))  # (id,) each
        is_rest = list(map(not_, is_whole))
        rest_pieces, rest_data = list(compress(pieces, is_rest)), list(compress(data, is_rest))
        if not rest_data:
            return encoded
        # CJK runs are cut into parts (CUTS), after the other pieces, which may build the byte batch.
        cut = cut_into_parts(rest_data, rest_pieces, crossings_built="_crossings" in vars(self))
        cut_pieces = list(compress(rest_pieces, cut))
        if cut_pieces:
            uncut = list(map(not_, cut))
            rest_pieces, rest_data = list(compress(rest_pieces, uncut)), list(compress(rest_data, uncut))
        if rest_data:
            paths = route(
                rest_data,
                batch_built="_byte_batch" in vars(self),  # the cached_property has run
                byte_batch_fits=lambda: self._byte_batch is not None,
                digit_runs_fit=lambda: self._digit_runs is not None,
            )
            for path, flags in paths.items():
                if any(flags):
                    ids = self._take(path, list(compress(rest_data, flags)))
                    encoded.update(zip(compress(rest_pieces, flags), ids))
        if cut_pieces:
            encoded.update(zip(cut_pieces, self._encode_by_parts(cut_pieces)))
        return encoded

    def _encode_by_parts(self, pieces: list[str]) -> list[tuple[int, ...]]:
        """Each piece's ids, the piece cut at its permanent boundaries and each distinct part encoded once by
        BPE alone (the CUTS path: see :mod:`.cuts` and :mod:`.by_parts`)."""
        from .by_parts import encode_by_parts  # numpy, loaded with the crossings

        return encode_by_parts(self._crossings.cut(pieces), self._part_cache, self._encode_new_parts)

    def _encode_new_parts(self, parts: list[str]) -> dict[str, tuple[int, ...]]:
        """New parts' ids (single bytes are tokens; the others by :func:`.routes.route_parts`), remembered."""
        data = list(map(str.encode, parts))
        is_byte = [len(part) == 1 for part in data]
        encoded: dict[str, tuple[int, ...]] = dict(
            zip(compress(parts, is_byte), zip(map(self._token_id.__getitem__, compress(data, is_byte))))
        )
        longer = list(map(not_, is_byte))
        longer_parts, longer_data = list(compress(parts, longer)), list(compress(data, longer))
        if longer_data:
            paths = route_parts(longer_data, batch_built="_byte_batch" in vars(self))
            for path, flags in paths.items():
                if any(flags):
                    ids = self._take(path, list(compress(longer_data, flags)))
                    encoded.update(zip(compress(longer_parts, flags), ids))
        if len(self._part_cache) + len(encoded) > CACHE_LIMIT:
            self._part_cache.clear()
        self._part_cache.update(encoded)
        return encoded

    @cached_property
    def _crossings(self) -> Crossings:
        """Where this vocabulary's merged tokens lie across a character boundary (see :mod:`.cuts`)."""
        from .cuts import Crossings  # numpy, as in _byte_batch

        return Crossings(self._merge_rank)

    def _take(self, path: str, data: list[bytes]) -> Iterable[tuple[int, ...]]:
        """The ids of each piece, by one path of :func:`.routes.route`."""
        if path == BYTES and self._byte_batch is not None:
            return self._byte_batch.encode(data)
        if path == DIGITS and self._digit_runs is not None:
            return self._digit_runs.encode(data)
        one_piece = heap if path == HEAP else loop
        return map(tuple, map(partial(one_piece, self._token_id, self._merge_rank), data))

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


_TABLES = ("_byte_batch", "_digit_runs", "_crossings")
"""The cached properties holding a vocabulary's numpy tables (rebuilt on use)."""


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
