"""Counting the pre-tokens of files on every core, with no process doing the whole corpus's work alone.

Streamed in one process (``corpus.count_blocks``), one process reads, decodes and cuts every block
and adds every block's counts into one table: with more cores, that process is the limit. Here
``processes`` forked workers share all of it, and this process only waits, then gathers the
distinct pre-tokens once (work that grows with the table, not with the corpus):

1. **Count.** The files are cut into nominal byte ranges of about ``range_bytes`` (never across
   a file's end). Each worker claims the next range from a counter in a memory file, moves both its
   ends to the next safe cut (:mod:`.byte_cuts`: the neighbour that ends where this one starts finds
   the same cut, without talking), reads and counts it block by block into one table of its own,
   then writes that table to a folder in one shard per worker, a pre-token's shard chosen by its hash.
2. **Reduce.** Worker s adds up shard s of every worker: each distinct pre-token is added up by
   exactly one process (a sharded reduction).
3. **Gather.** This process puts the shards' totals together.

The counts are exactly those of one process, in the same order (a pre-token first where it first
occurs): workers claim ranges in increasing order, so a worker's table holds its pre-tokens in the
order of their first occurrence in its ranges; each pre-token carries its position (range, place
in the worker's table), and the smallest wins.

Failures: a worker that dies (out of memory, killed) costs time, not counts: the ranges it
claimed are counted here, and a shard it was to reduce is reduced here. A worker's ``ValueError``
(a file that is not UTF-8, a pattern past its time budget) is raised here. Forking is as in
:mod:`.counting` (which says when it is safe): a child dies with its parent and leaves by ``os._exit``.
"""

from __future__ import annotations

import functools
import os
import pickle
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..byte_order import text_encoding
from ..pretokenize import count_pretokens
from .blocks import range_blocks
from .byte_cuts import next_cut
from .byte_level import count_special_tokens
from .forking import Ledger, run_forked

RANGE_BYTES = 1 << 24
"""Largest nominal range (16 MB); smaller when the corpus would give fewer than ``RANGES_PER_PROCESS``
ranges per worker, so that a worker slowed by other work on the machine holds back little."""

RANGES_PER_PROCESS = 4
MIN_RANGE_BYTES = 1 << 20
"""Smallest nominal range (1 MB), so that a corpus of a few MB still reaches every worker."""

_POSITION_SHIFT = 40  # a position is range << 40 | place in the worker's table

ByteRange = tuple[int, int, int]
"""(file index, nominal start, nominal end)."""


def plan_ranges(sizes: Sequence[int], range_bytes: int, whole: Sequence[bool] = ()) -> list[ByteRange]:
    """Nominal ranges of about ``range_bytes`` within each file, in order; a file marked ``whole`` (UTF-16/32 text,
    which :mod:`.byte_cuts` cannot cut) is one range.

    >>> plan_ranges([5, 0, 12], 5)
    [(0, 0, 5), (1, 0, 0), (2, 0, 5), (2, 5, 10), (2, 10, 12)]
    >>> plan_ranges([12], 5, whole=[True])
    [(0, 0, 12)]
    """
    steps = [max(size, 1) if index < len(whole) and whole[index] else range_bytes for index, size in enumerate(sizes)]
    return [
        (index, start, min(size, start + step))
        for index, (size, step) in enumerate(zip(sizes, steps))
        for start in range(0, max(size, 1), step)
    ]


def one_range(path: Path) -> bool:
    """Whether a file must be counted as one range: its text is UTF-16/32 (a byte order mark says so)."""
    with open(path, "rb") as source:
        return not text_encoding(source.read(4)).startswith("utf-8")


def count_files(
    paths: Sequence[Path],
    pattern: str | None,
    specials: list[str],
    processes: int,
    *,
    block_bytes: int,
    range_bytes: int | None = None,
    on_bytes: Callable[[int], None] | None = None,
) -> tuple[Counter[str], int]:
    """The pre-token counts of the files (each its own text) and how many special tokens they hold.

    ``on_bytes(n)`` is called here, as the workers read, with the bytes read since its last call.
    """
    sizes = [path.stat().st_size for path in paths]
    if range_bytes is None:
        range_bytes = min(RANGE_BYTES, max(MIN_RANGE_BYTES, -(-sum(sizes) // (processes * RANGES_PER_PROCESS))))
    ranges = plan_ranges(sizes, range_bytes, [one_range(path) for path in paths])
    job = _Job(list(paths), sizes, ranges, pattern, specials, block_bytes, processes)
    ledger = Ledger(len(job.ranges))
    reported = [0]

    def report() -> None:
        done = min(ledger.bytes_read(), sum(sizes))
        if on_bytes is not None and done > reported[0]:
            on_bytes(done - reported[0])
        reported[0] = done

    try:
        run_forked(
            {w: functools.partial(job.count, w, ledger.claim, ledger.add_bytes) for w in range(processes)}, report
        )
        job.raise_error()
        done, special_count = job.finished(processes)
        missing = [index for index in range(len(job.ranges)) if index not in done]
        if missing:  # a worker died: its ranges are counted here, as one more worker
            pending = iter(missing)
            job.count(processes, lambda: next(pending, None), lambda count: None)
            job.raise_error()
            special_count += job.special_count_of(processes)
        report()
        reduced = run_forked({s: functools.partial(job.reduce, s) for s in range(processes)}, lambda: None)
        for shard, status in reduced.items():
            if status != 0:
                job.reduce(shard)
        return job.gather(), special_count
    finally:
        ledger.close()
        job.close()


class _Job:
    """What the workers share: the plan, and the folder their tables go through."""

    def __init__(
        self,
        paths: list[Path],
        sizes: list[int],
        ranges: list[ByteRange],
        pattern: str | None,
        specials: list[str],
        block_bytes: int,
        processes: int,
    ):
        self.paths, self.sizes, self.ranges = paths, sizes, ranges
        self.pattern, self.specials, self.block_bytes, self.shards = pattern, specials, block_bytes, processes
        self.folder = Path(tempfile.mkdtemp(prefix="bpe-count-"))

    def count(self, worker: int, claim: Callable[[], int | None], add_bytes: Callable[[int], None]) -> None:
        """Count the ranges claimed, then write the table in shards and what was done."""
        table: Counter[str] = Counter()
        starts: list[tuple[int, int]] = []  # (range, size of the table before it)
        specials_utf8 = [token.encode("utf-8") for token in self.specials]
        special_count = 0
        try:
            while (index := claim()) is not None:
                file, start, end = self.ranges[index]
                with open(self.paths[file], "rb") as source:
                    first = next_cut(source, start, self.sizes[file], self.pattern, specials_utf8)
                    last = next_cut(source, end, self.sizes[file], self.pattern, specials_utf8)
                starts.append((index, len(table)))
                blocks = range_blocks(
                    self.paths[file],
                    first,
                    last,
                    self.pattern,
                    self.specials,
                    block_bytes=self.block_bytes,
                    on_bytes=add_bytes,
                )
                for block in blocks:
                    special_count += count_special_tokens(block, self.specials)
                    count_pretokens(block, self.pattern, self.specials, counts=table)
        except ValueError as error:  # the input's fault: raised in the caller
            self._dump(f"error-{worker}", (index, error))
            return
        self._write_shards(worker, table, starts)
        self._dump(f"done-{worker}", ([index for index, _ in starts], special_count))

    def _write_shards(self, worker: int, table: Counter[str], starts: list[tuple[int, int]]) -> None:
        shards: list[tuple[list[str], list[int], list[int]]] = [([], [], []) for _ in range(self.shards)]
        items = iter(table.items())
        for (index, begin), (_, finish) in zip(starts, [*starts[1:], (0, len(table))]):
            base = index << _POSITION_SHIFT
            for place in range(begin, finish):
                key, count = next(items)
                keys, counts, positions = shards[hash(key) % self.shards]
                keys.append(key)
                counts.append(count)
                positions.append(base + place)
        for shard, content in enumerate(shards):
            self._dump(f"shard-{shard}-{worker}", content)

    def reduce(self, shard: int) -> None:
        """Add up one shard of every worker's table; write its totals, in order of first position."""
        keys: list[str] = []
        counts: list[int] = []
        positions: list[int] = []
        for path in self.folder.glob(f"shard-{shard}-*"):
            more_keys, more_counts, more_positions = self._load(path.name)
            keys += more_keys
            counts += more_counts
            positions += more_positions
        total: dict[str, int] = {}
        firsts: list[int] = []
        for index in sorted(range(len(positions)), key=positions.__getitem__):
            key = keys[index]
            if key in total:
                total[key] += counts[index]
            else:
                total[key] = counts[index]
                firsts.append(positions[index])
        self._dump(f"total-{shard}", (list(total), list(total.values()), firsts))

    def gather(self) -> Counter[str]:
        """Every shard's totals, each pre-token where it first occurs."""
        keys: list[str] = []
        counts: list[int] = []
        positions: list[int] = []
        for shard in range(self.shards):
            more_keys, more_counts, more_positions = self._load(f"total-{shard}")
            keys += more_keys
            counts += more_counts
            positions += more_positions
        order = sorted(range(len(positions)), key=positions.__getitem__)  # shards are sorted runs: a merge
        total: Counter[str] = Counter()
        dict.update(total, zip(map(keys.__getitem__, order), map(counts.__getitem__, order)))
        return total

    def raise_error(self) -> None:
        """Raise the error of the first range that had one, as reading the files in order would."""
        errors = [self._load(path.name) for path in self.folder.glob("error-*")]
        if errors:
            raise min(errors, key=lambda found: found[0])[1]

    def finished(self, workers: int) -> tuple[set[int], int]:
        """The ranges that workers counted and wrote, and the special tokens in them. The shards of
        a worker that died before it finished are dropped: its ranges are counted again."""
        done: set[int] = set()
        special_count = 0
        for worker in range(workers):
            if (self.folder / f"done-{worker}").exists():
                ranges, count = self._load(f"done-{worker}")
                done.update(ranges)
                special_count += count
            else:
                for path in self.folder.glob(f"shard-*-{worker}"):
                    path.unlink()
        return done, special_count

    def special_count_of(self, worker: int) -> int:
        return self._load(f"done-{worker}")[1]

    def _dump(self, name: str, value: object) -> None:
        partial = self.folder / f".partial-{name}"  # a reader sees all of it or none
        with open(partial, "wb") as sink:
            pickle.dump(value, sink, pickle.HIGHEST_PROTOCOL)
        os.replace(partial, self.folder / name)

    def _load(self, name: str) -> Any:
        with open(self.folder / name, "rb") as source:
            return pickle.load(source)

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
