"""Streaming training on a corpus of 200+ MB: one process, and pre-token counting on 1 and 2 Dask workers.

    python bench/dask_scaling.py [--copies 21] [--vocab-size 5000] [--rounds 1]

The corpus is generated into /tmp (never committed): ``--copies`` files, each docs10m.txt with
its documents shuffled and one letter of the alphabet upper-cased (a different one per copy), so
the copies share most pre-tokens but not all, as real shards do. Each configuration runs in a
fresh subprocess, in turn, so peak RSS (``ru_maxrss``) is that configuration's alone; for Dask the
client's and each worker's peaks are reported. All configurations must give the same merges.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SPECIAL = "<|endoftext|>"
DEFAULT_SOURCE = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
CORPUS_DIR = Path("/tmp/bpe-bench-corpus")


def generate(source: Path, copies: int) -> list[Path]:
    """Write the corpus (once; kept between runs) and return its files."""
    CORPUS_DIR.mkdir(exist_ok=True)
    documents = source.read_text(encoding="utf-8").split(SPECIAL)
    paths = corpus_files(copies)
    for copy, path in enumerate(paths):
        if path.exists():
            continue
        shuffled = documents[:]
        random.Random(copy).shuffle(shuffled)
        letter = chr(ord("a") + copy % 26)
        path.write_text(SPECIAL.join(shuffled).translate({ord(letter): letter.upper()}), encoding="utf-8")
    return paths


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def corpus_files(copies: int) -> list[Path]:
    return [CORPUS_DIR / f"part-{copy:02d}.txt" for copy in range(copies)]


def run_one(mode: str, vocab_size: int, copies: int) -> dict:
    """Train once in this process; mode is 'local', 'dask1' or 'dask2'."""
    from bpe_core import train_files

    paths = corpus_files(copies)
    workers_rss: list[float] = []
    started = time.perf_counter()
    if mode == "local":
        result = train_files(paths, vocab_size, special_tokens=[SPECIAL])
    else:
        from distributed import Client, LocalCluster

        from bpe_core.distributed import DaskSettings

        workers = int(mode.removeprefix("dask"))
        with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as cluster:
            started = time.perf_counter()  # the cluster's start-up is not counting
            settings = DaskSettings(scheduler=cluster.scheduler_address)
            result = train_files(paths, vocab_size, special_tokens=[SPECIAL], dask=settings)
            with Client(cluster) as client:
                workers_rss = sorted(client.run(peak_rss_mb).values())
    seconds = time.perf_counter() - started
    return {
        "mode": mode,
        "seconds": seconds,
        "count_seconds": result.timings["pretokenize"],
        "merge_seconds": result.timings["index"] + result.timings["merge"],
        "client_rss_mb": peak_rss_mb(),
        "workers_rss_mb": workers_rss,
        "unique_pretokens": result.unique_pretokens,
        "merges_sha1": hashlib.sha1(repr(result.merges).encode()).hexdigest()[:12],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--copies", type=int, default=21)
    parser.add_argument("--vocab-size", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--modes", nargs="+", default=["local", "dask1", "dask2"])
    parser.add_argument("--run", help=argparse.SUPPRESS)  # internal: one configuration, in a subprocess
    args = parser.parse_args()
    if args.run:
        print(json.dumps(run_one(args.run, args.vocab_size, args.copies)))
        return
    paths = generate(args.source, args.copies)
    size = sum(path.stat().st_size for path in paths)
    print(f"corpus: {len(paths)} files, {size / 1e6:.0f} MB in {CORPUS_DIR}; vocab {args.vocab_size}")
    print(
        "\n| configuration | total | counting | merges | peak RSS client | peak RSS workers | distinct pre-tokens "
        "| merges sha1 |\n|---|---:|---:|---:|---:|---:|---:|---|"
    )
    for _ in range(args.rounds):
        for mode in args.modes:
            options = ["--vocab-size", str(args.vocab_size), "--copies", str(args.copies)]
            command = [sys.executable, __file__, "--run", mode, *options]
            row = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
            workers = ", ".join(f"{rss:.0f}" for rss in row["workers_rss_mb"]) or "-"
            print(
                f"| {mode} | {row['seconds']:.1f} s | {row['count_seconds']:.1f} s | {row['merge_seconds']:.1f} s "
                f"| {row['client_rss_mb']:.0f} MB | {workers} MB | {row['unique_pretokens']:,} "
                f"| {row['merges_sha1']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
