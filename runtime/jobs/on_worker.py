"""What runs on a Dask worker for ``runtime.jobs.cluster``: the job, and the ``progress`` it receives.

No client state here: the worker knows its job by id, reports on the runner's event topic, and reads the
job's cancel flag (a ``distributed.Event``) on the scheduler. ``distributed`` is imported in the functions,
so this module imports without it.
"""

from __future__ import annotations

import inspect
import pickle
import time
from collections.abc import Callable
from typing import Any

from bpe_core import TrainingCancelled
from runtime.jobs.status import JobStopped

PROGRESS_EVERY = 0.05  # seconds between progress events, as a local job's: the page polls every ~0.2 s
CHECK_EVERY = 0.02  # seconds between reads of the cancel flag: at most 50 round trips (~0.5 ms each) a second


def cancel_flag(job: str) -> str:
    """The name of the job's ``distributed.Event``: set means stop."""
    return f"bpe-job-cancel-{job}"


def takes_progress(fn: Callable[..., Any]) -> bool:
    try:
        return "progress" in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # builtins without a signature
        return False


class _WorkerProgress:
    """The ``progress(done, total)`` a job's function receives on the worker: it reports (at most every
    50 ms), and it is where the job stops when cancelled or over its time budget."""

    def __init__(self, job: str, topic: str, seconds: float) -> None:
        from distributed import Event, get_worker

        self.job, self.topic, self.seconds = job, topic, seconds
        self.worker = get_worker()
        self.flag = Event(cancel_flag(job))
        self.started = time.monotonic()
        self.sent = self.checked = float("-inf")

    def check(self) -> None:
        now = time.monotonic()
        if now - self.checked >= CHECK_EVERY:
            self.checked = now
            if self.flag.is_set():
                raise TrainingCancelled("cancelled")  # the caller has reported it already; nobody reads this
        if now - self.started > self.seconds:
            raise JobStopped(f"stopped: took longer than {self.seconds:g} s")

    def __call__(self, done: int, total: int) -> None:
        self.check()
        now = time.monotonic()
        if done >= total or now - self.sent >= PROGRESS_EVERY:
            self.sent = now
            self.worker.log_event(self.topic, {"job": self.job, "done": int(done), "total": int(total)})


def run_on_worker(job: str, topic: str, payload: bytes, seconds: float) -> Any:
    """A job, on a worker: say it runs, run it with a :class:`_WorkerProgress`, return its result."""
    progress = _WorkerProgress(job, topic, seconds)
    progress.check()  # cancelled while on its way here
    progress.worker.log_event(topic, {"job": job})  # running
    fn, args, kwargs = pickle.loads(payload)
    try:
        return fn(*args, **{**kwargs, "progress": progress})
    except MemoryError:
        raise JobStopped("stopped: ran out of memory on its Dask worker") from None
    except Exception as error:
        try:  # as a local job's: itself if it loads back, else its name and message
            pickle.loads(pickle.dumps(error, pickle.HIGHEST_PROTOCOL))
        except Exception:
            raise RuntimeError(f"{type(error).__name__}: {error}") from None
        raise
