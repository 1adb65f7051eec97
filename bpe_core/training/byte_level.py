"""Byte-level BPE training, as in GPT-2 and Stanford CS336 (the steps of :mod:`.shape`).

1. Split the text on the special tokens and drop them: nothing merges with or across them.
2. Pre-tokenize each piece and count the unique pre-tokens (a big text on every core: :mod:`.counting`).
3. Start from the 256 single bytes; repeatedly merge the most frequent adjacent pair (each
   pre-token counted by its frequency; ties go to the lexicographically greatest pair).

Ids: 0-255 are the bytes themselves, 256 + r is the merge of rank r, special tokens come last.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ..encoding.arguments import checked_text
from ..encoding.tokenizer import Tokenizer
from ..pretokenize import compile_pattern, split_on_special
from .counting import count_text
from .merge_engine import MergeEngine, PositionEngine
from .shape import (
    RUNNERS_UP,
    MergeRecord,
    ProgressCallback,
    Reporter,
    check_limits,
    check_special_tokens,
    merge_rounds,
)
from .ties import check_tie_break, engine_factory_for, gpt2_byte_order
from .word_engine import WordEngine

EngineFactory = Callable[[Iterable[tuple[bytes, int]], list[bytes]], MergeEngine]
"""Builds the merge engine from the pre-tokens (as UTF-8, with counts) and the 256 byte symbols."""


@dataclass
class TrainResult:
    """What ``train`` returns: the tokenizer, its parts, and the record of every round."""

    tokenizer: Tokenizer
    trace: list[MergeRecord]
    settings: dict
    seconds: float
    pretoken_count: int
    unique_pretokens: int
    stopped_early: bool = False
    stop_reason: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    pretoken_counts: Mapping[str, int] = field(default_factory=dict, repr=False)
    """The distinct pre-tokens trained on and how often each occurs."""
    special_token_count: int = 0
    """How many special tokens the training text held (they take no part in training)."""

    @property
    def vocab(self) -> dict[int, bytes]:
        return self.tokenizer.vocab

    @property
    def merges(self) -> list[tuple[bytes, bytes]]:
        return self.tokenizer.merges


def check_settings(vocab_size: int, special_tokens: Iterable[str], pattern: str | None) -> tuple[list[str], int]:
    """Validate training settings; return the special tokens as a list and the number of merges."""
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise TypeError(f"vocab_size must be an int, not {type(vocab_size).__name__}")
    specials = check_special_tokens(special_tokens)
    minimum = 256 + len(specials)
    if vocab_size < minimum:
        raise ValueError(
            f"vocab_size {vocab_size} is too small: it must be at least {minimum} "
            f"(256 byte tokens + {len(specials)} special token{'' if len(specials) == 1 else 's'})"
        )
    compile_pattern(pattern)
    return specials, vocab_size - minimum


def train(
    text: str,
    vocab_size: int,
    *,
    special_tokens: Iterable[str] = (),
    pattern: str | None = "gpt2",
    progress: ProgressCallback | None = None,
    tie_break: str = "greatest",
    min_frequency: int = 0,
    max_token_length: int | None = None,
    runners_up: int = RUNNERS_UP,
) -> TrainResult:
    """Train a byte-level BPE tokenizer on ``text``.

    ``vocab_size`` counts everything: 256 bytes + merges + special tokens. ``pattern`` is a name
    in ``PATTERNS``, a regex, or ``None`` for no pre-tokenization (merges may then span words).
    ``progress(done, total)`` is called at least every 1 % of the work and every 0.25 s; an
    exception raised from it stops training and propagates. For corpora in files, or too big for
    memory, see ``train_files``. ``tie_break`` picks among pairs of equal count: ``"greatest"``
    (the lexicographically greatest, CS336's rule), ``"smallest"``, ``"first"`` (first seen in the
    text, as minbpe and Sennrich et al.'s code) or ``"hf"`` (Hugging Face's); see :mod:`.ties`.
    ``min_frequency``: stop when the best pair occurs fewer times (``stop_reason`` says so);
    ``max_token_length``: never make a token longer than this many bytes (a longer pair is skipped
    and training goes on with the next; Hugging Face's counts characters instead). ``runners_up``: how
    many next-best pairs each round's trace record keeps (``MergeRecord.candidates``, what the player shows);
    0 keeps none and trains faster where the vocabulary is large (a quarter less time at 1 MB / 32,000).

    >>> train("aaabdaaabac", 259, min_frequency=3).merges  # (aa, a) occurs twice: it stops there
    [(b'a', b'a')]
    >>> train("aaabdaaabac", 259, max_token_length=2).merges  # aaa, aaab are too long
    [(b'a', b'a'), (b'a', b'b'), (b'a', b'c')]
    >>> result = train("aaabdaaabac", 259)
    >>> result.merges
    [(b'a', b'a'), (b'aa', b'a'), (b'aaa', b'b')]
    >>> result.tokenizer.encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
    """
    started = time.perf_counter()
    checked_text(text)
    specials, n_merges = check_settings(vocab_size, special_tokens, pattern)
    check_tie_break(tie_break)
    check_limits(min_frequency, max_token_length, runners_up)
    report = Reporter(progress, 1 + n_merges)
    chunks_total = [1]

    def on_chunk(done: int, total: int) -> None:
        chunks_total[0] = total
        report.total = total + n_merges
        report.step = max(1, report.total // 100)
        report(done)

    pretokens = count_text(text, pattern, specials, on_chunk=on_chunk)
    result = train_counts(
        pretokens,
        vocab_size,
        special_tokens=specials,
        pattern=pattern,
        progress=lambda done: report(chunks_total[0] + done),
        started=started,
        tie_break=tie_break,
        min_frequency=min_frequency,
        max_token_length=max_token_length,
        runners_up=runners_up,
    )
    result.special_token_count = count_special_tokens(text, specials)
    return result


def count_special_tokens(text: str, special_tokens: Iterable[str]) -> int:
    """How many special tokens ``text`` holds, longest match first (as ``split_on_special`` finds them)."""
    return sum(1 for _, is_special in split_on_special(text, special_tokens) if is_special)


def train_counts(
    pretokens: Mapping[str, int],
    vocab_size: int,
    *,
    special_tokens: Iterable[str] = (),
    pattern: str | None = "gpt2",
    progress: Callable[[int], None] | None = None,
    started: float | None = None,
    engine_factory: EngineFactory | None = None,
    tie_break: str = "greatest",
    min_frequency: int = 0,
    max_token_length: int | None = None,
    runners_up: int = RUNNERS_UP,
) -> TrainResult:
    """Train on pre-token counts already made (by ``count_pretokens`` or on a cluster).

    ``pattern`` is the one the counts were made with (the tokenizer keeps it);
    ``progress(merges_done)`` is called after every merge. ``started`` is when the whole
    training began (``time.perf_counter()``), so the timings include counting.
    ``engine_factory`` replaces the usual engine by one that picks pairs its own way (the
    variants: ``parity``, ``superword``); ``tie_break``, ``min_frequency``, ``max_token_length`` and
    ``runners_up`` as in ``train``.

    >>> train_counts({"low": 5, " lower": 2}, 258).merges
    [(b'o', b'w'), (b'l', b'ow')]
    """
    counted = time.perf_counter()
    started = counted if started is None else started
    specials, n_merges = check_settings(vocab_size, special_tokens, pattern)
    check_limits(min_frequency, max_token_length, runners_up)
    words = ((pretoken.encode("utf-8"), count) for pretoken, count in pretokens.items())
    byte_symbols = [bytes([byte]) for byte in range(256)]
    # Distinct pre-tokens are short: the word layout. Without pre-tokenization each piece is one
    # long sequence, which only the positional layout merges in time proportional to its size.
    if engine_factory is None and check_tie_break(tie_break) != "greatest":
        engine_factory = engine_factory_for(tie_break, pattern is None, gpt2_byte_order())
    if engine_factory is None:
        engine_factory = PositionEngine if pattern is None else WordEngine
    build = engine_factory

    def build_engine() -> MergeEngine:
        engine = build(words, byte_symbols)
        if max_token_length is not None:
            engine.limit_length(max_token_length)
        return engine

    rounds = merge_rounds(
        build_engine, n_merges, progress or (lambda done: None), min_frequency=min_frequency, runners_up=runners_up
    )
    trace, stop_reason = rounds.trace, rounds.stop_reason

    vocab = dict(enumerate(rounds.symbol_bytes))
    merges = [(record.left, record.right) for record in trace]
    special_ids = {token: len(vocab) + offset for offset, token in enumerate(specials)}
    vocab.update({identifier: token.encode("utf-8") for token, identifier in special_ids.items()})
    tokenizer = Tokenizer(vocab, merges, special_ids, pattern)
    finished = time.perf_counter()
    return TrainResult(
        tokenizer=tokenizer,
        trace=trace,
        settings={"vocab_size": vocab_size, "special_tokens": specials, "pattern": pattern}
        | ({} if tie_break == "greatest" else {"tie_break": tie_break})
        | ({"min_frequency": min_frequency} if min_frequency else {})
        | ({} if max_token_length is None else {"max_token_length": max_token_length}),
        seconds=finished - started,
        pretoken_count=sum(pretokens.values()),
        unique_pretokens=len(pretokens),
        stopped_early=stop_reason is not None,
        stop_reason=stop_reason,
        timings={
            "pretokenize": counted - started,
            "index": rounds.indexed - counted,
            "merge": finished - rounds.indexed,
        },
        pretoken_counts=pretokens,
    )
