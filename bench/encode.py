"""Encoding against tiktoken, single-threaded with fresh caches, on several kinds of text; optionally against a
baseline checkout of bpe_core in the same run (before / after), interleaved.

    python bench/encode.py [--tokenizers gpt2 cl100k_base ...] [--texts docs chinese ...] [--rounds 3]
                           [--baseline /path/to/other/checkout]
    python bench/encode.py batch [--tokenizers cl100k_base] [--workers 2] [--rounds 3]

Texts: ``docs`` (``../shared/corpora/docs10m.txt``, English technical prose), ``chinese``
(``chinese_classics.txt``), ``code`` (this repository's own Python sources), ``mixed`` (the built-in parallel
sample's 21 languages, the start of each corpus, digits, emoji and combining marks, interleaved paragraph by
paragraph). Without the corpora, ``docs`` and ``chinese`` are made from the built-in parallel sample.

Each contender runs in its own process (so that two checkouts of bpe_core can be compared), started once;
per round and per (tokenizer, text) each is asked in turn, so that a busy spell of the shared machine hits all
of them alike. Our side: ``build_reference(name)`` afresh (nothing remembered), then CPU seconds of
``encode_ordinary(text)`` -- the ``first`` column, numpy tables built inside the call as a first call builds
them -- and, on another fresh tokenizer whose tables were built beforehand as tiktoken builds its own in its
constructor, the ``built`` column (the pattern's BMP twin built too, once per process, where the checkout has
one: later ``first`` calls use it as they use the compiled patterns). tiktoken's side:
``tiktoken.Encoding(name, pat_str=<the pattern>, mergeable_ranks=..., special_tokens=...).encode_ordinary``
(Qwen normalizes to NFC first: tiktoken's time includes ``unicodedata.normalize``). The ids of every call are
compared with tiktoken's. Ratios are ours / tiktoken's of the same round: the table shows their median and range.

``batch``: ``encode_ordinary_batch`` of the docs' documents: tiktoken's in ``--workers`` threads against ours
in as many processes (and threads), wall seconds, fresh tokenizers each round.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
SPECIAL = "<|endoftext|>"
TOKENIZERS = ["gpt2", "cl100k_base", "o200k_base", "llama3", "qwen2.5"]
TEXTS = ["docs", "chinese", "code", "mixed"]


def build_texts(root: Path) -> dict[str, str]:
    """The texts by label (see the module docstring); the same on every call."""
    sys.path[:0] = [str(root)]
    from bpe_core.analysis.parallel import parallel_sample

    sample = parallel_sample()
    sentences = [line for lines in sample.values() for line in lines]
    docs_path, chinese_path = CORPORA / "docs10m.txt", CORPORA / "chinese_classics.txt"
    docs = docs_path.read_text("utf-8") if docs_path.exists() else "\n".join(sample["en"]) * 2000
    chinese = chinese_path.read_text("utf-8") if chinese_path.exists() else "\n".join(sample["zh"]) * 100
    sources = sorted((root / "bpe_core").rglob("*.py")) + sorted((root / "tests").glob("*.py"))
    code = "\n".join(path.read_text("utf-8") for path in sources)
    extras = ["3.14159 2718281828 1e-9 0x1F600", "naïve café 🙂👍🏽 e\u0301 \u0915\u094d\u0937", "\t\t  \n\n   \r\n"]
    paragraphs = []
    for index, sentence in enumerate(sentences):
        paragraphs.append(sentence)
        cut = index * 400
        paragraphs.append(docs[cut : cut + 400])
        paragraphs.append(chinese[cut // 4 : cut // 4 + 100])
        paragraphs.append(code[cut : cut + 200])
        paragraphs.append(extras[index % len(extras)])
    return {"docs": docs, "chinese": chinese, "code": code, "mixed": "\n\n".join(paragraphs)}


def digest(ids: list[int]) -> str:
    return hashlib.sha1(array("q", ids).tobytes()).hexdigest()


def worker(root: str, texts_file: Path) -> None:
    """A contender: bpe_core from ``root``, or tiktoken (root "tiktoken"); answers one JSON line per request."""
    texts = pickle.loads(texts_file.read_bytes())
    sys.path[:0] = [str(ROOT) if root == "tiktoken" else root]
    import numpy  # noqa: F401 -- imported once per process, as tiktoken's own extension is: not in a timed call

    from bpe_core.reference import build_reference

    encodings = {}
    for line in sys.stdin:
        request = json.loads(line)
        name, text = request["name"], texts[request["text"]]
        if root == "tiktoken":
            import tiktoken

            if name not in encodings:
                ours = build_reference(name)
                encodings[name] = (
                    tiktoken.Encoding(
                        name,
                        pat_str=ours.pattern_regex,
                        mergeable_ranks=ours.mergeable_ranks,
                        special_tokens=ours.special_tokens,
                    ),
                    ours.normalization,
                )
            encoding, form = encodings[name]
            started = time.process_time()
            ids = encoding.encode_ordinary(unicodedata.normalize(form, text) if form else text)
            answer = {"tiktoken": time.process_time() - started, "ids": digest(ids)}
        else:
            answer = {}
            for kind in ("first", "built"):
                tokenizer = build_reference(name)
                if kind == "built":  # the tables a first call builds (those this checkout has); no pre-token cached
                    pieces = tokenizer._pieces
                    for table in ("_byte_batch", "_digit_runs", "_crossings"):
                        if hasattr(type(pieces), table):
                            getattr(pieces, table)  # a cached property
                    _build_bmp_twin(tokenizer.pattern_regex)
                started = time.process_time()
                ids = tokenizer.encode_ordinary(text)
                answer[kind] = time.process_time() - started
                answer[kind + "_ids"] = digest(ids)
        print(json.dumps(answer), flush=True)


def _build_bmp_twin(source: str | None) -> None:
    """Build the pattern's BMP twin (bpe_core.pretokenize.bmp_twin), once per process as the compiled patterns
    are, in checkouts that have one: a table built beforehand, as tiktoken compiles its regex in its constructor.
    Later ``first`` calls in the process use it too (as they use the compiled patterns)."""
    try:
        from bpe_core.pretokenize.patterns import _bmp_split  # type: ignore[attr-defined]
    except ImportError:
        return
    from bpe_core.pretokenize import is_named_pattern

    if is_named_pattern(source):
        _bmp_split(source).build()


class Contender:
    def __init__(self, root: str, texts_file: Path):
        command = [sys.executable, __file__, "--worker", root, "--texts-file", str(texts_file)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, name: str, text: str) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"name": name, "text": text}) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def _ratios(ours: list[float], theirs: list[float]) -> str:
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def bench_encode(names: list[str], labels: list[str], rounds: int, baseline: str | None) -> None:
    texts = build_texts(ROOT)
    sizes = {label: len(texts[label].encode("utf-8")) for label in labels}
    with tempfile.TemporaryDirectory() as folder:
        texts_file = Path(folder) / "texts.pickle"
        texts_file.write_bytes(pickle.dumps({label: texts[label] for label in labels}))
        roots = {"tiktoken": "tiktoken", "new": str(ROOT), **({"old": baseline} if baseline else {})}
        contenders = {label: Contender(root, texts_file) for label, root in roots.items()}
        times: dict[tuple[str, str], dict[str, list[float]]] = {}
        equal: dict[tuple[str, str], bool] = {}
        for _ in range(rounds):
            for name in names:
                for label in labels:
                    row = times.setdefault((name, label), {})
                    answers = {who: contender.ask(name, label) for who, contender in contenders.items()}
                    expected = answers["tiktoken"]["ids"]
                    row.setdefault("tiktoken", []).append(answers["tiktoken"]["tiktoken"])
                    for who in contenders.keys() - {"tiktoken"}:
                        for kind in ("first", "built"):
                            row.setdefault(f"{who} {kind}", []).append(answers[who][kind])
                            same = answers[who][kind + "_ids"] == expected
                            equal[(name, label)] = equal.get((name, label), True) and same
        for contender in contenders.values():
            contender.close()
    columns = [f"{who} {kind}" for who in ("old", "new") if who in roots for kind in ("first", "built")]
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; {rounds} rounds, CPU seconds (median);")
    print("ratio = ours / tiktoken per round: median (range)")
    print("| tokenizer | text | MB | tiktoken s | " + " | ".join(f"{c} s, ratio" for c in columns) + " | ids |")
    print("|---|---|---:|---:|" + "---:|" * len(columns) + "---|")
    for (name, label), row in times.items():
        cells = [f"{statistics.median(row[c]):.3f}, {_ratios(row[c], row['tiktoken'])}" for c in columns]
        print(
            f"| {name} | {label} | {sizes[label] / 1e6:.2f} | {statistics.median(row['tiktoken']):.3f} | "
            + " | ".join(cells)
            + f" | {'equal' if equal[(name, label)] else 'DIFFER'} |"
        )


def bench_batch(names: list[str], workers: int, rounds: int) -> None:
    import tiktoken

    sys.path[:0] = [str(ROOT)]
    from bpe_core.reference import build_reference

    documents = [doc for doc in build_texts(ROOT)["docs"].split(SPECIAL) if doc]
    print(f"| tokenizer | tiktoken threads s | ours processes s, ratio | ours threads s, ratio | ({workers} workers)")
    for name in names:
        times: dict[str, list[float]] = {"tiktoken": [], "processes": [], "threads": []}
        for _ in range(rounds):
            ours = build_reference(name)
            theirs = tiktoken.Encoding(
                name, pat_str=ours.pattern_regex, mergeable_ranks=ours.mergeable_ranks, special_tokens={}
            )
            started = time.perf_counter()
            expected = theirs.encode_ordinary_batch(documents, num_threads=workers)
            times["tiktoken"].append(time.perf_counter() - started)
            for kind in ("processes", "threads"):
                tokenizer = build_reference(name)
                started = time.perf_counter()
                keyword = "processes" if kind == "processes" else "num_threads"
                ids = tokenizer.encode_ordinary_batch(documents, **{keyword: workers})
                times[kind].append(time.perf_counter() - started)
                assert ids == expected, (name, kind)
        median = {kind: statistics.median(values) for kind, values in times.items()}
        print(
            f"| {name} | {median['tiktoken']:.2f} | {median['processes']:.2f}, "
            f"{_ratios(times['processes'], times['tiktoken'])} | {median['threads']:.2f}, "
            f"{_ratios(times['threads'], times['tiktoken'])} |"
        )


def main() -> None:
    if "--worker" in sys.argv:
        parser = argparse.ArgumentParser()
        parser.add_argument("--worker")
        parser.add_argument("--texts-file", type=Path)
        args = parser.parse_args()
        worker(args.worker, args.texts_file)
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", choices=["encode", "batch"], default="encode")
    parser.add_argument("--tokenizers", nargs="+", default=TOKENIZERS)
    parser.add_argument("--texts", nargs="+", default=TEXTS, choices=TEXTS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="another checkout of this repository, timed in the same run")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.what == "batch":
        bench_batch(args.tokenizers, args.workers, args.rounds)
    else:
        bench_encode(args.tokenizers, args.texts, args.rounds, args.baseline)


if __name__ == "__main__":
    main()
