"""Functions that tests/test_jobs.py runs as jobs: a job process imports them by name, so they live
in a module of their own (importing it does not import pytest)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


class Boom(Exception):
    """An exception class of our own: it must come back as itself."""


class NeedsTwoArguments(Exception):
    """Pickles, but cannot be rebuilt from its args: it must come back as its name and message."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what} failed: {why}")


def boom(message: str) -> None:
    raise Boom(message)


def fail_oddly() -> None:
    raise NeedsTwoArguments("the frobnicator", "out of frobs")


def allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * 2**20))


def nap(seconds: float) -> tuple[float, float]:
    """Sleep; return when it started and ended (CLOCK_MONOTONIC is the same in every process)."""
    started = time.monotonic()
    time.sleep(seconds)
    return started, time.monotonic()


def nap_until(gate: str) -> tuple[float, float]:
    """Wait until the file gate exists (the test opens it when it has seen what it wants to see, so a job can never
    end before the test looks, however busy the machine); return when it started and ended."""
    started = time.monotonic()
    while not Path(gate).exists():
        time.sleep(0.01)
    return started, time.monotonic()


def write_pid_and_sleep(path: str, seconds: float = 60) -> None:
    """Write this process's pid to path (so a test knows whom to watch), then sleep."""
    Path(path).write_text(str(os.getpid()))
    time.sleep(seconds)


def start_grandchild_and_sleep(path: str) -> None:
    """Start a process of our own, write its pid to path, then sleep: it must die with the job."""
    sleeper = subprocess.Popen(["sleep", "60"])
    Path(path).write_text(str(sleeper.pid))
    time.sleep(60)


def lineage() -> tuple[int, int, int]:
    """(its parent's pid, its process group, its own pid): where a job process came from."""
    return os.getppid(), os.getpgid(0), os.getpid()
