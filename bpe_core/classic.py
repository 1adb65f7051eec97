"""Classic BPE, as in Sennrich, Haddow and Birch (2016): characters, words and an end-of-word mark.

The text is split on whitespace; each word becomes its characters followed by ``</w>``, so
``low`` at the end of a word and ``low`` inside ``lower`` become different symbols. Training is
the same merge loop as the byte-level trainer (``WordEngine``), on Unicode characters instead
of bytes. The vocabulary is the characters seen in training, ``</w>``, and the merges.

A character never seen in training cannot be merged with anything: it stays a symbol of its own,
and ``encode`` gives it the id of ``<unk>``, the last id of the vocabulary. Whitespace is not
kept, so ``decode`` joins words with single spaces.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from .lifetimes import PERMANENT, Segmentation, merge_lifetimes
from .training import MergeRecord, ProgressCallback, _Reporter, run_merges
from .word_engine import WordEngine

END_OF_WORD = "</w>"
UNKNOWN = "<unk>"


class ClassicTokenizer:
    """Applies classic BPE merges to whitespace-separated words.

    >>> tokenizer = train_classic("low low lower newest newest widest widest widest", 18).tokenizer
    >>> tokenizer.encode_words("lowest newer")
    [['l', 'ow', 'est</w>'], ['n', 'e', 'w', 'e', 'r', '</w>']]
    >>> tokenizer.encode("zz") == [tokenizer.unknown_id] * 2 + [tokenizer.symbols.index("</w>")]
    True
    """

    def __init__(self, symbols: list[str], merges: list[tuple[str, str]]):
        self.symbols = list(symbols)
        self.merges = list(merges)
        self._merge_rank = {pair: rank for rank, pair in enumerate(self.merges)}
        self._id = {symbol: identifier for identifier, symbol in enumerate(self.symbols)}
        self.unknown_id = len(self.symbols)
        self._cache: dict[str, list[str]] = {}

    @property
    def vocab(self) -> dict[int, str]:
        return {**dict(enumerate(self.symbols)), self.unknown_id: UNKNOWN}

    @property
    def num_merges(self) -> int:
        return len(self.merges)

    def _word_lifetimes(self, symbols: list[str]) -> list[int]:
        """Lifetimes of the boundaries between a word's symbols: lowest-ranked pair merged first."""
        merge_rank = self._merge_rank

        def rank_of(start: int, middle: int, stop: int) -> int | None:
            return merge_rank.get(("".join(symbols[start:middle]), "".join(symbols[middle:stop])))

        return merge_lifetimes(len(symbols), rank_of)

    def encode_word(self, word: str) -> list[str]:
        """The symbols of one word: lowest-ranked adjacent pair merged first, until none applies."""
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        symbols = [*word, END_OF_WORD]
        parts = Segmentation(symbols, self._word_lifetimes(symbols), self.num_merges).tokens_at(self.num_merges)
        self._cache[word] = parts
        return parts

    def encode_words(self, text: str) -> list[list[str]]:
        return [self.encode_word(word) for word in text.split()]

    def encode(self, text: str) -> list[int]:
        """Symbol ids; a symbol holding a character never seen in training gets ``unknown_id``."""
        return [self._id.get(symbol, self.unknown_id) for word in self.encode_words(text) for symbol in word]

    def segment(self, text: str) -> Segmentation:
        """The symbols of ``text``'s words and their boundaries' lifetimes, at every vocab size.

        Boundaries between words are never removed (``PERMANENT``).

        >>> tokenizer = train_classic("low low lower newest newest widest widest widest", 18).tokenizer
        >>> segmentation = tokenizer.segment("lowest newer")
        >>> segmentation.tokens_at(0)[:4], segmentation.tokens_at(tokenizer.num_merges)[:3]
        (['l', 'o', 'w', 'e'], ['l', 'ow', 'est</w>'])
        """
        atoms: list[str] = []
        lifetimes: list[int] = []
        for word in text.split():
            symbols = [*word, END_OF_WORD]
            if atoms:
                lifetimes.append(PERMANENT)
            atoms.extend(symbols)
            lifetimes.extend(self._word_lifetimes(symbols))
        return Segmentation(atoms, lifetimes, self.num_merges)

    def decode(self, ids: list[int]) -> str:
        vocab = self.vocab
        text = "".join(vocab.get(identifier, UNKNOWN) for identifier in ids)
        return text.replace(END_OF_WORD, " ").rstrip(" ")


@dataclass
class ClassicResult:
    tokenizer: ClassicTokenizer
    trace: list[MergeRecord]
    seconds: float
    stopped_early: bool
    stop_reason: str | None

    @property
    def merges(self) -> list[tuple[str, str]]:
        return self.tokenizer.merges


def train_classic(text: str, vocab_size: int, *, progress: ProgressCallback | None = None) -> ClassicResult:
    """Train classic character-level BPE. ``vocab_size`` counts characters seen + ``</w>`` + merges.

    Trace records hold symbols as UTF-8 bytes, like the byte-level trainer's.

    >>> result = train_classic("low low lower newest newest widest widest widest", 14)
    >>> result.merges[:3]  # (e,s), (s,t), (t,</w>) all occur 5 times: the greatest pair wins
    [('t', '</w>'), ('s', 't</w>'), ('e', 'st</w>')]
    """
    started = time.perf_counter()
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    words = Counter(text.split())
    characters = sorted({character for word in words for character in word})
    base = [*characters, END_OF_WORD]
    if vocab_size < len(base):
        raise ValueError(
            f"vocab_size {vocab_size} is too small: the text has {len(characters)} distinct characters, "
            f"so the vocabulary starts at {len(base)} symbols (characters + {END_OF_WORD})"
        )
    symbol_id = {symbol: identifier for identifier, symbol in enumerate(base)}
    engine = WordEngine(
        (([symbol_id[c] for c in word] + [symbol_id[END_OF_WORD]], count) for word, count in words.items()),
        [symbol.encode("utf-8") for symbol in base],
    )
    n_merges = vocab_size - len(base)
    report = _Reporter(progress, n_merges)
    trace, stop_reason = run_merges(engine, n_merges, report)
    if stop_reason is not None:
        report.finish()
    symbols = [symbol.decode("utf-8") for symbol in engine.symbol_bytes]
    merges = [(record.left.decode("utf-8"), record.right.decode("utf-8")) for record in trace]
    return ClassicResult(
        tokenizer=ClassicTokenizer(symbols, merges),
        trace=trace,
        seconds=time.perf_counter() - started,
        stopped_early=stop_reason is not None,
        stop_reason=stop_reason,
    )
