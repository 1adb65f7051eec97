"""What runs on a Dask worker for ``runtime.jobs.cluster``: the job, and the ``progress`` it receives; and
the client's connection, checked to find this project on the cluster.

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
CONNECT_SECONDS = 10


def cancel_flag(job: str) -> str:
    """The name of the job's ``distributed.Event``: set means stop."""
    return f"bpe-job-cancel-{job}"


def takes_progress(fn: Callable[..., Any]) -> bool:
    try:
        return "progress" in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # builtins without a signature
        return False


def connect(address: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, once the scheduler and every worker are seen
    to import this project (else RuntimeError): the scheduler unpickles each task, so it imports this
    module, and a worker the job's function too. Said here, once, rather than by the first job: a worker
    that cannot unpickle a task ends itself, and the job waits for another."""
    from distributed import Client

    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except OSError as error:
        raise RuntimeError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        check_cluster(client, address)
    except BaseException:
        client.close()
        raise
    return client


def check_cluster(client: Any, address: str, worker_modules: tuple[str, ...] = (__name__,)) -> None:
    """RuntimeError unless the scheduler finds this module and every worker ``worker_modules`` (the runner checks
    each job function's own module the first time it submits one: this package knows no caller by name)."""
    from importlib.util import find_spec

    try:
        found = [client.run_on_scheduler(find_spec, __name__)]
        for name in worker_modules:
            found.extend(client.run(find_spec, name).values())
    except ImportError as error:
        found = [None]
        reason = f" ({error})"
    else:
        reason = ""
    if None in found:
        raise RuntimeError(
            f"the Dask cluster at {address} cannot import this project{reason}: its scheduler and "
            "every worker need it installed, or its folder on PYTHONPATH"
        )


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
