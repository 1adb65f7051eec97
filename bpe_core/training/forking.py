"""Forked workers for :mod:`.sharded`: start them, watch them, and share a counter with them.

Forking is safe where :mod:`.counting` forks (it says when); a child dies with its parent
(``PR_SET_PDEATHSIG``), never returns into the caller's code and leaves by ``os._exit``, so it
flushes no inherited buffers and runs no ``atexit`` or ``finally`` of the parent.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import struct
import time
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1

POLL_SECONDS = 0.05
"""How often the parent looks at its children (and calls ``poll``) while they run."""


class Ledger:
    """Shared by the workers: the next range to claim, and the bytes read so far, in a memory file
    under a POSIX record lock (see ``counting._Parts``)."""

    def __init__(self, ranges: int):
        self._fd = os.memfd_create("bpe-count-ranges")
        os.pwrite(self._fd, struct.pack("qqq", 0, ranges, 0), 0)

    def _change(self, change: Callable[[int, int, int], tuple[int, int, int]]) -> tuple[int, int, int]:
        import fcntl

        fcntl.lockf(self._fd, fcntl.LOCK_EX)
        try:
            before = struct.unpack("qqq", os.pread(self._fd, 24, 0))
            os.pwrite(self._fd, struct.pack("qqq", *change(*before)), 0)
            return before
        finally:
            fcntl.lockf(self._fd, fcntl.LOCK_UN)

    def claim(self) -> int | None:
        """The next range no worker has claimed, or None."""
        next_range, ranges, _ = self._change(lambda first, end, read: (min(first + 1, end), end, read))
        return next_range if next_range < ranges else None

    def add_bytes(self, count: int) -> None:
        self._change(lambda first, end, read: (first, end, read + count))

    def bytes_read(self) -> int:
        return struct.unpack("qqq", os.pread(self._fd, 24, 0))[2]

    def close(self) -> None:
        os.close(self._fd)


def run_forked(works: dict[int, Callable[[], None]], poll: Callable[[], None]) -> dict[int, int]:
    """Run each work in a forked child at once; their exit statuses (0: it finished) once all have ended.

    ``poll()`` is called here while they run; an exception from it kills them and propagates.
    """
    pids = {key: fork(work) for key, work in works.items()}
    statuses: dict[int, int] = {}
    try:
        while len(statuses) < len(pids):
            for key, pid in pids.items():
                if key not in statuses:
                    ended, status = os.waitpid(pid, os.WNOHANG)
                    if ended:
                        statuses[key] = status
            poll()
            if len(statuses) < len(pids):
                time.sleep(POLL_SECONDS)
    finally:
        for key, pid in pids.items():
            if key not in statuses:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
    return statuses


def fork(work: Callable[[], None]) -> int:
    import ctypes  # here, not at the top: only processes that fork need it

    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: work, and leave without running any of the parent's code
        status = 1
        try:
            gc.disable()  # it would touch every inherited object, copying their pages, to free none
            with contextlib.suppress(OSError, AttributeError):
                ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() == parent:  # else the parent died before the death signal was set
                work()
                status = 0
        finally:
            os._exit(status)
    return pid
