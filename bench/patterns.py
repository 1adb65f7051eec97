"""Speed of the named pre-tokenization patterns: counting, and training against rustbpe (encoding against
tiktoken, one text or many, by model: ``bench/encode.py``).

    python bench/patterns.py count  [--patterns gpt2 llama3 ...] [--rounds 4]
    python bench/patterns.py train  [--patterns gpt2 llama3] [--size 5000] [--rounds 3]

``count``: ``count_pretokens`` (one process) on the corpus, CPU seconds, best of the rounds, as MB/s of UTF-8;
also with the pattern given as its regex string (a loaded tokenizer's or a user's copy) rather than its name.
``train``: ``bpe_core.train(text, size, special_tokens=["<|endoftext|>"], pattern=name)`` against
``rustbpe.Tokenizer().train_from_iterator(documents, size - 1, pattern=regex)`` (no special tokens: one fewer
id), interleaved round by round; the ratio bpe_core / rustbpe per round, median and range.

The machine is shared: each round runs every contender once, so that a busy spell hits both sides.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

CORPORA = ROOT.parent / "shared" / "corpora"
SPECIAL = "<|endoftext|>"


def _load(path: Path) -> str:
    if not path.exists():
        sys.exit(f"no corpus at {path}: pass --corpus")
    return path.read_text(encoding="utf-8")


def bench_count(text: str, names: list[str], rounds: int) -> None:
    from bpe_core.pretokenize import PATTERNS, count_pretokens

    megabytes = len(text.encode()) / 1e6
    contenders = [(name, name) for name in names] + [(f"{name} (regex)", PATTERNS[name]) for name in names]
    best = {label: float("inf") for label, _ in contenders}
    for _ in range(rounds):
        for label, pattern in contenders:
            started = time.process_time()
            count_pretokens(text, pattern, [SPECIAL])
            best[label] = min(best[label], time.process_time() - started)
    print(f"| pattern | CPU s | MB/s |  ({megabytes:.1f} MB, best of {rounds}, one process)")
    for label, _ in contenders:
        print(f"| {label} | {best[label]:.3f} | {megabytes / best[label]:.1f} |")


def bench_train(text: str, names: list[str], size: int, rounds: int) -> None:
    import rustbpe

    import bpe_core
    from bpe_core.pretokenize import PATTERNS

    ours: dict[str, list[float]] = {name: [] for name in names}
    theirs: dict[str, list[float]] = {name: [] for name in names}
    documents = text.split(SPECIAL)
    for _ in range(rounds):
        for name in names:
            started = time.perf_counter()
            bpe_core.train(text, size, special_tokens=[SPECIAL], pattern=name)
            ours[name].append(time.perf_counter() - started)
            started = time.perf_counter()
            rustbpe.Tokenizer().train_from_iterator(iter(documents), size - 1, pattern=PATTERNS[name])
            theirs[name].append(time.perf_counter() - started)
    print(f"| pattern | bpe_core s | rustbpe s | ratio median (range) |  (vocab {size}, {rounds} rounds)")
    for name in names:
        ratios = [a / b for a, b in zip(ours[name], theirs[name], strict=True)]
        print(
            f"| {name} | {statistics.median(ours[name]):.2f} | {statistics.median(theirs[name]):.2f} | "
            f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["count", "train"])
    parser.add_argument("--corpus", type=Path, default=CORPORA / "docs10m.txt")
    parser.add_argument("--patterns", nargs="+", default=None)
    parser.add_argument("--size", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    text = _load(args.corpus)
    if args.what == "count":
        from bpe_core.pretokenize import PATTERNS

        bench_count(text, args.patterns or [name for name in PATTERNS if name != "whitespace"], args.rounds)
    else:
        bench_train(text, args.patterns or ["gpt2", "llama3"], args.size, args.rounds)


if __name__ == "__main__":
    main()
