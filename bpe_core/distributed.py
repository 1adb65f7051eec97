"""Pre-token counting on a Dask cluster (``pip install "bpe-playground[dask]"``); optional.

Counting is the part of training that grows with the corpus, and it splits cleanly: the blocks
of ``corpus.text_blocks`` end only where no special token or pre-token crosses, so each worker
counts its blocks alone and the sums are exactly the counts of one machine. The merges, which
need all the counts, then run here as usual.

The client reads the files and sends each block to a worker; at most ``2 x workers`` blocks
are in flight, so memory stays bounded here too. With no scheduler address a ``LocalCluster``
is started, and stopped afterwards. Its worker processes are spawned, which re-imports the
calling script: a script that uses Dask must guard its entry point with
``if __name__ == "__main__":`` (the command line does).

>>> from bpe_core.corpus import train_files
>>> settings = DaskSettings(workers=1, processes=False)  # doctest: +SKIP
>>> train_files("data/*.txt", 32_000, dask=settings)  # doctest: +SKIP
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from .pretokenize import count_pretokens


@dataclass(frozen=True)
class DaskSettings:
    """Where to count: a running scheduler, or a ``LocalCluster`` of this many workers."""

    scheduler: str | None = None
    """Address of a running scheduler, e.g. ``tcp://10.0.0.5:8786``; None starts a LocalCluster."""
    workers: int = 2
    """Workers of the LocalCluster (ignored with ``scheduler``), one thread each."""
    processes: bool = True
    """LocalCluster workers as processes (parallel) or threads in this process (for tests)."""

    def __post_init__(self) -> None:
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1:
            raise ValueError(f"Dask workers must be a positive int, not {self.workers!r}")


@contextmanager
def _client(settings: DaskSettings) -> Iterator:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RuntimeError('counting on Dask needs the dask extra: pip install "dask[distributed]"') from None
    if settings.scheduler is not None:
        with Client(settings.scheduler) as client:
            yield client
        return
    with (
        LocalCluster(
            n_workers=settings.workers,
            threads_per_worker=1,
            processes=settings.processes,
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def _sum_counts(first: Counter[str], second: Counter[str]) -> Counter[str]:
    """Add the smaller count table into the larger one (the cost is the smaller one's size)."""
    if len(first) < len(second):
        first, second = second, first
    first.update(second)
    return first


def count_on_dask(
    blocks: Iterable[str], pattern: str | None, special_tokens: Iterable[str], settings: DaskSettings
) -> Counter[str]:
    """Pre-token counts of the blocks, each counted on a worker; equal to ``corpus.count_blocks``.

    Adding one Counter to another is a Python loop over its distinct pre-tokens, too slow for the
    client to do once per block: the workers add counts up two by two as they arrive, and the
    client receives only the total.
    """
    from distributed import as_completed

    specials = list(special_tokens)
    with _client(settings) as client:
        in_flight = 2 * max(1, len(client.scheduler_info()["workers"]))
        queue = iter(blocks)

        counting: set = set()

        def count_next() -> bool:
            block = next(queue, None)
            if block is not None:
                future = client.submit(count_pretokens, block, pattern, specials, pure=False)
                counting.add(future)
                running.add(future)
            return block is not None

        running = as_completed()
        while len(counting) < in_flight and count_next():
            pass
        waiting = None  # a finished total with nothing yet to add it to
        for future in running:
            if future in counting:
                counting.discard(future)
                count_next()  # one block counted: read the next, so at most in_flight are in memory
            if waiting is None:
                waiting = future
            else:
                running.add(client.submit(_sum_counts, waiting, future, pure=False))
                # The sum's task keeps these futures referenced; released here, each block and
                # partial count is dropped as soon as the sum has run, not when counting ends.
                waiting.release()
                future.release()
                waiting = None
        return Counter() if waiting is None else waiting.result()
