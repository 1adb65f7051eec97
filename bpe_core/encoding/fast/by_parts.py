"""The CUTS path's second half (see :mod:`.routes`): pre-tokens cut into parts (:mod:`.cuts`) -> each pre-token's
ids, every distinct part encoded once.

Most parts of a CJK run are one character: those are grouped by code point with numpy (``np.unique``), so a
string is made, and a dict read, once per distinct character rather than once per part; their ids go back to
the parts by indexing. Longer parts are cut out as strings and looked up the same way. A part is encoded by
BPE alone (a part that is a token merges cannot reach is not kept whole), by ``encode_new``.

>>> from .cuts import Crossings
>>> token_id = {**{bytes([b]): b for b in range(256)}, "子".encode(): 300}
>>> cut = Crossings({"子".encode()[:2]: 0, "子".encode(): 1}).cut(["子子", "ab子"])
>>> def encode_new(parts): return {part: (token_id[part.encode()],) if part == "子" else tuple(part.encode())
...                                for part in parts}
>>> encode_by_parts(cut, {}, encode_new)
[(300, 300), (97, 98, 300)]
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, compress, repeat
from operator import is_

import numpy as np

from .batch_steps import interleave, per_piece
from .cuts import CutText


def encode_by_parts(
    cut: CutText,
    part_cache: dict[str, tuple[int, ...]],
    encode_new: Callable[[list[str]], dict[str, tuple[int, ...]]],
) -> list[tuple[int, ...]]:
    """Each cut piece's ids: its parts' ids in order, the parts in ``part_cache`` looked up and the others
    encoded by ``encode_new`` (which also remembers them)."""
    single = cut.lengths == 1
    chars, inverse = np.unique(cut.code_points[cut.starts[single]], return_inverse=True)
    char_parts = list(map(chr, chars.tolist()))
    multi_starts = cut.starts[~single]
    multi_ends = multi_starts + cut.lengths[~single]
    multi_parts = list(map(cut.text.__getitem__, map(slice, multi_starts.tolist(), multi_ends.tolist())))
    distinct = char_parts + list(dict.fromkeys(multi_parts))  # no longer part is one character
    found = list(map(part_cache.get, distinct))
    ids_of: dict[str, tuple[int, ...] | None] = dict(zip(distinct, found))
    unseen = list(compress(distinct, map(is_, found, repeat(None))))
    if unseen:
        ids_of.update(encode_new(unseen))
    char_ids, char_counts = _flat(list(map(ids_of.__getitem__, char_parts)))
    # Each one-character part's ids: its character's, gathered from where they lie in char_ids.
    single_counts = char_counts[inverse]
    char_offsets = (np.cumsum(char_counts) - char_counts)[inverse]
    single_ids = char_ids[
        np.repeat(char_offsets - (np.cumsum(single_counts) - single_counts), single_counts)
        + np.arange(int(single_counts.sum()))
    ]
    multi_ids, multi_counts = _flat(list(map(ids_of.__getitem__, multi_parts)))
    ids, part_counts = interleave(single, single_ids, single_counts, multi_ids, multi_counts)
    piece_counts = np.add.reduceat(part_counts, np.cumsum(cut.per_piece) - cut.per_piece)
    return per_piece(ids.tolist(), piece_counts)


def _flat(ids_of_each: list) -> tuple[np.ndarray, np.ndarray]:
    """All the tuples' ids one after another, and how many each has."""
    counts = np.fromiter(map(len, ids_of_each), dtype=np.int64, count=len(ids_of_each))
    ids = np.fromiter(chain.from_iterable(ids_of_each), dtype=np.int64, count=int(counts.sum()))
    return ids, counts
