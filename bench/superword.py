"""Bytes per token of plain BPE against superword BPE (SuperBPE) at the same vocab size, held out.

    python bench/superword.py [--corpus ../shared/corpora/docs10m.txt] [--train-mb 5] [--test-mb 1]

Trains on the corpus's first --train-mb megabytes and encodes its last --test-mb megabytes (and
the training text) with each tokenizer; one run, so the seconds are indicative only.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import bpe_core

SETTINGS = [(8_000, 6_000), (16_000, 12_000)]  # (vocab size, transition)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "docs10m.txt"
    parser.add_argument("--corpus", default=str(default))
    parser.add_argument("--train-mb", type=float, default=5)
    parser.add_argument("--test-mb", type=float, default=1)
    args = parser.parse_args()
    data = Path(args.corpus).read_bytes()
    train_text = data[: int(args.train_mb * 1e6)].decode("utf-8", errors="ignore")
    test_text = data[-int(args.test_mb * 1e6) :].decode("utf-8", errors="ignore")
    print("| vocab | kind | train s | bytes/token (train) | bytes/token (held out) |")
    print("|---:|---|---:|---:|---:|")
    for vocab_size, transition in SETTINGS:
        for kind in ("plain", f"superword t={transition:,}"):
            started = time.perf_counter()
            if kind == "plain":
                result = bpe_core.train(train_text, vocab_size)
            else:
                result = bpe_core.train_superword(train_text, vocab_size, transition=transition)
            seconds = time.perf_counter() - started
            tokenizer = result.tokenizer
            ratios = [len(text.encode("utf-8")) / len(tokenizer.encode(text)) for text in (train_text, test_text)]
            print(f"| {vocab_size:,} | {kind} | {seconds:.1f} | {ratios[0]:.3f} | {ratios[1]:.3f} |", flush=True)


if __name__ == "__main__":
    main()
