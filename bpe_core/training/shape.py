"""The shape every trainer shares; each trainer is a variant that fills in its own steps.

1. Check the settings (:func:`check_special_tokens`, and the trainer's own sizes).
2. Turn the corpus into weighted sequences of symbol ids, and the symbols' bytes: the byte-level
   trainer (:mod:`.byte_level`) gives each distinct pre-token's bytes and count, the classic one
   (:mod:`.classic`) each word's characters and ``</w>``.
3. Build a merge engine over them (:mod:`.merge_engine`: ``WordEngine`` for many short
   sequences, ``PositionEngine`` for a few long ones) and run the rounds: :func:`merge_rounds`,
   which records each round (:class:`MergeRecord`, with its runner-ups) and reports progress.
4. Build the tokenizer from the symbols and the trace.

A new trainer (parity-aware, superword) fills in steps 2-4 and keeps 1 and 3: a different choice of
the best pair is a ``MergeEngine`` subclass; a different corpus is a different step 2.

>>> from bpe_core.training.word_engine import WordEngine
>>> rounds = merge_rounds(lambda: WordEngine([([0, 1, 0, 1], 3)], [b"a", b"b"]), 5, lambda done: None)
>>> [(record.left, record.right, record.count) for record in rounds.trace], rounds.stop_reason
([(b'a', b'b', 6), (b'ab', b'ab', 3)], 'no pair left to merge after 2 merges')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..collector import collector_paused
from .merge_engine import Candidate, MergeEngine

ProgressCallback = Callable[[int, int], None]
"""``progress(done, total)``; an exception raised from it (say :class:`TrainingCancelled`) stops training."""

RUNNERS_UP = 5
"""How many runner-up pairs each trace record keeps by default (the trainers' ``runners_up``)."""


class TrainingCancelled(Exception):
    """Raise this from a progress callback to stop training; it propagates to the caller."""


@dataclass(frozen=True, slots=True)
class MergeRecord:
    """One round of training: which pair won, by how much, and what it replaced.

    Slots: 144 bytes a record instead of 192 (tracemalloc, Python 3.11), and a trace keeps one a merge."""

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


class Reporter:
    """Calls ``progress(done, total)`` at every 1 % of the work and at least every 0.25 s.

    >>> seen = []
    >>> report = Reporter(lambda done, total: seen.append(done), 200)
    >>> for done in range(1, 201): report(done)
    >>> len(seen), seen[:3], seen[-1]
    (101, [1, 3, 5], 200)
    """

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


@dataclass
class Rounds:
    """What :func:`merge_rounds` gives back."""

    trace: list[MergeRecord]
    symbol_bytes: list[bytes]
    """Every symbol's bytes by id: the initial symbols, then one per merge."""
    stop_reason: str | None
    """Why it stopped before ``n_merges`` rounds (no pair left), or None."""
    indexed: float
    """When the engine was built (``time.perf_counter()``): the rounds ran from then on."""


def merge_rounds(
    build_engine: Callable[[], MergeEngine],
    n_merges: int,
    report: Callable[[int], None],
    *,
    min_frequency: int = 0,
    runners_up: int = RUNNERS_UP,
) -> Rounds:
    """Build the engine and run up to ``n_merges`` rounds on it; ``report(rounds done)`` after each,
    and ``report(n_merges)`` when it stops early: no pair left, or the best one occurs fewer than
    ``min_frequency`` times (Hugging Face's ``min_frequency``). Each round's record keeps up to
    ``runners_up`` next-best pairs.

    The cycle collector is paused meanwhile (see :mod:`bpe_core.collector`): an engine allocates
    hundreds of thousands of lists, sets and tuples that live until training ends and form no
    cycles (measured on docs10m: 0.24 s of 3.7 s, two full collections 0.12 s of it). The engine is
    freed before the collector resumes, or its first run would pay it all back.
    """
    with collector_paused():
        engine = build_engine()
        indexed = time.perf_counter()
        trace, stop_reason = run_merges(engine, n_merges, report, min_frequency, runners_up)
        symbol_bytes = engine.symbol_bytes
        del engine  # freed now, by reference counting, so the collector never sees its objects
    if stop_reason is not None:
        report(n_merges)
    return Rounds(trace, symbol_bytes, stop_reason, indexed)


def run_merges(
    engine: MergeEngine,
    n_merges: int,
    report: Callable[[int], None],
    min_frequency: int = 0,
    runners_up: int = RUNNERS_UP,
) -> tuple[list[MergeRecord], str | None]:
    """Run up to n_merges rounds; return the trace (each record with up to ``runners_up`` next-best pairs) and,
    if it ran out of pairs (or of pairs that occur at least ``min_frequency`` times), why it stopped."""
    trace: list[MergeRecord] = []
    symbol_bytes = engine.symbol_bytes
    # A runner-up is mostly a runner-up again next round, at the same count (in the tail of a big
    # vocabulary, ties of count 1 or 2 round after round): its Candidate (frozen) is made once and
    # shared while it stays. On 1 MB of docs10m at 32,000: 19,280 candidates made instead of 98,625.
    shown: dict[tuple[int, int, int], Candidate] = {}
    for rank in range(n_merges):
        best = engine.best(runners_up)
        if best is None:
            skipped = " (those left are skipped: too long, or already tokens)" if engine.live_pairs() else ""
            return trace, f"no pair left to merge after {rank:,} merges{skipped}"
        (count, left_id, right_id), next_best = best
        if count < min_frequency:
            return (
                trace,
                f"the best pair occurs {count:,} times, below min_frequency {min_frequency:,}: {rank:,} merges",
            )
        now = {}
        for runner in next_best:
            candidate = shown.get(runner)
            if candidate is None:
                count_now, a, b = runner
                candidate = Candidate(symbol_bytes[a], symbol_bytes[b], count_now)
            now[runner] = candidate
        shown = now
        candidates = tuple(now.values())
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


def check_limits(min_frequency: int, max_token_length: int | None, runners_up: int = RUNNERS_UP) -> None:
    """Validate the trainers' ``min_frequency`` and ``runners_up`` (ints >= 0) and ``max_token_length`` (None or
    an int >= 1)."""
    for name, value in (("min_frequency", min_frequency), ("runners_up", runners_up)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be an int >= 0, not {value!r}")
    if max_token_length is not None and (
        isinstance(max_token_length, bool) or not isinstance(max_token_length, int) or max_token_length < 1
    ):
        raise ValueError(f"max_token_length must be None or an int >= 1, not {max_token_length!r}")
