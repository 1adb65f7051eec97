"""Permanent cuts: places inside a pre-token that no merge can ever join, found for many pre-tokens at once.

BPE merges two parts only into a token, so between two characters of a pre-token where no merged token (a
key of ``merge_rank``) can lie across, the boundary survives every merge, and the two sides encode each on
its own: the merges on either side never look across, and the global order (lowest rank, leftmost) restricted
to one side is that side's own order. A long run of CJK with few multi-character tokens so becomes a handful
of short parts (often single characters) that repeat all over the text and are encoded once each.

Which boundaries a token can lie across is read from the vocabulary once (:class:`Crossings`): every place
inside a merged token where one character ends and another starts, as the pair of code points around it. A
token starting or ending inside a character (byte-level vocabularies have some) stands for every character
with that tail or head: it is recorded by the character it does give whole (``right_any``, ``left_any``),
or by the bytes around the place when it gives neither (``byte_pairs``). Two ASCII characters are always
taken to be joinable (the vocabularies are full of ASCII words). So a boundary reported as a cut is one no
token lies across; a boundary some token could lie across is never cut (some are kept that need not be).

A part is encoded by BPE alone: a part that is itself a token merges cannot reach (Llama 3's ``.:.:``) is not
emitted whole, since tiktoken keeps only a whole pre-token whole.

>>> merge_rank = {"子曰".encode(): 0, b"ab": 1}
>>> crossings = Crossings(merge_rank)
>>> parts, counts = crossings.parts(["子曰學而", "ab子"])
>>> parts, counts.tolist()
(['子曰', '學', '而', 'ab', '子'], [3, 2])
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import filterfalse
from typing import NamedTuple

import numpy as np

_CODE_BITS = 21  # code points are below 2**21: a pair of them is one int64


def _utf8_lengths(lead: np.ndarray) -> np.ndarray:
    """The byte length of the character each lead byte starts (1 for ASCII and, harmlessly, for stray bytes)."""
    return 1 + (lead >= 0xC0) + (lead >= 0xE0) + (lead >= 0xF0)


def _code_points(data: np.ndarray, at: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The code point of the character of ``sizes`` bytes starting at each position ``at`` of ``data`` (which
    ends with 3 bytes of padding)."""
    value = data[at].astype(np.int64)
    value = np.where(sizes == 1, value, value & (0xFF >> (sizes + 1)))
    for offset in (1, 2, 3):
        more = sizes > offset
        value = np.where(more, (value << 6) | (data[at + offset] & 0x3F), value)
    return value


class Crossings:
    """Where a vocabulary's merged tokens lie across a character boundary (see the module docstring)."""

    def __init__(self, merge_rank: Mapping[bytes, int]):
        tokens = list(filterfalse(bytes.isascii, merge_rank))  # an ASCII token lies across ASCII pairs only
        sizes = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
        data = np.frombuffer(b"".join(tokens) + bytes(3), dtype=np.uint8)
        ends = np.cumsum(sizes)
        starts = ends - sizes
        is_lead = (data & 0xC0) != 0x80
        inside = is_lead.copy()
        inside[starts] = False
        inside[-3:] = False
        at = np.flatnonzero(inside)  # a character starts inside a token
        token = np.searchsorted(ends, at, side="right")
        token_start, token_end = starts[token], ends[token]
        lengths = _utf8_lengths(data[at])
        # The character after: whole if the token holds all of it.
        right_whole = at + lengths <= token_end
        right = _code_points(data, at, lengths)
        # The character before: from the last lead byte before `at`, whole if it starts in the token and ends at `at`.
        positions = np.arange(len(data))
        last_lead = np.maximum.accumulate(np.where(is_lead, positions, 0))[at - 1]
        left_lengths = _utf8_lengths(data[last_lead])
        left_whole = (last_lead >= token_start) & is_lead[last_lead] & (last_lead + left_lengths == at)
        left = _code_points(data, last_lead, left_lengths)
        both = left_whole & right_whole
        self.pairs = np.sort((left[both] << _CODE_BITS) | right[both])
        self.right_any = np.sort(right[~left_whole & right_whole])
        self.left_any = np.sort(left[left_whole & ~right_whole])
        neither = ~left_whole & ~right_whole
        self.byte_pairs = np.sort((data[at[neither] - 1].astype(np.int64) << 8) | data[at[neither]])

    def cuts(self, code_points: np.ndarray) -> np.ndarray:
        """For each character of a text (as code points) but the first: whether no token can lie across
        the boundary before it."""
        left, right = code_points[:-1], code_points[1:]
        joinable = (left < 0x80) & (right < 0x80)
        joinable |= _isin(self.pairs, (left << _CODE_BITS) | right)
        joinable |= _isin(self.right_any, right) | _isin(self.left_any, left)
        if len(self.byte_pairs):
            joinable |= _isin(self.byte_pairs, (_last_byte(left) << 8) | _first_byte(right))
        return ~joinable

    def parts(self, pieces: list[str]) -> tuple[list[str], np.ndarray]:
        """Each piece cut at its permanent boundaries (a piece with none stays one part): all parts in order,
        and how many each piece has."""
        cut = self.cut(pieces)
        ends = cut.starts + cut.lengths
        parts = list(map(cut.text.__getitem__, map(slice, cut.starts.tolist(), ends.tolist())))
        return parts, cut.per_piece

    def cut(self, pieces: list[str]) -> CutText:
        """Each piece cut at its permanent boundaries, as positions in the pieces joined (no part made a string:
        most parts of a CJK run are one character, which :mod:`.by_parts` looks up by code point)."""
        text = "".join(pieces)
        code_points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int64)
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        starts_here = np.ones(len(text), dtype=bool)
        starts_here[1:] = self.cuts(code_points)
        piece_starts = np.cumsum(lengths) - lengths
        starts_here[piece_starts] = True
        part_starts = np.flatnonzero(starts_here)
        part_lengths = np.diff(part_starts, append=len(text))
        per_piece = np.add.reduceat(starts_here, piece_starts, dtype=np.int64)
        return CutText(text, code_points, part_starts, part_lengths, per_piece)


class CutText(NamedTuple):
    """Pieces cut into parts (:meth:`Crossings.cut`): the pieces joined, its code points, each part's start and
    length in characters, and how many parts each piece has (every piece has one at least)."""

    text: str
    code_points: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray
    per_piece: np.ndarray


def _isin(sorted_values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    if not len(sorted_values):
        return np.zeros(len(queries), dtype=bool)
    found = np.minimum(np.searchsorted(sorted_values, queries), len(sorted_values) - 1)
    return sorted_values[found] == queries


def _last_byte(code_points: np.ndarray) -> np.ndarray:
    """The last UTF-8 byte of each character."""
    return np.where(code_points < 0x80, code_points, 0x80 | (code_points & 0x3F))


def _first_byte(code_points: np.ndarray) -> np.ndarray:
    """The first UTF-8 byte of each character."""
    return np.select(
        [code_points < 0x80, code_points < 0x800, code_points < 0x10000],
        [code_points, 0xC0 | (code_points >> 6), 0xE0 | (code_points >> 12)],
        0xF0 | (code_points >> 18),
    )
