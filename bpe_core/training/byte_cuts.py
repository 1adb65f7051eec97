"""Where a file's bytes may be cut so that both sides count like the whole, found from nearby bytes alone.

Processes that count byte ranges of a file must agree where each range begins and ends without
reading what comes before it, so the cut after a nominal offset is a function of the bytes near
that offset only (``next_cut``). Two kinds of cut are safe whatever surrounds them:

- **between a letter and a newline**, for the named patterns (every one ends a pre-token there, see
  :mod:`bpe_core.pretokenize.cuts`), where no occurrence of any special token spans the cut. The split
  on special tokens then finds the same tokens on both sides: a match that spans nothing cut is the
  same match whether the text goes on or not.
- **right after an occurrence of a special token** that no occurrence of any special token spans
  into from the left and that no longer special token starts with: the split on special tokens
  (leftmost, longest first) reaches it and must take it, so it ends a piece, for any pattern.

A newline byte is never inside a multi-byte UTF-8 character, and UTF-8 is self-synchronising: the
cuts are character boundaries, and a special token's bytes occur exactly where it occurs in the text.

>>> import io
>>> data = b"one two\\nthree\\n"
>>> next_cut(io.BytesIO(data), 1, len(data), "gpt2", []), next_cut(io.BytesIO(data), 1, len(data), None, [])
(7, 14)
"""

from __future__ import annotations

from typing import BinaryIO

import regex

from ..pretokenize import PATTERNS

WINDOW_BYTES = 1 << 16
"""Bytes searched for a cut at a time."""

_NEWLINE = regex.compile(rb"(?<=[A-Za-z\x80-\xbf])\n")  # a newline whose previous byte could end a letter
_LETTER = regex.compile(r"\p{L}")  # the letter of pretokenize.cuts' safe cut, in the same Unicode tables


def next_cut(source: BinaryIO, offset: int, size: int, pattern: str | None, specials: list[bytes]) -> int:
    """The first safe cut at or after ``offset`` in a file of ``size`` bytes: 0 at 0, ``size`` if none.

    ``specials`` are the special tokens in UTF-8. The same arguments give the same cut in every
    process: two neighbouring ranges meet exactly.
    """
    if offset <= 0:
        return 0
    longest = max(map(len, specials), default=0)
    before, after = 2 * longest + 4, 2 * longest  # bytes around a candidate that decide whether it is safe
    start = offset
    while start < size:
        low = max(0, start - before)
        source.seek(low)
        data = source.read(start + WINDOW_BYTES + after - low)
        cut = _first_cut(data, start - low, min(len(data), start + WINDOW_BYTES - low), pattern in PATTERNS, specials)
        if cut is not None:
            return low + cut
        start += WINDOW_BYTES
    return size


def _first_cut(data: bytes, first: int, end: int, named: bool, specials: list[bytes]) -> int | None:
    """The first safe cut in ``first .. end - 1`` of ``data``, or None."""
    found = []
    if named:
        for match in _NEWLINE.finditer(data, first, end):
            cut = match.start()
            if _letter_before(data, cut) and not _spanned(data, cut, specials):
                found.append(cut)
                break
    for token in specials:
        start = data.find(token, max(0, first - len(token)))
        while start != -1 and start + len(token) < end:
            if start + len(token) >= first and _taken(data, start, token, specials):
                found.append(start + len(token))
                break
            start = data.find(token, start + 1)
    return min(found, default=None)


def _letter_before(data: bytes, cut: int) -> bool:
    start = cut - 1
    while start > 0 and cut - start < 4 and 0x80 <= data[start] < 0xC0:  # continuation bytes
        start -= 1
    try:
        return _LETTER.fullmatch(data[start:cut].decode("utf-8")) is not None
    except UnicodeDecodeError:
        return False


def _spanned(data: bytes, cut: int, specials: list[bytes]) -> bool:
    """Whether an occurrence of a special token starts before ``cut`` and ends after it."""
    # An occurrence lying wholly in this slice starts before the cut and ends after it.
    return any(data.find(token, max(0, cut - len(token) + 1), cut + len(token) - 1) != -1 for token in specials)


def _taken(data: bytes, start: int, token: bytes, specials: list[bytes]) -> bool:
    """Whether the split on special tokens surely takes this occurrence of ``token`` at ``start``."""
    longer = any(len(other) > len(token) and data.startswith(other, start) for other in specials)
    return not longer and not _spanned(data, start, specials)
