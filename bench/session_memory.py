"""Bytes per merge a trained session keeps in the server: as the app keeps it now, and as the previous release did.

    python bench/session_memory.py [--corpus ../shared/corpora/docs10m.txt] [--mb 2] [--vocab 8000 32000]
                                   [--json out.json]

No browser, one process. For each vocab size, the first ``--mb`` MB (10^6 bytes) of the corpus (or, without the
file, a generated text of random words, see bench/room_support.own_text) is trained with
``playground.trained.train_job``
(byte-level, the gpt2 pattern, ``<|endoftext|>``: the Train page's defaults), untraced. Then, under
``tracemalloc`` (which sees every allocation of Python objects, and numpy's), counting what stays allocated:

- **now**: the ``Trained`` the server holds: unpickled from the bytes a job process sends back (as the app gets
  it: its ``trace`` a packed ``playground.packed_trace.PackedTrace``), the tokenizer included, after the Merges page
  has built
  its payload (``ui.merge_frames.player_payload(trained, 0)``: the columns it keeps in ``trained.extras``; the
  payload itself is sent and dropped);
- **before**: the same plus ``list(trained.trace)`` held, the plain ``MergeRecord`` objects the previous
  release kept once the Merges page had been visited (their ``bytes`` are the tokenizer's own objects here, so
  the records' share is if anything low);
- **restored**: the ``Trained`` a reload or a restart rebuilds from the store (``playground.trained.from_bytes`` of
  ``to_bytes``), after the same payload.

Bytes per merge = bytes still allocated / merges made. Also shown, as parts of *now*: the packed trace alone
and the Merges page's payload columns (now minus the same ``Trained`` before the payload); the rest is the
tokenizer (its vocabulary, merges and encode cache) and the result's small fields. What every session shares is
not counted (modules, the interpreter's cached small ints and one-byte ``bytes``): a warm-up run builds it
first. RSS differs from these figures by the allocator's slack (bench/room.py measures RSS per session).
"""

from __future__ import annotations

import argparse
import gc
import json
import pickle
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from room_support import own_text  # noqa: E402

from playground.packed_trace import PackedTrace  # noqa: E402
from playground.trained import Request, Trained, train_job  # noqa: E402
from playground.trained_codec import from_bytes, to_bytes  # noqa: E402
from runtime.store import text_digest  # noqa: E402
from ui.merge_frames import player_payload  # noqa: E402

DOCS = ROOT.parent / "shared" / "corpora" / "docs10m.txt"


def kept_bytes(make: Callable[[], object]) -> tuple[int, object]:
    """Bytes that ``make()`` leaves allocated (its result held), and the result."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = make()
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return after - before, kept


def with_payload(trained: Trained) -> Trained:
    player_payload(trained, 0)  # what the Merges page builds once; the payload itself is not kept
    return trained


def request_for(text: str, vocab: int) -> Request:
    return Request("upload", "corpus", text_digest(text), "byte", vocab, "gpt2", "gpt2", ("<|endoftext|>",))


def measure(text: str, vocab: int) -> dict:
    request = request_for(text, vocab)
    sent = pickle.dumps(train_job(text, request))  # as the job process sends it
    merges = pickle.loads(sent).num_merges
    now, trained = kept_bytes(lambda: with_payload(pickle.loads(sent)))
    unvisited, _ = kept_bytes(lambda: pickle.loads(sent))  # before the Merges page builds its payload
    packed, _ = kept_bytes(lambda: PackedTrace.from_bytes(trained.trace.to_bytes(), trained.trace.symbols))
    records, _held = kept_bytes(lambda: list(trained.trace))  # noqa: B023 (called at once)
    stored = to_bytes(trained)
    restored, _ = kept_bytes(lambda: with_payload(from_bytes(request, stored)))
    return {
        "vocab": vocab,
        "merges": merges,
        "now bytes": now,
        "before bytes": now + records,
        "restored bytes": restored,
        "now bytes per merge": now / merges,
        "before bytes per merge": (now + records) / merges,
        "records alone bytes per merge": records / merges,
        "packed trace alone bytes per merge": packed / merges,
        "Merges payload columns bytes per merge": (now - unvisited) / merges,
        "restored bytes per merge": restored / merges,
        "stored bytes per merge (before compression)": len(stored) / merges,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DOCS)
    parser.add_argument("--mb", type=float, default=2, help="MB (10^6 bytes) of the corpus to train on")
    parser.add_argument("--vocab", type=int, nargs="+", default=[8_000, 32_000])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    size = int(args.mb * 10**6)
    if args.corpus.exists():
        text, source = args.corpus.read_bytes()[:size].decode("utf-8", errors="ignore"), str(args.corpus)
    else:
        text, source = own_text(0, size), "generated words (no corpus file)"
    measure(text[:50_000], 600)  # warm-up: modules, compiled patterns, shared small objects
    print(f"{len(text):,} characters of {source}")
    print(f"{'vocab':>7s} {'merges':>7s} {'now B/merge':>12s} {'before B/merge':>15s} {'restored B/merge':>17s} "
          f"{'now MiB':>8s} {'before MiB':>11s}   of now: packed trace, Merges payload B/merge")  # fmt: skip
    rows = []
    for vocab in args.vocab:
        row = measure(text, vocab)
        rows.append(row)
        print(f"{vocab:7,d} {row['merges']:7,d} {row['now bytes per merge']:12,.0f} "
              f"{row['before bytes per merge']:15,.0f} {row['restored bytes per merge']:17,.0f} "
              f"{row['now bytes'] / 2**20:8.1f} {row['before bytes'] / 2**20:11.1f}   "
              f"{row['packed trace alone bytes per merge']:,.0f}, "
              f"{row['Merges payload columns bytes per merge']:,.0f}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps({"corpus": source, "characters": len(text), "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
