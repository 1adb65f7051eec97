"""Classic BPE training, as in Sennrich, Haddow and Birch (2016), in the steps of :mod:`.shape`:
the words' characters and an end-of-word mark instead of bytes (the tokenizer it makes:
:class:`~bpe_core.encoding.classic.ClassicTokenizer`).

The text is split on whitespace; each word becomes its characters followed by ``</w>``, counted
once per distinct word, and merged by the same engine as the byte-level trainer's
(:class:`~.word_engine.WordEngine`). The vocabulary is the characters seen, ``</w>`` and the merges.

``limit_alphabet=N`` keeps only the N most frequent characters (counted in the text, each word
as often as it occurs; on equal counts the smaller code point stays), as Hugging Face's
``BpeTrainer(limit_alphabet=N)``; ``initial_alphabet`` characters are always in it (as if they were
the most frequent), seen or not. A character left out is unknown, as one never seen is: ``<unk>``
when encoding, and in training a symbol of its own that never merges, so no pair spans it (Hugging
Face's trainer drops it from the word instead, so its neighbours become a pair there, a pair its
own encoder then never meets, as it gives ``<unk>`` where the character was).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..encoding.arguments import checked_text
from ..encoding.classic import END, END_OF_WORD, Atoms, ClassicTokenizer
from .merge_engine import MergeEngine
from .shape import MergeRecord, ProgressCallback, Reporter, check_limits, merge_rounds
from .ties import check_tie_break, engine_factory_for


@dataclass
class ClassicResult:
    """What ``train_classic`` returns: the tokenizer and the record of every round."""

    tokenizer: ClassicTokenizer
    trace: list[MergeRecord]
    seconds: float
    stopped_early: bool
    stop_reason: str | None

    @property
    def merges(self) -> list[tuple[str, str]]:
        return self.tokenizer.merges


def alphabet(words: Counter[str], limit: int | None = None, initial: Iterable[str] = ()) -> list[str]:
    """The characters training starts from, in code-point order: those of ``words`` (each word
    counted as often as it occurs) and ``initial``, then, with a ``limit``, only the ``limit`` most
    frequent (``initial`` first, then by count; on equal counts the smaller code point).

    >>> alphabet(Counter({"abb": 2, "cc": 3}), limit=2)  # c: 6, b: 4, a: 2
    ['b', 'c']
    >>> alphabet(Counter({"abb": 2, "cc": 3}), limit=2, initial="z")
    ['c', 'z']
    """
    counts: Counter[str] = Counter()
    for word, count in words.items():
        for character, times in Counter(word).items():
            counts[character] += times * count
    always = check_initial_alphabet(initial)
    ranked = sorted(counts.keys() | always, key=lambda c: (c not in always, -counts[c], ord(c)))
    return sorted(ranked if limit is None else ranked[:limit])


def check_initial_alphabet(initial: Iterable[str]) -> set[str]:
    """``initial_alphabet`` as a set of single characters (a string is its characters), else a ValueError."""
    characters = set(initial)
    wrong = sorted(repr(c) for c in characters if not isinstance(c, str) or len(c) != 1)
    if wrong:
        raise ValueError(f"initial_alphabet must hold single characters, not {', '.join(wrong[:3])}")
    return characters


def _known_runs(symbols: list[int], unknown: int) -> Iterator[list[int]]:
    """The runs of a word's symbols between unknown ones (marked ``unknown``): no pair spans one."""
    run: list[int] = []
    for symbol in symbols:
        if symbol == unknown:
            yield run
            run = []
        else:
            run.append(symbol)
    yield run


def train_classic(
    text: str,
    vocab_size: int,
    *,
    progress: ProgressCallback | None = None,
    tie_break: str = "greatest",
    min_frequency: int = 0,
    max_token_length: int | None = None,
    limit_alphabet: int | None = None,
    initial_alphabet: Iterable[str] = (),
) -> ClassicResult:
    """Train classic character-level BPE. ``vocab_size`` counts the alphabet + ``</w>`` + merges.

    Trace records hold symbols as UTF-8 bytes, like the byte-level trainer's. ``tie_break`` as in
    ``train`` (:mod:`.ties`); ``"hf"`` orders the characters by code point, then ``</w>``, then the merges.
    ``min_frequency`` as in ``train``; ``max_token_length`` counts characters (``</w>`` counts none,
    as in Hugging Face's trainer); ``limit_alphabet`` and ``initial_alphabet``: see the module.

    >>> result = train_classic("low low lower newest newest widest widest widest", 14)
    >>> result.merges[:3]  # (e,s), (s,t), (t,</w>) all occur 5 times: the greatest pair wins
    [('t', '</w>'), ('s', 't</w>'), ('e', 'st</w>')]
    >>> train_classic("low low lower newest newest widest widest widest", 14, tie_break="first").merges[:3]
    [('e', 's'), ('es', 't'), ('est', '</w>')]
    """
    started = time.perf_counter()
    check_tie_break(tie_break)
    check_limits(min_frequency, max_token_length)
    if limit_alphabet is not None and (
        isinstance(limit_alphabet, bool) or not isinstance(limit_alphabet, int) or limit_alphabet < 1
    ):
        raise ValueError(f"limit_alphabet must be None or an int >= 1, not {limit_alphabet!r}")
    words = Counter(checked_text(text).split())
    characters = alphabet(words, limit_alphabet, initial_alphabet)
    base = [*characters, END_OF_WORD]
    if vocab_size < len(base):
        raise ValueError(
            f"vocab_size {vocab_size} is too small: the alphabet has {len(characters)} distinct characters, "
            f"so the vocabulary starts at {len(base)} symbols (characters + {END_OF_WORD})"
        )
    symbol_id = {symbol: identifier for identifier, symbol in enumerate(base)}
    end, unknown = symbol_id[END_OF_WORD], -1
    sequences = (
        (run, count)
        for word, count in words.items()
        for run in _known_runs([symbol_id.get(c, unknown) for c in word] + [end], unknown)
    )
    symbol_bytes = [symbol.encode("utf-8") for symbol in base]
    n_merges = vocab_size - len(base)
    engine = engine_factory_for(tie_break, False, range(len(base)))

    def build_engine() -> MergeEngine:
        built = engine(sequences, symbol_bytes)
        if max_token_length is not None:  # characters: the end-of-word mark adds none
            built.limit_length(max_token_length, [1] * len(characters) + [0])
        return built

    report = Reporter(progress, n_merges)
    rounds = merge_rounds(build_engine, n_merges, report, min_frequency=min_frequency)
    # Symbols as atoms, by id: training is on ids, so a literal "</w>" stays apart from the mark.
    symbols: list[Atoms] = [(character,) for character in characters]
    symbols.append((END,))
    for record in rounds.trace:
        symbols.append(symbols[record.left_id] + symbols[record.right_id])
    merges = [(symbols[record.left_id], symbols[record.right_id]) for record in rounds.trace]
    return ClassicResult(
        tokenizer=ClassicTokenizer.from_atoms(symbols, merges),
        trace=rounds.trace,
        seconds=time.perf_counter() - started,
        stopped_early=rounds.stop_reason is not None,
        stop_reason=rounds.stop_reason,
    )
