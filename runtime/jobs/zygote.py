"""Job processes forked from one waiting process that has already imported ``bpe_core`` and numpy.

Starting a fresh interpreter for every job costs ~0.4 s of CPU (importing ``bpe_core`` and numpy) before the job
does anything; a room of 30 training at once pays it 30 times on the server's cores, and a page that trains a
few small tokenizers pays it more than the training itself. Instead, each ``JobRunner`` starts one *zygote*
(``python -c "..._zygote_main(...)"``, a fresh interpreter, never a fork of the threaded server) that imports
what every job needs and then waits on a Unix socket. For each job the runner sends it the two ends of the
job's pipes (``socket.send_fds``); the zygote forks, and the child -- one thread, the imports already done,
shared copy-on-write -- runs ``process.serve_one_job`` exactly as a fresh job process would: its own session
(so ``kill`` reaches every process it starts), its memory cap, its time budget, the same frames back.

The zygote is the child's parent, so it reaps it, when the runner asks (``wait``): until then the job's pid
stays taken, so ``kill`` never reaches a stranger that reused it. The zygote dies with the runner's watching
thread (``PR_SET_PDEATHSIG``), and every job with the zygote. Where any of this is missing (no
``socket.send_fds``, not Linux), or the zygote is gone, :func:`runtime.jobs.process.launch` starts a fresh
interpreter as before.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
from typing import IO, BinaryIO

from runtime.jobs import process as job_process

_REQUEST = struct.Struct(">cq")  # b"F" (fork: two fds attached) or b"W" (wait for that pid); the pid
_ANSWER = struct.Struct(">q")  # the new pid, or the wait status as an exit code (negative: the signal)
AVAILABLE = sys.platform.startswith("linux") and hasattr(socket, "send_fds")


class ForkedJob:
    """A job process forked by a :class:`Zygote`, with the parts of ``subprocess.Popen`` the runner uses."""

    def __init__(self, zygote: Zygote, pid: int, stdin: IO[bytes], stdout: IO[bytes]) -> None:
        self.zygote, self.pid, self.stdin, self.stdout = zygote, pid, stdin, stdout
        self.returncode: int | None = None

    def poll(self) -> int | None:
        # Not reaped before ``wait``: a spare that died shows it by closing its pipe when a job is fed to it.
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            self.returncode = self.zygote.reap(self.pid)
        return self.returncode

    def communicate(self) -> tuple[None, None]:
        for pipe in (self.stdin, self.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
        self.wait()
        return None, None


class Zygote:
    """The waiting process of one runner; call it only from the runner's watching thread."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        code = (
            f"import sys; sys.path.insert(0, {job_process.ROOT!r}); "
            f"from runtime.jobs.zygote import _zygote_main; _zygote_main({os.getpid()}, {theirs.fileno()})"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.DEVNULL, pass_fds=[theirs.fileno()], start_new_session=True
        )
        theirs.close()
        self.control = ours
        self.lock = threading.Lock()  # one request and its answer at a time

    def fork(self) -> ForkedJob:
        """A new job process, waiting on its stdin for a job; ``OSError`` if the zygote is gone."""
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        try:
            pid = self._ask(b"F", 0, [stdin_r, stdout_w])
        except OSError:
            for fd in (stdin_r, stdin_w, stdout_r, stdout_w):
                os.close(fd)
            raise
        os.close(stdin_r)
        os.close(stdout_w)
        return ForkedJob(self, pid, os.fdopen(stdin_w, "wb"), os.fdopen(stdout_r, "rb"))

    def reap(self, pid: int) -> int:
        try:
            return self._ask(b"W", pid, [])
        except OSError:  # the zygote is gone, and with it (PR_SET_PDEATHSIG) its children
            return -signal.SIGKILL

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.control.close()
        self.process.kill()
        self.process.wait()

    def _ask(self, kind: bytes, pid: int, fds: list[int]) -> int:
        with self.lock:
            socket.send_fds(self.control, [_REQUEST.pack(kind, pid)], fds)
            answer = self.control.recv(_ANSWER.size)
        if len(answer) != _ANSWER.size:
            raise OSError("the job starter (zygote) is gone")
        (value,) = _ANSWER.unpack(answer)
        return value


def _zygote_main(server_pid: int, control_fd: int) -> None:
    """Entry point of the zygote: import, then fork a job process or reap one per request, until the socket closes."""
    job_process.die_with_parent(server_pid)
    job_process.preload()
    control = socket.socket(fileno=control_fd)
    zygote_pid = os.getpid()
    while True:
        message, fds, _flags, _address = socket.recv_fds(control, _REQUEST.size, 2)
        if len(message) != _REQUEST.size:
            return  # the runner closed the socket (or died): the jobs die with this process
        kind, pid = _REQUEST.unpack(message)
        if kind == b"W":
            answer = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        else:
            answer = os.fork()
            if answer == 0:
                _job_child(zygote_pid, control, fds)  # never returns
            for fd in fds:
                os.close(fd)
        control.send(_ANSWER.pack(answer))


def _job_child(zygote_pid: int, control: socket.socket, fds: list[int]) -> None:
    code = 1
    try:
        control.close()
        os.setsid()  # its own process group, as start_new_session gives a fresh job process
        job_process.die_with_parent(zygote_pid)
        stdin_fd, channel_fd = fds
        os.dup2(stdin_fd, 0)
        os.close(stdin_fd)
        os.dup2(2, 1)  # the job's own prints go to the server's log, never into the channel
        stdin: BinaryIO = os.fdopen(0, "rb")
        channel: BinaryIO = os.fdopen(channel_fd, "wb")
        job_process.serve_one_job(stdin, channel)
        channel.flush()
        code = 0
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)  # never back into the zygote's loop
