"""Train with bpe_core and with every peer, each as its users run it, in a process of its own: time and peak memory.

    pip install -r bench/requirements.txt
    python bench/trainers.py [--rounds 3] [--big] [--only rustbpe hf] [--corpus ../shared/corpora/docs10m.txt]
    python bench/trainers.py --scaling          # then also bench/scaling.py's table (1 and 2 processes)
    python bench/trainers.py --corpus 1mb.txt --vocab 32000 --pattern llama3 \
        --before ../old_checkout --only before bpe_core.train rustbpe

``--vocab`` sets the vocabulary of the ``--corpus`` run (default 5,000); ``--pattern`` the split regex every
trainer is given (``gpt2`` or ``llama3``, as bpe_core names them); ``--before DIR`` adds the trainer ``before``:
``bpe_core.train`` imported from another checkout (DIR), in the same interleaved rounds, for before/after figures.

Trainers (``TRAINERS``), all byte-level BPE with the GPT-2 split regex and one special token in the vocabulary:

- ``bpe_core.train``: the file read into one string, ``bpe_core.train(text, V, special_tokens=[...])``;
- ``bpe_core.train_files``: ``bpe_core.train_files(path, V, special_tokens=[...])``, streamed;
- ``hf``: Hugging Face ``tokenizers``, ``Tokenizer.train([path], BpeTrainer(...))`` (bench/peers.py);
- ``hf.memory``: the same trainer as its users train on text they hold in memory (a dataset's column, say): the
  file read into one string, ``train_from_iterator`` over its documents (cut one at a time): the peer of
  ``bpe_core.train``, which is also given the text in memory, so that both peaks hold the same string;
- ``rustbpe``: nanochat's trainer as nanochat calls it, ``rustbpe.Tokenizer().train_from_iterator(documents,
  V - 1, pattern=...)`` (the special token is added afterwards, as nanochat does); here the GPT-2 regex;
- ``bpeasy``: ``bpeasy.train_bpe(documents, regex, max_token_length=128, vocab_size=V - 1)``;
- ``sentencepiece``: ``SentencePieceTrainer.train(input=path, model_type="bpe", vocab_size=V, ...)``, its
  defaults otherwise (it splits on whitespace itself and is not byte-level: a different algorithm, there
  to show what users of it wait for);

Each round runs every trainer once, one after another (interleaved: a load change on the shared machine
touches all of them); each run is a fresh ``python`` process, so that its peak memory is its own:
``peak RSS`` is the largest high-water mark of the process or of any one of its workers (``getrusage``),
``peak PSS`` the largest sum over it and its descendants, sampled every 0.1 s (forked workers share pages;
PSS divides them fairly). Seconds are those of the training call, reading the corpus included, imports not;
``CPU seconds`` are its user + system time, of all its threads and its finished workers (on a machine shared
with other work they move less than the wall seconds, which wait for a CPU).

Sizes: 10 MB (the corpus file) at vocab 5,000; with ``--big``, 100 MB at 32,000, built from the corpus
repeated ten times, copy k with its ASCII letters rotated by k mod 4 (4 variants: about 4x the distinct
pre-tokens, as Heaps' law gives a real corpus 10x the size; plain repetition would keep the 10 MB
table).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"
SPECIAL = "<|endoftext|>"
GPT2_SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""  # tiktoken's gpt2
LLAMA3_SPLIT = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
SPLITS = {"gpt2": GPT2_SPLIT, "llama3": LLAMA3_SPLIT}
"""The split regexes by bpe_core's names for them; the child reads its choice from ``BENCH_PATTERN``."""
TRAINERS = ["bpe_core.train", "before", "bpe_core.train_files", "hf", "hf.memory", "rustbpe", "bpeasy", "sentencepiece"]


def documents(path: Path, chunk_chars: int = 1 << 20):
    """The file's documents (separated by ``<|endoftext|>``), streamed: as nanochat feeds rustbpe from its
    shards, never the whole corpus in memory at once."""
    pending = ""
    with open(path, encoding="utf-8") as source:
        while chunk := source.read(chunk_chars):
            *complete, pending = (pending + chunk).split(SPECIAL)
            yield from complete
    yield pending


def import_trainer(name: str) -> None:
    """Import what a trainer runs on, before its clock starts: a session imports a library once, and its
    import time (bpe_core ~0.2 s, the peers' a few ms) is not training."""
    if name == "before":  # the other checkout's bpe_core, ahead of this one's
        sys.path.insert(0, os.environ["BENCH_BEFORE"])
    hf = ["peers", "tokenizers"]
    modules = {"hf": hf, "hf.memory": hf, "rustbpe": ["rustbpe"], "bpeasy": ["bpeasy"]}
    for module in modules.get(name, ["sentencepiece"] if name == "sentencepiece" else ["bpe_core"]):
        __import__(module)


def train_one(name: str, path: Path, vocab: int) -> int:
    """Train one way (its modules imported by :func:`import_trainer`); the vocabulary size it reached."""
    pattern = os.environ.get("BENCH_PATTERN", "gpt2")
    split = SPLITS[pattern]
    if name in ("bpe_core.train", "before"):
        import bpe_core

        text = path.read_text(encoding="utf-8")
        return len(bpe_core.train(text, vocab, special_tokens=[SPECIAL], pattern=pattern).vocab)
    if name == "bpe_core.train_files":
        import bpe_core

        return len(bpe_core.train_files(path, vocab, special_tokens=[SPECIAL], pattern=pattern).vocab)
    hf_split = None if pattern == "gpt2" else split  # ByteLevel's own regex is GPT-2's
    if name == "hf":
        from peers import hf_train_file

        return hf_train_file(path, vocab, hf_split)
    if name == "hf.memory":
        from peers import documents as in_memory_documents
        from peers import hf_train_iterator

        text = path.read_text(encoding="utf-8")
        return hf_train_iterator(in_memory_documents(text), vocab, hf_split)
    if name == "rustbpe":
        import rustbpe

        tokenizer = rustbpe.Tokenizer()
        tokenizer.train_from_iterator(documents(path), vocab - 1, pattern=split)
        return tokenizer.vocab_size + 1
    if name == "bpeasy":
        import bpeasy

        return len(bpeasy.train_bpe(documents(path), split, 128, vocab - 1)) + 1
    if name == "sentencepiece":
        import sentencepiece

        with tempfile.TemporaryDirectory() as folder:
            sentencepiece.SentencePieceTrainer.train(
                input=str(path),
                model_prefix=f"{folder}/m",
                model_type="bpe",
                vocab_size=vocab,
                user_defined_symbols=[SPECIAL],
                num_threads=os.cpu_count(),
                minloglevel=2,
            )
            return Path(f"{folder}/m.vocab").read_text(encoding="utf-8").count("\n")
    raise ValueError(f"unknown trainer {name!r}; the trainers are {TRAINERS}")


def pss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return 0.0


def run_child(name: str, path: Path, vocab: int, timeout: float) -> dict:
    """One training in a fresh process: its seconds, peak RSS and peak PSS of its process tree."""
    from room_support import descendants

    command = [sys.executable, __file__, "--child", name, str(path), str(vocab)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    peak = [0.0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.1):
            peak[0] = max(peak[0], sum(map(pss_mb, [child.pid, *descendants(child.pid)])))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    output = ""
    try:
        output, _ = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
    done.set()
    sampler.join()
    if not output:
        return {"seconds": None, "pss": peak[0], "error": f"failed after {time.monotonic() - started:.0f} s"}
    result = json.loads(output.strip().splitlines()[-1])
    return {
        "seconds": result["seconds"],
        "cpu": result["cpu"],
        "vocab": result["vocab"],
        "rss": result["maxrss"],
        "pss": peak[0],
    }


def child_main(name: str, path: Path, vocab: int) -> None:
    import resource

    def cpu_seconds() -> float:  # this process's threads and its finished (waited for) workers
        mine, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return mine.ru_utime + mine.ru_stime + workers.ru_utime + workers.ru_stime

    import_trainer(name)
    cpu_before = cpu_seconds()
    started = time.perf_counter()
    reached = train_one(name, path, vocab)
    seconds = time.perf_counter() - started
    cpu = cpu_seconds() - cpu_before
    usage = max(own_peak_kb(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "vocab": reached, "maxrss": usage / 1024}))


def own_peak_kb() -> int:
    """This process's peak RSS in KB since it started its program. Not ``getrusage(RUSAGE_SELF).ru_maxrss``: Linux
    carries that over ``exec`` from the forked copy of the bench, so with the 100 MB corpus built (171 MB) every
    trainer's peak read at least 171 MB. ``VmHWM`` is the peak of this program's own memory."""
    import resource

    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def big_corpus(source: Path, folder: Path, megabytes: int = 100) -> Path:
    """``megabytes`` MB: the source ten times over, copy k with ASCII letters rotated by k mod 4."""
    text = source.read_text(encoding="utf-8")
    lower, upper = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    path = folder / f"corpus{megabytes}m.txt"
    with open(path, "w", encoding="utf-8") as sink:
        written, copy = 0, 0
        while written < megabytes * 10**6:
            k = copy % 4
            rotate = str.maketrans(lower + upper, lower[k:] + lower[:k] + upper[k:] + upper[:k])
            part = text.translate(rotate).replace(SPECIAL.translate(rotate), SPECIAL)
            part = part[: megabytes * 10**6 - written]
            sink.write(part)
            written += len(part.encode("utf-8"))
            copy += 1
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--vocab", type=int, default=5_000, help="the vocabulary of the --corpus run")
    parser.add_argument("--pattern", choices=sorted(SPLITS), default="gpt2")
    parser.add_argument("--before", type=Path, help="a checkout whose bpe_core.train runs as the trainer 'before'")
    parser.add_argument("--big", action="store_true", help="also 100 MB at 32,000 (slow here: minutes a run)")
    parser.add_argument("--big-only", action="store_true", help="only 100 MB at 32,000")
    parser.add_argument("--only", nargs="+", choices=TRAINERS, default=[name for name in TRAINERS if name != "before"])
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a run is given up")
    parser.add_argument("--scaling", action="store_true", help="then run bench/scaling.py")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not args.corpus.exists():
        sys.exit(f"{args.corpus} not found")
    os.environ["BENCH_PATTERN"] = args.pattern  # the children read it
    if args.before is not None:
        os.environ["BENCH_BEFORE"] = str(args.before.resolve())
    elif "before" in args.only:
        sys.exit("the trainer 'before' needs --before DIR")
    report = []
    with tempfile.TemporaryDirectory() as folder:
        settings = [] if args.big_only else [(args.corpus, args.vocab)]
        if args.big or args.big_only:
            settings.append((big_corpus(args.corpus, Path(folder)), 32_000))
        for path, vocab in settings:
            megabytes = path.stat().st_size / 10**6
            runs: dict[str, list[dict]] = {name: [] for name in args.only}
            for _ in range(args.rounds):
                for name in args.only:
                    runs[name].append(run_child(name, path, vocab, args.timeout))
                    print(f"  {megabytes:.0f} MB / {vocab}: {name}: {runs[name][-1]}", file=sys.stderr)
            report.append({"MB": megabytes, "vocab": vocab, "runs": runs})
            print(
                f"\n{megabytes:.0f} MB, vocab {vocab:,}, {args.pattern}, {args.rounds} rounds (median, range); "
                f"{os.cpu_count()} CPUs, "
                f"load {os.getloadavg()[0]:.1f}"
            )
            print("| trainer | seconds | CPU seconds | peak RSS MB | peak PSS MB (with workers) | vocab |")
            print("|---|---:|---:|---:|---:|---:|")
            for name, results in runs.items():
                good = [result for result in results if result["seconds"] is not None]
                if not good:
                    print(f"| {name} | {results[-1].get('error')} | | | | |")
                    continue
                seconds = [result["seconds"] for result in good]
                cpu = [result["cpu"] for result in good]
                print(
                    f"| {name} | {statistics.median(seconds):.2f} ({min(seconds):.2f}-{max(seconds):.2f}) "
                    f"| {statistics.median(cpu):.2f} ({min(cpu):.2f}-{max(cpu):.2f}) "
                    f"| {statistics.median(r['rss'] for r in good):.0f} "
                    f"| {statistics.median(r['pss'] for r in good):.0f} "
                    f"| {good[-1]['vocab']} |"
                )
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    if args.scaling:
        subprocess.run([sys.executable, str(ROOT / "bench" / "scaling.py")], check=True)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child_main(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]))
    else:
        main()
