"""Long computations (training, a custom regex) in separate processes that can be bounded and killed.

A Streamlit server runs every session's script in a thread of one process: training there shares
one core with the whole room, keeps its memory after the session ends, and cannot be stopped (a
regex stuck inside the C engine never returns to Python). Here each job runs in its own process:

- at most ``workers`` jobs run at once; further submissions wait in one FIFO queue (first come,
  first served, whichever session they come from);
- cancelling kills the job's process group with SIGKILL, so the CPU stops at once for any input;
- a job is also killed when its handle is garbage-collected (its session is gone), when it runs
  longer than ``seconds``, and its address space is capped at ``memory_mb`` (RLIMIT_AS); it then
  fails with ``JobStopped("stopped: took longer than 300 s")`` or ``"stopped: used more than
  4,096 MB"``;
- the result, or the exception (same type and message), comes back pickled, and the memory the
  job used goes back to the system with its process.

Beyond one machine: with ``BPE_DASK_SCHEDULER=tcp://host:8786`` set, ``default_runner()`` (so training)
runs jobs on that Dask cluster (``runtime.jobs.cluster``: same handle, same endings, cancel within ~0.25 s
through the job's ``progress``). Only a function taking ``progress`` can be stopped there; the rest (the
custom-regex check) runs on ``local_runner()``, whose kill stops any code at once.

Limits come from the environment, read in ``limits_from_env`` only:

==================== =====================================================================
BPE_JOB_WORKERS      jobs running at once (default: the cores this process may use)
BPE_JOB_MEMORY_MB    address-space cap per job (default: min(4,096, RAM / (workers + 1)))
BPE_JOB_SECONDS      time budget per job, counted from its start (default: 300)
BPE_DASK_SCHEDULER   a Dask scheduler for default_runner(); workers and memory are then the cluster's
==================== =====================================================================

Start method: every job is a process of its own, forked from the runner's zygote (``runtime.jobs.zygote``: a
fresh interpreter, started by ``subprocess``, i.e. fork+exec, safe in a threaded server, that has imported
``bpe_core`` and numpy once), so a job starts in milliseconds without paying ~0.4 s of CPU for its imports;
where forking is not possible, a fresh interpreter with them preloaded, one kept waiting as a spare.
``multiprocessing``'s spawn and forkserver are not
used: under Streamlit, ``sys.modules["__main__"]`` is the page script, which they run again in
every child (~0.5 s and the whole page per job, measured). ``fn`` must therefore be importable by
name: a module-level function of a module other than ``__main__`` (``bpe_core.train``,
``playground.trained.train_job``).
If ``fn`` takes a parameter named ``progress`` (as ``bpe_core.train`` does), the job passes it a
``progress(done, total)`` that reports back here.

From a page: Cancel (a button: its click reruns the script), a rerun and the end of the session
all make Streamlit raise inside the next ``st`` call, here ``bar.progress``; ``run_with_progress``
then kills the job before the exception goes on::

    bar = st.progress(0.0, text="Training…")
    st.button("Cancel")
    show = lambda status: bar.progress(status.fraction, text=f"{status.state}, {status.position or ''}")
    try:
        trained = jobs.run_with_progress(train_job, (text, request), show)
    except (jobs.JobStopped, ValueError, TypeError) as error:  # limits, a crash; bad settings
        st.error(str(error))

Call ``release_memory()`` after dropping a big corpus or result (a cache evicted), and
``release_memory_every(30)`` once at startup: the memory of ended sessions then goes back too.

>>> import bpe_core
>>> with JobRunner(Limits(workers=1, memory_mb=1024, seconds=60)) as runner:
...     runner.submit(bpe_core.train, "aaabdaaabac", 259).result(timeout=60).merges
[(b'a', b'a'), (b'aa', b'a'), (b'aaa', b'b')]
"""

from __future__ import annotations

import ctypes
import gc
import os
import threading
import time
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from runtime.jobs.cluster import ClusterJob, ClusterRunner
from runtime.jobs.runner import Job, JobRunner
from runtime.jobs.status import (
    CANCELLED,
    DONE,
    FAILED,
    FINISHED,
    QUEUED,
    RUNNING,
    JobCancelled,
    JobStatus,
    JobStopped,
    Limits,
)
from runtime.lru import expire_all

__all__ = [
    "CANCELLED",
    "DONE",
    "FAILED",
    "FINISHED",
    "QUEUED",
    "RUNNING",
    "ClusterJob",
    "ClusterRunner",
    "Job",
    "JobCancelled",
    "JobRunner",
    "JobStatus",
    "JobStopped",
    "Limits",
    "default_runner",
    "limits_from_env",
    "local_runner",
    "release_memory",
    "release_memory_every",
    "run_with_progress",
    "submit",
    "trim_heap",
]


def limits_from_env(environ: Mapping[str, str] = os.environ) -> Limits:
    """The limits from BPE_JOB_WORKERS, BPE_JOB_MEMORY_MB and BPE_JOB_SECONDS, or the defaults.

    >>> limits_from_env({"BPE_JOB_WORKERS": "3", "BPE_JOB_MEMORY_MB": "500", "BPE_JOB_SECONDS": "60"})
    Limits(workers=3, memory_mb=500, seconds=60.0)
    """
    workers = _positive(environ, "BPE_JOB_WORKERS", int, len(os.sched_getaffinity(0)))
    ram_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    memory_mb = _positive(environ, "BPE_JOB_MEMORY_MB", int, min(4096, ram_mb // (workers + 1)))
    return Limits(workers, memory_mb, _positive(environ, "BPE_JOB_SECONDS", float, 300.0))


def _positive(environ: Mapping[str, str], name: str, kind: type, default: Any) -> Any:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        value = 0
    if not 0 < value < float("inf"):
        what = "whole number" if kind is int else "number"
        raise ValueError(f"{name}={raw!r} is not allowed: it must be a positive {what}")
    return value


_default: JobRunner | None = None
_cluster: ClusterRunner | None = None
_singletons_lock = threading.Lock()


def default_runner() -> JobRunner | ClusterRunner:
    """Where training runs: the Dask cluster at ``BPE_DASK_SCHEDULER`` when set, else ``local_runner()``."""
    global _cluster
    address = os.environ.get("BPE_DASK_SCHEDULER", "").strip()
    if not address:
        return local_runner()
    with _singletons_lock:
        if _cluster is None:
            _cluster = ClusterRunner(address, limits_from_env())
        return _cluster


def local_runner() -> JobRunner:
    """The process-wide local runner, with ``limits_from_env()``; created (and its spare started) on first use.
    For jobs that must stay here whatever ``BPE_DASK_SCHEDULER`` says: those a cluster could not stop."""
    global _default
    with _singletons_lock:
        if _default is None:
            _default = JobRunner(limits_from_env())
        return _default


def submit(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Job | ClusterJob:
    """``default_runner().submit(fn, *args, **kwargs)``."""
    return default_runner().submit(fn, *args, **kwargs)


def run_with_progress(
    fn: Callable[..., Any],
    args: tuple = (),
    on_progress: Callable[[JobStatus], None] | None = None,
    *,
    kwargs: dict[str, Any] | None = None,
    poll_interval: float = 0.2,
    runner: JobRunner | ClusterRunner | None = None,
) -> Any:
    """Run fn in a job, calling ``on_progress(status)`` every ``poll_interval`` s until it ends.

    Returns fn's result or raises its exception (or JobStopped). Any exception while waiting --
    from ``on_progress`` too, such as Streamlit's StopException or RerunException when the user
    clicks Cancel, reruns, or the session ends -- kills the job before it propagates. Streamlit
    raises those only inside its own calls, so ``on_progress`` should call one every time (say,
    ``bar.progress(...)``), even when the status has not changed.
    """
    with (runner or default_runner()).submit(fn, *args, **(kwargs or {})) as job:
        while not job.wait(poll_interval):
            if on_progress is not None:
                on_progress(job.poll())
        if on_progress is not None:
            on_progress(job.poll())
        result = job.result()
    trim_heap()  # the result's bytes (megabytes for a big tokenizer) are free now: hand their pages back
    return result


@cache
def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


def trim_heap() -> bool:
    """Hand the heap's free pages back to the system (glibc ``malloc_trim``; a few ms), without collecting.

    A job's result arrives as one big buffer that is freed once unpickled; without this the server's RSS would
    keep its pages until the next :func:`release_memory` (a room of 30 at vocab 32,000: ~5 MB a person)."""
    libc = _libc()
    return bool(libc is not None and hasattr(libc, "malloc_trim") and libc.malloc_trim(0))


def release_memory() -> bool:
    """Collect garbage and hand freed heap pages back to the system (glibc ``malloc_trim``).

    Call it when a session ends or a cache drops a corpus. True when memory was returned. Caches first drop
    what was not used for their idle time (``runtime.lru.expire_all``).
    """
    expire_all()
    gc.collect()
    return trim_heap()


_releaser: threading.Thread | None = None


def release_memory_every(seconds: float = 30.0) -> threading.Thread:
    """Call :func:`release_memory` every ``seconds`` from a background thread, started once per process.

    Streamlit has no hook for a session's end, and it forgets closed sessions lazily (when the next
    one closes), so a timer is what reliably hands their memory back: with training in job
    processes, a 50 MiB upload left +16 MB in the server with it, +316 MB without (bench/memory.py).
    """
    global _releaser
    with _singletons_lock:
        if _releaser is None:
            _releaser = threading.Thread(target=_release_forever, args=(seconds,), name="bpe-release", daemon=True)
            _releaser.start()
        return _releaser


def _release_forever(seconds: float) -> None:
    while True:
        time.sleep(seconds)
        release_memory()
