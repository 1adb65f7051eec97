"""Functions that tests/test_jobs_dask.py runs on Dask workers. A job there must take ``progress`` (it is
how a job on a cluster learns it is cancelled), so these are ``tests/job_functions.py``'s with it; a worker
imports them by name, so they live in a module of their own (importing it does not import pytest)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from job_functions import Boom, NeedsTwoArguments

Progress = Callable[[int, int], None]


def boom(message: str, progress: Progress) -> None:
    raise Boom(message)


def fail_oddly(progress: Progress) -> None:
    raise NeedsTwoArguments("the frobnicator", "out of frobs")


def spin(seconds: float, progress: Progress) -> int:
    """Use the CPU for ``seconds``, reporting every 10 ms, as training does (but more often)."""
    deadline = time.monotonic() + seconds
    steps = 0
    while time.monotonic() < deadline:
        sum(range(10_000))
        steps += 1
        if steps % 20 == 0:
            progress(steps, 1_000_000)
    return steps


def spin_until(stop: str, progress: Progress, most_seconds: float = 120) -> int:
    """As :func:`spin`, until the file ``stop`` exists (the test says when it has seen enough), at most
    ``most_seconds``: a test counting progress events depends on no clock."""
    deadline = time.monotonic() + most_seconds
    steps = 0
    while not os.path.exists(stop) and time.monotonic() < deadline:
        sum(range(10_000))
        steps += 1
        if steps % 20 == 0:
            progress(steps, 1_000_000)
    return steps


def end_worker_process(progress: Progress) -> None:
    """What a crash or the worker's memory limit does: the worker process is gone."""
    os._exit(1)


def nap(seconds: float) -> float:
    """No ``progress``: a cluster could not stop it, so it may only run locally."""
    time.sleep(seconds)
    return seconds
