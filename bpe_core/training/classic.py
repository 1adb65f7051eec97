"""Classic BPE training, as in Sennrich, Haddow and Birch (2016), in the steps of :mod:`.shape`:
the words' characters and an end-of-word mark instead of bytes (the tokenizer it makes:
:class:`~bpe_core.encoding.classic.ClassicTokenizer`).

The text is split on whitespace; each word becomes its characters followed by ``</w>``, counted
once per distinct word, and merged by the same engine as the byte-level trainer's
(:class:`~.word_engine.WordEngine`). The vocabulary is the characters seen, ``</w>`` and the merges.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from ..encoding.arguments import checked_text
from ..encoding.classic import END, END_OF_WORD, Atoms, ClassicTokenizer
from .shape import MergeRecord, ProgressCallback, Reporter, merge_rounds
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


def train_classic(
    text: str, vocab_size: int, *, progress: ProgressCallback | None = None, tie_break: str = "greatest"
) -> ClassicResult:
    """Train classic character-level BPE. ``vocab_size`` counts characters seen + ``</w>`` + merges.

    Trace records hold symbols as UTF-8 bytes, like the byte-level trainer's. ``tie_break`` as in
    ``train`` (:mod:`.ties`); ``"hf"`` orders the characters by code point, then ``</w>``, then the merges.

    >>> result = train_classic("low low lower newest newest widest widest widest", 14)
    >>> result.merges[:3]  # (e,s), (s,t), (t,</w>) all occur 5 times: the greatest pair wins
    [('t', '</w>'), ('s', 't</w>'), ('e', 'st</w>')]
    >>> train_classic("low low lower newest newest widest widest widest", 14, tie_break="first").merges[:3]
    [('e', 's'), ('es', 't'), ('est', '</w>')]
    """
    started = time.perf_counter()
    check_tie_break(tie_break)
    words = Counter(checked_text(text).split())
    characters = sorted({character for word in words for character in word})
    base = [*characters, END_OF_WORD]
    if vocab_size < len(base):
        raise ValueError(
            f"vocab_size {vocab_size} is too small: the text has {len(characters)} distinct characters, "
            f"so the vocabulary starts at {len(base)} symbols (characters + {END_OF_WORD})"
        )
    symbol_id = {symbol: identifier for identifier, symbol in enumerate(base)}
    sequences = (([symbol_id[c] for c in word] + [symbol_id[END_OF_WORD]], count) for word, count in words.items())
    symbol_bytes = [symbol.encode("utf-8") for symbol in base]
    n_merges = vocab_size - len(base)
    engine = engine_factory_for(tie_break, False, range(len(base)))
    rounds = merge_rounds(lambda: engine(sequences, symbol_bytes), n_merges, Reporter(progress, n_merges))
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
