"""Which path a call's pre-tokens take: the one rule behind the encoder's fast paths.

Every path gives the ids of :mod:`bpe_core.encoding.educational` (``tests/test_fast_paths.py``
holds each to it); they differ only in what they cost for which pieces. The thresholds are
measured on this project's 2-core machine (README, "Benchmarks").

>>> route([b"hello", b" world"], batch_built=False, byte_batch_fits=lambda: True, digit_runs_fit=lambda: True)
{'heap': [False, False], 'loop': [True, True]}
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from itertools import compress
from operator import and_, not_
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .digit_runs import DigitRunEncoder

WHOLE, TABLE, HEAP, LOOP, DIGITS, BYTES = "whole", "table", "heap", "loop", "digits", "bytes"

LONG_PIECE_BYTES = 64
"""Longer pre-tokens go to the heap (n log n); the batch's steps grow with the longest piece."""
BATCH_MIN_PIECES = 32
"""Below this many new pre-tokens, numpy's fixed cost per step outweighs what it saves."""
BATCH_BUILD_MIN_PIECES = 2048
"""New pre-tokens from which building the batch (~0.03 s for cl100k, ~0.06 s for o200k) pays,
against tiktoken's loop at ~10 us a piece: a short text's first encode stays quick."""
CUTS_MIN_PIECES = 1024
"""New non-ASCII pre-tokens (not whole tokens) from which reading the vocabulary's crossings (~20-60 ms) to cut
them into parts pays (:mod:`.cuts`), against tiktoken's loop at ~35 us a CJK piece; once read, BATCH_MIN_PIECES."""
SHORT_PART_BYTES = 3
"""Parts this short (one CJK character, most of them) take the loop, which encodes them with a few lookups."""
NUMBERS_MIN_PIECES = 1024
"""Pre-tokens of one call from which a table of numbers takes its own path (numpy's fixed cost)."""
NEW_NUMBERS_MIN = 1024
"""New number pre-tokens from which the digit-run batch pays for building its table (~0.09 s)."""
DIGIT_RUN = re.compile(rb" ?[0-9]+")
"""A number pre-token (as UTF-8 bytes), which the digit-run batch encodes."""


def route(
    data: list[bytes], *, batch_built: bool, byte_batch_fits: Callable[[], bool], digit_runs_fit: Callable[[], bool]
) -> dict[str, list[bool]]:
    """Which path each new pre-token takes: ``{path: flags}``, ``flags[i]`` saying whether
    ``data[i]`` takes it; each piece takes exactly one. The paths of a call's pre-tokens:

    - TABLE (before this rule, :func:`is_a_table`): a call whose pre-tokens are a table of numbers
      sends its numbers, which hardly ever repeat, past the cache to the digit-run batch;
    - WHOLE (before this rule): a pre-token in the cache, or itself a token, is one dict lookup;

    and of the new pieces left (``data``, their UTF-8; ``batch_built``: whether the byte batch exists):

    - HEAP: a piece over LONG_PIECE_BYTES (a whole text with no pre-tokenization): boundary
      lifetimes, n log n (:func:`.one_piece.heap`);
    - LOOP: a few pieces (below BATCH_MIN_PIECES; below BATCH_BUILD_MIN_PIECES until the byte batch
      is built), or all of them when the vocabulary does not fit the batch: tiktoken's loop, a
      piece at a time (:func:`.one_piece.loop`);
    - DIGITS: number pieces (:data:`DIGIT_RUN`), when there are NEW_NUMBERS_MIN or more and the
      vocabulary fits the digit-run table: BPE on small integers (:mod:`.digit_runs`);
    - BYTES: the rest: all at once with numpy (:mod:`.byte_batch`).

    Before this rule, :func:`cut_into_parts` may take non-ASCII pieces (CUTS): each is cut where no token can
    lie across and its parts go by :func:`route_parts`.

    ``byte_batch_fits`` and ``digit_runs_fit`` build a batch when first asked, so they are asked
    only once a path would use it.
    """
    any_long = max(map(len, data)) > LONG_PIECE_BYTES
    long = [len(piece) > LONG_PIECE_BYTES for piece in data] if any_long else [False] * len(data)
    short = list(map(not_, long))
    if len(data) < (BATCH_MIN_PIECES if batch_built else BATCH_BUILD_MIN_PIECES) or not byte_batch_fits():
        return {HEAP: long, LOOP: short}
    number = list(map(and_, map(bool, map(DIGIT_RUN.fullmatch, data)), short))
    # A few numbers in prose cost the byte batch less than building the digit-run table does.
    if sum(number) >= NEW_NUMBERS_MIN and digit_runs_fit():
        return {HEAP: long, DIGITS: number, BYTES: list(map(and_, short, map(not_, number)))}
    return {HEAP: long, BYTES: short}


def cut_into_parts(data: list[bytes], pieces: list[str], *, crossings_built: bool) -> list[bool]:
    """The CUTS path: which new pre-tokens (none a whole token; ``data`` their UTF-8) are cut at their permanent
    boundaries and encoded part by part (:mod:`.cuts`): those of over two bytes a character (CJK runs: three),
    when there are CUTS_MIN_PIECES of them (BATCH_MIN_PIECES once the vocabulary's crossings are read). Words
    of Latin, Cyrillic or Greek letters, whose tokens lie across nearly every boundary, keep to :func:`route`.

    >>> cut_into_parts([b"ab", "\u5b50\u66f0".encode()] * 40, ["ab", "\u5b50\u66f0"] * 40, crossings_built=True)[:2]
    [False, True]
    """
    wide = list(map(operator.gt, map(len, data), map((2).__mul__, map(len, pieces))))
    if sum(wide) < (BATCH_MIN_PIECES if crossings_built else CUTS_MIN_PIECES):
        return [False] * len(data)
    return wide


def route_parts(data: list[bytes], *, batch_built: bool) -> dict[str, list[bool]]:
    """Which path each new part (of 2 bytes or more) takes: HEAP over LONG_PIECE_BYTES; LOOP up to
    SHORT_PART_BYTES; the others as :func:`route` sends short pieces, BYTES or LOOP (the numbers' path aside).

    >>> route_parts([b"ab", b"cd"], batch_built=True)
    {'heap': [False, False], 'loop': [True, True]}
    """
    long = [len(piece) > LONG_PIECE_BYTES for piece in data]
    middle = [SHORT_PART_BYTES < len(piece) <= LONG_PIECE_BYTES for piece in data]
    count = sum(middle)
    if count and count >= (BATCH_MIN_PIECES if batch_built else BATCH_BUILD_MIN_PIECES):
        return {HEAP: long, LOOP: [len(piece) <= SHORT_PART_BYTES for piece in data], BYTES: middle}
    return {HEAP: long, LOOP: list(map(not_, long))}


def is_a_table(pieces: list[str], digit_runs: Callable[[], DigitRunEncoder | None]) -> bool:
    """The TABLE path: whether a call of NUMBERS_MIN_PIECES pre-tokens or more is a table, over a
    tenth of its pre-tokens being digit runs that are not whole tokens (cl100k's have 1 to 3
    digits, all whole tokens, which the cache serves better). Judged on two stretches of 512: a
    stride would see one column of a table whose row length it divides.

    >>> is_a_table(["1"] * 2000, lambda: None)  # no digit-run batch for this vocabulary
    False
    """
    if len(pieces) < NUMBERS_MIN_PIECES:
        return False
    middle = len(pieces) // 2
    sample = pieces[:512] + pieces[middle : middle + 512]
    numbers = list(compress(sample, map(str.isdigit, sample)))
    if len(numbers) * 10 <= len(sample):
        return False
    encoder = digit_runs()
    return encoder is not None and len(encoder.not_whole(numbers)) * 10 > len(sample)
