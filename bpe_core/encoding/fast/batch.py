"""Many texts at once: ``Tokenizer.encode_batch`` and ``encode_ordinary_batch``, in threads or in processes.

tiktoken's ``encode_batch`` runs its Rust core in threads. Here encoding is Python, which holds the GIL, so
threads share one core: ``num_threads`` is there for the same call to work, and gives the ids of one thread
(each thread encodes its own texts through the tokenizer's shared cache; see ``_CallLookup``). ``processes``
is what uses several cores: the texts are cut into one contiguous share per process, each encoded in a child
that starts with a copy of the tokenizer (forked where the platform can, so nothing is pickled in), and the
ids come back in order. Either way the result is ``[encode(text) for text in texts]``.

>>> from bpe_core import Tokenizer
>>> tokenizer = Tokenizer({i: bytes([i]) for i in range(256)}, [], ["<s>"])
>>> encode_batch(tokenizer.encode, ["a<s>", "b"], num_threads=2)
[[97, 256], [98]]
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

Encode = Callable[[str], list[int]]

_WORKER_ENCODE: Encode | None = None  # the child's own encode function (set by _start_worker)


def check_workers(name: str, value: int | None) -> int:
    """A count of threads or processes: None means one; anything else must be a positive int."""
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer (or None for one), not {value!r}")
    return value


def encode_batch(
    encode: Encode, texts: Sequence[str], *, num_threads: int | None = None, processes: int | None = None
) -> list[list[int]]:
    """``[encode(text) for text in texts]``, in ``num_threads`` threads or ``processes`` processes (not both)."""
    if isinstance(texts, str) or not isinstance(texts, Sequence):
        raise TypeError(f"texts must be a list of strings, not {type(texts).__name__}")
    threads, workers = check_workers("num_threads", num_threads), check_workers("processes", processes)
    if threads > 1 and workers > 1:
        raise ValueError("give num_threads or processes, not both")
    texts = list(texts)
    if workers > 1 and len(texts) > 1:
        return _in_processes(encode, texts, workers)
    if threads > 1 and len(texts) > 1:
        with ThreadPoolExecutor(threads) as pool:
            return list(pool.map(encode, texts))
    return list(map(encode, texts))


def _in_processes(encode: Encode, texts: list[str], workers: int) -> list[list[int]]:
    workers = min(workers, len(texts))
    # Contiguous shares of about equal characters, so each child gets one task and the order is kept.
    total = sum(map(len, texts)) or 1
    shares: list[list[str]] = [[] for _ in range(workers)]
    done = 0
    for text in texts:
        shares[min(workers - 1, done * workers // total)].append(text)
        done += len(text)
    fork = sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if fork else "spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(encode,)) as pool:
        results = pool.map(_encode_share, [share for share in shares if share])
        return [ids for share in results for ids in share]


def _start_worker(encode: Encode) -> None:
    global _WORKER_ENCODE
    _WORKER_ENCODE = encode


def _encode_share(texts: list[str]) -> list[list[int]]:
    assert _WORKER_ENCODE is not None, "the worker was started without a tokenizer"
    return list(map(_WORKER_ENCODE, texts))


class BatchEncoding:
    """``encode_batch`` and ``encode_ordinary_batch`` for a tokenizer class that has ``encode`` and
    ``encode_ordinary`` (tiktoken's names and keywords)."""

    def encode(self, text: str) -> list[int]:
        raise NotImplementedError

    def encode_ordinary(self, text: str) -> list[int]:
        raise NotImplementedError

    def encode_batch(
        self, texts: Sequence[str], *, num_threads: int | None = None, processes: int | None = None
    ) -> list[list[int]]:
        """``[self.encode(text) for text in texts]``; ``processes=n`` encodes on n cores, ``num_threads=n`` in n
        threads of this process (one core: Python holds the GIL; see :mod:`bpe_core.encoding.fast.batch`).

        >>> from bpe_core import Tokenizer
        >>> Tokenizer({i: bytes([i]) for i in range(256)}, [], ["<s>"]).encode_batch(["a<s>", "b"], processes=2)
        [[97, 256], [98]]
        """
        return encode_batch(self.encode, texts, num_threads=num_threads, processes=processes)

    def encode_ordinary_batch(
        self, texts: Sequence[str], *, num_threads: int | None = None, processes: int | None = None
    ) -> list[list[int]]:
        """``[self.encode_ordinary(text) for text in texts]``, as :meth:`encode_batch` runs it."""
        return encode_batch(self.encode_ordinary, texts, num_threads=num_threads, processes=processes)
