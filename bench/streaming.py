"""Streaming encode on kinds of text that have no easy place to cut: time and peak memory.

    python bench/streaming.py [--mb 40] [--reference gpt2 cl100k_base] [--checkout ../main]

Generates four inputs of ``--mb`` MB each in a temporary folder: prose (``docs10m.txt`` repeated,
or generated words without it), a numeric CSV (random integers and decimals), one line (the prose
with every newline turned into a space) and minified JSON (a list of records with random numbers),
then runs ``python -m bpe_core encode FILE --reference NAME -o /dev/null`` on each in a fresh
process and reports its wall time, CPU time and peak RSS (``wait4``), and CPU time relative to
prose (CPU time, because the machine is shared: wall time moves with the others' load). With
``--checkout`` the same runs are repeated with another checkout's ``bpe_core`` (say, main before a
change), interleaved with this one's, so both see the same machine load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PROSE = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
KINDS = ("prose", "numeric CSV", "one line", "minified JSON")


def _fill(make_block, size: int) -> str:
    blocks, total = [], 0
    while total < size:
        block = make_block()
        blocks.append(block)
        total += len(block)
    return "".join(blocks)[:size]


def generate(kind: str, size: int, seed: int = 0) -> str:
    """``size`` characters of one kind of text (ASCII, so characters are bytes)."""
    rng = random.Random(seed)
    if kind in ("prose", "one line"):
        if DEFAULT_PROSE.exists():
            prose = DEFAULT_PROSE.read_text(encoding="utf-8")
            text = _fill(lambda: prose, size)
        else:
            words = ["the", "of", "tokenizer", "merge", "pair", "byte", "and", "encoding", "is", "a"]
            text = _fill(lambda: " ".join(rng.choices(words, k=12)) + ".\n", size)
        return text.replace("\n", " ") if kind == "one line" else text
    if kind == "numeric CSV":

        def row() -> str:
            return (
                f"{rng.randrange(10**9)},{rng.uniform(-1e4, 1e4):.6f},{rng.randrange(100)},"
                f"{rng.random():.8f},{rng.randrange(-(10**6), 10**6)}\n"
            )

        return "id,value,bucket,score,delta\n" + _fill(lambda: "".join(row() for _ in range(1000)), size)
    if kind == "minified JSON":

        def record() -> dict:
            return {
                "id": rng.randrange(10**9),
                "lat": round(rng.uniform(-90, 90), 6),
                "lon": round(rng.uniform(-180, 180), 6),
                "tags": [rng.randrange(1000) for _ in range(3)],
                "ok": rng.random() < 0.5,
            }

        body = _fill(lambda: ",".join(json.dumps(record(), separators=(",", ":")) for _ in range(1000)) + ",", size)
        return "[" + body[: size - 2].rstrip(",") + "]"
    raise ValueError(kind)


def input_path(folder: Path, kind: str) -> Path:
    return folder / (kind.replace(" ", "_") + ".txt")


def run_encode(checkout: Path, path: Path, reference: str) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MB) of ``python -m bpe_core encode`` with ``checkout``'s
    bpe_core. CPU seconds (user + system, from ``wait4``) hardly depend on how loaded the machine is."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, "-m", "bpe_core", "encode", str(path), "--reference", reference, "-o", os.devnull]
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, cwd=checkout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    stderr = process.stderr.read().decode() if process.stderr else ""
    if status != 0:
        sys.exit(f"{command} failed ({status}): {stderr[-2000:]}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=40.0, help="size of each input in MB")
    parser.add_argument("--reference", nargs="+", default=["gpt2", "cl100k_base"])
    parser.add_argument("--checkout", type=Path, help="also run this checkout's bpe_core (before/after)")
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=KINDS)
    parser.add_argument("--write-inputs", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    size = int(args.mb * 1e6)
    if args.write_inputs:
        for kind in args.kinds:
            input_path(args.write_inputs, kind).write_text(generate(kind, size), encoding="utf-8")
        return
    checkouts = {"this": ROOT}
    if args.checkout:
        checkouts["baseline"] = args.checkout.resolve()
    print(f"{args.mb:g} MB per input; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory(prefix="bpe-bench-stream-") as folder:
        # Written by a child process: a child's peak RSS starts from its parent's at fork, so this
        # process must never hold the inputs itself.
        subprocess.run(
            [sys.executable, __file__, "--write-inputs", folder, "--mb", str(args.mb), "--kinds", *args.kinds],
            check=True,
        )
        paths = {kind: input_path(Path(folder), kind) for kind in args.kinds}
        print(
            "| tokenizer | input | checkout | wall | CPU | CPU × prose | peak RSS |\n|---|---|---|---:|---:|---:|---:|"
        )
        for reference in args.reference:
            prose_cpu: dict[str, float] = {}
            for kind in args.kinds:
                for label, checkout in checkouts.items():  # interleaved: this, baseline, next input
                    seconds, cpu, rss = run_encode(checkout, paths[kind], reference)
                    if kind == "prose":
                        prose_cpu[label] = cpu
                    relative = f"{cpu / prose_cpu[label]:.2f}×" if label in prose_cpu else ""
                    row = [reference, kind, label, f"{seconds:.1f} s", f"{cpu:.1f} s", relative, f"{rss:.0f} MB"]
                    print("| " + " | ".join(row) + " |", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
