"""The merge loop's layout for pre-tokenized text: each distinct pre-token once, with its count.

A 10 MB English corpus has about 2.8 million pre-tokens but only 56,000 distinct ones, about
6 bytes each. Each is kept as a ``str`` with one character per symbol (``chr(id)``): finding a
pair in a word and replacing it are then ``str.find`` and ``str.replace``, in C, and
``replace`` goes left to right without overlap, the merge convention. For each pair,
``_words`` holds the pre-tokens it occurs in, so a merge visits only those. A pre-token listed
for a pair it no longer holds is skipped when found (one ``find``): each pair's list of
pre-tokens (an ``array('I')``, 4 bytes a pre-token, or a tuple of one) is made once, when the
pair first appears, and never updated, which costs less than keeping it exact. A pair whose
count falls to 0 loses its count and its list: most pairs made die so (at 100 MB / 32,000,
keeping them, in sets, took 90 MB).

The pair counts change only next to an occurrence: (x, a) and (b, y) lose the word's weight,
(x, new) and (new, y) gain it. The loop over occurrences only notes each neighbour x (and y)
with the word; the counts change once per distinct neighbour afterwards, by the summed
weights: on docs10m, 216,000 occurrences have a few thousand distinct neighbours.

>>> engine = WordEngine([(b"low", 5), (b"lower", 2)], [bytes([byte]) for byte in range(256)])
>>> engine.best(1)
((7, 111, 119), [(7, 108, 111)])
>>> engine.merge(111, 119)
(256, 7)
"""

from __future__ import annotations

import sys
from array import array
from collections import defaultdict
from collections.abc import Iterable, Sequence

from .merge_engine import MergeEngine, SymbolKey, greatest_key
from .pair_queue import COUNTS, PAIR_SHIFT, SHARED_INTS

NUMPY_INDEX_SYMBOLS = 150_000
"""From this many symbols in all the words on, the index is built with numpy even where numpy is not
imported yet: importing it costs 0.1 s of CPU, the loop over pairs 0.7 µs a symbol (1 MB of docs10m:
89,000 symbols, 0.015 s with numpy and its 0.1 s import, 0.065 s without; 10 MB: 359,000, 0.04 s
against 0.25 s). A trainer on a small text then never imports numpy at all."""

MAX_SYMBOLS = 0x110000
"""Symbols are characters of a ``str``: ids stay below ``chr``'s limit (a vocabulary of 1.1 million)."""


class WordEngine(MergeEngine):
    """Distinct weighted words, each a string of symbol characters, and for each pair the words that hold it."""

    def __init__(
        self,
        words: Iterable[tuple[Sequence[int], int]],
        symbols: Sequence[bytes],
        symbol_key: SymbolKey = greatest_key,
    ):
        """``words``: each word's symbol ids (``bytes`` is the fast case) and its weight; ``symbol_key``: ties."""
        super().__init__(symbols, symbol_key)
        self._text: list[str] = []
        self._weights: list[int] = []
        texts, weights = self._text, self._weights
        all_bytes = True
        for word, weight in words:
            if len(word) < 2:
                continue  # a single symbol holds no pair and never changes
            # Byte b is the symbol chr(b): latin-1 decodes bytes to exactly these characters.
            if isinstance(word, bytes):
                texts.append(word.decode("latin-1"))
            else:
                texts.append("".join(map(chr, word)))
                all_bytes = False
            weights.append(weight)
        self._words: dict[int, array[int] | tuple[int]] = {}
        if all_bytes and _numpy_pays(texts):
            _byte_index(texts, weights, self._counts, self._words)
        else:
            weight_of = weights.__getitem__
            for pair, found in _pairs(texts).items():
                self._counts[pair] = sum(map(weight_of, found))  # once per occurrence
                self._words[pair] = array("I", dict.fromkeys(found))  # once per word, in order
        self._start_queue()

    def words_holding(self, a: int, b: int) -> list[tuple[list[int], int]]:
        """The words that hold the pair (a, b) now, each as its symbol ids and its weight."""
        target = chr(a) + chr(b)
        found = [index for index in self._words.get((a << PAIR_SHIFT) | b, ()) if target in self._text[index]]
        return [([ord(c) for c in self._text[index]], self._weights[index]) for index in found]

    def merge(self, a: int, b: int) -> tuple[int, int]:
        if len(self.symbol_bytes) >= MAX_SYMBOLS:
            raise ValueError(f"a vocabulary of more than {MAX_SYMBOLS:,} symbols is not supported")
        new = self._new_symbol(a, b)
        texts, weights, counts = self._text, self._weights, self._counts
        merged = (a << PAIR_SHIFT) | b
        holding: Sequence[int] = self._words.pop(merged, ())
        if len(holding) == 1 and a != b:
            return new, self._merge_in_one(holding[0], a, b, new)
        target, new_char = chr(a) + chr(b), chr(new)
        lefts: defaultdict[str, list[int]] = defaultdict(list)  # neighbour x of (a, b) -> its words
        rights: defaultdict[str, list[int]] = defaultdict(list)  # neighbour y of (a, b) -> its words
        doubles: list[int] = []  # words where an occurrence directly follows another (abab -> XX)
        # Occurrences of (a, a) may overlap (aaa holds two, and one is replaced): count those.
        replaced = 0 if a == b else counts.get(merged, 0)
        for index in holding:
            word = texts[index]
            start = word.find(target)
            if start < 0:
                continue
            size = len(word)
            if start:
                lefts[word[start - 1]].append(index)
            end = start + 2  # where the occurrence ends
            after = word.find(target, end)  # the next one
            if after < 0:  # one occurrence: most words
                if end < size:
                    rights[word[end]].append(index)
            else:
                while True:
                    if end < size:
                        if after != end:
                            rights[word[end]].append(index)
                        else:
                            doubles.append(index)  # (b, a) between them becomes (new, new)
                    if after < 0:
                        break
                    if after != end:
                        lefts[word[after - 1]].append(index)
                    end = after + 2
                    after = word.find(target, end)
            merged_word = word.replace(target, new_char)
            # A word now one symbol holds no pair, and its lists only ever find nothing in it: ""
            # (one shared object) finds nothing as well, and frees the word (up to one per merge).
            texts[index] = merged_word if len(merged_word) > 1 else ""
            if a == b:  # each occurrence replaced made the word one symbol shorter
                replaced += weights[index] * (size - len(merged_word))
        counts.pop(merged, None)

        # Each neighbour's pairs: (x, a) or (b, y) or, between two occurrences, (b, a), loses
        # the weight of its words; (x, new) or (new, y) or (new, new) is new, with that weight.
        new_left, b_left = new << PAIR_SHIFT, b << PAIR_SHIFT
        changes = [((ord(x) << PAIR_SHIFT) | a, (ord(x) << PAIR_SHIFT) | new, found) for x, found in lefts.items()]
        changes += [(b_left | ord(y), new_left | ord(y), found) for y, found in rights.items()]
        if doubles:
            changes.append((b_left | a, new_left | new, doubles))
        weight_of, holders = weights.__getitem__, self._words
        for old_pair, new_pair, found in changes:
            weight = sum(map(weight_of, found))
            if old_pair != merged:  # the merged pair's own count is gone already
                left = counts[old_pair] - weight
                if left:
                    counts[old_pair] = COUNTS[left] if 0 < left < SHARED_INTS else left
                else:  # gone from every word: its count and its words go (most pairs die so)
                    del counts[old_pair]
                    del holders[old_pair]
            counts[new_pair] = COUNTS[weight] if 0 < weight < SHARED_INTS else weight
            # Most new pairs are in one word: a tuple of it takes 48 bytes (an array 150, a set 216);
            # an array takes 4 bytes a word where a set took 30 and an int object each.
            holders[new_pair] = (found[0],) if len(found) == 1 else array("I", set(found))
        self._push([new_pair for _, new_pair, _ in changes])
        return new, replaced

    def _merge_in_one(self, index: int, a: int, b: int, new: int) -> int:
        """The merge of a pair (a != b) listed for one word only: most merges of a big vocabulary's
        tail (on 1 MB of docs10m at 32,000, 13,000 of 19,700). The word is split at the pair's
        occurrences, which never overlap; the pieces between them give the neighbours."""
        counts, merged = self._counts, (a << PAIR_SHIFT) | b
        replaced = counts.pop(merged, 0)
        word = self._text[index]
        pieces = word.split(chr(a) + chr(b))
        last = len(pieces) - 1  # occurrence i sits between pieces i - 1 and i (i = 1 .. last)
        if not last:
            return replaced  # the word no longer holds it (a weight-0 count can outlive its words)
        lefts: dict[str, int] = {}  # neighbour x of (a, b) -> its occurrences
        rights: dict[str, int] = {}
        doubles = 0  # occurrences directly after another (abab -> XX): (b, a) between them
        for at, piece in enumerate(pieces):
            if piece:
                if at:
                    rights[piece[0]] = rights.get(piece[0], 0) + 1
                if at < last:
                    lefts[piece[-1]] = lefts.get(piece[-1], 0) + 1
            elif 0 < at < last:
                doubles += 1
        merged_word = chr(new).join(pieces)
        self._text[index] = merged_word if len(merged_word) > 1 else ""  # as in merge
        weight, holder = self._weights[index], (index,)  # one tuple for every new pair: they share it
        new_left, b_left = new << PAIR_SHIFT, b << PAIR_SHIFT
        changes = [((ord(x) << PAIR_SHIFT) | a, (ord(x) << PAIR_SHIFT) | new, n) for x, n in lefts.items()]
        changes += [(b_left | ord(y), new_left | ord(y), n) for y, n in rights.items()]
        if doubles:
            changes.append((b_left | a, new_left | new, doubles))
        holders = self._words
        for old_pair, new_pair, occurrences in changes:
            amount = weight * occurrences
            left = counts[old_pair] - amount
            if left:
                counts[old_pair] = COUNTS[left] if 0 < left < SHARED_INTS else left
            else:
                del counts[old_pair]
                del holders[old_pair]
            counts[new_pair] = COUNTS[amount] if 0 < amount < SHARED_INTS else amount
            holders[new_pair] = holder
        self._push([change[1] for change in changes])
        return replaced


def _numpy_pays(texts: list[str]) -> bool:
    """Whether to index these words with numpy: it is imported already, or they are big enough."""
    return "numpy" in sys.modules or sum(map(len, texts)) >= NUMPY_INDEX_SYMBOLS


def _pairs(texts: list[str]) -> dict[int, list[int]]:
    """For each pair in the words, the index of each word once per occurrence."""
    found: defaultdict[int, list[int]] = defaultdict(list)
    for index, word in enumerate(texts):
        for left, right in zip(word, word[1:]):
            found[(ord(left) << PAIR_SHIFT) | ord(right)].append(index)
    return found


def _byte_index(
    texts: list[str], weights: list[int], counts: dict[int, int], holders: dict[int, array[int] | tuple[int]]
) -> None:
    """Fill in each pair's count and its words (once each, in order) for words of byte symbols, with
    numpy: Python loops over the 300,000 pairs of docs10m's words took 0.1 s, a quarter of the
    merges' time; adding up each pair's weights and listing its words took 0.06 s more."""
    if not texts:
        return
    import numpy as np  # here, not at the top: importing bpe_core stays light

    data = np.frombuffer("".join(texts).encode("latin-1"), np.uint8).astype(np.uint16)
    owner = np.repeat(np.arange(len(texts), dtype=np.uint32), np.fromiter(map(len, texts), np.intp, len(texts)))
    inside = owner[:-1] == owner[1:]  # the pairs across two words are no pairs
    codes = ((data[:-1] << 8) | data[1:])[inside]  # 16 bits: numpy sorts them by radix
    order = np.argsort(codes, kind="stable")  # stable: each pair's words stay in order
    codes, owners = codes[order], owner[:-1][inside][order]
    starts = np.ones(len(codes), bool)
    starts[1:] = codes[1:] != codes[:-1]
    sums = np.add.reduceat(np.array(weights, np.int64)[owners], np.flatnonzero(starts)).tolist()
    first = starts.copy()  # a word's occurrences of a pair are next to each other: keep the first
    first[1:] |= owners[1:] != owners[:-1]
    listed = owners[first].tobytes()
    bounds = [4 * start for start in np.flatnonzero(starts[first]).tolist()] + [len(listed)]
    for code, count, begin, end in zip(codes[starts].tolist(), sums, bounds, bounds[1:]):
        pair = (code >> 8) << PAIR_SHIFT | (code & 0xFF)
        counts[pair] = count
        holders[pair] = array("I", listed[begin:end])
