"""What a job is, as its callers see it: its states, its status while a page waits, the limits a
runner applies, how a stopped job is reported, and the handle a caller holds (:class:`JobHandle`). How jobs run
is ``runtime.jobs.runner`` (local processes) and ``runtime.jobs.cluster`` (Dask).
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from typing import Any, Protocol

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINISHED = frozenset({DONE, FAILED, CANCELLED})


class JobStopped(Exception):
    """The job was stopped before it finished: by its memory cap, its time budget, or a crash."""


class JobCancelled(JobStopped):
    """The job was cancelled by its owner (or its owner went away)."""


@dataclass(frozen=True)
class Limits:
    """How many jobs run at once, and what each may use."""

    workers: int
    memory_mb: int
    seconds: float


@dataclass(frozen=True)
class JobStatus:
    """What a page shows while it waits: the state, progress, and place in the queue."""

    state: str  # queued, running, done, failed or cancelled
    done: int  # progress reported by the job (0 until it reports)
    total: int
    position: int | None  # 1 = next to start; None once started
    seconds: float  # running time so far (0 while queued)

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total > 0 else 0.0

    @property
    def finished(self) -> bool:
        return self.state in FINISHED


class _Task(Protocol):
    """What a handle reads of a runner's record of its job."""

    finished: threading.Event
    error: BaseException | None
    value_lock: threading.Lock


class _Runner(Protocol):
    def _status(self, task: Any) -> JobStatus: ...
    def _stop(self, task: Any, reason: str) -> None: ...
    def _abandon(self, task: Any) -> None: ...


class JobHandle:
    """What a caller holds for a submitted job, wherever it runs: its status, a wait, its result, Cancel. Use it as
    a context manager: leaving the block stops the job. A runner's handle says how its result arrives
    (:meth:`_value`)."""

    def __init__(self, runner: _Runner, task: _Task) -> None:
        self._runner, self._task = runner, task
        # The session that held this handle is gone (or forgot it): stop the work it asked for.
        weakref.finalize(self, runner._abandon, task)

    def poll(self) -> JobStatus:
        return self._runner._status(self._task)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the job has finished (True) or timeout seconds have passed (False)."""
        return self._task.finished.wait(timeout)

    def result(self, timeout: float | None = None) -> Any:
        """The job's return value; or its exception, JobStopped, JobCancelled, or TimeoutError."""
        task = self._task
        if not task.finished.wait(timeout):
            raise TimeoutError(f"the job has not finished after {timeout} s")
        if task.error is not None:
            raise task.error
        with task.value_lock:  # in the caller's thread, and only once
            return self._value(task, timeout)

    def _value(self, task: Any, timeout: float | None) -> Any:
        raise NotImplementedError

    def cancel(self) -> None:
        """Stop the job (its process killed, or taken out of the queue); no-op once finished."""
        self._runner._stop(self._task, "cancelled")

    def __enter__(self) -> JobHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cancel()
