"""Trainers at several sizes in one prepared run, for a many-core machine lent for minutes (README, "On 16 cores").

    python bench/many_cores.py 10x3@5000,100x3,400x1 [--corpus docs10m.txt] [trainer ...]

Each ``MBxROUNDS[@VOCAB]`` (vocab 32,000 unless given): 10 MB is the corpus itself, more is ``bench/trainers.py``'s
rotated corpus of that size. Each trainer (default: ``bpe_core.train_files``, HF ``tokenizers``, rustbpe) trains in
its own process, taking turns round by round; a line per run gives its seconds, peak RSS and peak PSS with workers.
Before it, ``bench/scaling.py --mb 200 --processes 1 2 4 8 16 --rounds 1`` gives the counting table. What the lent
machine lacks travels as wheels (rustbpe, bpeasy: ``pip download --only-binary=:all: --python-version 3.12``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
import trainers  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sizes", help="MBxROUNDS[@VOCAB],... e.g. 10x3@5000,100x3")
    parser.add_argument("names", nargs="*", default=["bpe_core.train_files", "hf", "rustbpe"])
    parser.add_argument("--corpus", type=Path, default=trainers.DEFAULT_CORPUS)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for spec in args.sizes.split(","):
            size, _, vocab_text = spec.partition("@")
            megabytes, rounds = (int(part) for part in size.split("x"))
            vocab = int(vocab_text or 32_000)
            path = args.corpus if megabytes == 10 else trainers.big_corpus(args.corpus, Path(folder), megabytes)
            for round_ in range(rounds):
                for name in args.names:
                    result = trainers.run_child(name, path, vocab, 500)
                    load = os.getloadavg()[0]
                    print(f"{megabytes} MB / {vocab} round {round_}: {name}: {result} load {load:.1f}", flush=True)
            if path != args.corpus:
                path.unlink()


if __name__ == "__main__":
    main()
