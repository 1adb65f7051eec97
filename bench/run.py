"""Benchmark bpe_core against its peers, measured in the same run on the same text.

    python bench/run.py [--corpus ../shared/corpora/docs10m.txt] [--sizes 1000 5000 10000] [--repeat 2]

Training: bpe_core.train vs Hugging Face `tokenizers` BpeTrainer (ByteLevel pre-tokenizer, same
vocab size, same special token). Encoding: bpe_core reference tokenizers vs tiktoken for gpt2
and cl100k_base, single-threaded, each from a freshly built tokenizer (empty caches). Both sides
load the same vocabulary files, found offline in installed packages. Reports the best of
--repeat runs and the ratio bpe_core / peer (below 1.0: bpe_core is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bpe_core  # noqa: E402
from bpe_core.pretokenize import PATTERNS  # noqa: E402
from bpe_core.reference import build_reference, reference_files  # noqa: E402

SPECIAL = "<|endoftext|>"
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"


def best_of(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def hf_train(text: str, vocab_size: int) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[SPECIAL],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator([text], trainer)


def tiktoken_encoding(name: str):
    """tiktoken's own loaders on the same local files bpe_core uses (tiktoken cannot download here)."""
    import gzip
    import tempfile

    import tiktoken
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe
    from tiktoken_ext.openai_public import r50k_pat_str

    files = reference_files(name)
    specials = build_reference(name).special_tokens
    if name == "gpt2":
        ranks = data_gym_to_mergeable_bpe_ranks(str(files["vocab.bpe"]), str(files["encoder.json"]))
        pattern = r50k_pat_str
    else:
        (packed,) = files.values()
        with tempfile.TemporaryDirectory() as folder:
            plain = Path(folder) / f"{name}.tiktoken"
            plain.write_bytes(gzip.decompress(packed.read_bytes()))
            ranks = load_tiktoken_bpe(str(plain))
        pattern = PATTERNS[name.removesuffix("_base")]
    return tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if not args.corpus.exists():
        sys.exit(f"corpus {args.corpus} not found (pass --corpus FILE)")
    text = args.corpus.read_text(encoding="utf-8")
    print(f"corpus: {args.corpus.name}, {len(text.encode()) / 1e6:.1f} MB; {os.cpu_count()} cores; "
          f"Python {platform.python_version()}; best of {args.repeat}")
    hf_train(text[:200_000], 1000)  # warm up Rust's thread pool and allocator once, outside the timings
    results: dict = {"training": [], "encoding": []}

    print("\nTraining (seconds)\n| vocab | bpe_core | HF tokenizers | ratio |\n|---:|---:|---:|---:|")
    for size in args.sizes:
        ours = best_of(args.repeat, partial(bpe_core.train, text, size, special_tokens=[SPECIAL]))
        peer = best_of(args.repeat, partial(hf_train, text, size))
        results["training"].append({"vocab_size": size, "bpe_core": ours, "hf_tokenizers": peer})
        print(f"| {size:,} | {ours:.2f} | {peer:.2f} | {ours / peer:.2f}× |", flush=True)

    print(
        "\nEncoding, single-threaded, fresh caches (seconds)\n"
        "| tokenizer | bpe_core | tiktoken | ratio | ids equal |\n|---|---:|---:|---:|---|"
    )
    for name in ("gpt2", "cl100k_base"):
        encoding = tiktoken_encoding(name)
        # A freshly built tokenizer per run, built outside the timing: its cache starts empty.
        ours = min(_timed_fresh(name, text) for _ in range(args.repeat))
        peer = best_of(args.repeat, partial(encoding.encode_ordinary, text))
        equal = build_reference(name).encode_ordinary(text) == encoding.encode_ordinary(text)
        results["encoding"].append({"tokenizer": name, "bpe_core": ours, "tiktoken": peer, "ids_equal": equal})
        print(f"| {name} | {ours:.2f} | {peer:.2f} | {ours / peer:.2f}× | {equal} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


def _timed_fresh(name: str, text: str) -> float:
    tokenizer = build_reference(name)
    started = time.perf_counter()
    tokenizer.encode_ordinary(text)
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
