"""Byte-level BPE training, as in GPT-2 and Stanford CS336.

1. Split the text on the special tokens and drop them: nothing merges with or across them.
2. Pre-tokenize each piece and count the unique pre-tokens (a big text on every core: ``counting``).
3. Start from the 256 single bytes; repeatedly merge the most frequent adjacent pair (each
   pre-token counted by its frequency; ties go to the lexicographically greatest pair).

Ids: 0-255 are the bytes themselves, 256 + r is the merge of rank r, special tokens come last.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

from .counting import count_text
from .merge_engine import Candidate, MergeEngine, PositionEngine
from .pretokenize import compile_pattern, split_on_special
from .tokenizer import Tokenizer
from .word_engine import WordEngine

ProgressCallback = Callable[[int, int], None]
EngineFactory = Callable[[Iterable[tuple[bytes, int]], list[bytes]], MergeEngine]
"""Builds the merge engine from the pre-tokens (as UTF-8, with counts) and the 256 byte symbols."""

RUNNERS_UP = 5
"""How many runner-up pairs each trace record keeps."""


class TrainingCancelled(Exception):
    """Raise this from a progress callback to stop training; it propagates to the caller."""


@dataclass(frozen=True)
class MergeRecord:
    """One round of training: which pair won, by how much, and what it replaced."""

    rank: int
    new_id: int
    left_id: int
    right_id: int
    left: bytes
    right: bytes
    count: int
    replaced: int
    candidates: tuple[Candidate, ...] = ()

    @property
    def token(self) -> bytes:
        return self.left + self.right

    @property
    def tied(self) -> bool:
        """True when a runner-up had the same count, so the tie-break rule decided this round."""
        return bool(self.candidates) and self.candidates[0].count == self.count


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


class _Reporter:
    """Calls progress at every 1 % of the work and at least every 0.25 s."""

    def __init__(self, progress: ProgressCallback | None, total: int):
        self.progress, self.total = progress, max(1, total)
        self.step = max(1, self.total // 100)
        self.next_done = 0
        self.last_time = time.monotonic()

    def __call__(self, done: int) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if done >= self.next_done or now - self.last_time >= 0.25 or done >= self.total:
            self.progress(min(done, self.total), self.total)
            self.next_done = done + self.step
            self.last_time = now

    def finish(self) -> None:
        """Report completion when training ends before the planned work (no pair left)."""
        if self.progress is not None:
            self.progress(self.total, self.total)


def check_special_tokens(special_tokens: Iterable[str]) -> list[str]:
    """Validate special tokens: non-empty strings, no duplicates. Returns them as a list."""
    if isinstance(special_tokens, str):
        raise TypeError("special_tokens must be a list of strings, not one string")
    tokens = list(special_tokens)
    for token in tokens:
        if not isinstance(token, str) or not token:
            raise ValueError(f"special tokens must be non-empty strings, got {token!r}")
    duplicates = sorted({token for token in tokens if tokens.count(token) > 1})
    if duplicates:
        raise ValueError(f"special token listed twice: {duplicates[0]!r}")
    return tokens


def run_merges(
    engine: MergeEngine, n_merges: int, report: Callable[[int], None]
) -> tuple[list[MergeRecord], str | None]:
    """Run up to n_merges rounds; return the trace and, if it ran out of pairs, why it stopped."""
    trace: list[MergeRecord] = []
    symbol_bytes = engine.symbol_bytes
    for rank in range(n_merges):
        best = engine.best(RUNNERS_UP)
        if best is None:
            return trace, f"no pair left to merge after {rank} merges"
        (count, left_id, right_id), runners_up = best
        candidates = tuple(Candidate(symbol_bytes[a], symbol_bytes[b], c) for c, a, b in runners_up)
        new_id, replaced = engine.merge(left_id, right_id)
        trace.append(
            MergeRecord(
                rank=rank,
                new_id=new_id,
                left_id=left_id,
                right_id=right_id,
                left=symbol_bytes[left_id],
                right=symbol_bytes[right_id],
                count=count,
                replaced=replaced,
                candidates=candidates,
            )
        )
        report(rank + 1)
    return trace, None


def check_settings(vocab_size: int, special_tokens: Iterable[str], pattern: str | None) -> tuple[list[str], int]:
    """Validate training settings; return the special tokens as a list and the number of merges."""
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise TypeError(f"vocab_size must be an int, not {type(vocab_size).__name__}")
    specials = check_special_tokens(special_tokens)
    minimum = 256 + len(specials)
    if vocab_size < minimum:
        raise ValueError(
            f"vocab_size {vocab_size} is too small: it must be at least {minimum} "
            f"(256 byte tokens + {len(specials)} special tokens)"
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
) -> TrainResult:
    """Train a byte-level BPE tokenizer on ``text``.

    ``vocab_size`` counts everything: 256 bytes + merges + special tokens. ``pattern`` is a name
    in ``PATTERNS``, a regex, or ``None`` for no pre-tokenization (merges may then span words).
    ``progress(done, total)`` is called at least every 1 % of the work and every 0.25 s; an
    exception raised from it stops training and propagates. For corpora in files, or too big for
    memory, see ``train_files``.

    >>> result = train("aaabdaaabac", 259)
    >>> result.merges
    [(b'a', b'a'), (b'aa', b'a'), (b'aaa', b'b')]
    >>> result.tokenizer.encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
    """
    started = time.perf_counter()
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    specials, n_merges = check_settings(vocab_size, special_tokens, pattern)
    report = _Reporter(progress, 1 + n_merges)
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
    )
    result.special_token_count = count_special_tokens(text, specials)
    return result


def count_special_tokens(text: str, special_tokens: Iterable[str]) -> int:
    """How many special tokens ``text`` holds, longest match first (as ``split_on_special`` finds them)."""
    return sum(1 for _, is_special in split_on_special(text, special_tokens) if is_special)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while an engine is built and run.

    An engine allocates hundreds of thousands of lists, sets and tuples that all live until
    training ends and form no cycles: the collector can free none of them, yet traverses them
    again and again (measured on docs10m: 0.24 s of 3.7 s, two full collections 0.12 s of it).
    The engine must be freed before the collector resumes, or its first run pays it all back.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def train_counts(
    pretokens: Mapping[str, int],
    vocab_size: int,
    *,
    special_tokens: Iterable[str] = (),
    pattern: str | None = "gpt2",
    progress: Callable[[int], None] | None = None,
    started: float | None = None,
    engine_factory: EngineFactory | None = None,
) -> TrainResult:
    """Train on pre-token counts already made (by ``count_pretokens`` or on a cluster).

    ``pattern`` is the one the counts were made with (the tokenizer keeps it);
    ``progress(merges_done)`` is called after every merge. ``started`` is when the whole
    training began (``time.perf_counter()``), so the timings include counting.
    ``engine_factory`` replaces the usual engine by one that picks pairs its own way (the
    variants: ``parity``, ``superword``).

    >>> train_counts({"low": 5, " lower": 2}, 258).merges
    [(b'o', b'w'), (b'l', b'ow')]
    """
    counted = time.perf_counter()
    started = counted if started is None else started
    specials, n_merges = check_settings(vocab_size, special_tokens, pattern)
    words = ((pretoken.encode("utf-8"), count) for pretoken, count in pretokens.items())
    byte_symbols = [bytes([byte]) for byte in range(256)]
    # Distinct pre-tokens are short: the word layout. Without pre-tokenization each piece is one
    # long sequence, which only the positional layout merges in time proportional to its size.
    with _collector_paused():
        if engine_factory is not None:
            engine = engine_factory(words, byte_symbols)
        else:
            engine = PositionEngine(words, byte_symbols) if pattern is None else WordEngine(words, byte_symbols)
        indexed = time.perf_counter()
        trace, stop_reason = run_merges(engine, n_merges, progress or (lambda done: None))
        symbol_bytes = engine.symbol_bytes
        del engine  # freed now, by reference counting, so the collector never sees its objects
    if stop_reason is not None and progress is not None:
        progress(n_merges)

    vocab = dict(enumerate(symbol_bytes))
    merges = [(record.left, record.right) for record in trace]
    special_ids = {token: len(vocab) + offset for offset, token in enumerate(specials)}
    vocab.update({identifier: token.encode("utf-8") for token, identifier in special_ids.items()})
    tokenizer = Tokenizer(vocab, merges, special_ids, pattern)
    finished = time.perf_counter()
    return TrainResult(
        tokenizer=tokenizer,
        trace=trace,
        settings={"vocab_size": vocab_size, "special_tokens": specials, "pattern": pattern},
        seconds=finished - started,
        pretoken_count=sum(pretokens.values()),
        unique_pretokens=len(pretokens),
        stopped_early=stop_reason is not None,
        stop_reason=stop_reason,
        timings={"pretokenize": counted - started, "index": indexed - counted, "merge": finished - indexed},
        pretoken_counts=pretokens,
    )
