"""Speed of the named pre-tokenization patterns: counting, training against rustbpe, encoding against tiktoken.

    python bench/patterns.py count  [--patterns gpt2 llama3 ...] [--rounds 4]
    python bench/patterns.py train  [--patterns gpt2 llama3] [--size 5000] [--rounds 3]
    python bench/patterns.py encode [--tokenizers gpt2 cl100k_base o200k_base llama3] [--rounds 3]
    python bench/patterns.py batch  [--tokenizers cl100k_base] [--threads 2]

``count``: ``count_pretokens`` (one process) on the corpus, CPU seconds, best of the rounds, as MB/s of UTF-8;
also with the pattern given as its regex string (a loaded tokenizer's or a user's copy) rather than its name.
``train``: ``bpe_core.train(text, size, special_tokens=["<|endoftext|>"], pattern=name)`` against
``rustbpe.Tokenizer().train_from_iterator(documents, size - 1, pattern=regex)`` (no special tokens: one fewer
id), interleaved round by round; the ratio bpe_core / rustbpe per round, median and range.
``encode``: ``encode_ordinary`` of a freshly loaded tokenizer (empty caches) against tiktoken's, single thread,
on the corpus and on Chinese text; ids compared. ``batch``: ``encode_batch`` of both on the same threads.

The machine is shared: each round runs every contender once, so that a busy spell hits both sides.
"""

from __future__ import annotations

import argparse
import os
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


def _fresh(name: str):
    """Our tokenizer for a reference name, built anew so that its caches start empty."""
    from bpe_core.reference import build_reference

    return build_reference(name)


def _tiktoken(name: str):
    import tiktoken
    from peers import tiktoken_encoding

    if name != "llama3":
        return tiktoken_encoding(name)
    from tiktoken.load import load_tiktoken_bpe

    from bpe_core.pretokenize import PATTERNS
    from bpe_core.reference import reference_files

    path = next(iter(reference_files("llama3").values()))  # Llama 3's tokenizer.model: tiktoken's own format
    ranks = load_tiktoken_bpe(str(path))
    return tiktoken.Encoding("llama3", pat_str=PATTERNS["llama3"], mergeable_ranks=ranks, special_tokens={})


def bench_encode(texts: dict[str, str], names: list[str], rounds: int) -> None:
    """Two ratios: a fresh tokenizer's first call (its numpy tables built lazily inside it), and one whose tables
    are built beforehand as tiktoken builds its own in its constructor (cache of pre-tokens still empty)."""
    print(
        f"| tokenizer | text | tiktoken CPU s | first call s, ratio | tables built s, ratio | equal | ({rounds} rounds)"
    )
    for name in names:
        for label, text in texts.items():
            times: dict[str, list[float]] = {"tiktoken": [], "first": [], "built": []}
            equal = True
            for _ in range(rounds):
                theirs = _tiktoken(name)
                started = time.process_time()
                expected = theirs.encode_ordinary(text)
                times["tiktoken"].append(time.process_time() - started)
                for kind in ("first", "built"):
                    tokenizer = _fresh(name)
                    if kind == "built":
                        tokenizer._pieces._byte_batch, tokenizer._pieces._digit_runs  # noqa: B018 (the cached tables)
                    started = time.process_time()
                    ids = tokenizer.encode_ordinary(text)
                    times[kind].append(time.process_time() - started)
                    equal = equal and ids == expected
            ours = {kind: statistics.median(times[kind]) for kind in times}
            ratio = {kind: statistics.median(a / b for a, b in zip(times[kind], times["tiktoken"])) for kind in times}
            print(
                f"| {name} | {label} | {ours['tiktoken']:.3f} | {ours['first']:.3f}, {ratio['first']:.2f} | "
                f"{ours['built']:.3f}, {ratio['built']:.2f} | {equal} |"
            )


def bench_batch(text: str, names: list[str], threads: int, rounds: int) -> None:
    """Wall seconds on the corpus's documents: tiktoken's encode_ordinary_batch in ``threads`` threads, ours in as
    many threads (one core: the GIL) and in as many processes; a fresh tokenizer each time, ids compared."""
    documents = [doc for doc in text.split(SPECIAL) if doc]
    print(f"| tokenizer | tiktoken s | threads s, ratio | processes s, ratio | ({len(documents)} documents, {threads})")
    for name in names:
        times: dict[str, list[float]] = {"tiktoken": [], "threads": [], "processes": []}
        for _ in range(rounds):
            theirs = _tiktoken(name)
            started = time.perf_counter()
            expected = theirs.encode_ordinary_batch(documents, num_threads=threads)
            times["tiktoken"].append(time.perf_counter() - started)
            for kind in ("threads", "processes"):
                tokenizer = _fresh(name)
                started = time.perf_counter()
                if kind == "threads":
                    ids = tokenizer.encode_ordinary_batch(documents, num_threads=threads)
                else:
                    ids = tokenizer.encode_ordinary_batch(documents, processes=threads)
                times[kind].append(time.perf_counter() - started)
                assert ids == expected, (name, kind)
        median = {kind: statistics.median(values) for kind, values in times.items()}
        ratio = {kind: median[kind] / median["tiktoken"] for kind in times}
        print(
            f"| {name} | {median['tiktoken']:.2f} | {median['threads']:.2f}, {ratio['threads']:.2f} | "
            f"{median['processes']:.2f}, {ratio['processes']:.2f} |"
        )


def _load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["count", "train", "encode", "batch"])
    parser.add_argument("--corpus", type=Path, default=CORPORA / "docs10m.txt")
    parser.add_argument("--chinese", type=Path, default=CORPORA / "chinese_classics.txt")
    parser.add_argument("--patterns", nargs="+", default=None)
    parser.add_argument("--tokenizers", nargs="+", default=["gpt2", "cl100k_base", "o200k_base", "llama3"])
    parser.add_argument("--size", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2, help="threads or processes of the batch")
    args = parser.parse_args()
    text = _load(args.corpus)
    if args.what == "count":
        from bpe_core.pretokenize import PATTERNS

        bench_count(text, args.patterns or [name for name in PATTERNS if name != "whitespace"], args.rounds)
    elif args.what == "train":
        bench_train(text, args.patterns or ["gpt2", "llama3"], args.size, args.rounds)
    elif args.what == "encode":
        bench_encode({"docs": text, "chinese": _load(args.chinese)}, args.tokenizers, args.rounds)
    else:
        bench_batch(text, args.tokenizers, args.threads, args.rounds)


if __name__ == "__main__":
    main()
