"""A job process of ``runtime.jobs``: how it is started, fed and killed, what runs in it, what it sends back.

A job process is started (:func:`launch`) as ``python -c "...; _child_main(<server pid>)"``: a
fresh interpreter (no fork of the threaded server; the server's ``__main__`` is never imported),
in a session of its own, so that :func:`kill` reaches every process it starts; or forked, in a session of
its own too, from a runner's zygote (``runtime.jobs.zygote``), which then runs :func:`serve_one_job` the same way.
It preloads ``bpe_core`` and numpy, then waits on stdin for two pickles: the header ``(sys.path, memory cap in bytes,
seconds)`` and the job ``(fn, args, kwargs)``. It answers on a private copy of its stdout with
frames: 8-byte big-endian length, 1 kind byte, body:

==== ======================================================================
kind body
==== ======================================================================
p    progress: two signed 64-bit integers (done, total)
r    the result, pickled
e    an exception: pickled ``(exception or None, type name, message)``
m    nothing: the job ran out of memory under its cap (MemoryError)
==== ======================================================================

No streamlit here, and nothing here imports ``runtime.jobs``.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import inspect
import os
import pickle
import resource
import signal
import struct
import subprocess
import sys
import time
from typing import IO, Any, BinaryIO, Protocol

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRELOAD = ("bpe_core", "numpy")
"""Imported while the process waits for a job, so a job starts at once. numpy too: the first encode of a
text (a trained tokenizer's statistics) takes its batch path, and importing numpy then was two thirds of a
small training job's CPU (0.09 of 0.14 s on the Compare page's linked sample, measured)."""
HEADER = struct.Struct(">Q")
PROGRESS = struct.Struct(">qq")
PROGRESS_EVERY = 0.05  # seconds between progress messages: the page polls every ~0.2 s
ORPHAN_GRACE = 10  # seconds past its budget after which a job whose server died kills itself
PR_SET_PDEATHSIG = 1


def send(channel: BinaryIO, kind: bytes, body: bytes = b"") -> None:
    channel.write(HEADER.pack(len(body) + 1) + kind)
    channel.write(body)
    channel.flush()


def take_frames(buffer: bytearray) -> list[tuple[bytes, bytes]]:
    """Remove the complete frames at the start of buffer; return them as (kind, body).

    >>> buffer = bytearray(HEADER.pack(3) + b"rab" + HEADER.pack(5))
    >>> take_frames(buffer), bytes(buffer) == HEADER.pack(5)
    ([(b'r', b'ab')], True)
    """
    frames = []
    start = 0
    with memoryview(buffer) as view:  # one copy of each body (a result can be hundreds of MB)
        while len(view) - start >= HEADER.size:
            (length,) = HEADER.unpack_from(view, start)
            kind_at, end = start + HEADER.size, start + HEADER.size + length
            if len(view) < end:
                break
            frames.append((bytes(view[kind_at : kind_at + 1]), bytes(view[kind_at + 1 : end])))
            start = end
    del buffer[:start]
    return frames


def pickle_error(error: BaseException) -> bytes:
    """The exception pickled so that it loads back as itself, else its type name and message."""
    with contextlib.suppress(Exception):
        body = pickle.dumps((error, None, None), pickle.HIGHEST_PROTOCOL)
        pickle.loads(body)  # some exception classes pickle but cannot be rebuilt
        return body
    return pickle.dumps((None, type(error).__name__, str(error)), pickle.HIGHEST_PROTOCOL)


def load_error(body: bytes) -> BaseException:
    """The exception a job raised (same type and message), from a kind ``e`` body."""
    try:
        error, name, message = pickle.loads(body)
    except Exception as problem:  # the class may not exist in this process
        return RuntimeError(f"the job failed, and its error could not be read back: {problem}")
    return error if error is not None else RuntimeError(f"{name}: {message}")


class _ProgressSender:
    """The ``progress(done, total)`` a job's function receives; sends at most every 50 ms."""

    def __init__(self, channel: BinaryIO) -> None:
        self.channel = channel
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done >= total or now - self.last >= PROGRESS_EVERY:
            self.last = now
            send(self.channel, b"p", PROGRESS.pack(done, total))


class JobProcess(Protocol):
    """What the runner uses of a job process: a fresh interpreter (``subprocess.Popen``, :func:`launch`) or one
    forked from a zygote (``runtime.jobs.zygote.ForkedJob``)."""

    pid: int
    returncode: int | None

    @property
    def stdin(self) -> IO[bytes] | None: ...

    @property
    def stdout(self) -> IO[bytes] | None: ...

    def poll(self) -> int | None: ...

    def wait(self) -> int: ...

    def communicate(self) -> tuple[Any, Any]: ...


def launch() -> subprocess.Popen[bytes]:
    """A new job process, waiting on its stdin for a job (started from runtime.jobs' watching thread)."""
    code = (
        f"import sys; sys.path.insert(0, {ROOT!r}); "
        f"from runtime.jobs.process import _child_main; _child_main({os.getpid()})"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
    )


def feed(process: JobProcess, header: tuple, payload: bytes) -> None:
    # A thread of its own: a 100 MB corpus takes a while to go through the pipe.
    stdin = process.stdin
    if stdin is None:
        raise ValueError("the job process was started without a pipe on its stdin (start it with launch())")
    with contextlib.suppress(OSError):  # the job was killed meanwhile
        stdin.write(pickle.dumps(header, pickle.HIGHEST_PROTOCOL))
        stdin.write(payload)
        stdin.close()


def kill(process: JobProcess | None) -> None:
    if process is not None and process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # start_new_session: the group id is the pid


def _takes_progress(fn: Any) -> bool:
    try:
        return "progress" in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # builtins without a signature
        return False


def die_with_parent(parent_pid: int) -> None:
    """SIGKILL this process when the thread that started it ends, even inside C code (runtime.jobs starts every
    job, and every zygote, from one long-lived thread: so when the server process dies)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


def _child_main(server_pid: int) -> None:
    """Entry point of a job process (see the module docstring)."""
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # the job's own prints go to the server's log, never into the channel
    die_with_parent(server_pid)
    preload()
    serve_one_job(sys.stdin.buffer, channel)


def preload() -> None:
    """Import what every job needs, before the job arrives."""
    # BPE does no linear algebra. Without this, importing numpy starts OpenBLAS threads, and a killed job's
    # main thread shows as a zombie while another thread still holds the pipe open: gone, yet not yet
    # reported cancelled (tests/test_jobs.py's cancel test failed about half the time). A forking job
    # starter (runtime.jobs.zygote) must also stay one thread.
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    for name in PRELOAD:
        importlib.import_module(name)


def serve_one_job(stdin: BinaryIO, channel: BinaryIO) -> None:
    """Read the header and the job from ``stdin``, run it under its limits, answer on ``channel``."""
    try:
        path, memory_bytes, seconds = pickle.load(stdin)
    except EOFError:  # a spare process nobody needed: the server closed its stdin
        return
    sys.path[:] = list(dict.fromkeys(path + sys.path))
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    # If the server is gone (no one to kill this job), the default SIGALRM action ends it.
    signal.alarm(int(seconds) + ORPHAN_GRACE)
    out_of_memory = False
    try:
        fn, args, kwargs = pickle.load(stdin)
        if _takes_progress(fn):
            kwargs = {**kwargs, "progress": _ProgressSender(channel)}
        body = pickle.dumps(fn(*args, **kwargs), pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        out_of_memory = True  # answered below, once the except block has freed the frames
    except BaseException as error:
        send(channel, b"e", pickle_error(error))
        return
    if out_of_memory:
        send(channel, b"m")
    else:
        send(channel, b"r", body)
