"""How ``runtime.jobs`` runs jobs: a FIFO queue, at most ``workers`` job processes, one watching thread.

The watching thread starts every job process (from a spare it keeps ready), reads the frames each
sends back (``runtime.jobs.process``), enforces the time budget, and reaps processes when their pipe
closes. Callers' threads only queue, poll, wait, and kill. See ``runtime.jobs`` for the whole story.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import IO, Any

from runtime.jobs import process as job_process
from runtime.jobs import zygote
from runtime.jobs.process import JobProcess
from runtime.jobs.status import (
    CANCELLED,
    DONE,
    FAILED,
    QUEUED,
    RUNNING,
    JobCancelled,
    JobHandle,
    JobStatus,
    JobStopped,
    Limits,
)


class _Task:
    """A job as the runner tracks it (the caller holds a ``Job`` that points here)."""

    def __init__(self, payload: bytes) -> None:
        self.payload: bytes | None = payload
        self.path = list(sys.path)  # the child needs it to import fn by name
        self.state = QUEUED
        self.done = self.total = 0
        self.started = self.ended = 0.0
        self.process: JobProcess | None = None
        self.buffer = bytearray()
        self.answer: tuple[bytes, bytes] | None = None
        self.stop_reason: str | None = None
        self.abandoned = False
        self.error: BaseException | None = None
        self.finished = threading.Event()
        self.value_lock = threading.Lock()
        self.value: Any = None


def _process(task: _Task) -> tuple[JobProcess, IO[bytes]]:
    """A started job's process, and the pipe it writes its frames to (``job_process.launch`` always opens it)."""
    if task.process is None or task.process.stdout is None:
        raise RuntimeError(f"the job has no process pipe to read (it is {task.state})")
    return task.process, task.process.stdout


class Job(JobHandle):
    """The handle of a job in a local process (:class:`JobHandle`)."""

    _task: _Task  # this runner's own record (the base class knows only what every runner's record has)

    @property
    def pid(self) -> int | None:
        """The job's process id once it has started (it leads its own process group)."""
        return self._task.process.pid if self._task.process else None

    def _value(self, task: _Task, timeout: float | None) -> Any:
        if task.answer is not None:  # unpickled once
            task.value, task.answer = pickle.loads(task.answer[1]), None
        return task.value


class JobRunner:
    """Runs jobs in processes, at most ``limits.workers`` at once; one thread watches them all."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._lock = threading.Lock()
        self._queue: deque[_Task] = deque()
        self._running: list[_Task] = []
        self._spare: JobProcess | None = None
        self._zygote: zygote.Zygote | None = None
        self._forking = zygote.AVAILABLE
        self._closed = False
        self._wake_r, self._wake_w = os.pipe()
        # Every job process is started by this one thread, so that a job dies with the server
        # (PR_SET_PDEATHSIG follows the starting thread, and Streamlit's script threads are brief).
        self._thread = threading.Thread(target=self._watch, name="bpe-jobs", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Job:
        """Queue ``fn(*args, **kwargs)`` to run in a job process; returns its handle at once."""
        if getattr(fn, "__module__", None) == "__main__":
            raise ValueError(
                f"{getattr(fn, '__name__', fn)!r} is defined in __main__ (under Streamlit: the page "
                "script), which a job process cannot import; define it in a module (ui/...)"
            )
        try:
            payload = pickle.dumps((fn, args, kwargs), pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            raise TypeError(
                "a job's function must be a module-level function and its arguments plain data, "
                f"so that they pickle: {error}"
            ) from None
        task = _Task(payload)
        with self._lock:
            if self._closed:
                raise RuntimeError("this JobRunner is closed")
            self._queue.append(task)
        self._wake()
        return Job(self, task)

    def close(self) -> None:
        """Kill every job and the spare process, and stop the watching thread."""
        with self._lock:
            self._closed = True
            tasks = list(self._queue) + self._running
        for task in tasks:
            self._stop(task, "cancelled")
        self._wake()
        self._thread.join()

    def __enter__(self) -> JobRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        # Only now: a handle's finalizer may still wake a closed runner, and a closed fd number
        # can be reused by the next open() (every finalizer holds the runner, so none is left).
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    # -- called from the callers' threads -------------------------------------------------------

    def _status(self, task: _Task) -> JobStatus:
        with self._lock:
            position = self._queue.index(task) + 1 if task.state == QUEUED else None
            end = task.ended or time.monotonic()
            return JobStatus(task.state, task.done, task.total, position, end - task.started if task.started else 0.0)

    def _stop(self, task: _Task, reason: str) -> None:
        with self._lock:
            if task.state == QUEUED:
                self._queue.remove(task)
                self._finish(task, CANCELLED, JobCancelled(reason))
            elif task.state == RUNNING and task.stop_reason is None:
                task.stop_reason = reason
                job_process.kill(task.process)  # reaped by the watcher, which sees the pipe close

    def _abandon(self, task: _Task) -> None:
        # Runs in whatever thread collects the handle, maybe the watcher holding the lock: flag only.
        task.abandoned = True
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b".")

    # -- the watching thread --------------------------------------------------------------------

    def _watch(self) -> None:
        try:
            self._watch_until_closed()
        except BaseException as error:  # a bug here must not leave callers waiting forever
            with self._lock:
                self._closed = True
                for task in [*self._queue, *self._running]:
                    job_process.kill(task.process)
                    self._finish(task, FAILED, JobStopped(f"stopped: the job runner failed ({error!r})"))
                self._queue.clear()
            raise
        finally:
            job_process.kill(self._spare)
            if self._zygote is not None:
                self._zygote.close()

    def _watch_until_closed(self) -> None:
        while True:
            with self._lock:
                if self._closed and not self._running:
                    break
                self._start_queued()
                running = list(self._running)
            for task in [task for task in running + list(self._queue) if task.abandoned]:
                self._stop(task, "cancelled")
            deadlines = [task.started + self.limits.seconds for task in running]
            timeout = max(0.0, min([*deadlines, time.monotonic() + 1.0]) - time.monotonic())
            pipes = [(task, _process(task)[1].fileno()) for task in running]
            readable, _, _ = select.select([self._wake_r, *(fd for _, fd in pipes)], [], [], timeout)
            if self._wake_r in readable:
                os.read(self._wake_r, 4096)
            for task, fd in pipes:
                if fd in readable:
                    self._read(task)
                if time.monotonic() - task.started > self.limits.seconds:
                    self._stop(task, f"stopped: took longer than {self.limits.seconds:g} s")
        if self._spare is not None:
            job_process.kill(self._spare)
            self._spare.communicate()  # reap it, and close its pipes

    def _start_queued(self) -> None:
        while self._queue and len(self._running) < self.limits.workers:
            task = self._queue.popleft()
            spare = self._spare
            process = spare if spare is not None and spare.poll() is None else self._launch()
            self._spare = None
            task.process, task.state, task.started = process, RUNNING, time.monotonic()
            os.set_blocking(_process(task)[1].fileno(), False)
            header = (task.path, self.limits.memory_mb * 2**20, self.limits.seconds)
            threading.Thread(target=job_process.feed, args=(process, header, task.payload), daemon=True).start()
            task.payload = None
            self._running.append(task)
        if not self._closed and (self._spare is None or self._spare.poll() is not None):
            self._spare = self._launch()

    def _launch(self) -> JobProcess:
        # Forked from this runner's zygote (started here, in the watching thread, so that it dies with it): the
        # imports every job needs are done once. A fresh interpreter where forking is not possible, and from the
        # first time a zygote failed on (not one more zygote a job).
        if self._forking and self._zygote is None:
            self._zygote = zygote.Zygote()
        if self._zygote is not None:
            try:
                return self._zygote.fork()
            except OSError:
                self._zygote.close()
                self._zygote, self._forking = None, False
        return job_process.launch()

    def _read(self, task: _Task) -> None:
        process, pipe = _process(task)
        data = os.read(pipe.fileno(), 1 << 20)
        if data:
            task.buffer += data
            for kind, body in job_process.take_frames(task.buffer):
                if kind == b"p":
                    task.done, task.total = job_process.PROGRESS.unpack(body)
                else:
                    task.answer = (kind, body)
            return
        with self._lock:  # the pipe closed: the process is ending, and nobody may kill its pid after this
            job_process.kill(task.process)  # whatever the job left in its process group
            returncode = process.wait()
            pipe.close()
            self._running.remove(task)
            self._finish(task, *self._outcome(task, returncode))

    def _outcome(self, task: _Task, returncode: int) -> tuple[str, BaseException | None]:
        kind, body = task.answer if task.answer else (None, b"")
        if task.stop_reason == "cancelled":
            return CANCELLED, JobCancelled("cancelled")
        if task.stop_reason is not None:
            return FAILED, JobStopped(task.stop_reason)
        if kind == b"r":
            return DONE, None
        if kind == b"e":
            return FAILED, job_process.load_error(body)
        if kind == b"m":
            return FAILED, JobStopped(f"stopped: used more than {self.limits.memory_mb:,} MB")
        ended = f"signal {signal.Signals(-returncode).name}" if returncode < 0 else f"exit code {returncode}"
        return FAILED, JobStopped(f"stopped: the job process ended unexpectedly ({ended})")

    def _finish(self, task: _Task, state: str, error: BaseException | None) -> None:
        task.state, task.error, task.ended = state, error, time.monotonic()
        if error is not None:
            task.answer = None
        task.finished.set()
