"""Counting the pre-tokens of a text for training, on every core this process may use.

The regex is most of the time of counting (docs10m: 0.5 s of 0.7 s) and the text splits
cleanly: cut where no special token and no pre-token crosses (:mod:`bpe_core.pretokenize.cuts`), the
counts of the parts add up to exactly the counts of the whole. So a big text is cut into parts
of about ``PART_CHARS``, and this process and one ``os.fork`` child per other core take them one
at a time, this process from the front, the children from the back, until they meet: a process
that gets less CPU than the others takes fewer parts, and none waits long for another. When the
machine's CPUs are busy altogether, a child only takes CPU time from this process (measured here:
1.1-1.5x the time of one process), so counting then stays in one process (``cpu_contended``).

Why fork, and only fork: a child inherits the text (nothing is pickled on the way in) and
starts at once, without re-importing the caller's ``__main__`` (a spawned pool re-ran unguarded
scripts, and cost more than it gained). Only the counts come back, through a pipe. A child never
calls the progress callback, never returns into the caller's code and leaves by ``os._exit``,
so it flushes no inherited buffers and runs no ``atexit`` or ``finally`` of the parent.

When counting stays in this process:
- the platform has no ``fork``, or is not Linux (macOS system libraries are not fork-safe);
- another Python thread is running: it may hold a lock (logging, an import, a buffered file)
  that the child would then wait for forever. Threads of C libraries that never call into
  Python (a Rust thread pool, say) hold no lock the child needs: glibc's ``fork`` keeps malloc
  consistent, and the child runs only the regex, ``Counter`` and ``pickle``;
- this process may use one core only (``os.sched_getaffinity``), the machine's CPUs are busy
  already (``cpu_contended``), or the text is short (below ``PARALLEL_MIN_CHARS``, forking
  costs more than it saves).

A child that fails (out of memory, say) costs time, not correctness: its part is counted here.
Cancelling (an exception from ``on_chunk``) kills the children before it propagates; a job
process killed by its process group (``runtime.jobs.process.kill``) takes its children with it, and a
child also dies with its parent (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import struct
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable

try:
    import fcntl
except ImportError:  # Windows: counting stays in this process
    HAVE_FCNTL = False
else:
    HAVE_FCNTL = True

from ..pretokenize import compile_pattern, count_pretokens, last_safe_cut

PARALLEL_MIN_CHARS = 1 << 21
"""Texts shorter than this are counted in this process (2 MB: a fork and the counts' way back
cost ~20 ms, about what a second core saves on that much text)."""

PART_CHARS = 1 << 19
"""Size of the parts the processes take one at a time: small enough that a process starved of
CPU by other work on the machine holds back little, big enough that taking one costs nothing."""

CONTENDED_PERCENT = 25.0
"""Count in one process when runnable tasks waited for a CPU this share of the last 10 s (the
kernel's pressure stall information). Measured on this 2-core machine busy with other work
(43-69 %): 2 processes took 1.2-1.4x the time of one, since the child only competed with
this process for the same CPU; on an idle machine a second core halves the regex's time."""

COUNT_PROCESSES: int | None = None
"""Processes that count one text (this one included); None: one per core this process may use."""

_PR_SET_PDEATHSIG = 1


def count_text(
    text: str,
    pattern: str | None,
    special_tokens: Iterable[str] = (),
    *,
    on_chunk: Callable[[int, int], None] | None = None,
    counts: Counter[str] | None = None,
) -> Counter[str]:
    """The pre-token counts of ``text``, exactly those of ``count_pretokens``, in the same order.

    ``on_chunk(done, total)`` reports this process's progress (see the module docstring). With
    ``counts`` given, the text's counts are added to it and it is returned.

    >>> sorted(count_text("low low lower low", "gpt2").items())
    [(' low', 2), (' lower', 1), ('low', 1)]
    """
    specials = list(special_tokens)
    compile_pattern(pattern)  # a broken pattern fails here, before any process starts
    processes = process_count() if len(text) >= PARALLEL_MIN_CHARS else 1
    bounds = _part_bounds(text, pattern, specials) if len(text) >= PARALLEL_MIN_CHARS else [0, len(text)]
    if len(bounds) == 2:
        return count_pretokens(text, pattern, specials, on_chunk=on_chunk, counts=counts)

    counts = Counter() if counts is None else counts
    if processes == 1:  # part by part, so that the pieces count_pretokens copies out are one part's, not the text's
        for part in range(len(bounds) - 1):
            count_pretokens(text[bounds[part] : bounds[part + 1]], pattern, specials, counts=counts)
            if on_chunk is not None:
                on_chunk(part + 1, len(bounds) - 1)
        return counts
    parts = _Parts(len(bounds) - 1)
    children: list[_Child] = []
    steps = len(bounds)  # one per part, and one for the children's counts
    try:
        children = [_start_child(text, bounds, parts, pattern, specials) for _ in range(processes - 1)]
        mine = 0  # this process takes parts from the front, so its parts are 0 .. mine - 1
        while (index := parts.claim(front=True)) is not None:
            count_pretokens(text[bounds[index] : bounds[index + 1]], pattern, specials, counts=counts)
            mine = index + 1
            if on_chunk is not None:
                on_chunk(mine, steps)
        runs: dict[int, dict[str, int]] = {}  # first part of a run of parts -> their counts
        missing = set(range(mine, len(bounds) - 1))
        for child in children:
            for first, last, run in _collect(child):
                runs[first] = run
                missing.difference_update(range(first, last + 1))
        for index in missing:  # a child failed: its parts are counted here
            runs[index] = count_pretokens(text[bounds[index] : bounds[index + 1]], pattern, specials)
        # In order: keys new to the total are added in the order of their first occurrence,
        # as counting the whole text in one go adds them.
        for first in sorted(runs):
            counts.update(runs[first])
    finally:
        parts.close()
        for child in children:
            _stop(child)
    if on_chunk is not None:
        on_chunk(steps, steps)
    return counts


def _part_bounds(text: str, pattern: str | None, specials: list[str]) -> list[int]:
    """Offsets that cut text into parts of about PART_CHARS, each ending at a safe cut."""
    bounds = [0]
    for target in range(PART_CHARS, len(text) - PART_CHARS // 2, PART_CHARS):
        if target > bounds[-1]:
            cut = last_safe_cut(text[bounds[-1] : target], pattern, specials)
            if cut:
                bounds.append(bounds[-1] + cut)
    bounds.append(len(text))
    return bounds


def process_count() -> int:
    """How many processes count a big text: one per core this process may use, or one (see the docstring)."""
    if COUNT_PROCESSES is not None:
        return max(1, COUNT_PROCESSES)
    if sys.platform != "linux" or not HAVE_FCNTL or not hasattr(os, "memfd_create") or threading.active_count() > 1:
        return 1
    cores = len(os.sched_getaffinity(0))
    return 1 if cores == 1 or cpu_contended() else cores


def cpu_contended(pressure_file: str = "/proc/pressure/cpu") -> bool:
    """True when tasks on this machine already wait for a CPU: a child would take its CPU time
    from this process rather than from an idle core (``CONTENDED_PERCENT``)."""
    try:
        with open(pressure_file) as pressure:  # e.g. "some avg10=43.11 avg60=41.72 ..."
            return float(pressure.readline().split()[1].partition("=")[2]) >= CONTENDED_PERCENT
    except (OSError, IndexError, ValueError):  # a kernel without pressure information
        return os.getloadavg()[0] >= (os.cpu_count() or 1)


class _Parts:
    """Which parts of a text are taken: this process takes them from the front, children from the back.

    Two counters in a memory file, changed under a POSIX record lock: the kernel orders the
    reads and writes, and frees the lock of a process that dies holding it.
    """

    def __init__(self, count: int):
        self._fd = os.memfd_create("bpe-count-parts")
        os.pwrite(self._fd, struct.pack("qq", 0, count), 0)

    def claim(self, front: bool) -> int | None:
        """The index of a part no process has taken yet, or None when all are taken."""
        fcntl.lockf(self._fd, fcntl.LOCK_EX)
        try:
            first, end = struct.unpack("qq", os.pread(self._fd, 16, 0))
            if first >= end:
                return None
            if front:
                os.pwrite(self._fd, struct.pack("q", first + 1), 0)
                return first
            os.pwrite(self._fd, struct.pack("q", end - 1), 8)
            return end - 1
        finally:
            fcntl.lockf(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        os.close(self._fd)


_Child = list  # [pid or None once reaped, read end of its pipe or None once closed]

Run = tuple[int, int, dict[str, int]]
"""Counts of the parts first .. last, which a child counted."""


def _start_child(text: str, bounds: list[int], parts: _Parts, pattern: str | None, specials: list[str]) -> _Child:
    import ctypes  # here, not at the top: only processes that fork need it

    parent = os.getpid()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: count, send, and leave without running any of the parent's code
        status = 1
        try:
            os.close(read_end)
            gc.disable()  # it would touch every inherited object, copying their pages, to free none
            with contextlib.suppress(OSError, AttributeError):
                ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() == parent:  # else the parent died before the death signal was set
                _count_and_send(text, bounds, parts, pattern, specials, write_end)
                status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return [pid, read_end]


def _count_and_send(
    text: str, bounds: list[int], parts: _Parts, pattern: str | None, specials: list[str], channel: int
) -> None:
    """A child's work: count the parts it claims, and send their counts down the pipe."""
    counted = {}
    while (index := parts.claim(front=False)) is not None:
        counted[index] = count_pretokens(text[bounds[index] : bounds[index + 1]], pattern, specials)
    runs: list[list] = []  # neighbouring parts added up here, in order, to send less
    for index in sorted(counted):
        if runs and runs[-1][1] == index - 1:
            runs[-1][1] = index
            runs[-1][2].update(counted[index])
        else:
            runs.append([index, index, counted[index]])
    with os.fdopen(channel, "wb") as sink:
        pickle.dump([(first, last, dict(run)) for first, last, run in runs], sink, pickle.HIGHEST_PROTOCOL)


def _collect(child: _Child) -> list[Run]:
    """The counts a child sent, or none if it failed."""
    try:
        with os.fdopen(child[1], "rb") as channel:
            child[1] = None
            runs = pickle.load(channel)
    except (EOFError, pickle.UnpicklingError, OSError):
        runs = []
    _, status = os.waitpid(child[0], 0)
    child[0] = None
    return runs if status == 0 else []


def _stop(child: _Child) -> None:
    """Kill and reap a child not yet collected (training was cancelled, or failed here)."""
    if child[1] is not None:
        os.close(child[1])
    if child[0] is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child[0], signal.SIGKILL)
        os.waitpid(child[0], 0)
