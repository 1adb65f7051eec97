"""Tie rules: which pair a round merges when several have the highest count.

Tutorials and libraries break ties differently, and a learner's merges part from the reference at
the first tie broken another way. The rules (``tie_break=`` of ``train`` and ``train_classic``):

- ``"greatest"`` (the default, as Stanford CS336 asks): the lexicographically greatest pair,
  compared as (left bytes, right bytes);
- ``"smallest"``: the lexicographically smallest pair;
- ``"first"``: the pair whose first occurrence in the text, as segmented by the merges so far, comes
  first. This is what ``max(stats, key=stats.get)`` does over a dict filled by walking the text in
  order (minbpe's ``get_stats``, the loop of Sennrich et al.'s paper over its vocabulary dict in
  the order the words first appear): ``max`` keeps the first of equal values, and a dict keeps
  the order its keys were first seen;
- ``"hf"``: Hugging Face ``tokenizers``' ``BpeTrainer``: the pair of smallest (left id, right id),
  where its ids are the alphabet in code-point order (for bytes, the code points of GPT-2's
  byte-to-unicode characters: printable bytes first) and then the merges in order.

The first three need only a key per symbol (:data:`~.merge_engine.SymbolKey`); ``"first"`` needs
the text's positions, so it is an engine of its own: :class:`FirstSeenWordEngine` and
:class:`FirstSeenPositionEngine` queue each pair at (count, position of its first occurrence).
A pair never gains occurrences once made (a merge only makes pairs with the new symbol), so its
first occurrence only moves later: a queued position that still holds the pair is still the first.

>>> from bpe_core.training.word_engine import WordEngine
>>> words = [(b"ab", 1), (b"ba", 1)]  # (a, b) and (b, a) both occur once; (a, b) comes first
>>> engine = FirstSeenWordEngine(words, [bytes([i]) for i in range(256)])
>>> engine.best()[0]
(1, 97, 98)
>>> WordEngine(words, [bytes([i]) for i in range(256)]).best()[0]  # the greatest: (b, a)
(1, 98, 97)
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from .merge_engine import _RIGHT, PAIR_SHIFT, MergeEngine, PositionEngine, SymbolKey, greatest_key
from .word_engine import WordEngine

TieBreak = Literal["greatest", "smallest", "first", "hf"]
TIE_BREAKS: tuple[str, ...] = ("greatest", "smallest", "first", "hf")

_WORD_SHIFT = 40
"""A position in a word layout is ``word index << _WORD_SHIFT | byte offset in the word``."""


def check_tie_break(tie_break: str) -> TieBreak:
    """The rule's name, or a ValueError naming the allowed ones."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {', '.join(map(repr, TIE_BREAKS))}, not {tie_break!r}")
    return tie_break  # type: ignore[return-value]


def smallest_key(identifier: int, symbol: bytes) -> tuple[int, ...]:
    """The lexicographically smallest pair first (a prefix sorts before its extensions, as it must)."""
    return tuple(symbol)


def gpt2_byte_order() -> list[int]:
    """Each byte's rank among GPT-2's byte-to-unicode characters sorted by code point: the printable
    bytes keep their own code point, the others come after them in byte order.

    >>> order = gpt2_byte_order()
    >>> order[ord("!")], order[ord(" ")] > order[255]
    (0, True)
    """
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    shown = set(printable)
    code_points = {byte: byte for byte in printable}
    code_points.update({byte: 256 + n for n, byte in enumerate(b for b in range(256) if b not in shown)})
    ranked = sorted(range(256), key=code_points.__getitem__)
    order = [0] * 256
    for rank, byte in enumerate(ranked):
        order[byte] = rank
    return order


def hf_key(base_rank: Sequence[int]) -> SymbolKey:
    """Hugging Face's ids as a key: the initial symbols by ``base_rank``, then merged ones by id. A merge
    that makes a token already made (``a+bc`` after ``ab+c``) gets that token's id, as in its trainer."""
    offset = len(base_rank)
    made: dict[bytes, int] = {}

    def key(identifier: int, symbol: bytes) -> tuple[int, ...]:
        if identifier < offset:
            return (base_rank[identifier],)
        return (offset + made.setdefault(symbol, identifier),)

    return key


EngineFactory = Callable[[Iterable[tuple[Sequence[int], int]], list[bytes]], MergeEngine]


def engine_factory_for(tie_break: str, positional: bool, base_rank: Sequence[int]) -> EngineFactory:
    """The engine for a rule: ``positional`` picks the layout (text not pre-tokenized), ``base_rank``
    is the initial symbols' order for ``"hf"``."""
    rule = check_tie_break(tie_break)
    if rule == "first":
        return FirstSeenPositionEngine if positional else FirstSeenWordEngine
    key: SymbolKey = {"greatest": greatest_key, "smallest": smallest_key}.get(rule) or hf_key(base_rank)
    layout = PositionEngine if positional else WordEngine
    return lambda sequences, symbols: layout(sequences, symbols, key)


class FirstSeenQueue:
    """The queue of the ``"first"`` rule, for either layout: entries (-count, (position,), (), pair)."""

    _counts: defaultdict[int, int]
    _heap: list[tuple[int, tuple[int, ...], tuple[int, ...], int]]

    def _first_position(self, pair: int) -> int | None:
        raise NotImplementedError

    def first_position(self, a: int, b: int) -> int | None:
        """Where the pair (a, b) first occurs now, in text order (None: nowhere); only the order means anything."""
        return self._first_position((a << PAIR_SHIFT) | b)

    def _entry(self, pair: int, count: int) -> tuple[int, tuple[int, ...], tuple[int, ...], int] | None:
        position = self._first_position(pair)
        return None if position is None else (-count, (position,), (), pair)

    def _start_queue(self) -> None:
        entries = (self._entry(pair, count) for pair, count in self._counts.items() if count > 0)
        self._heap = [entry for entry in entries if entry is not None]
        heapq.heapify(self._heap)

    def _push(self, pairs: Iterable[int]) -> None:
        for pair in pairs:
            count = self._counts.get(pair)
            entry = self._entry(pair, count) if count else None
            if entry is not None:
                heapq.heappush(self._heap, entry)


class FirstSeenWordEngine(FirstSeenQueue, WordEngine):
    """The word layout under the ``"first"`` rule: words in the order they first appear in the text."""

    def _byte_offset(self, word: str, at: int) -> int:
        symbol_bytes = self.symbol_bytes
        return sum(len(symbol_bytes[ord(c)]) for c in word[:at])

    def _first_position(self, pair: int) -> int | None:
        target = chr(pair >> PAIR_SHIFT) + chr(pair & _RIGHT)
        holders = self._words.get(pair, ())
        for index in sorted(holders) if len(holders) > 1 else holders:
            at = self._text[index].find(target)
            if at >= 0:
                return index << _WORD_SHIFT | self._byte_offset(self._text[index], at)
        return None


class FirstSeenPositionEngine(FirstSeenQueue, PositionEngine):
    """The positional layout under the ``"first"`` rule: positions are in text order already."""

    def _first_position(self, pair: int) -> int | None:
        found = [p for p in self._positions.get(pair, ()) if self._occurs_at(pair, p)]
        return min(found) if found else None

    def _occurs_at(self, pair: int, position: int) -> bool:
        following = self._next[position]
        return (
            following != -1 and self._token[position] == pair >> PAIR_SHIFT and self._token[following] == pair & _RIGHT
        )
