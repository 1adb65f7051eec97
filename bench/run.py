"""Benchmark bpe_core against its peers, interleaved in the same run on the same text.

    python bench/run.py [--corpus ../shared/corpora/docs10m.txt] [--sizes 1000 5000 10000] [--rounds 5]
    python bench/run.py --quick          # a smoke test: 1 MB, one size, two rounds
    python bench/run.py --sizes 5000 --baseline ../main   # also time another checkout's bpe_core
    python bench/run.py --skip-training --baseline ../main   # encoding only, before and after

Training: ``bpe_core.train(text, size, special_tokens=["<|endoftext|>"], pattern="gpt2")`` against
Hugging Face ``tokenizers`` trained from the file (``Tokenizer.train([path])``) and from an
iterator over the documents (``train_from_iterator``), set up alike (see bench/peers.py).
Encoding: bpe_core's reference tokenizers (freshly built, so their caches start empty) against
``tiktoken.get_encoding(name).encode_ordinary``, single-threaded, and whether the ids are equal;
the ratio of wall seconds, and of CPU seconds, which a loaded machine disturbs far less.

The machine is shared, so single timings are noise: each round runs every contender once, one
after the other (ours, HF file, HF iterator, ours, ...), and each round gives one ratio
bpe_core / peer. The tables show the median ratio, its range and the number of rounds; below
1.0 bpe_core is faster, and the load average before and after each size, since other work on
the machine takes cores from both sides (HF trains on 2 threads, bpe_core counts in one process
per core). ``taskset -c 0 python bench/run.py`` gives both one core. The Markdown tables can be
pasted into the README as they are.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from peers import SPECIAL, documents, hf_train_file, hf_train_iterator, tiktoken_encoding  # noqa: E402

import bpe_core  # noqa: E402
from bpe_core.reference import build_reference  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"


def timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def interleaved(contenders: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """Seconds of each contender in each round; every round runs them all, in order."""
    seconds: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            seconds[name].append(timed(run))
    return seconds


def ratio_summary(ours: list[float], peer: list[float]) -> dict[str, float]:
    ratios = [a / b for a, b in zip(ours, peer)]
    return {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios), "pairs": len(ratios)}


def format_ratio(summary: dict[str, float]) -> str:
    return f"{summary['median']:.2f}× ({summary['min']:.2f}–{summary['max']:.2f})"


def load_baseline(checkout: Path):
    """Another checkout's ``bpe_core`` (say, main before a change), importable next to this one.

    It is imported by name through a symlink on ``sys.path``, so that processes it may spawn find it.
    """
    package = checkout.resolve() / "bpe_core"
    if not (package / "__init__.py").exists():
        sys.exit(f"no bpe_core package in {checkout}")
    folder = Path(tempfile.mkdtemp(prefix="bpe-bench-baseline-"))
    (folder / "bpe_core_baseline").symlink_to(package, target_is_directory=True)
    sys.path.append(str(folder))
    return importlib.import_module("bpe_core_baseline")


def load_average() -> str:
    return "/".join(f"{load:.1f}" for load in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def bench_training(text: str, corpus: Path, sizes: list[int], rounds: int, baseline=None) -> list[dict]:
    if baseline is not None:
        print("\nbaseline: the bpe_core of --baseline, in the same rounds; ratio = baseline / HF train([file])")
    print(
        f"\nTraining, {rounds} interleaved rounds; seconds are medians; ratio = bpe_core / HF, median (range)\n"
        "| vocab | bpe_core | HF train([file]) | HF train_from_iterator | ratio vs file | ratio vs iterator |\n"
        "|---:|---:|---:|---:|---:|---:|"
    )
    rows = []
    notes = []  # printed below the table, so that it can be pasted as it is
    for size in sizes:
        phases: list[dict[str, float]] = []
        loads = [load_average()]
        contenders = {
            "bpe_core": lambda size=size, phases=phases: phases.append(
                bpe_core.train(text, size, special_tokens=[SPECIAL], pattern="gpt2").timings
            ),
            "hf_file": lambda size=size: hf_train_file(corpus, size),
            "hf_iterator": lambda size=size: hf_train_iterator(documents(text), size),
        }
        if baseline is not None:
            contenders["baseline"] = lambda size=size: baseline.train(text, size, special_tokens=[SPECIAL])
        seconds = interleaved(contenders, rounds)
        loads.append(load_average())
        row = {
            "vocab_size": size,
            "seconds": seconds,
            "bpe_core_phases": phases,
            "load_average": loads,
            "vs_file": ratio_summary(seconds["bpe_core"], seconds["hf_file"]),
            "vs_iterator": ratio_summary(seconds["bpe_core"], seconds["hf_iterator"]),
        }
        rows.append(row)
        median = {name: statistics.median(values) for name, values in seconds.items()}
        print(
            f"| {size:,} | {median['bpe_core']:.2f} s | {median['hf_file']:.2f} s | {median['hf_iterator']:.2f} s "
            f"| {format_ratio(row['vs_file'])} | {format_ratio(row['vs_iterator'])} |",
            flush=True,
        )
        phase_medians = ", ".join(f"{name} {statistics.median(p[name] for p in phases):.2f} s" for name in phases[0])
        notes.append(f"- {size:,}: bpe_core {phase_medians}; load average {loads[0]} before, {loads[1]} after")
        if baseline is not None:
            row["baseline_vs_file"] = ratio_summary(seconds["baseline"], seconds["hf_file"])
            print(f"| {size:,} baseline | {median['baseline']:.2f} s | | | {format_ratio(row['baseline_vs_file'])} | |")
    print("\nbpe_core's phases (medians) and the load average (1/5/15 min):\n" + "\n".join(notes))
    return rows


def timed_cpu(run: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one run (CPU time hardly moves with the load of a shared machine)."""
    started, started_cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - started, time.process_time() - started_cpu


def bench_encoding(text: str, rounds: int, baseline=None) -> list[dict]:
    """bpe_core's reference tokenizers against tiktoken's own, interleaved; with a baseline checkout,
    its reference tokenizers too, in the same rounds (ratio = baseline / tiktoken)."""
    print(
        f"\nEncoding, single-threaded, {rounds} interleaved rounds; ratio = bpe_core / tiktoken, median (range)\n"
        "| tokenizer | bpe_core | tiktoken | ratio | ratio of CPU seconds | ids equal |\n|---|---:|---:|---:|---:|---|"
    )
    builders = {"bpe_core": build_reference}
    if baseline is not None:
        builders["baseline"] = importlib.import_module(baseline.__name__ + ".reference").build_reference
    rows = []
    for name in ("gpt2", "cl100k_base"):
        encoding = tiktoken_encoding(name)
        wall: dict[str, list[float]] = {label: [] for label in [*builders, "tiktoken"]}
        cpu: dict[str, list[float]] = {label: [] for label in wall}
        for _ in range(rounds):
            runs = {}
            for label, build in builders.items():
                tokenizer = build(name)  # fresh, outside the timing: its cache starts empty
                runs[label] = lambda tokenizer=tokenizer: tokenizer.encode_ordinary(text)
            runs["tiktoken"] = lambda encoding=encoding: encoding.encode_ordinary(text)
            for label, run in runs.items():
                seconds, cpu_seconds = timed_cpu(run)
                wall[label].append(seconds)
                cpu[label].append(cpu_seconds)
        expected = encoding.encode_ordinary(text)
        for label, build in builders.items():
            equal = build(name).encode_ordinary(text) == expected
            summary = ratio_summary(wall[label], wall["tiktoken"])
            cpu_summary = ratio_summary(cpu[label], cpu["tiktoken"])
            rows.append(
                {"tokenizer": name, "checkout": label, "seconds": wall, "cpu_seconds": cpu}
                | {"ratio": summary, "cpu_ratio": cpu_summary, "ids_equal": equal}
            )
            print(
                f"| {name}{' (baseline)' if label == 'baseline' else ''} | {statistics.median(wall[label]):.2f} s "
                f"| {statistics.median(wall['tiktoken']):.2f} s | {format_ratio(summary)} "
                f"| {format_ratio(cpu_summary)} | {equal} |",
                flush=True,
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--rounds", "--repeat", dest="repeat", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--quick", action="store_true", help="smoke test: the first 1 MB, vocab 1000, 2 rounds")
    parser.add_argument("--skip-encoding", action="store_true")
    parser.add_argument("--skip-training", action="store_true")
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT", help="also time this checkout's bpe_core")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if not args.corpus.exists():
        sys.exit(f"corpus {args.corpus} not found (pass --corpus FILE)")
    text = args.corpus.read_text(encoding="utf-8")
    corpus = args.corpus
    with tempfile.TemporaryDirectory() as folder:
        if args.quick:
            text, args.sizes, args.repeat = text[:1_000_000], [1000], 2
            corpus = Path(folder) / "quick.txt"
            corpus.write_text(text, encoding="utf-8")
        print(
            f"corpus: {args.corpus.name}{' (first 1 MB)' if args.quick else ''}, {len(text.encode()) / 1e6:.1f} MB; "
            f"{os.cpu_count()} cores; Python {platform.python_version()}"
        )
        baseline = load_baseline(args.baseline) if args.baseline else None
        results = {}
        if not args.skip_training:
            hf_train_iterator([text[:200_000]], 1000)  # warm up Rust's thread pool and allocator, untimed
            results["training"] = bench_training(text, corpus, args.sizes, args.repeat, baseline)
    if not args.skip_encoding:
        results["encoding"] = bench_encoding(text, args.repeat, baseline)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
