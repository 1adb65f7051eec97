"""Jobs on a Dask cluster: what ``runtime.jobs.default_runner()`` gives when ``BPE_DASK_SCHEDULER`` is set.

:class:`ClusterRunner` has :class:`runtime.jobs.JobRunner`'s interface (``submit`` returns a handle with
``poll``, ``wait``, ``result``, ``cancel``, a context manager), and its jobs end the same way: their result,
their exception (same type and message), ``JobStopped`` or ``JobCancelled``. How each part travels:

- the job: ``(fn, args, kwargs)`` is pickled here, so exactly what a local job refuses is refused here too
  (a lambda, a function of ``__main__``); a payload over 1 MB (a corpus) is scattered to the cluster first,
  which keeps it out of the task graph. The scheduler unpickles the task and the worker ``fn``: both need
  the project importable (installed, or on ``PYTHONPATH``), which connecting checks.
- progress: the worker's ``progress(done, total)`` logs an event (``Worker.log_event``, no round trip) at
  most every 50 ms on a topic of this runner; the scheduler pushes it to this client, whose handler updates
  the job. The job's first event says it is running (queued → running). ``position`` counts only this
  server's queued jobs ahead: the cluster's other clients are not seen.
- cancel: Dask cannot stop a task's thread, so ``cancel()`` sets a ``distributed.Event`` of the job and
  cancels its future (a job not started never starts); the worker's ``progress`` reads the flag (one
  round trip, ~0.5 ms, at most every 20 ms) and raises ``bpe_core.TrainingCancelled``. ``bpe_core.train``
  calls ``progress`` at least every 0.25 s in counting and merging, so the CPU stops within about that
  (measured 0.05-0.45 s), except in the stretches that call no progress: ``pattern=None``'s engine build
  (up to 2.8 s on 2 MB) and ``train_classic``'s word split (0.4 s on 5 MB).
  A function without ``progress`` could not be stopped: :meth:`ClusterRunner.submit` refuses it (run it
  with ``runtime.jobs.local_runner()``, whose kill stops any code).
- the time budget (``limits.seconds``): the worker's ``progress`` raises ``JobStopped`` past it, and a
  thread here stops a job it has seen running longer. Memory is the cluster's business (each worker's
  ``memory_limit``); a worker that dies (killed at its limit, or a crash) ends its job in ``JobStopped``.
- a handle garbage-collected (its session is gone) cancels its job, as locally.

``distributed`` is imported only when a runner is made, so this module imports without it.
"""

from __future__ import annotations

import contextlib
import logging
import pickle
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from runtime.jobs.on_worker import cancel_flag, check_cluster, connect, run_on_worker, takes_progress
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

SCATTER_BYTES = 1 << 20  # payloads above this go to the cluster before the task (Dask warns of big graphs)
FORGET_FLAG_AFTER = 60.0  # seconds a stopped job's flag stays set (its worker reads it within ~0.25 s)

log = logging.getLogger(__name__)


class _Task:
    """A job as the runner tracks it (the caller holds a ``ClusterJob`` that points here)."""

    def __init__(self, job: str) -> None:
        self.id = job
        self.state = QUEUED
        self.done = self.total = 0
        self.started = self.ended = 0.0
        self.worker: str | None = None
        self.future: Any = None  # distributed.Future; dropped once finished, which frees it on the cluster
        self.error: BaseException | None = None
        self.abandoned = False
        self.finished = threading.Event()
        self.value_lock = threading.Lock()
        self.fetched, self.value = False, None


class ClusterJob(JobHandle):
    """The handle of a job on Dask (:class:`JobHandle`). Leaving its ``with`` block cancels it: its worker stops
    within ~0.25 s (see the module docstring)."""

    pid = None  # the job runs in a thread of a worker process elsewhere: there is no process of its own
    _task: _Task  # this runner's own record (the base class knows only what every runner's record has)

    @property
    def worker(self) -> str | None:
        """The address of the worker running the job, once it has started."""
        return self._task.worker

    def _value(self, task: _Task, timeout: float | None) -> Any:
        if not task.fetched:  # fetched from the worker once
            try:
                task.value = task.future.result(timeout=timeout)
            except TimeoutError:
                raise
            except Exception as error:  # lost with its worker, say, or a class this server lacks
                raise JobStopped(f"stopped: the result could not be fetched from the cluster ({error!r})") from None
            task.fetched, task.future = True, None
        return task.value


class ClusterRunner:
    """Runs jobs on the Dask scheduler at ``address``; ``limits.seconds`` bounds each (workers and memory:
    the cluster's). A thread here stops jobs over their time budget and jobs whose handle was dropped."""

    def __init__(self, address: str, limits: Limits) -> None:
        self.limits, self.address = limits, address
        self.client = connect(address)
        self._topic = f"bpe-jobs-{uuid.uuid4().hex}"  # this runner's progress events, and no one else's
        self._lock = threading.Lock()  # never held across a call to the cluster (the event handler needs it)
        self._tasks: dict[str, _Task] = {}  # unfinished jobs, in the order they were submitted
        self._forget: list[tuple[float, str]] = []  # (when, job): cancel flags to remove from the scheduler
        self._closed = threading.Event()
        self._checked_modules: set[str] = set()  # job functions' modules every worker was seen to import
        self.client.subscribe_topic(self._topic, self._on_event)
        self._thread = threading.Thread(target=self._watch, name="bpe-cluster-jobs", daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> ClusterJob:
        """Queue ``fn(*args, **kwargs)`` on the cluster; returns its handle at once. ``fn`` must take
        ``progress``: it is how the job learns it is cancelled (see the module docstring)."""
        name = getattr(fn, "__name__", repr(fn))
        if getattr(fn, "__module__", None) == "__main__":
            raise ValueError(
                f"{name!r} is defined in __main__ (under Streamlit: the page script), which a "
                "worker cannot import; define it in a module (playground/...)"
            )
        if not takes_progress(fn):
            raise ValueError(
                f"{name!r} takes no progress callback, so on Dask it could not be cancelled or stopped "
                "at its time budget; run it with runtime.jobs.local_runner()"
            )
        module = getattr(fn, "__module__", None)
        if module and module not in self._checked_modules:  # a worker that cannot unpickle a task ends itself
            check_cluster(self.client, self.address, worker_modules=(module,))
            self._checked_modules.add(module)
        try:
            payload: Any = pickle.dumps((fn, args, kwargs), pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            raise TypeError(
                "a job's function must be a module-level function and its arguments plain data, "
                f"so that they pickle: {error}"
            ) from None
        if self._closed.is_set():
            raise RuntimeError("this ClusterRunner is closed")
        task = _Task(uuid.uuid4().hex)
        if len(payload) > SCATTER_BYTES:
            try:
                payload = self.client.scatter(payload, hash=False)
            except TimeoutError:  # no worker is running: scatter gives up after the client's timeout (10 s)
                raise JobStopped("stopped: the Dask cluster has no worker running to take the job") from None
        with self._lock:
            self._tasks[task.id] = task
        task.future = self.client.submit(
            run_on_worker,
            task.id,
            self._topic,
            payload,
            self.limits.seconds,
            key=f"bpe-{name}-{task.id}",
            pure=False,
        )
        task.future.add_done_callback(lambda future: self._on_done(task, future))
        return ClusterJob(self, task)

    def close(self) -> None:
        """Cancel every unfinished job, stop the watching thread and disconnect."""
        with self._lock:
            tasks = list(self._tasks.values())
        for task in tasks:
            self._stop(task, "cancelled")
        self._closed.set()
        self._thread.join()
        with contextlib.suppress(Exception):
            self.client.unsubscribe_topic(self._topic)
        self.client.close()

    def __enter__(self) -> ClusterRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- called from the callers' threads -------------------------------------------------------

    def _status(self, task: _Task) -> JobStatus:
        with self._lock:
            position = None
            if task.state == QUEUED and task.id in self._tasks:
                ahead = [other for other in self._tasks.values() if other.state == QUEUED]
                position = ahead.index(task) + 1
            end = task.ended or time.monotonic()
            return JobStatus(task.state, task.done, task.total, position, end - task.started if task.started else 0.0)

    def _stop(self, task: _Task, reason: str) -> None:
        future = task.future
        if reason == "cancelled":
            ended = self._finish(task, CANCELLED, JobCancelled(reason))
        else:
            ended = self._finish(task, FAILED, JobStopped(reason))
        if not ended:
            return
        # Set even for a job that looks queued: it may have started, its first event still on the way.
        task.future = None
        try:
            from distributed import Event

            Event(cancel_flag(task.id), client=self.client).set()
            if future is not None:  # None only while submit has yet to send it (close() meanwhile)
                future.cancel()
        except Exception as error:  # the scheduler is gone, and the job with it
            log.warning("could not cancel job %s on the cluster: %r", task.id, error)
        with self._lock:
            self._forget.append((time.monotonic() + FORGET_FLAG_AFTER, task.id))

    def _abandon(self, task: _Task) -> None:
        # Runs in whatever thread collects the handle, maybe one holding a lock: flag only.
        task.abandoned = True

    def _finish(self, task: _Task, state: str, error: BaseException | None) -> bool:
        """Record how the job ended, once; False if it had ended already."""
        with self._lock:
            if task.finished.is_set():
                return False
            task.state, task.error, task.ended = state, error, time.monotonic()
            if state == DONE and task.total > 0:
                task.done = task.total  # the last progress event may come after the result
            self._tasks.pop(task.id, None)
            task.finished.set()
        return True

    # -- called by the client's threads ---------------------------------------------------------

    def _on_event(self, event: tuple[float, dict[str, Any]]) -> None:
        # On the client's event loop: quick, and no calls to the cluster from here.
        _, message = event
        with self._lock:
            task = self._tasks.get(message.get("job", ""))
            if task is None:
                return
            if task.state == QUEUED:
                task.state, task.started, task.worker = RUNNING, time.monotonic(), message.get("worker")
            if "done" in message:
                task.done, task.total = message["done"], message["total"]

    def _on_done(self, task: _Task, future: Any) -> None:
        if task.finished.is_set():  # stopped from here: cancelled, over its budget, or abandoned
            return
        if future.status == "finished":
            self._finish(task, DONE, None)
            return
        try:
            error = future.exception() if future.status == "error" else None
        except Exception as problem:
            error = RuntimeError(f"the job failed, and its error could not be read back: {problem!r}")
        from distributed import KilledWorker

        if error is None:
            error = JobStopped(f"stopped: the Dask cluster dropped the job ({future.status})")
        elif isinstance(error, KilledWorker):
            # Dask's message names the task and links its docs; the page needs what happened.
            error = JobStopped(
                "stopped: the Dask worker running the job died (killed at its memory_limit, or it "
                "crashed: the worker's log says which)"
            )
        if self._finish(task, FAILED, error):
            task.future = None  # frees the error on the cluster

    # -- the watching thread --------------------------------------------------------------------

    def _watch(self) -> None:
        while not self._closed.wait(0.1):
            try:
                self._check()
            except Exception:  # a failed round trip must not end the watching
                log.exception("checking the cluster's jobs failed")

    def _check(self) -> None:
        now = time.monotonic()
        budget = self.limits.seconds
        with self._lock:
            tasks = list(self._tasks.values())
            forget = [job for when, job in self._forget if when <= now]
            self._forget = [(when, job) for when, job in self._forget if when > now]
        for task in tasks:
            if task.abandoned:
                self._stop(task, "cancelled")
            elif task.state == RUNNING and now - task.started > budget:
                self._stop(task, f"stopped: took longer than {budget:g} s")
        if forget:
            from distributed import Event

            for job in forget:
                Event(cancel_flag(job), client=self.client).clear()  # frees it on the scheduler
