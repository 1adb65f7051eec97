"""Pre-token counting on a Dask cluster (``pip install "bpe-playground[dask]"``); optional.

Counting is the part of training that grows with the corpus, and it splits cleanly: the blocks
of ``bpe_core.training.corpus.text_blocks`` end only where no special token or pre-token crosses, so each worker
counts its blocks alone and the sums are exactly the counts of one machine. The merges, which
need all the counts, then run here as usual.

The client reads the files and sends each block to a worker; at most ``2 x workers`` blocks
are in flight, so memory stays bounded here too, and each worker adds its blocks' counts into
a running total of its own, which the client collects at the end. With no scheduler address a ``LocalCluster``
is started, and stopped afterwards. Its worker processes are spawned, which re-imports the
calling script: a script that uses Dask must guard its entry point with
``if __name__ == "__main__":`` (the command line does).

>>> from bpe_core import train_files
>>> settings = DaskSettings(workers=1, processes=False)  # doctest: +SKIP
>>> train_files("data/*.txt", 32_000, dask=settings)  # doctest: +SKIP
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

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


# Each worker adds the blocks it counts into its own total, kept here (in the worker's process)
# under (run, worker address) until the client collects it: adding pre-token lists into one
# Counter runs in C, while adding Counters together is a Python loop over their entries.
_TOTALS: dict[tuple[str, str], tuple[Counter[str], list[int]]] = {}
_TOTALS_LOCK = threading.Lock()  # a worker may run several tasks at once, on threads


def _count_into_worker_total(run: str, block: str, pattern: str | None, specials: list[str]) -> None:
    from distributed import get_worker

    with _TOTALS_LOCK:
        counts, blocks_counted = _TOTALS.setdefault((run, get_worker().address), (Counter(), [0]))
        count_pretokens(block, pattern, specials, counts=counts)
        blocks_counted[0] += 1


def _collect_worker_total(run: str, dask_worker: Any) -> tuple[Counter[str], int]:
    # Dask passes its Worker here (run by Client.run); only its address is read.
    with _TOTALS_LOCK:
        counts, blocks_counted = _TOTALS.pop((run, dask_worker.address), (Counter(), [0]))
    return counts, blocks_counted[0]


def count_on_dask(
    blocks: Iterable[str], pattern: str | None, special_tokens: Iterable[str], settings: DaskSettings
) -> Counter[str]:
    """Pre-token counts of the blocks, each counted on a worker; equal to ``bpe_core.training.corpus.count_blocks``.

    Each worker keeps a running total of the blocks it counted; at the end the client collects
    the totals (one per worker) and adds them. A worker lost on the way takes its total with
    it: the blocks in the totals are checked against the blocks sent, and a shortfall is an error.
    """
    from distributed import wait

    specials = list(special_tokens)
    run = uuid.uuid4().hex
    sent = 0
    with _client(settings) as client:
        in_flight = 2 * max(1, len(client.scheduler_info()["workers"]))
        running: list = []
        for block in blocks:
            running.append(client.submit(_count_into_worker_total, run, block, pattern, specials, pure=False))
            sent += 1
            if len(running) >= in_flight:
                finished, unfinished = wait(running, return_when="FIRST_COMPLETED")
                for future in finished:
                    future.result()  # raises a task's error, if it failed
                running = list(unfinished)  # finished futures are dropped, and with them their blocks
        for future in running:
            future.result()
        totals = list(client.run(_collect_worker_total, run).values())
    if sum(blocks_counted for _, blocks_counted in totals) != sent:
        raise RuntimeError(f"a Dask worker was lost while counting: {sent} blocks sent, fewer came back")
    tables = sorted((counts for counts, _ in totals), key=len, reverse=True)
    total = tables[0] if tables else Counter()
    for counts in tables[1:]:
        total.update(counts)
    return total
