"""How counting for ``train_files`` scales with processes, and how much of it one process does alone.

    python bench/scaling.py [--mb 40] [--processes 1 2] [--rounds 3] [--corpus ../shared/corpora/docs10m.txt]

Counts the pre-tokens (gpt2 pattern, ``<|endoftext|>``) of a corpus of ``--mb`` MB in files of 10 MB
(the corpus file repeated if it is shorter), two ways, interleaved round by round:

- **streamed** (before issue 28): this process reads, decodes and cuts every 4 MB block, and each block
  is counted by ``counting.count_text`` on P processes (this one and P - 1 forked children), whose
  counts this process then adds to its table;
- **sharded** (``bpe_core.training.sharded``): P forked workers read, count and add up their own
  ranges and hash shards; this process only gathers the distinct pre-tokens.

For each: wall seconds, this process's CPU seconds, the children's, and the **serial work per MB**:
the CPU time of this process outside counting its own parts, which no added core can take over
(streamed: its CPU time minus its time in ``count_pretokens``; sharded: all of its CPU time). Its
inverse bounds the MB/s of any number of cores. The serial fraction is that time over all CPU time.
The counts of both ways are checked equal (and their order).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bpe_core.training import counting  # noqa: E402
from bpe_core.training.corpus import count_blocks, text_blocks  # noqa: E402
from bpe_core.training.sharded import count_files  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
SPECIALS = ["<|endoftext|>"]
MB = 10**6


def write_corpus(source: Path, megabytes: float, folder: Path) -> list[Path]:
    """``megabytes`` of the source repeated, in files of at most 10 MB each ending at a document's end."""
    data = source.read_bytes()
    paths, left = [], int(megabytes * MB)
    while left > 0:
        part = data[: min(left, 10 * MB)]
        part = part[: part.rfind(b"\n") + 1] or part
        path = folder / f"part{len(paths):03d}.txt"
        path.write_bytes(part)
        paths.append(path)
        left -= len(part)
    return paths


def cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def measure(run, counting_time: list[float]) -> dict[str, float]:
    counting_time[0] = 0.0
    started, mine, theirs = time.perf_counter(), cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
    counts = run()
    return {
        "wall": time.perf_counter() - started,
        "parent": cpu(resource.RUSAGE_SELF) - mine,
        "children": cpu(resource.RUSAGE_CHILDREN) - theirs,
        "parent counting": counting_time[0],
        "counts": counts,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--mb", type=float, default=40)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not args.corpus.exists():
        sys.exit(f"{args.corpus} not found")

    # The parent's time in counting its own parts (streamed way): count_pretokens timed in this process only.
    counting_time = [0.0]
    real = counting.count_pretokens
    parent = os.getpid()

    def timed_count(*call, **named):
        started = time.process_time()
        try:
            return real(*call, **named)
        finally:
            if os.getpid() == parent:
                counting_time[0] += time.process_time() - started

    counting.count_pretokens = timed_count
    with tempfile.TemporaryDirectory() as folder:
        paths = write_corpus(args.corpus, args.mb, Path(folder))
        megabytes = sum(path.stat().st_size for path in paths) / MB
        results: dict[tuple[str, int], list[dict[str, float]]] = {}
        for _ in range(args.rounds):
            for processes in args.processes:
                counting.COUNT_PROCESSES = processes
                streamed = measure(
                    lambda: count_blocks(text_blocks(paths, "gpt2", SPECIALS), "gpt2", SPECIALS), counting_time
                )
                sharded = measure(
                    lambda p=processes: count_files(paths, "gpt2", SPECIALS, p, block_bytes=1 << 22)[0], counting_time
                )
                assert list(streamed.pop("counts").items()) == list(sharded.pop("counts").items())
                results.setdefault(("streamed", processes), []).append(streamed)
                results.setdefault(("sharded", processes), []).append(sharded)
    print(f"{megabytes:.0f} MB, {args.rounds} rounds, medians; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print("| way | processes | wall s | MB/s | parent CPU s | children CPU s | serial ms/MB | serial fraction |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for (way, processes), runs in sorted(results.items()):
        median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        serial = median["parent"] - median["parent counting"]
        total = median["parent"] + median["children"]
        print(
            f"| {way} | {processes} | {median['wall']:.2f} | {megabytes / median['wall']:.1f} | {median['parent']:.2f} "
            f"| {median['children']:.2f} | {1000 * serial / megabytes:.1f} | {serial / total:.3f} |"
        )


if __name__ == "__main__":
    main()
